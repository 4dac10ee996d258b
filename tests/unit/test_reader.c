/* test_reader.c - the parser and the streaming reader: records as written. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "read.h"

static void tags_and_moves(void **state)
{
    (void)state;
    static const char text[] =
        "[Event \"The \\\"Cup\\\"\"]\n"
        "[South \"Miceu Tavares\"]\n"
        "\n"
        "{Before the first move} 1. i (+4) L! (+6) $3 {after L}; 2. d (xl) J?;\n"
        "13... A! (infinite loop) 0-1\n";
    pmn_record rec[2];
    struct diags ds;
    assert_int_equal(read_games(text, rec, 2, &ds), 1);
    assert_int_equal(rec[0].ntags, 2);
    assert_string_equal(pmn_record_tag(&rec[0], "Event"), "The \"Cup\"");
    assert_string_equal(pmn_record_tag(&rec[0], "South"), "Miceu Tavares");
    assert_null(pmn_record_tag(&rec[0], "North"));
    assert_int_equal(rec[0].tags[1].line, 2);
    assert_int_equal(rec[0].tags[1].value_col, 9);

    const pmn_line *l = &rec[0].main;
    assert_int_equal(l->nlead, 1);
    assert_string_equal(l->lead[0], "Before the first move");
    assert_int_equal(l->nmoves, 5);
    assert_string_equal(l->moves[0].text, "i");
    assert_int_equal(l->moves[0].side, PMN_SOUTH);
    assert_int_equal(l->moves[0].hole, 8);
    assert_int_equal(l->moves[0].number, 1);
    assert_int_equal(l->moves[0].number_dots, 1);
    assert_int_equal(l->moves[0].claim, 4);
    assert_int_equal(l->moves[0].claim_style, '+');
    assert_int_equal(l->moves[0].claim_line, 4);
    assert_int_equal(l->moves[0].claim_col, 30);
    assert_string_equal(l->moves[1].judgement, "!");
    assert_int_equal(l->moves[1].claim, 6);
    assert_int_equal(l->moves[1].nnags, 1);
    assert_int_equal(l->moves[1].nags[0], 3);
    assert_int_equal(l->moves[1].ncomments, 1);
    assert_string_equal(l->moves[1].comments[0], "after L");
    assert_int_equal(l->moves[1].number, 0);
    /* "(xl)" is no capture count: free text, kept as a comment of d. */
    assert_int_equal(l->moves[2].claim, -1);
    assert_int_equal(l->moves[2].ncomments, 1);
    assert_string_equal(l->moves[2].comments[0], "xl");
    assert_string_equal(l->moves[3].judgement, "?");
    assert_int_equal(l->moves[4].side, PMN_NORTH);
    assert_int_equal(l->moves[4].number, 13);
    assert_int_equal(l->moves[4].number_dots, 3);
    assert_int_equal(l->moves[4].line, 5);
    assert_int_equal(l->moves[4].col, 7);
    assert_string_equal(l->moves[4].comments[0], "infinite loop");
    assert_string_equal(rec[0].result, "0-1");
    assert_int_equal(rec[0].result_line, 5);
    assert_int_equal(ds.n, 0);
    free_games(rec, 1);
}

static void variations_nest(void **state)
{
    (void)state;
    static const char text[] =
        "1. i (+4) L (+6) (1... N {a quieter move} (1... K); 2. d); 2. d (+6) *";
    pmn_record rec[1];
    struct diags ds;
    assert_int_equal(read_games(text, rec, 1, &ds), 1);
    const pmn_line *l = &rec[0].main;
    assert_int_equal(l->nmoves, 3);
    assert_int_equal(l->moves[1].nvariations, 1);
    const pmn_line *v = &l->moves[1].variations[0];
    assert_int_equal(v->nmoves, 2);
    assert_string_equal(v->moves[0].text, "N");
    assert_string_equal(v->moves[0].comments[0], "a quieter move");
    assert_int_equal(v->moves[0].nvariations, 1);
    assert_string_equal(v->moves[0].variations[0].moves[0].text, "K");
    assert_string_equal(v->moves[1].text, "d");
    assert_string_equal(l->moves[2].text, "d");
    assert_string_equal(rec[0].result, "*");
    assert_int_equal(ds.n, 0);
    free_games(rec, 1);
}

/* A variation after a turn of several sowings replaces the whole turn
 * (its first sowing's), unless it opens with '-', which replaces only the
 * sowing before it. */
