/* test_search.c - the analysis engine: values and best moves against a plain
 * minimax (naive.h) on random small positions of every rule set, solved
 * values of small Kalah boards, the Hawalis endgame problems, limits. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "naive.h"
#include "read.h"
#include "light.h"

static struct naive_path path;   /* large: not on the stack */
static unsigned banked_range = 4;  /* the seeds banked by each side: 0 to this less one */

/* A small random number generator of the test's own, so that the
 * positions are the same on every machine. */
static uint32_t lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void random_position(const pmn_rules *r, unsigned seeds, uint32_t *state,
                            pmn_position *p)
{
    memset(p, 0, sizeof *p);
    p->to_move = (uint8_t)(lcg(state) % 2);
    for (unsigned k = 0; k < seeds; k++)
        p->pit[lcg(state) % 2][lcg(state) % r->pits]++;
    if (r->goal == PMN_GOAL_MOST_SEEDS) {
        p->captured[0] = lcg(state) % banked_range;
        p->captured[1] = lcg(state) % banked_range;
    }
}

/* The minimax value of playing `hole` in p, for p's side to move. */
static struct naive_value value_of_move(const pmn_rules *r, const pmn_position *p, int hole)
{
    return naive_move_value(r, &path, p, hole);
}

/* Against the minimax: the margin solver's value and move (margins only),
 * on `threads` threads, or with `distance` the full search's (plies too). */
static void agrees_as(const char *spec, unsigned seeds, int trials, uint32_t state,
                      int distance, unsigned threads)
{
    pmn_rules r;
    assert_int_equal(pmn_rules_init(&r, spec, NULL), 0);
    pmn_searcher *s = pmn_searcher_new(&r, 1);
    assert_non_null(s);
    int compared = 0;
    trials = light(trials);
    for (int t = 0; t < trials; t++) {
        pmn_position p;
        pmn_outcome o;
        int holes[PMN_MAX_SIDE_PITS];
        random_position(&r, seeds, &state, &p);
        if (pmn_position_ending(&r, &p, &o) != PMN_END_NONE || !pmn_legal_moves(&r, &p, holes))
            continue;
        struct naive_value want = naive_new_game(&r, &path, &p);

        pmn_search_limits l = { 0 };
        pmn_analysis a;
        l.solve = 1;
        l.distance = distance;
        l.threads = threads;
        pmn_searcher_clear(s);
        assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
        char text[200];
        pmn_position_format(&r, &p, text, sizeof text);
        int plies = distance || !a.value.solved;
        if (!a.value.exact || a.value.outcome != want.outcome
            || (a.value.has_margin && a.value.margin != want.margin)
            || (plies && want.outcome && a.value.plies != want.plies))
            fail_msg("%s, %s: the minimax says %d/%ld/%u, the engine %s%d/%d/%u", spec, text,
                     want.outcome, want.margin, want.plies, a.value.exact ? "" : "(not exact) ",
                     a.value.outcome, a.value.margin, a.value.plies);
        /* The engine's move is one the minimax finds best. */
        struct naive_value got = value_of_move(&r, &p, a.best);
        if (!plies)
            got.plies = want.plies;   /* the margin solver does not count them */
        if (naive_better(want, got))
            fail_msg("%s, %s: the engine's move %c is not the best", spec, text,
                     pmn_hole_letter(p.to_move, a.best));
        compared++;
    }
    if (compared <= trials / 4 && whole_sample())
        fail_msg("%s: only %d positions of %d compared", spec, compared, trials);
    pmn_searcher_free(s);
}

static void agrees(const char *spec, unsigned seeds, int trials, uint32_t state)
{
    agrees_as(spec, seeds, trials, state, 0, 1);
    agrees_as(spec, seeds, trials, state, 1, 1);
    /* Helper threads on the one table (Lazy SMP, ABDADA): the same values. */
    agrees_as(spec, seeds, trials, state, 0, 2);
}

