#!/bin/sh
# stats.sh - pmn stats against figures worked out by hand: the crosstable,
# players and match of samples/tournament/zanzibar-2026.pmn, and Elo ratings
# of a small archive whose games are not in date order.
set -u
. "${top_srcdir:-.}/tests/common.sh"
pass=0 fail=0
sample=$top_srcdir/samples/tournament/zanzibar-2026.pmn

expect() {   # NAME EXPECTED-FILE ACTUAL-FILE
    if cmp -s "$2" "$3"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1:"
        diff "$2" "$3"
    fi
}

# The round robin, as the sample's Result tags give it (South first):
#   round 1  Khamis Said - Ralf Gering 1-0     Miceu Tavares - Aisha Rashid 1/2-1/2
#   round 2  Yusuf Omar - Khamis Said 0-1      Ralf Gering - Miceu Tavares 1-0
#   round 3  Aisha Rashid - Yusuf Omar 1-0     Khamis Said - Miceu Tavares 0-1
#   round 4  Ralf Gering - Aisha Rashid 1/2-1/2  Miceu Tavares - Yusuf Omar 1-0
#   round 5  Yusuf Omar - Ralf Gering 0-1      Aisha Rashid - Khamis Said 0-1
# Scores: Khamis 1+1+0+1 = 3; Miceu 1/2+0+1+1 = 2.5; Ralf 0+1+1/2+1 = 2.5;
# Aisha 1/2+1+1/2+0 = 2; Yusuf 0.  Sonneborn-Berger (the scores of those
# beaten, half those of those drawn with):
#   Khamis: Ralf 2.5 + Yusuf 0 + Aisha 2 = 4.5
#   Miceu:  Aisha 2/2 + Khamis 3 + Yusuf 0 = 4
#   Ralf:   Miceu 2.5 + Aisha 2/2 + Yusuf 0 = 3.5
#   Aisha:  Miceu 2.5/2 + Yusuf 0 + Ralf 2.5/2 = 2.5
#   Yusuf:  0
# So Miceu is second before Ralf on the tie-break.  The final match (an
# event of its own): Khamis - Miceu 1-0, Miceu - Khamis 1-0, Khamis -
# Miceu 1/2-1/2, Miceu - Khamis 0-1: Khamis 2.5, Miceu 1.5.  Khamis beat
# Miceu (1.5) twice and drew once: 1.5 + 1.5 + 1.5/2 = 3.75; Miceu beat
# Khamis (2.5) once and drew once: 2.5 + 2.5/2 = 3.75.
cat > "$work/expected" <<'EOF'
event,#,player,score,SB,games,1,2,3,4,5
Zanzibar Hawalis Championship 2026,1,Khamis Said,3,4.5,4,x,0,1,1,1
Zanzibar Hawalis Championship 2026,2,Miceu Tavares,2.5,4,4,1,x,0,=,1
Zanzibar Hawalis Championship 2026,3,Ralf Gering,2.5,3.5,4,0,1,x,=,1
Zanzibar Hawalis Championship 2026,4,Aisha Rashid,2,2.5,4,0,=,=,x,1
Zanzibar Hawalis Championship 2026,5,Yusuf Omar,0,0,4,0,0,0,0,x
"Zanzibar Hawalis Championship 2026, final match",1,Khamis Said,2.5,3.75,4,x,10=1,,,
"Zanzibar Hawalis Championship 2026, final match",2,Miceu Tavares,1.5,3.75,4,01=0,x,,,
EOF
"$PMN" stats --report crosstable --format csv "$sample" | tr -d '\r' > "$work/actual"
expect "crosstable of the sample" "$work/expected" "$work/actual"

# Players over both events: Khamis 3 + 2.5 = 5.5 of 8 (5 won, 1 drawn, 2
# lost); Miceu 2.5 + 1.5 = 4 of 8 (3, 2, 3); the others as above.
cat > "$work/expected" <<'EOF'
Khamis Said,8,5,1,2,5.5
Miceu Tavares,8,3,2,3,4
Ralf Gering,4,2,1,1,2.5
Aisha Rashid,4,1,2,1,2
Yusuf Omar,4,0,0,4,0
EOF
"$PMN" stats --report players --format csv "$sample" | tr -d '\r' \
    | awk -F, 'NR > 1 { print $2 "," $3 "," $4 "," $5 "," $6 "," $8 }' > "$work/actual"
expect "players of the sample" "$work/expected" "$work/actual"

# The match: Khamis's results game by game.
"$PMN" stats --report matches --format csv "$sample" | tr -d '\r' > "$work/actual"
printf '%s\n' 'match,player,opponent,games,score,opponent'"'"'s,results' \
    'Final: Khamis Said - Miceu Tavares,Khamis Said,Miceu Tavares,4,2.5,1.5,1 0 = 1' \
    > "$work/expected"
expect "match of the sample" "$work/expected" "$work/actual"

# Elo, start 1500, K 20, the later game first in the file:
#   2026.01.01  A beats B: expected 0.5 each; A 1510, B 1490.
#   2026.02.01  B beats A: B expected 1/(1 + 10^(20/400)) = 0.47124;
#               B 1490 + 20 * 0.52876 = 1500.58 -> 1501, A 1499.42 -> 1499.
cat > "$work/elo.pmn" <<'EOF'
[Date "2026.02.01"]
[South "B"]
[North "A"]
[Result "1-0"]

*

[Date "2026.01.01"]
[South "A"]
[North "B"]
[Result "1-0"]

*
EOF
"$PMN" stats --report ratings --format csv "$work/elo.pmn" 2>/dev/null | tr -d '\r' \
    | cut -d, -f2-4 > "$work/actual"
printf '%s\n' 'player,rating,change' 'B,1501,+1' 'A,1499,-1' > "$work/expected"
expect "Elo in date order" "$work/expected" "$work/actual"
# K 32 and a start of 1200: A 1216, B 1184, then B expected
# 1/(1 + 10^(32/400)) = 0.45405: B 1184 + 32 * 0.54595 = 1201.47 -> 1201.
"$PMN" stats --report ratings --format csv --k-factor 32 --start-rating 1200 "$work/elo.pmn" \
    2>/dev/null | tr -d '\r' | cut -d, -f2-3 > "$work/actual"
printf '%s\n' 'player,rating' 'B,1201' 'A,1199' > "$work/expected"
expect "Elo with --k-factor and --start-rating" "$work/expected" "$work/actual"

echo "stats: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
