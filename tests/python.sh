#!/bin/sh
# python.sh - the Python package (bindings/python) built against this
# tree's libpmn, as cffi's API mode builds it (the compiler checks its
# declarations against src/pmn.h), and its pytest suite run
# (bindings/python/tests, which say what they check).  The bootstrap
# installs Debian's python3-cffi, python3-pytest and python3-hypothesis;
# Debian's python3 has them, another python3 first on PATH may not.
set -u
. "${top_srcdir:-.}/tests/common.sh"

python=$(python_with "cffi pytest hypothesis")
if [ -z "$python" ]; then
    echo "python: python3-cffi, python3-pytest or python3-hypothesis is missing" \
         "(./bootstrap as root installs them)"
    exit 99
fi
top_builddir=$(cd "${top_builddir:-.}" && pwd)
libs=$top_builddir/src/.libs
if [ -n "${PMN_SANITIZED:-}" ]; then
    # A sanitized libpmn cannot be loaded into a python3 that is not.
    echo "python: left to make check (a sanitizer build)"
    exit 77
fi

# Built apart from the source tree (make distcheck's is read-only).
mkdir -p "$work/py/pmn"
cp "$top_srcdir"/bindings/python/pmn/*.py "$top_srcdir"/bindings/python/pmn/_helpers.c "$work/py/pmn/"
if ! (cd "$work/py" && PMN_SRCDIR=$top_srcdir PMN_BUILDDIR=$top_builddir \
      "$python" pmn/_build.py) > "$work/build.log" 2>&1; then
    cat "$work/build.log"
    echo "python: the package did not build"
    exit 1
fi
# Its warnings are the declarations' against the header: none allowed.
if grep -E 'warning:' "$work/build.log"; then
    echo "python: the package's build warns"
    exit 1
fi

# The C part's threads (pmn/_helpers.c: the reading ahead, the records
# handed back to their workers) under ThreadSanitizer, driven from C
# (bindings/python/tests/ahead.c), since a python3 cannot load a sanitized
# module: a race fails the test.  Parts of 32 KiB: 200 tournaments in
# flight across the workers; an Oware file read by one checker; Latin-1.
i=0
while [ $i -lt 200 ]; do
    cat "$top_srcdir/samples/tournament/zanzibar-2026.pmn"
    i=$((i + 1))
done > "$work/many.pmn"
printf '[Event "Caf\351"]\n[Game "Oware"]\n\n1. c C *\n' > "$work/latin1.pmn"
if ! ${CC:-cc} -O1 -g -fsanitize=thread -DPACKAGE_VERSION='"test"' -I"$top_srcdir/src" \
     -I"$top_builddir/src" -o "$work/ahead" "$top_srcdir/bindings/python/tests/ahead.c" \
     -L"$libs" -lpmn -lpthread > "$work/tsan-build.log" 2>&1; then
    cat "$work/tsan-build.log"
    echo "python: the ThreadSanitizer driver did not build (gcc's libtsan: ./bootstrap)"
    exit 1
fi
LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} TSAN_OPTIONS=exitcode=66 \
    "$work/ahead" "$work/many.pmn" "$top_srcdir/samples/oware/playstrategy.pgn" \
    "$work/latin1.pmn" > "$work/ahead.out" 2>&1
rc=$?
printf '%s\n' "$work/many.pmn: 2800 games" \
    "$top_srcdir/samples/oware/playstrategy.pgn: 1 games" "$work/latin1.pmn: 1 games" \
    > "$work/ahead.want"
if [ $rc -ne 0 ] || ! cmp -s "$work/ahead.out" "$work/ahead.want"; then
    cat "$work/ahead.out"
    echo "python: the reading ahead under ThreadSanitizer (exit $rc; want:)"
    cat "$work/ahead.want"
    exit 1
fi

light=
if light_run; then
    light=1
fi
cd "$work" || exit 99
PYTHONPATH=$work/py LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
PMN_TOP_SRCDIR=$top_srcdir PMN_BIN=$PMN PMN_TEST_LIGHT=${light:-0} \
PYTHONDONTWRITEBYTECODE=1 \
    exec "$python" -m pytest -q -p no:cacheprovider "$top_srcdir/bindings/python/tests"