static void variations_of_a_turn(void **state)
{
    (void)state;
    static const char text[] = "[Game \"Kalah\"]\n\n"
                               "1. c-e (1. d) (-f) (1. b) B-C; 2. b (2. a) -d *";
    pmn_record rec[1];
    struct diags ds;
    assert_int_equal(read_games(text, rec, 1, &ds), 1);
    const pmn_line *l = &rec[0].main;
    assert_int_equal(l->nmoves, 6);
    assert_false(l->moves[0].joined);
    assert_true(l->moves[1].joined);
    /* (the two of the turn in the order written) */
    assert_int_equal(l->moves[0].nvariations, 2);
    assert_string_equal(l->moves[0].variations[0].moves[0].text, "d");
    assert_string_equal(l->moves[0].variations[1].moves[0].text, "b");
    assert_int_equal(l->moves[1].nvariations, 1);
    assert_true(l->moves[1].variations[0].moves[0].joined);
    assert_string_equal(l->moves[1].variations[0].moves[0].text, "f");
    assert_int_equal(l->moves[4].nvariations, 1);   /* before the '-': the first's */
    assert_string_equal(l->moves[4].variations[0].moves[0].text, "a");
    free_games(rec, 1);
}

static void games_one_at_a_time(void **state)
{
    (void)state;
    /* Tags after movetext open a new game; so does movetext after a result.
     * A '[' inside a comment opens nothing. */
    static const char text[] =
        "[Event \"one\"]\n1. i (+4) L (+6)\n{a comment that\n[spans] lines}\n"
        "[Event \"two\"]\n1. h (+4) K (+6) 1-0\n1. a 0-1\n\n\n"
        "[Event \"four\"]\n\n1. b *\n";
    pmn_record rec[5];
    struct diags ds;
    assert_int_equal(read_games(text, rec, 5, &ds), 4);
    assert_string_equal(pmn_record_tag(&rec[0], "Event"), "one");
    assert_int_equal(rec[0].main.nmoves, 2);
    assert_string_equal(rec[0].main.moves[1].comments[0], "a comment that\n[spans] lines");
    assert_string_equal(rec[0].result, "");
    assert_string_equal(pmn_record_tag(&rec[1], "Event"), "two");
    assert_string_equal(rec[1].result, "1-0");
    assert_int_equal(rec[1].line, 5);
    assert_int_equal(rec[2].ntags, 0);
    assert_int_equal(rec[2].main.nmoves, 1);
    assert_int_equal(rec[2].line, 7);
    assert_int_equal(rec[2].col, 1);
    assert_string_equal(rec[2].result, "0-1");
    assert_string_equal(pmn_record_tag(&rec[3], "Event"), "four");
    assert_int_equal(rec[3].line, 10);
    assert_int_equal(rec[3].main.moves[0].line, 12);
    assert_int_equal(ds.n, 1);                  /* the first game has no result */
    assert_int_equal(ds.d[0].code, 118);
    assert_int_equal(ds.d[0].line, 5);
    free_games(rec, 4);
}

static void faults_are_reported_and_the_rest_kept(void **state)
{
    (void)state;
    static const char text[] =
        "[South Tavares]\n"
        "1. i (+4) what? L (+6)) $2 (+6);\n"
        "2. d {never closed\n";
    pmn_record rec[1];
    struct diags ds;
    assert_int_equal(read_games(text, rec, 1, &ds), 1);
    assert_int_equal(ds.n, 5);
    assert_int_equal(ds.d[0].code, 105);
    assert_int_equal(ds.d[0].line, 1);
    assert_int_equal(ds.d[1].code, 101);            /* what? */
    assert_int_equal(ds.d[1].col, 11);
    assert_int_equal(ds.d[2].code, 104);            /* the stray ')' */
    assert_int_equal(ds.d[2].col, 23);
    assert_int_equal(ds.d[3].code, 106);            /* a second capture count */
    assert_int_equal(ds.d[4].code, 102);
    assert_int_equal(ds.d[4].line, 3);
    /* What could be read is kept. */
    assert_int_equal(rec[0].main.nmoves, 3);
    assert_int_equal(rec[0].main.moves[1].claim, 6);
    assert_int_equal(rec[0].main.moves[1].nnags, 1);
    assert_string_equal(rec[0].main.moves[2].comments[0], "never closed");
    free_games(rec, 1);
}

static void empty_input(void **state)
{
    (void)state;
    pmn_record rec[1];
    struct diags ds;
    assert_int_equal(read_games("", rec, 1, &ds), 0);
    assert_int_equal(read_games("\n\n   \n", rec, 1, &ds), 0);
    assert_int_equal(ds.n, 0);
}

