/* test_rules.c - rule sets and their specifications. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pmn.h"
#include "lib/xml/rulefile.h"

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
    assert_int_equal(r.cycle, PMN_CYCLE_OWN_ROWS);
    assert_int_equal(r.goal, PMN_GOAL_IMMOBILISE);
    /* The formatted form names only what differs from the named set. */
    pmn_rules_format(&r, buf, sizeof buf);
    assert_string_equal(buf, "hawalis");
}

static void options(void **state)
{
    (void)state;
    pmn_rules r;
    char buf[512];
    assert_int_equal(pmn_rules_init(&r, "hawalis,endless=lose", NULL), 0);
    assert_int_equal(r.endless, PMN_ENDLESS_MOVER_LOSES);
    assert_int_equal(r.capture, PMN_CAPTURE_FRONT_AND_BACK);
    assert_int_equal(pmn_rules_apply(&r, "capture=front", NULL), 0);
    assert_int_equal(r.capture, PMN_CAPTURE_FRONT_ONLY);
    assert_int_equal(r.endless, PMN_ENDLESS_MOVER_LOSES);   /* kept */
    pmn_rules_format(&r, buf, sizeof buf);
    assert_string_equal(buf, "hawalis,capture=front,endless=lose");
    assert_int_equal(pmn_rules_value_name(&r, "capture", buf, sizeof buf), 5);
    assert_string_equal(buf, "front");
    assert_int_equal(pmn_rules_value_name(&r, "holes", buf, sizeof buf), 1);
    assert_string_equal(buf, "7");
    assert_int_equal(pmn_rules_value_name(&r, "colour", buf, sizeof buf), -1);
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
        { "bao", PMN_ERR_UNKNOWN, 1,
          "unknown rule set 'bao' (known: hawalis, kalah, oware, awale, awari-lincke, anywoli)" },
        { "hawalis,endless=win", PMN_ERR_UNKNOWN, 17,
          "unknown value 'win' for rule option endless (values: draw, lose)" },
        { "hawalis,,endless=draw", PMN_ERR_SYNTAX, 9, "empty item in rule specification" },
        { "endless=draw,hawalis", PMN_ERR_SYNTAX, 14,
          "'hawalis' is not an option of the form KEY=VALUE, nor a program's reading (openspiel, playstrategy, ludii, vying)" },
        { "capture=", PMN_ERR_UNKNOWN, 9,
          "unknown value '' for rule option capture (values: front-and-back, front, opposite, "
          "opposite-always, two-three, fours, none, one-two-three)" },
        { "kalah,holes=x", PMN_ERR_SYNTAX, 13, "rule option holes takes a number, not 'x'" },
        { "kalah,holes=40", PMN_ERR_RANGE, 13, "rule option holes is 40, outside 1..32" },
        { "kalah(6)", PMN_ERR_SYNTAX, 6, "expected (HOLES,SEEDS) after 'kalah'" },
        /* Combinations the engine cannot play. */
        { "kalah,capture=front", PMN_ERR_RANGE, 0, "capture=front needs cycle=own-rows" },
        { "hawalis,capture=two-three", PMN_ERR_RANGE, 0, "capture=two-three needs cycle=both-sides" },
        { "hawalis,stores=yes", PMN_ERR_RANGE, 0, "stores=yes needs cycle=both-sides" },
        { "hawalis,rows=1", PMN_ERR_RANGE, 0, "cycle=own-rows needs rows=2" },
        { "kalah,laps=relay", PMN_ERR_RANGE, 0, "laps=relay cannot go with stores=yes" },
        { "oware,extra=store", PMN_ERR_RANGE, 0, "extra=store needs stores=yes" },
        { "kalah,last-seeds=lottery", PMN_ERR_RANGE, 0, "last-seeds=lottery needs capture=fours" },
        { "anywoli,feed=yes", PMN_ERR_RANGE, 0, "feed=yes needs laps=single" },
        { "kalah,no-move=loses", PMN_ERR_RANGE, 0, "no-move=loses needs goal=immobilise" },
        { "kalah,min-lift=2", PMN_ERR_RANGE, 0, "min-lift above 1 needs cycle=own-rows" },
        { "kalah,seeds=6000", PMN_ERR_RANGE, 0, "more than 65535 seeds in all" },
        { "hawalis,sowing=fast", PMN_ERR_UNKNOWN, 9, "unknown rule option 'sowing' (the options: "
          "rows, holes, seeds, min-lift, cycle, laps, stores, skip-origin, singleton, capture, "
          "extra, feed, grand-slam, goal, majority, no-move, either-empty, last-seeds, "
          "majority-sweep, repetition, repetition-one-side, endless; pmn rules options says "
          "what each does)" },
        { "oware,majorty=no", PMN_ERR_UNKNOWN, 7, "unknown rule option 'majorty'; did you mean "
          "'majority'?" },
        { "kalh", PMN_ERR_UNKNOWN, 1, "unknown rule set 'kalh'; did you mean 'kalah'? (known: "
          "hawalis, kalah, oware, awale, awari-lincke, anywoli)" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pmn_rules r;
        pmn_error err;
        assert_int_equal(pmn_rules_init(&r, bad[i].spec, &err), -1);
        assert_string_equal(err.message, bad[i].message);
        assert_int_equal(err.code, bad[i].code);
        assert_int_equal(err.column, bad[i].column);
    }
}

