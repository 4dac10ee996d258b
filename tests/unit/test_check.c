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

/* convert --fix mends a slip of case, and only where the replay proves it:
 * not a move whose number names its letter's side (a move left out before
 * it), nor one after which the replay stops again at once. */
static int fix_text(const char *text, pmn_record *rec, struct diags *ds)
{
    struct diags rd;
    assert_int_equal(read_games(text, rec, 1, &rd), 1);
    pmn_setup s;
    pmn_setup_record(rec, NULL, &s, NULL, NULL);
    memset(ds, 0, sizeof *ds);
    return pmn_record_fix(rec, &s, collect, ds);
}

static void fixes_only_what_the_replay_proves(void **state)
{
    (void)state;
    struct diags ds;
    pmn_record rec;
    assert_int_equal(fix_text("1. I (+4) L (+6); 2. d (+6) J (+6) *", &rec, &ds), 1);
    assert_string_equal(rec.main.moves[0].text, "i");
    assert_int_equal(ds.d[0].code, 131);
    pmn_record_free(&rec);
    /* North's move 1 left out: "2. d" is South's by its number and its
     * letter; D would be legal, but that is no slip. */
    assert_int_equal(fix_text("1. i (+4); 2. d (+6) J (+6) *", &rec, &ds), 0);
    assert_string_equal(rec.main.moves[1].text, "d");
    assert_int_equal(ds.n, 0);
    pmn_record_free(&rec);
    /* Unnumbered, the same: D then J, North twice, stops at once. */
    assert_int_equal(fix_text("1. i (+4) d (+6) J (+6) *", &rec, &ds), 0);
    assert_string_equal(rec.main.moves[1].text, "d");
    pmn_record_free(&rec);
    /* The tournament game with North's 28... F left out: no fix at all
     * (it made eight, a different game). */
    char *text = slurp("samples/hawalis/tavares-gering-2009.pmn");
    assert_non_null(text);
    char *f = strstr(text, "28. n F;");
    assert_non_null(f);
    memmove(f + 5, f + 7, strlen(f + 7) + 1);
    assert_int_equal(fix_text(text, &rec, &ds), 0);
    assert_int_equal(ds.n, 0);
    pmn_record_free(&rec);
    free(text);
}

/* A problem whose moves are not Hawalis's, in a record that names no game:
 * W225 (it may be another game's) beside N215; named, N215 alone. */
