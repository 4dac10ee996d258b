/* position.c - pmn position: draw a position and say what can be played. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_position(const pmn_rules *r, const pmn_position *p)
{
    char buf[2048];
    int moves[PMN_MAX_SIDE_PITS];
    pmn_outcome outcome;

    pmn_board_format(r, p, buf, sizeof buf);
    fputs(buf, stdout);
    pmn_position_format(r, p, buf, sizeof buf);
    printf("position: %s\n", buf);
    printf("seeds: South %u, North %u\n", pmn_position_seeds(r, p, PMN_SOUTH),
           pmn_position_seeds(r, p, PMN_NORTH));
    pmn_ending e = pmn_position_ending(r, p, &outcome);
    if (e != PMN_END_NONE) {
        char how[128];
        pmn_ending_explain(r, e, p, how, sizeof how);
        const char *seeds = strchr(how, ';');   /* "; seeds 25-19" where seeds score */
        printf("%s to move: %s%s; %s (%s)\n", pmn_side_name(p->to_move), pmn_ending_string(e),
               seeds ? seeds : "",
               outcome == PMN_DRAWN ? "drawn" : outcome == PMN_SOUTH_WINS ? "South wins"
               : outcome == PMN_NORTH_WINS ? "North wins" : "decided by lot",
               pmn_outcome_string(outcome));
        return;
    }
    int n = pmn_legal_moves(r, p, moves);
    printf("%s to move:", pmn_side_name(p->to_move));
    for (int i = 0; i < n; i++)
        printf(" %c", pmn_hole_letter(p->to_move, moves[i]));
    printf("\n");
}

struct position {
    int svg;
};

static const struct cli_option options[] = {
    OPT_RULES_SET,
    { "svg", 'S' + 256, NULL, "the board as an SVG 1.1 picture instead",
      FLAG_AT(struct position, svg), NULL, 0 },
    OPT_NOTATION,
    OPT_END,
};

static int svg(const pmn_rules *r, const pmn_position *p, pmn_notation notation)
{
    pmn_svg_options o;
    pmn_svg_options_init(&o);
    o.notation = notation;
    size_t len = pmn_board_svg(r, p, &o, NULL, 0);
    char *buf = malloc(len + 1);
    if (!buf) {
        fprintf(stderr, "pmn position: fatal[F002]: out of memory\n");
        return EXIT_FATAL;
    }
    pmn_board_svg(r, p, &o, buf, len + 1);
    fputs(buf, stdout);
    free(buf);
    return EXIT_CLEAN;
}

static int run(struct common *c, void *ctx)
{
    const struct position *o = ctx;
    pmn_position pos;
    int rc;
    if (c->nfiles > 1)
        return usage_error(c->cmd->name, "expected at most one position STRING, got %d "
                           "arguments", c->nfiles);
    if ((rc = position_option(c->cmd->name, "STRING", &c->rules, c->nfiles ? c->files[0] : NULL,
                              &pos)) != 0)
        return rc;
    if (o->svg)
        return svg(&c->rules, &pos, c->wo.notation);
    print_position(&c->rules, &pos);
    return EXIT_CLEAN;
}

const struct command position_command = {
    "position", "show a position: board, position string, legal moves",
    "[OPTIONS] [STRING]",
    "Show a position (default: the opening position): the board, its position\n"
    "string, the seeds on each side, the legal moves, or how the game has ended.\n\n"
    "A position string gives each side's seed counts in sowing order (a..n for\n"
    "South, A..N for North), separated by commas: South's, a '/', North's, then a\n"
    "space and the side to move (S or N), and optionally a space and the seeds\n"
    "each side has captured, South's first (1:0):\n"
    "  2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S",
    options, NULL, sizeof(struct position), 0, NULL, NULL, run,
};
