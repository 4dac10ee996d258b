/* convert.c - pmn convert: records as canonical PMN, in any notation. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>

static void help(void)
{
    printf("Usage: pmn convert [OPTIONS] [FILE...]\n\n"
           "Write the games of PMN files (standard input if none, or -) as canonical\n"
           "PMN: the tag roster first, move numbers, ';' between full moves, one\n"
           "capture style, comments in braces, lines wrapped at 80 columns.  Nothing\n"
           "read is dropped; converting the output again gives the same bytes.\n"
           "Problems in the input are reported on standard error as by pmn check.\n\n"
           "Options:\n"
           "  -n, --notation=NAME     letters (a-n, A-N; the default), numbers (1-14 for\n"
           "                          the player to move) or coordinates (a1-g4)\n"
           "  -c, --capture-style=S   plus for (+N) (the default), or x for (xN)\n"
           "      --fix-result        write the result the replay proves, where the game\n"
           "                          ended on the board\n"
           "      --running-totals    the counts after moves are each player's captures\n"
           "                          so far, not the move's\n"
           "  -r, --rules=SPEC        rules over each record's own; may be repeated\n"
           "  -o, --output=FILE       write to FILE instead of standard output\n"
           "  -h, --help              show this help\n");
}

struct convert {
    pmn_write_options wo;
    struct rules_options ro;
    int fix_result, running_totals;
    FILE *out;
    unsigned long games;
};

/* The result the board proves, or NULL where the game did not end there. */
static const char *proved_result(const pmn_replay *replay)
{
    const pmn_check_result *res = pmn_replay_result(replay);
    if (!pmn_replay_complete(replay) || res->ending == PMN_END_NONE)
        return NULL;
    return pmn_outcome_string(res->outcome);
}

static void convert_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct convert *cv = ctx;
    pmn_reader *rd = open_reader(f, sink, &cv->ro);
    pmn_record rec;
    while (rd && pmn_reader_next(rd, &rec) > 0) {
        if (cv->running_totals)
            pmn_record_totals_to_counts(&rec, print_diag, sink);
        pmn_replay *replay = replay_record(&rec, &cv->ro, sink);
        if (replay) {
            cv->wo.result = cv->fix_result ? proved_result(replay) : NULL;
            if (cv->games++)
                fputc('\n', cv->out);
            if (pmn_write_record(cv->out, &rec, replay, &cv->wo) < 0) {
                pmn_diag d;
                pmn_diag_make(&d, PMN_F001, 0, 0, "cannot write the output");
                print_diag(sink, &d);
            }
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
}

int cmd_convert(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "notation", required_argument, NULL, 'n' },
        { "capture-style", required_argument, NULL, 'c' },
        { "fix-result", no_argument, NULL, 'F' },
        { "running-totals", no_argument, NULL, 'T' },
        { "rules", required_argument, NULL, 'r' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct convert cv = { .out = stdout };
    struct diag_sink sink = { "-", { 0 }, 1 };
    const char *output = NULL;
    int c, rc;
    pmn_write_options_init(&cv.wo);

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:c:r:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if ((rc = notation_option("convert", optarg, &cv.wo)) != 0)
                return rc;
            break;
        case 'c':
            if ((rc = capture_style_option("convert", optarg, &cv.wo)) != 0)
                return rc;
            break;
        case 'F': cv.fix_result = 1; break;
        case 'T': cv.running_totals = 1; break;
        case 'r':
            if ((rc = add_rules_option("convert", &cv.ro, optarg)) != 0)
                return rc;
            break;
        case 'o': output = optarg; break;
        case 'h': help(); return EXIT_CLEAN;
        default: return bad_option("convert", c, argv);
        }
    }
    /* Notes (endless moves met while proving results) are not news here. */
    sink.show_notes = 0;
    if (!(cv.out = open_output(output)))
        return EXIT_FATAL;
    each_input(argv + optind, argc - optind, &sink, convert_file, &cv);
    return close_output(cv.out, output, 0, exit_status(&sink));
}
