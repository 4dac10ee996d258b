/* analyse.c - pmn analyse: the value of a position, its best move and line. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "records.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct request {
    const char *position, *file;
    unsigned long game, ply;
    int have_ply;
    pmn_rules rules;
    const struct rules_options *ro;
    pmn_search_limits limits;
    unsigned long hash;
    const char *tablebase;    /* --tablebase DIR, or NULL */
    pmn_notation notation;
    int json;
    int from;                 /* FORMAT_* (--from), FORMAT_AUTO: found */
};

/* ---- the position to analyse --------------------------------------------- */

struct target {
    pmn_rules rules;
    pmn_position pos;
    pmn_position *history;    /* since the last capture before it */
    size_t nhistory;
    char where[256];
};

/* The positions of the main line from the start up to ply k, and those since
 * the last capture before it. */
static int take_from_replay(const pmn_replay *replay, unsigned long k, struct target *t)
{
    const pmn_setup *s = pmn_replay_setup(replay);
    const pmn_played_line *main_line = pmn_replay_main(replay);
    size_t from = 0;
    t->rules = s->rules;
    t->pos = s->start;
    t->history = malloc((k + 1) * sizeof *t->history);
    if (!t->history)
        return -1;
    t->history[0] = s->start;
    for (unsigned long i = 0; i < k; i++) {
        const pmn_played *pl = &main_line->moves[i];
        const pmn_move_report *rep = &pl->report;
        if (rep->captured || rep->given || rep->stored)
            from = i + 1;
        t->history[i + 1] = pl->after;
    }
    t->pos = t->history[k];
    /* Those before it, since the last capture (the position it is, last). */
    memmove(t->history, t->history + from, (k - from) * sizeof *t->history);
    t->nhistory = k - from;
    return 0;
}

static int from_file(const struct request *rq, struct target *t)
{
    struct diag_sink sink = { .file = "-", .show_notes = 1 };
    FILE *f = open_input(rq->file, &sink);
    if (!f)
        return EXIT_FATAL;
    struct source src;
    source_open(&src, f, &sink, rq->ro, rq->from);
    pmn_record rec;
    unsigned long n = 0, want = rq->game ? rq->game : 1;
    int status = -1;
    while (src.src && status < 0 && source_next(&src, &rec) > 0) {
        if (++n == want) {
            pmn_replay *replay = replay_record(&rec, rq->ro, &sink);
            const pmn_check_result *res = replay ? pmn_replay_result(replay) : NULL;
            if (!replay) {
                status = EXIT_FATAL;
            } else if (res->setup != PMN_SETUP_READY) {
                char file[1024];
                fprintf(stderr, "pmn analyse: error: game %lu of %s cannot be replayed\n", n,
                        escaped(sink.file, file, sizeof file));
                status = EXIT_ERRORS;
            } else if (rq->ply > res->plies) {
                fprintf(stderr, "pmn analyse: error: --ply %lu: game %lu has %u pl%s that "
                        "could be replayed\n", rq->ply, n, res->plies,
                        res->plies == 1 ? "y" : "ies");
                status = EXIT_USAGE;
            } else if (take_from_replay(replay, rq->ply, t) < 0) {
                status = EXIT_FATAL;
            } else {
                snprintf(t->where, sizeof t->where, "%s, game %lu, after %lu pl%s", sink.file, n,
                         rq->ply, rq->ply == 1 ? "y" : "ies");
                status = 0;
            }
            pmn_replay_free(replay);
        }
        pmn_record_free(&rec);
    }
    source_close(&src);
    close_input(f);
    if (status < 0) {
        if (sink.count[PMN_FATAL])
            return EXIT_FATAL;
        return usage_error("analyse", "--game %lu: %s holds %lu game%s", want, sink.file, n,
                           n == 1 ? "" : "s");
    }
    return status;
}

/* ---- output ---------------------------------------------------------------- */

static void hole_text(const struct request *rq, const pmn_rules *r, int side, int hole,
                      char *buf, size_t size)
{
    pmn_hole_name(r, rq->notation, side, hole, buf, size);
}

