#!/bin/sh
# uci.sh - pmn uci driven through sessions of commands, as Aualé drives its
# engine: the handshake, positions from the start and from a "fen", moves
# with and without blanks, searches by depth (their best move the one pmn
# analyse finds, letters in the protocol's case), by time, infinite ones
# stopped, options, and what is wrong said as "info string" without ending
# the session.
set -u
. "${top_srcdir:-.}/tests/common.sh"
pass=0 fail=0

expect() {   # WHAT PATTERN: a line of $work/out matches the extended regex
    if grep -Eq "$2" "$work/out"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $1: no line matches /$2/ in:"
        sed 's/^/  /' "$work/out"
    fi
}

# The handshake.
printf 'uci\nisready\nquit\n' | "$PMN" uci > "$work/out"
expect "uci: id" '^id name pmn [0-9.]+ \(oware\)$'
expect "uci: options" '^option name Hash type spin default 64 min 1 max 65536$'
expect "uci: uciok" '^uciok$'
expect "isready" '^readyok$'

# Depth searches agree with pmn analyse (South's holes upper case).  The
# input ends after "go": a search with limits reaches them first ("quit"
# would stop it).
best() {   # RULES POSITION-STRING DEPTH: pmn analyse's best, in protocol case
    "$PMN" analyse --rules "$1" --depth "$3" --position "$2" |
        sed -n 's/^Best: //p' | tr 'a-zA-Z' 'A-Za-z'
}
b=$(best oware '4,4,4,4,4,4/4,4,4,4,4,4 S' 6)
printf 'ucinewgame\nposition startpos\ngo depth 6\n' | "$PMN" uci > "$work/out"
expect "go depth 6 from the start" "^bestmove $b( ponder [a-f])?$"
expect "info lines" '^info depth 6 score (cp|mate) -?[0-9]+ nodes [0-9]+ time [0-9]+ nps [0-9]+ pv [A-Fa-f]+$'

# A fen, and moves after it written together and apart: the same position.
b=$(best oware '0,1,5,5,0,6/6,1,0,5,5,5 N 3:6' 7)
printf 'position fen 0-1-5-5-0-6-6-1-0-5-5-5-3-6-N\ngo depth 7\n' | "$PMN" uci > "$work/out"
expect "fen" "^bestmove $b( ponder [A-F])?$"
printf 'position startpos moves AfBc\ngo depth 5\nposition startpos moves A f B c\ngo depth 5\n' |
    "$PMN" uci > "$work/out"
if [ "$(grep -c '^bestmove' "$work/out")" = 2 ] &&
   [ "$(grep '^bestmove' "$work/out" | sort -u | wc -l)" = 1 ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL moves together and apart differ:"; cat "$work/out"
fi

# A search asked again of the same position still names its move.
printf 'position startpos\ngo depth 4\nposition startpos\ngo depth 4\n' | "$PMN" uci > "$work/out"
if [ "$(grep -c '^bestmove [A-F]' "$work/out")" = 2 ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL a second search of a position:"; cat "$work/out"
fi

# go infinite answers when stopped, not before; go movetime by itself.
(printf 'position startpos\ngo infinite\n'; sleep 1; printf 'isready\nstop\nquit\n') |
    "$PMN" uci > "$work/out"
if [ "$(sed -n '/^readyok/=' "$work/out")" -lt "$(sed -n '/^bestmove/=' "$work/out")" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1)); echo "FAIL go infinite answered before stop:"; cat "$work/out"
fi
printf 'position startpos moves C\ngo movetime 200\n' > "$work/in"
(cat "$work/in"; sleep 2; printf 'quit\n') | "$PMN" uci > "$work/out"
expect "go movetime" '^bestmove [a-f]'
# End of input stops a search: the answer still comes.
printf 'position startpos\ngo infinite\n' | "$PMN" uci > "$work/out"
expect "end of input" '^bestmove [A-F]'

# Another rule set, by option and by --rules; a finished game.
b=$(best kalah '4,4,4,4,4,4/4,4,4,4,4,4 S' 5)
printf 'setoption name Rules value kalah\nposition startpos\ngo depth 5\n' | "$PMN" uci > "$work/out"
expect "setoption Rules" "^bestmove $b"
printf 'uci\nposition startpos moves I\ngo depth 3\n' | "$PMN" uci --rules hawalis > "$work/out"
expect "--rules hawalis" '^id name pmn .* \(hawalis\)$'
expect "hawalis move" '^bestmove [a-n]'
printf 'position fen 0-0-0-0-0-2-1-0-0-0-0-0-20-25-S\ngo depth 3\n' | "$PMN" uci > "$work/out"
expect "a finished game" '^bestmove \(none\)$'

# What is wrong is said, and the session goes on.
printf 'position fen 1-2-3\nposition startpos moves Az\nposition startpos moves a\nfly\nsetoption name Hash value 0\ngo depth x\nisready\n' |
    "$PMN" uci > "$work/out"
expect "bad fen" '^info string fen, column 6: 3 counts, expected 14'
expect "bad move" '^info string no such move: z'
expect "wrong side" "^info string a: it is South's turn"
expect "unknown command" '^info string unknown command: fly'
expect "bad hash" '^info string Hash takes megabytes'
expect "bad go" '^info string go depth takes a number'
expect "still ready" '^readyok$'
"$PMN" uci extra-file > "$work/out" 2>&1
[ $? = 64 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL a file operand: not 64"; }

# A database layer cut short in place while the engine has it mapped: the
# next read of it is F005 and exit status 3, not a death by SIGBUS.  (Not
# under the sanitizers, whose own SIGBUS handler reports the fault.)
if [ -z "${PMN_SANITIZED:-}" ]; then
    "$PMN" tablebase build --rules awale,majority=no --seeds 8 --dir "$work/db" -q > /dev/null
    { printf 'uci\nsetoption name Rules value awale,majority=no\nsetoption name Tablebase value %s\nisready\n' "$work/db"
      sleep 1
      for f in "$work"/db/*-0[678].tb; do : > "$f"; done
      printf 'position fen 1-1-1-1-0-0-1-1-1-1-0-0-20-20-S\ngo depth 10\n'; sleep 2; printf 'quit\n'
    } | "$PMN" uci > "$work/out" 2> "$work/err"
    status=$?
    if [ $status = 3 ] && grep -q 'fatal\[F005\]: an endgame database file was cut short' "$work/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL a layer cut under uci: exit $status:"; cat "$work/err"
    fi
fi

echo "uci: $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
