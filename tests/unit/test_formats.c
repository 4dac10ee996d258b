/* test_formats.c - other programs' notations (formats.c): what a game read
 * holds, the faults said with their places, games written back as they were
 * read, and which format a text is in. */
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

static int read_as(pmn_format format, const char *text, pmn_record *rec, struct seen *seen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    memset(seen, 0, sizeof *seen);
    pmn_format_reader *rd = pmn_format_reader_new(f, format, collect, seen);
    int rc = pmn_format_reader_next(rd, rec);
    pmn_format_reader_free(rd);
    fclose(f);
    return rc;
}

static int read_one(const char *text, pmn_record *rec, struct seen *seen)
{
    return read_as(PMN_FORMAT_OGN, text, rec, seen);
}

/* Replay rec, set up from its tags (which must name its rules and start);
 * the codes it reports into seen. */
static pmn_replay *replayed(const pmn_record *rec, struct seen *seen)
{
    pmn_setup setup;
    memset(seen, 0, sizeof *seen);
    assert_int_equal(pmn_setup_record(rec, NULL, &setup, collect, seen), PMN_SETUP_READY);
    pmn_replay *replay = pmn_replay_new(rec, &setup, collect, seen);
    assert_non_null(replay);
    return replay;
}

static char *written(pmn_format format, const pmn_record *rec, const pmn_replay *replay)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_int_equal(pmn_write_format(f, format, rec, replay, NULL, NULL), 0);
    fclose(f);
    return out;
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
    pmn_replay *replay = replayed(&rec, &seen);
    char *out = written(PMN_FORMAT_OGN, &rec, replay);
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
    pmn_format_reader *rd = pmn_format_reader_new(f, PMN_FORMAT_OGN, collect, &seen);
    pmn_record rec;
    assert_int_equal(pmn_format_reader_next(rd, &rec), 1);
    assert_int_equal(rec.main.nmoves, 2);
    assert_int_equal(rec.line, 1);
    assert_string_equal(rec.main.moves[1].comments[0], "a comment of\n[two] lines");
    pmn_record_free(&rec);
    assert_int_equal(pmn_format_reader_next(rd, &rec), 1);
    assert_int_equal(rec.main.nmoves, 1);
    assert_int_equal(rec.line, 7);
    assert_int_equal(rec.main.moves[0].line, 9);
    pmn_record_free(&rec);
    assert_int_equal(pmn_format_reader_next(rd, &rec), 1);
    assert_int_equal(rec.main.nmoves, 0);
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Oware");
    pmn_record_free(&rec);
    assert_int_equal(pmn_format_reader_next(rd, &rec), 1);
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Awale");
    pmn_record_free(&rec);
    assert_int_equal(pmn_format_reader_next(rd, &rec), 0);
    assert_int_equal(seen.n, 0);
    pmn_format_reader_free(rd);
    fclose(f);
}

/* PlayStrategy's PGN: P1/P2, Variant, FEN; squares from and to, the second
 * checked by the replay (E222); clock comments kept. */
static void playstrategy(void **state)
{
    (void)state;
    pmn_record rec;
    struct seen seen;
    static const char text[] =
        "[Event \"Rated Oware game\"]\n[Site \"https://playstrategy.org/abcd1234\"]\n"
        "[P1 \"amy\"]\n[P2 \"bo\"]\n[Result \"*\"]\n[Variant \"Oware\"]\n\n"
        "1. d1e2 { [%clk 0:04:58] } c2b1 2. a1f1 b2c1 *\n";
    assert_int_equal(read_as(PMN_FORMAT_PLAYSTRATEGY, text, &rec, &seen), 1);
    assert_int_equal(seen.n, 0);
    assert_string_equal(pmn_record_tag(&rec, "South"), "amy");
    assert_string_equal(pmn_record_tag(&rec, "North"), "bo");
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Oware");
    assert_null(pmn_record_tag(&rec, "P1"));
    assert_int_equal(rec.main.nmoves, 4);
    const pmn_move *m = &rec.main.moves[0];
    assert_string_equal(m->text, "d1e2");
    assert_int_equal(m->side, PMN_SOUTH);
    assert_int_equal(m->hole, 3);
    assert_int_equal(m->claim_end_side, PMN_NORTH);
    assert_int_equal(m->claim_end, 1);   /* e2: North's second hole in sowing order */
    assert_string_equal(m->comments[0], "[%clk 0:04:58]");
    m = &rec.main.moves[1];
    assert_int_equal(m->side, PMN_NORTH);
    assert_int_equal(m->hole, 3);        /* c2: North's D, f2 being his first */
    /* b2c1 is wrong: b2's five seeds end in d1; said at its second square. */
    pmn_replay *replay = replayed(&rec, &seen);
    assert_int_equal(seen.n, 1);
    assert_int_equal(seen.codes[0], 222);
    assert_int_equal(seen.lines[0], 8);
    assert_int_equal(seen.cols[0], 43);
    char *out = written(PMN_FORMAT_PLAYSTRATEGY, &rec, replay);
    assert_non_null(strstr(out, "[P1 \"amy\"]\n[P2 \"bo\"]\n[Result \"*\"]\n[Variant \"Oware\"]\n"));
    assert_non_null(strstr(out, "1. d1e2 { [%clk 0:04:58] } 1... c2b1 2. a1f1 b2d1\n"));
    free(out);
    pmn_replay_free(replay);
    pmn_record_free(&rec);
}

