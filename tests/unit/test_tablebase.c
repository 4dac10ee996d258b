/* test_tablebase.c - endgame databases: every position of the small layers
 * against the plain minimax (naive.h), random positions of larger layers
 * against the margin solver, the solver answering from them, the index,
 * and files that are refused (other rules, truncated, corrupt). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "naive.h"
#include "judged.h"
#include "light.h"
#include "lib/analysis/solve.h"
#include "lib/analysis/tablebase.h"
#include "lib/analysis/tb.h"
#include "lib/analysis/tb_history.h"
#include "lib/analysis/tb_own.h"

static struct naive_path path;   /* large: not on the stack */

static uint32_t lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* A fresh directory for a test's files, removed by rm_dir. */
static char *make_dir(void)
{
    char *d = malloc(64);
    snprintf(d, 64, "/tmp/pmn-tb-XXXXXX");
    assert_non_null(mkdtemp(d));
    return d;
}

static void rm_dir(char *d)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    assert_int_equal(system(cmd), 0);
    free(d);
}

/* Positions of n seeds over both sides' holes, South to move, one after
 * another: *h holds the counts; returns 0 after the last. */
static int next_counts(unsigned *h, unsigned k, unsigned n, int first)
{
    if (first) {
        for (unsigned i = 0; i < k; i++)
            h[i] = 0;
        h[k - 1] = n;
        return 1;
    }
    unsigned j = k - 1;
    if (h[j] > 0) {   /* the lexicographic successor, first hole most significant */
        h[j - 1]++;
        h[j]--;
        return 1;
    }
    while (j > 0 && h[j] == 0)
        j--;
    if (j == 0)
        return 0;
    h[j - 1]++;
    h[k - 1] = h[j] - 1;
    if (j != k - 1)
        h[j] = 0;
    return 1;
}

static void position_of(const pmn_rules *r, const unsigned *h, int side, pmn_position *p)
{
    memset(p, 0, sizeof *p);
    p->to_move = (uint8_t)side;
    for (unsigned i = 0; i < r->pits; i++) {
        p->pit[side][i] = (uint16_t)h[i];
        p->pit[!side][i] = (uint16_t)h[r->pits + i];
    }
}

/* The minimax margin of p for its side to move, as a new game. */
static long minimax(const pmn_rules *r, const pmn_position *p)
{
    pmn_outcome o;
    pmn_ending e = pmn_position_ending(r, p, &o);
    if (e != PMN_END_NONE) {
        struct naive_value v = naive_end(r, e, o, p, !p->to_move);
        return -v.margin;
    }
    return naive_new_game(r, &path, p).margin;
}

/* Databases of spec to `seeds` built in a new folder *dir, and opened. */
static pmn_tablebase *built(const char *spec, unsigned seeds, pmn_rules *r, char **dir)
{
    pmn_error err;
    *dir = make_dir();
    assert_int_equal(pmn_rules_init(r, spec, NULL), 0);
    assert_int_equal(pmn_tablebase_build(r, seeds, *dir, 2, NULL, NULL, &err), 0);
    pmn_tablebase *tb = pmn_tablebase_open(r, *dir, &err);
    assert_non_null(tb);
    return tb;
}

/* Every position of the layers up to `full` seeds, both sides to move, as
 * the minimax values it; the layers' counts add up. */
