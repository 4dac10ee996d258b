#!/bin/sh
# mpi.sh - the databases built across processes (pmn-tablebase-mpi, with
# Open MPI's mpirun) are the files of pmn tablebase build, byte for byte,
# on 1, 2, 3 and 4 processes (oversubscribed on a machine of two cores):
# Awale and Awari-Lincke (positions repeat: a code a position, the winner's
# hole), Kalah and Kalah(4,4) (none repeats: the walk's values, found here
# by the graph's solve), Oware and Oware(4,4) (own seeds: the bounds by
# process 0, the search with the path where they do not meet divided, its
# budget spent in the order of the ranks, so that Oware's layer of 6 seeds,
# whose budget runs out, stops at the same position on any number).  A
# process lost mid-layer stops the run with the layers below whole and
# F007 saying how far it got; the same command then resumes at that layer
# and writes the same bytes.  Refused before anything is built, F007: a
# process that runs another pmn; a folder another build holds; more memory
# a process than it has, and more processes than positions
# (tests/cli/diag-F007).
set -u
. "${top_srcdir:-.}/tests/common.sh"

if ! [ -x "$work/bin/pmn-tablebase-mpi" ]; then
    echo "mpi: no pmn-tablebase-mpi in this build (configure --without-mpi)"
    exit 77
fi
if ! command -v mpirun > /dev/null 2>&1; then
    echo "mpi: no mpirun (the Debian package openmpi-bin: ./bootstrap as root installs it)"
    exit 99
fi
# Open MPI refuses root unless told; LeakSanitizer would count Open MPI's
# own blocks, never freed at exit (the sanitizer stage builds this too).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export PATH="$work/bin:$PATH"
fail=0

# mpi_build NP DIR ARGS...: the build on NP processes, its output kept.
mpi_build() {
    np=$1 dir=$2
    shift 2
    mpirun -np "$np" --oversubscribe pmn-tablebase-mpi --dir "$dir" "$@" \
        > "$work/mpi.out" 2> "$work/mpi.err"
}

same_files() {   # WHAT DIR_A DIR_B
    a=$(cd "$2" && ls) b=$(cd "$3" && ls)
    if [ "$a" != "$b" ] || [ -z "$a" ]; then
        echo "FAIL $1: not the same layers:"; echo "$a"; echo "--"; echo "$b"
        return 1
    fi
    for f in $a; do
        if ! cmp -s "$2/$f" "$3/$f"; then
            echo "FAIL $1: $f differs"
            return 1
        fi
    done
}

for case in "awale 9" "awari-lincke 9" "kalah 10" "kalah(4,4) 13" "oware 6" "oware(4,4) 11"; do
    set -- $case
    rules=$1 seeds=$2
    pmn tablebase build -q --rules "$rules" --seeds "$seeds" --dir "$work/threads" \
        > "$work/threads.out" 2>&1 || { echo "FAIL $rules: pmn tablebase build"; fail=1; }
    pmn tablebase info --rules "$rules" --dir "$work/threads" 2> /dev/null | grep "^seeds " \
        > "$work/info"
    for np in 1 2 3 4; do
        rm -rf "$work/mpi"
        if ! mpi_build "$np" "$work/mpi" --rules "$rules" --seeds "$seeds"; then
            echo "FAIL $rules on $np processes:"; cat "$work/mpi.err"; fail=1
            continue
        fi
        same_files "$rules on $np processes" "$work/threads" "$work/mpi" || fail=1
        # Its lines a layer are pmn tablebase info's of the same files.
        if ! diff -u "$work/info" "$work/mpi.out" > "$work/diff"; then
            echo "FAIL $rules on $np processes: its lines are not pmn tablebase info's:"
            cat "$work/diff"; fail=1
        fi
    done
    rm -rf "$work/threads"
done

# A process lost as the layer of 8 seeds is solved: F007 from process 0,
# the layers below whole and nothing else left; again, the rest, the same.
pmn tablebase build -q --rules awale --seeds 10 --dir "$work/threads" > /dev/null
rm -rf "$work/mpi"
PMN_MPI_FAULT=1:8 mpirun -x PMN_MPI_FAULT -np 2 --oversubscribe pmn-tablebase-mpi \
    --dir "$work/mpi" --rules awale --seeds 10 > "$work/mpi.out" 2> "$work/mpi.err"
status=$?
grep '^pmn-tablebase-mpi' "$work/mpi.err" | sed "s|$work|WORK|g" > "$work/said"
echo "pmn-tablebase-mpi: fatal[F007]: stopped during the layer of 8 seeds (a process lost, or the run ended): the layers 0 to 7 in WORK/mpi are whole; the same command starts again at 8" > "$work/want"
if [ "$status" = 0 ] || ! diff -u "$work/want" "$work/said"; then
    echo "FAIL a process lost: exit $status, said:"; cat "$work/mpi.err"; fail=1
fi
if [ "$(ls "$work/mpi" | wc -l)" != 8 ] || ls "$work/mpi" | grep -q -v '\.tb$'; then
    echo "FAIL a process lost: left"; ls "$work/mpi"; fail=1
fi
if ! mpi_build 3 "$work/mpi" --rules awale --seeds 10; then
    echo "FAIL resumed:"; cat "$work/mpi.err"; fail=1
fi
same_files "resumed on 3 processes" "$work/threads" "$work/mpi" || fail=1

# Refused: a process that runs another pmn (PMN_MPI_FAULT=version:R makes
# it say so), before anything is built (F007, 3).
PMN_MPI_FAULT=version:2 mpirun -x PMN_MPI_FAULT -np 3 --oversubscribe pmn-tablebase-mpi \
    --dir "$work/other" --rules awale --seeds 4 > "$work/mpi.out" 2> "$work/mpi.err"
status=$?
if [ "$status" = 0 ] || ! grep -q '^pmn-tablebase-mpi: fatal\[F007\]: process 2 runs pmn 0.0-other (format [0-9]*, rules awale[^)]*), process 0 pmn .*: one pmn on every node$' \
       "$work/mpi.err" || [ -e "$work/other" ]; then
    echo "FAIL another pmn: exit $status:"; cat "$work/mpi.err"; fail=1
fi

# Refused: a folder another build holds (F007, 3).
mkdir "$work/held"
/usr/bin/python3 -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(60)' "$work/held" "$work/locked" &
holder=$!
while ! [ -e "$work/locked" ]; do sleep 0.1; done
mpi_build 2 "$work/held" --rules awale --seeds 3
status=$?
kill $holder 2> /dev/null
if [ "$status" = 0 ] || ! grep -q 'fatal\[F007\]: cannot write .*another pmn is building databases there' \
       "$work/mpi.err" || [ -n "$(ls "$work/held")" ]; then
    echo "FAIL a folder in use: exit $status:"; cat "$work/mpi.err"; fail=1
fi

[ $fail = 0 ] && echo "mpi: the same files on 1-4 processes; a lost process resumed; another pmn and a folder in use refused"
exit $fail