/* The line as moves with numbers, the plies of a move joined by '-'. */
static void pv_text(const struct request *rq, const pmn_rules *r, const pmn_position *start,
                    const int *pv, unsigned n, FILE *f)
{
    pmn_position q = *start;
    unsigned turn = 0;
    int prev = -1;
    for (unsigned i = 0; i < n; i++) {
        char name[16];
        pmn_move_report rep;
        int side = q.to_move;
        hole_text(rq, r, side, pv[i], name, sizeof name);
        if (prev == side) {
            fprintf(f, "-%s", name);
        } else {
            if (prev >= 0)
                turn += 1;
            fprintf(f, "%s%u%s %s", i ? " " : "", pmn_move_number(start->to_move, turn),
                    side == PMN_SOUTH ? "." : "...", name);
        }
        prev = side;
        if (pmn_play(r, &q, pv[i], &rep) != 0)
            break;
        if (rep.passed)
            turn++;
    }
}

/* Where the databases only bound the position (own seeds), say so: the
 * value above is the search's from there. */
static void print_bounds(const struct target *t, const pmn_tablebase *tb)
{
    int lo, hi;
    if (!tb || !pmn_tablebase_probe_bounds(tb, &t->pos, &lo, &hi) || lo == hi)
        return;
    printf("Databases: between %+d and %+d of the seeds in play (where a repetition ends "
           "the game decides), searched from there\n", lo, hi);
}

static void print_text(const struct request *rq, const struct target *t, const pmn_analysis *a)
{
    char buf[512];
    const pmn_rules *r = &t->rules;
    int side = t->pos.to_move;
    pmn_position_format(r, &t->pos, buf, sizeof buf);
    printf("Position: %s\n", buf);
    if (t->where[0])
        printf("From: %s\n", t->where);
    pmn_rules_format(r, buf, sizeof buf);
    printf("Rules: %s\n", buf);
    if (a->ending != PMN_END_NONE) {
        pmn_ending_explain(r, a->ending, &t->pos, buf, sizeof buf);
        printf("The game is over: %s.\n", buf);
    }
    pmn_value_describe(&a->value, side, buf, sizeof buf);
    printf("Value: %s%s\n", buf, a->value.exact ? " (exact)" : "");
    if (a->passes)
        printf("%s cannot move and passes.\n", pmn_side_name(side));
    if (a->best >= 0) {
        hole_text(rq, r, side, a->best, buf, sizeof buf);
        printf("Best: %s\n", buf);
        printf("Line: ");
        pv_text(rq, r, &t->pos, a->pv, a->npv, stdout);
        printf("\n");
    }
    for (int i = 0; i < a->nmoves; i++) {
        char v[256];
        hole_text(rq, r, side, a->moves[i].hole, buf, sizeof buf);
        pmn_value_describe(&a->moves[i].value, side, v, sizeof v);
        printf("  %-4s %s\n", buf, v);
    }
    printf("Depth %u, %llu nodes, %.2f s%s\n", a->depth, (unsigned long long)a->nodes,
           a->seconds, a->stopped ? " (stopped by a limit)" : "");
}

static void json_value(const pmn_value *v)
{
    static const char *const outcome[] = { "loss", "draw", "win" };
    printf("\"outcome\": ");
    if (v->exact)
        json_string(stdout, outcome[v->outcome + 1]);
    else
        printf("null");
    printf(", \"margin\": ");
    if (v->has_margin)
        printf("%d", v->margin);
    else
        printf("null");
    printf(", \"plies\": ");
    if (v->exact && v->outcome != 0)
        printf("%u", v->plies);
    else
        printf("null");
    printf(", \"exact\": %s", v->exact ? "true" : "false");
    if (v->solved && !v->exact && !v->tablebase)   /* the solver stopped: what it proved */
        printf(", \"lower\": %d, \"upper\": %d", v->lower, v->upper);
}

