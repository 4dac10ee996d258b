/* test_ogn.c - OGN (ogn.c): what a game read holds, the faults said with
 * their places, and a game written back as it was read. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmn.h"

struct seen {
    int codes[16];
    unsigned lines[16], cols[16];
    int n;
};

static void collect(void *ctx, const pmn_diag *d)
{
    struct seen *s = ctx;
    if (s->n < 16) {
        s->codes[s->n] = d->code;
        s->lines[s->n] = d->line;
        s->cols[s->n] = d->col;
        s->n++;
    }
}

static int read_one(const char *text, pmn_record *rec, struct seen *seen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    memset(seen, 0, sizeof *seen);
    pmn_ogn_reader *rd = pmn_ogn_reader_new(f, collect, seen);
    int rc = pmn_ogn_reader_next(rd, rec);
    pmn_ogn_reader_free(rd);
    fclose(f);
    return rc;
}

static const char game[] =
    "[Variant \"Oware Abapa\"]\n"
    "[Event \"A \\\"quoted\\\" event\"]\n"
    "[Result \"26-21\"]\n"
    "[FEN \"0-0-0-0-0-1-1-1-0-0-0-0-24-21-S\"]\n"
    "\n"
    "{ lead } 1. F+2! $1 { takes two } ( 1. F { again } ) 26-21\n";

static void tags_moves_and_result(void **state)
{
    (void)state;
    pmn_record rec;
    struct seen seen;
    assert_int_equal(read_one(game, &rec, &seen), 1);
    assert_int_equal(seen.n, 0);
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Oware");
    assert_null(pmn_record_tag(&rec, "Variant"));
    assert_null(pmn_record_tag(&rec, "FEN"));
    assert_string_equal(pmn_record_tag(&rec, "Event"), "A \"quoted\" event");
    assert_string_equal(pmn_record_tag(&rec, "Result"), "1-0");
    assert_string_equal(pmn_record_tag(&rec, "Score"), "26-21");
    assert_string_equal(pmn_record_tag(&rec, "SetUp"), "1");
    assert_string_equal(pmn_record_tag(&rec, "Position"), "0,0,0,0,0,1/1,1,0,0,0,0 S 24:21");
    assert_string_equal(rec.result, "1-0");
    assert_int_equal(rec.main.nlead, 1);
    assert_string_equal(rec.main.lead[0], "lead");
    assert_int_equal(rec.main.nmoves, 1);
    const pmn_move *m = &rec.main.moves[0];
    assert_string_equal(m->text, "F");
    assert_int_equal(m->side, PMN_SOUTH);
    assert_int_equal(m->hole, 5);
    assert_int_equal(m->claim, 2);
    assert_string_equal(m->judgement, "!");
    assert_int_equal(m->nnags, 1);
    assert_int_equal(m->nags[0], 1);
    assert_int_equal(m->ncomments, 1);
    assert_string_equal(m->comments[0], "takes two");
    assert_int_equal(m->nvariations, 1);
    assert_int_equal(m->variations[0].nmoves, 1);
    assert_int_equal(m->line, 6);
    assert_int_equal(m->col, 13);

    /* Written back: the same game, the score from the replay. */
    pmn_setup setup;
    assert_int_equal(pmn_setup_record(&rec, NULL, &setup, NULL, NULL), 0);
    pmn_replay *replay = pmn_replay_new(&rec, &setup, NULL, NULL);
    assert_non_null(replay);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_int_equal(pmn_write_ogn(f, &rec, replay, NULL, NULL), 0);
    fclose(f);
    assert_non_null(strstr(out, "[Variant \"Oware Abapa\"]\n"));
    assert_non_null(strstr(out, "[Event \"A \\\"quoted\\\" event\"]\n"));
    assert_non_null(strstr(out, "[Result \"26-21\"]\n"));
    assert_non_null(strstr(out, "[FEN \"0-0-0-0-0-1-1-1-0-0-0-0-24-21-S\"]\n"));
    assert_null(strstr(out, "Score"));
    assert_non_null(strstr(out, "{ lead } 1. F+2! $1 { takes two } ( 1. F { again } ) 26-21\n"));
    free(out);
    pmn_replay_free(replay);
    pmn_record_free(&rec);
}

/* Each fault said where it is, and the game kept as far as it goes. */
static void faults(void **state)
{
    (void)state;
    pmn_record rec;
    struct seen seen;
    assert_int_equal(read_one("[Variant \"Oware Abapa\"]\n[Event]\n\n1. A % b ) { open",
                              &rec, &seen), 1);
    assert_int_equal(seen.n, 4);
    assert_int_equal(seen.codes[0], PMN_E105);
    assert_int_equal(seen.lines[0], 2);
    assert_int_equal(seen.codes[1], PMN_E101);
    assert_int_equal(seen.lines[1], 4);
    assert_int_equal(seen.cols[1], 6);
    assert_int_equal(seen.codes[2], PMN_E104);
    assert_int_equal(seen.codes[3], PMN_E102);
    assert_int_equal(rec.main.nmoves, 2);
    pmn_record_free(&rec);
    assert_int_equal(read_one("1. A ( b\n", &rec, &seen), 1);
    assert_int_equal(seen.n, 1);
    assert_int_equal(seen.codes[0], PMN_E103);
    pmn_record_free(&rec);
}

/* Games one after another: a tag after moves begins the next, and one
 * after the blank line that ends the tags of a game without moves; not a
 * '[' inside a comment. */
static void several_games(void **state)
{
    (void)state;
    static const char text[] = "[Variant \"Oware Abapa\"]\n\n1. A b {a comment of\n"
                               "[two] lines}\n\n\n"
                               "[Variant \"Oware Abapa\"]\n[Result \"*\"]\n1. C\n"
                               "[Variant \"Oware Abapa\"]\n\n[Variant \"Awale\"]\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct seen seen = { 0 };
    pmn_ogn_reader *rd = pmn_ogn_reader_new(f, collect, &seen);
    pmn_record rec;
    assert_int_equal(pmn_ogn_reader_next(rd, &rec), 1);
    assert_int_equal(rec.main.nmoves, 2);
    assert_int_equal(rec.line, 1);
    assert_string_equal(rec.main.moves[1].comments[0], "a comment of\n[two] lines");
    pmn_record_free(&rec);
    assert_int_equal(pmn_ogn_reader_next(rd, &rec), 1);
    assert_int_equal(rec.main.nmoves, 1);
    assert_int_equal(rec.line, 7);
    assert_int_equal(rec.main.moves[0].line, 9);
    pmn_record_free(&rec);
    assert_int_equal(pmn_ogn_reader_next(rd, &rec), 1);
    assert_int_equal(rec.main.nmoves, 0);
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Oware");
    pmn_record_free(&rec);
    assert_int_equal(pmn_ogn_reader_next(rd, &rec), 1);
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Awale");
    pmn_record_free(&rec);
    assert_int_equal(pmn_ogn_reader_next(rd, &rec), 0);
    assert_int_equal(seen.n, 0);
    pmn_ogn_reader_free(rd);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tags_moves_and_result),
        cmocka_unit_test(faults),
        cmocka_unit_test(several_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
