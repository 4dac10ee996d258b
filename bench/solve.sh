#!/bin/sh
# bench/solve.sh - the solver's figures: Kalah(m,n) solved from the opening
# under both capture rules by the margin solver (pmn analyse --solve) on one
# thread and on THREADS (default 2), beside the full search with the plies
# (--distance) measured in the same run with a budget of REF seconds
# (default 20); and endgame databases built (pmn tablebase build) to SEEDS
# seeds in play (default 16) for Kalah(6,4) and Awale without the majority
# rule, their build times and sizes.  One run each (the solves take
# seconds, not milliseconds); HASH MB of table (default 1024).  No
# databases are read by these solves (PMN_TABLEBASES is pointed at an
# empty folder).  Last, the boards of BOARDS64 (default 6,4; the databases
# serve any seeds a hole: add 6,5 or 6,6) under both capture rules on
# THREADS, with a table of HASH64 MB (default 64: a table that the cache
# holds much of is faster than a larger one) and databases of six holes a
# side to SEEDS64 seeds (default 22) built first and timed apart; and
# BOARDS55 (default 5,5) likewise with databases of five holes to SEEDS55
# (default 24).  SEEDS64=0 leaves all of it out (each build of six holes
# takes about 20 minutes, 5 GB of memory and 1.6 GB in $TMPDIR).  With
# GIRVING set, the Kalah databases beside girving's generator, and with
# GIRVING_BUILDS every small board beside girving's solver (below).
# Run from the top of the source tree after `make`: sh bench/solve.sh
set -e
PMN=${PMN:-./src/pmn}
REF=${REF:-20}
HASH=${HASH:-1024}
SEEDS=${SEEDS:-16}
THREADS=${THREADS:-2}
SEEDS64=${SEEDS64:-22}
HASH64=${HASH64:-64}
BOARDS64=${BOARDS64:-"6,4"}
SEEDS55=${SEEDS55:-24}
BOARDS55=${BOARDS55:-"5,5"}
BOARDS=${BOARDS:-"4,3 4,4 5,3 6,2 4,5 5,4 6,3 4,6"}