static void engine_agrees_with_minimax(void **state)
{
    (void)state;
    agrees("kalah(3,1)", 6, 150, 1);
    agrees("kalah(4,1)", 8, 150, 2);
    agrees("kalah(4,2)", 8, 100, 3);
    agrees("kalah(4,2),capture=opposite-always", 8, 100, 4);
    /* Empty capture: the solver takes it that the side to move banks a
     * seed at once (its bound); fuller boards, where that bound cuts. */
    agrees("kalah(3,3),capture=opposite-always", 11, 60, 12);
    agrees("oware,holes=3", 3, 150, 5);
    agrees("awale,holes=3", 3, 150, 6);
    agrees("oware,holes=4", 3, 100, 7);
    agrees("hawalis,holes=3", 5, 150, 8);
    agrees("hawalis,holes=3,capture=front,endless=lose", 5, 150, 9);
    agrees("anywoli,holes=2", 6, 150, 10);
    agrees("anywoli,holes=2,last-seeds=first-three,extra=none", 6, 100, 11);
}

/* Near a majority (Oware, Awale: more than half the seeds win at once),
 * where a capture can end the game: the solver bounds the margin by the
 * seeds there too (a majority ends the game with the seeds as they lie). */
static void engine_agrees_near_a_majority(void **state)
{
    (void)state;
    banked_range = 9;
    agrees("oware,holes=3", 3, 150, 13);
    agrees("awale,holes=3", 3, 150, 14);
    agrees("oware,holes=4,majority-sweep=yes", 3, 100, 15);
    banked_range = 4;
}

/* Every legal move valued with --all-moves, against the minimax. */
static void all_moves_are_valued(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_analysis a;
    pmn_search_limits l = { 0 };
    uint32_t seed = 99;
    assert_int_equal(pmn_rules_init(&r, "kalah(4,2)", NULL), 0);
    pmn_searcher *s = pmn_searcher_new(&r, 1);
    for (int t = 0; t < light(40); t++) {
        pmn_outcome o;
        random_position(&r, 8, &seed, &p);
        if (pmn_position_ending(&r, &p, &o) != PMN_END_NONE)
            continue;
        l.solve = 1;
        l.all_moves = 1;
        assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
        assert_true(a.nmoves > 0);
        for (int i = 0; i < a.nmoves; i++) {
            struct naive_value want = value_of_move(&r, &p, a.moves[i].hole);
            assert_true(a.moves[i].value.exact);
            assert_int_equal(a.moves[i].value.outcome, want.outcome);
            assert_int_equal(a.moves[i].value.margin, want.margin);
            if (want.outcome && !a.moves[i].value.solved)
                assert_int_equal(a.moves[i].value.plies, want.plies);
            if (i > 0)   /* best first */
                assert_true(a.moves[i - 1].value.score >= a.moves[i].value.score);
        }
        /* The best move is one of the best value (the first listed, or
         * another as good). */
        int found = 0;
        for (int i = 0; i < a.nmoves; i++)
            if (a.moves[i].hole == a.best) {
                assert_int_equal(a.moves[i].value.margin, a.moves[0].value.margin);
                found = 1;
            }
        assert_true(found);
    }
    pmn_searcher_free(s);
}

/* A searcher asked again about a position it has solved (an engine's
 * second "go", annotate meeting a position twice) still names the best
 * move and its line, with the same value; and a stop asked for ends a
 * search that has no limit once its first iteration is done. */
static int stop_after(void *ctx)
{
    return --*(int *)ctx <= 0;
}

static void asked_again_and_stopped(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_analysis a, b;
    pmn_search_limits l = { 0 };
    uint32_t seed = 5;
    assert_int_equal(pmn_rules_init(&r, "kalah(4,2)", NULL), 0);
    pmn_searcher *s = pmn_searcher_new(&r, 1);
    for (int t = 0; t < light(30); t++) {
        pmn_outcome o;
        random_position(&r, 8, &seed, &p);
        if (pmn_position_ending(&r, &p, &o) != PMN_END_NONE)
            continue;
        l.solve = 1;
        assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
        assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &b), 0);
        assert_true(a.best >= 0 && b.best >= 0);
        assert_true(b.npv >= 1);
        assert_int_equal(a.value.score, b.value.score);
        assert_int_equal(b.pv[0], b.best);
    }
    pmn_searcher_free(s);
    assert_int_equal(pmn_rules_init(&r, "oware", NULL), 0);
    s = pmn_searcher_new(&r, 1);
    pmn_position_start(&r, &p);
    int calls = 50;
    memset(&l, 0, sizeof l);
    l.stop = stop_after;
    l.stop_ctx = &calls;
    assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
    assert_true(a.stopped);
    assert_true(a.best >= 0);
    assert_true(a.depth >= 1 && a.depth < 40);
    pmn_searcher_free(s);
}

