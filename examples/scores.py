#!/usr/bin/python3
"""scores.py - a tournament's table from its records, with pmn's Python
package: each player's points (a win 1, a draw 1/2) and games, the records
pmn finds fault with, and the board where the last game ended.

    /usr/bin/python3 examples/scores.py samples/tournament/zanzibar-2026.pmn [BOARD.svg]

Plain Python does the tabulating; pmn reads, checks and replays."""
import sys
from collections import defaultdict

import pmn

POINTS = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5)}


def main(path, svg=None):
    points, played, faults, last = defaultdict(float), defaultdict(int), [], None
    for game in pmn.read_games(path):
        south, north = game.tags.get("South", "?"), game.tags.get("North", "?")
        if not game.valid:
            faults.append((game.line, south, north, game.errors[0]))
        if game.result in POINTS:
            s, n = POINTS[game.result]
            points[south] += s
            points[north] += n
            played[south] += 1
            played[north] += 1
        last = game
    print("%-24s %6s %5s" % ("Player", "Points", "Games"))
    for name in sorted(points, key=lambda p: (-points[p], p)):
        print("%-24s %6s %5d" % (name, ("%g" % points[name]), played[name]))
    for line, south, north, first in faults:
        print("line %d, %s - %s: %s" % (line, south, north, first))
    if last is not None:
        print("\nThe last game, %s - %s, %s, ended so:" % (
            last.tags.get("South", "?"), last.tags.get("North", "?"), last.result))
        print(last.end.board())
        if svg:
            with open(svg, "w", encoding="utf-8") as f:
                f.write(last.end.svg())


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: scores.py FILE [BOARD.svg]")
    main(*sys.argv[1:])
