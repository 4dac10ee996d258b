/* export.c - pmn export: games as an XML archive. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void help(void)
{
    printf("Usage: pmn export [OPTIONS] [FILE...]\n\n"
           "Write the games of PMN files (standard input if none, or -) as one XML\n"
           "archive (schema: pmn.rng; see pmn(5)): tags, start position, every move with\n"
           "its hole, claimed and computed captures, laps, judgements, NAGs, comments and\n"
           "variations, the result and how the game ended.  What the engine computed is\n"
           "marked apart from what the record claimed.  Games are written one at a time.\n"
           "Problems in the records are reported on standard error as by pmn check.\n\n"
           "Options:\n"
           "  -f, --format=FORMAT  xml (the default), or pmn (as pmn convert)\n"
           "  -r, --rules=SPEC     rules over each record's own; may be repeated\n"
           "      --running-totals the counts after moves are each player's captures\n"
           "                       so far, not the move's\n"
           "  -o, --output=FILE    write to FILE instead of standard output\n"
           "  -h, --help           show this help\n");
}

struct export {
    struct rules_options ro;
    int running_totals, xml;
    pmn_xml_writer *w;
    FILE *out;
    unsigned long games;
    int failed;
};

static void export_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct export *ex = ctx;
    pmn_reader *rd = open_reader(f, sink, &ex->ro);
    pmn_record rec;
    pmn_write_options wo;
    pmn_write_options_init(&wo);
    while (rd && pmn_reader_next(rd, &rec) > 0) {
        int rc = -1;
        if (ex->running_totals)
            pmn_record_totals_to_counts(&rec, print_diag, sink);
        pmn_replay *replay = replay_record(&rec, &ex->ro, sink);
        if (replay && ex->xml) {
            rc = pmn_xml_write_game(ex->w, &rec, replay, print_diag, sink);
        } else if (replay) {
            if (ex->games)
                fputc('\n', ex->out);
            rc = pmn_write_record(ex->out, &rec, replay, &wo);
        }
        ex->games++;
        if (rc < 0)
            ex->failed = 1;
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
}

int cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "format", required_argument, NULL, 'f' },
        { "rules", required_argument, NULL, 'r' },
        { "running-totals", no_argument, NULL, 'T' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct export ex = { .xml = 1, .out = stdout };
    struct diag_sink sink = { "-", { 0 }, 0 };
    const char *output = NULL;
    int c, rc;

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:r:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (strcmp(optarg, "xml") == 0)
                ex.xml = 1;
            else if (strcmp(optarg, "pmn") == 0)
                ex.xml = 0;
            else
                return usage_error("export", "unknown format '%s' (xml, pmn)", optarg);
            break;
        case 'r':
            if ((rc = add_rules_option("export", &ex.ro, optarg)) != 0)
                return rc;
            break;
        case 'T': ex.running_totals = 1; break;
        case 'o': output = optarg; break;
        case 'h': help(); return EXIT_CLEAN;
        default: return bad_option("export", c, argv);
        }
    }
    if (!(ex.out = open_output(output)))
        return EXIT_FATAL;
    if (ex.xml && !(ex.w = pmn_xml_writer_new(ex.out))) {
        fprintf(stderr, "pmn export: out of memory\n");
        return EXIT_FATAL;
    }
    each_input(argv + optind, argc - optind, &sink, export_file, &ex);
    if (ex.xml && pmn_xml_writer_close(ex.w) < 0)
        ex.failed = 1;
    return close_output(ex.out, output, ex.failed, exit_status(&sink));
}
