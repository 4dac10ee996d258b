/* test_lexer.c - the tokens of PMN text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lib/records/lexer.h"
#include "lib/records/heading.h"

struct expect {
    enum token_type type;
    const char *text;     /* the token as written */
    unsigned line, col;
    unsigned long value;
};

static void expect_tokens(const char *text, const struct expect *e, size_t n)
{
    struct lexer lx;
    struct token t;
    assert_int_equal(lexer_init(&lx, text, strlen(text), 1), 0);
    for (size_t i = 0; i < n; i++) {
        lexer_next(&lx, &t);
        if (t.type != e[i].type)
            fail_msg("token %zu ('%s'): type %d, expected %d", i, e[i].text, t.type, e[i].type);
        assert_int_equal(t.len, strlen(e[i].text));
        assert_memory_equal(text + t.off, e[i].text, t.len);
        assert_int_equal(t.line, e[i].line);
        assert_int_equal(t.col, e[i].col);
        if (e[i].value)
            assert_int_equal(t.value, e[i].value);
    }
    lexer_next(&lx, &t);
    assert_int_equal(t.type, T_EOF);
    lexer_free(&lx);
}

static void movetext_tokens(void **state)
{
    (void)state;
    static const struct expect e[] = {
        { T_NUMBER, "1.", 1, 1, 1 },
        { T_HOLE, "i", 1, 4, 0 },
        { T_CAPTURE, "(+4)", 1, 6, 4 },
        { T_HOLE, "L", 1, 11, 0 },
        { T_JUDGEMENT, "!?", 1, 12, 0 },
        { T_NAG, "$14", 1, 15, 14 },
        { T_SEMI, ";", 1, 18, 0 },
        { T_NUMBER, "13...", 2, 1, 13 },
        { T_HOLE, "A", 2, 7, 0 },
        { T_CAPTURE, "( x 12 )", 2, 9, 12 },
        { T_COMMENT, "{two\nlines}", 2, 18, 0 },
        { T_LPAREN, "(", 3, 8, 0 },
        { T_WORD, "infinite", 3, 9, 0 },
        { T_WORD, "loop", 3, 18, 0 },
        { T_RPAREN, ")", 3, 22, 0 },
        { T_RESULT, "1/2-1/2", 3, 24, 0 },
        { T_RESULT, "1-0", 3, 32, 0 },
        { T_RESULT, "*", 3, 36, 0 },
    };
    expect_tokens("1. i (+4) L!? $14;\n13... A ( x 12 ) {two\nlines} (infinite loop) 1/2-1/2 1-0 *",
                  e, sizeof e / sizeof e[0]);
}

static void tags(void **state)
{
    (void)state;
    static const char text[] = "[Event \"The \\\"Cup\\\"\"]\n[Bad tag]\n[Date\t\"2009.06.11\"]";
    static const struct expect e[] = {
        { T_TAG, "[Event \"The \\\"Cup\\\"\"]", 1, 1, 0 },
        { T_BAD_TAG, "[Bad tag]", 2, 1, 0 },
        { T_TAG, "[Date\t\"2009.06.11\"]", 3, 1, 0 },
    };
    expect_tokens(text, e, 3);
    struct lexer lx;
    struct token t;
    lexer_init(&lx, text, strlen(text), 1);
    lexer_next(&lx, &t);
    assert_int_equal(t.a.len, 5);
    assert_memory_equal(text + t.a.off, "Event", 5);
    assert_int_equal(t.b.len, strlen("The \\\"Cup\\\""));
    lexer_free(&lx);
}

static void words_and_boundaries(void **state)
{
    (void)state;
    /* A letter glued to other letters or digits is a word, not a hole; a
     * result needs a boundary too. */
    static const struct expect e[] = {
        { T_WORD, "ab", 1, 1, 0 },
        { T_HOLE_COORD, "i4", 1, 4, 0 },
        { T_HOLE_NUMBER, "1", 1, 7, 1 },
        { T_JOIN, "-", 1, 8, 0 },
        { T_WORD, "0x", 1, 9, 0 },
        { T_HOLE, "k", 1, 12, 0 },
        { T_JUDGEMENT, "?", 1, 13, 0 },
        { T_HOLE_NUMBER, "13", 1, 15, 13 },
        { T_WORD, "13x", 1, 18, 0 },
        { T_WORD, "a12", 1, 22, 0 },
        { T_OPEN_COMMENT, "{never closed", 1, 26, 0 },
    };
    expect_tokens("ab i4 1-0x k? 13 13x a12 {never closed", e, sizeof e / sizeof e[0]);
}