/* Each built-in set is the game its source describes. */
/* Other programs' readings: names in a specification, over the rules in
 * force, and what each sets. */
static void readings(void **state)
{
    (void)state;
    pmn_rules r, o;
    pmn_error err;
    assert_int_equal(pmn_rules_init(&r, "oware,openspiel", &err), 0);
    assert_string_equal(r.name, "oware");
    assert_int_equal(r.majority_sweep, 1);
    assert_int_equal(pmn_rules_builtin("oware", &o), 0);
    o.majority_sweep = 1;
    assert_memory_equal(&r, &o, sizeof r);
    /* Alone: over whatever rules are in force (each record's own). */
    assert_int_equal(pmn_rules_builtin("oware", &r), 0);
    assert_int_equal(pmn_rules_apply(&r, "playstrategy", &err), 0);
    assert_string_equal(r.name, "oware");
    assert_int_equal(r.one_side_plays_on, 1);
    assert_int_equal(r.repetition, PMN_REPETITION_OWN_SIDE);
    assert_int_equal(pmn_rules_apply(&r, "ludii", &err), 0);
    assert_int_equal(r.repetition, PMN_REPETITION_PLAYS_ON);
    char buf[256];
    pmn_rules_format(&r, buf, sizeof buf);
    assert_string_equal(buf, "oware,repetition=plays-on,repetition-one-side=plays-on");
    /* Every reading applies to every built-in set. */
    for (size_t i = 0; pmn_rules_reading(i); i++) {
        const pmn_reading *g = pmn_rules_reading(i);
        assert_ptr_equal(pmn_rules_reading_named(g->name, strlen(g->name)), g);
        const char *games[] = { "hawalis", "kalah", "oware", "awale", "anywoli" };
        for (size_t k = 0; k < sizeof games / sizeof games[0]; k++) {
            char spec[64];
            snprintf(spec, sizeof spec, "%s,%s", games[k], g->name);
            assert_int_equal(pmn_rules_init(&r, spec, &err), 0);
        }
    }
    assert_null(pmn_rules_reading(4));
    assert_null(pmn_rules_reading_named("lichess", 7));
    assert_int_equal(pmn_rules_init(&r, "oware,lichess", &err), -1);
    assert_int_equal(err.column, 7);
    /* One hole a side: only in one row. */
    assert_int_equal(pmn_rules_init(&r, "kalah,holes=1", &err), 0);
    assert_int_equal(r.pits, 1);
    assert_int_equal(pmn_rules_init(&r, "hawalis,holes=1", &err), -1);
    assert_string_equal(err.message, "rows of one hole need rows=1");
}

static void builtins(void **state)
{
    (void)state;
    pmn_rules r;
    char names[128];
    pmn_rules_builtin_names(names, sizeof names);
    assert_string_equal(names, "hawalis, kalah, oware, awale, awari-lincke, anywoli");

    assert_int_equal(pmn_rules_init(&r, "kalah", NULL), 0);
    assert_int_equal(r.pits, 6);
    assert_int_equal(r.seeds, 4);
    assert_true(r.stores);
    assert_int_equal(r.capture, PMN_CAPTURE_OPPOSITE);
    assert_int_equal(r.extra, PMN_EXTRA_STORE);
    assert_true(r.either_empty);
    assert_int_equal(pmn_rules_init(&r, "kalah(6,3)", NULL), 0);
    assert_int_equal(r.seeds, 3);
    assert_int_equal(pmn_rules_init(&r, "kalah(4,5),capture=opposite-always", NULL), 0);
    assert_int_equal(r.pits, 4);
    assert_int_equal(r.seeds, 5);
    assert_int_equal(r.capture, PMN_CAPTURE_OPPOSITE_ALWAYS);

    assert_int_equal(pmn_rules_init(&r, "oware", NULL), 0);
    assert_true(r.skip_origin && r.feed && r.majority);
    assert_int_equal(r.grand_slam, PMN_GRAND_SLAM_NO_CAPTURE);
    assert_int_equal(r.repetition, PMN_REPETITION_OWN_SIDE);
    pmn_rules abapa;
    assert_int_equal(pmn_rules_init(&abapa, "abapa", NULL), 0);
    assert_memory_equal(&abapa, &r, sizeof r);
    assert_int_equal(pmn_rules_init(&r, "awale", NULL), 0);
    assert_int_equal(r.grand_slam, PMN_GRAND_SLAM_REFUSED);
    assert_int_equal(r.repetition, PMN_REPETITION_UNCOUNTED);

    assert_int_equal(pmn_rules_init(&r, "anywoli", NULL), 0);
    assert_int_equal(r.pits, 12);
    assert_int_equal(r.laps, PMN_LAPS_RELAY);
    assert_int_equal(r.capture, PMN_CAPTURE_FOURS);
    assert_int_equal(r.extra, PMN_EXTRA_CAPTURE);
    assert_int_equal(r.no_move, PMN_NO_MOVE_PASS);
}

