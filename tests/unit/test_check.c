/* test_check.c - replaying records: what check finds, and where. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "read.h"


/* Read one game and check it under the rules its tags name. */
static int check_text(const char *text, struct diags *ds, pmn_check_result *res)
{
    pmn_record rec;
    struct diags rd;
    assert_int_equal(read_games(text, &rec, 1, &rd), 1);
    memset(ds, 0, sizeof *ds);
    int errors = pmn_check_record(&rec, NULL, collect, ds, res);
    pmn_record_free(&rec);
    return errors;
}

static void sample_games(void **state)
{
    (void)state;
    struct diags ds;
    pmn_check_result res;
    char *g1 = slurp("samples/hawalis/tavares-gering-2009.pmn");
    assert_non_null(g1);
    char *g2 = slurp("samples/hawalis/miumiu-rosenau-2009.pmn");
    assert_non_null(g2);
    assert_int_equal(check_text(g1, &ds, &res), 0);
    assert_int_equal(ds.n, 0);
    assert_int_equal(res.plies, 110);
    assert_int_equal(res.ending, PMN_END_NO_SEEDS);
    assert_int_equal(res.outcome, PMN_NORTH_WINS);
    assert_int_equal(res.captured[PMN_SOUTH], 27);
    assert_int_equal(res.captured[PMN_NORTH], 28);

    assert_int_equal(check_text(g2, &ds, &res), 0);
    assert_int_equal(ds.n, 1);
    assert_int_equal(ds.d[0].code, 211);
    assert_int_equal(ds.d[0].severity, PMN_NOTE);
    assert_int_equal(ds.d[0].line, 16);
    assert_int_equal(ds.d[0].col, 55);
    assert_non_null(strstr(ds.d[0].message, "lap 77"));
    assert_non_null(strstr(ds.d[0].message, "lap 11"));
    assert_int_equal(res.ending, PMN_END_ENDLESS);
    assert_int_equal(res.outcome, PMN_DRAWN);
    assert_int_equal(res.last.loop_lap, 77);
    free(g1);
    free(g2);
}

static void endless_loses_contradicts_the_draw(void **state)
{
    (void)state;
    struct diags ds;
    pmn_check_result res;
    char *g2 = slurp("samples/hawalis/miumiu-rosenau-2009.pmn");
    assert_non_null(g2);
    char *text = malloc(strlen(g2) + 64);
    sprintf(text, "[Rules \"endless=lose\"]\n%s", g2);
    assert_int_equal(check_text(text, &ds, &res), 1);
    assert_int_equal(res.outcome, PMN_SOUTH_WINS);
    assert_int_equal(ds.n, 2);
    assert_int_equal(ds.d[0].code, 211);
    assert_int_equal(ds.d[1].code, 208);
    assert_int_equal(ds.d[1].line, 8);       /* the Result tag, one line lower */
    free(text);
    free(g2);
}

static void variations_are_replayed(void **state)
{
    (void)state;
    struct diags ds;
    pmn_check_result res;
    /* A legal variation: nothing to say. */
    assert_int_equal(check_text("1. i (+4) L (+6) (1... N 2. d (+4)) 2. d (+6) *", &ds, &res), 0);
    assert_int_equal(ds.n, 0);
    assert_int_equal(res.plies, 3);
    /* M was taken by i: the variation is wrong, the main line goes on. */
    assert_int_equal(check_text("1. i (+4) L (+6) (1... M) 2. d (+6) *", &ds, &res), 1);
    assert_int_equal(ds.n, 1);
    assert_int_equal(ds.d[0].code, 201);
    assert_int_equal(ds.d[0].col, 24);
    assert_int_equal(res.plies, 3);
    /* Variations in variations, numbered from the move they replace. */
    assert_int_equal(check_text("1. i (+4) L (+6) (1... N (1... K (+1)) 2. d (+4)) *", &ds, &res), 0);
}

static void an_error_stops_the_line(void **state)
{
    (void)state;
    struct diags ds;
    pmn_check_result res;
    assert_int_equal(check_text("[Result \"1-0\"]\n1. i (+4) L (+6) 2. k J 3. a 1-0", &ds, &res), 1);
    assert_int_equal(ds.n, 1);                /* no result diagnostics: the end is unknown */
    assert_int_equal(ds.d[0].code, 201);
    assert_int_equal(res.plies, 2);
    assert_int_equal(res.unchecked, 2);   /* J and a, after k */
}

static void set_up_positions(void **state)
{
    (void)state;
    struct diags ds;
    pmn_check_result res;
    /* Problem 1 of the Mancala World page: its first move. */
    assert_int_equal(check_text("[Position \"0,0,0,0,0,0,0,0,1,0,0,1,0,0/1,0,2,1,0,0,0,0,1,1,1,1,1,0 S\"]\n"
                                "1. l (+1) *", &ds, &res), 0);
    assert_int_equal(ds.n, 0);
    /* North to move first: its move is numbered 1... */
    assert_int_equal(check_text("[Position \"2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 N\"]\n"
                                "1... I (+4) 2. l (+6) *", &ds, &res), 0);
    assert_int_equal(ds.n, 0);
    assert_int_equal(check_text("[Position \"2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 N\"]\n"
                                "1. I (+4) *", &ds, &res), 0);
    assert_int_equal(ds.n, 1);
    assert_int_equal(ds.d[0].code, 111);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sample_games),
        cmocka_unit_test(endless_loses_contradicts_the_draw),
        cmocka_unit_test(variations_are_replayed),
        cmocka_unit_test(an_error_stops_the_line),
        cmocka_unit_test(set_up_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
