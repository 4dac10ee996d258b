/* perft.c - pmn perft: count move sequences, and how fast. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <time.h>

#define MAX_DEPTH 30

static void help(void)
{
    printf("Usage: pmn perft [OPTIONS] DEPTH\n\n"
           "Count the legal move sequences of DEPTH moves (0 to %d) from a position.\n"
           "A move that ends the game ends its sequence; repetitions are ignored.\n"
           "The count goes to standard output, the time and speed to standard error.\n\n"
           "Options:\n"
           "  -p, --position=STRING  start from this position (default: the opening)\n"
           "  -r, --rules=SPEC       rule set and options, e.g. hawalis,endless=lose\n"
           "  -d, --divide           also print the count below each first move\n"
           "  -h, --help             show this help\n\n"
           "SPEC is a rule set ('pmn rules list'), with its sizes as in kalah(6,3) if\n"
           "need be, or a rule file (a name ending in .xml or holding a '/'); then\n"
           "options KEY=VALUE ('pmn rules options'), all separated by commas.\n",
           MAX_DEPTH);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int cmd_perft(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "position", required_argument, NULL, 'p' },
        { "rules", required_argument, NULL, 'r' },
        { "divide", no_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *postext = NULL;
    int divide = 0, c, rc;
    pmn_rules rules;
    pmn_rules_init(&rules, NULL, NULL);

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:r:dh", longopts, NULL)) != -1) {
        switch (c) {
        case 'p': postext = optarg; break;
        case 'r':
            if ((rc = apply_rules_option("perft", &rules, optarg)) != 0)
                return rc;
            break;
        case 'd': divide = 1; break;
        case 'h': help(); return EXIT_CLEAN;
        default: return bad_option("perft", c, argv);
        }
    }
    if (optind != argc - 1)
        return usage_error("perft", "expected one DEPTH, got %d arguments", argc - optind);
    unsigned long depth;
    if (parse_number(argv[optind], MAX_DEPTH, &depth) < 0)
        return usage_error("perft", "DEPTH must be a whole number from 0 to %d, not '%s'",
                           MAX_DEPTH, argv[optind]);
    pmn_position pos;
    if ((rc = position_option("perft", "--position", &rules, postext, &pos)) != 0)
        return rc;

    uint64_t below[PMN_MAX_SIDE_PITS];
    int moves[PMN_MAX_SIDE_PITS], n = 0;
    double t0 = seconds_now();
    uint64_t nodes = pmn_perft(&rules, &pos, (unsigned)depth, divide ? below : NULL, &n);
    double t = seconds_now() - t0;

    if (divide) {
        pmn_legal_moves(&rules, &pos, moves);
        for (int i = 0; i < n; i++)
            printf("%c: %llu\n", pmn_hole_letter(pos.to_move, moves[i]),
                   (unsigned long long)below[i]);
    }
    printf("perft %lu: %llu\n", depth, (unsigned long long)nodes);
    fflush(stdout);
    fprintf(stderr, "time %.3f s, %.2f M nodes/s\n", t, t > 0 ? (double)nodes / t / 1e6 : 0.0);
    return EXIT_CLEAN;
}
