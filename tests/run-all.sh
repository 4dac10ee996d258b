#!/bin/sh
# run-all.sh - every test pmn has: the build with warnings as errors and its
# test suite, then `make distcheck`, whose build from the tarball runs the
# suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
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
make -j2 distcheck DISTCHECK_CONFIGURE_FLAGS='--enable-werror --enable-asan --enable-ubsan'
echo "distcheck with AddressSanitizer and UndefinedBehaviorSanitizer: passed"
summary tests
