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
# GIRVING set, the Kalah databases beside girving's generator (below).
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

# Beside girving's solver (GIRVING_SOLVER: its path, kalah-s, built from
# girving/kalah with `make kalah-s`; six holes, empty capture; and GIRVING,
# its generator, for its databases): Kalah(6,n) for n in GBOARDS (default
# "3 4") from the opening on one thread, each program with its own
# databases to GSEEDS seeds (default 16), built first; CPU seconds, the
# value, and the positions each looked at (pmn's nodes: every move it
# played; girving's "nodes peeked", every move it played).
if [ -n "${GIRVING_SOLVER:-}" ] && [ -n "${GIRVING:-}" ]; then
    GSEEDS=${GSEEDS:-16}
    GBOARDS=${GBOARDS:-"3 4"}
    gdb="$tmp/girving-$GSEEDS.dat"
    gb=$( { /usr/bin/time -f %U sh -c "printf '4\\nc %d\\ns\\nq\\n' $GSEEDS |
             '$GIRVING' '$gdb' > /dev/null" ; } 2>&1 | tail -1)
    pb=$( { /usr/bin/time -f %U "$PMN" tablebase build --rules 'kalah,capture=opposite-always' \
             --seeds "$GSEEDS" --dir "$tmp/pmn-g" -q > /dev/null ; } 2>&1 | tail -1)
    printf 'databases to %d seeds built: pmn %s s, girving %s s of CPU\n' "$GSEEDS" "$pb" "$gb"
    for n in $GBOARDS; do
        p=$(/usr/bin/time -o "$tmp/cpu" -f %U "$PMN" analyse --solve --threads 1 \
                --rules "kalah(6,$n),capture=opposite-always" --tablebase "$tmp/pmn-g" \
                --format json |
            python3 -c 'import json,sys; j=json.load(sys.stdin); print("%+d %d" % (j["margin"], j["nodes"]))')
        p="$p $(cat "$tmp/cpu")"
        g=$(/usr/bin/time -o "$tmp/cpu" -f %U "$GIRVING_SOLVER" -t 22 -e "$GSEEDS" -E "$gdb" s "$n" |
            awk '/^Move:/ { sub(",", "", $7); v = $7 } /Nodes peeked/ { k = $3 }
                 END { printf "%+d %s", v, k }')
        g="$g $(cat "$tmp/cpu")"
        set -- $p $g
        printf 'kalah(6,%d) empty capture, one thread: pmn %s (%s s, %s positions), girving %s (%s s, %s positions), %sx\n' \
            "$n" "$1" "$3" "$2" "$4" "$6" "$5" "$(awk -v a="$3" -v b="$6" 'BEGIN { printf "%.2f", a / b }')"
    done
    rm -rf "$tmp/pmn-g" "$gdb"
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
