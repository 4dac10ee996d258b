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
leak_sample 4
corpus=$top_srcdir/../shared/conformance
if [ ! -f "$corpus/realcheck.py" ] || ! command -v python3 > /dev/null; then
    echo "SKIP: no conformance corpus at $corpus (or no python3)"
    exit 77
fi
fail=0
# check LABEL FACTS_DIR RECORDS_DIR [ARGS]: every stated fact of FACTS_DIR's
# expected.json against the replay (realcheck.py names pmn's binary itself:
# the wrapper in $work/bin runs the one built, under valgrind in make
# check-valgrind), and every round trip of RECORDS_DIR's records.
check() {
    label=$1 facts=$2 records=$3
    shift 3
    python3 "$corpus/realcheck.py" "$PMN" "$facts" "$@" > "$work/facts" 2>&1 || fail=1
    grep -v '^OK' "$work/facts"
    echo "${label}facts: $(grep -c '^OK' "$work/facts") agree, $(grep -c -E '^(DIFF|FAIL)' "$work/facts") differ"
    rm -rf "$work/round-trips"
    sh "$corpus/realroundtrip.sh" "$PMN" "$records" "$work/round-trips" > "$work/trips" 2>&1
    if grep -q '^DIFF' "$work/trips"; then
        fail=1
        grep -A6 '^DIFF' "$work/trips"
    fi
    echo "${label}round trips: $(grep -c '^ok' "$work/trips") the same, $(grep -c '^DIFF' "$work/trips") differ"
}
check "" "$corpus" "$corpus" --program openspiel=openspiel --program playstrategy=playstrategy

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
    check "second corpus " "$work/added" "$added"
fi
exit $fail
