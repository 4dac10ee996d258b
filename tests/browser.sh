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

# Debian's python3 has Debian's selenium; another python3 first on PATH
# (pyenv, a virtualenv) may not.
python=
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import selenium' 2>/dev/null; then
        python=$p
        break
    fi
done
if [ -z "$python" ] || [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] ||
   [ ! -x "${CHROMEDRIVER:-/usr/bin/chromedriver}" ]; then
    echo "browser: chromium, chromium-driver or python3-selenium is missing" \
         "(./bootstrap as root installs them)"
    exit 99
fi
PMN=$PMN top_srcdir=$top_srcdir work=$work BENCH_GAMES=${BENCH_GAMES:-./bench/games} \
    HOME=$work "$python" "$top_srcdir/tests/browser.py"
