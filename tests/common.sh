# common.sh - sourced by the test drivers: a scratch directory $work, removed
# on exit, whose bin/ holds a `pmn` that runs the freshly built one, so that
# test commands can say `pmn` as a user would.
: "${top_srcdir:=.}" "${PMN:=./src/pmn}"
top_srcdir=$(cd "$top_srcdir" && pwd)
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$PMN" > "$work/bin/pmn"
chmod +x "$work/bin/pmn"
