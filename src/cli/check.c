/* check.c - pmn check: replay every game and report what is wrong. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void help(void)
{
    printf("Usage: pmn check [OPTIONS] [FILE...]\n\n"
           "Replay every game of the PMN files (standard input if none, or -) against\n"
           "the rules, and report every problem as FILE:LINE:COL: severity[CODE]: message\n"
           "on standard error; a summary line ends the run on standard output.\n\n"
           "Options:\n"
           "  -r, --rules=SPEC   rules over each record's own (Game and Rules tags),\n"
           "                     e.g. endless=lose; may be repeated\n"
           "  -v, --verbose      a line for each game: its players, moves and result\n"
           "  -q, --quiet        leave out notes (endless moves, unproved results)\n"
           "      --running-totals  the counts after moves are each player's captures\n"
           "                     so far, not the move's\n"
           "      --list-codes   list every diagnostic code, its severity and meaning\n"
           "  -h, --help         show this help\n\n"
           "Exit status: 0 no problem, 1 warnings only, 2 errors, 3 fatal (a file could\n"
           "not be read), 64 a wrong command line.  pmn(1) lists every code.\n");
}

static void list_codes(void)
{
    size_t n;
    const pmn_diag_info *t = pmn_diag_table(&n);
    for (size_t i = 0; i < n; i++) {
        char name[8];
        pmn_diag_code_name(t[i].code, name);
        printf("%s  %-8s %s\n", name, pmn_severity_string(t[i].severity), t[i].summary);
    }
}

struct totals {
    unsigned long games, moves;
    const struct rules_options *ro;
    int verbose, running_totals;
};

static void describe_game(const char *file, const pmn_record *rec, unsigned long n,
                          const pmn_replay *replay)
{
    const char *south = pmn_record_tag(rec, "South");
    const char *north = pmn_record_tag(rec, "North");
    const pmn_check_result *res = pmn_replay_result(replay);
    printf("%s:%u: game %lu: %s - %s: %u move%s, ", file, rec->line, n,
           south ? south : "?", north ? north : "?", res->written,
           res->written == 1 ? "" : "s");
    if (res->setup == PMN_SETUP_UNKNOWN_RULES) {
        printf("not replayed: its rules are unknown\n");
    } else if (res->setup != PMN_SETUP_READY) {
        printf("not replayed: its start position is %s\n",
               res->setup == PMN_SETUP_BAD_START ? "malformed" : "not given");
    } else if (res->stopped) {
        printf("replay stopped after %u move%s\n", res->moves, res->moves == 1 ? "" : "s");
    } else if (res->ending != PMN_END_NONE) {
        char how[128];
        pmn_ending_explain(&pmn_replay_setup(replay)->rules, res->ending, &res->end, how,
                           sizeof how);
        printf("%s (%s)\n", pmn_outcome_string(res->outcome), how);
    } else {
        printf("not over\n");
    }
}

static void check_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct totals *t = ctx;
    pmn_reader *rd = open_reader(f, sink, t->ro);
    pmn_record rec;
    unsigned long n = 0;
    while (rd && pmn_reader_next(rd, &rec) > 0) {
        if (t->running_totals)
            pmn_record_totals_to_counts(&rec, print_diag, sink);
        pmn_replay *replay = replay_record(&rec, t->ro, sink);
        t->games++;
        n++;
        if (replay) {
            t->moves += pmn_replay_result(replay)->written;
            if (t->verbose)
                describe_game(sink->file, &rec, n, replay);
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
}

static const char *plural(unsigned long n)
{
    return n == 1 ? "" : "s";
}

int cmd_check(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "rules", required_argument, NULL, 'r' },
        { "verbose", no_argument, NULL, 'v' },
        { "quiet", no_argument, NULL, 'q' },
        { "list-codes", no_argument, NULL, 'L' },
        { "running-totals", no_argument, NULL, 'T' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct rules_options ro;
    memset(&ro, 0, sizeof ro);
    struct diag_sink sink = { "-", { 0 }, 1 };
    struct totals t = { 0, 0, &ro, 0, 0 };
    int c, rc;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":r:vqh", longopts, NULL)) != -1) {
        switch (c) {
        case 'r':
            if ((rc = add_rules_option("check", &ro, optarg)) != 0)
                return rc;
            break;
        case 'v': t.verbose = 1; break;
        case 'q': sink.show_notes = 0; break;
        case 'L': list_codes(); return EXIT_CLEAN;
        case 'T': t.running_totals = 1; break;
        case 'h': help(); return EXIT_CLEAN;
        default: return bad_option("check", c, argv);
        }
    }
    each_input(argv + optind, argc - optind, &sink, check_file, &t);
    printf("%lu game%s, %lu move%s: %u error%s, %u warning%s, %u note%s",
           t.games, plural(t.games), t.moves, plural(t.moves),
           sink.count[PMN_ERROR], plural(sink.count[PMN_ERROR]),
           sink.count[PMN_WARNING], plural(sink.count[PMN_WARNING]),
           sink.count[PMN_NOTE], plural(sink.count[PMN_NOTE]));
    if (sink.count[PMN_FATAL])
        printf(", %u fatal", sink.count[PMN_FATAL]);
    printf("\n");
    return exit_status(&sink);
}