/* Small Kalah boards solved from the opening, by the engine and by the
 * plain minimax, under both capture rules. */
static void solve(const char *spec)
{
    pmn_rules r;
    pmn_position p;
    pmn_analysis a;
    pmn_search_limits l = { 0 };
    assert_int_equal(pmn_rules_init(&r, spec, NULL), 0);
    pmn_position_start(&r, &p);
    struct naive_value want = naive_new_game(&r, &path, &p);
    pmn_searcher *s = pmn_searcher_new(&r, 16);
    for (int distance = 0; distance < 3; distance++) {
        /* The margin solver, then the full search with the plies, then
         * the margin solver on three threads. */
        l.solve = 1;
        l.distance = distance == 1;
        l.threads = distance == 2 ? 3 : 1;
        pmn_searcher_clear(s);
        assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
        if (!a.value.exact || a.value.outcome != want.outcome || a.value.margin != want.margin
            || (distance == 1 && want.outcome && a.value.plies != want.plies))
            fail_msg("%s: the minimax says %d by %ld in %u, the engine %d by %d in %u (%s)",
                     spec, want.outcome, want.margin, want.plies, a.value.outcome,
                     a.value.margin, a.value.plies, a.value.exact ? "exact" : "not exact");
        assert_int_equal(a.value.solved, distance != 1);
    }
    pmn_searcher_free(s);
}

static void solved_kalah_boards(void **state)
{
    (void)state;
    solve("kalah(3,1)");
    solve("kalah(3,1),capture=opposite-always");
    solve("kalah(3,2)");
    solve("kalah(3,2),capture=opposite-always");
    solve("kalah(4,1)");
    solve("kalah(4,1),capture=opposite-always");
}

/* A table of 64 MB starts at 1 MB and doubles as it fills, the helper
 * threads waiting while its entries move: the same values as a table of
 * 1 MB, which never grows, on one thread and on two (each board fills
 * the first megabyte many times over). */
static void the_table_grows(void **state)
{
    (void)state;
    static const struct { const char *spec; int margin; } boards[] = {
        { "kalah(4,4)", 2 }, { "kalah(5,3),capture=opposite-always", 8 },
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        pmn_rules r;
        pmn_position p;
        assert_int_equal(pmn_rules_init(&r, boards[i].spec, NULL), 0);
        pmn_position_start(&r, &p);
        for (int run = 0; run < 4; run++) {
            pmn_searcher *s = pmn_searcher_new(&r, run == 0 ? 1 : 64);
            pmn_search_limits l = { 0 };
            pmn_analysis a;
            l.solve = 1;
            l.threads = run < 2 ? 1 : 2;
            assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
            if (!a.value.exact || a.value.margin != boards[i].margin)
                fail_msg("%s, a table of %d MB on %u threads: %s%d, not %+d", boards[i].spec,
                         run == 0 ? 1 : 64, l.threads, a.value.exact ? "" : "(not exact) ",
                         a.value.margin, boards[i].margin);
            pmn_searcher_free(s);
        }
    }
}

/* The endgame problems of the Hawalis page: South to move wins, and the
 * printed solutions (41 and 27 plies) are the shortest wins. */