/* The Mancala World nomenclature: the page's own example, holes by turns,
 * totals made counts; a wrong end digit said. */
static void mancala_world(void **state)
{
    (void)state;
    pmn_record rec;
    struct seen seen;
    assert_int_equal(read_as(PMN_FORMAT_MANCALA_WORLD, "1. 64 64\n2. 21 32\n", &rec, &seen), 1);
    assert_int_equal(seen.n, 0);
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Oware");
    assert_int_equal(rec.main.nmoves, 4);
    assert_int_equal(rec.main.moves[1].side, PMN_NORTH);
    assert_int_equal(rec.main.moves[1].hole, 5);
    assert_int_equal(rec.main.moves[3].hole, 2);
    assert_int_equal(rec.main.moves[3].claim_end, 1);
    pmn_replay *replay = replayed(&rec, &seen);
    assert_int_equal(seen.n, 0);
    pmn_replay_free(replay);
    pmn_record_free(&rec);

    /* A final score after the moves: the result it gives, the score kept. */
    assert_int_equal(read_as(PMN_FORMAT_MANCALA_WORLD, "1. 64 64 25-21\n", &rec, &seen), 1);
    assert_int_equal(rec.main.nmoves, 2);
    assert_string_equal(rec.result, "1-0");
    assert_string_equal(pmn_record_tag(&rec, "Score"), "25-21");
    pmn_record_free(&rec);

    /* (N): a running total, made the move's count */
    assert_int_equal(read_as(PMN_FORMAT_MANCALA_WORLD,
                             "1. 64 64 2. 21 32 3. 43 (9) 52\n", &rec, &seen), 1);
    assert_int_equal(rec.main.moves[4].claim_total, 9);
    assert_int_equal(rec.main.moves[4].claim, 9);
    replay = replayed(&rec, &seen);
    /* 43 ends in North's 4th hole, and takes nothing; 52 in South's 4th. */
    assert_int_equal(seen.n, 3);
    assert_int_equal(seen.codes[0], 205);   /* the capture is said first */
    assert_int_equal(seen.cols[0], 25);
    assert_int_equal(seen.codes[1], 222);
    assert_int_equal(seen.cols[1], 23);
    assert_int_equal(seen.codes[2], 222);
    assert_int_equal(seen.cols[2], 30);
    pmn_replay_free(replay);
    pmn_record_free(&rec);

    /* Past 9 holes: a start alone ("12-": its last hole not known, as an
     * endless move's) and a start and end ("12-3"); "12" is 1 and 2. */
    assert_int_equal(read_as(PMN_FORMAT_MANCALA_WORLD,
                             "[Game \"Hawalis\"]\n\n1. 12- 12-3 2. 12 *\n", &rec, &seen), 1);
    assert_int_equal(rec.main.nmoves, 3);
    assert_int_equal(rec.main.moves[0].hole, 11);
    assert_int_equal(rec.main.moves[0].claim_end, -1);
    assert_int_equal(rec.main.moves[1].hole, 11);
    assert_int_equal(rec.main.moves[1].claim_end, 2);
    assert_int_equal(rec.main.moves[2].hole, 0);
    assert_int_equal(rec.main.moves[2].claim_end, 1);
    pmn_record_free(&rec);
}