static void count_diag(void *ctx, const pmn_diag *d)
{
    int *codes = ctx;
    codes[codes[0]++ + 1] = d->code;
}

/* The built-in sets are read without the schema at run time: here they are
 * validated against it, and read back to the same rules. */
static void builtin_files_are_valid(void **state)
{
    (void)state;
    const pmn_rule_file *f;
    size_t i;
    for (i = 0; (f = pmn_rule_file_builtin(i)) != NULL; i++) {
        int codes[16] = { 0 };
        const char *xml = pmn_rule_file_builtin_xml(i);
        pmn_rule_file *g = pmn_rule_file_parse(xml, strlen(xml), "builtin", count_diag, codes);
        assert_non_null(g);
        assert_int_equal(codes[0], 0);
        assert_memory_equal(pmn_rule_file_rules(g), pmn_rule_file_rules(f), sizeof(pmn_rules));
        assert_non_null(pmn_rule_file_text(g, 0, "fr"));
        assert_non_null(pmn_rule_file_text(g, 1, "en"));
        pmn_rule_file_free(g);
    }
    assert_int_equal(i, 6);
}

/* The engine plays the built-in sets from specifications made from the
 * rule files: each must give exactly what its file says, and playing one
 * must not need the XML. */
static void builtin_specs_match_their_files(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    assert_int_equal(pmn_rules_init(&r, "kalah,capture=opposite-always", NULL), 0);
    pmn_position_start(&r, &p);
    assert_true(pmn_perft(&r, &p, 3, NULL, NULL) > 0);
    assert_int_equal(rulefile_loaded(), 0);
    const pmn_rule_file *f;
    size_t i;
    for (i = 0; (f = pmn_rule_file_builtin(i)) != NULL; i++) {
        const pmn_rules *from_file = pmn_rule_file_rules(f);
        assert_int_equal(pmn_rules_builtin(from_file->name, &r), 0);
        assert_memory_equal(&r, from_file, sizeof r);
    }
    assert_int_equal(rulefile_loaded(), 1);
    char names[128];
    pmn_rules_builtin_names(names, sizeof names);
    assert_string_equal(names, "hawalis, kalah, oware, awale, awari-lincke, anywoli");
}

static void bad_rule_files(void **state)
{
    (void)state;
    static const struct { const char *xml; int code; } bad[] = {
        { "<rules", 401 },
        { "<?xml version=\"1.0\"?>\n<!DOCTYPE rules SYSTEM \"http://example.org/x.dtd\">\n<rules/>",
          401 },
        { "<rules xmlns=\"urn:x-pmn:rules:1\" name=\"x\"><title xml:lang=\"en\">X</title>"
          "<board/><sowing/><capture/><colour/><end/></rules>", 402 },
        { "<rules xmlns=\"urn:x-pmn:rules:1\" name=\"x\"><title xml:lang=\"en\">X</title>"
          "<board seeds=\"70000\"/><sowing/><capture/><end/></rules>", 403 },
        { "<rules xmlns=\"urn:x-pmn:rules:1\" name=\"x\"><title xml:lang=\"en\">X</title>"
          "<board/><sowing/><capture kind=\"front\"/><end/></rules>", 404 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int codes[16] = { 0 };
        assert_null(pmn_rule_file_parse(bad[i].xml, strlen(bad[i].xml), "bad", count_diag, codes));
        assert_true(codes[0] >= 1);
        assert_int_equal(codes[1], bad[i].code);
    }
    /* The defaults make a playable game: a bare board is sown, no capture. */
    const char *bare = "<rules xmlns=\"urn:x-pmn:rules:1\" name=\"bare\"><title xml:lang=\"en\">B"
                       "</title><board/><sowing/><capture/><end/></rules>";
    pmn_rule_file *f = pmn_rule_file_parse(bare, strlen(bare), "bare", NULL, NULL);
    assert_non_null(f);
    assert_string_equal(pmn_rule_file_rules(f)->name, "bare");
    assert_int_equal(pmn_rule_file_rules(f)->pits, 6);
    assert_null(pmn_rule_file_text(f, 1, "en"));
    pmn_rule_file_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),
        cmocka_unit_test(options),
        cmocka_unit_test(errors),
        cmocka_unit_test(readings),
        cmocka_unit_test(builtins),
        cmocka_unit_test(builtin_specs_match_their_files),
        cmocka_unit_test(builtin_files_are_valid),
        cmocka_unit_test(bad_rule_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
