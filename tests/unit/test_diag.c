/* test_diag.c - the table of diagnostics, and a fixture for each code. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "pmn.h"

static void codes_are_unique_and_named(void **state)
{
    (void)state;
    size_t n;
    const pmn_diag_info *t = pmn_diag_table(&n);
    char name[8];
    assert_true(n > 20);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++)
            assert_int_not_equal(t[i].code, t[j].code);
        assert_ptr_equal(pmn_diag_lookup(t[i].code), &t[i]);
        assert_true(strlen(t[i].summary) > 5);
        pmn_diag_code_name(t[i].code, name);
        assert_int_equal(name[0], "NWEF"[t[i].severity]);
        assert_int_equal(atoi(name + 1), t[i].code);
    }
    assert_null(pmn_diag_lookup(999));
    pmn_diag_code_name(201, name);
    assert_string_equal(name, "E201");
    assert_string_equal(pmn_severity_string(PMN_WARNING), "warning");
}

/* Every code is triggered by a fixture of the command-line tests, except
 * running out of memory, which no fixture can arrange. */
static void every_code_has_a_fixture(void **state)
{
    (void)state;
    const char *top = getenv("top_srcdir");
    size_t n;
    const pmn_diag_info *t = pmn_diag_table(&n);
    for (size_t i = 0; i < n; i++) {
        char name[8], path[1024];
        struct stat st;
        if (t[i].code == 2)
            continue;
        pmn_diag_code_name(t[i].code, name);
        snprintf(path, sizeof path, "%s/tests/cli/diag-%s/err", top ? top : ".", name);
        if (stat(path, &st) != 0)
            fail_msg("no fixture for %s (%s): %s", name, t[i].summary, path);
    }
}

/* Controls (C0, DEL, C1) and bytes that are not UTF-8 are escaped; text
 * around them, accented letters included, is kept as it is. */
static void text_is_escaped_for_a_terminal(void **state)
{
    char buf[128];
    (void)state;
    assert_int_equal(pmn_text_escape("plain caf\xc3\xa9", buf, sizeof buf), 11);
    assert_string_equal(buf, "plain caf\xc3\xa9");
    pmn_text_escape("a\x1b[2Jb\x07", buf, sizeof buf);
    assert_string_equal(buf, "a\\x1b[2Jb\\x07");
    pmn_text_escape("csi \xc2\x9b and del \x7f", buf, sizeof buf);
    assert_string_equal(buf, "csi \\u009b and del \\x7f");
    pmn_text_escape("bad \xff\xc3(", buf, sizeof buf);
    assert_string_equal(buf, "bad \\xff\\xc3(");
    /* Cut to the buffer as snprintf does, and the length needed returned. */
    assert_int_equal(pmn_text_escape("\x1b\x1b", buf, 5), 8);
    assert_string_equal(buf, "\\x1b");
}

/* A game's diagnostics, found in two passes, come out in file order: by
 * line and column, those of no line last, ties as found; a repeat of the
 * same words at the same place, and the schema's E307 where E305 or E306
 * said the line's fault, are dropped. */
static void a_game_in_file_order(void **state)
{
    (void)state;
    static const struct { int code; unsigned line, col; const char *msg; } found[] = {
        { PMN_E110, 9, 4, "second pass" },
        { PMN_W118, 0, 0, "no line" },
        { PMN_E305, 5, 2, "reader" },
        { PMN_E110, 3, 7, "a" },
        { PMN_E307, 5, 9, "schema" },
        { PMN_E110, 3, 7, "b" },
        { PMN_E110, 3, 7, "a" },
        { PMN_E307, 6, 1, "schema alone" },
        { PMN_N133, 0, 0, "no line either" },
    };
    static const char *const want[] = { "a", "b", "reader", "schema alone", "second pass",
                                         "no line", "no line either" };
    pmn_diag d[9];
    size_t n = sizeof found / sizeof found[0];
    for (size_t i = 0; i < n; i++)
        pmn_diag_make(&d[i], (pmn_diag_code)found[i].code, found[i].line, found[i].col, "%s",
                      found[i].msg);
    size_t kept = pmn_diags_in_file_order(d, n);
    assert_int_equal(kept, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < kept; i++)
        assert_string_equal(d[i].message, want[i]);
    assert_int_equal(pmn_diags_in_file_order(d, 0), 0);
    assert_int_equal(pmn_diags_in_file_order(d, 1), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(codes_are_unique_and_named),
        cmocka_unit_test(every_code_has_a_fixture),
        cmocka_unit_test(text_is_escaped_for_a_terminal),
        cmocka_unit_test(a_game_in_file_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