static void print_json(const struct request *rq, const struct target *t, const pmn_analysis *a)
{
    char buf[512];
    const pmn_rules *r = &t->rules;
    int side = t->pos.to_move;
    printf("{\"position\": ");
    pmn_position_format(r, &t->pos, buf, sizeof buf);
    json_string(stdout, buf);
    printf(", \"rules\": ");
    pmn_rules_format(r, buf, sizeof buf);
    json_string(stdout, buf);
    printf(", \"side\": \"%s\", ", side == PMN_SOUTH ? "south" : "north");
    json_value(&a->value);
    printf(", \"best\": ");
    if (a->best >= 0) {
        hole_text(rq, r, side, a->best, buf, sizeof buf);
        json_string(stdout, buf);
    } else {
        printf("null");
    }
    printf(", \"pv\": [");
    pmn_position q = t->pos;
    for (unsigned i = 0; i < a->npv; i++) {
        pmn_move_report rep;
        hole_text(rq, r, q.to_move, a->pv[i], buf, sizeof buf);
        printf("%s", i ? ", " : "");
        json_string(stdout, buf);
        pmn_play(r, &q, a->pv[i], &rep);
    }
    printf("]");
    if (rq->limits.all_moves) {
        printf(", \"moves\": [");
        for (int i = 0; i < a->nmoves; i++) {
            hole_text(rq, r, side, a->moves[i].hole, buf, sizeof buf);
            printf("%s{\"move\": ", i ? ", " : "");
            json_string(stdout, buf);
            printf(", ");
            json_value(&a->moves[i].value);
            printf("}");
        }
        printf("]");
    }
    printf(", \"depth\": %u, \"nodes\": %llu, \"seconds\": %.3f, \"stopped\": %s}\n", a->depth,
           (unsigned long long)a->nodes, a->seconds, a->stopped ? "true" : "false");
}

/* Iterations, on standard error when it is a terminal; a solve's, about
 * once a second, the bounds it has proved so far. */
static void progress(void *ctx, const pmn_analysis *a)
{
    const struct target *t = ctx;
    char buf[256];
    if (a->value.solved && !a->value.exact) {
        int side = t->pos.to_move, sign = side == PMN_SOUTH ? 1 : -1;
        int lo = sign > 0 ? a->value.lower : -a->value.upper;
        int hi = sign > 0 ? a->value.upper : -a->value.lower;
        if (lo > -100000 && hi < 100000)   /* (the solver's no bound) */
            snprintf(buf, sizeof buf, "between %+d and %+d seeds for South", lo, hi);
        else
            snprintf(buf, sizeof buf, "no bound proved");
        fprintf(stderr, "\rsolving: %s so far, %llu nodes, %.0f s\033[K", buf,
                (unsigned long long)a->nodes, a->seconds);
        return;
    }
    pmn_value_describe(&a->value, t->pos.to_move, buf, sizeof buf);
    fprintf(stderr, "\rdepth %u: %s, %llu nodes, %.1f s\033[K", a->depth, buf,
            (unsigned long long)a->nodes, a->seconds);
}

/* --solve with no databases: the small layers libpmn makes for it in
 * memory (pmn_tablebase_make_for: Oware's own seeds), or NULL. */
static pmn_tablebase *small_layers(const struct target *t, pmn_searcher *s, unsigned threads)
{
    pmn_tablebase *tb = pmn_tablebase_make_for(&t->rules, &t->pos, threads);
    if (tb && pmn_searcher_use_tablebase(s, tb) != 0) {
        pmn_tablebase_close(tb);
        tb = NULL;
    }
    return tb;
}

/* ---- the command ------------------------------------------------------------ */

/* --rules: the rule set of --position, and over the record's. */
static int rules_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    struct common *c = dest;
    int rc = rules_set_option(cmd, o, arg, &c->rules);
    return rc ? rc : rules_over_option(cmd, o, arg, &c->ro);
}

#define NO_PLY ULONG_MAX
static const char *const formats[] = { "text", "json", NULL };
static const struct cli_bounds game_bounds = { 1, CLI_NO_MAX, "a game number", 0 },
    ply_bounds = { 0, 1000000, "a number of plies", 0 };

static const struct cli_option options[] = {
    { "position", 'P' + 256, "STRING", "analyse this position (default: the opening, or\n"
      "the record's)", STRING_AT(struct request, position), NULL, 0 },
    { "game", 'g', "N", "the N-th game of FILE (from 1)", ULONG_AT(struct request, game),
      &game_bounds, 0 },
    { "ply", 'k', "K", "the position after K plies of its main line\n(default 0: its start)",
      ULONG_AT(struct request, ply), &ply_bounds, 0 },
    { "rules", 'r', "SPEC", "rule set and options, e.g. hawalis,endless=lose,\n"
      "or a rule file (over the record's, with a FILE)", rules_option, 0, 1, NULL, 0 },
    OPT_FROM,
    OPT_SEARCH_LIMITS,
    OPT_TABLEBASE,
    { "all-moves", 'a', NULL, "the value of every legal move, not only the best",
      COMMON_AT(opt_flag, int, limits.all_moves), NULL, 0 },
    OPT_NOTATION,
    { "format", 256, "FORMAT", "text (the default) or json", CHOICE_AT(struct request, json),
      formats, 0 },
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct request *rq = ctx;
    (void)c;
    rq->ply = NO_PLY;
}

