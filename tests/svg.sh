#!/bin/sh
# svg.sh - the boards pmn draws as SVG: well-formed XML (xmllint), an SVG
# 1.1 root with a title and a description, a hole for each of both sides'
# holes, and in every hole the count that the text board of pmn replay
# --ply K (or pmn position) shows for it, at several plies of the sample
# games of every rule set.
set -u
. "${top_srcdir:-.}/tests/common.sh"
leak_sample 4
if ! command -v xmllint >/dev/null 2>&1; then
    echo "svg: xmllint is missing (apt-get install libxml2-utils)"
    exit 99
fi
pass=0 fail=0

# The counts of a text board, row by row as drawn: the lines of the holes
# (named North or South, or ending in back or front), without the stores.
text_counts() {
    awk '/^(North|South) / || / (back|front)$/ {
             for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) printf "%s ", $i
         }' "$1"
}

svg_counts() {
    grep -o 'class="count">[0-9]*<' "$1" | sed 's/[^0-9]//g' | tr '\n' ' '
}

check() {   # NAME HOLES: $work/board.txt and $work/board.svg
    name=$1 holes=$2 ok=1
    if ! xmllint --noout "$work/board.svg" 2> "$work/err"; then
        echo "FAIL $name: not well-formed XML:"; cat "$work/err"; ok=0
    fi
    ns=$(xmllint --xpath 'namespace-uri(/*)' "$work/board.svg" 2>/dev/null)
    root=$(xmllint --xpath 'concat(local-name(/*), " ", /*/@version)' "$work/board.svg" 2>/dev/null)
    parts=$(xmllint --xpath 'count(/*/*[local-name()="title"]) + count(/*/*[local-name()="desc"])' \
        "$work/board.svg" 2>/dev/null)
    drawn=$(xmllint --xpath 'count(//*[local-name()="g"][starts-with(@class, "hole ")])' \
        "$work/board.svg" 2>/dev/null)
    if [ "$ns" != http://www.w3.org/2000/svg ] || [ "$root" != "svg 1.1" ] || [ "$parts" != 2 ]; then
        echo "FAIL $name: not an SVG 1.1 root with a title and a description ($ns, $root, $parts)"
        ok=0
    fi
    if [ "$drawn" != "$holes" ]; then
        echo "FAIL $name: $drawn holes drawn, expected $holes"; ok=0
    fi
    if [ "$(text_counts "$work/board.txt")" != "$(svg_counts "$work/board.svg")" ]; then
        echo "FAIL $name: the counts differ from the text board:"
        echo "  text: $(text_counts "$work/board.txt")"
        echo "  svg:  $(svg_counts "$work/board.svg")"
        ok=0
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

# FILE HOLES PLY...: the first game of FILE after each PLY.
plies() {
    file=$1 holes=$2
    shift 2
    for k in "$@"; do
        "$PMN" replay --game 1 --ply "$k" "$top_srcdir/$file" > "$work/board.txt" 2>/dev/null
        "$PMN" replay --svg --ply "$k" "$top_srcdir/$file" > "$work/board.svg" 2>/dev/null
        check "$file ply $k" "$holes"
    done
}

plies samples/hawalis/tavares-gering-2009.pmn 28 0 1 6 57 109
plies samples/hawalis/miumiu-rosenau-2009.pmn 28 12 25
plies samples/kalah/selfplay-2.pmn 12 0 3 30
plies samples/oware/selfplay-2.pmn 12 10 70
plies samples/awale/selfplay-4.pmn 12 5 50
plies samples/anywoli/selfplay-3.pmn 24 1 10 24
plies samples/tournament/zanzibar-2026.pmn 28 20

# Positions, in every notation, with counts past the dots drawn.
pos='0,0,0,0,0,0,0,0,1,0,0,1,0,0/1,0,2,1,0,0,0,0,1,1,1,1,1,0 S'
big='14,0,0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0,0,42 N'
for p in "$pos" "$big"; do
    for n in letters numbers coordinates; do
        "$PMN" position "$p" > "$work/board.txt"
        "$PMN" position --svg --notation "$n" "$p" > "$work/board.svg"
        check "position $p ($n)" 28
    done
done
# A title with XML's special characters stays well-formed.
printf '[South "<A & B>"]\n[North "\\"C\\" '"'"'D'"'"'"]\n\n1. a *\n' > "$work/amp.pmn"
"$PMN" replay --ply 1 "$work/amp.pmn" > "$work/board.txt" 2>/dev/null
"$PMN" replay --svg --ply 1 "$work/amp.pmn" > "$work/board.svg" 2>/dev/null
check "a title with <, &, quotes" 28
if ! grep -q '<title>&lt;A &amp; B&gt; - &quot;C&quot; &apos;D&apos;, after ply 1' "$work/board.svg"; then
    echo "FAIL the title is not escaped as expected:"; grep '<title>' "$work/board.svg"
    fail=$((fail + 1))
fi

echo "svg: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
