/* test_rules.c - rule sets and their specifications. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pmn.h"

static void defaults(void **state)
{
    (void)state;
    pmn_rules r;
    char buf[128];
    assert_int_equal(pmn_rules_init(&r, NULL, NULL), 0);
    assert_string_equal(r.name, "hawalis");
    assert_int_equal(r.pits, 14);
    assert_int_equal(r.rows * r.holes_per_row, r.pits);
    assert_int_equal(r.seeds, 2);
    assert_int_equal(r.capture, PMN_CAPTURE_FRONT_AND_BACK);
    assert_int_equal(r.endless, PMN_ENDLESS_DRAW);
    pmn_rules_format(&r, buf, sizeof buf);
    assert_string_equal(buf, "hawalis,capture=front-and-back,endless=draw");
}

static void options(void **state)
{
    (void)state;
    pmn_rules r;
    char buf[128];
    assert_int_equal(pmn_rules_init(&r, "hawalis,endless=lose", NULL), 0);
    assert_int_equal(r.endless, PMN_ENDLESS_MOVER_LOSES);
    assert_int_equal(r.capture, PMN_CAPTURE_FRONT_AND_BACK);
    assert_int_equal(pmn_rules_apply(&r, "capture=front", NULL), 0);
    assert_int_equal(r.capture, PMN_CAPTURE_FRONT_ONLY);
    assert_int_equal(r.endless, PMN_ENDLESS_MOVER_LOSES);   /* kept */
    pmn_rules_format(&r, buf, sizeof buf);
    assert_string_equal(buf, "hawalis,capture=front,endless=lose");
    /* Naming the set again starts from its defaults. */
    assert_int_equal(pmn_rules_apply(&r, "hawalis", NULL), 0);
    assert_int_equal(r.capture, PMN_CAPTURE_FRONT_AND_BACK);
    /* The formatted form reads back to the same rules. */
    pmn_rules q;
    assert_int_equal(pmn_rules_init(&q, "capture=front,endless=lose", NULL), 0);
    pmn_rules_format(&q, buf, sizeof buf);
    assert_int_equal(pmn_rules_init(&r, buf, NULL), 0);
    assert_memory_equal(&q, &r, sizeof q);
}

static void errors(void **state)
{
    (void)state;
    static const struct { const char *spec; int code; size_t column; const char *message; } bad[] = {
        { "kalah", PMN_ERR_UNKNOWN, 1, "unknown rule set 'kalah' (known: hawalis)" },
        { "hawalis,endless=win", PMN_ERR_UNKNOWN, 17,
          "unknown value 'win' for rule option endless (values: draw, lose)" },
        { "hawalis,sowing=fast", PMN_ERR_UNKNOWN, 9,
          "unknown rule option 'sowing' (options: capture, endless)" },
        { "hawalis,,endless=draw", PMN_ERR_SYNTAX, 9, "empty item in rule specification" },
        { "endless=draw,hawalis", PMN_ERR_SYNTAX, 14,
          "'hawalis' is not an option of the form KEY=VALUE" },
        { "capture=", PMN_ERR_UNKNOWN, 9,
          "unknown value '' for rule option capture (values: front-and-back, front)" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pmn_rules r;
        pmn_error err;
        assert_int_equal(pmn_rules_init(&r, bad[i].spec, &err), -1);
        assert_int_equal(err.code, bad[i].code);
        assert_int_equal(err.column, bad[i].column);
        assert_string_equal(err.message, bad[i].message);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),
        cmocka_unit_test(options),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
