/* test_position.c - position strings: round trips and rejections. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmn.h"

static const char opening[] = "2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S";

static void opening_position(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p, q;
    char buf[256];
    pmn_rules_init(&r, NULL, NULL);
    pmn_position_start(&r, &p);
    assert_int_equal(pmn_position_seeds(&r, &p, PMN_SOUTH), 28);
    assert_int_equal(pmn_position_seeds(&r, &p, PMN_NORTH), 28);
    assert_int_equal(pmn_position_format(&r, &p, buf, sizeof buf), strlen(opening));
    assert_string_equal(buf, opening);
    assert_int_equal(pmn_position_parse(&r, opening, &q, NULL), 0);
    assert_true(pmn_position_equal(&r, &p, &q));
}

static void round_trip(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "0,0,0,0,0,0,0,0,1,0,0,1,0,0/1,0,1,1,0,0,0,0,1,1,1,1,1,0 S",
        "3,3,0,3,3,0,3,3,1,3,3,3,3,0/2,0,2,2,2,2,2,2,2,2,2,2,0,2 N",
        "65535,0,0,0,0,0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0,0,0 N",
        "10,200,0,0,0,0,0,0,0,0,0,0,0,7/0,0,0,0,0,0,0,0,0,0,0,0,0,0 S",
    };
    pmn_rules r;
    pmn_rules_init(&r, NULL, NULL);
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        pmn_position p;
        char buf[256];
        assert_int_equal(pmn_position_parse(&r, texts[i], &p, NULL), 0);
        pmn_position_format(&r, &p, buf, sizeof buf);
        assert_string_equal(buf, texts[i]);
    }
}

static void format_truncates(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    char buf[10];
    pmn_rules_init(&r, NULL, NULL);
    pmn_position_start(&r, &p);
    assert_int_equal(pmn_position_format(&r, &p, buf, sizeof buf), strlen(opening));
    assert_string_equal(buf, "2,2,2,2,2");
}

struct bad { const char *text; int code; size_t column; const char *message; };

static void rejections(void **state)
{
    (void)state;
    static const struct bad bad[] = {
        { "", PMN_ERR_SYNTAX, 1, "expected the seed count of South's hole a, found the end of the string" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2 2,2,2,2,2,2,2,2,2,2,2,2,2,2 S", PMN_ERR_SYNTAX, 28,
          "expected '/' between South's and North's holes" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S", PMN_ERR_RANGE, 26,
          "South has 13 holes, expected 14" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S", PMN_ERR_RANGE, 29,
          "South has more than 14 holes" },
        { "2,2,x,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S", PMN_ERR_SYNTAX, 5,
          "expected the seed count of South's hole c, found another character" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,,2,2,2,2,2,2,2,2,2 S", PMN_ERR_SYNTAX, 37,
          "expected the seed count of North's hole E, found another character" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2", PMN_ERR_SYNTAX, 56,
          "expected a space and the side to move (S or N)" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 W", PMN_ERR_SYNTAX, 57,
          "expected the side to move, S or N" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S x", PMN_ERR_SYNTAX, 59,
          "expected the captured seeds, South:North" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S 1", PMN_ERR_SYNTAX, 60,
          "expected ':' between South's and North's captured seeds" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S 1:", PMN_ERR_SYNTAX, 61,
          "expected North's captured seeds after ':'" },
        { "2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S 1:2x", PMN_ERR_SYNTAX, 62,
          "unexpected text after the side to move" },
        { "99999,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S", PMN_ERR_RANGE, 1,
          "seed count of South's hole a is larger than 65535" },
        { "65535,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S", PMN_ERR_RANGE, 1,
          "the position holds 65589 seeds, more than 65535" },
        { "-1,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S", PMN_ERR_SYNTAX, 1,
          "expected the seed count of South's hole a, found another character" },
    };
    pmn_rules r;
    pmn_rules_init(&r, NULL, NULL);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pmn_position p, before;
        pmn_error err;
        pmn_position_start(&r, &p);
        before = p;
        assert_int_equal(pmn_position_parse(&r, bad[i].text, &p, &err), -1);
        assert_int_equal(err.code, bad[i].code);
        assert_int_equal(err.column, bad[i].column);
        assert_string_equal(err.message, bad[i].message);
        assert_memory_equal(&p, &before, sizeof p);   /* untouched on failure */
        /* A NULL error is allowed. */
        assert_int_equal(pmn_position_parse(&r, bad[i].text, &p, NULL), -1);
    }
}

/* A KGP board literal is the position it describes, stores as captures,
 * South to move unless said; a literal of another size is refused. */
