/* test_writer.c - canonical PMN: round trips through every notation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "read.h"

static const char *const samples[] = {
    "samples/hawalis/tavares-gering-2009.pmn",
    "samples/hawalis/miumiu-rosenau-2009.pmn",
    "samples/hawalis/problem-1.pmn",
    "samples/hawalis/problem-2.pmn",
};

/* Canonical output converts to itself, byte for byte. */
static void canonical_is_a_fixed_point(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        char *text = slurp(samples[i]);
        assert_non_null(text);
        char *once = convert(text, PMN_NOTATION_LETTERS, '+');
        char *twice = convert(once, PMN_NOTATION_LETTERS, '+');
        assert_string_equal(once, twice);
        free(text);
        free(once);
        free(twice);
    }
}

/* From every notation to every other and back: nothing changes. */
static void every_pair_of_notations(void **state)
{
    (void)state;
    static const pmn_notation all[] = {
        PMN_NOTATION_LETTERS, PMN_NOTATION_NUMBERS, PMN_NOTATION_COORDINATES
    };
    for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
        char *text = slurp(samples[s]);
        assert_non_null(text);
        char *canonical = convert(text, PMN_NOTATION_LETTERS, '+');
        for (size_t a = 0; a < 3; a++)
            for (size_t b = 0; b < 3; b++) {
                char *in_a = convert(canonical, all[a], 'x');
                char *in_b = convert(in_a, all[b], '+');
                char *back = convert(in_b, PMN_NOTATION_LETTERS, '+');
                if (strcmp(back, canonical) != 0)
                    fail_msg("%s: %s -> %s -> letters changed the record", samples[s],
                             pmn_notation_name(all[a]), pmn_notation_name(all[b]));
                /* In its own notation, the converted text is canonical too. */
                char *again = convert(in_b, all[b], '+');
                assert_string_equal(again, in_b);
                free(in_a);
                free(in_b);
                free(back);
                free(again);
            }
        free(text);
        free(canonical);
    }
}

static void tags_in_canonical_order(void **state)
{
    (void)state;
    char *out = convert("[Zeta \"z\"]\n[North \"N. \\\"Quote\\\" \\\\ Back\"]\n[Result \"0-1\"]\n"
                        "[Position \"2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 N\"]\n"
                        "[Alpha \"a\"]\n[Zeta \"again\"]\n\n1... I (+4) *\n",
                        PMN_NOTATION_LETTERS, '+');
    assert_string_equal(out,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[South \"?\"]\n"
        "[North \"N. \\\"Quote\\\" \\\\ Back\"]\n[Result \"0-1\"]\n[Game \"Hawalis\"]\n"
        "[SetUp \"1\"]\n"
        "[Position \"2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 N\"]\n"
        "[Zeta \"z\"]\n[Alpha \"a\"]\n[Zeta \"again\"]\n\n"
        "1... I (+4) 0-1\n");
    free(out);
}

static void movetext_layout(void **state)
{
    (void)state;
    /* Numbers after comments and variations, ';' after full moves,
     * judgements and NAGs with their move, comments in braces. */
    char *out = convert("i (+4) {good}   L!? $1 (N {quieter} (K)) d (+6) J (infinite loop) 1-0",
                        PMN_NOTATION_LETTERS, '+');
    assert_string_equal(strstr(out, "\n\n") + 2,
        "1. i (+4) {good} 1... L!? $1 (1... N {quieter} (1... K)); 2. d (+6) J {infinite\n"
        "loop} 1-0\n");
    free(out);
}

static void lines_wrap_at_80(void **state)
{
    (void)state;
    char *text = slurp("samples/hawalis/tavares-gering-2009.pmn");
    assert_non_null(text);
    char *out = convert(text, PMN_NOTATION_COORDINATES, 'x');
    for (char *line = out; *line;) {
        size_t n = strcspn(line, "\n");
        assert_true(n <= 80);
        line += n + (line[n] == '\n');
    }
    free(text);
    free(out);
}

static void comment_with_a_brace(void **state)
{
    (void)state;
    /* A parenthesised comment may hold '}': braces hold it escaped, and
     * a backslash where it would read as an escape. */
    char *out = convert("1. i (+4) (a } b\\) *", PMN_NOTATION_LETTERS, '+');
    assert_non_null(strstr(out, "1. i (+4) {a \\} b\\\\} *"));
    char *again = convert(out, PMN_NOTATION_LETTERS, '+');
    assert_string_equal(out, again);
    free(out);
    free(again);
}

static void running_totals(void **state)
{
    (void)state;
    pmn_record rec;
    struct diags ds;
    assert_int_equal(read_games("1. i (4) L (6); 2. d (10) J (12); 3. i (12) H (12) "
                                "(3... N (14)) *", &rec, 1, &ds), 1);
    /* Without the option, (4) is free text: the totals need (+N). */
    pmn_record_free(&rec);
    assert_int_equal(read_games("1. i (+4) L (+6); 2. d (+10) J (+12); 3. i (+12) H (+12) "
                                "(3... N (+14)) *", &rec, 1, &ds), 1);
    pmn_record_totals_to_counts(&rec, collect, &ds);
    assert_int_equal(ds.n, 0);
    static const int counts[] = { 4, 6, 6, 6, 2, 0 };
    for (int i = 0; i < 6; i++)
        assert_int_equal(rec.main.moves[i].claim, counts[i]);
    /* A variation counts from the totals before the move it replaces. */
    assert_int_equal(rec.main.moves[5].variations[0].moves[0].claim, 2);
    pmn_record_free(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(canonical_is_a_fixed_point),
        cmocka_unit_test(every_pair_of_notations),
        cmocka_unit_test(tags_in_canonical_order),
        cmocka_unit_test(movetext_layout),
        cmocka_unit_test(lines_wrap_at_80),
        cmocka_unit_test(comment_with_a_brace),
        cmocka_unit_test(running_totals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
