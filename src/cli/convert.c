/* convert.c - pmn convert: records as canonical PMN, in any notation. */
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

struct convert {
    pmn_write_options wo;
    const struct rules_options *ro;
    int fix_result, fix, running_totals;
    int from, to;             /* FORMAT_*: of the input (or AUTO), of the output */
    int failed;               /* a write failed: the rest is not read */
    int write_errno;          /* why (--jobs: said at the end, by close_output) */
    FILE *out;
    unsigned long games;
    const struct ranges *games_of;   /* --game, or NULL: every game */
};

/* The result the board proves, or NULL where the game did not end there. */
static const char *proved_result(const pmn_replay *replay)
{
    const pmn_check_result *res = pmn_replay_result(replay);
    if (!pmn_replay_complete(replay) || res->ending == PMN_END_NONE)
        return NULL;
    return pmn_outcome_string(res->outcome);
}

/* --fix: the fixes the replay proves, said as notes, which --fix shows. */
static int fix_record(pmn_record *rec, const struct rules_options *ro, struct diag_sink *sink)
{
    pmn_setup setup;
    pmn_setup_record(rec, &ro->setup, &setup, NULL, NULL);
    if (pmn_record_fix(rec, &setup, print_diag, sink) < 0) {
        report(sink, PMN_F002, rec->line, rec->col, "out of memory");
        return -1;
    }
    return 0;
}

static void convert_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct convert *cv = ctx;
    struct source src;
    pmn_record rec;
    int open = source_open(&src, f, sink, cv->ro, cv->from) == 0;
    unsigned long n = 0;
    while (open && !cv->failed && source_next_asked(&src, sink, cv->games_of, &n, &rec) > 0) {
        if (cv->running_totals)
            pmn_record_totals_to_counts(&rec, print_diag, sink);
        if (cv->fix && fix_record(&rec, cv->ro, sink) < 0) {
            pmn_record_free(&rec);
            cv->failed = 1;
            break;
        }
        pmn_replay *replay = replay_record(&rec, cv->ro, sink);
        if (replay)
            check_score(&rec, replay, sink, 1);
        release_diags(sink);
        if (replay) {
            cv->wo.result = cv->fix_result || cv->fix ? proved_result(replay) : NULL;
            if (cv->games++)
                fputc('\n', cv->out);
            if ((cv->to >= FORMAT_OGN ? pmn_write_format(cv->out, FOREIGN_FORMAT(cv->to), &rec,
                                                         replay, print_diag, sink)
                                      : pmn_write_record(cv->out, &rec, replay, &cv->wo)) < 0)
                cv->failed = 1;   /* said once, by close_output */
            release_diags(sink);
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
        progress_game(sink->progress, sink->file);
    }
    source_close(&src);
}

/* --jobs: a part's output, written after the parts before it. */
static void *clone_convert(const void *ctx, FILE *out)
{
    struct convert *cv = malloc(sizeof *cv);
    if (cv) {
        *cv = *(const struct convert *)ctx;
        cv->out = out;
        cv->games = 0;
        cv->failed = 0;
    }
    return cv;
}

static void merge_convert(void *ctx, const void *part, const char *out, size_t len)
{
    struct convert *cv = ctx;
    const struct convert *p = part;
    if (cv->failed || !p->games)
        return;
    if (write_pmn_part(cv->out, cv->games, out, len) < 0) {
        cv->failed = 1;
        cv->write_errno = errno;
    }
    cv->games += p->games;
    cv->failed |= p->failed;
}

static unsigned long converted(const void *part)
{
    return ((const struct convert *)part)->games;
}

static const struct job_command convert_job = { convert_file, clone_convert, merge_convert,
                                                 converted };

static const struct cli_option options[] = {
    OPT_NOTATION,
    OPT_CAPTURE_STYLE,
    { "fix-result", 'F' + 256, NULL, "write the result the replay proves, where the game\n"
      "ended on the board", FLAG_AT(struct convert, fix_result), NULL, 0 },
    { "fix", 'X' + 256, NULL, "make the fixes the replay proves, and say each: a\n"
      "letter of the wrong case, captures the record leaves\nout, the result",
      FLAG_AT(struct convert, fix), NULL, 0 },
    OPT_RUNNING_TOTALS,
    OPT_FROM,
    { "to", 'O' + 256, "FORMAT", "{formats}\n(default: pmn)",
      BIND_AT(format_option, int, struct convert, to), NULL, 0 },
    OPT_RULES_OVER,
    OPT_START_POSITION,
    OPT_OUTPUT,
    OPT_QUIET_PROGRESS,
    OPT_JOBS,
    OPT_GAME,
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct convert *cv = ctx;
    (void)c;
    cv->to = FORMAT_PMN;
}

static int run(struct common *c, void *ctx)
{
    struct convert *cv = ctx;
    int jobs = c->jobs;
    cv->wo = c->wo;
    cv->ro = &c->ro;
    cv->from = c->from;
    cv->running_totals = c->running_totals;
    cv->games_of = c->games_of;
    /* Notes (endless moves met while proving results) are not news here;
     * with --fix, they say what was fixed. */
    c->sink.show_notes = cv->fix;
    if (cv->fix || cv->fix_result)
        c->sink.drop_code = PMN_W118;   /* its fix is made here */
    cv->out = c->out.f;
    if (names_foreign(c->files, c->nfiles))
        jobs = 1;   /* --jobs cuts PMN text */
    each_input_jobs(c->files, c->nfiles, &c->sink, &convert_job, cv, jobs);
    c->failed = cv->failed;
    c->write_errno = cv->write_errno;
    return exit_status(&c->sink);
}

const struct command convert_command = {
    "convert", "write games as canonical PMN, in any notation",
    "[OPTIONS] [FILE...]",
    "Write the games of PMN files (or of other programs' notations: --from;\n"
    "standard input if none, or -) as canonical PMN (or another notation:\n"
    "--to): the tag roster first, move numbers, ';' between full moves, the\n"
    "sowings of a move joined by '-', one capture style, comments in braces,\n"
    "lines wrapped at 80 columns.  Nothing read is dropped; converting the\n"
    "output again gives the same bytes.  What another notation cannot hold is\n"
    "said (W132).  Problems in the input are reported as by pmn check.",
    options, NULL, sizeof(struct convert), CMD_OUTPUT | CMD_PROGRESS, init, NULL, run,
};
