/* export.c - pmn export: games as an XML archive. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "progress.h"
#include "jobs.h"
#include "records.h"
#include "criteria.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct export {
    const struct rules_options *ro;
    int running_totals, xml;
    int as_pmn;               /* --format: 0 xml, 1 pmn */
    int from;                 /* FORMAT_* (--from), FORMAT_AUTO: found */
    pmn_xml_writer *w;
    FILE *out;
    unsigned long games;
    int failed;
    int write_errno;          /* --jobs: why a write failed, said by close_output */
    const struct ranges *games_of;   /* --game, or NULL: every game */
};

static void export_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct export *ex = ctx;
    struct source src;
    source_open(&src, f, sink, ex->ro, ex->from);
    pmn_record rec;
    pmn_write_options wo;
    pmn_write_options_init(&wo);
    unsigned long n = 0;
    while (src.src && !ex->failed && source_next_asked(&src, sink, ex->games_of, &n, &rec) > 0) {
        int rc = -1;
        if (ex->running_totals)
            pmn_record_totals_to_counts(&rec, print_diag, sink);
        pmn_replay *replay = replay_record(&rec, ex->ro, sink);
        release_diags(sink);
        if (replay && ex->xml) {
            rc = pmn_xml_write_game(ex->w, &rec, replay, print_diag, sink);
        } else if (replay) {
            if (ex->games)
                fputc('\n', ex->out);
            rc = pmn_write_record(ex->out, &rec, replay, &wo);
        }
        ex->games++;
        progress_game(sink->progress, sink->file);
        if (rc < 0)
            ex->failed = 1;
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    source_close(&src);
}

/* --jobs: a part's games, added to the archive after the parts before it. */
static void *clone_export(const void *ctx, FILE *out)
{
    struct export *ex = malloc(sizeof *ex);
    if (!ex)
        return NULL;
    *ex = *(const struct export *)ctx;
    ex->out = out;
    ex->games = 0;
    ex->failed = 0;
    if (ex->xml && !(ex->w = pmn_xml_writer_new_part(out))) {
        free(ex);
        return NULL;
    }
    return ex;
}

static void merge_export(void *ctx, const void *part, const char *out, size_t len)
{
    struct export *ex = ctx;
    const struct export *p = part;
    if (p->xml)
        pmn_xml_writer_close(p->w);
    if (ex->failed || !p->games)
        return;
    if (ex->xml) {
        if (pmn_xml_writer_add_part(ex->w, out, len) < 0)
            ex->failed = 1;
    } else if (write_pmn_part(ex->out, ex->games, out, len) < 0) {
        ex->failed = 1;
    }
    if (ex->failed && !ex->write_errno)
        ex->write_errno = errno;
    ex->games += p->games;
    ex->failed |= p->failed;
}

static unsigned long exported(const void *part)
{
    return ((const struct export *)part)->games;
}

static const struct job_command export_job = { export_file, clone_export, merge_export,
                                               exported };

static const char *const formats[] = { "xml", "pmn", NULL };

static const struct cli_option options[] = {
    { "format", 'F' + 256, "FORMAT", "xml (the default), or pmn (as pmn convert)",
      CHOICE_AT(struct export, as_pmn), formats, 0 },
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_RUNNING_TOTALS,
    OPT_OUTPUT,
    OPT_QUIET_PROGRESS,
    OPT_JOBS,
    OPT_GAME,
    OPT_END,
};

static int run(struct common *c, void *ctx)
{
    struct export *ex = ctx;
    ex->xml = !ex->as_pmn;
    ex->ro = &c->ro;
    ex->from = c->from;
    ex->running_totals = c->running_totals;
    ex->games_of = c->games_of;
    ex->out = c->out.f;
    if (ex->xml && !(ex->w = pmn_xml_writer_new(ex->out))) {
        report(&c->sink, PMN_F002, 0, 0, "out of memory");
        c->failed = 1;
        return EXIT_FATAL;
    }
    each_input_jobs(c->files, c->nfiles, &c->sink, &export_job, ex, c->jobs);
    if (ex->xml && pmn_xml_writer_close(ex->w) < 0)
        ex->failed = 1;
    else if (ex->failed)
        c->write_errno = ex->write_errno;
    c->failed = ex->failed;
    return exit_status(&c->sink);
}

const struct command export_command = {
    "export", "write games as an XML archive, with what the replay computed",
    "[OPTIONS] [FILE...]",
    "Write the games of PMN files (standard input if none, or -) as one XML\n"
    "archive (schema: pmn.rng; see pmn(5)): tags, start position, every move with\n"
    "its hole, claimed and computed captures, laps, judgements, NAGs, comments and\n"
    "variations, the result and how the game ended.  What the engine computed is\n"
    "marked apart from what the record claimed.  Games are written one at a time.\n"
    "Problems in the records are reported on standard error as by pmn check.",
    options, NULL, sizeof(struct export), CMD_OUTPUT | CMD_PROGRESS, NULL, NULL, run,
};
