#!/bin/sh
# fuzz/run.sh [SECONDS] - fuzz, with libFuzzer under AddressSanitizer and
# UndefinedBehaviorSanitizer, the PMN reader, checker and writer
# (fuzz_check), check's quick pass against the full path (fuzz_quick),
# the convert round trip (fuzz_roundtrip: converting the output again
# gives the same bytes, in every notation and capture style), the readers and writers of other programs'
# notations (fuzz_formats: what pmn writes in one reads back to the same
# bytes), the XML archive
# reader (fuzz_import), the rule-file reader
# (fuzz_rules), rule specifications with position strings (fuzz_spec),
# the decoding of text files (fuzz_decode: valid UTF-8 out, the same read
# byte by byte as in bulk) and endgame database files (fuzz_tablebase:
# Awale's, Kalah's and Oware's own-seeds layers, refused with a reason or
# every value and bound in range, verify agreeing with the probes; seeded
# with fresh builds and the reproducers of 2026-11-27 remade at the
# current format), SECONDS each (default 60), starting from the samples, the
# test records and the rule files; then the PMN reader and the other
# notations' again from records at every limit of a game (SECONDS each).
# Needs clang (apt-get install clang) and a built tree (config.h,
# src/lib/xml/schema.c).  Crashes are written to fuzz/crash-*.  TARGETS
# (names, space-separated) runs those alone.
set -e
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/pmn" "$out/xml" "$out/rules" "$out/spec" "$out/ogn" "$out/rt" "$out/big" \
    "$out/bigfmt" "$out/text" "$out/tb"
