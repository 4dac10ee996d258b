/* select.c - pmn select: the games of archives that meet criteria. */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "progress.h"
#include "jobs.h"
#include "records.h"
#include "archive.h"
#include "criteria.h"
#include "command.h"
#include "lookup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct select {
    struct archive a;         /* first: archive_file is given the context */
    const struct criteria *c;
    struct game_output out;
    int count_only;
    unsigned long matched;
    int write_errno;
    const char *index;        /* --index DB: its games, not files' */
};

static int each_game(struct archive *a, struct game *g)
{
    struct select *sel = (struct select *)a;
    if (!criteria_match(sel->c, g))
        return 0;
    sel->matched++;
    if (!sel->count_only && output_game(&sel->out, g) < 0)
        return 1;   /* a write failed: said once, by close_output */
    return 0;
}

static int ruled_out(struct archive *a, const struct game *g)
{
    return criteria_rule_out(((struct select *)a)->c, g);
}

/* --jobs: a part's games, written after the parts before it. */
static void *clone_select(const void *ctx, FILE *out)
{
    struct select *sel = malloc(sizeof *sel);
    if (sel) {
        *sel = *(const struct select *)ctx;
        sel->out.f = out;
        sel->out.games = 0;
        sel->out.failed = 0;
        sel->matched = 0;
    }
    return sel;
}

static void merge_select(void *ctx, const void *part, const char *out, size_t len)
{
    struct select *sel = ctx;
    const struct select *p = part;
    if (!sel->out.failed && p->out.games && write_pmn_part(sel->out.f, sel->out.games, out, len) < 0) {
        sel->out.failed = 1;
        sel->write_errno = errno;
    }
    sel->out.games += p->out.games;
    sel->out.failed |= p->out.failed;
    sel->matched += p->matched;
}

static unsigned long selected(const void *part)
{
    return ((const struct select *)part)->matched;
}

static const struct job_command select_job = { archive_file, clone_select, merge_select,
                                                selected };

static const struct cli_option options[] = {
    OPT_CRITERIA,
    OPT_OUTPUT_FORMAT,
    { "count", 'c', NULL, "write only the number of games selected",
      FLAG_AT(struct select, count_only), NULL, 0 },
    { "index", 'x', "DB", "the games of an archive index (pmn index) instead\n"
      "of files: a position looked up, not every game\nreplayed",
      BIND_AT(opt_string, const char *, struct select, index), NULL, 0 },
    OPT_NOTATION,
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_OUTPUT,
    OPT_QUIET_PROGRESS,
    OPT_JOBS,
    OPT_STRICT,
    OPT_END,
};

static int run(struct common *c, void *ctx)
{
    struct select *sel = ctx;
    int jobs = c->jobs;
    if (sel->index && c->nfiles)
        return usage_error(c->cmd->name, "--index reads the games of an index: no file too");
    sel->out.wo = c->wo;
    sel->out.format = c->out_format;
    sel->a.from = c->from;
    sel->a.game = each_game;
    sel->a.ro = &c->ro;
    sel->a.need_moves = criteria_need_moves(&c->criteria)
                     || (!sel->count_only && OUTPUT_NEEDS_RECORD(sel->out.format));
    /* Game numbers (criteria, list, jsonl) count the games of a file, which
     * the filter would leave uncounted and a part cannot know. */
    int numbered = criteria_need_numbers(&c->criteria)
                || (!sel->count_only && (sel->out.format == OUT_LIST
                                         || sel->out.format == OUT_JSONL));
    if (!numbered && criteria_need_tags(&c->criteria))
        sel->a.ruled_out = ruled_out;
    if (numbered || (!sel->count_only && sel->out.format == OUT_XML))
        jobs = 1;
    sel->a.no_tags = !criteria_need_tags(&c->criteria)
                  && (sel->count_only || sel->out.format == OUT_VERBATIM);
    sel->c = &c->criteria;
    sel->out.f = c->out.f;
    if (!sel->count_only && output_begin(&sel->out) < 0)
        sel->out.failed = 1;
    int status = 0;
    if (sel->index) {
        status = index_archive(c, sel->index, &sel->a);
    } else {
        each_input_jobs(c->files, c->nfiles, &c->sink, &select_job, sel, jobs);
    }
    if (!sel->count_only)
        output_end(&sel->out);
    else if (!status)
        fprintf(c->out.f, "%lu\n", sel->matched);
    c->failed = sel->out.failed;
    c->write_errno = sel->write_errno;
    return status ? status : job_status(&c->sink, c->strict);
}

const struct command select_command = {
    "select", "write the games of archives that meet criteria",
    "[OPTIONS] [FILE...]",
    "Write the games of PMN files or XML archives (standard input if none, or -)\n"
    "that meet every criterion given: their numbers, tags, players, dates,\n"
    "results, rule set, how they ended, their length, their moves, a position\n"
    "they reach, what checking them finds.  Values of --player, --south,\n"
    "--north, --event and --winner find a name as people type it: the start of\n"
    "the tag's value or of a word in it, in any case (Gering, 'khamis said');\n"
    "'=' before one matches exactly, '~' a PCRE2 pattern.\n"
    "Games are written as read (verbatim), or in the format asked for.\n"
    "Problems in the games read are reported on standard error as by pmn\n"
    "check; games that tag criteria rule out are not read further.",
    options,
    "Exit status: 0, or as pmn check's for the problems of the games read;\n"
    "64 a wrong command line or criterion.",
    sizeof(struct select), CMD_OUTPUT | CMD_PROGRESS, NULL, NULL, run,
};

int select_index(struct common *c, const char *db, int count_only)
{
    struct select sel = { .count_only = count_only, .index = db };
    int files = c->nfiles;
    c->nfiles = 0;   /* the index's games, not the operands' */
    int rc = run(c, &sel);
    c->nfiles = files;
    return rc;
}
