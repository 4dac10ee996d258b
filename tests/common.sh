# common.sh - sourced by the test drivers: a scratch directory $work, removed
# on exit, whose bin/ holds a `pmn` that runs the freshly built one, so that
# test commands can say `pmn` as a user would.  It runs it under
# $PMN_WRAPPER when that is set (make check-valgrind), and $PMN names it.
: "${top_srcdir:=.}" "${PMN:=./src/pmn}"
top_srcdir=$(cd "$top_srcdir" && pwd)
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${PMN_WRAPPER:-}" "$PMN" > "$work/bin/pmn"
chmod +x "$work/bin/pmn"
PMN=$work/bin/pmn
# No endgame databases but those a test builds and names: none of the
# user's default location.
PMN_TABLEBASES=$work/no-tablebases
export PMN_TABLEBASES
# One thread for the margin solver, unless a test asks for more: the
# positions counted then do not depend on the machine.
PMN_THREADS=1
export PMN_THREADS