# A notation's seeds open with the byte that chooses it (0 OGN, 1 PlayStrategy,
# 2 Mancala World, 3 Awari).
i=0; for f in samples/*/*.ogn tests/cli/*/in.ogn; do i=$((i + 1)); { printf '\000'; cat "$f"; } > "$out/ogn/o$i"; done
{ printf '\001'; cat samples/oware/playstrategy.pgn; } > "$out/ogn/ps"
{ printf '\002'; cat samples/oware/mancala-world.txt; } > "$out/ogn/mw"
{ printf '\003'; cat samples/awale/awari.txt; } > "$out/ogn/awari"
# PMN the other way: 4-7 + the notation.
i=0; for f in samples/oware/*.pmn samples/awale/*.pmn samples/kalah/*.pmn samples/anywoli/*.pmn; do
    for k in 4 5 6 7; do i=$((i + 1)); { printf "\\00$k"; cat "$f"; } > "$out/ogn/p$i"; done
done
printf 'hawalis\n2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S\n' > "$out/spec/1"
printf 'kalah(6,4)\n4,4,4,4,4,4/4,4,4,4,4,4 S 0:0\n' > "$out/spec/2"
printf 'awale,grand-slam=allowed\n0,5,5,5,5,4/4,4,4,4,4,4 N 1:0\n' > "$out/spec/3"
printf 'oware,openspiel\n<2, 0,0, 1,1, 1,1>\n' > "$out/spec/4"
printf 'ludii,repetition-one-side=plays-on\n<1,0,0,1,1> N\n' > "$out/spec/5"
i=0; for f in samples/*/*.pmn samples/*/*.txt; do i=$((i + 1)); cp "$f" "$out/pmn/s$i.pmn"; done
i=0; for f in rules/*.xml tests/cli/*/*.xml; do i=$((i + 1)); cp "$f" "$out/rules/r$i.xml"; done
# Games as programs write them, which the quick pass takes.
for i in $(seq 20); do [ -x bench/games ] && bench/games 1 "$i" > "$out/pmn/g$i.pmn"; done
i=0; for f in tests/cli/*/in.pmn tests/cli/*/stdin; do i=$((i + 1)); cp "$f" "$out/pmn/t$i.pmn"; done
i=0; for f in tests/cli/*/in.xml; do i=$((i + 1)); cp "$f" "$out/xml/t$i.xml"; done
for f in samples/*/*.pmn; do i=$((i + 1)); ./src/pmn export "$f" > "$out/xml/s$i.xml" 2>/dev/null || true; done
# The round trip's seeds open with the byte that chooses the notation and
# capture style (0-5).
i=0; for f in "$out"/pmn/*; do i=$((i + 1)); { printf "\\00$((i % 6))"; cat "$f"; } > "$out/rt/r$i"; done
# Records at the readers' limits (pmn(5) "Limits"), too large for the
# runs above: nesting past 100, more than 10,000 variations and 100,000
# moves, a comment past 1 MiB; in PMN, and in each other notation (first
# byte 0-3 as for fuzz_formats).  The runs below start from them with
# inputs up to 2 MiB, so that every limit is passed and mutated around.
deep() { awk -v m="$1" -v n="$2" 'BEGIN { s = "1. " m " "; for (i = 0; i < 120; i++) s = s "(1. " n " "; for (i = 0; i < 120; i++) s = s ")"; print s " *" }'; }
many_variations() { awk -v m="$1" -v n="$2" 'BEGIN { printf "1. %s ", m; for (i = 0; i < 10050; i++) printf "(1. %s) ", n; print "*" }'; }
many_moves() { awk -v m="$1" -v n="$2" 'BEGIN { for (i = 1; i <= 50010; i++) printf "%d. %s %s ", i, m, n; print "*" }'; }
long_comment() { awk -v m="$1" 'BEGIN { printf "1. %s {", m; for (i = 0; i < 16400; i++) printf "%064d", i; print "} *" }'; }
deep a A > "$out/big/deep"; many_variations a A > "$out/big/variations"
many_moves a A > "$out/big/moves"; long_comment a > "$out/big/comment"
for k in 0 1 2 3; do
    case $k in 0) m=F n=e ;; 1) m=e1d2 n=d2b1 ;; 2) m=64 n=43 ;; 3) m=C4 n=c4 ;; esac
    { printf "\\00$k"; deep $m $n; } > "$out/bigfmt/deep$k"
    { printf "\\00$k"; many_variations $m $n; } > "$out/bigfmt/variations$k"
    { printf "\\00$k"; many_moves $m $n; } > "$out/bigfmt/moves$k"
    { printf "\\00$k"; long_comment $m; } > "$out/bigfmt/comment$k"
done
# Text in every encoding decode.c reads: the samples, and each in UTF-16
# both ways with and without its mark, and in Windows-1252.
i=0; for f in samples/hawalis/*.pmn samples/oware/*.pmn; do
    i=$((i + 1)); cp "$f" "$out/text/u$i"
    for enc in UTF-16LE UTF-16BE UTF-16 WINDOWS-1252; do
        iconv -f UTF-8 -t $enc "$f" > "$out/text/$enc-$i" 2>/dev/null || true
    done
done
# Database layers (the first byte: the layer's number, and in bits 4-5 its
# kind as fuzz_tablebase reads it: 0 Awale's, 1 Kalah's, 2 Oware's own
# seeds): each kind's fresh build, and the reproducers of 2026-11-27 remade
# at the current format -- a layer of other rules under Awale's name, a
# layer of zeros, a value forged past the seeds in play with its checksum
# recomputed (the shared copies are format 1, refused at the version).
tbseed() {   # tbseed KIND FILE: FILE as a seed of its kind
    n=${2%.tb}; n=${n##*-}; n=${n#0}
    i=$((i + 1)); { printf "\\$(printf '%03o' $(($1 * 16 + n)))"; cat "$2"; } > "$out/tb/l$i"
}
./src/pmn tablebase build -q --rules awale,majority=no --seeds 4 --dir "$out/tb0" > /dev/null
./src/pmn tablebase build -q --rules kalah --seeds 4 --dir "$out/tb1" > /dev/null
./src/pmn tablebase build -q --rules oware,majority=no --seeds 4 --dir "$out/tb2" > /dev/null
for k in 0 1 2; do for f in "$out/tb$k"/*.tb; do tbseed $k "$f"; done; done
a3=$(ls "$out"/tb0/*-03.tb)
cp "$(ls "$out"/tb2/*-03.tb)" "$out/other-03.tb"; tbseed 0 "$out/other-03.tb"   # Oware's
cp "$(ls "$out"/tb0/*-03.tb)" "$out/other-03.tb"; tbseed 2 "$out/other-03.tb"   # Awale's
head -c "$(wc -c < "$a3")" /dev/zero > "$out/zeros-03.tb"; tbseed 0 "$out/zeros-03.tb"
python3 -c '
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
b[256] = 71
h = 0xCBF29CE484222325
for c in b[256:]:
    h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
b[32:40] = struct.pack("<Q", h)
open(sys.argv[2], "wb").write(b)' "$a3" "$out/forged-03.tb"
tbseed 0 "$out/forged-03.tb"
FLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I src -I . -include config.h"
LIBS="$(pkg-config --libs libpcre2-8 libxml-2.0)"
CFLAGS_DEPS="$(pkg-config --cflags libpcre2-8 libxml-2.0)"
# TARGETS="fuzz_quick fuzz_roundtrip" sh fuzz/run.sh 600: those alone
# (default: every target).
TARGETS=${TARGETS:-fuzz_check fuzz_quick fuzz_roundtrip fuzz_import fuzz_formats fuzz_rules fuzz_spec fuzz_decode fuzz_tablebase}
wanted() { case " $TARGETS " in *" $1 "*) return 0 ;; esac; return 1; }
for t in fuzz_check fuzz_quick fuzz_roundtrip fuzz_import fuzz_formats fuzz_rules fuzz_spec \
         fuzz_decode fuzz_tablebase; do
    wanted $t && clang $FLAGS $CFLAGS_DEPS fuzz/$t.c src/lib/*/*.c $LIBS -o "$out/$t"
