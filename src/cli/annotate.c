/* annotate.c - pmn annotate: games judged move by move by the engine. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "progress.h"
#include "annotate.h"
#include "records.h"
#include "criteria.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The default budget is a count of positions, not a time, so that the
 * same record is annotated alike on every machine, loaded or not: about
 * 0.1 s a position on the project's machine (doc/guide.txt). */
#define DEFAULT_NODES 1000000
#define DEFAULT_PROOF 250000
#define DEFAULT_OPENING 8

struct annotate {
    pmn_write_options wo;
    const struct rules_options *ro;
    pmn_annotate_options ao;
    char annotator[160];
    unsigned long hash;
    const char *tbdir;        /* --tablebase DIR, or NULL */
    pmn_tablebase *tb;        /* DIR's databases of the last game's rules */
    int running_totals, json, quiet;
    int failed;               /* a write failed */
    int fatal;                /* EXIT_FATAL: the databases asked for were refused */
    int from;                 /* FORMAT_* (--from), FORMAT_AUTO: found */
    FILE *out;
    unsigned long games;      /* written so far */
    const struct ranges *games_of;   /* --game, or NULL: every game */
    /* Progress: the games and plies of the file, where they could be
     * counted ahead; the time the run began. */
    unsigned long file_games, file_game;
    unsigned long long file_plies, plies_done;
    double start;
    const char *file;
};

/* How many games and main-line moves a PMN file holds, read ahead by name
 * (not standard input): for the progress line's totals. */
