/* check.c - pmn check: replay every game and report what is wrong. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "progress.h"
#include "jobs.h"
#include "records.h"
#include "archive.h"
#include "criteria.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    unsigned long games, moves, lines;
    const struct rules_options *ro;
    int verbose, running_totals, solve, jsonl;
    int json;                 /* --summary-format json */
    int from;                 /* FORMAT_* of the input, or FORMAT_AUTO */
    const struct ranges *games_of;   /* --game, or NULL: every game */
    unsigned long number;     /* games of the current input read */
};

static void describe_game(const char *file, const pmn_record *rec, unsigned long n,
                          const pmn_replay *replay)
{
    const char *south = pmn_record_tag(rec, "South");
    const char *north = pmn_record_tag(rec, "North");
    const pmn_check_result *res = pmn_replay_result(replay);
    printf("%s:%llu: game %lu: %s - %s: %u move%s, ", file, rec->line, n,
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

/* --format jsonl: the game as one JSON object on a line, after its
 * diagnostics; before: the counts of the sink before the game was read. */
static void game_object(const struct diag_sink *sink, const pmn_record *rec, unsigned long n,
                      const pmn_replay *replay, const unsigned before[PMN_FATAL + 1])
{
    const pmn_check_result *res = pmn_replay_result(replay);
    const char *result = pmn_record_tag(rec, "Result");
    fputs("{\"type\":\"game\",\"file\":", stdout);
    json_string(stdout, sink->file);
    printf(",\"game\":%lu,\"line\":%llu,\"south\":", n, rec->line);
    json_or_null(stdout, pmn_record_tag(rec, "South"));
    fputs(",\"north\":", stdout);
    json_or_null(stdout, pmn_record_tag(rec, "North"));
    fputs(",\"result\":", stdout);
    json_or_null(stdout, result ? result : rec->result[0] ? rec->result : NULL);
    printf(",\"moves\":%u,\"state\":\"%s\",\"outcome\":", res->written,
           game_state_name(game_state_of(res)));
    char how[128];
    int ended = res->setup == PMN_SETUP_READY && !res->stopped && res->ending != PMN_END_NONE;
    if (ended)
        pmn_ending_explain(&pmn_replay_setup(replay)->rules, res->ending, &res->end, how,
                           sizeof how);
    json_or_null(stdout, ended ? pmn_outcome_string(res->outcome) : NULL);
    fputs(",\"ending\":", stdout);
    json_or_null(stdout, ended ? how : NULL);
    printf(",\"errors\":%u,\"warnings\":%u,\"notes\":%u}\n",
           sink->count[PMN_ERROR] + sink->count[PMN_FATAL] - before[PMN_ERROR] - before[PMN_FATAL],
           sink->count[PMN_WARNING] - before[PMN_WARNING], sink->count[PMN_NOTE] - before[PMN_NOTE]);
}

/* What is said of the input as a whole (N133, a read error): before the
 * games' problems, as it is said. */
static void input_diag(void *sink, const pmn_diag *d)
{
    print_diag(sink, d);
    release_diags(sink);
}

static void check_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct totals *t = ctx;
    /* Games proved clean by the reader's quick pass are only counted; but
     * --verbose and jsonl describe each game, and --running-totals rewrites
     * them. */
    char dir[4096];
    pmn_check_options o = {
        .source = source_options(sink, t->ro, t->from),
        .quick = !t->verbose && !t->running_totals && !t->jsonl,
        .running_totals = t->running_totals,
        .solve = t->solve,
        .tablebases = t->solve ? default_tablebase_dir(dir, sizeof dir) : NULL,
    };
    pmn_checker *c = pmn_checker_new(f, &o, input_diag, sink);
    pmn_checked_game g;
    unsigned before[PMN_FATAL + 1];
    int asked, rc;
    if (!c) {
        report(sink, PMN_F002, 0, 0, "out of memory");
        return;
    }
    memcpy(before, sink->count, sizeof before);
    /* --game: the games before and between those asked for are read
     * unchecked, and the file is left after the last. */
    while ((asked = game_turn(sink, t->games_of, t->number + 1)) >= 0
           && (rc = asked ? pmn_checker_next(c, &g) : pmn_checker_skip(c)) > 0) {
        t->number++;
        if (!asked)
            continue;
        t->games++;
        t->moves += g.facts.moves;
        for (size_t i = 0; i < g.ndiags; i++)
            print_diag(sink, &g.diags[i]);
        if (!g.proved && g.replay && t->verbose)
            describe_game(sink->file, &g.rec, g.number, g.replay);
        release_diags(sink);
        if (!g.proved && g.replay && t->jsonl)
            game_object(sink, &g.rec, g.number, g.replay, before);
        memcpy(before, sink->count, sizeof before);
        pmn_checked_game_free(&g);
        progress_game(sink->progress, sink->file);
    }
    sink->mute = 0;
    unsigned long read = t->number;
    t->number = 0;
    pmn_reader *rd = pmn_source_pmn(pmn_checker_source(c));
    pmn_at lines = rd ? pmn_reader_line(rd) : 0;
    t->lines += lines;
    pmn_checker_free(c);
    /* An input that holds no game is said so, unless it could not be read
     * at all (said already, fatal). */
    if (read == 0 && sink->count[PMN_FATAL] == sink->fatal_before) {
        if (lines == 0)
            report(sink, PMN_W135, 0, 0, "no game: the input is empty or blank");
        else
            report(sink, PMN_W135, 0, 0, "no game: %lu line%s of text, no moves in them",
                   (unsigned long)lines, lines == 1 ? "" : "s");
    }
}

/* --jobs: a part's totals, merged in order. */
static void *clone_totals(const void *ctx, FILE *out)
{
    (void)out;   /* check writes nothing per game but with --verbose (one job) */
    struct totals *t = malloc(sizeof *t);
    if (t) {
        *t = *(const struct totals *)ctx;
        t->games = t->moves = t->lines = 0;
    }
    return t;
}

static void merge_totals(void *ctx, const void *part, const char *out, size_t len)
{
    struct totals *t = ctx;
    const struct totals *p = part;
    t->games += p->games;
    t->moves += p->moves;
    t->lines += p->lines;
    fwrite(out, 1, len, stdout);
}

static unsigned long games_of(const void *part)
{
    return ((const struct totals *)part)->games;
}

static const struct job_command check_job = { check_file, clone_totals, merge_totals, games_of };

static const char *plural(unsigned long n)
{
    return n == 1 ? "" : "s";
}

static int list_codes_option(const char *cmd, const struct cli_option *o, const char *arg,
                             void *dest)
{
    (void)cmd, (void)o, (void)arg, (void)dest;
    list_codes();
    return CLI_DONE;
}

static const char *const summary_formats[] = { "text", "json", NULL };
static const char *const formats[] = { "text", "jsonl", NULL };

static const struct cli_option options[] = {
    OPT_RULES_OVER,
    OPT_START_POSITION,
    { "verbose", 'v', NULL, "a line for each game: its players, moves and result",
      FLAG_AT(struct totals, verbose), NULL, 0 },
    OPT_GAME,
    { "quiet", 'q', NULL, "leave out notes (endless moves, unproved results),\n"
      "and the progress line on a terminal", COMMON_AT(opt_flag, int, quiet), NULL, 0 },
    OPT_RUNNING_TOTALS,
    OPT_FROM,
    { "solve", 256 + 1, NULL, "in games set up from a position (problems: a\n"
      "Position tag or --position), check with the\n"
      "engine that every move is best play, and note\nduals; note the games not solved",
      FLAG_AT(struct totals, solve), NULL, 0 },
    OPT_JOBS,
    { "list-codes", 256, NULL, "list every diagnostic code, its severity and meaning",
      list_codes_option, 0, 0, NULL, 0 },
    { "format", 256 + 3, "FORMAT", "text (the default), or jsonl: on standard output,\n"
      "each diagnostic and each game as a JSON object on a\nline, and the summary last "
      "(one job reads)", CHOICE_AT(struct totals, jsonl), formats, 0 },
    { "summary-format", 256 + 2, "FORMAT", "text (the default), or json: one object\n"
      "with the counts and the lines read, which parts of\nan archive checked apart add up "
      "(pmn-combine)", CHOICE_AT(struct totals, json), summary_formats, 0 },
    OPT_END,
};

static int run(struct common *c, void *ctx)
{
    struct totals *t = ctx;
    int jobs = c->jobs;
    t->ro = &c->ro;
    t->from = c->from;
    t->running_totals = c->running_totals;
    t->games_of = c->games_of;
    c->sink.show_notes = !c->quiet;
    if (t->jsonl) {
        c->sink.err = stdout;   /* one stream of objects, for a program to read */
        c->sink.json = 1;
    }
    /* --verbose and jsonl number the games of a file: one job reads them
     * in order. */
    if (names_foreign(c->files, c->nfiles))
        jobs = 1;   /* --jobs cuts PMN text */
    each_input_jobs(c->files, c->nfiles, &c->sink, &check_job, t,
                    t->verbose || t->jsonl ? 1 : jobs);
    if (t->jsonl) {
        printf("{\"type\":\"summary\",\"games\":%lu,\"moves\":%lu,\"errors\":%u,"
               "\"warnings\":%u,\"notes\":%u,\"fatal\":%u,\"lines\":%lu}\n", t->games, t->moves,
               c->sink.count[PMN_ERROR], c->sink.count[PMN_WARNING], c->sink.count[PMN_NOTE],
               c->sink.count[PMN_FATAL], t->lines);
        return exit_status(&c->sink);
    }
    if (t->json) {
        printf("{\"games\":%lu,\"moves\":%lu,\"errors\":%u,\"warnings\":%u,\"notes\":%u,"
               "\"fatal\":%u,\"lines\":%lu}\n", t->games, t->moves, c->sink.count[PMN_ERROR],
               c->sink.count[PMN_WARNING], c->sink.count[PMN_NOTE], c->sink.count[PMN_FATAL],
               t->lines);
        return exit_status(&c->sink);
    }
    printf("%lu game%s, %lu move%s: %u error%s, %u warning%s, %u note%s",
           t->games, plural(t->games), t->moves, plural(t->moves),
           c->sink.count[PMN_ERROR], plural(c->sink.count[PMN_ERROR]),
           c->sink.count[PMN_WARNING], plural(c->sink.count[PMN_WARNING]),
           c->sink.count[PMN_NOTE], plural(c->sink.count[PMN_NOTE]));
    if (c->sink.count[PMN_FATAL])
        printf(", %u fatal", c->sink.count[PMN_FATAL]);
    printf("\n");
    return exit_status(&c->sink);
}

const struct command check_command = {
    "check", "replay every game of PMN files and report what is wrong",
    "[OPTIONS] [FILE...]",
    "Replay every game of the PMN files (or other programs' notations: --from;\n"
    "standard input if none, or -) against the rules, and report every problem\n"
    "as FILE:LINE:COL: severity[CODE]: message on standard error; a summary\n"
    "line ends the run on standard output: the games, their moves (a move is a\n"
    "player's turn, its sowings joined by '-'), and the problems found.",
    options,
    "Exit status: 0 no problem, 1 warnings only, 2 errors, 3 fatal (a file could\n"
    "not be read), 64 a wrong command line.  pmn(1) lists every code.",
    sizeof(struct totals), CMD_PROGRESS | CMD_NOTES, NULL, NULL, run,
};
