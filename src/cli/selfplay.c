/* selfplay.c - pmn selfplay: games the engine plays against itself, and the
 * expected-score model fitted from them. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "records.h"
#include "progress.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct selfplay {
    pmn_selfplay_options o;
    unsigned long games;      /* --games */
    int fit, strength;
};

static const struct cli_bounds games_bounds = { 1, 100000000, "a number of games", 0 },
    random_bounds = { 0, 1000, "a number of plies", 0 },
    seed_bounds = { 0, CLI_NO_MAX, "a number", 0 },
    max_plies_bounds = { 1, 100000, "a number of plies", 0 },
    temperature_bounds = { 0, 1000, "seeds", 0 };

static const struct cli_option options[] = {
    OPT_RULES_SET,
    { "games", 256, "N", "play N games (default 100)", ULONG_AT(struct selfplay, games),
      &games_bounds, 0 },
    OPT_DEPTH,
    OPT_NODES,
    { "random-plies", 257, "N", "play the first N plies at random (default 4)",
      UINT_AT(struct selfplay, o.random_plies), &random_bounds, 0 },
    { "seed", 258, "N", "of the random plies (default 1): the same games\n"
      "for the same seed", U64_AT(struct selfplay, o.seed), &seed_bounds, 0 },
    { "temperature", 259, "SEEDS", "play each move with odds exp(value / SEEDS)\n"
      "(a player who errs; default 0: the best move)",
      DOUBLE_AT(struct selfplay, o.temperature), &temperature_bounds, 0 },
    { "max-plies", 260, "N", "leave a game unfinished after N plies\n"
      "(default 2000)", UINT_AT(struct selfplay, o.max_plies), &max_plies_bounds, 0 },
    { "fit", 261, NULL, "print the expected-score model fitted from the\n"
      "games, not the games", FLAG_AT(struct selfplay, fit), NULL, 0 },
    { "strength-of", 262, NULL, "print instead the temperature that makes the\n"
      "moves of the games of FILEs most likely: how\n"
      "much their players err, as the engine sees it",
      FLAG_AT(struct selfplay, strength), NULL, 0 },
    OPT_HASH,
    OPT_QUIET_PROGRESS,
    OPT_OUTPUT,
    OPT_END,
};

/* The fit, and how well it predicts: the samples in tenths of the expected
 * score, each with the mean score they made. */
static void print_fit(FILE *f, const pmn_rules *r, const pmn_model_sample *s, size_t n,
                      double *x)
{
    pmn_model m;
    memset(&m, 0, sizeof m);
    m.game = r->name;
    if (pmn_model_fit(s, n, x, &m) < 0) {
        fprintf(f, "no position to fit: every game was unfinished or exact\n");
        return;
    }
    fprintf(f, "model of %s: E = 1 / (1 + exp(-k v / n^p)), v the estimate in seeds, "
            "n the seeds in play\n", r->name);
    fprintf(f, "k %.4f, p %.2f, %lu positions, log-loss %.4f (the mean score alone: "
            "%.4f)\n", m.k, m.p, m.samples, m.log_loss, m.base_loss);
    fprintf(f, "table line: { \"%s\", %.4f, %.2f, %lu, %.4f, %.4f },\n", r->name, m.k, m.p,
            m.samples, m.log_loss, m.base_loss);
    fprintf(f, "\n%-10s %10s %10s\n", "expected", "positions", "scored");
    unsigned long count[10] = { 0 };
    double scored[10] = { 0 };
    if (getenv("PMN_DUMP"))
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "%g %u %g\n", s[i].value, s[i].in_play, s[i].score);
    for (size_t i = 0; i < n; i++) {
        double e = pmn_model_expected(&m, s[i].value, s[i].in_play);
        int b = e >= 1 ? 9 : (int)(e * 10);
        count[b]++;
        scored[b] += s[i].score;
    }
    for (int b = 0; b < 10; b++)
        if (count[b])
            fprintf(f, "%3d-%3d%%   %10lu %9.1f%%\n", b * 10, b * 10 + 10, count[b],
                    100 * scored[b] / (double)count[b]);
}

