#!/usr/bin/python3
"""mpi_estimate.py - what a build of Awari's databases across processes
(pmn-tablebase-mpi) needs, from rates measured here: positions, memory a
process, disk, bytes on the network and time, for P machines of a given
size.  bench/README gives the measured rates and the table this prints.

    python3 bench/mpi_estimate.py RATE BYTES [SEEDS...]

RATE: positions a process builds a second (measured: the positions of a
build over its wall time and processes); BYTES: bytes exchanged a
position (pmn-tablebase-mpi says it at the end).  SEEDS default 30 36 48.
The machines: 64 GB and 16 processes each, 16 to 1024 of them.

What pmn-tablebase-mpi holds, a process: 48 bytes a position of its share
of the layer being built (its arrays, predecessor lists and batches), and
every layer below mapped whole (a byte a position, read from the shared
folder; the processes of a machine share its page cache)."""
import math
import sys


def layer(n, holes=12):
    return math.comb(n + holes - 1, holes - 1)


def estimate(rate, exchanged, seeds, machines, memory=64e9, procs=16):
    total = sum(layer(n) for n in range(seeds + 1))
    top = layer(seeds)
    below = total - top
    share = 48.0 * top / (machines * procs)
    fits = share * procs + below <= memory
    hours = total / (rate * machines * procs) / 3600
    return total, top, below, share, fits, hours, total * exchanged


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rate, exchanged = float(sys.argv[1]), float(sys.argv[2])
    seeds = [int(s) for s in sys.argv[3:]] or [30, 36, 48]
    print("seeds  positions     largest layer  below (mapped)  machines  "
          "a process   fits 64 GB  network      hours")
    for s in seeds:
        for m in (16, 64, 256, 1024):
            total, top, below, share, fits, hours, net = estimate(rate, exchanged, s, m)
            print("%5d  %12.4g  %13.4g  %11.1f GB  %8d  %7.2f GB  %-10s  %8.1f TB  %7.1f"
                  % (s, total, top, below / 1e9, m, share / 1e9, "yes" if fits else "no",
                     net / 1e12, hours))


if __name__ == "__main__":
    main()
