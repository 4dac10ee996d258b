#!/bin/sh
# docs.sh - run the examples of the README, the user's guide and the man
# pages as written; hold the README's Layout to the tree.
#
# An example is a line "$ pmn ..." (or "$ printf ... | pmn ...") in an
# indented block of the README (four spaces) or between .EX and .EE in a man
# page; the lines after it, up to the next "$ " line or the end of the
# block, are its expected standard output.
# Commands run from the top of the source tree.
set -u
. "${top_srcdir:-.}/tests/common.sh"
leak_sample 4

# examples FILE KIND: write the examples of FILE to $work/ex.N.cmd/.out.
# Blank lines inside a block belong to the output shown.
examples() {
    awk -v kind="$2" -v dir="$work" -v src="$1" '
        function unroff(s) {
            gsub(/\\-/, "-", s); gsub(/\\\(aq/, "\047", s); gsub(/\\e/, "\\", s)
            gsub(/\\&/, "", s)
            return s
        }
        function out(s) { print s >> (dir "/ex." n ".out") }
        kind == "readme" {
            if ($0 ~ /^[ \t]*$/) { if (collecting) blanks++; next }
            if ($0 !~ /^    /) { collecting = 0; blanks = 0; next }
            line = substr($0, 5)
        }
        kind == "man" {
            if ($0 == ".EX") { inblock = 1; next }
            if ($0 == ".EE") { inblock = 0; collecting = 0; next }
            if (!inblock) next
            line = unroff($0)
            if (line ~ /^[ \t]*$/) { if (collecting) blanks++; next }
        }
        line ~ /^\$ (pmn|printf [^|]*\| pmn)/ {
            n++
            print substr(line, 3) > (dir "/ex." n ".cmd"); close(dir "/ex." n ".cmd")
            printf "" > (dir "/ex." n ".out")
            print src ":" NR > (dir "/ex." n ".where"); close(dir "/ex." n ".where")
            collecting = 1; blanks = 0; next
        }
        line ~ /^\$ / { collecting = 0; next }
        collecting {
            for (; blanks > 0; blanks--) out("")
            out(line)
        }
    ' "$top_srcdir/$1"
}

pass=0 fail=0
for doc in README:readme doc/guide.txt:readme man/pmn.1:man man/pmn.5:man; do
    file=${doc%%:*} kind=${doc#*:}
    [ -f "$top_srcdir/$file" ] || continue
    rm -f "$work"/ex.*
    examples "$file" "$kind"
    # In the document's order (a glob would run ex.10 before ex.9, and an
    # example before the one that makes what it reads).
    i=1
    while [ -f "$work/ex.$i.cmd" ]; do
        cmd=$work/ex.$i.cmd
        i=$((i + 1))
        base=${cmd%.cmd}
        # The slow tools' stages (PMN_TEST_LIGHT) run every fourth example,
        # as they run a sample of the CLI cases: make check runs them all.
        n=${base##*.}
        if light_run && [ $((n % 4)) != 1 ]; then continue; fi
        (cd "$top_srcdir" && PATH="$work/bin:$PATH" sh "$cmd") > "$work/actual" 2>/dev/null
        if diff -u "$base.out" "$work/actual" > "$work/diff"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL $(cat "$base.where"): $(cat "$cmd")"
            cat "$work/diff"
        fi
    done
done
# Every diagnostic code is documented in pmn(1).
for code in $("$PMN" check --list-codes | cut -d' ' -f1); do
    if grep -qx "\.B $code" "$top_srcdir/man/pmn.1"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL man/pmn.1 does not document $code"
    fi
done

# Every "see SECTION" in the man pages names a section (.SH or .SS) that
# one of them has.
sections=$(sed -n 's/^\.S[HS] "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$top_srcdir"/man/pmn.[15])
refs=$(cat "$top_srcdir"/man/pmn.[15] | awk '
    /[Ss]ee$/ { see = 1; next }
    see && /^\.BR? / { sub(/^\.BR? /, ""); gsub(/"/, ""); sub(/ *[).,;]*$/, "")
                       if ($0 ~ /^[A-Z][A-Z ]*$/) print; see = 0; next }
    { see = 0 }')
echo "$refs" | { while IFS= read -r ref; do
    [ -z "$ref" ] && continue
    if printf '%s\n' "$sections" | grep -qx "$ref"; then
        echo pass
    else
        echo "FAIL man pages say 'see $ref', a section neither has" >&2
        echo fail
    fi
done; } > "$work/refs"
pass=$((pass + $(grep -c '^pass' "$work/refs")))
fail=$((fail + $(grep -c '^fail' "$work/refs")))

# Every option of every subcommand, as its --help lists it, is documented
# in pmn(1), and no line of the help is wider than 80 columns.
sed 's/\\-/-/g' "$top_srcdir/man/pmn.1" > "$work/man"
for cmd in $("$PMN" --help | awk '/^Subcommands:/{on=1; next} on && /^  [a-z]/{print $1}'); do
    "$PMN" "$cmd" --help > "$work/help"
    for opt in $(sed -n 's/^ *\(-., \)\{0,1\}--\([a-z-]*\).*/\2/p' "$work/help"); do
        [ "$opt" = help ] && continue
        if grep -q -- "--$opt\\b" "$work/man"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL man/pmn.1 does not document pmn $cmd --$opt"
        fi
    done
    if awk 'length > 80 { exit 1 }' "$work/help"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL pmn $cmd --help has lines wider than 80 columns"
    fi
done

# The guide's perft table: each figure is what pmn perft counts.
table=$(awk '/^    depth  /{on=1; next} on && /^    [a-z]/{print; next} on{exit}' \
    "$top_srcdir/doc/guide.txt")
[ -n "$table" ] || { fail=$((fail + 1)); echo "FAIL doc/guide.txt: no perft table"; }
echo "$table" | while read -r rules counts; do
    depth=0
    for want in $counts; do
        depth=$((depth + 1))
        got=$("$PMN" perft --rules "$rules" "$depth" 2>/dev/null | sed 's/.*: //')
        [ "$got" = "$want" ] || echo "FAIL guide's perft table: $rules depth $depth is $got, not $want"
    done
done > "$work/table"
if [ -s "$work/table" ]; then
    cat "$work/table"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

# The README's Layout is the tree: each entry it lists is there, and each
# entry of the top of the tree that git keeps is listed.
layout=$(awk '/^Layout$/{on=1; next} on && /^    [^ ]/{print $1; next} on && /^[A-Z]/{exit}' \
    "$top_srcdir/README" | sed 's,/$,,')
if [ -z "$layout" ]; then
    fail=$((fail + 1)); echo "FAIL README: no Layout"
fi
for entry in $layout; do
    if [ -e "$top_srcdir/$entry" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL README's Layout lists $entry, which the tree has not"
    fi
done
if command -v git > /dev/null && git -C "$top_srcdir" rev-parse --git-dir > /dev/null 2>&1; then
    for entry in $(git -C "$top_srcdir" ls-files | sed 's,/.*,,' | sort -u | grep -v '^\.'); do
        case $entry in Makefile.am) continue ;; esac   # named with configure.ac
        if printf '%s\n' $layout | grep -qx "$entry"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL README's Layout does not list $entry"
        fi
    done
fi

echo "docs: $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
