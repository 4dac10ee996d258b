#!/bin/sh
# cli.sh - file-driven tests of the command line.
#
# Each directory tests/cli/NAME is one case:
#   cmd     the command line, run by sh from the top of the source tree with
#           `pmn` the freshly built one
#   stdin   (optional) its standard input; otherwise it reads /dev/null
#   out     its expected standard output
#   err     (optional) its expected standard error; unchecked without it
#   status  its expected exit status
#   needs   (optional) a program besides pmn the case runs, which a build
#           may leave out (pmn-tablebase-mpi: configure --without-mpi);
#           without it the case is passed over, and said to be
# Set PMN_TEST_BLESS=1 to write the actual outputs back as the expected ones.
# PMN_TEST_SAMPLE=N runs a sample: the first case of each group (the name
# up to its first `-`, mostly the subcommand) and every Nth case besides;
# PMN_TEST_SAMPLE=first, the first of each group alone (tests/run-all.sh's
# valgrind stage; make check-valgrind runs them all), passing over the cases
# that have a file `slow` (its text says why: each costs 15 s and more under
# valgrind, most of it valgrind's start at each of many runs of pmn, and
# the AddressSanitizer stage runs them all).
# PMN_TEST_MATCH=REGEX runs only the cases whose command matches it (grep
# -E), sampled as above among themselves: the ThreadSanitizer stage's, the
# commands that start threads.
# PMN_TEST_PART=K/N runs the Kth of N parts of those, case by case in turn:
# make check runs tests/cli-1.sh and cli-2.sh, the two halves, side by side.
# PMN_TEST_CASES=DIR runs the cases of DIR (from the top of the source
# tree) instead of tests/cli: tests/postgres.sh runs tests/pg so.
set -u
. "${top_srcdir:-.}/tests/common.sh"

pass=0 fail=0 index=0 group= turn=0
for case in "$top_srcdir/${PMN_TEST_CASES:-tests/cli}"/*/; do
    case=${case%/}
    name=${case##*/}
    if [ -n "${PMN_TEST_MATCH:-}" ] && ! grep -qE -e "$PMN_TEST_MATCH" "$case/cmd"; then
        continue
    fi
    if [ "${PMN_TEST_SAMPLE:-}" = first ] && [ -f "$case/slow" ]; then
        continue
    fi
    if [ -n "${PMN_TEST_SAMPLE:-}" ] && [ "${name%%-*}" = "$group" ]; then
        # Not the first of its group: every Nth, or none.
        [ "$PMN_TEST_SAMPLE" = first ] && continue
        index=$((index + 1))
        [ $((index % PMN_TEST_SAMPLE)) = 0 ] || continue
    fi
    group=${name%%-*}
    if [ -n "${PMN_TEST_PART:-}" ]; then
        turn=$((turn + 1))
        [ $(((turn - 1) % ${PMN_TEST_PART#*/} + 1)) = "${PMN_TEST_PART%/*}" ] || continue
    fi
    if [ -f "$case/needs" ] && ! [ -x "$work/bin/$(cat "$case/needs")" ]; then
        echo "SKIP $name: no $(cat "$case/needs") in this build"
        continue
    fi
    input=/dev/null
    [ -f "$case/stdin" ] && input=$case/stdin
    (cd "$top_srcdir" && PATH="$work/bin:$PATH" sh "$case/cmd") \
        < "$input" > "$work/out" 2> "$work/err"
    status=$?
    if [ "${PMN_TEST_BLESS:-}" = 1 ]; then
        cp "$work/out" "$case/out"
        echo "$status" > "$case/status"
        [ -f "$case/err" ] && cp "$work/err" "$case/err"
    fi
    ok=1
    read -r expected < "$case/status"
    if [ "$status" != "$expected" ]; then
        echo "FAIL $name: exit status $status, expected $expected"
        ok=0
    fi
    if ! diff -u "$case/out" "$work/out" > "$work/diff"; then
        echo "FAIL $name: standard output differs:"; cat "$work/diff"; ok=0
    fi
    if [ -f "$case/err" ] && ! diff -u "$case/err" "$work/err" > "$work/diff"; then
        echo "FAIL $name: standard error differs:"; cat "$work/diff"; ok=0
    fi
    if [ $ok = 1 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "  (command: $(cat "$case/cmd"))"
    fi
done
echo "cli: $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