/* ---- --strength-of: the temperature of real games ---------------------- */

struct strength {
    const pmn_search_limits *limits;
    unsigned long hash;
    pmn_choice *choices;
    size_t n, cap;
    int failed;
};

static void strength_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct strength *st = ctx;
    struct source src;
    pmn_record rec;
    if (source_open(&src, f, sink, NULL, FORMAT_AUTO) != 0) {
        st->failed = 1;
        return;
    }
    while (!st->failed && source_next(&src, &rec) > 0) {
        pmn_replay *rp = replay_record(&rec, NULL, sink);
        release_diags(sink);
        const pmn_setup *setup = rp ? pmn_replay_setup(rp) : NULL;
        pmn_searcher *s = setup && setup->status == PMN_SETUP_READY
                        ? pmn_searcher_new(&setup->rules, st->hash) : NULL;
        const pmn_played_line *line = rp ? pmn_replay_main(rp) : NULL;
        size_t since = 0;
        pmn_position *history = line ? malloc((line->nmoves + 1) * sizeof *history) : NULL;
        for (size_t i = 0; s && history && i < line->nmoves && line->moves[i].replayed; i++) {
            const pmn_position *before = i ? &line->moves[i - 1].after : &setup->start;
            pmn_search_limits l = *st->limits;
            pmn_analysis a;
            history[i] = *before;
            l.all_moves = 1;
            if (!(st->choices = grown(st->choices, &st->cap, st->n + 1, sizeof *st->choices,
                                      1024))
                || pmn_analyse(s, before, history + since, i - since, &l, NULL, NULL, &a) < 0) {
                st->failed = 1;
                break;
            }
            if (a.nmoves > 1 && pmn_choice_of(&a, rec.main.moves[i].hole, &st->choices[st->n]) >= 0)
                st->n++;
            const pmn_move_report *rep = &line->moves[i].report;
            if (rep->captured || rep->given || rep->stored)
                since = i + 1;
        }
        if (rp && (!s || !history) && setup->status == PMN_SETUP_READY)
            st->failed = 1;
        free(history);
        pmn_searcher_free(s);
        pmn_replay_free(rp);
        pmn_record_free(&rec);
    }
    source_close(&src);
}

static int strength_of(const struct command *cmd, const pmn_selfplay_options *o,
                       unsigned long hash, char **files, int nfiles, FILE *out)
{
    struct strength st = { .limits = &o->limits, .hash = hash };
    struct diag_sink sink = { .file = "-", .show_notes = 0 };
    (void)cmd;
    each_input(files, nfiles, &sink, strength_file, &st);
    if (st.failed) {
        report(&sink, PMN_F002, 0, 0, "out of memory");
        free(st.choices);
        return EXIT_FATAL;
    }
    if (st.n == 0) {
        fprintf(out, "no position with a choice to judge\n");
    } else {
        double ll, uniform, t = pmn_temperature_fit(st.choices, st.n, &ll, &uniform);
        fprintf(out, "temperature %.2f seeds (depth %u), %zu positions; log-likelihood "
                "%.1f (a move at random: %.1f)\n", t, o->limits.depth, st.n, ll, uniform);
    }
    free(st.choices);
    return exit_status(&sink);
}

static void init(struct common *c, void *ctx)
{
    struct selfplay *sp = ctx;
    (void)c;
    sp->games = 100;
    sp->o.random_plies = 4;
    sp->o.seed = 1;
}

static int ready(struct common *c, void *ctx)
{
    struct selfplay *sp = ctx;
    char buf[256];
    if (c->nfiles && !sp->strength)
        return usage_error(c->cmd->name, "takes no file but with --strength-of, got '%s'",
                           escaped(c->files[0], buf, sizeof buf));
    sp->o.limits = c->limits;
    sp->o.limits.threads = 0;   /* one: a depth or nodes, the same games everywhere */
    if (!sp->o.limits.depth && !sp->o.limits.nodes)
        sp->o.limits.depth = 4;
    return 0;
}

