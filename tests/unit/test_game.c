/* test_game.c - games with history: the end of a game, and repetition. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmn.h"
#include "games.h"

/* Play the letters of `plies` (capture counts are skipped); returns the last
 * report.  Every ply but the last must leave the game going. */
static pmn_move_report play_all(pmn_game *g, const pmn_rules *r, const char *plies)
{
    pmn_move_report rep = { 0 };
    for (const char *s = plies; *s; s++) {
        int side, hole;
        if (pmn_hole_from_letter(r, *s, &side, &hole) < 0)
            continue;
        assert_int_equal(pmn_game_ending(g), PMN_END_NONE);
        assert_int_equal(side, pmn_game_position(g)->to_move);
        assert_int_equal(pmn_game_play(g, hole, &rep), 0);
    }
    return rep;
}

static void game_won(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_move_report rep;
    pmn_rules_init(&r, NULL, NULL);
    pmn_position_start(&r, &p);
    pmn_game *g = pmn_game_new(&r, &p);
    assert_non_null(g);
    rep = play_all(g, &r, game1);
    assert_int_equal(pmn_game_plies(g), 110);
    assert_int_equal(rep.ending, PMN_END_NO_SEEDS);
    assert_int_equal(pmn_game_ending(g), PMN_END_NO_SEEDS);
    assert_int_equal(pmn_game_outcome(g), PMN_NORTH_WINS);
    assert_int_equal(pmn_game_position(g)->captured[PMN_SOUTH], 27);
    assert_int_equal(pmn_game_position(g)->captured[PMN_NORTH], 28);
    /* Nothing can be played after the end. */
    assert_int_equal(pmn_game_play(g, 0, &rep), -1);
    assert_int_equal(pmn_game_plies(g), 110);
    pmn_game_free(g);
}

static void game_endless(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_move_report rep;
    pmn_rules_init(&r, NULL, NULL);
    pmn_position_start(&r, &p);
    pmn_game *g = pmn_game_new(&r, &p);
    rep = play_all(g, &r, game2);
    assert_int_equal(rep.ending, PMN_END_ENDLESS);
    assert_int_equal(pmn_game_ending(g), PMN_END_ENDLESS);
    assert_int_equal(pmn_game_outcome(g), PMN_DRAWN);
    assert_int_equal(pmn_game_plies(g), 26);
    pmn_game_free(g);
}

/* Found by random play: the 18th ply brings back an earlier position, with
 * nothing captured on the way. */
static const char rep_start[] = "0,2,0,1,1,0,1,0,0,1,0,0,0,0/0,0,0,0,0,0,1,0,0,2,0,1,2,0 S";
static const char rep_plies[] = "b M e J f A i B l C m D n E a F b I";

static void game_repetition(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p, walk;
    pmn_position seen[32];
    pmn_move_report rep;
    pmn_rules_init(&r, NULL, NULL);
    assert_int_equal(pmn_position_parse(&r, rep_start, &p, NULL), 0);

    /* Independently of pmn_game: the last position equals an earlier one,
     * and none before it does. */
    walk = p;
    int n = 0, side, hole, repeats = 0;
    seen[n++] = walk;
    for (const char *s = rep_plies; *s; s++) {
        if (pmn_hole_from_letter(&r, *s, &side, &hole) < 0)
            continue;
        assert_int_equal(pmn_play(&r, &walk, hole, &rep), 0);
        assert_int_equal(rep.captured, 0);
        for (int i = 0; i < n; i++)
            if (pmn_position_equal(&r, &seen[i], &walk))
                repeats++;
        seen[n++] = walk;
    }
    assert_int_equal(n, 19);
    assert_int_equal(repeats, 1);

    pmn_game *g = pmn_game_new(&r, &p);
    rep = play_all(g, &r, rep_plies);
    assert_int_equal(rep.ending, PMN_END_REPETITION);
    assert_int_equal(rep.outcome, PMN_DRAWN);
    assert_int_equal(pmn_game_ending(g), PMN_END_REPETITION);
    assert_int_equal(pmn_game_plies(g), 18);
    pmn_game_free(g);

    /* Positions alone know no history: pmn_play plays on. */
    assert_int_equal(pmn_perft(&r, &walk, 1, NULL, NULL) > 0, 1);
}

static void game_starting_ended(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_move_report rep;
    pmn_rules_init(&r, NULL, NULL);
    assert_int_equal(pmn_position_parse(&r, "1,1,1,1,1,1,1,1,1,1,1,1,1,1/2,0,0,0,0,0,0,0,0,0,0,0,0,0 S", &p, NULL), 0);
    pmn_game *g = pmn_game_new(&r, &p);
    assert_int_equal(pmn_game_ending(g), PMN_END_NO_MOVE);
    assert_int_equal(pmn_game_outcome(g), PMN_NORTH_WINS);
    assert_int_equal(pmn_game_play(g, 0, &rep), -1);
    pmn_game_free(g);
    pmn_game_free(NULL);
}

static void illegal_move_keeps_game(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_move_report rep;
    pmn_rules_init(&r, NULL, NULL);
    pmn_position_start(&r, &p);
    pmn_game *g = pmn_game_new(&r, &p);
    assert_int_equal(pmn_game_play(g, 20, &rep), PMN_ILLEGAL_NO_SUCH_HOLE);
    assert_int_equal(pmn_game_plies(g), 0);
    assert_true(pmn_position_equal(&r, pmn_game_position(g), &p));
    pmn_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(game_won),
        cmocka_unit_test(game_endless),
        cmocka_unit_test(game_repetition),
        cmocka_unit_test(game_starting_ended),
        cmocka_unit_test(illegal_move_keeps_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
