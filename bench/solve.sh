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
# empty folder).  Last, Kalah(6,4) under both capture rules on THREADS,
# with a table of HASH64 MB (default 2048) and databases to SEEDS64 seeds
# (default 20) built first and timed apart; SEEDS64=0 leaves it out (each
# build takes minutes and about 700 MB in $TMPDIR).
# Run from the top of the source tree after `make`: sh bench/solve.sh
set -e
PMN=${PMN:-./src/pmn}
REF=${REF:-20}
HASH=${HASH:-1024}
SEEDS=${SEEDS:-16}
THREADS=${THREADS:-2}
SEEDS64=${SEEDS64:-20}
HASH64=${HASH64:-2048}
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

[ "$SEEDS64" -gt 0 ] || exit 0
for rule in "" ",capture=opposite-always"; do
    spec="kalah(6,4)$rule"
    start=$(date +%s.%N)
    "$PMN" tablebase build --rules "$spec" --seeds "$SEEDS64" --dir "$tmp/64$rule" -q > /dev/null
    end=$(date +%s.%N)
    set -- $(HASH=$HASH64 solve "$spec" --solve --threads "$THREADS" --tablebase "$tmp/64$rule")
    printf '%-32s %6s %8s s on %s threads, %11s nodes, databases to %d seeds built in %s s\n' \
        "$spec" "$1" "$2" "$THREADS" "$3" "$SEEDS64" \
        "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
done