static void turns_and_ply_lists(void **state)
{
    (void)state;
    static const struct expect e[] = {
        { T_HOLE_NUMBER, "4", 1, 1, 4 },
        { T_JUDGEMENT, "!", 1, 2, 0 },
        { T_SLASH, "/", 1, 3, 0 },
        { T_HOLE_NUMBER, "7", 1, 4, 7 },
        { T_JOIN, "-", 1, 5, 0 },
        { T_HOLE_NUMBER, "12", 1, 6, 12 },
        { T_SLASH, "/", 1, 8, 0 },
        { T_HOLE, "a", 1, 10, 0 },
        { T_JOIN, "-", 1, 11, 0 },
        { T_HOLE, "b", 1, 12, 0 },
        { T_RESULT, "1-0", 1, 14, 0 },
        { T_RESULT, "1/2-1/2", 1, 18, 0 },
    };
    expect_tokens("4!/7-12/ a-b 1-0 1/2-1/2", e, sizeof e / sizeof e[0]);
}

static void columns_count_characters(void **state)
{
    (void)state;
    /* "é" is two bytes of UTF-8 but one column. */
    static const struct expect e[] = {
        { T_COMMENT, "{é}", 1, 1, 0 },
        { T_HOLE, "i", 1, 5, 0 },
    };
    expect_tokens("{é} i", e, 2);
}

static void parentheses(void **state)
{
    (void)state;
    static const struct { const char *text; int comment, closed; size_t end; } cases[] = {
        { "(infinite loop) i", 1, 1, 15 },
        { "(1... N (1... M) K) i", 0, 1, 19 },
        { "(good (very)) i", 1, 1, 13 },
        { "(1... N", 0, 0, 7 },
        { "(never closed", 1, 0, 13 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lexer lx;
        struct token t;
        size_t end;
        int closed;
        lexer_init(&lx, cases[i].text, strlen(cases[i].text), 1);
        lexer_next(&lx, &t);
        assert_int_equal(t.type, T_LPAREN);
        assert_int_equal(lexer_paren_is_comment(&lx, &end, &closed), cases[i].comment);
        assert_int_equal(closed, cases[i].closed);
        assert_int_equal(end, cases[i].end);
        /* Probing does not move the lexer. */
        lexer_next(&lx, &t);
        assert_int_equal(t.off, 1);
        lexer_free(&lx);
    }
}

static void starts_at_a_line(void **state)
{
    (void)state;
    struct lexer lx;
    struct token t;
    lexer_init(&lx, "\n\n  i", 5, 40);
    lexer_next(&lx, &t);
    assert_int_equal(t.type, T_HOLE);
    assert_int_equal(t.line, 42);
    assert_int_equal(t.col, 3);
    lexer_free(&lx);
}

/* Lex text both by the hand path and by the pattern alone: every token
 * must be the same, its place, value and spans included. */
static void quick_agrees(const char *text, size_t len)
{
    struct lexer quick, slow;
    struct token a, b;
    lexer_init(&quick, text, len, 1);
    lexer_init(&slow, text, len, 1);
    slow.quick = 0;
    do {
        lexer_next(&quick, &a);
        lexer_next(&slow, &b);
        int valued = a.type == T_NUMBER || a.type == T_CAPTURE;
        if (a.type != b.type || a.off != b.off || a.len != b.len || a.line != b.line
            || a.col != b.col || (valued && a.value != b.value)
            || (a.type == T_NUMBER && a.dots != b.dots)
            || (a.type == T_CAPTURE && (a.style != b.style || a.b.len != b.b.len))
            || (a.type == T_TAG && (a.a.off != b.a.off || a.a.len != b.a.len
                                    || a.b.off != b.b.off || a.b.len != b.b.len)))
            fail_msg("'%.*s': at %zu, quick token %d (len %zu), pattern token %d (len %zu)",
                     (int)len, text, a.off, a.type, a.len, b.type, b.len);
    } while (a.type != T_EOF);
    lexer_free(&quick);
    lexer_free(&slow);
}

/* The tokens taken by hand are exactly those the pattern would give. */
static void quick_path_agrees_with_the_pattern(void **state)
{
    (void)state;
    static const char alphabet[] = "aAnNzZ19.;()[]{}!?$+x-/* \n\t\r\f\v\"_e"
                                   "\xc2\xa0\xc2\xa0\xe2\x80\x89\xef\xbb\xbf"
                                   "0123456789((.+x) \xc2\xb9\xe2\x80\xa0"
                                   "[[[\"\"\"]]]\\\\ Ev_1\xe2\x80\x9c";
    char text[64];
    unsigned long seed = 7;
    for (int trial = 0; trial < 40000; trial++) {
        size_t len = (size_t)(trial % 40) + 1;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            text[i] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
        }
        quick_agrees(text, len);
    }
}

/* Tag pairs assembled from likely parts, well-formed or not: the hand path
 * takes exactly what the pattern takes. */