static int run(struct common *c, void *ctx)
{
    struct selfplay *sp = ctx;
    if (sp->strength) {
        int rc = strength_of(c->cmd, &sp->o, c->hash_mb, c->files, c->nfiles, c->out.f);
        c->failed = rc == EXIT_FATAL;
        return rc;
    }
    pmn_searcher *s = pmn_searcher_new(&c->rules, c->hash_mb);
    size_t cap = 0, n = 0;
    pmn_model_sample *samples = NULL;
    struct diag_sink sink = { .file = "pmn selfplay", .show_notes = 1 };
    if (!s) {
        report(&sink, PMN_F002, 0, 0, "out of memory (try a smaller --hash)");
        return EXIT_FATAL;
    }
    pmn_setup setup = { .status = PMN_SETUP_READY, .rules = c->rules };
    pmn_position_start(&c->rules, &setup.start);
    pmn_write_options wo;
    pmn_write_options_init(&wo);
    int failed = 0;
    unsigned limit = sp->o.max_plies ? sp->o.max_plies : 2000;
    double began = clock_seconds();
    for (unsigned long g = 0; g < sp->games && !failed; g++) {
        if (!c->quiet && isatty(2)) {
            /* Time left at the rate of the games so far. */
            double spent = clock_seconds() - began;
            if (g > 0)
                fprintf(stderr, "\rgame %lu of %lu, about %.0f s left\033[K", g + 1, sp->games,
                        spent / (double)g * (double)(sp->games - g));
            else
                fprintf(stderr, "\rgame %lu of %lu...\033[K", g + 1, sp->games);
        }
        pmn_model_sample *room = NULL;
        if (sp->fit) {
            samples = grown(samples, &cap, n + limit, sizeof *samples, 4096);
            if (!samples) {
                failed = 1;
                break;
            }
            room = samples + n;
        }
        pmn_record rec;
        size_t got = 0;
        if (pmn_selfplay(s, &c->rules, &sp->o, g, &rec, room, sp->fit ? limit : 0, &got) < 0) {
            pmn_record_free(&rec);
            failed = 1;
            break;
        }
        n += got;
        if (!sp->fit) {
            pmn_replay *rp = pmn_replay_new(&rec, &setup, NULL, NULL);
            if (g)
                fputc('\n', c->out.f);
            if (!rp || pmn_write_record(c->out.f, &rec, rp, &wo) < 0)
                failed = 1;
            pmn_replay_free(rp);
        }
        pmn_record_free(&rec);
    }
    if (!c->quiet && isatty(2))
        fprintf(stderr, "\r\033[K");
    if (sp->fit && !failed) {
        double *x = malloc((n ? n : 1) * sizeof *x);
        if (x)
            print_fit(c->out.f, &c->rules, samples, n, x);
        else
            failed = 1;
        free(x);
    }
    free(samples);
    pmn_searcher_free(s);
    if (failed)
        report(&sink, PMN_F002, 0, 0, "out of memory");
    c->failed = failed;
    return failed ? EXIT_FATAL : EXIT_CLEAN;
}

const struct command selfplay_command = {
    "selfplay", "games the engine plays against itself; the expected-score model",
    "[OPTIONS]\n       pmn selfplay --strength-of [OPTIONS] [FILE...]",
    "Play games of a rule set from the opening, the engine against itself, and\n"
    "write them as PMN: the first --random-plies plies at random (the same for\n"
    "the same --seed), then each side the best move of a search of --depth\n"
    "plies (4 unless --depth or --nodes says), its value in a comment\n"
    "([%eval +2], South's view).  With --fit,\n"
    "print instead the model pmn annotate judges moves with, fitted to these\n"
    "games: the expected score (win 1, draw 1/2, loss 0) of an engine value,\n"
    "E = 1 / (1 + exp(-k v / n^p)), v the estimate in seeds and n the seeds in\n"
    "play, by maximum likelihood over every position whose value was not\n"
    "exact; and how well it predicts, in tenths of E.  The line it prints is\n"
    "the one libpmn's table holds (src/lib/analysis/model.c).",
    options, NULL, sizeof(struct selfplay), CMD_OUTPUT, init, ready, run,
};
