/* replay.c - pmn replay: a game move by move, as the board shows it. */
#include "cli.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static void help(void)
{
    printf("Usage: pmn replay [OPTIONS] [FILE]\n\n"
           "Replay the games of a PMN file (standard input if none, or -) and print the\n"
           "board after each move, with what the move captured, its laps, where its\n"
           "last seed fell, the captured totals, and how the game ended.  Problems in\n"
           "the record are reported on standard error as by pmn check.\n\n"
           "Options:\n"
           "  -g, --game=N    only the N-th game of the file (from 1)\n"
           "  -p, --ply=K     only the board after K moves (0: the start position)\n"
           "  -r, --rules=SPEC  rules over each record's own; may be repeated\n"
           "      --running-totals  the counts after moves are each player's captures\n"
           "                  so far, not the move's\n"
           "  -h, --help      show this help\n");
}

struct replay {
    const pmn_rules *rules;
    unsigned start_side;      /* who moves first: ply numbers count from it */
    long ply;                 /* the only ply to show, or -1 for all */
    int shown;
    unsigned turn;            /* of the main line's last move: its sowings share it */
    int passed;               /* after it, the opponent passed: a turn */
};

static void board(const pmn_rules *r, const pmn_position *p)
{
    char buf[2048];
    pmn_board_format(r, p, buf, sizeof buf);
    fputs(buf, stdout);
}

static void show_move(void *ctx, const pmn_move *m, unsigned ply, int depth,
                      const pmn_move_report *rep, const pmn_position *after)
{
    struct replay *rp = ctx;
    if (depth > 0)
        return;
    if (ply > 0 && !m->joined)
        rp->turn += 1 + (unsigned)rp->passed;
    rp->passed = rep->passed;
    if (rp->ply >= 0 && (unsigned long)rp->ply != ply + 1UL)
        return;
    rp->shown = 1;
    printf("\n%u%s %s%s: ", (rp->turn + rp->start_side) / 2 + 1,
           rep->side == PMN_SOUTH ? "." : "...", m->joined ? "-" : "", m->text);
    if (rep->ending == PMN_END_ENDLESS) {
        printf("endless move: the sowing state of lap %llu repeats that of lap %llu; "
               "turned, lap %llu repeats lap %llu.\n",
               (unsigned long long)rep->loop_lap, (unsigned long long)rep->loop_from,
               (unsigned long long)rep->rotated_lap, (unsigned long long)rep->rotated_from);
    } else {
        char end[16];
        snprintf(end, sizeof end, "%s's store", pmn_side_name(rep->side));
        if (rep->end_hole >= 0)
            pmn_hole_name(rp->rules, PMN_NOTATION_LETTERS, rep->end_side, rep->end_hole, end,
                          sizeof end);
        printf("captures %u, %llu lap%s, last seed in %s.", rep->captured,
               (unsigned long long)rep->laps, rep->laps == 1 ? "" : "s", end);
        if (rep->given)
            printf("  %s takes %u.", pmn_side_name(!rep->side), rep->given);
        if (rep->extra)
            printf("  %s sows again.", pmn_side_name(rep->side));
        if (rep->passed)
            printf("  %s cannot move and passes.", pmn_side_name(!rep->side));
        printf("  %s: South %u, North %u.\n", rp->rules->stores ? "Stores" : "Captured",
               after->captured[PMN_SOUTH], after->captured[PMN_NORTH]);
    }
    board(rp->rules, after);
}

static void show_end(const pmn_rules *rules, const pmn_record *rec,
                     const pmn_check_result *res)
{
    char how[128];
    if (res->unchecked || res->plies < rec->main.nmoves) {
        printf("\nThe replay stops at an error after %u moves.\n", res->plies);
        return;
    }
    if (res->ending == PMN_END_NONE) {
        printf("\nThe record stops here: the game is not over.\n");
        return;
    }
    pmn_ending_explain(rules, res->ending, &res->end, how, sizeof how);
    printf("\nResult: %s, %s: %s.  Captured: South %u, North %u.\n",
           pmn_outcome_string(res->outcome),
           res->outcome == PMN_DRAWN ? "drawn"
           : res->outcome == PMN_SOUTH_WINS ? "South wins" : "North wins",
           how, res->captured[PMN_SOUTH], res->captured[PMN_NORTH]);
}

