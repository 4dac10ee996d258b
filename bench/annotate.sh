#!/bin/sh
# bench/annotate.sh - how far a player can trust pmn annotate: on the two
# Mancala World sample games (real games between experienced players) and
# the tournament sample, the moves each budget marks, how many of them the
# budget four times as large marks the same, the opening moves marked, and
# the time taken.  Two pairs of budgets: by time (BUDGET seconds a
# position, default 0.25, the default of pmn annotate, against 4x that) and
# by positions (NODES, default 50000, against 4x that: the same on every
# machine).  Then the time to annotate the 110-ply sample game and the
# 14-game tournament at the default budget.
# Run from the top of the source tree after `make`: sh bench/annotate.sh
set -e
PMN=${PMN:-./src/pmn}
BUDGET=${BUDGET:-0.25}
NODES=${NODES:-50000}
GAMES="samples/hawalis/tavares-gering-2009.pmn samples/hawalis/miumiu-rosenau-2009.pmn"
MATCH=samples/tournament/zanzibar-2026.pmn

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PMN_TABLEBASES=$tmp/none
export PMN_TABLEBASES

# compare A B: per game and in all, the plies judged alike (the same mark,
# or none in both), the share marked (?!, ?, ??) by each, and the marks
# of the first two moves of each side.
compare() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
def games(f):
    return [json.loads(l) for l in open(f)]
a, b = games(sys.argv[1]), games(sys.argv[2])
def marked(j):
    return j not in (None, "!")
total = same = ma = mb = 0
for ga, gb in zip(a, b):
    ja = [m["judgement"] for m in ga["moves"]]
    jb = [m["judgement"] for m in gb["moves"]]
    n = len(ja)
    s = sum(x == y for x, y in zip(ja, jb))
    total, same = total + n, same + s
    ca, cb = sum(map(marked, ja)), sum(map(marked, jb))
    ma, mb = ma + ca, mb + cb
    first = " ".join((m["move"] + (m["judgement"] or "")) for m in ga["moves"][:4])
    print("  %-36s %4d plies  alike %5.1f%%  marked %5.1f%% / %5.1f%%  opening: %s" % (
        (ga["south"] or "?") + " - " + (ga["north"] or "?"), n, 100.0 * s / n,
        100.0 * ca / n, 100.0 * cb / n, first))
print("  %-36s %4d plies  alike %5.1f%%  marked %5.1f%% / %5.1f%%" % (
    "all", total, 100.0 * same / total, 100.0 * ma / total, 100.0 * mb / total))
EOF
}

echo "pmn $("$PMN" --version | cut -d' ' -f2), $(uname -m)"
long=$(python3 -c "print($BUDGET * 4)")
for set in samples match; do
    if [ $set = samples ]; then files=$GAMES; else files=$MATCH; fi
    "$PMN" annotate -q --format json --time "$BUDGET" $files > "$tmp/t1"
    "$PMN" annotate -q --format json --time "$long" $files > "$tmp/t4"
    echo "$set: --time $BUDGET against --time $long (a position)"
    compare "$tmp/t1" "$tmp/t4"
    "$PMN" annotate -q --format json --nodes "$NODES" $files > "$tmp/n1"
    "$PMN" annotate -q --format json --nodes $((NODES * 4)) $files > "$tmp/n4"
    echo "$set: --nodes $NODES against --nodes $((NODES * 4))"
    compare "$tmp/n1" "$tmp/n4"
done

echo "time at the default budget (0.25 s a position):"
for f in samples/hawalis/tavares-gering-2009.pmn $MATCH; do
    s=$(date +%s.%N)
    "$PMN" annotate -q "$f" > /dev/null
    e=$(date +%s.%N)
    printf '  %-44s %6.1f s, %s games\n' "$f" "$(python3 -c "print($e - $s)")" \
        "$(grep -c '^\[Event' "$f")"
done