/* Memory does not grow with the number of games: the reader's buffer holds
 * one game, whatever the length of the stream. */
static void many_games_stream(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    for (int i = 0; i < 20000; i++)
        fprintf(f, "[Round \"%d\"]\n1. i (+4) L (+6); 2. d (+6) J (+6) *\n\n", i + 1);
    rewind(f);
    struct diags ds = { .n = 0 };
    pmn_reader *rd = pmn_reader_new(f, collect, &ds);
    pmn_record rec;
    int n = 0;
    while (pmn_reader_next(rd, &rec) > 0) {
        n++;
        assert_int_equal(rec.main.nmoves, 4);
        assert_int_equal(rec.line, (unsigned)(3 * n - 2));
        pmn_record_free(&rec);
    }
    assert_int_equal(n, 20000);
    assert_int_equal(ds.n, 0);
    pmn_reader_free(rd);
    fclose(f);
}

/* A long stream of games without tags, each ended by its result, is cut
 * into pieces of a bounded size (it was one piece, all of it in memory, and
 * refused past 64 MiB as "a game"), and its games are read as before: each
 * at its line, its result its own, a variation's result no cut. */
static void tagless_stream_in_pieces(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    for (int i = 0; i < 60000; i++)
        fprintf(f, i == 30000 ? "1. i (+4) (1. b *\n\n 1. c) L (+6) *\n\n" : "1. i (+4) L (+6) *\n\n");
    for (int pass = 0; pass < 2; pass++) {
        rewind(f);
        struct diags ds = { .n = 0 };
        pmn_reader *rd = pmn_reader_new(f, collect, &ds);
        int n = 0, pieces = 0;
        if (pass == 0) {
            const char *text;
            size_t len, biggest = 0;
            pmn_at line, next = 1;
            while (pmn_reader_next_text(rd, &text, &len, &line) > 0) {
                pieces++;
                assert_int_equal(line, next);
                for (size_t i = 0; i < len; i++)
                    next += text[i] == '\n';
                next++;   /* the blank line after the piece */
                if (len > biggest)
                    biggest = len;
            }
            assert_true(pieces > 2);
            assert_true(biggest < (512u << 10));
        } else {
            pmn_record rec;
            while (pmn_reader_next(rd, &rec) > 0) {
                n++;
                assert_int_equal(rec.line, (unsigned)(2 * n - 1 + (n > 30001 ? 2 : 0)));
                assert_string_equal(rec.result, "*");
                assert_int_equal(rec.main.nmoves, 2);
                pmn_record_free(&rec);
            }
            assert_int_equal(n, 60000);
        }
        assert_int_equal(ds.n, pass ? 1 : 0);   /* E107, the variation's result */
        pmn_reader_free(rd);
    }
    fclose(f);
}

/* Parts of whole games (pmn_reader_next_part, pmn check --jobs): each
 * read apart, told the lines before it, gives the games of the stream at
 * their lines, with the blank lines between pieces put back. */
static void parts_read_apart(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    for (int i = 0; i < 300; i++)
        fprintf(f, "[Event \"%d\"]\n%s\n1. i (+4) L (+6) *\n\n%s", i, i % 7 ? "" : "\n",
                i % 11 ? "" : "\n\n");
    rewind(f);
    struct diags ds = { .n = 0 };
    pmn_reader *rd = pmn_reader_new(f, collect, &ds);
    pmn_reader *whole = NULL;
    char *buf = NULL;
    size_t cap = 0;
    int games = 0, parts = 0, rc;
    pmn_at lines[300];
    do {
        size_t len = 0;
        pmn_at first = 0;
        rc = pmn_reader_next_part(rd, 1000, &buf, &cap, &len, &first);
        assert_true(rc >= 0);
        if (len == 0)
            break;
        assert_true(len >= 1000 || rc == 0);
        parts++;
        FILE *pf = fmemopen(buf, len, "r");
        pmn_reader *pr = pmn_reader_new(pf, collect, &ds);
        pmn_reader_set_lines_before(pr, first - 1);
        pmn_record rec;
        while (pmn_reader_next(pr, &rec) > 0) {
            assert_true(games < 300);
            lines[games++] = rec.line;
            pmn_record_free(&rec);
        }
        pmn_reader_free(pr);
        fclose(pf);
    } while (rc > 0);
    assert_int_equal(games, 300);
    assert_true(parts > 5);
    rewind(f);
    whole = pmn_reader_new(f, collect, &ds);
    pmn_record rec;
    for (int n = 0; pmn_reader_next(whole, &rec) > 0; n++) {
        assert_int_equal(rec.line, lines[n]);
        pmn_record_free(&rec);
    }
    assert_int_equal(ds.n, 0);
    pmn_reader_free(whole);
    pmn_reader_free(rd);
    free(buf);
    fclose(f);
}