static void kgp_board_literal(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position a, b;
    pmn_error err;
    assert_int_equal(pmn_rules_init(&r, "kalah", NULL), 0);
    assert_int_equal(pmn_position_parse(&r, "<6,1,2,4,4,4,4,4,0,5,5,4,4,4,3>", &a, &err), 0);
    assert_int_equal(pmn_position_parse(&r, "4,4,4,4,4,0/5,5,4,4,4,3 S 1:2", &b, &err), 0);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(pmn_position_parse(&r, "<6,1,2,4,4,4,4,4,0,5,5,4,4,4,3> N", &a, &err), 0);
    assert_int_equal(a.to_move, PMN_NORTH);
    assert_int_equal(pmn_position_parse(&r, "<4,0,0,1,1,1,1,1,1,1,1>", &a, &err), -1);
    assert_int_equal(err.column, 2);
    assert_int_equal(pmn_position_parse(&r, "<6,1,2,4,4>", &a, &err), -1);
    assert_int_equal(pmn_position_parse(&r, "<6,1,2,4,4,4,4,4,0,5,5,4,4,4,3", &a, &err), -1);
    assert_int_equal(pmn_position_parse(&r, "<6,1,2,4,4,4,4,4,0,5,5,4,4,4,3> X", &a, &err), -1);
    assert_int_equal(pmn_rules_init(&r, "oware", NULL), 0);
    assert_int_equal(pmn_position_parse(&r, "<6,24,0,0,0,0,0,0,12,0,0,0,0,0,12>", &a, &err), 0);
    assert_int_equal(a.captured[PMN_SOUTH], 24);
    assert_int_equal(a.pit[PMN_NORTH][5], 12);
}

/* Aualé's and PlayStrategy's FENs read, and each form written and read back
 * to the same position. */
static void other_programs_fens(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position a, b;
    pmn_error err;
    char buf[256];
    assert_int_equal(pmn_rules_init(&r, "oware", NULL), 0);
    assert_int_equal(pmn_position_parse(&r, "1,2,0,0,0,6/7,8,9,10,0,0 N 3:2", &a, &err), 0);
    assert_int_equal(pmn_position_parse(&r, "1-2-0-0-0-6-7-8-9-10-0-0-3-2-N", &b, &err), 0);
    assert_memory_equal(&a, &b, sizeof a);
    /* PlayStrategy: North's row a2-f2 is his holes F..A; "3" three empty. */
    assert_int_equal(pmn_position_parse(&r, "2,10S,9S,8S,7S/1S,2S,3,6S 3 2 N 17", &b, &err), 0);
    assert_memory_equal(&a, &b, sizeof a);
    static const pmn_position_form forms[] = { PMN_POSITION_PMN, PMN_POSITION_KGP,
                                               PMN_POSITION_OGN, PMN_POSITION_PLAYSTRATEGY };
    static const char *const texts[] = { "1,2,0,0,0,6/7,8,9,10,0,0 N 3:2",
                                         "<6,3,2,1,2,0,0,0,6,7,8,9,10,0,0> N",
                                         "1-2-0-0-0-6-7-8-9-10-0-0-3-2-N",
                                         "2,10S,9S,8S,7S/1S,2S,3,6S 3 2 N 1" };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        pmn_position_format_as(&r, &a, forms[i], buf, sizeof buf);
        assert_string_equal(buf, texts[i]);
        assert_int_equal(pmn_position_parse(&r, buf, &b, &err), 0);
        assert_memory_equal(&a, &b, sizeof a);
    }
    /* Faults, with their columns. */
    assert_int_equal(pmn_position_parse(&r, "1-2-0-0-0-6-7-8-9-10-0-0-3-N", &b, &err), -1);
    assert_int_equal(err.column, 28);
    assert_int_equal(pmn_position_parse(&r, "3S,5S/6 0 0 S 1", &b, &err), -1);
    assert_string_equal(err.message, "North's row has 2 holes, expected 6");
    assert_int_equal(pmn_position_parse(&r, "6/6 0 0 W 1", &b, &err), -1);
    assert_int_equal(err.column, 8);
}

static void board_diagram(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    char buf[1024];
    pmn_rules_init(&r, NULL, NULL);
    assert_int_equal(pmn_position_parse(&r, "0,1,2,3,4,5,6,7,8,9,10,11,12,13/14,15,16,17,18,19,20,21,22,23,24,25,26,27 N", &p, NULL), 0);
    pmn_board_format(&r, &p, buf, sizeof buf);
    assert_string_equal(buf,
        "        G  F  E  D  C  B  A\n"
        "North  20 19 18 17 16 15 14   back\n"
        "       21 22 23 24 25 26 27   front\n"
        "        H  I  J  K  L  M  N\n"
        "        n  m  l  k  j  i  h\n"
        "South  13 12 11 10  9  8  7   front\n"
        "        0  1  2  3  4  5  6   back\n"
        "        a  b  c  d  e  f  g\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(opening_position),
        cmocka_unit_test(round_trip),
        cmocka_unit_test(format_truncates),
        cmocka_unit_test(rejections),
        cmocka_unit_test(board_diagram),
        cmocka_unit_test(kgp_board_literal),
        cmocka_unit_test(other_programs_fens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
