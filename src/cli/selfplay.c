/* selfplay.c - pmn selfplay: games the engine plays against itself, and the
 * expected-score model fitted from them. */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "records.h"
#include "progress.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OPT_GAMES = 256, OPT_RANDOM, OPT_SEED, OPT_FIT, OPT_MAX_PLIES, OPT_TEMPERATURE,
       OPT_STRENGTH };

static const struct cli_option options[] = {
    OPT_RULES_SET,
    { "games", OPT_GAMES, "N", "play N games (default 100)" },
    { "depth", 'd', "D", "each move's search looks D plies ahead (default 4)" },
    { "nodes", KEY_NODES, "N", "each move's search stops after about N positions" },
    { "random-plies", OPT_RANDOM, "N", "play the first N plies at random (default 4)" },
    { "seed", OPT_SEED, "N", "of the random plies (default 1): the same games\n"
      "for the same seed" },
    { "temperature", OPT_TEMPERATURE, "SEEDS", "play each move with odds exp(value / SEEDS)\n"
      "(a player who errs; default 0: the best move)" },
    { "max-plies", OPT_MAX_PLIES, "N", "leave a game unfinished after N plies\n"
      "(default 2000)" },
    { "fit", OPT_FIT, NULL, "print the expected-score model fitted from the\n"
      "games, not the games" },
    { "strength-of", OPT_STRENGTH, NULL, "print instead the temperature that makes the\n"
      "moves of the games of FILEs most likely: how\n"
      "much their players err, as the engine sees it" },
    { "hash", KEY_HASH, "MB", "transposition table size (default 64)" },
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

static int run(const struct command *cmd, int argc, char **argv)
{
    pmn_rules rules;
    pmn_selfplay_options o;
    unsigned long games = 100, v, hash = 64;
    const char *output = NULL;
    int fit = 0, quiet = 0, strength = 0, c, rc;
    struct cli_args a;
    pmn_rules_init(&rules, NULL, NULL);
    memset(&o, 0, sizeof o);
    o.random_plies = 4;
    o.seed = 1;
    cli_begin(&a, cmd, argc, argv);
    while ((c = cli_next(&a)) != CLI_END) {
        switch (c) {
        case 'r':
            if ((rc = apply_rules_option(cmd->name, &rules, a.arg)) != 0)
                return rc;
            break;
        case OPT_GAMES:
            if (parse_number(a.arg, 100000000, &games) < 0 || games == 0)
                return usage_error(cmd->name, "--games takes a positive number, not '%s'", a.arg);
            break;
        case OPT_RANDOM:
            if (parse_number(a.arg, 1000, &v) < 0)
                return usage_error(cmd->name, "--random-plies takes a number, not '%s'", a.arg);
            o.random_plies = (unsigned)v;
            break;
        case OPT_SEED:
            if (parse_number(a.arg, ULONG_MAX, &v) < 0)
                return usage_error(cmd->name, "--seed takes a number, not '%s'", a.arg);
            o.seed = v;
            break;
        case OPT_MAX_PLIES:
            if (parse_number(a.arg, 100000, &v) < 0 || v == 0)
                return usage_error(cmd->name, "--max-plies takes a positive number, not '%s'",
                                   a.arg);
            o.max_plies = (unsigned)v;
            break;
        case OPT_TEMPERATURE:
            if (!is_decimal(a.arg, &o.temperature) || o.temperature < 0 || o.temperature > 1000)
                return usage_error(cmd->name, "--temperature takes seeds from 0 to 1000, not '%s'",
                                   a.arg);
            break;
        case OPT_FIT: fit = 1; break;
        case OPT_STRENGTH: strength = 1; break;
        case 'q': quiet = 1; break;
        case 'o': output = a.arg; break;
        case 'd': case KEY_NODES: case KEY_HASH:
            if ((rc = search_option(cmd->name, c, a.arg, &o.limits, &hash)) != 0)
                return rc;
            break;
        default: return a.status;
        }
    }
    if (optind != argc && !strength)
        return usage_error(cmd->name, "takes no file but with --strength-of, got '%s'",
                           argv[optind]);
    if (!o.limits.depth && !o.limits.nodes)
        o.limits.depth = 4;
    if (strength) {
        struct output so;
        if ((rc = open_output(&so, cmd->name, output, argv + optind, argc - optind)) != 0)
            return rc;
        rc = strength_of(cmd, &o, hash, argv + optind, argc - optind, so.f);
        return close_output(&so, rc == EXIT_FATAL, rc);
    }
    pmn_searcher *s = pmn_searcher_new(&rules, hash);
    size_t cap = 0, n = 0;
    pmn_model_sample *samples = NULL;
    struct output out;
    struct diag_sink sink = { .file = "pmn selfplay", .show_notes = 1 };
    if (!s) {
        report(&sink, PMN_F002, 0, 0, "out of memory (try a smaller --hash)");
        return EXIT_FATAL;
    }
    if ((rc = open_output(&out, cmd->name, output, NULL, 0)) != 0) {
        pmn_searcher_free(s);
        return rc;
    }
    pmn_setup setup = { .status = PMN_SETUP_READY, .rules = rules };
    pmn_position_start(&rules, &setup.start);
    pmn_write_options wo;
    pmn_write_options_init(&wo);
    int failed = 0;
    unsigned limit = o.max_plies ? o.max_plies : 2000;
    double began = clock_seconds();
    for (unsigned long g = 0; g < games && !failed; g++) {
        if (!quiet && isatty(2)) {
            /* Time left at the rate of the games so far. */
            double spent = clock_seconds() - began;
            if (g > 0)
                fprintf(stderr, "\rgame %lu of %lu, about %.0f s left\033[K", g + 1, games,
                        spent / (double)g * (double)(games - g));
            else
                fprintf(stderr, "\rgame %lu of %lu...\033[K", g + 1, games);
        }
        pmn_model_sample *room = NULL;
        if (fit) {
            samples = grown(samples, &cap, n + limit, sizeof *samples, 4096);
            if (!samples) {
                failed = 1;
                break;
            }
            room = samples + n;
        }
        pmn_record rec;
        size_t got = 0;
        if (pmn_selfplay(s, &rules, &o, g, &rec, room, fit ? limit : 0, &got) < 0) {
            pmn_record_free(&rec);
            failed = 1;
            break;
        }
        n += got;
        if (!fit) {
            pmn_replay *rp = pmn_replay_new(&rec, &setup, NULL, NULL);
            if (g)
                fputc('\n', out.f);
            if (!rp || pmn_write_record(out.f, &rec, rp, &wo) < 0)
                failed = 1;
            pmn_replay_free(rp);
        }
        pmn_record_free(&rec);
    }
    if (!quiet && isatty(2))
        fprintf(stderr, "\r\033[K");
    if (fit && !failed) {
        double *x = malloc((n ? n : 1) * sizeof *x);
        if (x)
            print_fit(out.f, &rules, samples, n, x);
        else
            failed = 1;
        free(x);
    }
    free(samples);
    pmn_searcher_free(s);
    if (failed)
        report(&sink, PMN_F002, 0, 0, "out of memory");
    return close_output(&out, failed, failed ? EXIT_FATAL : EXIT_CLEAN);
}

const struct command selfplay_command = {
    "selfplay", "games the engine plays against itself; the expected-score model",
    "[OPTIONS]\n       pmn selfplay --strength-of [OPTIONS] [FILE...]",
    "Play games of a rule set from the opening, the engine against itself, and\n"
    "write them as PMN: the first --random-plies plies at random (the same for\n"
    "the same --seed), then each side the best move of a search of --depth\n"
    "plies, its value in a comment ([%eval +2], South's view).  With --fit,\n"
    "print instead the model pmn annotate judges moves with, fitted to these\n"
    "games: the expected score (win 1, draw 1/2, loss 0) of an engine value,\n"
    "E = 1 / (1 + exp(-k v / n^p)), v the estimate in seeds and n the seeds in\n"
    "play, by maximum likelihood over every position whose value was not\n"
    "exact; and how well it predicts, in tenths of E.  The line it prints is\n"
    "the one libpmn's table holds (src/lib/model.c).",
    options, NULL, run,
};
