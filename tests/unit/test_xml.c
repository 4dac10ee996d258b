/* test_xml.c - XML archives: round trips, validation, hostile input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "read.h"

/* Export the games of PMN text; returns the archive, malloc'd. */
static char *export(const char *pmn, struct diags *ds)
{
    pmn_record recs[8];
    char *xml = NULL;
    size_t size = 0;
    int n = read_games(pmn, recs, 8, ds);
    FILE *f = open_memstream(&xml, &size);
    pmn_xml_writer *w = pmn_xml_writer_new(f);
    assert_non_null(w);
    for (int i = 0; i < n; i++) {
        pmn_setup s;
        assert_int_equal(pmn_setup_record(&recs[i], NULL, &s, NULL, NULL), PMN_SETUP_READY);
        pmn_replay *r = pmn_replay_new(&recs[i], &s, collect, ds);
        assert_non_null(r);
        assert_int_equal(pmn_xml_write_game(w, &recs[i], r, collect, ds), 0);
        pmn_replay_free(r);
    }
    assert_int_equal(pmn_xml_writer_close(w), 0);
    fclose(f);
    free_games(recs, n);
    return xml;
}

/* Import an archive and write its games as canonical PMN. */
static char *import(const char *xml, int validate, struct diags *ds)
{
    FILE *in = fmemopen((void *)xml, strlen(xml), "r");
    char *pmn = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&pmn, &size);
    pmn_write_options o;
    pmn_record rec;
    int n = 0;
    pmn_write_options_init(&o);
    memset(ds, 0, sizeof *ds);
    pmn_xml_reader *x = pmn_xml_reader_new(in, "test.xml", validate, collect, ds);
    assert_non_null(x);
    while (pmn_xml_reader_next(x, &rec) > 0) {
        if (n++)
            fputc('\n', out);
        assert_int_equal(pmn_write_record(out, &rec, NULL, &o), 0);
        pmn_record_free(&rec);
    }
    pmn_xml_reader_free(x);
    fclose(out);
    fclose(in);
    return pmn;
}

static void round_trip_with_everything(void **state)
{
    (void)state;
    /* Tags with quotes, ampersands and angles; comments; judgements; NAGs;
     * nested variations; a set-up position; numbers notation. */
    static const char text[] =
        "[Event \"<A & B> \\\"Cup\\\"\"]\n[Annotator \"R\\u00e9my\"]\n"
        "[Position \"0,0,0,0,0,0,0,0,1,0,0,1,0,0/1,0,2,1,0,0,0,0,1,1,1,1,1,0 S\"]\n\n"
        "{lead & <comment>} 1. 5! (x1) $3 {good} (1. 2? (x3) (1. 5 (x1) 10) 4 (x1)) 1... 10; "
        "2. 2 (x1) 11 *\n";
    struct diags ds;
    char *xml = export(text, &ds);
    assert_int_equal(ds.n, 0);
    char *back = import(xml, 1, &ds);
    assert_int_equal(ds.n, 0);
    char *expect = convert(text, PMN_NOTATION_LETTERS, '+');
    assert_string_equal(back, expect);
    /* The engine's facts are there, and marked. */
    assert_non_null(strstr(xml, "<computed captured=\"1\" laps=\"1\" end=\"m\"/>"));
    assert_non_null(strstr(xml, "&lt;A &amp; B&gt; &quot;Cup&quot;"));
    free(xml);
    free(back);
    free(expect);
}

static void samples_round_trip_and_validate(void **state)
{
    (void)state;
    static const char *const samples[] = {
        "samples/hawalis/tavares-gering-2009.pmn", "samples/hawalis/miumiu-rosenau-2009.pmn",
        "samples/hawalis/problem-1.pmn", "samples/hawalis/problem-2.pmn",
    };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        struct diags ds;
        char *text = slurp(samples[i]);
        assert_non_null(text);
        char *xml = export(text, &ds);
        char *back = import(xml, 1, &ds);
        assert_int_equal(ds.n, 0);          /* valid against the built-in schema */
        char *expect = convert(text, PMN_NOTATION_LETTERS, '+');
        assert_string_equal(back, expect);
        free(text);
        free(xml);
        free(back);
        free(expect);
    }
}

static void endless_move_proof_is_exported(void **state)
{
    (void)state;
    struct diags ds;
    char *text = slurp("samples/hawalis/miumiu-rosenau-2009.pmn");
    assert_non_null(text);
    char *xml = export(text, &ds);
    assert_non_null(strstr(xml, "loop-lap=\"77\" loop-from=\"0\" rotated-lap=\"11\" "
                                "rotated-from=\"0\" ending=\"endless\" outcome=\"1/2-1/2\""));
    free(text);
    free(xml);
}

static void text_xml_cannot_hold(void **state)
{
    (void)state;
    struct diags ds;
    char *xml = export("[Event \"caf\xe9\"]\n1. i (+4) {a \x01 b} *\n", &ds);
    assert_int_equal(ds.n, 1);
    assert_int_equal(ds.d[0].code, 301);
    assert_non_null(strstr(xml, "caf\xEF\xBF\xBD"));
    char *back = import(xml, 1, &ds);         /* and it is well-formed */
    assert_int_equal(ds.n, 0);
    assert_non_null(strstr(back, "{a \xEF\xBF\xBD b}"));
    free(xml);
    free(back);
}

static void doctype_refused_even_far_in(void **state)
{
    (void)state;
    /* A prolog longer than the scanner's block, the declaration across a
     * block boundary: still refused, nothing expanded. */
    size_t pad = 4090;
    char *xml = malloc(pad + 512);
    strcpy(xml, "<?xml version=\"1.0\"?>\n<!--");
    size_t n = strlen(xml);
    memset(xml + n, 'x', pad - n);
    strcpy(xml + pad, "--><!DOCTYPE pmn [<!ENTITY a \"aaaa\">]>\n"
                      "<pmn version=\"1\" xmlns=\"urn:x-pmn:archive:1\"><game>"
                      "<tag name=\"Event\">&a;</tag><moves/></game></pmn>\n");
    struct diags ds;
    char *back = import(xml, 0, &ds);
    assert_int_equal(ds.n, 1);
    assert_int_equal(ds.d[0].code, 303);
    assert_int_equal(ds.d[0].line, 2);
    assert_string_equal(back, "");
    free(xml);
    free(back);
}

static void schema_is_built_in(void **state)
{
    (void)state;
    const char *s = pmn_xml_schema();
    assert_non_null(strstr(s, "<grammar"));
    assert_non_null(strstr(s, PMN_XML_NS));
    assert_non_null(strstr(s, "<value>\?\?</value>"));   /* escaped, not a trigraph */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_with_everything),
        cmocka_unit_test(samples_round_trip_and_validate),
        cmocka_unit_test(endless_move_proof_is_exported),
        cmocka_unit_test(text_xml_cannot_hold),
        cmocka_unit_test(doctype_refused_even_far_in),
        cmocka_unit_test(schema_is_built_in),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
