#!/bin/sh
# ogn.sh - OGN (Aualé's Oware Game Notation) both ways: every Oware and
# Awale sample and 300 generated games of each go PMN -> OGN -> PMN and come
# back as the same canonical PMN, and OGN -> PMN -> OGN gives the same OGN;
# pmn check finds them as clean in OGN as in PMN.
set -u
. "${top_srcdir:-.}/tests/common.sh"
pass=0 fail=0

same() {   # WHAT A B
    if cmp -s "$2" "$3"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1:"
        diff -u "$2" "$3" | head -20
    fi
}

round_trip() {   # NAME PMN-FILE
    "$PMN" convert -q "$2" > "$work/canonical.pmn" 2>/dev/null
    "$PMN" convert -q --to ogn "$2" > "$work/a.ogn" 2> "$work/err"
    "$PMN" convert -q --from ogn "$work/a.ogn" > "$work/back.pmn" 2>> "$work/err"
    same "$1: PMN -> OGN -> PMN" "$work/canonical.pmn" "$work/back.pmn"
    "$PMN" convert -q --to ogn "$work/back.pmn" > "$work/b.ogn" 2>> "$work/err"
    same "$1: OGN -> PMN -> OGN" "$work/a.ogn" "$work/b.ogn"
    if [ -s "$work/err" ]; then
        fail=$((fail + 1)); echo "FAIL $1: said something:"; cat "$work/err"
    else
        pass=$((pass + 1))
    fi
    a=$("$PMN" check -q "$2" 2>&1 | tail -1)
    b=$("$PMN" check -q --from ogn "$work/a.ogn" 2>&1 | tail -1)
    if [ "$a" = "$b" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL $1: check says '$a' of PMN, '$b' of OGN"
    fi
}

round_trip oware-sample "$top_srcdir/samples/oware/selfplay-2.pmn"
round_trip awale-sample "$top_srcdir/samples/awale/selfplay-4.pmn"
for rules in oware awale; do
    "${BENCH_GAMES:-./bench/games}" 300 11 $rules > "$work/$rules.pmn"
    round_trip "300 $rules games" "$work/$rules.pmn"
done

# The samples in OGN are the samples in PMN, written as Aualé writes them.
for f in oware/selfplay-2 awale/selfplay-4; do
    "$PMN" convert -q --to ogn "$top_srcdir/samples/$f.pmn" > "$work/s.ogn"
    same "samples/$f.ogn is pmn's OGN of samples/$f.pmn" "$top_srcdir/samples/$f.ogn" "$work/s.ogn"
done

echo "ogn: $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
