/* test_svg.c - the board as SVG (svg.c): what a picture holds, its
 * marks, its text made safe for XML, and snprintf's contract. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmn.h"

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (; (s = strstr(s, what)) != NULL; s += strlen(what))
        n++;
    return n;
}

static char *draw(const pmn_rules *r, const pmn_position *p, const pmn_svg_options *o)
{
    size_t len = pmn_board_svg(r, p, o, NULL, 0);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    assert_int_equal(pmn_board_svg(r, p, o, buf, len + 1), len);
    assert_int_equal(strlen(buf), len);
    return buf;
}

static void holes_dots_and_counts(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    assert_int_equal(pmn_rules_init(&r, NULL, NULL), 0);
    pmn_position_start(&r, &p);   /* Hawalis: 2 in every hole */
    p.pit[PMN_SOUTH][0] = 13;     /* past the dots: its count in the hole */
    p.pit[PMN_SOUTH][1] = 0;
    char *svg = draw(&r, &p, NULL);
    assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""));
    assert_int_equal(count(svg, "<g class=\"hole "), 2 * r.pits);
    assert_int_equal(count(svg, "class=\"seed\""), 2 * (2 * r.pits - 2));
    assert_int_equal(count(svg, "class=\"many\">13<"), 1);
    assert_int_equal(count(svg, "class=\"count\">13<"), 1);
    assert_int_equal(count(svg, "class=\"count\">0<"), 1);
    assert_int_equal(count(svg, "class=\"count\">2<"), 2 * r.pits - 2);
    assert_non_null(strstr(svg, "<title>hawalis: South to move</title>"));
    assert_null(strstr(svg, "lifted\""));
    free(svg);
}

static void marks_and_stores(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_svg_options o;
    assert_int_equal(pmn_rules_builtin("kalah", &r), 0);
    pmn_position_start(&r, &p);
    p.captured[PMN_SOUTH] = 7;
    pmn_svg_options_init(&o);
    o.lifted_side = PMN_SOUTH;
    o.lifted_hole = 2;
    o.end_side = PMN_SOUTH;
    o.end_hole = -1;              /* the last seed in South's store */
    o.title = "<Ann> & \"Bo\" 'C'\x01";
    char *svg = draw(&r, &p, &o);
    assert_int_equal(count(svg, "<g class=\"hole "), 2 * r.pits);
    assert_int_equal(count(svg, "<g class=\"store "), 2);
    assert_int_equal(count(svg, "class=\"pit lifted\""), 1);
    assert_int_equal(count(svg, "class=\"pit last\""), 1);   /* the store */
    assert_non_null(strstr(svg, "class=\"many\">7<"));
    assert_non_null(strstr(svg, "its last seed in South's store"));
    assert_non_null(strstr(svg, "<title>&lt;Ann&gt; &amp; &quot;Bo&quot; &apos;C&apos;</title>"));
    free(svg);
}

/* For a page (html): no XML declaration; every hole, store and captured
 * total says its count in data-seeds, and a hole its side and index; the
 * dots of a hole grouped with their centre.  Not in a standalone picture,
 * where data-* is not SVG 1.1. */
static void html_data_attributes(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_svg_options o;
    assert_int_equal(pmn_rules_init(&r, "kalah", NULL), 0);
    pmn_position_start(&r, &p);
    p.pit[PMN_NORTH][5] = 9;
    p.captured[PMN_NORTH] = 3;
    pmn_svg_options_init(&o);
    char *plain = draw(&r, &p, &o);
    assert_int_equal(count(plain, "data-"), 0);
    assert_non_null(strstr(plain, "<?xml"));
    free(plain);
    o.html = 1;
    char *svg = draw(&r, &p, &o);
    assert_null(strstr(svg, "<?xml"));
    assert_int_equal(count(svg, "data-seeds="), 12 + 2);
    assert_int_equal(count(svg, "data-hole="), 12);
    assert_int_equal(count(svg, "<g class=\"seeds\" data-x="), 12);
    assert_non_null(strstr(svg, "data-side=\"1\" data-hole=\"5\" data-seeds=\"9\""));
    assert_non_null(strstr(svg, "<g class=\"store north\" data-side=\"1\" data-seeds=\"3\""));
    free(svg);
    /* Hawalis: no stores, its captured totals carry the counts. */
    assert_int_equal(pmn_rules_init(&r, "hawalis", NULL), 0);
    pmn_position_start(&r, &p);
    p.captured[PMN_SOUTH] = 4;
    svg = draw(&r, &p, &o);
    assert_int_equal(count(svg, "data-seeds="), 28 + 2);
    assert_non_null(strstr(svg, "class=\"captured\" data-side=\"0\" data-seeds=\"4\">4<"));
    free(svg);
}

static void truncated_as_snprintf(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    char small[64];
    assert_int_equal(pmn_rules_builtin("oware", &r), 0);
    pmn_position_start(&r, &p);
    size_t len = pmn_board_svg(&r, &p, NULL, NULL, 0);
    assert_true(len > sizeof small);
    assert_int_equal(pmn_board_svg(&r, &p, NULL, small, sizeof small), len);
    assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(holes_dots_and_counts),
        cmocka_unit_test(marks_and_stores),
        cmocka_unit_test(truncated_as_snprintf),
        cmocka_unit_test(html_data_attributes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