/* Each game's text as written, several in one piece among them; and the
 * filter leaves out whole pieces unread and unreported. */
static int no_event_two(void *ctx, const char *text, size_t len)
{
    (*(int *)ctx)++;
    return !(len > 14 && memcmp(text, "[Event \"two\"]", 13) == 0);
}

static void game_texts_and_filter(void **state)
{
    (void)state;
    static const char text[] =
        "[Event \"one\"]\n\n1. i (+4) L (+6) *\n\n\n"
        "[Event \"two\"]\n1. h (+4) K (+6) 1-0 1. a  0-1\n\n"
        "[Event \"three\"]\n1. b ?? *\n";
    static const char *const want[] = {
        "[Event \"one\"]\n\n1. i (+4) L (+6) *", "[Event \"two\"]\n1. h (+4) K (+6) 1-0",
        "1. a  0-1", "[Event \"three\"]\n1. b ?? *",
    };
    static const unsigned lines[] = { 1, 6, 7, 9 };
    for (int filtered = 0; filtered < 2; filtered++) {
        FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
        struct diags ds;
        memset(&ds, 0, sizeof ds);
        pmn_reader *rd = pmn_reader_new(f, collect, &ds);
        int pieces = 0, n = 0;
        pmn_record rec;
        if (filtered)
            pmn_reader_set_filter(rd, no_event_two, &pieces);
        while (pmn_reader_next(rd, &rec) > 0) {
            const char *t;
            size_t len;
            pmn_at line;
            int k = filtered && n > 0 ? n + 2 : n;   /* the piece of "two" is left out */
            pmn_reader_game_text(rd, &t, &len, &line);
            assert_int_equal(len, strlen(want[k]));
            assert_memory_equal(t, want[k], len);
            assert_int_equal(line, lines[k]);
            pmn_record_free(&rec);
            n++;
        }
        assert_int_equal(n, filtered ? 2 : 4);
        assert_int_equal(pieces, filtered ? 3 : 0);
        assert_int_equal(ds.n, 0);   /* ?? after a move is a judgement, not a fault */
        pmn_reader_free(rd);
        fclose(f);
    }
}

/* Places stay true past 4 GiB of lines (they were counted in 32 bits: an
 * error after 2^32 + 2 lines was said at line 3).  The lines before are
 * given, not read: reading 4 GiB of blank lines takes minutes. */
static void places_past_four_gib(void **state)
{
    (void)state;
    static const char text[] = "\n[Event \"far\"]\n\n1. i (+4) z *\n";
    const pmn_at before = 4294967296ULL;   /* 2^32 lines */
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    struct diags ds;
    memset(&ds, 0, sizeof ds);
    pmn_reader *rd = pmn_reader_new(f, collect, &ds);
    pmn_record rec;
    pmn_reader_set_lines_before(rd, before);
    assert_int_equal(pmn_reader_next(rd, &rec), 1);
    assert_true(rec.line == before + 2);
    assert_true(pmn_record_find_tag(&rec, "Event")->line == before + 2);
    assert_true(rec.main.moves[1].line == before + 4);
    assert_true(rec.main.moves[1].col == 11);
    assert_true(rec.result_line == before + 4);
    pmn_setup setup;
    pmn_setup_record(&rec, NULL, &setup, collect, &ds);
    pmn_replay *replay = pmn_replay_new(&rec, &setup, collect, &ds);
    assert_true(ds.n > 0);   /* 'z' names no hole */
    assert_true(ds.d[ds.n - 1].line == before + 4);
    assert_true(pmn_reader_line(rd) >= before + 4);
    pmn_replay_free(replay);
    pmn_record_free(&rec);
    pmn_reader_free(rd);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tags_and_moves),
        cmocka_unit_test(variations_nest),
        cmocka_unit_test(variations_of_a_turn),
        cmocka_unit_test(games_one_at_a_time),
        cmocka_unit_test(places_past_four_gib),
        cmocka_unit_test(game_texts_and_filter),
        cmocka_unit_test(parts_read_apart),
        cmocka_unit_test(faults_are_reported_and_the_rest_kept),
        cmocka_unit_test(empty_input),
        cmocka_unit_test(many_games_stream),
        cmocka_unit_test(tagless_stream_in_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