static void hawalis_problems(void **state)
{
    (void)state;
    static const struct { const char *position; unsigned printed; } problems[] = {
        { "0,0,0,0,0,0,0,0,1,0,0,1,0,0/1,0,2,1,0,0,0,0,1,1,1,1,1,0 S", 41 },
        { "0,0,0,0,0,1,0,0,0,0,0,0,1,0/1,0,0,0,0,0,0,0,1,0,0,0,0,0 S", 27 },
    };
    for (size_t i = 0; i < sizeof problems / sizeof problems[0]; i++) {
        pmn_rules r;
        pmn_position p;
        pmn_analysis a;
        pmn_search_limits l = { 0 };
        assert_int_equal(pmn_rules_init(&r, NULL, NULL), 0);
        assert_int_equal(pmn_position_parse(&r, problems[i].position, &p, NULL), 0);
        pmn_searcher *s = pmn_searcher_new(&r, 16);
        l.solve = 1;
        assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
        assert_true(a.value.exact);
        assert_int_equal(a.value.outcome, 1);
        assert_int_equal(a.value.plies, problems[i].printed);
        assert_int_equal(a.npv, problems[i].printed);
        pmn_searcher_free(s);
    }
}

/* A node limit stops the search, which says so and still gives a move. */
static void limits(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_analysis a;
    pmn_search_limits l = { 0 };
    assert_int_equal(pmn_rules_init(&r, "kalah", NULL), 0);
    pmn_position_start(&r, &p);
    pmn_searcher *s = pmn_searcher_new(&r, 1);
    l.solve = 1;
    l.nodes = 20000;
    assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
    assert_true(a.stopped);
    assert_false(a.value.exact);
    assert_true(a.best >= 0);
    assert_true(a.depth >= 1);
    assert_true(a.nodes < 20000 + 1000);

    l.nodes = 0;
    l.solve = 0;
    l.depth = 4;
    pmn_searcher_clear(s);
    assert_int_equal(pmn_analyse(s, &p, NULL, 0, &l, NULL, NULL, &a), 0);
    assert_int_equal(a.depth, 4);
    assert_false(a.stopped);
    pmn_searcher_free(s);
}

static void values_in_words(void **state)
{
    (void)state;
    pmn_rules kalah, hawalis;
    pmn_value v;
    char buf[128];
    pmn_rules_init(&kalah, "kalah", NULL);
    pmn_rules_init(&hawalis, NULL, NULL);
    /* A win by 10 seeds in 37 plies, its loss the negation. */
    pmn_value_of_score(&kalah, (1 << 29) + 10 * 4096 + 4095 - 37, 1, &v);
    assert_int_equal(v.outcome, 1);
    assert_int_equal(v.margin, 10);
    assert_int_equal(v.plies, 37);
    pmn_value_describe(&v, PMN_SOUTH, buf, sizeof buf);
    assert_string_equal(buf, "South wins by 10 seeds in 37 plies");
    pmn_value_of_score(&kalah, -((1 << 29) + 10 * 4096 + 4095 - 37), 1, &v);
    assert_int_equal(v.outcome, -1);
    assert_int_equal(v.margin, -10);
    assert_int_equal(v.plies, 37);
    pmn_value_of_score(&hawalis, (1 << 29) + 4095 - 9, 1, &v);
    pmn_value_describe(&v, PMN_NORTH, buf, sizeof buf);
    assert_string_equal(buf, "North wins in 9 plies");
    pmn_value_of_score(&kalah, 0, 1, &v);
    pmn_value_describe(&v, PMN_NORTH, buf, sizeof buf);
    assert_string_equal(buf, "a draw");
    pmn_value_of_score(&kalah, 3 * 4096, 0, &v);
    pmn_value_describe(&v, PMN_SOUTH, buf, sizeof buf);
    assert_string_equal(buf, "about +3 seeds for South (heuristic)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(engine_agrees_with_minimax),
        cmocka_unit_test(engine_agrees_near_a_majority),
        cmocka_unit_test(all_moves_are_valued),
        cmocka_unit_test(asked_again_and_stopped),
        cmocka_unit_test(solved_kalah_boards),
        cmocka_unit_test(the_table_grows),
        cmocka_unit_test(hawalis_problems),
        cmocka_unit_test(limits),
        cmocka_unit_test(values_in_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
