#!/bin/sh
# bench/run.sh - pmn's speed figures, best of RUNS runs (default 5):
#   perft 8 from the opening position (moves generated and played per second)
#   the proof of a long endless move: 10,966,626 laps until a turned repeat
#   (perft 2 plays every first move, the endless one among them)
#   perft of the two-row games: Kalah and (classical) Awale to depth 10,
#   Anywoli to depth 7
#   pmn check on an archive of 131,072 games (the two samples, 2^16 times),
#   with its peak memory when GNU time is installed (apt-get install time)
# Run from the top of the source tree after `make`: sh bench/run.sh
set -e
PMN=${PMN:-./src/pmn}
RUNS=${RUNS:-5}
# A South move (m) whose sowing never ends, found by random search.
ENDLESS='3,5,4,0,4,5,4,7,4,5,2,7,2,2/1,0,0,0,0,0,0,0,0,0,0,0,0,0 S'

# best DESCRIPTION ARGS...: the lowest time of RUNS runs of pmn perft ARGS.
best() {
    what=$1; shift
    bestt=
    for i in $(seq "$RUNS"); do
        t=$("$PMN" perft "$@" 2>&1 >/dev/null | sed -n 's/^time \([0-9.]*\) s.*/\1/p')
        bestt=$(awk -v t="$t" -v b="$bestt" 'BEGIN { print (b == "" || t + 0 < b + 0) ? t : b }')
    done
    nodes=$("$PMN" perft "$@" 2>/dev/null | sed -n 's/^perft [0-9]*: //p')
    printf '%-44s %12s %9s s\n' "$what" "$nodes" "$bestt"
}

echo "pmn $("$PMN" --version | cut -d' ' -f2), $(uname -m), best of $RUNS runs"
printf '%-44s %12s %11s\n' "benchmark" "count" "time"
best "perft 8 from the opening (sequences)" 8
best "endless move proof (perft 2 from it)" --position "$ENDLESS" 2
best "kalah perft 10" --rules kalah 10
best "awale perft 10 (grand slams looked ahead)" --rules awale 10
best "anywoli perft 7 (relays round the board)" --rules anywoli 7

# An archive made by doubling the two sample games 16 times.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat samples/hawalis/tavares-gering-2009.pmn samples/hawalis/miumiu-rosenau-2009.pmn > "$tmp/a.pmn"
for i in $(seq 16); do cat "$tmp/a.pmn" "$tmp/a.pmn" > "$tmp/b.pmn"; mv "$tmp/b.pmn" "$tmp/a.pmn"; done
size=$(wc -c < "$tmp/a.pmn")
bestt=
for i in $(seq "$RUNS"); do
    s=$(date +%s.%N)
    "$PMN" check -q "$tmp/a.pmn" > "$tmp/out" 2>/dev/null || true
    e=$(date +%s.%N)
    bestt=$(awk -v t="$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')" -v b="$bestt" \
        'BEGIN { print (b == "" || t + 0 < b + 0) ? t : b }')
done
games=$(sed -n 's/^\([0-9]*\) games.*/\1/p' "$tmp/out")
printf '%-44s %12s %9s s   (%s MB)\n' "pmn check on an archive (games)" "$games" "$bestt" \
    "$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1e6 }')"
if [ -x /usr/bin/time ]; then
    for input in "$tmp/a.pmn" samples/hawalis/tavares-gering-2009.pmn; do
        rss=$(/usr/bin/time -f %M "$PMN" check -q "$input" 2>&1 >/dev/null | tail -1)
        printf '%-44s %12s KiB\n' "  peak memory, $(basename "$input")" "$rss"
    done
fi

# The analysis engine: solving small Kalah boards from the opening (both
# capture rules: opposite is the standard Kalah of pmn, opposite-always the
# "empty capture" of the published solutions), and the Hawalis problems.
# The time is the engine's own (JSON "seconds"), best of RUNS.
solve() {
    what=$1; shift
    bestt=
    for i in $(seq "$RUNS"); do
        json=$("$PMN" analyse --solve --hash 256 --format json "$@")
        t=$(echo "$json" | sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p')
        bestt=$(awk -v t="$t" -v b="$bestt" 'BEGIN { print (b == "" || t + 0 < b + 0) ? t : b }')
    done
    value=$(echo "$json" | sed -n 's/.*"outcome": "\([a-z]*\)", "margin": \([-0-9a-z]*\), "plies": \([0-9a-z]*\).*/\1 \2 \3/p')
    nodes=$(echo "$json" | sed -n 's/.*"nodes": \([0-9]*\).*/\1/p')
    printf '%-44s %-16s %10s nodes %8s s\n' "$what" "$value" "$nodes" "$bestt"
}
solve "solve kalah(4,3)" --rules 'kalah(4,3)'
solve "solve kalah(4,3), empty capture" --rules 'kalah(4,3),capture=opposite-always'
solve "solve kalah(4,4)" --rules 'kalah(4,4)'
solve "solve kalah(5,3)" --rules 'kalah(5,3)'
solve "solve hawalis problem 1" --position '0,0,0,0,0,0,0,0,1,0,0,1,0,0/1,0,2,1,0,0,0,0,1,1,1,1,1,0 S'
solve "solve hawalis problem 2" --position '0,0,0,0,0,1,0,0,0,0,0,0,1,0/1,0,0,0,0,0,0,0,1,0,0,0,0,0 S'