static void layers_agree(const char *spec, unsigned build, unsigned full)
{
    pmn_rules r;
    char *dir;
    pmn_tablebase *tb = built(spec, build, &r, &dir);
    assert_int_equal(pmn_tablebase_seeds(tb), build);
    unsigned k = 2 * r.pits, h[64];
    for (unsigned n = 0; n <= full; n++) {
        uint64_t count = 0;
        for (int more = next_counts(h, k, n, 1); more; more = next_counts(h, k, n, 0)) {
            for (int side = 0; side < 2; side++) {
                pmn_position p;
                int v;
                position_of(&r, h, side, &p);
                assert_int_equal(pmn_tablebase_probe(tb, &p, &v), 1);
                long want = minimax(&r, &p);
                if (v != want) {
                    char text[200];
                    pmn_position_format(&r, &p, text, sizeof text);
                    fail_msg("%s, %s: the database says %+d, the minimax %+ld", spec, text, v,
                             want);
                }
            }
            count++;
        }
        pmn_tablebase_layer s;
        assert_int_equal(pmn_tablebase_layer_stats(tb, n, &s), 0);
        assert_int_equal(s.positions, count);
        assert_int_equal(pmn_tablebase_positions(&r, n), count);
        uint64_t sum = 0;
        for (int v = -(int)n; v <= (int)n; v++)
            sum += s.by_value[v + PMN_TABLEBASE_MAX_SEEDS];
        assert_int_equal(sum, count);
    }
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

static void small_layers_agree_with_minimax(void **state)
{
    (void)state;
    layers_agree("kalah(3,2)", 6, 6);
    layers_agree("kalah(3,2),capture=opposite-always", 6, 6);
    layers_agree("kalah(4,3)", 5, 4);
    layers_agree("awale,holes=3,majority=no", 5, 3);
    layers_agree("oware,holes=3,majority=no,repetition=uncounted", 4, 3);
    layers_agree("awale,holes=4,majority=no", 3, 2);
    layers_agree("awale,holes=3,majority=no,grand-slam=last-resort", 5, 3);
}

/* Kalah's builder plays the moves on the counts (kalah_sow()), not by
 * pmn_play: on every position of the layers, the two give the same value
 * and the same moves within the layer -- boards where one hole's seeds
 * lap the board (two holes a side: a lap of 5), both captures, and six
 * holes a side.  Rules that do not sow as Kalah are not played so. */
static void kalah_sown_on_counts(void **state)
{
    (void)state;
    static const struct { const char *spec; unsigned seeds; } boards[] = {
        { "kalah(2,3)", 14 },
        { "kalah(2,3),capture=opposite-always", 14 },
        { "kalah(3,3)", 10 },
        { "kalah(3,3),capture=opposite-always", 10 },
        { "kalah(6,4)", 6 },
        { "kalah(6,4),capture=opposite-always", 6 },
        { "kalah(5,4),capture=opposite-always", 7 },
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        pmn_rules r;
        char *dir;
        pmn_tablebase *tb = built(boards[i].spec, light(1) ? boards[i].seeds
                                                           : boards[i].seeds / 2, &r, &dir);
        long compared = tablebase_kalah_agrees(tb);
        if (compared <= 0)
            fail_msg("%s: %ld", boards[i].spec, compared);
        pmn_tablebase_close(tb);
        rm_dir(dir);
    }
    pmn_rules r;
    char *dir;
    pmn_tablebase *tb = built("awale,holes=3,majority=no", 3, &r, &dir);
    assert_int_equal(tablebase_kalah_agrees(tb), 0);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

/* Irving's bound, which the margin solver takes under empty capture:
 * the side to move, not at the end of the game, banks a seed at once, so
 * that the seeds in play are worth at least -(n - 2) to him -- every
 * position of every layer, as the retrograde analysis values it.  Under
 * standard capture it does not hold (the solver does not take it there),
 * and the databases show a position that breaks it. */
static void min_value(const char *spec, unsigned seeds, int *holds)
{
    pmn_rules r;
    char *dir;
    pmn_tablebase *tb = built(spec, seeds, &r, &dir);
    unsigned k = 2 * r.pits, h[64];
    *holds = 1;
    for (unsigned n = 2; n <= seeds; n++)
        for (int more = next_counts(h, k, n, 1); more; more = next_counts(h, k, n, 0)) {
            pmn_position p;
            pmn_outcome o;
            int v;
            position_of(&r, h, 0, &p);
            if (pmn_position_ending(&r, &p, &o) != PMN_END_NONE)
                continue;
            assert_int_equal(pmn_tablebase_probe(tb, &p, &v), 1);
            if (v < -(int)(n - 2))
                *holds = 0;
        }
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

static void empty_capture_banks_a_seed(void **state)
{
    (void)state;
    int holds;
    min_value("kalah(4,3),capture=opposite-always", 10, &holds);
    assert_true(holds);
    min_value("kalah(3,3),capture=opposite-always,extra=none", 10, &holds);
    assert_true(holds);
    min_value("kalah(4,3)", 10, &holds);
    assert_false(holds);
}

/* p after the history hist[0..nh) (the positions since the last capture;
 * a repetition of one of them ends the game), searched with the databases
 * tb -- by the margin solver, or with `depth` by the depth search, which
 * reads them below the root -- against the minimax given the same
 * history: the value, and with all_moves each move's value (what annotate
 * judges by), where the search says it is exact (the solver always must).
 * *exact_moves and *exact_without count the moves valued exactly with the
 * databases and, for the depth search, without them. */
static void held_to_minimax(const char *spec, const pmn_rules *r, pmn_searcher *s,
                            const pmn_tablebase *tb, const pmn_position *hist, unsigned nh,
                            const pmn_position *p, unsigned depth, int all_moves,
                            int *exact_moves, int *exact_without)
{
    path.n = 0;
    path.since = 0;
    for (unsigned i = 0; i < nh; i++)
        path.pos[path.n++] = hist[i];
    path.pos[path.n++] = *p;
    unsigned long nodes = 0;
    int best;
    struct naive_value want = naive_minimax(r, &path, &best, &nodes);
    pmn_search_limits l = { 0 };
    pmn_analysis a;
    char text[200];
    l.solve = !depth;
    l.depth = depth;
    l.all_moves = all_moves;
    if (depth) {
        /* The same search without the databases, for the count. */
        pmn_searcher_clear(s);
        assert_int_equal(pmn_searcher_use_tablebase(s, NULL), 0);
        assert_int_equal(pmn_analyse(s, p, hist, nh, &l, NULL, NULL, &a), 0);
        for (int i = 0; i < a.nmoves; i++)
            *exact_without += a.moves[i].value.exact;
        assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
    }
    pmn_searcher_clear(s);
    assert_int_equal(pmn_analyse(s, p, hist, nh, &l, NULL, NULL, &a), 0);
    pmn_position_format(r, p, text, sizeof text);
    if ((!depth || a.value.exact) && (!a.value.exact || a.value.margin != want.margin))
        fail_msg("%s, %s after %u plies: the minimax says %+ld, the %s %+d%s", spec, text, nh,
                 want.margin, depth ? "depth search" : "solver", a.value.margin,
                 a.value.exact ? "" : " (not exact)");
    for (int i = 0; i < a.nmoves; i++) {
        int hole = a.moves[i].hole;
        long mv = naive_move_value_after(r, &path, hist, (int)nh, p, hole).margin;
        *exact_moves += a.moves[i].value.exact;
        if ((!depth || a.moves[i].value.exact)
            && (!a.moves[i].value.exact || a.moves[i].value.margin != mv))
            fail_msg("%s, %s after %u plies, move %c: the minimax says %+ld, the %s %+d", spec,
                     text, nh, pmn_hole_letter(p->to_move, hole), mv,
                     depth ? "depth search" : "solver", a.moves[i].value.margin);
    }
    assert_true(!all_moves || a.nmoves > 0);
}

/* Random positions with a history (of none, sometimes, for positions of
 * `extra` seeds more than the databases hold) held to the minimax as
 * held_to_minimax says: the solver with the databases gives exact values
 * at fresh positions, solves a layer again for a history, or searches
 * with bounds between 0 and the value; the depth search also values more
 * moves exactly than without the databases. */
static void history_with_databases(const char *spec, unsigned seeds, unsigned extra,
                                   int trials, uint32_t state, unsigned depth)
{
    pmn_rules r;
    char *dir;
    pmn_tablebase *tb = built(spec, seeds, &r, &dir);
    pmn_searcher *s = pmn_searcher_new(&r, 4);
    assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
    trials = light(trials);
    int compared = 0, exact_moves = 0, exact_without = 0;
    for (int t = 0; t < trials; t++) {
        pmn_position hist[8], p;
        pmn_outcome o;
        memset(&p, 0, sizeof p);
        p.to_move = (uint8_t)(lcg(&state) % 2);
        for (unsigned i = 0; i < seeds + extra; i++)
            p.pit[lcg(&state) % 2][lcg(&state) % r.pits]++;
        /* Up to four plies without a capture: the history. */
        unsigned nh = 0, want_h = 1 + lcg(&state) % 4;
        while (nh < want_h && pmn_position_ending(&r, &p, &o) == PMN_END_NONE) {
            int holes[PMN_MAX_SIDE_PITS];
            int n = pmn_legal_moves(&r, &p, holes);
            if (n == 0)
                break;
            pmn_position q = p;
            pmn_move_report rep;
            assert_int_equal(pmn_play(&r, &q, holes[lcg(&state) % n], &rep), 0);
            if (rep.ending != PMN_END_NONE || rep.captured || rep.stored)
                break;
            hist[nh++] = p;
            p = q;
        }
        if ((nh == 0 && !extra) || pmn_position_ending(&r, &p, &o) != PMN_END_NONE)
            continue;
        held_to_minimax(spec, &r, s, tb, hist, nh, &p, depth, depth || t % 2, &exact_moves,
                        &exact_without);
        compared++;
    }
    assert_true(compared > trials / 2 || !whole_sample());
    if (depth && exact_moves <= exact_without && whole_sample())
        fail_msg("%s: %d moves valued exactly with the databases, %d without", spec,
                 exact_moves, exact_without);
    pmn_searcher_free(s);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

static void history_and_databases(void **state)
{
    (void)state;
    history_with_databases("awale,holes=3,majority=no", 3, 0, 150, 31, 0);
    history_with_databases("oware,holes=3,majority=no,repetition=uncounted", 3, 0, 150, 32,
                           0);
    /* Four seeds: where a repetition of the history first changes values
     * (the minimax takes seconds there). */
    history_with_databases("awale,holes=3,majority=no", 4, 0, 12, 33, 0);
}

/* A random position of `seeds` seeds in play (of `total` in the game, a
 * side near half of them), after up to three random plies without a
 * capture, solved with the databases s has, against the minimax given the
 * same history: the value, exact, and each move's value the solver says
 * is exact (counted into *exact).  Returns 1, or 0 where the game is over
 * there (nothing compared). */
static int solver_agrees_after(const char *spec, const pmn_rules *r, pmn_searcher *s,
                               uint32_t *st, unsigned seeds, unsigned total, int all_moves,
                               int *exact)
{
    pmn_position hist[8], p;
    pmn_outcome o;
    memset(&p, 0, sizeof p);
    p.to_move = (uint8_t)(lcg(st) % 2);
    for (unsigned i = 0; i < seeds; i++)
        p.pit[lcg(st) % 2][lcg(st) % r->pits]++;
    p.captured[0] = 9 + lcg(st) % 4;
    p.captured[1] = total - seeds - p.captured[0];
    unsigned nh = 0, want_h = lcg(st) % 4;
    while (nh < want_h && pmn_position_ending(r, &p, &o) == PMN_END_NONE) {
        int holes[PMN_MAX_SIDE_PITS];
        int n = pmn_legal_moves(r, &p, holes);
        pmn_position q = p;
        pmn_move_report rep;
        if (n == 0)
            break;
        assert_int_equal(pmn_play(r, &q, holes[lcg(st) % n], &rep), 0);
        if (rep.ending != PMN_END_NONE || rep.captured)
            break;
        hist[nh++] = p;
        p = q;
    }
    if (pmn_position_ending(r, &p, &o) != PMN_END_NONE)
        return 0;
    path.n = 0;
    path.since = 0;
    for (unsigned i = 0; i < nh; i++)
        path.pos[path.n++] = hist[i];
    path.pos[path.n++] = p;
    unsigned long nodes = 0;
    int best;
    struct naive_value want = naive_minimax(r, &path, &best, &nodes);
    pmn_search_limits l = { .solve = 1, .all_moves = all_moves };
    pmn_analysis a;
    char text[200];
    pmn_searcher_clear(s);
    assert_int_equal(pmn_analyse(s, &p, hist, nh, &l, NULL, NULL, &a), 0);
    pmn_position_format(r, &p, text, sizeof text);
    if (!a.value.exact || a.value.outcome != want.outcome
        || (a.value.has_margin && a.value.margin != want.margin))
        fail_msg("%s, %s after %u plies: the minimax says %d (%+ld), the solver %s%d "
                 "(%+d%s)", spec, text, nh, want.outcome, want.margin,
                 a.value.exact ? "" : "not exact ", a.value.outcome, a.value.margin,
                 a.value.has_margin ? "" : ", no margin");
    for (int i = 0; i < a.nmoves; i++) {
        struct naive_value mv = naive_move_value_after(r, &path, hist, (int)nh, &p,
                                                       a.moves[i].hole);
        *exact += a.moves[i].value.exact;
        if (a.moves[i].value.exact && (a.moves[i].value.outcome != mv.outcome
            || (a.moves[i].value.has_margin && a.moves[i].value.margin != mv.margin)))
            fail_msg("%s, %s after %u plies, move %c: the minimax says %d (%+ld), the "
                     "solver %d (%+d)", spec, text, nh,
                     pmn_hole_letter(p.to_move, a.moves[i].hole), mv.outcome,
                     mv.margin, a.moves[i].value.outcome, a.moves[i].value.margin);
    }
    return 1;
}

/* Under a majority (Awale's, Oware's: more than half the seeds win at
 * once) the databases are those of majority=no, which decide the same
 * winner: positions near a majority, with a history, are given the result
 * the minimax gives them under the rules with the majority -- exact, a
 * margin only for a draw (none) -- and each move's, where the solver says
 * it is exact; never a margin the databases cannot know. */
static void results_under_a_majority(void **state)
{
    (void)state;
    static const char *const specs[] = { "awale,holes=3", "awale,holes=3,majority-sweep=yes" };
    for (size_t sp = 0; sp < sizeof specs / sizeof specs[0]; sp++) {
        pmn_rules r;
        char *dir;
        pmn_tablebase *tb = built(specs[sp], 3, &r, &dir);
        assert_true(r.majority);
        pmn_searcher *s = pmn_searcher_new(&r, 4);
        assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
        uint32_t st = 41 + (uint32_t)sp;
        int trials = light(150), compared = 0, exact = 0;
        for (int t = 0; t < trials; t++)
            compared += solver_agrees_after(specs[sp], &r, s, &st, 3, 24, t % 2, &exact);
        assert_true((compared > trials / 2 && exact > 0) || !whole_sample());
        pmn_searcher_free(s);
        pmn_tablebase_close(tb);
        rm_dir(dir);
    }
}

/* Under a majority (databases of majority=no: results, not margins), the
 * depth search reads them below the root too: positions of more seeds in
 * play than they hold, near a majority, searched a few plies deep; a
 * value it gives as decided (a result proved, found, or the databases')
 * is the minimax's result, and some are the databases'. */
static void depth_search_reads_results(void **state)
{
    (void)state;
    pmn_rules r;
    char *dir;
    pmn_tablebase *tb = built("awale,holes=3", 3, &r, &dir);
    pmn_searcher *s = pmn_searcher_new(&r, 4);
    assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
    uint32_t st = 97;
    int trials = light(40), decided = 0, from_tb = 0;
    for (int t = 0; t < trials; t++) {
        pmn_position p;
        pmn_outcome o;
        memset(&p, 0, sizeof p);
        p.to_move = (uint8_t)(lcg(&st) % 2);
        for (unsigned i = 0; i < 4; i++)
            p.pit[lcg(&st) % 2][lcg(&st) % r.pits]++;
        p.captured[0] = 8 + lcg(&st) % 4;
        p.captured[1] = 24 - 4 - p.captured[0];
        if (pmn_position_ending(&r, &p, &o) != PMN_END_NONE)
            continue;
        pmn_search_limits l = { .depth = 3 };
        pmn_analysis a;
        pmn_searcher_clear(s);
        assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
        if (!(a.value.exact || a.value.plies || a.value.tablebase) || !a.value.outcome)
            continue;
        int want = naive_new_game(&r, &path, &p).outcome;
        if (a.value.outcome != want) {
            char text[200];
            pmn_position_format(&r, &p, text, sizeof text);
            fail_msg("awale,holes=3, %s: the minimax's result %d, the depth search %d%s", text,
                     want, a.value.outcome, a.value.tablebase ? " (endgame database)" : "");
        }
        decided++;
        from_tb += a.value.tablebase && !a.value.has_margin;
    }
    assert_true((decided > 0 && from_tb > 0) || !whole_sample());
    pmn_searcher_free(s);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

/* ---- own seeds: a reference apart from tablebase.c ---- */

/* Every position of k holes (both sides) and n seeds as a new game, South to
 * move, by rank: the lexicographic order of the counts, the first hole most
 * significant (ways: to lay s seeds in j holes). */
static uint64_t ref_ways(unsigned s, unsigned j)
{
    uint64_t w = 1;   /* C(s + j - 1, j - 1) */
    for (unsigned i = 1; i < j; i++)
        w = w * (s + i) / i;
    return j == 0 ? s == 0 : w;
}

static uint64_t ref_rank(const unsigned *h, unsigned k, unsigned n)
{
    uint64_t r = 0;
    for (unsigned i = 0; i + 1 < k; i++) {
        for (unsigned c = 0; c < h[i]; c++)
            r += ref_ways(n - c, k - 1 - i);
        n -= h[i];
    }
    return r;
}

struct ref_tables {
    const pmn_rules *r;
    unsigned k;
    int8_t *value[16];          /* [n][rank]: the value as a new game */
    pmn_position path[4096];    /* the path since the last capture */
    int depth;
    unsigned n;                 /* its seeds */
    uint8_t *on;                /* [rank * 2 + side to move]: on the path (South's
                                   holes first) */
    unsigned long nodes;
};

/* Where t->on marks q (of t->n seeds). */
static uint64_t ref_at(const struct ref_tables *t, const pmn_position *q)
{
    unsigned h[64];
    for (unsigned j = 0; j < t->r->pits; j++) {
        h[j] = q->pit[0][j];
        h[t->r->pits + j] = q->pit[1][j];
    }
    return 2 * ref_rank(h, t->k, t->n) + q->to_move;
}

/* The value of the last position of the path for its side to move: a
 * plain alpha-beta over the moves, a move to a position of the path ending
 * the game with the seeds on each side, a capture worth what it takes and
 * the new game below (t->value, valued before).  The moves that end the
 * game or leave the layer are taken first (the search is otherwise too
 * slow for the layer of 8 seeds). */
static int ref_search(struct ref_tables *t, int alpha, int beta)
{
    const pmn_position *p = &t->path[t->depth - 1];
    pmn_outcome o;
    pmn_ending e = pmn_position_ending(t->r, p, &o);
    unsigned long seeds[2];
    if (e != PMN_END_NONE)
        return o == PMN_DRAWN || !pmn_final_seeds(t->r, e, p, seeds)
             ? 0 : (int)((long)seeds[p->to_move] - (long)seeds[!p->to_move]);
    int holes[PMN_MAX_SIDE_PITS], best = -100, me = p->to_move, nin = 0;
    pmn_position in[PMN_MAX_SIDE_PITS];
    int nm = pmn_legal_moves(t->r, p, holes);
    for (int i = 0; i < nm; i++) {
        pmn_position q = *p;
        pmn_move_report rep;
        int v;
        t->nodes++;
        pmn_play(t->r, &q, holes[i], &rep);
        if (rep.ending != PMN_END_NONE) {
            v = rep.outcome == PMN_DRAWN || !pmn_final_seeds(t->r, rep.ending, &q, seeds)
              ? 0 : (int)((long)seeds[me] - (long)seeds[!me]);
        } else if (rep.captured || rep.given || rep.stored) {
            unsigned h[64], n = 0;
            for (unsigned j = 0; j < t->r->pits; j++) {
                h[j] = q.pit[q.to_move][j];
                h[t->r->pits + j] = q.pit[!q.to_move][j];
                n += h[j] + h[t->r->pits + j];
            }
            int below = t->value[n][ref_rank(h, t->k, n)];
            int gain = (int)q.captured[me] - (int)p->captured[me]
                     - ((int)q.captured[!me] - (int)p->captured[!me]);
            v = gain + (q.to_move == me ? below : -below);
        } else if (t->on[ref_at(t, &q)]) {
            v = 0;
            for (unsigned j = 0; j < t->r->pits; j++)
                v += (int)q.pit[me][j] - (int)q.pit[!me][j];
        } else {
            in[nin++] = q;
            continue;
        }
        if (v > best)
            best = v;
    }
    if (best > alpha)
        alpha = best;
    for (int i = 0; i < nin && alpha < beta; i++) {
        uint64_t at = ref_at(t, &in[i]);
        assert_true(t->depth < 4096);
        t->path[t->depth++] = in[i];
        t->on[at] = 1;
        int v = in[i].to_move == me ? ref_search(t, alpha, beta) : -ref_search(t, -beta, -alpha);
        t->on[at] = 0;
        t->depth--;
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
    }
    return best;
}

/* Every layer up to top, valued by ref_search() (the tables freed by the
 * caller). */
static void ref_build(struct ref_tables *t, const pmn_rules *r, unsigned top)
{
    t->r = r;
    t->k = 2 * r->pits;
    for (unsigned n = 0; n <= top; n++) {
        unsigned h[64];
        t->value[n] = malloc(ref_ways(n, t->k));
        t->on = calloc(2 * ref_ways(n, t->k), 1);
        t->n = n;
        assert_non_null(t->value[n]);
        assert_non_null(t->on);
        for (int more = next_counts(h, t->k, n, 1); more; more = next_counts(h, t->k, n, 0)) {
            position_of(r, h, 0, &t->path[0]);
            t->depth = 1;
            t->on[ref_at(t, &t->path[0])] = 1;
            t->value[n][ref_rank(h, t->k, n)] = (int8_t)ref_search(t, -100, 100);
            t->on[ref_at(t, &t->path[0])] = 0;
        }
        free(t->on);
    }
}

/* Own seeds (Oware's repetition): every position of three holes a side up
 * to 8 seeds, as a new game, has in the databases the value the reference
 * gives it (a plain search with the path, apart from tablebase.c), exact:
 * the layers below exact, the bounds meet for most, and the search with the
 * path finds the rest. */
static void own_seeds_exact(void **state)
{
    (void)state;
    pmn_rules r;
    char *dir;
    unsigned top = light(1) ? 8 : 6, h[64];
    pmn_tablebase *tb = built("oware,holes=3,majority=no", top, &r, &dir);
    struct ref_tables *t = calloc(1, sizeof *t);
    assert_non_null(t);
    ref_build(t, &r, top);
    uint64_t compared = 0, positions = 0;
    for (unsigned n = 0; n <= top; n++) {
        positions += pmn_tablebase_positions(&r, n);
        for (int more = next_counts(h, 2 * r.pits, n, 1); more;
             more = next_counts(h, 2 * r.pits, n, 0)) {
            pmn_position p;
            int v = 999;
            position_of(&r, h, (int)(compared % 2), &p);
            int want = t->value[n][ref_rank(h, 2 * r.pits, n)];
            if (!pmn_tablebase_probe(tb, &p, &v) || v != want) {
                char text[200];
                pmn_position_format(&r, &p, text, sizeof text);
                fail_msg("%s: the databases say %+d, the reference %+d", text, v, want);
            }
            compared++;
        }
        pmn_tablebase_layer st;
        assert_int_equal(pmn_tablebase_layer_stats(tb, n, &st), 0);
        assert_int_equal(st.bounded, 0);
        free(t->value[n]);
    }
    assert_int_equal(compared, positions);
    free(t);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

/* Layers made in memory (pmn_tablebase_make, for a solve without
 * databases) hold what the files of a build hold: every position's bounds
 * the same, for Oware's own seeds and for Awale's one value a position. */
static void made_in_memory(void **state)
{
    (void)state;
    static const char *const specs[] = { "oware,holes=3", "awale,holes=4" };
    for (size_t sp = 0; sp < sizeof specs / sizeof specs[0]; sp++) {
        pmn_rules r;
        pmn_error err;
        char *dir;
        unsigned top = 7, h[64];
        pmn_tablebase *tb = built(specs[sp], top, &r, &dir);
        pmn_tablebase *mem = pmn_tablebase_make(&r, top, 2, &err);
        assert_non_null(mem);
        assert_int_equal(pmn_tablebase_seeds(mem), top);
        uint64_t compared = 0;
        for (unsigned n = 0; n <= top; n++)
            for (int more = next_counts(h, 2 * r.pits, n, 1); more;
                 more = next_counts(h, 2 * r.pits, n, 0))
                for (int side = 0; side < 2; side++) {
                    pmn_position p;
                    int lo, hi, mlo, mhi;
                    position_of(&r, h, side, &p);
                    assert_int_equal(pmn_tablebase_probe_bounds(tb, &p, &lo, &hi), 1);
                    assert_int_equal(pmn_tablebase_probe_bounds(mem, &p, &mlo, &mhi), 1);
                    assert_int_equal(lo, mlo);
                    assert_int_equal(hi, mhi);
                    compared++;
                }
        assert_true(compared > 1000);
        pmn_tablebase_close(mem);
        pmn_tablebase_close(tb);
        rm_dir(dir);
    }
    /* (more seeds than the rules' databases can hold: refused) */
    pmn_rules r;
    pmn_error err;
    assert_int_equal(pmn_rules_init(&r, "oware", NULL), 0);
    assert_null(pmn_tablebase_make(&r, pmn_tablebase_max_seeds(&r) + 1, 1, &err));
}

/* Own seeds (Oware's repetition): every position of the small layers, as
 * a new game, lies within the databases' bounds, and is their value where
 * they meet (the minimax with the path's repetitions, worth the seeds on
 * each side); the solver with the databases gives the minimax's value
 * with random histories too, searching where they only bound it -- under
 * Oware's majority as well, where the value is the result. */
static void own_seeds_bound_the_minimax(void **state)
{
    (void)state;
    static const char *const specs[] = { "oware,holes=3,majority=no", "oware,holes=3" };
    for (size_t sp = 0; sp < sizeof specs / sizeof specs[0]; sp++) {
        pmn_rules r;
        char *dir;
        unsigned full = 3, k, h[64];
        pmn_tablebase *tb = built(specs[sp], full, &r, &dir);
        k = 2 * r.pits;
        uint64_t exact = 0, bounded = 0;
        for (unsigned n = 0; n <= full && sp == 0; n++) {
            for (int more = next_counts(h, k, n, 1); more; more = next_counts(h, k, n, 0)) {
                pmn_position p;
                int lo, hi, v;
                char text[200];
                position_of(&r, h, 0, &p);
                assert_int_equal(pmn_tablebase_probe_bounds(tb, &p, &lo, &hi), 1);
                long want = minimax(&r, &p);
                pmn_position_format(&r, &p, text, sizeof text);
                if (want < lo || want > hi || (lo == hi) != pmn_tablebase_probe(tb, &p, &v)
                    || (lo == hi && v != want))
                    fail_msg("%s, %s: the databases say %+d..%+d, the minimax %+ld", specs[sp],
                             text, lo, hi, want);
                exact += lo == hi;
                bounded += lo < hi;
            }
            pmn_tablebase_layer st;
            assert_int_equal(pmn_tablebase_layer_stats(tb, n, &st), 0);
        }
        assert_true(sp == 1 || (exact > 0 && bounded == 0));
        pmn_searcher *s = pmn_searcher_new(&r, 4);
        assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
        uint32_t st = 73 + (uint32_t)sp;
        int trials = light(60), compared = 0, exact_moves = 0;
        for (int t = 0; t < trials; t++)
            compared += solver_agrees_after(specs[sp], &r, s, &st, full, 24, t % 2, &exact_moves);
        assert_true(compared > trials / 2 || !whole_sample());
        pmn_searcher_free(s);
        pmn_tablebase_close(tb);
        rm_dir(dir);
    }
}

/* Layers too large to solve again for a history: the solver searches
 * with the databases' bounds (0 and the value as a new game) and still
 * answers what the minimax says, given the same history.  The limit is
 * lowered to reach the bounds on layers the minimax can check. */
static void bounds_where_layers_are_large(void **state)
{
    (void)state;
    uint64_t kept = solve_history_layer_max;
    solve_history_layer_max = 0;
    history_with_databases("awale,holes=3,majority=no", 3, 0, 150, 51, 0);
    history_with_databases("oware,holes=3,majority=no,repetition=uncounted", 3, 0, 150, 52,
                           0);
    solve_history_layer_max = kept;
    if (!whole_sample())
        return;   /* the minimax takes seconds at four seeds (light.h) */
    solve_history_layer_max = 0;
    /* A position where the bounds decide: as a new game North to move wins
     * by 2 (the databases' value), but after this history South can force
     * a repetition of it, worth 0 (the minimax's value).  Taking the
     * databases' value as exact there fails this case. */
    pmn_rules r;
    char *dir;
    pmn_tablebase *tb = built("awale,holes=3,majority=no", 4, &r, &dir);
    pmn_searcher *s = pmn_searcher_new(&r, 4);
    pmn_position hist[2], p;
    int exact = 0, without = 0;
    assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
    assert_int_equal(pmn_position_parse(&r, "0,0,1/1,1,1 N", &hist[0], NULL), 0);
    assert_int_equal(pmn_position_parse(&r, "1,0,1/1,1,0 S", &hist[1], NULL), 0);
    assert_int_equal(pmn_position_parse(&r, "0,1,1/1,1,0 N", &p, NULL), 0);
    for (int all = 0; all < 2; all++)
        held_to_minimax("awale,holes=3,majority=no", &r, s, tb, hist, 2, &p, 0, all, &exact,
                        &without);
    pmn_searcher_free(s);
    pmn_tablebase_close(tb);
    rm_dir(dir);
    solve_history_layer_max = kept;
}

/* The depth search reads the databases below the root, where a position's
 * value is the game's (no position before it can come again): with a
 * history, in a game where positions repeat, and in Kalah, where none do. */
static void depth_search_reads_databases(void **state)
{
    (void)state;
    history_with_databases("awale,holes=3,majority=no", 3, 0, 150, 41, 1);
    history_with_databases("oware,holes=3,majority=no,repetition=uncounted", 3, 0, 150, 42,
                           1);
    /* Four seeds: where reading the databases past a position that may
     * come again would change a value. */
    history_with_databases("awale,holes=3,majority=no", 4, 0, 5, 44, 1);
    history_with_databases("kalah(3,3)", 6, 3, 100, 43, 2);
}

/* Endings inside the databases, played at random from positions of
 * `seeds` seeds and annotated by the depth search (which reads the
 * databases below the root) and by the solver (which answers from them,
 * solving a layer again for the game's history): every mark where the
 * values are exact holds against the minimax given the same history. */
static void annotated_endings(const char *spec, unsigned seeds, int games, uint32_t state)
{
    pmn_rules r;
    char *dir;
    pmn_tablebase *tb = built(spec, seeds, &r, &dir);
    pmn_searcher *s = pmn_searcher_new(&r, 4);
    struct judged_count count[2] = { { 0, 0 }, { 0, 0 } };
    games = light(games);
    assert_non_null(s);
    assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
    for (int solve = 0; solve < 2; solve++)
        for (int g = 0; g < games; g++) {
            pmn_setup setup = { .status = PMN_SETUP_READY, .rules = r };
            pmn_annotate_options ao = { .limits = { .depth = 2, .solve = solve },
                                        .annotator = "pmn" };
            pmn_record rec;
            pmn_annotation an;
            pmn_position *p = &setup.start;
            memset(p, 0, sizeof *p);
            p->to_move = (uint8_t)(lcg(&state) % 2);
            for (unsigned i = 0; i < seeds; i++)
                p->pit[lcg(&state) % 2][lcg(&state) % r.pits]++;
            judged_random_game(&r, p, lcg(&state), 40, &rec);
            pmn_searcher_clear(s);
            assert_int_equal(pmn_annotate_record(&rec, &setup, s, &ao, &an), 0);
            judged_check(&r, p, &an, solve, naive_outcome_after, &path, &count[solve]);
            pmn_annotation_free(&an);
            pmn_record_free(&rec);
        }
    for (int solve = 0; solve < 2 && whole_sample(); solve++) {
        assert_true(count[solve].judged > (unsigned)games);
        assert_true(count[solve].marked > 0);
    }
    pmn_searcher_free(s);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

static void endings_judged_exactly(void **state)
{
    (void)state;
    annotated_endings("awale,holes=4,majority=no", 3, 30, 61);
    annotated_endings("awale,holes=3,majority=no", 3, 60, 61);
    annotated_endings("oware,holes=3,majority=no,repetition=uncounted", 3, 60, 62);
    /* Oware's own rules: a repetition gives each side its own seeds, so a
     * value depends on the history (the layer searched with its path);
     * and under its majority, where the values are results. */
    annotated_endings("oware,holes=3,majority=no", 3, 60, 63);
    annotated_endings("oware,holes=3", 3, 60, 64);
}

/* Random positions of layers the minimax cannot reach, against the margin
 * solver, which answers the same with the databases given or not; and a
 * position above the databases solved with them below it. */
static void larger_layers_agree_with_solver(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_error err;
    char *dir = make_dir();
    uint32_t seed = 17;
    /* Light (light.h): databases of 9 seeds, built in a tenth of the time. */
    const unsigned held = whole_sample() ? 12 : 9;
    assert_int_equal(pmn_rules_init(&r, "kalah(6,2)", NULL), 0);
    assert_int_equal(pmn_tablebase_build(&r, held, dir, 2, NULL, NULL, &err), 0);
    pmn_tablebase *tb = pmn_tablebase_open(&r, dir, &err);
    assert_non_null(tb);
    pmn_searcher *plain = pmn_searcher_new(&r, 16), *with = pmn_searcher_new(&r, 16);
    assert_int_equal(pmn_searcher_use_tablebase(with, tb), 0);
    for (int t = 0; t < light(60); t++) {
        pmn_position p;
        pmn_outcome o;
        pmn_analysis a, b;
        pmn_search_limits l = { 0 };
        memset(&p, 0, sizeof p);
        p.to_move = (uint8_t)(lcg(&seed) % 2);
        unsigned n = held - 3 + lcg(&seed) % 8;   /* some above the databases */
        for (unsigned i = 0; i < n; i++)
            p.pit[lcg(&seed) % 2][lcg(&seed) % r.pits]++;
        p.captured[0] = lcg(&seed) % 5;
        p.captured[1] = lcg(&seed) % 5;
        if (pmn_position_ending(&r, &p, &o) != PMN_END_NONE)
            continue;
        l.solve = 1;
        l.all_moves = 1;
        assert_int_equal(pmn_analyse(plain, &p, NULL, 0, &l, NULL, NULL, &a), 0);
        assert_int_equal(pmn_analyse(with, &p, NULL, 0, &l, NULL, NULL, &b), 0);
        assert_true(a.value.exact && b.value.exact);
        assert_int_equal(a.value.margin, b.value.margin);
        assert_int_equal(b.value.tablebase, n <= held);
        assert_int_equal(a.nmoves, b.nmoves);
        for (int i = 0; i < a.nmoves; i++)
            assert_int_equal(a.moves[i].value.margin, b.moves[i].value.margin);
        /* The databases' best move and line keep the value. */
        pmn_position q = p;
        pmn_move_report rep;
        assert_int_equal(pmn_play(&r, &q, b.best, &rep), 0);
        pmn_analysis c;
        l.all_moves = 0;
        if (rep.ending == PMN_END_NONE) {
            assert_int_equal(pmn_analyse(plain, &q, NULL, 0, &l, NULL, NULL, &c), 0);
            long after = q.to_move == p.to_move ? c.value.margin : -c.value.margin;
            assert_int_equal(after, b.value.margin);
        }
        int v;
        if (n <= held) {
            assert_int_equal(pmn_tablebase_probe(tb, &p, &v), 1);
            assert_int_equal(a.value.margin,
                             (int)p.captured[p.to_move] - (int)p.captured[!p.to_move] + v);
        } else {
            assert_int_equal(pmn_tablebase_probe(tb, &p, &v), 0);
        }
    }
    pmn_searcher_free(plain);
    pmn_searcher_free(with);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

/* A cyclic game: the line from the databases, played out, ends the game
 * (by a repetition too, where the seeds left are worth 0) with the margin
 * they give: the winner's moves bring the play nearer the way out of a
 * layer, never round a cycle. */
static void lines_keep_the_value(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_error err;
    char *dir = make_dir();
    uint32_t seed = 3;
    assert_int_equal(pmn_rules_init(&r, "awale,majority=no", NULL), 0);
    assert_int_equal(pmn_tablebase_build(&r, 8, dir, 2, NULL, NULL, &err), 0);
    pmn_tablebase *tb = pmn_tablebase_open(&r, dir, &err);
    pmn_searcher *s = pmn_searcher_new(&r, 4);
    assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
    int ended = 0, won = 0;
    for (int t = 0; t < 300; t++) {
        pmn_position p;
        pmn_outcome o;
        pmn_analysis a;
        pmn_search_limits l = { 0 };
        memset(&p, 0, sizeof p);
        for (unsigned i = 0; i < 8; i++)
            p.pit[lcg(&seed) % 2][lcg(&seed) % r.pits]++;
        if (pmn_position_ending(&r, &p, &o) != PMN_END_NONE)
            continue;
        l.solve = 1;
        assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
        assert_true(a.value.exact && a.value.tablebase);
        pmn_game *g = pmn_game_new(&r, &p);
        pmn_move_report rep;
        for (unsigned i = 0; i < a.npv; i++)
            assert_int_equal(pmn_game_play(g, a.pv[i], &rep), 0);
        pmn_ending e = pmn_game_ending(g);
        if (e == PMN_END_NONE) {
            assert_int_equal(a.npv, PMN_MAX_PV);   /* only a line cut short goes on */
            pmn_game_free(g);
            continue;
        }
        unsigned long seeds[2];
        long margin = 0;
        if (pmn_game_outcome(g) != PMN_DRAWN
            && pmn_final_seeds(&r, e, pmn_game_position(g), seeds))
            margin = (long)seeds[p.to_move] - (long)seeds[!p.to_move];
        if (margin != a.value.margin) {
            char text[200];
            pmn_position_format(&r, &p, text, sizeof text);
            fail_msg("%s: worth %+d, its line of %u plies ends %s with %+ld", text,
                     a.value.margin, a.npv, pmn_ending_string(e), margin);
        }
        ended++;
        won += a.value.margin > 0;
        pmn_game_free(g);
    }
    assert_true(ended > 100 && won > 10);
    pmn_searcher_free(s);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

/* Every position of the layers, in a cyclic game whose layers hold a code
 * a position (the value, and the winner's move): the line the databases
 * give, played out, ends the game with the value (a repetition only where
 * the value is 0), never cut short -- so the moves held for the winner
 * lead out of every layer whatever the loser does, and never round it.
 * With own seeds (Oware's repetition), every position whose bounds meet. */
static void every_line_ends(void **state)
{
    (void)state;
    const char *specs[] = { "awale,holes=4,majority=no", "oware,holes=4,majority=no,"
                                                          "repetition=uncounted",
                            "oware,holes=4,majority=no" };
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        pmn_rules r;
        char *dir;
        unsigned seeds = whole_sample() ? 10 : 8, h[2 * PMN_MAX_SIDE_PITS];
        long lines = 0, won = 0;
        pmn_tablebase *tb = built(specs[k], seeds, &r, &dir);
        int own = pmn_tablebase_values(&r) == 2;
        assert_int_equal(own, k == 2);
        /* (with own seeds each ply of a line solves its layer again: to
         * 7 seeds, and every 5th position of 6 and 7; to 5 when light) */
        unsigned top = !own ? seeds : whole_sample() ? 7 : 5;
        uint64_t at = 0;
        for (unsigned n = 1; n <= top; n++)
            for (int more = next_counts(h, 2 * r.pits, n, 1); more;
                 more = next_counts(h, 2 * r.pits, n, 0)) {
                pmn_position p;
                pmn_outcome o;
                int v, line[PMN_MAX_PV];
                if (own && n >= 6 && at++ % 5 != 0)
                    continue;
                position_of(&r, h, PMN_SOUTH, &p);
                if (pmn_position_ending(&r, &p, &o) != PMN_END_NONE)
                    continue;
                if (own && !tablebase_probe(tb, &r, &p, &v))
                    continue;   /* bounds apart: no one value, no line */
                assert_int_equal(tablebase_probe(tb, &r, &p, &v), 1);
                unsigned npv = tablebase_line(tb, &r, &p, line, PMN_MAX_PV, NULL);
                pmn_game *g = pmn_game_new(&r, &p);
                pmn_move_report rep;
                for (unsigned i = 0; i < npv; i++)
                    assert_int_equal(pmn_game_play(g, line[i], &rep), 0);
                pmn_ending e = pmn_game_ending(g);
                unsigned long seeds_end[2];
                long margin = 0;
                if (e != PMN_END_NONE && pmn_game_outcome(g) != PMN_DRAWN
                    && pmn_final_seeds(&r, e, pmn_game_position(g), seeds_end))
                    margin = (long)seeds_end[PMN_SOUTH] - (long)seeds_end[PMN_NORTH];
                /* A repetition only where what is left is worth 0; with
                 * own seeds, where it gives the value (the seeds on each
                 * side: the margin compared below), a line of the search
                 * with the path may end so. */
                int left = 0;
                if (e == PMN_END_REPETITION && !own
                    && (!tablebase_probe(tb, &r, pmn_game_position(g), &left) || left != 0))
                    left = 1;
                if (e == PMN_END_NONE || margin != v || left != 0) {
                    char text[200];
                    pmn_position_format(&r, &p, text, sizeof text);
                    fail_msg("%s, %s: worth %+d, its line of %u plies ends %s with %+ld",
                             specs[k], text, v, npv,
                             e == PMN_END_NONE ? "not" : pmn_ending_string(e), margin);
                }
                pmn_game_free(g);
                lines++;
                won += v > 0;
            }
        /* (with own seeds, the bounds meet at a few hundred positions) */
        assert_true(lines > (own ? 500 : 1000) && won > 100);
        pmn_tablebase_close(tb);
        rm_dir(dir);
    }
}

/* The same files on one thread and on two, byte for byte -- the holes
 * held for the winners too, which the thread that reached a winner first
 * chose before: layers of Awari (a value a position) and of Oware's own
 * seeds (two bounds) large enough that their solve's generations run on
 * both threads. */
static int same_file(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    int same = f && g, c, d;
    while (same && ((c = getc(f)) != EOF) + ((d = getc(g)) != EOF) > 0)
        same = c == d;
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    return same;
}

static void same_files_on_any_threads(void **state)
{
    (void)state;
    const char *specs[] = { "awari-lincke", "oware" };
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        pmn_rules r;
        pmn_error err;
        /* (Oware's layers from 6 seeds spend their search's budget: when
         * light, to 6 seeds and a smaller budget a position) */
        unsigned seeds = k == 1 ? (whole_sample() ? 7 : 6) : whole_sample() ? 11 : 10;
        uint64_t budget = tablebase_cycle_budget;
        if (!whole_sample())
            tablebase_cycle_budget = UINT64_C(1) << 14;
        char *one = make_dir(), *two = make_dir(), a[600], b[600];
        assert_int_equal(pmn_rules_init(&r, specs[k], NULL), 0);
        assert_int_equal(pmn_tablebase_build(&r, seeds, one, 1, NULL, NULL, &err), 0);
        assert_int_equal(pmn_tablebase_build(&r, seeds, two, 2, NULL, NULL, &err), 0);
        DIR *d = opendir(one);
        struct dirent *e;
        unsigned files = 0;
        assert_non_null(d);
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            snprintf(a, sizeof a, "%s/%s", one, e->d_name);
            snprintf(b, sizeof b, "%s/%s", two, e->d_name);
            if (!same_file(a, b))
                fail_msg("%s: %s is not the same on two threads", specs[k], e->d_name);
            files++;
        }
        closedir(d);
        assert_int_equal(files, seeds + 1);
        tablebase_cycle_budget = budget;
        rm_dir(one);
        rm_dir(two);
    }
}

/* A position's value does not depend on the seeds a hole held at the
 * start: databases built for Kalah(3,2) serve Kalah(3,3), with the same
 * values, and a searcher of Kalah(3,3) takes them; other rules do not. */
static void any_start(void **state)
{
    (void)state;
    pmn_rules r, other;
    char *dir;
    pmn_tablebase *tb = built("kalah(3,2)", 5, &r, &dir);
    assert_int_equal(pmn_rules_init(&other, "kalah(3,3)", NULL), 0);
    pmn_tablebase *again = pmn_tablebase_open(&other, dir, NULL);
    assert_non_null(again);
    assert_int_equal(pmn_tablebase_seeds(again), 5);
    unsigned k = 2 * r.pits, h[64];
    for (unsigned n = 0; n <= 5; n++)
        for (int more = next_counts(h, k, n, 1); more; more = next_counts(h, k, n, 0)) {
            pmn_position p;
            int v, w;
            position_of(&r, h, n % 2, &p);
            assert_int_equal(pmn_tablebase_probe(tb, &p, &v), 1);
            assert_int_equal(pmn_tablebase_probe(again, &p, &w), 1);
            assert_int_equal(v, w);
        }
    pmn_searcher *s = pmn_searcher_new(&other, 1);
    assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
    pmn_searcher_free(s);
    assert_int_equal(pmn_rules_init(&other, "kalah(3,3),capture=opposite-always", NULL), 0);
    assert_null(pmn_tablebase_open(&other, dir, NULL));
    s = pmn_searcher_new(&other, 1);
    assert_int_equal(pmn_searcher_use_tablebase(s, tb), -1);
    pmn_searcher_free(s);
    pmn_tablebase_close(again);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

/* Rules the databases cannot serve, and files that are not sound. */
static void refused(void **state)
{
    (void)state;
    pmn_rules r, other;
    pmn_error err;
    char *dir = make_dir(), name[256], cmd[1200];
    assert_int_equal(pmn_rules_init(&r, "oware", NULL), 0);
    assert_int_equal(pmn_tablebase_check_rules(&r, &err), 0);   /* bounds: own seeds */
    assert_int_equal(pmn_tablebase_values(&r), 2);
    assert_int_equal(pmn_rules_init(&r, "oware,repetition=draw", NULL), 0);
    assert_int_equal(pmn_tablebase_check_rules(&r, &err), -1);
    assert_non_null(strstr(err.message, "repetition=uncounted or own-side"));
    assert_int_equal(pmn_rules_init(&r, "oware,repetition-one-side=plays-on", NULL), 0);
    assert_int_equal(pmn_tablebase_check_rules(&r, &err), -1);
    assert_int_equal(pmn_rules_init(&r, "hawalis", NULL), 0);
    assert_int_equal(pmn_tablebase_check_rules(&r, &err), -1);
    assert_int_equal(pmn_rules_init(&r, "kalah(4,2)", NULL), 0);
    assert_int_equal(pmn_tablebase_check_rules(&r, &err), 0);
    assert_int_equal(pmn_tablebase_build(&r, 6, dir, 1, NULL, NULL, &err), 0);

    /* Other rules: none of theirs there. */
    assert_int_equal(pmn_rules_init(&other, "kalah(4,2),capture=opposite-always", NULL), 0);
    assert_null(pmn_tablebase_open(&other, dir, &err));
    /* A searcher of other rules refuses them. */
    pmn_tablebase *tb = pmn_tablebase_open(&r, dir, &err);
    assert_non_null(tb);
    pmn_searcher *s = pmn_searcher_new(&other, 1);
    assert_int_equal(pmn_searcher_use_tablebase(s, tb), -1);
    pmn_searcher_free(s);
    pmn_tablebase_close(tb);

    /* A layer cut short, then one with a byte changed. */
    snprintf(cmd, sizeof cmd, "ls %s/*-05.tb > %s/name", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(name, sizeof name, "%s/name", dir);
    FILE *f = fopen(name, "r");
    char layer[256];
    assert_non_null(fgets(layer, sizeof layer, f));
    fclose(f);
    layer[strcspn(layer, "\n")] = 0;
    snprintf(cmd, sizeof cmd, "cp '%s' '%s.keep' && truncate -s -1 '%s'", layer, layer, layer);
    assert_int_equal(system(cmd), 0);
    assert_null(pmn_tablebase_open(&r, dir, &err));
    assert_non_null(strstr(err.message, "truncated"));
    snprintf(cmd, sizeof cmd, "cp '%s.keep' '%s' && printf '\\177' | dd of='%s' bs=1 seek=300 "
             "conv=notrunc 2>/dev/null", layer, layer, layer);
    assert_int_equal(system(cmd), 0);
    /* An open reads headers only; the changed byte (a depth, or a value
     * still within its seeds) is found when the layers are read whole. */
    tb = pmn_tablebase_open(&r, dir, &err);
    assert_non_null(tb);
    assert_int_equal(pmn_tablebase_verify(tb, &err), -1);
    assert_non_null(strstr(err.message, "checksum"));
    assert_int_equal(pmn_tablebase_damaged(tb), 0);
    pmn_tablebase_close(tb);
    /* A value past its seeds: never taken, and the databases say they are
     * damaged. */
    {
        pmn_position p;
        int v, lo, hi;
        memset(&p, 0, sizeof p);
        p.pit[1][r.pits - 1] = 5;   /* rank 0 of the layer of 5: its first value */
        snprintf(cmd, sizeof cmd, "printf '\\177' | dd of='%s' bs=1 seek=256 conv=notrunc "
                 "2>/dev/null", layer);
        assert_int_equal(system(cmd), 0);
        tb = pmn_tablebase_open(&r, dir, &err);
        assert_non_null(tb);
        assert_int_equal(pmn_tablebase_probe(tb, &p, &v), 0);
        assert_int_equal(pmn_tablebase_probe_bounds(tb, &p, &lo, &hi), 0);
        assert_int_equal(pmn_tablebase_damaged(tb), 1);
        assert_int_equal(pmn_tablebase_verify(tb, &err), -1);
        pmn_tablebase_close(tb);
    }
    /* A build reads every layer whole, and refuses it so. */
    assert_int_equal(pmn_tablebase_build(&r, 6, dir, 1, NULL, NULL, &err), -1);
    assert_non_null(strstr(err.message, "checksum"));
    /* A build reads the sound layers and makes the bad one again. */
    snprintf(cmd, sizeof cmd, "rm '%s'", layer);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(pmn_tablebase_build(&r, 6, dir, 1, NULL, NULL, &err), 0);
    tb = pmn_tablebase_open(&r, dir, &err);
    assert_non_null(tb);
    assert_int_equal(pmn_tablebase_seeds(tb), 6);
    pmn_tablebase_close(tb);
    rm_dir(dir);
}

/* The one file of the layer of n seeds in dir, into path. */
static void layer_file(const char *dir, unsigned n, char *out, size_t size)
{
    char cmd[512], name[300];
    snprintf(cmd, sizeof cmd, "ls %s/*-%02u.tb > %s/name", dir, n, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(name, sizeof name, "%s/name", dir);
    FILE *f = fopen(name, "r");
    assert_non_null(f);
    assert_non_null(fgets(out, (int)size, f));
    fclose(f);
    out[strcspn(out, "\n")] = 0;
}

/* The body of a layer file (past its header of hsize bytes) set to zeros,
 * its checksum made again when `forge`. */
static void zero_body(const char *file, unsigned hsize, int forge)
{
    FILE *f = fopen(file, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    unsigned char *b = calloc((size_t)size, 1);
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    assert_int_equal(fread(b, 1, (size_t)size, f), (size_t)size);
    memset(b + hsize, 0, (size_t)size - hsize);
    if (forge) {
        uint64_t h = 0xCBF29CE484222325ULL;
        for (long i = hsize; i < size; i++)
            h = (h ^ b[i]) * 0x100000001B3ULL;
        for (int i = 0; i < 8; i++)
            b[32 + i] = (unsigned char)(h >> (8 * i));
    }
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    assert_int_equal(fwrite(b, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    free(b);
}

/* Two rule sets whose specs differ only past their 191st character (a
 * rule file's own name lists every option): each has files of its own,
 * and one's files in the other's place are refused, never served (the
 * audit of 2026-11-29: one header held 191 characters of the spec). */
static void long_specs_kept_apart(void **state)
{
    (void)state;
    pmn_rules yes, no;
    pmn_error err;
    char spec[1024], *dir = make_dir(), a[600], b[600], cmd[1400];
    assert_int_equal(pmn_rules_init(&no, "kalah(3,1)", NULL), 0);
    snprintf(no.name, sizeof no.name, "%s", "mykalahvariantwithalongname");
    yes = no;
    yes.either_empty = !no.either_empty;
    pmn_rules_format(&no, spec, sizeof spec);
    assert_true(strlen(spec) > 250);
    assert_int_equal(pmn_tablebase_build(&yes, 3, dir, 1, NULL, NULL, &err), 0);
    /* Not no's: none of its files there. */
    assert_null(pmn_tablebase_open(&no, dir, &err));
    assert_non_null(strstr(err.message, "no database of these rules"));
    pmn_tablebase *tb = pmn_tablebase_open(&yes, dir, &err);
    assert_non_null(tb);
    pmn_tablebase_close(tb);
    /* yes's layers under no's names: refused as other rules'. */
    char *other = make_dir();
    assert_int_equal(pmn_tablebase_build(&no, 3, other, 1, NULL, NULL, &err), 0);
    for (unsigned n = 0; n <= 3; n++) {
        layer_file(dir, n, a, sizeof a);
        layer_file(other, n, b, sizeof b);
        assert_string_not_equal(strrchr(a, '/'), strrchr(b, '/'));
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", a, b);
        assert_int_equal(system(cmd), 0);
    }
    assert_null(pmn_tablebase_open(&no, other, &err));
    assert_non_null(strstr(err.message, "built under other rules"));
    assert_non_null(strstr(err.message, "either-empty="));
    rm_dir(other);
    rm_dir(dir);
}

/* A layer whose body is not the one built is found at the first probe of
 * any of its positions, whatever the value there: a damaged copy (its
 * checksum as built) and a forged one (zeros, a draw no Kalah layer of 3
 * seeds can hold, its checksum made again); no value of it is taken, and
 * a solve stops at once rather than go on without it. */
static void damaged_layers_found_at_first_probe(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_error err;
    char layer[600];
    for (int forge = 0; forge < 2; forge++) {
        char *dir = make_dir();
        assert_int_equal(pmn_rules_init(&r, "kalah", NULL), 0);
        assert_int_equal(pmn_tablebase_build(&r, 3, dir, 1, NULL, NULL, &err), 0);
        layer_file(dir, 3, layer, sizeof layer);
        zero_body(layer, 256, forge);
        pmn_tablebase *tb = pmn_tablebase_open(&r, dir, &err);
        assert_non_null(tb);
        pmn_position p;
        int v;
        memset(&p, 0, sizeof p);
        p.pit[0][2] = p.pit[0][5] = p.pit[1][5] = 1;   /* 3 seeds: South wins by 1 */
        p.captured[0] = p.captured[1] = 10;
        assert_int_equal(pmn_tablebase_damaged(tb), 0);
        assert_int_equal(pmn_tablebase_probe(tb, &p, &v), 0);
        assert_int_equal(pmn_tablebase_damaged(tb), 1);
        assert_int_equal(pmn_tablebase_verify(tb, &err), -1);
        assert_non_null(strstr(err.message, forge ? "parity" : "checksum"));
        /* A layer below still answers: it was read whole and is sound. */
        memset(&p, 0, sizeof p);
        p.pit[0][5] = p.pit[1][5] = 1;
        assert_int_equal(pmn_tablebase_probe(tb, &p, &v), 1);
        assert_int_equal(v, 0);
        pmn_tablebase_close(tb);

        /* The solve of a position whose moves reach the layer: stopped
         * within a few thousand positions of the first probe. */
        tb = pmn_tablebase_open(&r, dir, &err);
        assert_non_null(tb);
        pmn_searcher *s = pmn_searcher_new(&r, 1);
        assert_int_equal(pmn_searcher_use_tablebase(s, tb), 0);
        pmn_position q;
        /* 26 seeds in play: 890,000 positions to solve without databases */
        assert_int_equal(pmn_position_parse(&r, "3,2,3,2,1,2/1,2,3,3,2,2 S 10:8", &q, &err), 0);
        pmn_search_limits l = { 0 };
        pmn_analysis an;
        l.solve = 1;
        l.threads = 2;
        assert_int_equal(pmn_analyse(s, &q, NULL, 0, &l, NULL, NULL, &an), 0);
        assert_int_equal(pmn_tablebase_damaged(tb), 1);
        assert_true(an.stopped);
        assert_false(an.value.exact);
        assert_true(an.nodes < 50000);   /* of the 890,000 */
        pmn_searcher_free(s);
        pmn_tablebase_close(tb);
        rm_dir(dir);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_layers_agree_with_minimax),
        cmocka_unit_test(kalah_sown_on_counts),
        cmocka_unit_test(empty_capture_banks_a_seed),
        cmocka_unit_test(history_and_databases),
        cmocka_unit_test(results_under_a_majority),
        cmocka_unit_test(own_seeds_bound_the_minimax),
        cmocka_unit_test(own_seeds_exact),
        cmocka_unit_test(made_in_memory),
        cmocka_unit_test(depth_search_reads_databases),
        cmocka_unit_test(depth_search_reads_results),
        cmocka_unit_test(bounds_where_layers_are_large),
        cmocka_unit_test(endings_judged_exactly),
        cmocka_unit_test(larger_layers_agree_with_solver),
        cmocka_unit_test(lines_keep_the_value),
        cmocka_unit_test(every_line_ends),
        cmocka_unit_test(same_files_on_any_threads),
        cmocka_unit_test(any_start),
        cmocka_unit_test(refused),
        cmocka_unit_test(long_specs_kept_apart),
        cmocka_unit_test(damaged_layers_found_at_first_probe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
