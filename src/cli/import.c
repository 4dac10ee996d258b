/* import.c - pmn import: an XML archive back to canonical PMN. */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "criteria.h"

#include <stdio.h>

struct import {
    pmn_write_options wo;
    int validate;
    FILE *out;
    unsigned long games;
    int failed;
    const struct ranges *games_of;   /* --game, or NULL: every game */
    struct ranges game_ranges;
};

static void import_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct import *im = ctx;
    pmn_xml_reader *x = pmn_xml_reader_new(f, sink->file, im->validate, print_diag, sink);
    pmn_record rec;
    if (!x) {
        report(sink, PMN_F002, 0, 0, "out of memory");
        return;
    }
    unsigned long n = 0;
    int asked;
    while ((asked = game_turn(sink, im->games_of, n + 1)) >= 0
           && pmn_xml_reader_next(x, &rec) > 0) {
        n++;
        if (!asked) {
            pmn_record_free(&rec);
            continue;
        }
        if (im->games++)
            fputc('\n', im->out);
        if (pmn_write_record(im->out, &rec, NULL, &im->wo) < 0)
            im->failed = 1;
        pmn_record_free(&rec);
    }
    sink->mute = 0;
    pmn_xml_reader_free(x);
}

static const struct cli_option options[] = {
    { "validate", 'V' + 256, NULL, "check the archive against its RELAX NG schema" },
    OPT_NOTATION,
    OPT_CAPTURE_STYLE,
    OPT_OUTPUT,
    OPT_GAME,
    OPT_END,
};

static int run(const struct command *cmd, int argc, char **argv)
{
    struct import im = { .out = stdout };
    struct diag_sink sink = { .file = "-", .show_notes = 1 };
    const char *output = NULL;
    int c, rc;
    struct cli_args a;
    pmn_write_options_init(&im.wo);

    cli_begin(&a, cmd, argc, argv);
    while ((c = cli_next(&a)) != CLI_END) {
        switch (c) {
        case 'V' + 256: im.validate = 1; break;
        case 'n':
            if ((rc = notation_option(cmd->name, a.arg, &im.wo)) != 0)
                return rc;
            break;
        case KEY_CAPTURE_STYLE:
            if ((rc = capture_style_option(cmd->name, a.arg, &im.wo)) != 0)
                return rc;
            break;
        case 'o': output = a.arg; break;
        case KEY_GAME:
            if ((rc = game_option(&im.game_ranges, cmd->name, a.arg)) != 0)
                return rc;
            im.games_of = &im.game_ranges;
            break;
        default: return a.status;
        }
    }
    struct output out;
    if ((rc = open_output(&out, cmd->name, output, argv + optind, argc - optind)) != 0)
        return rc;
    im.out = out.f;
    each_input(argv + optind, argc - optind, &sink, import_file, &im);
    /* Errors and not one game: nothing of the input could be read (a file
     * that is not XML), as when it cannot be opened, and an earlier -o
     * file is not replaced by nothing. */
    if (output && !im.games && sink.count[PMN_ERROR] && !sink.count[PMN_FATAL])
        report(&sink, PMN_F001, 0, 0, "not one game could be read");
    return close_output(&out, im.failed, exit_status(&sink));
}

const struct command import_command = {
    "import", "read an XML archive and write its games as canonical PMN",
    "[OPTIONS] [FILE...]",
    "Read XML archives as pmn export writes them (standard input if none, or -)\n"
    "and write their games as canonical PMN: PMN -> XML -> PMN gives the canonical\n"
    "PMN of the input.  What the engine computed is not read.  Archives are read\n"
    "one game at a time; no network, DTD or entity is ever used, and malformed\n"
    "XML is reported with its line and column.",
    options, NULL, run,
};