/* The Awari notation: the seeds sown checked (E223), x N a capture. */
static void awari(void **state)
{
    (void)state;
    pmn_record rec;
    struct seen seen;
    assert_int_equal(read_as(PMN_FORMAT_AWARI, "[Game \"Oware\"]\n\n1. D4 d4 2. A5 e6 x 3\n",
                             &rec, &seen), 1);
    assert_int_equal(seen.n, 0);
    const pmn_move *m = &rec.main.moves[3];
    assert_string_equal(m->text, "e6");
    assert_int_equal(m->side, PMN_NORTH);
    assert_int_equal(m->hole, 4);
    assert_int_equal(m->claim_sown, 6);
    assert_int_equal(m->claim, 3);
    assert_int_equal(m->claim_style, 'x');
    pmn_replay *replay = replayed(&rec, &seen);
    assert_int_equal(seen.n, 2);    /* e held 5, and took 2 */
    assert_int_equal(seen.codes[0], 205);
    assert_int_equal(seen.cols[0], 19);
    assert_int_equal(seen.codes[1], 223);
    assert_int_equal(seen.cols[1], 16);
    char *out = written(PMN_FORMAT_AWARI, &rec, replay);
    /* The seeds sown are the replay's (PMN has no place for them); the
     * capture is the record's claim, wrong as it is (E205 again). */
    assert_non_null(strstr(out, "1. D4 d4 2. A5 e5 x 3\n"));
    free(out);
    pmn_replay_free(replay);
    pmn_record_free(&rec);
}

/* One table of notations: each has a name that names it back, a title,
 * and the Game its records play when their tags name none. */
static void table(void **state)
{
    (void)state;
    static const char *const names[] = { "ogn", "playstrategy", "mancala-world", "awari" };
    assert_int_equal(PMN_FORMAT_COUNT, 4);
    for (int f = 0; f < PMN_FORMAT_COUNT; f++) {
        pmn_format back;
        assert_string_equal(pmn_format_name((pmn_format)f), names[f]);
        assert_int_equal(pmn_format_from_name(names[f], &back), 0);
        assert_int_equal(back, f);
        assert_non_null(pmn_format_title((pmn_format)f));
    }
    assert_string_equal(pmn_format_extension(PMN_FORMAT_OGN), ".ogn");
    assert_string_equal(pmn_format_extension(PMN_FORMAT_PLAYSTRATEGY), ".pgn");
    assert_null(pmn_format_extension(PMN_FORMAT_AWARI));
    pmn_format none;
    assert_int_equal(pmn_format_from_name("pgn", &none), -1);
    /* A game without tags plays the notation's own rules. */
    pmn_record rec;
    struct seen seen;
    assert_int_equal(read_as(PMN_FORMAT_AWARI, "1. D4 d4\n", &rec, &seen), 1);
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Awale");
    pmn_record_free(&rec);
    assert_int_equal(read_as(PMN_FORMAT_OGN, "1. D d\n", &rec, &seen), 1);
    assert_string_equal(pmn_record_tag(&rec, "Game"), "Oware");
    pmn_record_free(&rec);
}

static void sniff(void **state)
{
    (void)state;
    static const struct { const char *text; int found; pmn_format f; } cases[] = {
        { "[Variant \"Oware Abapa\"]\n\n1. D d\n", 1, PMN_FORMAT_OGN },
        { "[Event \"x\"]\n[P1 \"a\"]\n\n1. d1e2\n", 1, PMN_FORMAT_PLAYSTRATEGY },
        { "\xef\xbb\xbf" "1. d1e2 c2b1\n", 1, PMN_FORMAT_PLAYSTRATEGY },
        { "{ a game } 1. 64 64 2. 21 32\n", 1, PMN_FORMAT_MANCALA_WORLD },
        { "1. D4 d5 x 2\n", 1, PMN_FORMAT_AWARI },
        { "[Game \"Oware\"]\n\n1. d D; 2. a E (+2);\n", 0, PMN_FORMAT_OGN },
        { "[Game \"Oware\"]\n\n1. 4 4; 2. 1 5;\n", 0, PMN_FORMAT_OGN },
        { "[Event \"x\"]\n\n1. d4 D4; 2. c1 C2;\n", 0, PMN_FORMAT_OGN },
        { "1. a b; 2. c d; 0-1\n", 0, PMN_FORMAT_OGN },
        /* pmn's own coordinates (convert -n coordinates): a Hawalis board,
         * or a capture claim PMN's way, is PMN, not the Awari notation */
        { "[Game \"Hawalis\"]\n\n1. e2! {a comment} (1. b2? (x3) d4) 1... c4\n", 0,
          PMN_FORMAT_OGN },
        { "1. e2! (+1) {a comment} 1... c4\n", 0, PMN_FORMAT_OGN },
        { "[Game \"Awale\"]\n\n1. D4 d5 x 2\n", 1, PMN_FORMAT_AWARI },
        /* an annotated first move: its ';' is found past long comments,
         * and one in the Awari notation's comment is not taken for PMN's */
        { "[Game \"Kalah\"]\n\n1. c1-e1 {[%eval +1]} {a comment of more than forty "
          "characters} 1... e2-d2 {[%eval +1]}; 2. b1-d1 *\n", 0, PMN_FORMAT_OGN },
        { "1. D4 {a comment; with a semicolon} d5 x 2\n", 1, PMN_FORMAT_AWARI },
        { "1. D4 {a comment cut off; where the bytes end", 1, PMN_FORMAT_AWARI },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pmn_format f = (pmn_format)-1;
        assert_int_equal(pmn_format_sniff(cases[i].text, strlen(cases[i].text), &f),
                         cases[i].found);
        if (cases[i].found)
            assert_int_equal(f, cases[i].f);
    }
}

