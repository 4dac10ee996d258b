#!/bin/sh
# symbols.sh - libpmn's names: the public prefix pmn_ belongs to what
# src/pmn.h declares, and only to it.  Every global that libpmn's objects
# define under that prefix must be in the header; the library's internal
# helpers are named by their module (record_, util_, xmlutil_, ...).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
archive=$top_builddir/src/.libs/libpmncore.a
[ -f "$archive" ] || { echo "no $archive: build first"; exit 99; }
header=$(grep -o 'pmn_[a-z0-9_]*' "$top_srcdir/src/pmn.h" | sort -u)
defined=$(nm -g --defined-only "$archive" | awk 'NF == 3 && $2 ~ /[TDBR]/ { print $3 }' |
    grep '^pmn_' | sort -u)
[ -n "$defined" ] || { echo "no pmn_ symbol found in $archive"; exit 1; }
stray=$(printf '%s\n' "$defined" | grep -vxF "$header")
if [ -n "$stray" ]; then
    echo "globals of libpmn named pmn_ that src/pmn.h does not declare:"
    printf '  %s\n' $stray
    exit 1
fi
echo "symbols: $(printf '%s\n' "$defined" | wc -l) pmn_ globals, all declared in src/pmn.h"