static void count_ahead(struct annotate *an, const char *name)
{
    an->file_games = 0;
    an->file_plies = 0;
    if (!isatty(2) || an->quiet || !name || strcmp(name, "-") == 0
        || (an->from != FORMAT_AUTO && an->from != FORMAT_PMN))
        return;
    FILE *f = fopen(name, "rb");
    pmn_reader *rd = f ? pmn_reader_new(f, NULL, NULL) : NULL;
    pmn_record rec;
    unsigned long n = 0;
    while (rd && !(an->games_of && ranges_past(an->games_of, n + 1))
           && pmn_reader_next(rd, &rec) > 0) {
        if (!an->games_of || ranges_has(an->games_of, ++n)) {
            an->file_games++;
            an->file_plies += rec.main.nmoves;
        }
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
    if (f)
        fclose(f);
}

static void progress(void *ctx, size_t done, size_t plies, double seconds)
{
    struct annotate *an = ctx;
    char file[512], games[64] = "", left[64] = "";
    (void)seconds;
    if (an->file_games)
        snprintf(games, sizeof games, " of %lu", an->file_games);
    /* Time left: at the rate so far, over the plies left in the file (or
     * in this game, where the file could not be counted). */
    unsigned long long now_done = an->plies_done + done;
    double spent = clock_seconds() - an->start;
    unsigned long long total = an->file_plies > now_done ? an->file_plies
                             : an->plies_done + plies;
    if (now_done > 0 && total > now_done)
        snprintf(left, sizeof left, ", about %.0f s left",
                 spent / (double)now_done * (double)(total - now_done));
    fprintf(stderr, "\rannotating game %lu%s of %s, ply %zu of %zu%s\033[K", an->file_game,
            games, escaped(an->file, file, sizeof file), done + 1, plies, left);
}

/* ---- JSON: a line for each game ----------------------------------------- */

static void json_hole(const struct annotate *an, const pmn_rules *r, int side, int hole)
{
    char buf[16];
    pmn_hole_name(r, an->wo.notation, side, hole, buf, sizeof buf);
    json_string(an->out, buf);
}

static void json_side(FILE *f, const pmn_annotation_side *t)
{
    fprintf(f, "{\"moves\": %u, \"sowings\": %u, \"inaccuracies\": %u, \"mistakes\": %u, "
            "\"blunders\": %u, \"average_loss\": %.2f, \"accuracy\": %.1f}", t->moves, t->sowings, t->inaccuracies,
            t->mistakes, t->blunders, t->average_loss, t->accuracy);
}

static void write_json(struct annotate *an, const pmn_record *rec, const pmn_setup *setup,
                       const pmn_annotation *a)
{
    static const char *const tags[] = { "Event", "Site", "Date", "Round", "South", "North",
                                        "Result" };
    FILE *f = an->out;
    const pmn_rules *r = &setup->rules;
    char buf[512];
    fprintf(f, "{\"game\": %lu, \"file\": ", an->games + 1);
    json_string(f, an->file);
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
        fprintf(f, ", \"%c%s\": ", tags[i][0] - 'A' + 'a', tags[i] + 1);
        json_or_null(f, pmn_record_tag(rec, tags[i]));
    }
    pmn_rules_format(r, buf, sizeof buf);
    fprintf(f, ", \"rules\": ");
    json_string(f, buf);
    fprintf(f, ", \"annotator\": ");
    json_string(f, an->annotator);
    if (a->model)
        fprintf(f, ", \"model\": {\"k\": %.4f, \"p\": %.2f}", a->model->k, a->model->p);
    fprintf(f, ", \"moves\": [");
    for (size_t i = 0; i < a->nplies; i++) {
        const pmn_annotated_ply *j = &a->plies[i];
        char best[16];
        double south = j->mover == PMN_SOUTH ? j->expected_played : 1 - j->expected_played;
        fprintf(f, "%s{\"ply\": %zu, \"side\": \"%s\", \"move\": ", i ? ", " : "", j->ply + 1,
                j->mover == PMN_SOUTH ? "south" : "north");
        json_hole(an, r, j->mover, j->hole);
        fprintf(f, ", \"eval\": ");
        json_string(f, j->eval);
        fprintf(f, ", \"exact\": %s, \"south_expected\": %.3f, \"best\": ",
                j->played.exact ? "true" : "false", south);
        json_hole(an, r, j->mover, j->best);
        pmn_value_eval(&j->best_value, j->mover, best, sizeof best);
        fprintf(f, ", \"best_eval\": ");
        json_string(f, best);
        fprintf(f, ", \"loss\": %.3f, \"seeds_lost\": %d, \"accuracy\": %.1f, \"judgement\": ",
                j->loss, j->seeds_lost, j->accuracy);
        json_or_null(f, j->mark ? pmn_mark_symbol(j->mark) : NULL);
        fprintf(f, ", \"depth\": %u", j->depth);
        if (j->mark > PMN_MARK_ONLY) {
            /* The engine's line from the position before the move. */
            pmn_position q = j->before;
            fprintf(f, ", \"line\": [");
            for (unsigned k = 0; k < j->npv; k++) {
                pmn_move_report rep;
                fprintf(f, "%s", k ? ", " : "");
                json_hole(an, r, q.to_move, j->pv[k]);
                if (pmn_play(r, &q, j->pv[k], &rep) != 0 || rep.ending != PMN_END_NONE)
                    break;
            }
            fprintf(f, "]");
        }
        fprintf(f, "}");
    }
    fprintf(f, "], \"decided\": ");
    if (a->decided >= -1)
        fprintf(f, "{\"after_ply\": %ld, \"winner\": \"%s\"}", a->decided + 1,
                a->winner == PMN_SOUTH ? "south" : "north");
    else
        fprintf(f, "null");
    fprintf(f, ", \"summary\": {\"south\": ");
    json_side(f, &a->side[PMN_SOUTH]);
    fprintf(f, ", \"north\": ");
    json_side(f, &a->side[PMN_NORTH]);
    fprintf(f, "}}\n");
}

