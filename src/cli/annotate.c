/* annotate.c - pmn annotate: games judged move by move by the engine. */
#include "cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OPT_THRESHOLD = 256 };

static const struct cli_option options[] = {
    OPT_SEARCH_LIMITS,
    OPT_TABLEBASE,
    { "threshold", OPT_THRESHOLD, "SEEDS", "seeds lost against the best move that make a\n"
      "'?' (twice as many a '?\?'; default 2)" },
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_NOTATION,
    OPT_CAPTURE_STYLE,
    OPT_RUNNING_TOTALS,
    OPT_OUTPUT,
    OPT_STRICT,
    OPT_END,
};

struct annotate {
    pmn_write_options wo;
    struct rules_options ro;
    pmn_annotate_options ao;
    char annotator[128];
    unsigned long hash;
    const char *tbdir;        /* --tablebase DIR, or NULL */
    pmn_tablebase *tb;        /* DIR's databases of the last game's rules */
    int running_totals, failed;
    int from;                 /* FORMAT_* (--from), FORMAT_AUTO: found */
    FILE *out;
    unsigned long games;
};

static void annotate_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct annotate *an = ctx;
    struct source src;
    pmn_reader *rd = source_open(&src, f, sink, &an->ro, an->from) == 0 ? src.pmn : NULL;
    pmn_record rec;
    while ((rd || src.foreign) && source_next(&src, &rec) > 0) {
        if (an->running_totals)
            pmn_record_totals_to_counts(&rec, print_diag, sink);
        /* Problems are said once, by a replay of the record as read, whose
         * setup the annotation starts from. */
        pmn_replay *check = replay_record(&rec, &an->ro, sink);
        release_diags(sink);
        pmn_searcher *s = check ? pmn_searcher_new(&pmn_replay_setup(check)->rules, an->hash)
                                : NULL;
        if (isatty(2)) {
            char file[1024];
            fprintf(stderr, "\rannotating game %lu of %s...\033[K", an->games + 1,
                    escaped(sink->file, file, sizeof file));
        }
        if (s && an->ao.limits.solve && !an->failed) {
            /* The databases of this game's rules: those of the game before
             * serve again when its rules were the same. */
            const pmn_rules *r = &pmn_replay_setup(check)->rules;
            if (an->tb && pmn_searcher_use_tablebase(s, an->tb) != 0) {
                pmn_tablebase_close(an->tb);
                an->tb = NULL;
            }
            if (!an->tb && tablebase_option("annotate", an->tbdir, r, s, &an->tb) != 0)
                an->failed = 1;
        }
        if (!check) {
            an->failed = 1;   /* said by the replay */
        } else if (!s || pmn_annotate_record(&rec, pmn_replay_setup(check), s, &an->ao) < 0) {
            report(sink, PMN_F002, rec.line, rec.col, "out of memory (try a smaller --hash)");
            an->failed = 1;
        }
        pmn_searcher_free(s);
        pmn_replay_free(check);
        if (an->games++)
            fputc('\n', an->out);
        /* Written as set up (--rules over the record's own), from a replay
         * of the record as annotated: its lines are new. */
        pmn_replay *out = replay_record(&rec, &an->ro, NULL);
        if (!out || pmn_write_record(an->out, &rec, out, &an->wo) < 0)
            an->failed = 1;
        pmn_replay_free(out);
        pmn_record_free(&rec);
    }
    if (isatty(2))
        fprintf(stderr, "\r\033[K");
    source_close(&src);
}

