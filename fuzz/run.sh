#!/bin/sh
# fuzz/run.sh [SECONDS] - fuzz the reader and checker with libFuzzer, under
# AddressSanitizer and UndefinedBehaviorSanitizer, starting from the samples
# and the test records.  Needs clang (apt-get install clang) and a configured
# tree (config.h).  Crashes are written to fuzz/crash-*.
set -e
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/corpus"
cp samples/hawalis/*.pmn "$out/corpus/"
i=0; for f in tests/cli/*/in.pmn; do i=$((i + 1)); cp "$f" "$out/corpus/t$i.pmn"; done
PCRE2=$(pkg-config --cflags --libs libpcre2-8)
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I src -I . -include config.h fuzz/fuzz_check.c src/lib/*.c $PCRE2 -o "$out/fuzz_check"
"$out/fuzz_check" -max_total_time="$seconds" -max_len=4096 -artifact_prefix=fuzz/crash- \
    "$out/corpus"