static void annotate_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct annotate *an = ctx;
    struct source src;
    source_open(&src, f, sink, an->ro, an->from);
    pmn_record rec;
    an->file = sink->file;
    an->file_game = 0;
    count_ahead(an, sink->file);
    an->plies_done = 0;
    an->start = clock_seconds();
    an->ao.progress = isatty(2) && !an->quiet ? progress : NULL;
    an->ao.progress_ctx = an;
    unsigned long n = 0;
    while (!an->fatal && src.src && source_next_asked(&src, sink, an->games_of, &n, &rec) > 0) {
        an->file_game++;
        if (an->running_totals)
            pmn_record_totals_to_counts(&rec, print_diag, sink);
        /* Problems are said once, by a replay of the record as read, whose
         * setup the annotation starts from. */
        pmn_replay *check = replay_record(&rec, an->ro, sink);
        release_diags(sink);
        pmn_searcher *s = check ? pmn_searcher_new(&pmn_replay_setup(check)->rules, an->hash)
                                : NULL;
        if (s && (an->fatal = tablebase_for_game("annotate", an->tbdir,
                                                 &pmn_replay_setup(check)->rules, s, &an->tb))) {
            /* Databases asked for and not to be had: said once, and
             * nothing written (the next games would be refused the same). */
            pmn_searcher_free(s);
            pmn_replay_free(check);
            pmn_record_free(&rec);
            break;
        }
        pmn_annotation found;
        memset(&found, 0, sizeof found);
        if (!check || !s
            || pmn_annotate_record(&rec, pmn_replay_setup(check), s, &an->ao, &found) < 0)
            report(sink, PMN_F002, rec.line, rec.col, "out of memory (try a smaller --hash)");
        an->plies_done += rec.main.nmoves;
        if (an->tb && pmn_tablebase_damaged(an->tb)) {
            /* The databases were found damaged during this game: its
             * values would be the search's without them.  Said at once
             * (F005), the game not written, and no further game read. */
            an->fatal = tablebase_close_checked(an->tb);
            if (!an->fatal)
                an->fatal = EXIT_FATAL;
            an->tb = NULL;
            pmn_annotation_free(&found);
            pmn_searcher_free(s);
            pmn_replay_free(check);
            pmn_record_free(&rec);
            break;
        }
        if (an->json) {
            if (check)
                write_json(an, &rec, pmn_replay_setup(check), &found);
        } else {
            if (an->games)
                fputc('\n', an->out);
            /* Written as set up (--rules over the record's own), from a
             * replay of the record as annotated: its lines are new. */
            pmn_replay *out = replay_record(&rec, an->ro, NULL);
            if (!out || pmn_write_record(an->out, &rec, out, &an->wo) < 0)
                an->failed = 1;
            pmn_replay_free(out);
        }
        an->games++;
        pmn_annotation_free(&found);
        pmn_searcher_free(s);
        pmn_replay_free(check);
        pmn_record_free(&rec);
    }
    if (an->ao.progress)
        fprintf(stderr, "\r\033[K");
    source_close(&src);
}

void annotate_defaults(pmn_annotate_options *ao)
{
    memset(ao, 0, sizeof *ao);
    ao->limits.threads = default_threads();
    ao->threshold = 0.05;
    ao->opening = DEFAULT_OPENING;
    ao->proof_nodes = DEFAULT_PROOF;
}

void annotate_finish(pmn_annotate_options *ao, char *annotator, size_t size)
{
    pmn_search_limits *l = &ao->limits;
    if (!l->depth && !l->nodes && l->seconds <= 0 && !l->solve && ao->game_seconds <= 0)
        l->nodes = DEFAULT_NODES;
    int n = snprintf(annotator, size, "pmn %s", pmn_version());
    if (l->solve)
        n += snprintf(annotator + n, size - (size_t)n, ", solved");
    if (l->depth)
        n += snprintf(annotator + n, size - (size_t)n, ", depth %u", l->depth);
    if (l->nodes)
        n += snprintf(annotator + n, size - (size_t)n, ", nodes %llu",
                      (unsigned long long)l->nodes);
    if (ao->game_seconds > 0)
        n += snprintf(annotator + n, size - (size_t)n, ", %g s a game", ao->game_seconds);
    else if (l->seconds > 0)
        n += snprintf(annotator + n, size - (size_t)n, ", %g s a position", l->seconds);
    if (ao->proof_nodes && !l->solve)
        n += snprintf(annotator + n, size - (size_t)n, ", proof %llu",
                      (unsigned long long)ao->proof_nodes);
    snprintf(annotator + n, size - (size_t)n, ", threshold %g%%, opening %u",
             ao->threshold * 100, ao->opening);
    ao->annotator = annotator;
}

/* --threshold PERCENT, kept as a fraction. */
static int threshold_option(const char *cmd, const struct cli_option *o, const char *arg,
                            void *dest)
{
    double percent;
    int rc = opt_double(cmd, o, arg, &percent);
    if (rc == 0)
        *(double *)dest = percent / 100;
    return rc;
}

static const char *const formats[] = { "pmn", "json", NULL };
static const struct cli_bounds game_time_bounds = { 0, 1e7, "a number of seconds", 1 },
    threshold_bounds = { 0, 100, "a percentage", 1 },
    opening_bounds = { 0, 100000, "a number of plies", 0 },
    proof_bounds = { 0, CLI_NO_MAX, "a number of positions", 0 };