static int ready(struct common *c, void *ctx)
{
    struct request *rq = ctx;
    const char *cmd = c->cmd->name;
    rq->have_ply = rq->ply != NO_PLY;
    if (!rq->have_ply)
        rq->ply = 0;
    if (c->nfiles > 1)
        return usage_error(cmd, "expected at most one FILE, got %d", c->nfiles);
    rq->file = c->nfiles ? c->files[0] : NULL;
    if (rq->file && rq->position)
        return usage_error(cmd, "--position and a FILE: give one of them");
    if (!rq->file && (rq->game || rq->have_ply))
        return usage_error(cmd, "--game and --ply need a FILE");
    rq->rules = c->rules;
    rq->ro = &c->ro;
    rq->from = c->from;
    rq->limits = c->limits;
    rq->hash = c->hash_mb;
    rq->tablebase = c->tablebase;
    rq->notation = c->wo.notation;
    if (!rq->limits.depth && !rq->limits.nodes && rq->limits.seconds <= 0 && !rq->limits.solve)
        rq->limits.depth = 12;
    return 0;
}

static int run(struct common *c, void *ctx)
{
    struct request *rq = ctx;
    struct target t;
    int rc;
    memset(&t, 0, sizeof t);
    if (rq->file) {
        if ((rc = from_file(rq, &t)) != 0) {
            free(t.history);
            return rc;
        }
    } else {
        t.rules = rq->rules;
        if ((rc = position_option(c->cmd->name, "--position", &rq->rules, rq->position,
                                  &t.pos)) != 0)
            return rc;
    }
    pmn_searcher *s = pmn_searcher_new(&t.rules, rq->hash);
    pmn_tablebase *tb = NULL;
    pmn_analysis a;
    if (s && (rc = tablebase_option(c->cmd->name, rq->tablebase, &t.rules, s, &tb)) != 0) {
        pmn_searcher_free(s);
        free(t.history);
        return rc;
    }
    if (s && !tb && rq->limits.solve)
        tb = small_layers(&t, s, rq->limits.threads);
    if (!s || pmn_analyse(s, &t.pos, t.history, t.nhistory, &rq->limits,
                          isatty(2) ? progress : NULL, &t, &a) < 0) {
        struct diag_sink sink = { .file = "pmn analyse", .show_notes = 1 };
        report(&sink, PMN_F002, 0, 0, "out of memory (try a smaller --hash)");
        pmn_searcher_free(s);
        pmn_tablebase_close(tb);
        free(t.history);
        return EXIT_FATAL;
    }
    if (isatty(2))
        fprintf(stderr, "\r\033[K");
    if (tb && pmn_tablebase_damaged(tb)) {
        /* The search stopped where it found the databases damaged: no
         * value to give, the files to mend (F005, below). */
        pmn_searcher_free(s);
        free(t.history);
        rc = tablebase_close_checked(tb);
        return rc ? rc : EXIT_FATAL;
    }
    if (rq->json)
        print_json(rq, &t, &a);
    else {
        print_text(rq, &t, &a);
        print_bounds(&t, tb);
    }
    pmn_searcher_free(s);
    free(t.history);
    rc = tablebase_close_checked(tb);
    return rc ? rc : EXIT_CLEAN;   /* finish_stdout says whether it was written */
}

const struct command analyse_command = {
    "analyse", "the value of a position: best move, line, exact or heuristic",
    "[OPTIONS] [--position STRING | FILE]",
    "Search a position and say what it is worth for the side to move: a win,\n"
    "draw or loss, by how many seeds where seeds score, in how many plies when the\n"
    "search proved it to the end (exact); otherwise a heuristic, marked as such.\n"
    "The position is --position STRING, the one after --ply K of game --game N of\n"
    "FILE (its earlier positions count for repetitions), or the opening of --rules.\n"
    "Without a limit, the search looks 12 plies ahead.",
    options, NULL, sizeof(struct request), 0, init, ready, run,
};
