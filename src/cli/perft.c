/* perft.c - pmn perft: count move sequences, and how fast. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "progress.h"
#include "jobs.h"
#include "records.h"

#include <stdio.h>

#define MAX_DEPTH 30

struct perft {
    const char *position;     /* --position, or NULL: the opening */
    int divide;
};

static const struct cli_option options[] = {
    { "position", 'P' + 256, "STRING", "start from this position (default: the opening)",
      STRING_AT(struct perft, position), NULL, 0 },
    OPT_RULES_SET,
    { "divide", 'D' + 256, NULL, "also print the count below each first ply",
      FLAG_AT(struct perft, divide), NULL, 0 },
    OPT_JOBS,
    OPT_END,
};

static int run(struct common *c, void *ctx)
{
    const struct perft *p = ctx;
    int rc;
    if (c->nfiles != 1)
        return usage_error(c->cmd->name, "expected one DEPTH, got %d arguments", c->nfiles);
    unsigned long depth;
    if (pmn_parse_uint(c->files[0], MAX_DEPTH, &depth) < 0)
        return usage_error(c->cmd->name, "DEPTH must be a whole number from 0 to %d, not '%s'",
                           MAX_DEPTH, c->files[0]);
    pmn_position pos;
    if ((rc = position_option(c->cmd->name, "--position", &c->rules, p->position, &pos)) != 0)
        return rc;

    uint64_t below[PMN_MAX_SIDE_PITS];
    int moves[PMN_MAX_SIDE_PITS], n = 0;
    double t0 = clock_seconds();
    uint64_t nodes = pmn_perft_jobs(&c->rules, &pos, (unsigned)depth, c->jobs, below, &n);
    if (n < 0)   /* no thread: count alone */
        nodes = pmn_perft(&c->rules, &pos, (unsigned)depth, below, &n);
    double t = clock_seconds() - t0;

    if (p->divide) {
        pmn_legal_moves(&c->rules, &pos, moves);
        for (int i = 0; i < n; i++)
            printf("%c: %llu\n", pmn_hole_letter(pos.to_move, moves[i]),
                   (unsigned long long)below[i]);
    }
    printf("perft %lu: %llu\n", depth, (unsigned long long)nodes);
    fflush(stdout);
    fprintf(stderr, "time %.3f s, %.2f M nodes/s\n", t, t > 0 ? (double)nodes / t / 1e6 : 0.0);
    return EXIT_CLEAN;
}

#define STR_(x) #x
#define STR(x) STR_(x)

const struct command perft_command = {
    "perft", "count legal ply sequences from a position (self-test, benchmark)",
    "[OPTIONS] DEPTH",
    "Count the legal sequences of DEPTH plies (0 to " STR(MAX_DEPTH) ") from a position: a ply is\n"
    "one sowing, so a move of several sowings is as many plies.  A ply that ends\n"
    "the game ends its sequence; repetitions are ignored.  The count goes to\n"
    "standard output, the time and speed to standard error.",
    options,
    "SPEC is a rule set ('pmn rules list'), with its sizes as in kalah(6,3) if\n"
    "need be, or a rule file (a name ending in .xml or holding a '/'); then\n"
    "options KEY=VALUE ('pmn rules options'), all separated by commas.",
    sizeof(struct perft), 0, NULL, NULL, run,
};