# solve SPEC [OPTIONS]: "value seconds nodes" of pmn analyse --solve, or a
# stop.
solve() {
    spec=$1; shift
    "$PMN" analyse --rules "$spec" --hash "$HASH" --format json "$@" |
        python3 -c 'import json,sys; j=json.load(sys.stdin); print("%+d %.2f %d %s" % (j["margin"], j["seconds"], j["nodes"], "stopped" if j["stopped"] else "exact"))'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PMN_TABLEBASES=$tmp/none
export PMN_TABLEBASES

echo "pmn $("$PMN" --version | cut -d' ' -f2), $(uname -m), table $HASH MB"
printf '%-32s %6s %8s %11s %8s   %s\n' "board (from the opening)" "value" "1 thread" "nodes" \
    "$THREADS thr." "full search with plies, ${REF} s budget"
for b in $BOARDS; do
    for rule in "" ",capture=opposite-always"; do
        spec="kalah($b)$rule"
        set -- $(solve "$spec" --solve --threads 1)
        par=$(solve "$spec" --solve --threads "$THREADS" | cut -d' ' -f2)
        ref=$(solve "$spec" --solve --distance --threads 1 --time "$REF" |
            awk '$4 == "stopped" { printf "stopped at %s s", $2; next } { printf "%s %s s %s", $1, $2, $4 }')
        printf '%-32s %6s %8s %11s %8s   %s\n' "$spec" "$1" "$2" "$3" "$par" "$ref"
    done
done

for spec in "kalah(6,4)" "awale,majority=no"; do
    start=$(date +%s.%N)
    "$PMN" tablebase build --rules "$spec" --seeds "$SEEDS" --dir "$tmp/$spec" -q > /dev/null
    end=$(date +%s.%N)
    size=$(du -sm "$tmp/$spec" | cut -f1)
    positions=$(python3 -c "from math import comb; print(comb($SEEDS + 12, 12))")
    printf 'databases %-20s to %2d seeds: %11s positions, %5s MB, built in %s s\n' \
        "$spec" "$SEEDS" "$positions" "$size" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
done

# Beside girving's generator (GIRVING: its path, built from girving/kalah
# with `make generator`; 4-bit entries, empty capture), the same databases
# by pmn, CPU seconds of each in turn, three times.
if [ -n "${GIRVING:-}" ]; then
    for run in 1 2 3; do
        rm -f "$tmp/girving.dat"
        g=$( { /usr/bin/time -f %U sh -c "printf '4\\nc %d\\ns\\nq\\n' $SEEDS |
                 '$GIRVING' '$tmp/girving.dat' > /dev/null" ; } 2>&1 | tail -1)
        p=$( { /usr/bin/time -f %U "$PMN" tablebase build --rules 'kalah,capture=opposite-always' \
                 --seeds "$SEEDS" --dir "$tmp/pmn-empty" -q > /dev/null ; } 2>&1 | tail -1)
        rm -rf "$tmp/pmn-empty"
        printf 'databases of six holes to %d seeds, empty capture: pmn %s s, girving %s s, %sx\n' \
            "$SEEDS" "$p" "$g" "$(awk -v a="$p" -v b="$g" 'BEGIN { printf "%.2f", a / b }')"
    done
fi

# Beside girving's solver on every board it and pmn solve in minutes
# (GIRVING_BUILDS: a folder of girving/kalah builds, one a board width and
# capture rule, as bench/README says -- 4e 4s 5e 5s 6e 6s, each with its
# kalah-s and generator; the s builds patched for standard capture, their
# databases in 5-bit entries): Kalah(m,n) for each "m:n n ..." of GMATRIX,
# under both capture rules, each program with its own databases to GSEEDS
# seeds (default 16) built first, one thread, GCAP seconds at most (default
# 300); CPU seconds of each build and solve, the values, and the positions
# (pmn's: every move it played; girving's searched and peeked).
if [ -n "${GIRVING_BUILDS:-}" ]; then
    GSEEDS=${GSEEDS:-16}
    GCAP=${GCAP:-300}
    GMATRIX=${GMATRIX:-"4:3 4 5 6|5:3 4 5|6:2 3 4"}
    echo "$GMATRIX" | tr '|' '\n' | while IFS=: read -r m ns; do
        for cap in e s; do
            if [ $cap = e ]; then rule=",capture=opposite-always" bits=4; else rule="" bits=5; fi
            g="$GIRVING_BUILDS/$m$cap"
            rm -rf "$tmp/pmn-g" "$tmp/girving.dat"
            /usr/bin/time -o "$tmp/cpu" -f %U "$PMN" tablebase build --rules "kalah($m,4)$rule" \
                --seeds "$GSEEDS" --dir "$tmp/pmn-g" -q -j 1 > /dev/null
            pb=$(tail -1 "$tmp/cpu")
            /usr/bin/time -o "$tmp/cpu" -f %U sh -c "printf '$bits\\nc $GSEEDS\\ns\\nq\\n' |
                '$g/generator' '$tmp/girving.dat' > /dev/null"
            gb=$(tail -1 "$tmp/cpu")
            printf 'kalah(%d,n)%s databases to %d seeds: pmn %s s, girving %s s\n' \
                "$m" "$rule" "$GSEEDS" "$pb" "$gb"
            for n in $ns; do
                pv=$(timeout "$GCAP" /usr/bin/time -o "$tmp/cpu" -f %U "$PMN" analyse --solve \
                         --threads 1 --rules "kalah($m,$n)$rule" --tablebase "$tmp/pmn-g" \
                         --format json 2> /dev/null |
                     python3 -c 'import json,sys; j=json.load(sys.stdin); print("%+d %d" % (j["margin"], j["nodes"]))' \
                     2> /dev/null) && pc=$(tail -1 "$tmp/cpu") || { pv="- -"; pc=">$GCAP"; }
                gv=$(cd "$g" && timeout "$GCAP" /usr/bin/time -o "$tmp/cpu" -f %U ./kalah-s -t 22 \
                         -e "$GSEEDS" -E "$tmp/girving.dat" s "$n" 2> /dev/null |
                     awk '/^Move:/ { sub(",", "", $7); v = $7 } /Nodes searched/ { s = $3 }
                          /Nodes peeked/ { k = $3 } END { if (k != "") printf "%+d %s %s", v, s, k }')
                [ -n "$gv" ] && gc=$(tail -1 "$tmp/cpu") || { gv="- - -"; gc=">$GCAP"; }
                set -- $pv $gv
                printf 'kalah(%d,%d)%-24s pmn %4s %7s s %11s pos | girving %4s %7s s %11s searched %11s peeked\n' \
                    "$m" "$n" "$rule" "$1" "$pc" "$2" "$3" "$gc" "$4" "$5"
            done
        done
    done
    rm -rf "$tmp/pmn-g" "$tmp/girving.dat"
fi

[ "$SEEDS64" -gt 0 ] || exit 0
# with_databases HOLES SEEDS BOARDS: each board under both capture rules,
# solved with databases of HOLES holes a side to SEEDS seeds built first.
with_databases() {
    holes=$1 seeds=$2 boards=$3
    for rule in "" ",capture=opposite-always"; do
        start=$(date +%s.%N)
        "$PMN" tablebase build --rules "kalah($holes,4)$rule" --seeds "$seeds" \
            --dir "$tmp/$holes$rule" -q > /dev/null
        end=$(date +%s.%N)
        for b in $boards; do
            spec="kalah($b)$rule"
            set -- $(HASH=$HASH64 solve "$spec" --solve --threads "$THREADS" \
                     --tablebase "$tmp/$holes$rule")
            printf '%-32s %6s %8s s on %s threads, %11s nodes, databases to %d seeds built in %s s\n' \
                "$spec" "$1" "$2" "$THREADS" "$3" "$seeds" \
                "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
        done
        rm -rf "$tmp/$holes$rule"
    done
}
with_databases 6 "$SEEDS64" "$BOARDS64"
with_databases 5 "$SEEDS55" "$BOARDS55"
