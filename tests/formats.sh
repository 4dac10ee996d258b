#!/bin/sh
# formats.sh - other programs' notations both ways: the samples of the
# two-row games and generated games of every rule set go PMN -> FORMAT -> PMN and come
# back as the same canonical PMN, and FORMAT -> PMN -> FORMAT gives the same
# FORMAT, for OGN, PlayStrategy's PGN, the Mancala World nomenclature and
# the Awari notation; pmn check finds them as clean in each as in PMN; the
# samples in each go through XML unchanged.
# PlayStrategy's PGN writes no captures (said by W132): its games come back
# as the same moves, tags, comments and variations, without the counts.
set -u
. "${top_srcdir:-.}/tests/common.sh"
leak_sample 4
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

round_trip() {   # NAME PMN-FILE FORMAT
    f=$3
    "$PMN" convert -q "$2" > "$work/canonical.pmn" 2>/dev/null
    "$PMN" convert -q --to $f "$2" > "$work/a.$f" 2> "$work/err"
    "$PMN" convert -q --from $f "$work/a.$f" > "$work/back.pmn" 2>> "$work/err"
    # What these notations cannot hold and pmn gives back, said once a game
    # (W132): PlayStrategy's capture counts; a sowing that ends in a store
    # (Kalah, Anywoli), written with its start alone; holes past 9
    # (Anywoli), written with '-' in the Mancala World's numbers.
    grep -v -e 'warning\[W132\]: capture counts' -e "warning\[W132\]: a move whose last seed's hole" \
        -e 'warning\[W132\]: holes numbered past 9' "$work/err" > "$work/err2"
    mv "$work/err2" "$work/err"
    if [ $f = playstrategy ]; then
        # The canonical PMN without its capture counts (no comment of the
        # samples holds a "(+N)").
        sed -E 's/ ?\(\+[0-9]+\)//g' "$work/canonical.pmn" | "$PMN" convert -q > "$work/bare.pmn"
        same "$1: PMN -> $f -> PMN (but the capture counts)" "$work/bare.pmn" "$work/back.pmn"
    else
        same "$1: PMN -> $f -> PMN" "$work/canonical.pmn" "$work/back.pmn"
    fi
    "$PMN" convert -q --to $f "$work/back.pmn" > "$work/b.$f" 2>> "$work/err"
    grep -v -e 'warning\[W132\]: capture counts' -e "warning\[W132\]: a move whose last seed's hole" \
        -e 'warning\[W132\]: holes numbered past 9' "$work/err" > "$work/err2"
    mv "$work/err2" "$work/err"
    same "$1: $f -> PMN -> $f" "$work/a.$f" "$work/b.$f"
    if [ -s "$work/err" ]; then
        fail=$((fail + 1)); echo "FAIL $1 ($f): said something:"; cat "$work/err"
    else
        pass=$((pass + 1))
    fi
    a=$("$PMN" check -q "$2" 2>&1 | tail -1)
    b=$("$PMN" check -q --from $f "$work/a.$f" 2>&1 | tail -1)
    if [ "$a" = "$b" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL $1: check says '$a' of PMN, '$b' of $f"
    fi
}

# opening.ogn: comments, nested variations, judgements and NAGs;
# set-up.ogn: a FEN start.
"$PMN" convert -q "$top_srcdir/samples/oware/opening.ogn" > "$work/opening.pmn"
"$PMN" convert -q "$top_srcdir/samples/oware/set-up.ogn" > "$work/set-up.pmn"
for f in ogn playstrategy mancala-world awari; do
    round_trip opening "$work/opening.pmn" $f
    round_trip set-up "$work/set-up.pmn" $f
    round_trip oware-sample "$top_srcdir/samples/oware/selfplay-2.pmn" $f
    round_trip awale-sample "$top_srcdir/samples/awale/selfplay-4.pmn" $f
    # Turns of several sowings: each written with its turn's number again.
    round_trip kalah-sample "$top_srcdir/samples/kalah/selfplay-2.pmn" $f
    round_trip anywoli-sample "$top_srcdir/samples/anywoli/selfplay-3.pmn" $f
done
# Random games of every rule set (Anywoli's run to two thousand moves).
# Under PMN_TEST_LIGHT (the valgrind and sanitizer stages of
# tests/run-all.sh) a tenth of them, as the unit tests take a tenth of their
# trials (tests/unit/light.h), each rule set's through one notation in turn
# (every notation has some): every game is checked as in make check.
turn=0
for rules in oware:300 awale:300 kalah:300 anywoli:20 hawalis:100; do
    n=${rules#*:} rules=${rules%:*}
    formats="ogn playstrategy mancala-world awari"
    if light_run; then
        n=$((n / 10))
        set -- $formats
        shift $((turn % 4))
        formats=$1
        turn=$((turn + 1))
    fi
    "${BENCH_GAMES:-./bench/games}" $n 11 $rules > "$work/$rules.pmn"
    for f in $formats; do
        round_trip "$n $rules games" "$work/$rules.pmn" $f
    done
done

# The samples in OGN are the samples in PMN, written as Aualé writes them.
for f in oware/selfplay-2 awale/selfplay-4; do
    "$PMN" convert -q --to ogn "$top_srcdir/samples/$f.pmn" > "$work/s.ogn"
    same "samples/$f.ogn is pmn's OGN of samples/$f.pmn" "$top_srcdir/samples/$f.ogn" "$work/s.ogn"
done

# Through XML: the samples in every notation export and import to the
# PMN that convert makes of them (OGN's letters go out as PMN's).
for f in oware/opening.ogn oware/set-up.ogn oware/playstrategy.pgn oware/mancala-world.txt \
         awale/awari.txt; do
    "$PMN" convert -q "$top_srcdir/samples/$f" > "$work/direct.pmn" 2>/dev/null
    "$PMN" export "$top_srcdir/samples/$f" 2>/dev/null | "$PMN" import > "$work/xml.pmn" 2>&1
    same "samples/$f through XML" "$work/direct.pmn" "$work/xml.pmn"
done

echo "formats: $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
