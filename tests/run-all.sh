#!/bin/sh
# run-all.sh - every test pmn has: the build with warnings as errors and its
# test suite, the suite again under valgrind, then `make distcheck`, whose
# build from the tarball runs the suite under AddressSanitizer and
# UndefinedBehaviorSanitizer, and last the suite built from that tarball
# with ThreadSanitizer.
set -e
cd "$(dirname "$0")/.."

summary() {
    # The automake harness, said in the plain closing line CI reads.
    for log in test-suite.log pmn-*/_build/sub/test-suite.log; do
        [ -f "$log" ] || continue
        pass=$(sed -n 's/^# PASS: *//p' "$log")
        fail=$(sed -n 's/^# FAIL: *//p' "$log")
        error=$(sed -n 's/^# ERROR: *//p' "$log")
        echo "$1: ${pass:-0} passed, $(( ${fail:-0} + ${error:-0} )) failed"
        return
    done
}

./bootstrap
./configure --enable-werror
make -j2
if ! make -j2 check; then summary tests; exit 1; fi
summary tests
if ! make -j2 check-valgrind; then summary "tests under valgrind"; exit 1; fi
summary "tests under valgrind"
make -j2 distcheck DISTCHECK_CONFIGURE_FLAGS='--enable-werror --enable-asan --enable-ubsan'
echo "distcheck with AddressSanitizer and UndefinedBehaviorSanitizer: passed"

# ThreadSanitizer stops a test at its first report.
rm -rf _tsan && mkdir _tsan && tar -xzf pmn-*.tar.gz -C _tsan
(
    cd _tsan/pmn-*/
    ./configure --enable-werror --enable-tsan --disable-shared > /dev/null
    make -j2 > /dev/null
    TSAN_OPTIONS='halt_on_error=1' make -j2 check ||
        { cat test-suite.log; exit 1; }
)
echo "tests under ThreadSanitizer: passed"
rm -rf _tsan
summary tests
