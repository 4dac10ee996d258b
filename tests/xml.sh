#!/bin/sh
# xml.sh - every record pmn has (samples and test inputs) exported to XML:
# the archive must validate against grammar/pmn.rng with xmllint, and
# importing it must give exactly what pmn convert gives, except for text
# XML cannot hold (not UTF-8), which export replaces and says so (W301).
set -u
. "${top_srcdir:-.}/tests/common.sh"
leak_sample 4
if ! command -v xmllint >/dev/null 2>&1; then
    echo "xml: xmllint is missing (apt-get install libxml2-utils)"
    exit 99
fi
# Under PMN_TEST_LIGHT (the valgrind and sanitizer stages of
# tests/run-all.sh) the samples and every fourth test input: those stages
# run 2 to 50 times slower, and make check takes them all.
pass=0 fail=0 index=0
for f in "$top_srcdir"/samples/hawalis/*.pmn "$top_srcdir"/tests/cli/*/in.pmn; do
    name=${f#"$top_srcdir"/}
    index=$((index + 1))
    if light_run && [ "${name#samples/}" = "$name" ] && [ $((index % 4)) != 0 ]; then
        continue
    fi
    "$PMN" export "$f" > "$work/a.xml" 2> "$work/export.err"
    if xmllint --noout --relaxng "$top_srcdir/grammar/pmn.rng" "$work/a.xml" 2> "$work/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: the export does not validate:"; cat "$work/err"
    fi
    grep -q 'W301' "$work/export.err" && continue
    "$PMN" convert "$f" > "$work/canonical.pmn" 2>/dev/null
    "$PMN" import --validate "$work/a.xml" > "$work/back.pmn" 2> "$work/err"
    if cmp -s "$work/canonical.pmn" "$work/back.pmn"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: PMN -> XML -> PMN differs from pmn convert:"
        diff "$work/canonical.pmn" "$work/back.pmn" | head -20
        cat "$work/err"
    fi
done
echo "xml: $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
