#!/bin/sh
# options.sh - one meaning per option letter: every subcommand's options,
# walked from its --help (which its table makes), must give a short letter
# the same long option wherever it appears, and a long option one letter
# (or none) everywhere.  Also: every subcommand that reads records takes
# --game, and an option that more than one subcommand shares (command.h
# declares it once) has the same help wherever it appears.
set -u
. "${top_srcdir:-.}/tests/common.sh"
leak_sample 4

commands=$("$PMN" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ -n "$commands" ] || { echo "no subcommand in pmn --help"; exit 1; }
for c in $commands; do
    "$PMN" "$c" --help > "$work/help" || { echo "pmn $c --help failed"; exit 1; }
    # "  -p, --player=NAME" and "      --position=STRING"
    sed -n 's/^  \(-[A-Za-z]\), --\([a-z][a-z0-9-]*\).*/\1 \2/p' "$work/help" |
        sed "s/\$/ $c/" >> "$work/short"
    sed -n 's/^      --\([a-z][a-z0-9-]*\).*/- \1/p' "$work/help" |
        sed "s/\$/ $c/" >> "$work/long"
    # Each option's help as one line, its spaces squeezed: "--output=FILE write to ..."
    awk -v c="$c" '/^Options:/ { on = 1; next } on && /^$/ { on = 0 }
        on && /^  (-[A-Za-z], |    )--/ { if (o) print o; sub(/^ *(-[A-Za-z], )? */, ""); o = c " " $0; next }
        on { o = o " " $0 } END { if (o) print o }' "$work/help" | tr -s ' ' >> "$work/helps"
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
# The shared options' help: one text each.
# (check's --solve and annotate's --opening are their own, of other meanings.)
for o in output jobs strict from notation capture-style running-totals tablebase nodes \
         time distance hash threads tag player south north event date result winner \
         rule-set ending moves contains reaches any-side ignore-captured clean errors \
         code invert criteria; do
    n=$(grep -E "^[a-z]+ --$o[= ]" "$work/helps" | cut -d' ' -f2- | sort -u | wc -l)
    [ "$n" = 1 ] || { echo "--$o has $n helps:"; grep -E "^[a-z]+ --$o[= ]" "$work/helps"; fail=1; }
done
for c in check replay convert export import select duplicates split stats html annotate analyse; do
    "$PMN" "$c" --help | grep -q -- '^  -g, --game=' || { echo "pmn $c takes no -g/--game"; fail=1; }
done
[ $fail = 0 ] && echo "options: $(grep -c . "$work/helps") options, $(wc -l < "$work/short") of them short, of $(echo $commands |
    wc -w) subcommands, one meaning each"
[ $fail = 0 ]
