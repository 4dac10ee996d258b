#!/bin/sh
# run-all.sh - every test pmn has, in stages:
#
#   1. the build with warnings as errors and its test suite (make check);
#   2. then three stages side by side, each in its own tree:
#      - valgrind: the unit tests and a sample of the command line's cases
#        (make check-valgrind-sample; with --full, the whole suite: make
#        check-valgrind);
#      - sanitizers: make distcheck, whose build from the tarball runs the
#        suite under AddressSanitizer and UndefinedBehaviorSanitizer;
#      - threads: the suite built from that tarball with ThreadSanitizer.
#
# Unless --full is given, the valgrind and sanitizer stages run a tenth of
# the unit tests' random trials (PMN_TEST_LIGHT, tests/unit/light.h), a
# tenth of formats.sh's random games (each rule set's through one notation),
# a quarter of xml.sh's records and of docs.sh's examples, and
# leave the browser's test out; of the CLI cases, AddressSanitizer takes one
# of each group and every sixth, valgrind one of each group but those marked
# slow; LeakSanitizer one run of pmn in four in the scripts that run it
# hundreds of times (leak_sample in tests/common.sh); ThreadSanitizer
# runs only the tests that start threads, one of each group and every sixth.
# make check runs them all.  The stages share two cores, so their time is
# the sum of their work: each cut here is work that make check does once
# already.  Each stage's output goes to _stages/NAME.log, shown when the stage
# fails; while they run, a line a minute says which are still running, and
# each summary counts the tests skipped and says why.
set -e
cd "$(dirname "$0")/.."

full=
case ${1:-} in
    --full) full=1 ;;
    '') ;;
    *) echo "usage: sh tests/run-all.sh [--full]" >&2; exit 2 ;;
esac

summary() {   # WHAT LOG: the automake harness's last counts in LOG (a pattern),
    # said in the plain closing line CI reads.
    for log in $2; do
        [ -f "$log" ] || continue
        pass=$(sed -n 's/^# PASS: *//p' "$log" | tail -n 1)
        fail=$(sed -n 's/^# FAIL: *//p' "$log" | tail -n 1)
        error=$(sed -n 's/^# ERROR: *//p' "$log" | tail -n 1)
        skip=$(sed -n 's/^# SKIP: *//p' "$log" | tail -n 1)
        echo "$1: ${pass:-0} passed, $(( ${fail:-0} + ${error:-0} )) failed, ${skip:-0} skipped"
        # What was skipped, and why (the conformance corpus in a clone
        # without ../shared, say): the harness's lines and the test's own.
        grep '^SKIP: ' "$log" | sort -u | sed 's/^/  /'
        return
    done
}

failures() {   # the logs of the tests make check failed, their last lines:
    # CI shows only what this script prints, and a failure must say why.
    for t in $(sed -n 's/^\(FAIL\|ERROR\): \([^ ]*\).*/\2/p' test-suite.log 2>/dev/null | sort -u); do
        log=${t%.sh}.log
        [ -f "$log" ] || log=$t.log
        [ -f "$log" ] || continue
        echo "---- $log (its last 80 lines)"
        tail -n 80 "$log"
    done
}

elapsed() {
    s=$(( $(date +%s) - $1 ))
    echo "$((s / 60)) min $((s % 60)) s"
}

begin=$(date +%s)
./bootstrap
./configure --enable-werror
make -j2
if ! make -j2 check; then failures; summary tests test-suite.log; exit 1; fi
summary tests test-suite.log
echo "build and make check: $(elapsed "$begin")"

# The stages after make check share the machine: each is its own tree
# (the ThreadSanitizer build is made from a tarball of this one, as the
# distcheck is), and writes its log apart.
rm -rf _stages _tsan && mkdir _stages _tsan
make dist > _stages/dist.log 2>&1 || { cat _stages/dist.log; exit 1; }
tar -xzf pmn-*.tar.gz -C _tsan
# Unless --full: light unit tests, no browser (both run in make check), and
# a sample of the CLI cases under ThreadSanitizer (under valgrind, the one
# check-valgrind-sample takes).
tsan_sample=1 asan_sample=
[ -n "$full" ] || { PMN_TEST_LIGHT=1; export PMN_TEST_LIGHT; tsan_sample=6; asan_sample=6; }

