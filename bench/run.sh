#!/bin/sh
# bench/run.sh - pmn's speed figures, best of RUNS runs (default 5):
#   perft 8 from the opening position (moves generated and played per second)
#   the proof of a long endless move: 10,966,626 laps until a turned repeat
#   (perft 2 plays every first move, the endless one among them)
#   perft of the two-row games: Kalah and (classical) Awale to depth 10,
#   Anywoli to depth 7
#   pmn check, select, stats, duplicates, convert, export and import on an archive of
#   GAMES (default 150,000) random Hawalis games written by bench/games
#   (97.8 MB, 13.0 million moves for the default; some end by endless
#   moves, as played games do), with one job and with JOBS (default: the
#   cores), each beside a reference measured in the same run: cat,
#   pgn-extract -r and -Tw on a chess archive of the same size (apt-get
#   install pgn-extract), pmn check for select and stats, and xmllint
#   --stream; peak memory when GNU time is installed (apt-get install time)
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
best "perft 8 from the opening (sequences)" -j 1 8
best "perft 8, ${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)} jobs" 8
best "endless move proof (perft 2 from it)" -j 1 --position "$ENDLESS" 2
best "kalah perft 10" -j 1 --rules kalah 10
best "awale perft 10 (grand slams looked ahead)" -j 1 --rules awale 10
best "anywoli perft 7 (relays round the board)" -j 1 --rules anywoli 7

# The archive: random games, the same on every machine (seed 1).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x bench/games ] || make bench/games > /dev/null
bench/games "${GAMES:-150000}" 1 > "$tmp/a.pmn"
size=$(wc -c < "$tmp/a.pmn")
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}

# wall CMD...: the best wall-clock time of RUNS runs of CMD, in seconds.
wall() {
    bestt=
    for i in $(seq "$RUNS"); do
        s=$(date +%s.%N)
        "$@" > /dev/null 2>&1 || true
        e=$(date +%s.%N)
        bestt=$(awk -v t="$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')" -v b="$bestt" \
            'BEGIN { print (b == "" || t + 0 < b + 0) ? t : b }')
    done
    echo "$bestt"
}
# rate WHAT SECONDS BYTES [REF_SECONDS REF_NAME]: a row with MB/s, and its
# speed beside a reference measured in the same run.
rate() {
    printf '%-44s %9s s %7s MB/s' "$1" "$2" "$(awk -v t="$2" -v b="$3" 'BEGIN { printf "%.0f", b / t / 1e6 }')"
    [ -n "${4:-}" ] && printf '   %5sx %s' "$(awk -v t="$2" -v r="$4" 'BEGIN { printf "%.2f", r / t }')" "$5"
    printf '\n'
}

"$PMN" check -q "$tmp/a.pmn" > "$tmp/out" 2>/dev/null || true
games=$(sed -n 's/^\([0-9]*\) games.*/\1/p' "$tmp/out")
echo
echo "an archive of $games games, $(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1e6 }') MB; the last column: the speed as a multiple of the reference's"
tcat=$(wall cat "$tmp/a.pmn")
rate "cat (reading the archive)" "$tcat" "$size"
t1=$(wall "$PMN" check -q -j 1 "$tmp/a.pmn")
rate "pmn check, 1 job" "$t1" "$size" "$tcat" "cat"
tn=$(wall "$PMN" check -q -j "$JOBS" "$tmp/a.pmn")
rate "pmn check, $JOBS jobs" "$tn" "$size" "$t1" "1 job"
if command -v pgn-extract > /dev/null 2>&1 || [ -x /usr/games/pgn-extract ]; then
    PGNX=$(command -v pgn-extract || echo /usr/games/pgn-extract)
    # Chess for comparison: the Opera Game, repeated to the same size.
    cat > "$tmp/opera.pgn" <<'PGN'