static int run(const struct command *cmd, int argc, char **argv)
{
    int strict = 0;   /* --strict: check's statuses */
    struct annotate an;
    struct diag_sink sink = { .file = "-", .show_notes = 0 };
    const char *output = NULL;
    struct cli_args a;
    unsigned long v;
    int c, rc;
    memset(&an, 0, sizeof an);
    an.from = FORMAT_AUTO;
    pmn_write_options_init(&an.wo);
    an.hash = 64;
    an.ao.limits.threads = default_threads();
    an.ao.threshold = 2;
    cli_begin(&a, cmd, argc, argv);
    while ((c = cli_next(&a)) != CLI_END) {
        switch (c) {
        case OPT_THRESHOLD:
            if (parse_number(a.arg, 100000, &v) < 0)
                return usage_error(cmd->name, "--threshold takes a number of seeds, not '%s'",
                                   a.arg);
            an.ao.threshold = (unsigned)v;
            break;
        case 'r':
            if ((rc = add_rules_option(cmd->name, &an.ro, a.arg)) != 0)
                return rc;
            break;
        case 'I' + 256:
            if ((rc = format_option(cmd->name, "from", a.arg, &an.from)) != 0)
                return rc;
            break;
        case 'n':
            if ((rc = notation_option(cmd->name, a.arg, &an.wo)) != 0)
                return rc;
            break;
        case 'c':
            if ((rc = capture_style_option(cmd->name, a.arg, &an.wo)) != 0)
                return rc;
            break;
        case 'T' + 256: an.running_totals = 1; break;
        case KEY_TABLEBASE: an.tbdir = a.arg; break;
        case 'o': output = a.arg; break;
        case 'Z' + 256: strict = 1; break;
        default:
            if (c == CLI_STOP)
                return a.status;
            if ((rc = search_option(cmd->name, c, a.arg, &an.ao.limits, &an.hash)) != 0)
                return rc;
        }
    }
    pmn_search_limits *l = &an.ao.limits;
    if (!l->depth && !l->nodes && l->seconds <= 0 && !l->solve)
        l->depth = 8;
    int n = snprintf(an.annotator, sizeof an.annotator, "pmn %s", pmn_version());
    if (l->solve)
        n += snprintf(an.annotator + n, sizeof an.annotator - (size_t)n, ", solved");
    if (l->depth)
        n += snprintf(an.annotator + n, sizeof an.annotator - (size_t)n, ", depth %u", l->depth);
    if (l->nodes)
        n += snprintf(an.annotator + n, sizeof an.annotator - (size_t)n, ", nodes %llu",
                      (unsigned long long)l->nodes);
    if (l->seconds > 0)
        n += snprintf(an.annotator + n, sizeof an.annotator - (size_t)n, ", %g s a position",
                      l->seconds);
    snprintf(an.annotator + n, sizeof an.annotator - (size_t)n, ", threshold %u",
             an.ao.threshold);
    an.ao.annotator = an.annotator;
    an.ao.notation = an.wo.notation;
    struct output out;
    if ((rc = open_output(&out, cmd->name, output, argv + optind, argc - optind)) != 0)
        return rc;
    an.out = out.f;
    each_input(argv + optind, argc - optind, &sink, annotate_file, &an);
    pmn_tablebase_close(an.tb);
    return close_output(&out, an.failed, job_status(&sink, strict));
}

const struct command annotate_command = {
    "annotate", "judge every move of games with the engine, as PMN comments",
    "[OPTIONS] [FILE...]",
    "Write the games of PMN files (standard input if none, or -) as canonical PMN,\n"
    "each move of the main line judged by the engine (pmn analyse): '?' for a move\n"
    "that loses --threshold seeds or more against the best, or throws away a win\n"
    "or a draw; '?\?' for twice that, or a win thrown to a loss; '!' for the only\n"
    "move that keeps the result.  Each mistake gets a comment with the values,\n"
    "{best e, +2; played b, -3}, and the engine's line as a variation; where the\n"
    "values are exact, the point where the game was decided is marked; a summary\n"
    "for each side ends the game.  The record's own annotations are kept; those of\n"
    "an earlier pmn annotate (its Annotator tag) are replaced.  With --depth or\n"
    "--nodes, not --time, the output is the same on every machine.  The limits\n"
    "are each position's; without one, the search looks 8 plies ahead.",
    options, NULL, run,
};