done
# fuzz TARGET ARGS...: run a target; a finding is noted and the others
# still run.
failed=
fuzz() {
    name=$1; shift
    wanted "$name" || return 0
    "$out/$name" "$@" || failed="$failed $name"
}
# The findings of earlier audits, each run once first where ../shared is
# beside the tree (their bugs are fixed: each must pass).
for f in ../shared/reproducers/*/fuzz_*-artifact; do
    [ -f "$f" ] || continue
    t=$(basename "$f" -artifact)
    fuzz "$t" -artifact_prefix=fuzz/crash- "$f"
done
fuzz fuzz_check -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz/crash- "$out/pmn"
fuzz fuzz_quick -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz/crash- "$out/pmn"
fuzz fuzz_roundtrip -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz/crash- "$out/rt"
fuzz fuzz_import -max_total_time="$seconds" -max_len=8192 -artifact_prefix=fuzz/crash- "$out/xml"
fuzz fuzz_formats -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz/crash- "$out/ogn"
fuzz fuzz_rules -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz/crash- "$out/rules"
fuzz fuzz_spec -max_total_time="$seconds" -max_len=512 -artifact_prefix=fuzz/crash- "$out/spec"
# (past 64 KiB: a character cut by the decoder's read buffer)
fuzz fuzz_decode -max_total_time="$seconds" -max_len=140000 -artifact_prefix=fuzz/crash- "$out/text"
fuzz fuzz_tablebase -max_total_time="$seconds" -max_len=20000 -artifact_prefix=fuzz/crash- "$out/tb"
fuzz fuzz_check -max_total_time="$seconds" -max_len=2200000 -artifact_prefix=fuzz/crash- "$out/big"
fuzz fuzz_formats -max_total_time="$seconds" -max_len=2200000 -artifact_prefix=fuzz/crash- "$out/bigfmt"
if [ -n "$failed" ]; then
    echo "fuzz/run.sh: findings in:$failed (written to fuzz/crash-*)" >&2
    exit 1
fi