[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0

PGN
    cp "$tmp/opera.pgn" "$tmp/chess.pgn"
    while [ "$(wc -c < "$tmp/chess.pgn")" -lt "$size" ]; do
        cat "$tmp/chess.pgn" "$tmp/chess.pgn" > "$tmp/c.pgn"; mv "$tmp/c.pgn" "$tmp/chess.pgn"
    done
    tp=$(wall "$PGNX" -s -r "$tmp/chess.pgn")
    rate "pgn-extract -r, chess of the same size" "$tp" "$(wc -c < "$tmp/chess.pgn")"
    rate "pmn check, 1 job (beside pgn-extract)" "$t1" "$size" "$tp" "pgn-extract"
    # Selection by a tag that no game has: the reading alone.
    tpt=$(wall "$PGNX" -s -TwNobody "$tmp/chess.pgn")
    rate "pgn-extract -Tw (select by player), chess" "$tpt" "$(wc -c < "$tmp/chess.pgn")"
    tst=$(wall "$PMN" select -q -j 1 -c --player Nobody "$tmp/a.pmn")
    rate "pmn select --player, 1 job (beside it)" "$tst" "$size" "$tpt" "pgn-extract"
else
    echo "(pgn-extract is not installed: apt-get install pgn-extract)"
fi
# Selection and statistics, beside check: by tags the games ruled out are
# not read further; by what the replay proves (a winner, an ending) every
# game takes check's quick pass; the tag reports (players, crosstables,
# matches, ratings) read tags alone, the summary replays every game.
ts=$(wall "$PMN" select -q -j 1 --player "Ali Hamad" "$tmp/a.pmn")
rate "pmn select --player (2 in 12 games), 1 job" "$ts" "$size" "$t1" "check, 1 job"
ts=$(wall "$PMN" select -q -j 1 -c --winner south --ending no-seeds "$tmp/a.pmn")
rate "pmn select --winner --ending, 1 job" "$ts" "$size" "$t1" "check, 1 job"
ts=$(wall "$PMN" stats -q -j 1 --report summary "$tmp/a.pmn")
rate "pmn stats --report summary, 1 job" "$ts" "$size" "$t1" "check, 1 job"
ts=$(wall "$PMN" stats -q -j 1 --report players "$tmp/a.pmn")
rate "pmn stats --report players, 1 job" "$ts" "$size" "$t1" "check, 1 job"
ts=$(wall "$PMN" stats -q -j 1 --report crosstable "$tmp/a.pmn")
rate "pmn stats --report crosstable (1500), 1 job" "$ts" "$size" "$t1" "check, 1 job"
ts=$(wall "$PMN" stats -q -j "$JOBS" "$tmp/a.pmn")
rate "pmn stats (summary, players), $JOBS jobs" "$ts" "$size" "$tn" "check, $JOBS jobs"
# Duplicates: two readings of the archive (the games it repeats or
# continues are found by the hashes of every game's prefixes), linear in the
# games; the archive doubled, each game then repeated once.
td=$(wall "$PMN" duplicates -q "$tmp/a.pmn")
rate "pmn duplicates (a report)" "$td" "$size" "$t1" "check, 1 job"
cat "$tmp/a.pmn" "$tmp/a.pmn" > "$tmp/aa.pmn"
td2=$(wall "$PMN" duplicates -q "$tmp/aa.pmn")
rate "pmn duplicates, the archive twice" "$td2" "$((2 * size))" "$td" "once"
rm -f "$tmp/aa.pmn"
tc=$(wall "$PMN" convert -q -j 1 "$tmp/a.pmn")
rate "pmn convert, 1 job" "$tc" "$size"
tcn=$(wall "$PMN" convert -q -j "$JOBS" "$tmp/a.pmn")
rate "pmn convert, $JOBS jobs" "$tcn" "$size" "$tc" "1 job"
te=$(wall "$PMN" export -q -j 1 "$tmp/a.pmn")
rate "pmn export (XML), 1 job" "$te" "$size" "$tc" "pmn convert, 1 job"
ten=$(wall "$PMN" export -q -j "$JOBS" "$tmp/a.pmn")
rate "pmn export (XML), $JOBS jobs" "$ten" "$size" "$te" "1 job"
"$PMN" export "$tmp/a.pmn" > "$tmp/a.xml" 2>/dev/null || true
xsize=$(wc -c < "$tmp/a.xml")
if command -v xmllint > /dev/null 2>&1; then
    # libxml2's own speed on the same XML, the yardstick of export and import
    tx=$(wall xmllint --stream --noout "$tmp/a.xml")
    rate "xmllint --stream --noout, its XML" "$tx" "$xsize"
    rate "pmn export, 1 job (beside xmllint)" "$te" "$xsize" "$tx" "xmllint"
    ti=$(wall "$PMN" import -o /dev/null "$tmp/a.xml")
    rate "pmn import, its XML" "$ti" "$xsize" "$tx" "xmllint"
fi
if [ -x /usr/bin/time ]; then
    for input in "$tmp/a.pmn" samples/hawalis/tavares-gering-2009.pmn; do
        rss=$(/usr/bin/time -f %M "$PMN" check -q -j 1 "$input" 2>&1 >/dev/null | tail -1)
        printf '%-44s %12s KiB\n' "  peak memory, check -j 1, $(basename "$input")" "$rss"
    done
    rss=$(/usr/bin/time -f %M "$PMN" check -q -j "$JOBS" "$tmp/a.pmn" 2>&1 >/dev/null | tail -1)
    printf '%-44s %12s KiB\n' "  peak memory, check -j $JOBS, a.pmn" "$rss"
fi
echo

# The analysis engine: the Hawalis problems solved with the plies (the
# full search).  Kalah's boards and the endgame databases: bench/solve.sh.
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
solve "solve hawalis problem 1" --position '0,0,0,0,0,0,0,0,1,0,0,1,0,0/1,0,2,1,0,0,0,0,1,1,1,1,1,0 S'
solve "solve hawalis problem 2" --position '0,0,0,0,0,1,0,0,0,0,0,0,1,0/1,0,0,0,0,0,0,0,1,0,0,0,0,0 S'
