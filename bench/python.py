#!/usr/bin/python3
"""python.py - what reading costs from Python, beside pmn check on the same
file, and that a million games read leave no leak.

    PYTHONPATH=DIR /usr/bin/python3 bench/python.py speed FILE [PMN]
    PYTHONPATH=DIR /usr/bin/python3 bench/python.py leak [GAMES]

DIR holds the built package (tests/python.sh builds one; or pip install).
speed: the median of 7 reads in this process, errors alone and with a tag,
and PMN check FILE (default: pmn on PATH) as a whole process, the median of
7.  leak: GAMES (1,000,000) small Oware games read, every other one
replayed and written as PMN, the process's largest size printed every
fifth of them; a flat column is no leak."""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import pmn


def median_of(fn, runs=7):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def speed(path, cli="pmn"):
    def errors():
        for g in pmn.read_games(path):
            g.errors

    def tags():
        for g in pmn.read_games(path):
            g.errors, g.tags.get("South")

    def check():
        subprocess.run([cli, "check", path], capture_output=True)
    e, t, c = median_of(errors), median_of(tags), median_of(check)
    print("errors %.3f s, with a tag %.3f s, pmn check %.3f s: %.2fx and %.2fx"
          % (e, t, c, c / e, c / t))


def leak(games=1000000):
    with tempfile.NamedTemporaryFile("w", suffix=".pmn", delete=False) as f:
        for _ in range(games // 1000):   # (in pieces: the process's size is measured)
            f.write('[Game "Oware"]\n\n1. c C 2. d *\n\n' * 1000)
    try:
        t = time.perf_counter()
        for n, g in enumerate(pmn.read_games(f.name), 1):
            g.tags, g.errors, g.result
            if n % 2 == 0:
                g.moves[-1].position, g.pmn()
            if n % (games // 5) == 0:
                print(n, "games:", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "KiB",
                      flush=True)
        print("%.1f s" % (time.perf_counter() - t))
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "speed":
        speed(*sys.argv[2:4])
    elif len(sys.argv) in (2, 3) and sys.argv[1] == "leak":
        leak(*map(int, sys.argv[2:]))
    else:
        sys.exit(__doc__)
