#!/bin/sh
# conformance.sh - other programs' records as their writers meant them:
# every fact that the sources of ../shared/conformance/ state (boards,
# captures, results, legal moves) agrees with pmn's replay, each program
# read under its reading (--rules openspiel, playstrategy), and every round
# trip of that corpus through each format pmn writes gives back the same
# record (realcheck.py and realroundtrip.sh, which the corpus carries).
# The second corpus (added-2026-11-27) likewise, vying's records under the
# vying reading.  Skipped (77) where the corpus is not beside the source tree: a
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

# The second corpus (added-2026-11-27): vying's records read under the
# vying reading (feed=if-possible), as realcheck.py's --program does for the
# programs it names (its list has no vying): a copy of the folder whose
# expected.json adds the reading to vying's games.
added=$corpus/added-2026-11-27
if [ -f "$added/expected.json" ]; then
    mkdir -p "$work/added"
    cp "$added"/*.pmn "$work/added/"
    python3 - "$added/expected.json" "$work/added/expected.json" <<'PY'
import json, sys
games = json.load(open(sys.argv[1]))
for g in games:
    if g['file'].startswith('vying'):
        g['rules'] = (g.get('rules') or []) + ['vying']
json.dump(games, open(sys.argv[2], 'w'))
PY
    python3 "$corpus/realcheck.py" "$PMN" "$work/added" > "$work/facts2" 2>&1 || fail=1
    grep -v '^OK' "$work/facts2"
    echo "second corpus facts: $(grep -c '^OK' "$work/facts2") agree, $(grep -c -E '^(DIFF|FAIL)' "$work/facts2") differ"
    sh "$corpus/realroundtrip.sh" "$PMN" "$added" "$work/round-trips2" > "$work/trips2" 2>&1
    if grep -q '^DIFF' "$work/trips2"; then
        fail=1
        grep -A6 '^DIFF' "$work/trips2"
    fi
    echo "second corpus round trips: $(grep -c '^ok' "$work/trips2") the same, $(grep -c '^DIFF' "$work/trips2") differ"
fi
exit $fail