static const struct cli_option options[] = {
    OPT_SEARCH_LIMITS,
    { "game-time", 256 + 1, "SECONDS", "a budget for each game, shared among its\n"
      "positions (the result then depends on the machine)",
      DOUBLE_AT(struct annotate, ao.game_seconds), &game_time_bounds, 0 },
    OPT_TABLEBASE,
    { "threshold", 256, "PERCENT", "the drop of expected score that makes a\n"
      "'?!' (twice a '?', three times a '?\?'; default 5)",
      BIND_AT(threshold_option, double, struct annotate, ao.threshold), &threshold_bounds, 0 },
    { "opening", 256 + 3, "PLIES", "mark none of the first PLIES plies by estimates,\n"
      "only by exact values (default 8)",
      UINT_AT(struct annotate, ao.opening), &opening_bounds, 0 },
    { "proof", 256 + 4, "NODES", "try to prove each position exactly within NODES\n"
      "positions before judging it by estimates\n"
      "(default 250000; 0: never)",
      U64_AT(struct annotate, ao.proof_nodes), &proof_bounds, 0 },
    { "format", 256 + 2, "FORMAT", "pmn (the default): the records annotated;\n"
      "json: a line for each game, a value and\n"
      "judgement for each move", CHOICE_AT(struct annotate, json), formats, 0 },
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_NOTATION,
    OPT_CAPTURE_STYLE,
    OPT_RUNNING_TOTALS,
    OPT_QUIET_PROGRESS,
    OPT_OUTPUT,
    OPT_GAME,
    OPT_STRICT,
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct annotate *an = ctx;
    (void)c;
    annotate_defaults(&an->ao);
}

static int run(struct common *c, void *ctx)
{
    struct annotate *an = ctx;
    an->ao.limits = c->limits;
    an->hash = c->hash_mb;
    an->tbdir = c->tablebase;
    an->wo = c->wo;
    an->ro = &c->ro;
    an->from = c->from;
    an->running_totals = c->running_totals;
    an->quiet = c->quiet;
    an->games_of = c->games_of;
    annotate_finish(&an->ao, an->annotator, sizeof an->annotator);
    an->ao.notation = an->wo.notation;
    an->out = c->out.f;
    each_input(c->files, c->nfiles, &c->sink, annotate_file, an);
    int damaged = tablebase_close_checked(an->tb);
    c->failed = an->failed;
    return an->fatal ? an->fatal : damaged ? damaged : job_status(&c->sink, c->strict);
}

const struct command annotate_command = {
    "annotate", "judge every move of games with the engine, as PMN comments",
    "[OPTIONS] [FILE...]",
    "Write the games of PMN files (standard input if none, or -) as canonical PMN,\n"
    "each move of the main line judged by the engine (pmn analyse) by how much it\n"
    "lowers its mover's expected score (win 1, draw 1/2, loss 0; a model of each\n"
    "game fitted from self-play, see pmn selfplay): '?!' (inaccuracy) for a drop\n"
    "of --threshold, '?' (mistake) twice that, '?\?' (blunder) three times, the\n"
    "smallest drop of the last three depths searched.  Exact values decide alone: a\n"
    "win thrown to a draw or a draw to a loss is '?', a win to a loss '?\?', a move\n"
    "that keeps the result is never marked, and '!' marks the only move that\n"
    "keeps it.  A position the solver proves within --proof positions is judged\n"
    "by its exact values (in games scored by seeds: Kalah, Oware, Awale); no\n"
    "mark of the first --opening plies rests on an estimate; a proved value and\n"
    "an estimate are compared by their seeds.\n"
    "Each move gets its value, from South's view, as {[%eval +2]} (+2: about two\n"
    "seeds for South; =+6: South wins by 6 with best play; #-4: North wins in 4\n"
    "plies); a judged move the sentence {Mistake: l was best.} and the engine's\n"
    "line as a variation; where the values are exact, the point where the game\n"
    "was decided is said; a summary for each side ends the game (inaccuracies,\n"
    "mistakes, blunders, average loss, accuracy).  The record's own annotations\n"
    "are kept; those of an earlier pmn annotate (its Annotator tag) are\n"
    "replaced.  Without a limit each position gets 1000000 positions (--nodes),\n"
    "so that the output is the same on every machine; --time and --game-time\n"
    "make it depend on the machine.",
    options, NULL, sizeof(struct annotate), CMD_OUTPUT, init, NULL, run,
};