static void unnamed_game_not_hawalis(void **state)
{
    (void)state;
    static const char *const text[] = {
        "South to play and win!\n\n4/2/3/4/7/3/6/7/5/6/4/5/8 and South wins.\n",
        "[Game \"Hawalis\"]\nSouth to play and win!\n\n4/2/3/4/7/3/6/7/5/6/4/5/8 and South wins.\n",
    };
    for (int named = 0; named < 2; named++) {
        pmn_record rec;
        struct diags rd, ds = { .n = 0 };
        assert_int_equal(read_games(text[named], &rec, 1, &rd), 1);
        pmn_setup s;
        pmn_setup_record(&rec, NULL, &s, NULL, NULL);
        assert_int_equal(s.assumed, !named);
        pmn_replay_free(pmn_replay_new(&rec, &s, collect, &ds));
        int w225 = 0, n215 = 0;
        for (int i = 0; i < ds.n && i < MAX_DIAGS; i++) {
            w225 += ds.d[i].code == 225;
            n215 += ds.d[i].code == 215;
        }
        assert_int_equal(w225, !named);
        assert_int_equal(n215, 1);
        pmn_record_free(&rec);
    }
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

/* Read one game and set it up with o. */
static pmn_setup_status set_up(const char *text, const pmn_setup_options *o, pmn_setup *s,
                               struct diags *ds)
{
    pmn_record rec;
    struct diags rd;
    assert_int_equal(read_games(text, &rec, 1, &rd), 1);
    memset(ds, 0, sizeof *ds);
    int status = pmn_setup_record(&rec, o, s, collect, ds);
    pmn_record_free(&rec);
    assert_int_equal(status, s->status);
    return s->status;
}

/* Hawalis, then the tags or a rule file in their place, then the options. */
static void setup_order(void **state)
{
    (void)state;
    struct diags ds;
    pmn_setup s;
    pmn_rules file;
    const char *endless_lose[] = { "endless=lose" };
    const char *capture_front[] = { "capture=front" };
    pmn_setup_options over = { NULL, endless_lose, 1, NULL, NULL, 0 };
    pmn_setup_options bad = { NULL, capture_front, 1, NULL, NULL, 0 };

    assert_int_equal(set_up("1. i *", NULL, &s, &ds), PMN_SETUP_READY);
    assert_string_equal(s.rules.name, "hawalis");
    assert_int_equal(s.start.to_move, PMN_SOUTH);

    assert_int_equal(set_up("[Game \"Kalah\"]\n[Rules \"seeds=3\"]\n1. a *", &over, &s, &ds),
                     PMN_SETUP_READY);
    assert_string_equal(s.rules.name, "kalah");
    assert_int_equal(s.rules.seeds, 3);
    assert_int_equal(s.rules.endless, PMN_ENDLESS_MOVER_LOSES);
    assert_int_equal(s.start.pit[PMN_NORTH][0], 3);

    /* A rule file replaces the tags, even ones that name no rules. */
    assert_int_equal(pmn_rules_init(&file, "oware", NULL), 0);
    pmn_setup_options replace = { &file, endless_lose, 1, NULL, NULL, 0 };
    assert_int_equal(set_up("[Game \"Nonesuch\"]\n1. a *", &replace, &s, &ds), PMN_SETUP_READY);
    assert_string_equal(s.rules.name, "oware");
    assert_int_equal(ds.n, 0);

    assert_int_equal(set_up("[Game \"Nonesuch\"]\n1. a *", NULL, &s, &ds),
                     PMN_SETUP_UNKNOWN_RULES);
    assert_int_equal(ds.d[0].code, PMN_E108);
    assert_string_equal(s.rules.name, "hawalis");

    assert_int_equal(set_up("[Game \"Kalah\"]\n1. a *", &bad, &s, &ds), PMN_SETUP_UNKNOWN_RULES);
    assert_int_equal(ds.n, 1);
    assert_int_equal(ds.d[0].code, PMN_E405);
    assert_int_equal(ds.d[0].severity, PMN_ERROR);

    /* The side to move of a Position tag that also gives captured counts. */
    assert_int_equal(set_up("[Game \"Kalah\"]\n[Position \"4,4,4,4,4,4/4,4,4,4,4,4 N 0:0\"]\n"
                            "1... A *", NULL, &s, &ds), PMN_SETUP_READY);
    assert_int_equal(s.start.to_move, PMN_NORTH);
    assert_int_equal(set_up("[Position \"2,2\"]\n1. a *", NULL, &s, &ds), PMN_SETUP_BAD_START);
    assert_int_equal(ds.d[0].code, PMN_E114);
    assert_int_equal(set_up("[SetUp \"1\"]\n1. a *", NULL, &s, &ds), PMN_SETUP_NO_START);
    assert_int_equal(ds.d[0].code, PMN_N215);

    /* --position: the start of a record that gives none, a KGP literal's
     * holes with it; a record's own Position stays its own. */
    pmn_setup_options start = { NULL, NULL, 0, "<2,0,0,1,1,1,1> N", NULL, 0 };
    assert_int_equal(set_up("[Game \"Kalah\"]\n1... A *", &start, &s, &ds), PMN_SETUP_READY);
    assert_int_equal(s.rules.pits, 2);
    assert_int_equal(s.start.to_move, PMN_NORTH);
    assert_int_equal(set_up("[SetUp \"1\"]\n[Position \"?\"]\n[Game \"Kalah\"]\n1... A *",
                            &start, &s, &ds), PMN_SETUP_READY);
    assert_int_equal(s.start.pit[PMN_SOUTH][1], 1);
    assert_int_equal(set_up("[Game \"Kalah\"]\n[Position \"4,4,4,4,4,4/4,4,4,4,4,4 S\"]\n1. a *",
                            &start, &s, &ds), PMN_SETUP_READY);
    assert_int_equal(s.rules.pits, 6);
    pmn_setup_options wrong = { NULL, NULL, 0, "2,2", NULL, 0 };
    assert_int_equal(set_up("1. a *", &wrong, &s, &ds), PMN_SETUP_BAD_START);
    assert_int_equal(ds.d[0].code, PMN_E114);
}

/* What the replay keeps beside each move: here a Kalah game whose first
 * move earns a second sowing written as a move of its own, a pass-free
 * turn order, and a variation. */
static void replay_kept_as_data(void **state)
{
    (void)state;
    pmn_record rec;
    struct diags rd, ds;
    pmn_setup s;
    assert_int_equal(read_games("[Game \"Kalah\"]\n1. c a A (1... B); 2. b *", &rec, 1, &rd), 1);
    memset(&ds, 0, sizeof ds);
    assert_int_equal(pmn_setup_record(&rec, NULL, &s, collect, &ds), 0);
    pmn_replay *r = pmn_replay_new(&rec, &s, collect, &ds);
    assert_non_null(r);
    const pmn_played_line *l = pmn_replay_main(r);
    assert_int_equal(l->nmoves, 4);
    /* c, then a: the same move (W218 says it was not joined) */
    assert_int_equal(l->moves[0].number, 1);
    assert_true(l->moves[0].report.extra);
    assert_int_equal(l->moves[1].continues, 1);
    assert_int_equal(l->moves[1].turn, 0);
    assert_int_equal(l->moves[1].mover, PMN_SOUTH);
    assert_int_equal(l->moves[1].ply, 1);
    /* A: North's move 1, and its variation B the same */
    assert_int_equal(l->moves[2].mover, PMN_NORTH);
    assert_int_equal(l->moves[2].number, 1);
    assert_int_equal(l->moves[2].turn, 1);
    assert_int_equal(l->moves[2].nvariations, 1);
    const pmn_played *b = &l->moves[2].variations[0].moves[0];
    assert_true(b->replayed);
    assert_int_equal(b->number, 1);
    assert_int_equal(b->mover, PMN_NORTH);
    assert_int_equal(b->after.pit[PMN_NORTH][1], 0);
    /* b: South's move 2, its position kept */
    assert_int_equal(l->moves[3].number, 2);
    assert_int_equal(l->moves[3].mover, PMN_SOUTH);
    assert_memory_equal(&l->moves[3].after, &pmn_replay_result(r)->end, sizeof(pmn_position));
    const pmn_check_result *res = pmn_replay_result(r);
    assert_int_equal(res->plies, 4);
    assert_int_equal(res->moves, 3);
    assert_int_equal(res->written, 3);
    assert_true(pmn_replay_complete(r));
    assert_int_equal(ds.n, 1);
    assert_int_equal(ds.d[0].code, PMN_W218);
    pmn_replay_free(r);
    pmn_record_free(&rec);
}

static void move_numbers(void **state)
{
    (void)state;
    assert_int_equal(pmn_move_number(PMN_SOUTH, 0), 1);
    assert_int_equal(pmn_move_number(PMN_SOUTH, 1), 1);
    assert_int_equal(pmn_move_number(PMN_SOUTH, 2), 2);
    assert_int_equal(pmn_move_number(PMN_NORTH, 0), 1);
    assert_int_equal(pmn_move_number(PMN_NORTH, 1), 2);
}

/* pmn check as a library (pmn_checker): each game with what check says of
 * it -- proved by the quick pass or replayed, its diagnostics in file order,
 * counted -- a game skipped unsaid, the input's own note (N133) apart. */
static void checker_says_what_check_says(void **state)
{
    (void)state;
    char *sample = slurp("samples/hawalis/tavares-gering-2009.pmn");
    assert_non_null(sample);
    const char *bad = "\n[Event \"bad\"]\n\n1. z *\n\n[Event \"worse\"]\n\n1. y (+3) *\n";
    size_t n = strlen(sample) + strlen(bad);
    char *text = malloc(n + 1);
    assert_non_null(text);
    strcpy(text, sample);
    strcat(text, bad);
    for (int quick = 0; quick < 2; quick++) {
        FILE *f = fmemopen(text, n, "r");
        struct diags input;
        memset(&input, 0, sizeof input);
        pmn_check_options o = { .source = { .format = PMN_SOURCE_AUTO }, .quick = quick,
                                .proved_tags = 1 };
        pmn_checker *c = pmn_checker_new(f, &o, collect, &input);
        pmn_checked_game g;
        assert_non_null(c);
        assert_int_equal(pmn_checker_next(c, &g), 1);
        assert_int_equal(g.number, 1);
        assert_int_equal(g.proved, quick);
        assert_true(quick ? g.replay == NULL : g.replay != NULL);
        assert_int_equal(g.ndiags, 0);
        assert_int_equal(g.facts.outcome, PMN_NORTH_WINS);
        assert_true(g.ntags >= 7);
        assert_string_equal(g.tags[0].name, "Event");
        pmn_checked_game_free(&g);
        assert_int_equal(pmn_checker_skip(c), 1);   /* "bad": unsaid */
        assert_int_equal(pmn_checker_next(c, &g), 1);
        assert_int_equal(g.number, 3);
        assert_int_equal(g.proved, 0);
        assert_true(g.ndiags >= 1);
        assert_int_equal(g.diags[0].code, PMN_E110);
        for (size_t i = 1; i < g.ndiags; i++)
            assert_true(g.diags[i - 1].line <= g.diags[i].line);
        assert_int_equal(g.count[PMN_ERROR] + g.count[PMN_WARNING] + g.count[PMN_NOTE]
                             + g.count[PMN_FATAL],
                         g.ndiags);
        pmn_checked_game_free(&g);
        assert_int_equal(pmn_checker_next(c, &g), 0);
        assert_int_equal(input.n, 0);
        pmn_checker_free(c);
        fclose(f);
    }
    free(text);
    free(sample);

    /* Another program's notation, found and said apart from the games. */
    static const char ogn[] = "[Variant \"Oware Abapa\"]\n\n1. D d\n";
    FILE *f = fmemopen((void *)ogn, sizeof ogn - 1, "r");
    struct diags input;
    memset(&input, 0, sizeof input);
    pmn_checker *c = pmn_checker_new(f, NULL, collect, &input);
    pmn_checked_game g;
    assert_int_equal(input.n, 1);
    assert_int_equal(input.d[0].code, PMN_N133);
    assert_int_equal(pmn_source_format(pmn_checker_source(c)),
                     PMN_SOURCE_FOREIGN + PMN_FORMAT_OGN);
    assert_int_equal(pmn_checker_next(c, &g), 1);
    assert_non_null(g.replay);
    assert_int_equal(g.facts.moves, 2);
    pmn_checked_game_free(&g);
    assert_int_equal(pmn_checker_next(c, &g), 0);
    pmn_checker_free(c);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sample_games),
        cmocka_unit_test(endless_loses_contradicts_the_draw),
        cmocka_unit_test(variations_are_replayed),
        cmocka_unit_test(an_error_stops_the_line),
        cmocka_unit_test(fixes_only_what_the_replay_proves),
        cmocka_unit_test(unnamed_game_not_hawalis),
        cmocka_unit_test(set_up_positions),
        cmocka_unit_test(setup_order),
        cmocka_unit_test(replay_kept_as_data),
        cmocka_unit_test(move_numbers),
        cmocka_unit_test(checker_says_what_check_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
