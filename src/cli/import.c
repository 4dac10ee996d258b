/* import.c - pmn import: an XML archive back to canonical PMN. */
#include "cli.h"
#include "options.h"
#include "command.h"
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
};

static void import_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct import *im = ctx;
    struct source src;
    pmn_record rec;
    unsigned long n = 0;
    if (source_open_xml(&src, f, sink, im->validate) < 0)
        return;
    while (source_next_asked(&src, sink, im->games_of, &n, &rec) > 0) {
        if (im->games++)
            fputc('\n', im->out);
        if (pmn_write_record(im->out, &rec, NULL, &im->wo) < 0)
            im->failed = 1;
        pmn_record_free(&rec);
    }
    source_close(&src);
}

static const struct cli_option options[] = {
    { "validate", 'V' + 256, NULL, "check the archive against its RELAX NG schema",
      FLAG_AT(struct import, validate), NULL, 0 },
    OPT_NOTATION,
    OPT_CAPTURE_STYLE,
    OPT_OUTPUT,
    OPT_GAME,
    OPT_END,
};

static int run(struct common *c, void *ctx)
{
    struct import *im = ctx;
    im->wo = c->wo;
    im->games_of = c->games_of;
    im->out = c->out.f;
    each_input(c->files, c->nfiles, &c->sink, import_file, im);
    /* Errors and not one game: nothing of the input could be read (a file
     * that is not XML), as when it cannot be opened, and an earlier -o
     * file is not replaced by nothing. */
    if (c->output && !im->games && c->sink.count[PMN_ERROR] && !c->sink.count[PMN_FATAL])
        report(&c->sink, PMN_F001, 0, 0, "not one game could be read");
    c->failed = im->failed;
    return exit_status(&c->sink);
}

const struct command import_command = {
    "import", "read an XML archive and write its games as canonical PMN",
    "[OPTIONS] [FILE...]",
    "Read XML archives as pmn export writes them (standard input if none, or -)\n"
    "and write their games as canonical PMN: PMN -> XML -> PMN gives the canonical\n"
    "PMN of the input.  What the engine computed is not read.  Archives are read\n"
    "one game at a time; no network, DTD or entity is ever used, and malformed\n"
    "XML is reported with its line and column.",
    options, NULL, sizeof(struct import), CMD_OUTPUT | CMD_NOTES, NULL, NULL, run,
};