/* Any input (pmn_source): found by name, by its first bytes, or as said;
 * another program's notation noted (N133), PMN and XML not; its games read
 * by the reader of its format, the PMN reader handed out for PMN alone. */
static void sources(void **state)
{
    (void)state;
    char *xml = NULL;
    size_t xml_len = 0;
    {
        /* An archive, as pmn export writes one. */
        const char *one = "[Event \"x\"]\n\n1. i (+4) L (+6) *\n";
        FILE *in = fmemopen((void *)one, strlen(one), "r"), *out = open_memstream(&xml, &xml_len);
        pmn_reader *rd = pmn_reader_new(in, NULL, NULL);
        pmn_xml_writer *w = pmn_xml_writer_new(out);
        pmn_record rec;
        assert_int_equal(pmn_reader_next(rd, &rec), 1);
        assert_int_equal(pmn_xml_write_game(w, &rec, NULL, NULL, NULL), 0);
        assert_int_equal(pmn_xml_writer_close(w), 0);
        pmn_record_free(&rec);
        pmn_reader_free(rd);
        fclose(in);
        fclose(out);
    }
    const struct {
        const char *text, *name;
        int format, found, noted, games;
    } cases[] = {
        { "[Event \"x\"]\n\n1. i (+4) L (+6) *\n", "a.pmn", PMN_SOURCE_AUTO, PMN_SOURCE_PMN, 0,
          1 },
        { "[Variant \"Oware Abapa\"]\n\n1. D d\n", NULL, PMN_SOURCE_AUTO,
          PMN_SOURCE_FOREIGN + PMN_FORMAT_OGN, 1, 1 },
        { "1. D d\n", "games.OGN", PMN_SOURCE_AUTO, PMN_SOURCE_FOREIGN + PMN_FORMAT_OGN, 1, 1 },
        { "1. D4 d5 x 2\n", "x.pmn", PMN_SOURCE_AUTO, PMN_SOURCE_FOREIGN + PMN_FORMAT_AWARI, 1,
          1 },
        { "1. D d\n", "games.ogn", PMN_SOURCE_PMN, PMN_SOURCE_PMN, 0, 1 },
        { xml, "archive", PMN_SOURCE_AUTO, PMN_SOURCE_XML, 0, 1 },
        { "", NULL, PMN_SOURCE_AUTO, PMN_SOURCE_PMN, 0, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].text == xml ? xml_len : strlen(cases[i].text);
        FILE *f = fmemopen((void *)cases[i].text, len ? len : 1, "r");
        struct seen seen;
        pmn_source_options o = { .format = cases[i].format, .name = cases[i].name };
        pmn_record rec;
        int games = 0, noted = 0;
        assert_non_null(f);
        if (!len)
            fgetc(f);   /* fmemopen takes no empty buffer: one byte, read */
        memset(&seen, 0, sizeof seen);
        if (cases[i].format == PMN_SOURCE_AUTO) {
            int by_name = -1;
            long at = ftell(f);
            assert_int_equal(pmn_source_detect(f, cases[i].name, &by_name), cases[i].found);
            assert_int_equal(ftell(f), at);   /* left where it was */
            assert_int_equal(by_name,
                             pmn_source_format_of_name(cases[i].name) != PMN_SOURCE_AUTO);
        }
        pmn_source *src = pmn_source_new(f, &o, collect, &seen);
        assert_non_null(src);
        assert_int_equal(pmn_source_format(src), cases[i].found);
        assert_true((pmn_source_pmn(src) != NULL) == (cases[i].found == PMN_SOURCE_PMN));
        while (pmn_source_next(src, &rec) > 0) {
            games++;
            pmn_record_free(&rec);
        }
        for (int k = 0; k < seen.n; k++)
            noted += seen.codes[k] == PMN_N133;
        assert_int_equal(noted, cases[i].noted);
        assert_int_equal(games, cases[i].games);
        pmn_source_free(src);
        fclose(f);
    }
    assert_int_equal(pmn_source_format_of_name("a.pgn"),
                     PMN_SOURCE_FOREIGN + PMN_FORMAT_PLAYSTRATEGY);
    assert_int_equal(pmn_source_format_of_name(NULL), PMN_SOURCE_AUTO);
    assert_int_equal(pmn_source_format_of_name(".ogn"), PMN_SOURCE_AUTO);   /* no name before */
    pmn_source_free(NULL);
    free(xml);
}

