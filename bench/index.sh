#!/bin/sh
# bench/index.sh - pmn index beside the scans it replaces, on GAMES
# (default 150,000; 1000000 for the issue's million) random Hawalis games
# written by bench/games (seed 1, the same on every machine):
#   building the index, its CPU beside pmn check -j 1's on the same games,
#   its peak memory and its bytes a game;
#   a position of ply 4 (of game 5) found by pmn select --reaches (every
#   game replayed, with the cores as jobs) and by pmn index select (looked
#   up), median of RUNS (default 9) warm runs each, and the games found
#   compared byte for byte;
#   pmn index explore at that position and at the opening.
# Needs GNU time (apt-get install time) and python3.  Run from the top of
# the source tree after `make`: sh bench/index.sh
set -e
PMN=${PMN:-./src/pmn}
RUNS=${RUNS:-9}
GAMES=${GAMES:-150000}
# The program itself, not libtool's wrapper script (whose start, a shell,
# would be most of a lookup's time).
if [ -x src/.libs/pmn ] && [ "$PMN" = ./src/pmn ]; then
    PMN=src/.libs/pmn
    LD_LIBRARY_PATH=$PWD/src/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x bench/games ] || make bench/games > /dev/null
bench/games "$GAMES" 1 > "$tmp/a.pmn"
size=$(wc -c < "$tmp/a.pmn")

# cpu CMD...: user + system seconds of CMD, and its peak KiB, as "S KIB".
cpu() {
    /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$@" > /dev/null 2>&1 || true
    awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$tmp/time"
}
# median CMD...: the median wall time of RUNS runs, in milliseconds.
median() {
    for i in $(seq "$RUNS"); do
        s=$(date +%s%N)
        "$@" > /dev/null 2>&1 || true
        e=$(date +%s%N)
        echo $(( (e - s) / 1000 ))
    done | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}

echo "pmn $("$PMN" --version | cut -d' ' -f2), $(uname -m); $GAMES games, $(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1e6 }') MB"
set -- $(cpu "$PMN" check -q -j 1 "$tmp/a.pmn"); check=$1
set -- $(cpu "$PMN" index build -q "$tmp/a.db" "$tmp/a.pmn"); build=$1 peak=$2
bytes=$(wc -c < "$tmp/a.db")
printf '%-46s %8s s CPU\n' "pmn check -j 1 (the reference)" "$check"
printf '%-46s %8s s CPU  %5sx check; peak %d MiB\n' "pmn index build" "$build" \
    "$(awk -v a="$build" -v b="$check" 'BEGIN { printf "%.1f", a / b }')" $((peak / 1024))
printf '%-46s %8s bytes (%s bytes a game)\n' "the index" "$bytes" \
    "$(awk -v a="$bytes" -v g="$GAMES" 'BEGIN { printf "%.0f", a / g }')"

# A position of ply 4 of game 5, as a position string (from replay's board).
P="$("$PMN" replay -g 5 -k 4 "$tmp/a.pmn" 2>/dev/null | python3 -c '
import sys
out = sys.stdin.read().splitlines()
i = next(i for i, l in enumerate(out) if l.strip().startswith("G  F"))
N = dict(zip("GFEDCBA", out[i + 1].split()[1:8])); N.update(zip("HIJKLMN", out[i + 2].split()[0:7]))
S = dict(zip("nmlkjih", out[i + 5].split()[1:8])); S.update(zip("abcdefg", out[i + 6].split()[0:7]))
print(",".join(S[c] for c in "abcdefghijklmn") + "/" + ",".join(N[c] for c in "ABCDEFGHIJKLMN") + " S")')"
OPENING='2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S'
"$PMN" select -q --reaches "$P" "$tmp/a.pmn" > "$tmp/scan" 2>/dev/null || true
"$PMN" index select "$tmp/a.db" --reaches "$P" > "$tmp/looked" 2>/dev/null || true
found=$(grep -c '^\[Event' "$tmp/looked" || true)
same=$(cmp -s "$tmp/scan" "$tmp/looked" && echo "the same games, byte for byte" || echo "DIFFERENT games")
scan=$(median "$PMN" select -q -c --reaches "$P" "$tmp/a.pmn")
look=$(median "$PMN" index select -c "$tmp/a.db" --reaches "$P")
printf '%-46s %8s ms (median of %d)\n' "pmn select --reaches (a scan)" "$scan" "$RUNS"
printf '%-46s %8s ms  %5sx the scan; %d games, %s\n' "pmn index select --reaches" "$look" \
    "$(awk -v a="$scan" -v b="$look" 'BEGIN { printf "%.0f", a / b }')" "$found" "$same"
printf '%-46s %8s ms\n' "pmn index explore, that position" \
    "$(median "$PMN" index explore "$tmp/a.db" --reaches "$P")"
printf '%-46s %8s ms\n' "pmn index explore, the opening (every game)" \
    "$(median "$PMN" index explore "$tmp/a.db" --reaches "$OPENING")"
