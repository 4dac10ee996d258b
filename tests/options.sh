#!/bin/sh
# options.sh - one meaning per option letter: every subcommand's options,
# walked from its --help (which its table makes), must give a short letter
# the same long option wherever it appears, and a long option one letter
# (or none) everywhere.  Also: every subcommand that reads records takes
# --game.
set -u
. "${top_srcdir:-.}/tests/common.sh"

commands=$("$PMN" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ -n "$commands" ] || { echo "no subcommand in pmn --help"; exit 1; }
for c in $commands; do
    "$PMN" "$c" --help > "$work/help" || { echo "pmn $c --help failed"; exit 1; }
    # "  -p, --player=NAME" and "      --position=STRING"
    sed -n 's/^  \(-[A-Za-z]\), --\([a-z][a-z0-9-]*\).*/\1 \2/p' "$work/help" |
        sed "s/\$/ $c/" >> "$work/short"
    sed -n 's/^      --\([a-z][a-z0-9-]*\).*/- \1/p' "$work/help" |
        sed "s/\$/ $c/" >> "$work/long"
done
[ -s "$work/short" ] || { echo "no short option found"; exit 1; }
fail=0
# A letter that means two long options.
clashes=$(sort -u -k1,2 "$work/short" | awk '{ if ($1 in seen && seen[$1] != $2)
    print "  " $1 " is --" seen[$1] " (" where[$1] ") and --" $2 " (" $3 ")";
    seen[$1] = $2; where[$1] = $3 }')
if [ -n "$clashes" ]; then
    echo "one letter, two meanings:"; echo "$clashes"; fail=1
fi
# A long option with a letter in one subcommand and another letter, or
# none, in another.
cat "$work/short" "$work/long" | sort -u -k1,2 | awk '{ print $2, $1 }' | sort -u |
    awk '{ n[$1]++; l[$1] = l[$1] " " $2 } END { for (o in n) if (n[o] > 1)
        print "  --" o ":" l[o] }' > "$work/letters"
if [ -s "$work/letters" ]; then
    echo "one long option, several letters ('-' for none):"; cat "$work/letters"; fail=1
fi
# A letter or a long option twice in one subcommand.
twice=$(cat "$work/short" "$work/long" | awk '$1 != "-" { print $3, $1 } { print $3, "--" $2 }' |
    sort | uniq -d)
if [ -n "$twice" ]; then
    echo "twice in one subcommand:"; echo "$twice"; fail=1
fi
for c in check replay convert export import select duplicates split stats html annotate analyse; do
    "$PMN" "$c" --help | grep -q -- '^  -g, --game=' || { echo "pmn $c takes no -g/--game"; fail=1; }
done
[ $fail = 0 ] && echo "options: $(wc -l < "$work/short") short options of $(echo $commands |
    wc -w) subcommands, one meaning each"
[ $fail = 0 ]