static void quick_tags_agree_with_the_pattern(void **state)
{
    (void)state;
    static const char *const parts[][6] = {
        { "[", "[ ", "[\t", "[\xc2\xa0", "", "[[" },
        { "Event", "South_2", "", "a b", "\xc3\xa9", "X" },
        { " ", "\t ", "", "\xc2\xa0", "  ", " " },
        { "\"", "\xe2\x80\x9c", "\"", "'", "\"", "\"" },
        { "Club", "a \\\" b", "\\\\", "\xe2\x80\x9cx\xe2\x80\x9d", "", "line\nbreak" },
        { "\"]", "\" ]", "\"\t]", "\xe2\x80\x9d]", "\"", "\"]x" },
    };
    char text[128];
    for (int k = 0; k < 6 * 6 * 6 * 6 * 6 * 6; k++) {
        int c = k;
        text[0] = '\0';
        for (int p = 0; p < 6; p++) {
            strcat(text, parts[p][c % 6]);
            c /= 6;
        }
        strcat(text, " 1. i");
        quick_agrees(text, strlen(text));
    }
}

/* Text as web pages print it. */
static void web_text_tokens(void **state)
{
    (void)state;
    static const struct expect e[] = {
        { T_TAG, "[South \xe2\x80\x9cMiceu\xe2\x80\x9d]", 1, 2, 0 },
        { T_NUMBER, "1.", 2, 1, 1 },
        { T_HOLE, "i", 2, 4, 0 },               /* after a no-break space */
        { T_CAPTURE, "(x1 a)", 2, 6, 1 },
        { T_HOLE, "L", 2, 13, 0 },              /* after a thin space */
        { T_CAPTURE, "(+4)\xc2\xb9", 2, 15, 4 },
        { T_WORD, "\xc2\xbd", 2, 21, 0 },       /* a half alone is no result */
        { T_RESULT, "1\xe2\x80\x93" "0", 2, 23, 0 },
        { T_RESULT, "\xc2\xbd-\xc2\xbd", 2, 27, 0 },
    };
    expect_tokens("\xef\xbb\xbf[South \xe2\x80\x9cMiceu\xe2\x80\x9d]\n"
                  "1.\xc2\xa0i (x1 a)\xe2\x80\x89L (+4)\xc2\xb9 \xc2\xbd 1\xe2\x80\x93" "0 "
                  "\xc2\xbd-\xc2\xbd", e, sizeof e / sizeof *e);
}

static void headings(void **state)
{
    (void)state;
    struct heading h;
    const char *line = "Miceu Tavares (Portugal) - Ralf Gering (Germany), June 11, 2009";
    assert_int_equal(heading_parse(line, strlen(line), &h), 0);
    assert_string_equal(h.south, "Miceu Tavares");
    assert_string_equal(h.north, "Ralf Gering");
    assert_string_equal(h.south_country, "Portugal");
    assert_string_equal(h.north_country, "Germany");
    assert_string_equal(h.date, "2009.06.11");
    line = "\"miumiu\" vs. Benedikt Rosenau, 29 Jun 2009";
    assert_int_equal(heading_parse(line, strlen(line), &h), 0);
    assert_string_equal(h.south, "miumiu");
    assert_string_equal(h.north, "Benedikt Rosenau");
    assert_string_equal(h.south_country, "");
    assert_string_equal(h.date, "2009.06.29");
    /* Prose, or a heading without a date, is no heading. */
    static const char *const not_headings[] = {
        "The board position repeats after the 77th lap.",
        "Miceu Tavares - Ralf Gering",
        "South to move wins! (Ralf Gering, 2008)",
        "A - B, the 31st of Smarch",
    };
    for (size_t i = 0; i < sizeof not_headings / sizeof *not_headings; i++)
        assert_int_equal(heading_parse(not_headings[i], strlen(not_headings[i]), &h), -1);
    char date[11];
    static const char *const dates[][2] = {
        { "2009-06-11", "2009.06.11" }, { "2009.06.11", "2009.06.11" },
        { "June 2009", "2009.06.??" }, { "2008", "2008.??.??" }, { "Sept. 3, 2010", NULL },
        { "Sep. 3, 2010", "2010.09.03" }, { "June 31x, 2009", NULL }, { "2009-13-01", NULL },
    };
    for (size_t i = 0; i < sizeof dates / sizeof *dates; i++) {
        int rc = heading_date(dates[i][0], strlen(dates[i][0]), date);
        if (!dates[i][1]) {
            assert_int_equal(rc, -1);
            continue;
        }
        assert_int_equal(rc, 0);
        assert_string_equal(date, dates[i][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(movetext_tokens),
        cmocka_unit_test(tags),
        cmocka_unit_test(words_and_boundaries),
        cmocka_unit_test(turns_and_ply_lists),
        cmocka_unit_test(columns_count_characters),
        cmocka_unit_test(parentheses),
        cmocka_unit_test(starts_at_a_line),
        cmocka_unit_test(quick_path_agrees_with_the_pattern),
        cmocka_unit_test(web_text_tokens),
        cmocka_unit_test(quick_tags_agree_with_the_pattern),
        cmocka_unit_test(headings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
