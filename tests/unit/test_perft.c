/* test_perft.c - move counts from the opening position (the spec's table). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmn.h"
#include "lib/base/util.h"
#include "engine.h"

static void opening_depths(void **state)
{
    (void)state;
    static const uint64_t expected[] = { 1, 14, 182, 1539, 12626 };
    pmn_rules r;
    pmn_position p;
    pmn_rules_init(&r, NULL, NULL);
    pmn_position_start(&r, &p);
    for (unsigned d = 0; d < sizeof expected / sizeof expected[0]; d++)
        assert_int_equal(pmn_perft(&r, &p, d, NULL, NULL), expected[d]);
}

static void divide_adds_up(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    uint64_t below[PMN_MAX_SIDE_PITS], sum = 0;
    int n;
    pmn_rules_init(&r, NULL, NULL);
    pmn_position_start(&r, &p);
    uint64_t total = pmn_perft(&r, &p, 3, below, &n);
    assert_int_equal(n, 14);
    for (int i = 0; i < n; i++) {
        pmn_position q = p;
        pmn_move_report rep;
        assert_int_equal(pmn_play(&r, &q, i, &rep), 0);
        assert_int_equal(below[i], pmn_perft(&r, &q, 2, NULL, NULL));
        sum += below[i];
    }
    assert_int_equal(sum, total);
    assert_int_equal(total, 1539);
}

static void game_ending_moves(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_rules_init(&r, NULL, NULL);
    /* South h -> i captures North's last seeds: counted at depth 1, not continued. */
    assert_int_equal(pmn_position_parse(&r, "0,0,0,0,0,0,0,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0,3,0 S", &p, NULL), 0);
    assert_int_equal(pmn_perft(&r, &p, 1, NULL, NULL), 1);
    assert_int_equal(pmn_perft(&r, &p, 2, NULL, NULL), 0);
    /* No legal move at all: nothing to count. */
    assert_int_equal(pmn_position_parse(&r, "1,1,1,1,1,1,1,1,1,1,1,1,1,1/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S", &p, NULL), 0);
    assert_int_equal(pmn_perft(&r, &p, 1, NULL, NULL), 0);
}

static void rule_options_change_counts(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_rules_init(&r, "capture=front", NULL);
    pmn_position_start(&r, &p);
    assert_int_equal(pmn_perft(&r, &p, 1, NULL, NULL), 14);
    /* Fewer seeds taken leaves North more to play with: the tree changes. */
    assert_int_not_equal(pmn_perft(&r, &p, 3, NULL, NULL), 1539);
}

/* Threads that share out the subtrees count what one counts, for every
 * built-in rule set, below each first ply too. */
static void jobs_count_the_same(void **state)
{
    (void)state;
    static const char *const sets[] = { "hawalis", "kalah", "oware", "awale", "anywoli",
                                        "kalah(4,3)" };
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        pmn_rules r;
        pmn_position p;
        assert_int_equal(pmn_rules_init(&r, sets[k], NULL), 0);
        pmn_position_start(&r, &p);
        for (unsigned d = 0; d <= 5; d++) {
            uint64_t one[PMN_MAX_SIDE_PITS], many[PMN_MAX_SIDE_PITS];
            int n1 = 0, n2 = 0;
            uint64_t a = pmn_perft(&r, &p, d, one, &n1);
            for (int jobs = 1; jobs <= 3; jobs++) {
                uint64_t b = pmn_perft_jobs(&r, &p, d, jobs, many, &n2);
                assert_int_equal(a, b);
                assert_int_equal(n1, n2);
                for (int i = 0; i < n1; i++)
                    assert_int_equal(one[i], many[i]);
            }
        }
    }
}

/* pmn_perft's fast path for the relay family (Hawalis and its variants)
 * counts what the general engine counts, on random positions of every
 * built-in rule set and of variants the fast path takes, and where a move
 * never ends (the fast path hands it to the general engine). */
static void fast_path_counts_the_same(void **state)
{
    (void)state;
    static const char *const sets[] = {
        "hawalis", "hawalis,capture=front", "hawalis,capture=none", "hawalis,min-lift=1",
        "hawalis,min-lift=3", "hawalis,holes=8", "hawalis,holes=5,seeds=3",
        "hawalis,endless=lose", "kalah", "oware", "awale", "anywoli",
    };
    unsigned long seed = 12345;
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        pmn_rules r = rules_with(sets[k]);
        for (unsigned i = 0; i < 200; i++) {
            /* Up to past the 127 seeds the fast path holds (where endless
             * moves abound: their proofs would take seconds deeper). */
            int many = i % 10 == 9;
            unsigned seeds = 1 + random_below(&seed, many ? 140 : 70);
            pmn_position p = random_position(&r, seeds, &seed);
            unsigned depth = many ? 1 : 1 + i % 3;
            uint64_t fast = pmn_perft(&r, &p, depth, NULL, NULL);
            uint64_t general = perft_general(&r, &p, depth);
            if (fast != general) {
                char text[512];
                pmn_position_format(&r, &p, text, sizeof text);
                fail_msg("%s, %s, depth %u: %llu, the general engine %llu", sets[k], text,
                         depth, (unsigned long long)fast, (unsigned long long)general);
            }
        }
    }
    /* South's g never ends: its state repeats after 5,880 laps, past the
     * laps the fast path sows before it hands a move over. */
    pmn_rules r = rules_with(NULL);
    pmn_position p = position(&r, "2,1,2,3,2,1,4,4,6,5,1,3,4,1/0,0,0,0,0,0,0,0,0,0,0,0,0,1 S");
    pmn_move_report rep;
    pmn_position q = p;
    assert_int_equal(pmn_play(&r, &q, 6, &rep), 0);
    assert_int_equal(rep.ending, PMN_END_ENDLESS);
    for (unsigned depth = 1; depth <= 3; depth++)
        assert_int_equal(pmn_perft(&r, &p, depth, NULL, NULL), perft_general(&r, &p, depth));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(opening_depths),
        cmocka_unit_test(divide_adds_up),
        cmocka_unit_test(game_ending_moves),
        cmocka_unit_test(rule_options_change_counts),
        cmocka_unit_test(jobs_count_the_same),
        cmocka_unit_test(fast_path_counts_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