/* Read, replay and write; what that writes, read and written again, is the
 * same bytes: inputs the fuzzer found otherwise. */
static char *rewrite(pmn_format format, const char *text)
{
    char *out = NULL;
    size_t len = 0;
    FILE *in = fmemopen((void *)text, strlen(text), "r"), *o = open_memstream(&out, &len);
    pmn_format_reader *rd = pmn_format_reader_new(in, format, NULL, NULL);
    pmn_record rec;
    while (pmn_format_reader_next(rd, &rec) > 0) {
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, NULL, NULL);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, NULL, NULL);
        pmn_write_format(o, format, &rec, replay, NULL, NULL);
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_format_reader_free(rd);
    fclose(in);
    fclose(o);
    return out;
}

static void written_twice_the_same(void **state)
{
    (void)state;
    static const struct { pmn_format f; const char *text; } cases[] = {
        /* rules pmn does not know: moves as read */
        { PMN_FORMAT_PLAYSTRATEGY, "[Variant \"Xware\"]\n\n1. d1e2 c9b1 2. a1f1 b2c1 *\n" },
        /* moves not replayed, two of one side running: numbered so */
        { PMN_FORMAT_MANCALA_WORLD, "1. 64 43 2. 16 65 3. 44 33 4. 24 5 67. 13 25 8. 12\n" },
        /* squares that name no hole: whose they are goes by turns */
        { PMN_FORMAT_PLAYSTRATEGY, "1. d12220000000000000828943 n2222222222222Even222 "
                                   "n0000022222222 e b2c0 *\n" },
        /* a square with leading zeros: no square, said whole */
        { PMN_FORMAT_PLAYSTRATEGY, "[Variant \"Oware\"]\n\n2. d0000011047004 b2c0 *\n" },
        /* a result glued to what follows, in a variation */
        { PMN_FORMAT_MANCALA_WORLD, "1. 64 43 ( 1. 0-1-110 2 ) 2. 16 65\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *once = rewrite(cases[i].f, cases[i].text);
        char *twice = rewrite(cases[i].f, once);
        assert_string_equal(once, twice);
        free(once);
        free(twice);
    }
}

/* A Result tag that says no result stays in the tag as written, and the
 * result after the moves is written after them in every notation, and
 * read back as the game's (it was lost: fuzz_formats' finding). */
static void result_beside_a_tag_that_is_none(void **state)
{
    (void)state;
    static const char text[] = "[Game \"Oware\"]\n[Result \"1-0Event\"]\n\n1. a 1-0\n";
    static const pmn_format formats[] = { PMN_FORMAT_OGN, PMN_FORMAT_PLAYSTRATEGY,
                                          PMN_FORMAT_MANCALA_WORLD, PMN_FORMAT_AWARI };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        char *out = NULL;
        size_t len = 0;
        FILE *in = fmemopen((void *)text, strlen(text), "r"), *o = open_memstream(&out, &len);
        pmn_reader *rd = pmn_reader_new(in, NULL, NULL);
        pmn_record rec;
        assert_int_equal(pmn_reader_next(rd, &rec), 1);
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, NULL, NULL);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, NULL, NULL);
        assert_int_equal(pmn_write_format(o, formats[i], &rec, replay, NULL, NULL), 0);
        pmn_replay_free(replay);
        pmn_record_free(&rec);
        pmn_reader_free(rd);
        fclose(in);
        fclose(o);
        in = fmemopen(out, len, "r");
        pmn_format_reader *fr = pmn_format_reader_new(in, formats[i], NULL, NULL);
        assert_int_equal(pmn_format_reader_next(fr, &rec), 1);
        assert_string_equal(rec.result, "1-0");
        assert_string_equal(pmn_record_tag(&rec, "Result"), "1-0Event");
        pmn_record_free(&rec);
        pmn_format_reader_free(fr);
        fclose(in);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tags_moves_and_result),
        cmocka_unit_test(faults),
        cmocka_unit_test(several_games),
        cmocka_unit_test(playstrategy),
        cmocka_unit_test(mancala_world),
        cmocka_unit_test(awari),
        cmocka_unit_test(table),
        cmocka_unit_test(sniff),
        cmocka_unit_test(sources),
        cmocka_unit_test(written_twice_the_same),
        cmocka_unit_test(result_beside_a_tag_that_is_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
