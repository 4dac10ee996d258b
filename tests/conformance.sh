#!/bin/sh
# conformance.sh - other programs' records as their writers meant them:
# every fact that the sources of ../shared/conformance/ state (boards,
# captures, results, legal moves) agrees with pmn's replay, each program
# read under its reading (--rules openspiel, playstrategy), and every round
# trip of that corpus through each format pmn writes gives back the same
# record (realcheck.py and realroundtrip.sh, which the corpus carries).
# Skipped (77) where the corpus is not beside the source tree: a
# distribution unpacked elsewhere.
set -u
. "${top_srcdir:-.}/tests/common.sh"
corpus=$top_srcdir/../shared/conformance
if [ ! -f "$corpus/realcheck.py" ] || ! command -v python3 > /dev/null; then
    echo "SKIP: no conformance corpus at $corpus (or no python3)"
    exit 77
fi
fail=0
# realcheck.py names pmn's binary itself: the wrapper in $work/bin runs the
# one built (under valgrind in make check-valgrind).
python3 "$corpus/realcheck.py" "$PMN" "$corpus" --program openspiel=openspiel \
    --program playstrategy=playstrategy > "$work/facts" 2>&1 || fail=1
grep -v '^OK' "$work/facts"
echo "facts: $(grep -c '^OK' "$work/facts") agree, $(grep -c -E '^(DIFF|FAIL)' "$work/facts") differ"
sh "$corpus/realroundtrip.sh" "$PMN" "$corpus" "$work/round-trips" > "$work/trips" 2>&1
if grep -q '^DIFF' "$work/trips"; then
    fail=1
    grep -A6 '^DIFF' "$work/trips"
fi
echo "round trips: $(grep -c '^ok' "$work/trips") the same, $(grep -c '^DIFF' "$work/trips") differ"
exit $fail