static int replay_game(const pmn_record *rec, unsigned long n, struct diag_sink *sink,
                       const struct rules_options *ro, long ply)
{
    pmn_rules rules;
    pmn_position start;
    pmn_check_result res;
    char spec[512];
    struct replay rp = { &rules, 0, ply, 0, 0, 0 };
    const char *south = pmn_record_tag(rec, "South"), *north = pmn_record_tag(rec, "North");

    if (record_rules(rec, ro, &rules, sink) < 0)
        return 0;
    pmn_rules_format(&rules, spec, sizeof spec);
    printf("Game %lu: %s - %s (%s:%u)\nRules: %s\n", n, south ? south : "?",
           north ? north : "?", sink->file, rec->line, spec);
    if (pmn_record_start(rec, &rules, &start, print_diag, sink) != 0)
        return 0;
    rp.start_side = start.to_move;
    if (ply <= 0) {
        printf("\nStart: %s to move.\n", pmn_side_name(start.to_move));
        board(&rules, &start);
        rp.shown = ply == 0;
    }
    pmn_check_record_visit(rec, &rules, print_diag, sink, show_move, &rp, &res);
    if (ply < 0)
        show_end(&rules, rec, &res);
    if (ply >= 0 && !rp.shown) {
        fprintf(stderr, "pmn replay: error: --ply %ld: game %lu has %u move%s that could be "
                "replayed\n", ply, n, res.plies, res.plies == 1 ? "" : "s");
        return -1;
    }
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "game", required_argument, NULL, 'g' },
        { "ply", required_argument, NULL, 'p' },
        { "rules", required_argument, NULL, 'r' },
        { "running-totals", no_argument, NULL, 'T' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct rules_options ro;
    memset(&ro, 0, sizeof ro);
    struct diag_sink sink = { "-", { 0 }, 1 };
    unsigned long game = 0, plies;
    long ply = -1;
    int c, rc, status = EXIT_CLEAN, totals = 0;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":g:p:r:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'g':
            if (parse_number(optarg, ULONG_MAX / 2, &game) < 0 || game == 0)
                return usage_error("replay", "--game takes a game number from 1, not '%s'", optarg);
            break;
        case 'p':
            if (parse_number(optarg, LONG_MAX / 2, &plies) < 0)
                return usage_error("replay", "--ply takes a number of moves from 0, not '%s'", optarg);
            ply = (long)plies;
            break;
        case 'r':
            if ((rc = add_rules_option("replay", &ro, optarg)) != 0)
                return rc;
            break;
        case 'T': totals = 1; break;
        case 'h': help(); return EXIT_CLEAN;
        default: return bad_option("replay", c, argv);
        }
    }
    if (argc - optind > 1)
        return usage_error("replay", "expected one FILE, got %d", argc - optind);
    FILE *f = open_input(optind < argc ? argv[optind] : "-", &sink);
    if (!f)
        return EXIT_FATAL;
    pmn_reader *rd = pmn_reader_new(f, print_diag, &sink);
    pmn_record rec;
    unsigned long n = 0;
    int found = 0;
    while (rd && pmn_reader_next(rd, &rec) > 0) {
        n++;
        if (totals)
            pmn_record_totals_to_counts(&rec, print_diag, &sink);
        if (game == 0 || game == n) {
            if (found++)
                printf("\n");
            if (replay_game(&rec, n, &sink, &ro, ply) < 0)
                status = EXIT_USAGE;
        }
        pmn_record_free(&rec);
        if (game && game == n)
            break;
    }
    pmn_reader_free(rd);
    close_input(f);
    if (game && !found && !sink.count[PMN_FATAL]) {
        fprintf(stderr, "pmn replay: error: --game %lu: %s holds %lu game%s\n", game,
                sink.file, n, n == 1 ? "" : "s");
        return EXIT_USAGE;
    }
    return status != EXIT_CLEAN ? status : exit_status(&sink);
}