valgrind_stage() {
    if [ -n "$full" ]; then make -j2 check-valgrind; else make -j2 check-valgrind-sample; fi
}
sanitizer_stage() {
    # Without the static library, which libtool would compile a second time
    # (the build of stage 1 makes both).
    # One CLI case of each group and every sixth, as the other stages
    # sample them.  Built -O1, the sanitizers' advice: 12 s of CPU less to
    # build than -O2, and the tests take the same time (their time is
    # the sanitizers' own at each start and exit).
    PMN_TEST_SAMPLE=$asan_sample make -j2 distcheck \
        DISTCHECK_CONFIGURE_FLAGS='--enable-werror --enable-asan --enable-ubsan --disable-static CFLAGS=-g\ -O1'
}
thread_stage() {
    # ThreadSanitizer stops a test at its first report.  Unless --full, the
    # tests that start threads: the unit tests of the threads, the solver's
    # helpers and perft's; uci's search thread; the CLI cases that analyse,
    # annotate, solve, count, build databases or read a file's parts on
    # threads (-j), the first of each group and every sixth.
    # (Then only pmn and those unit tests are built.)
    set --
    match=
    if [ -z "$full" ]; then
        units="tests/unit/test_threads tests/unit/test_search tests/unit/test_perft"
        set -- "TESTS=tests/cli-1.sh tests/cli-2.sh tests/uci.sh $units" "check_PROGRAMS=$units"
        match='analyse|annotate|--solve|perft|tablebase build|uci|-j|--threads'
    fi
    cd _tsan/pmn-*/ &&
        ./configure --enable-werror --enable-tsan --disable-shared &&
        if [ -n "$full" ]; then make -j2; else make -j2 src/pmn; fi &&
        { TSAN_OPTIONS='halt_on_error=1' PMN_TEST_SAMPLE=$tsan_sample PMN_TEST_MATCH=$match \
              make -j2 check "$@" ||
            { cat test-suite.log; exit 1; }; }
}

stage() {
    # (set -e does not reach into a function run as a condition: each
    # stage fails by its last command's status.)
    start=$(date +%s)
    if ( "$1_stage" ) > "_stages/$1.log" 2>&1; then
        echo "$1: passed in $(elapsed "$start")" > "_stages/$1.done"
    else
        echo "$1: FAILED after $(elapsed "$start")" > "_stages/$1.done"
    fi
}
stage valgrind &
v=$!
stage sanitizer &
a=$!
stage thread &
t=$!
# A line a minute while the stages run: which are running, and for how
# long, so that a person (or a CI log) sees the run is alive.
(
    while sleep 60; do
        running=
        for name in valgrind sanitizer thread; do
            [ -f "_stages/$name.done" ] || running="$running $name"
        done
        [ -n "$running" ] || break
        echo "still running:$running ($(elapsed "$begin") in all)"
    done
) &
ticker=$!
wait "$v" "$a" "$t" || true
kill "$ticker" 2>/dev/null || true
wait "$ticker" 2>/dev/null || true

failed=
for name in valgrind sanitizer thread; do
    cat "_stages/$name.done"
    if grep -q FAILED "_stages/$name.done"; then
        failed=1
        echo "---- the end of _stages/$name.log:"
        tail -n 150 "_stages/$name.log"
    fi
done
summary "tests under valgrind" test-suite.log
# (make distcheck removes its tree when it passes: its stage's log keeps
# what the harness said.)
summary "tests under AddressSanitizer and UndefinedBehaviorSanitizer" _stages/sanitizer.log
summary "tests under ThreadSanitizer" "_tsan/pmn-*/test-suite.log"
echo "every stage: $(elapsed "$begin")"
[ -z "$failed" ]
rm -rf _tsan
