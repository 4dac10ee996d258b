#!/bin/sh
# browser.sh - the pages of pmn html in headless Chromium, driven through
# Selenium by tests/browser.py (which says what it checks).  The bootstrap
# installs Debian's chromium, chromium-driver and python3-selenium.
set -u
. "${top_srcdir:-.}/tests/common.sh"

# The valgrind and sanitizer stages of tests/run-all.sh (PMN_TEST_LIGHT)
# leave the pages to make check: the time here is Chromium's, and the
# pmn html that makes them runs there in the CLI cases.
if light_run; then
    echo "browser: left to make check (PMN_TEST_LIGHT)"
    exit 77
fi

python=$(python_with selenium)
if [ -z "$python" ] || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] ||
   [ ! -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ]; then
    echo "browser: chromium, chromium-driver or python3-selenium is missing" \
         "(./bootstrap as root installs them)"
    exit 99
fi
PMN=$PMN top_srcdir=$top_srcdir work=$work BENCH_GAMES=${BENCH_GAMES:-./bench/games} \
    HOME=$work "$python" "$top_srcdir/tests/browser.py"
