/* test_quick.c - the reader's quick pass (pmn_reader_next_checked) against
 * the full path: every game it counts, the parser, setup and replay must
 * read and check without a single diagnostic, with the same moves; and the
 * clean games written as the samples are must all take it. */
#include <dirent.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "read.h"
#include "engine.h"
#include "light.h"

struct tally {
    int games;                /* read by the full path */
    int quick;                /* of them, counted by the quick pass */
    int clean;                /* of them, with nothing to report */
};

/* Read text by both paths, game by game, in step; fail if the quick pass
 * counted a game that the full path reports anything on. */
static struct tally compare(const char *text, size_t len)
{
    struct tally t = { 0, 0, 0 };
    struct diags da, db;
    FILE *fa = fmemopen((void *)text, len, "r"), *fb = fmemopen((void *)text, len, "r");
    FILE *fc = fmemopen((void *)text, len, "r");
    assert_non_null(fa);
    assert_non_null(fb);
    assert_non_null(fc);
    pmn_reader *a = pmn_reader_new(fa, collect, &da), *b = pmn_reader_new(fb, collect, &db);
    /* c reads the text a second time, told which games a proved. */
    pmn_reader *c = pmn_reader_new(fc, NULL, NULL);
    /* The keys of the positions, which an index files them under: a
     * computes them as it plays; c, which does not replay, has none. */
    assert_int_equal(pmn_reader_keep_keys(a), 0);
    assert_int_equal(pmn_reader_keep_keys(c), 0);
    for (;;) {
        pmn_record ra, rb;
        pmn_game_facts facts;
        memset(&facts, 0, sizeof facts);
        memset(&da, 0, sizeof da);
        memset(&db, 0, sizeof db);
        int rca = pmn_reader_next_checked(a, &ra, &facts);
        int rcb = pmn_reader_next(b, &rb);
        pmn_record rc;
        pmn_game_facts unused;
        int rcc = pmn_reader_next_again(c, &rc, &unused, rca == 2);
        assert_int_equal(rca > 0, rcb > 0);
        assert_int_equal(rcc, rca);
        pmn_record_free(&rc);
        if (rcb <= 0) {
            pmn_record_free(&ra);
            pmn_record_free(&rb);
            break;
        }
        pmn_setup s;
        pmn_setup_record(&rb, NULL, &s, collect, &db);
        pmn_replay *r = pmn_replay_new(&rb, &s, collect, &db);
        assert_non_null(r);
        t.games++;
        t.clean += db.n == 0;
        if (rca == 2) {
            t.quick++;
            if (db.n != 0)
                fail_msg("the quick pass counted a game on which the full path says "
                         "%c%03d at %u:%u: %s\n--- the text:\n%.*s", "NWEF"[db.d[0].severity],
                         db.d[0].code, db.d[0].line, db.d[0].col, db.d[0].message, (int)len,
                         text);
            /* What the pass proves is what the replay finds. */
            const pmn_check_result *res = pmn_replay_result(r);
            assert_int_equal(facts.moves, res->written);
            assert_int_equal(facts.ending, res->ending);
            assert_int_equal(facts.outcome, res->outcome);
            assert_int_equal(facts.captured[0], res->captured[0]);
            assert_int_equal(facts.captured[1], res->captured[1]);
            assert_int_equal(ra.ntags, 0);
            /* The holes it played, by turns from South, are the record's. */
            const unsigned char *holes;
            const pmn_played_line *pl = pmn_replay_main(r);
            const unsigned char *again;
            assert_int_equal(pmn_reader_game_holes(a, &holes), pl->nmoves);
            assert_int_equal(pmn_reader_game_holes(c, &again), pl->nmoves);
            assert_memory_equal(again, holes, pl->nmoves);
            for (size_t i = 0; i < pl->nmoves; i++) {
                assert_int_equal(holes[i], rb.main.moves[i].hole);
                assert_int_equal(pl->moves[i].side, (int)(i % 2));
                assert_false(pl->moves[i].continues);
            }
            /* Its keys are pmn_position_key's of the positions the replay
             * reaches, the start first. */
            const uint64_t *keys;
            assert_int_equal(pmn_reader_game_keys(a, &keys), pl->nmoves + 1);
            const pmn_position *start = &pmn_replay_result(r)->start;
            assert_true(keys[0] == pmn_position_key(&s.rules, start, start->to_move));
            assert_true(keys[0] != pmn_position_key(&s.rules, start, !start->to_move));
            for (size_t i = 0; i < pl->nmoves; i++) {
                const pmn_position *p = &pl->moves[i].after;
                assert_true(keys[i + 1] == pmn_position_key(&s.rules, p, p->to_move));
            }
            assert_int_equal(pmn_reader_game_keys(c, &keys), 0);
            /* And both readers cut the same text for the game. */
            const char *ta, *tb;
            size_t la, lb;
            pmn_at line_a, line_b;
            pmn_reader_game_text(a, &ta, &la, &line_a);
            pmn_reader_game_text(b, &tb, &lb, &line_b);
            assert_int_equal(line_a, line_b);
            assert_int_equal(line_b, rb.line);
            assert_int_equal(la, lb);
            assert_memory_equal(ta, tb, la);
        } else {
            const unsigned char *holes;
            const uint64_t *keys;
            assert_int_equal(pmn_reader_game_holes(a, &holes), 0);
            assert_int_equal(pmn_reader_game_keys(a, &keys), 0);
        }
        pmn_replay_free(r);
        pmn_record_free(&ra);
        pmn_record_free(&rb);
    }
    pmn_reader_free(a);
    pmn_reader_free(b);
    pmn_reader_free(c);
    fclose(fa);
    fclose(fb);
    fclose(fc);
    return t;
}

/* Text grown as a game is written. */
struct text {
    char *s;
    size_t len, cap;
};

static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = 2 * t->cap + (size_t)n + 64;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
}

/* A random game of Hawalis written as the samples are, in one of several
 * styles: every capture written or none, blanks or line ends between the
 * tokens, judgements, CRLF line ends, some tags left out, and games that
 * stop before their end marked '*'.  Its text is clean unless the game met
 * an endless move or a repetition (which the full path notes). */
static void random_game(struct text *t, unsigned long *seed)
{
    pmn_rules r = rules_with(NULL);
    pmn_position start;
    pmn_position_start(&r, &start);
    pmn_game *g = pmn_game_new(&r, &start);
    assert_non_null(g);
    int claims = random_below(seed, 4) != 0, crlf = random_below(seed, 8) == 0;
    unsigned stop = random_below(seed, 3) == 0 ? random_below(seed, 120) + 1 : 100000;
    const char *nl = crlf ? "\r\n" : "\n";
    struct text moves = { NULL, 0, 0 };
    add(&moves, "%s", "");
    while (pmn_game_ending(g) == PMN_END_NONE && pmn_game_plies(g) < stop) {
        int legal[PMN_MAX_SIDE_PITS];
        int n = pmn_legal_moves(&r, pmn_game_position(g), legal);
        int side = pmn_game_position(g)->to_move;
        unsigned ply = pmn_game_plies(g);
        int hole = legal[random_below(seed, (unsigned)n)];
        pmn_move_report rep;
        assert_int_equal(pmn_game_play(g, hole, &rep), 0);
        const char *gap = random_below(seed, 10) ? " " : nl;
        if (side == PMN_SOUTH)
            add(&moves, "%s%u.%s", ply ? (random_below(seed, 10) ? "; " : ";\n") : "",
                ply / 2 + 1, random_below(seed, 20) ? " " : nl);
        else
            add(&moves, "%s", gap);
        add(&moves, "%c", (side == PMN_SOUTH ? 'a' : 'A') + hole);
        if (claims && rep.captured)
            add(&moves, "%s(+%u)", random_below(seed, 10) ? " " : nl, rep.captured);
        if (random_below(seed, 30) == 0)
            add(&moves, "%s", random_below(seed, 2) ? "!" : " ?!");
    }
    const char *result = pmn_outcome_string(pmn_game_outcome(g));
    if (random_below(seed, 5))
        add(t, "[Event \"Club %u\"]%s", random_below(seed, 100), nl);
    add(t, "[South \"S\"]%s[North \"N\"]%s", nl, nl);
    if (random_below(seed, 5))
        add(t, "[Result \"%s\"]%s", result, nl);
    if (random_below(seed, 3)) {
        static const char *const names[] = { "Hawalis", "hawalis", "HAWALIS" };
        add(t, "[Game \"%s\"]%s", names[random_below(seed, 3)], nl);
    }
    add(t, "%s%s%s%s%s%s", nl, moves.s, random_below(seed, 2) ? " " : nl, result, nl, nl);
    free(moves.s);
    pmn_game_free(g);
}

/* One change of the kind a transcript suffers, somewhere in t. */
static void mutate(struct text *t, unsigned long *seed)
{
    static const char *const inserts[] = {
        "{a comment} ", "(+0) ", "; ", "1. ", "(3) ", "!", "$1 ", "[Date \"?\"]\n",
        "(b C) ", "x", "\\", "\"", "\xE2\x80\x93", "\t", "*", "1-0 ", "\n\n[X \"y\"]\n\n1. a ",
        "[SetUp \"1\"]\n", "[Game \"Kalah\"]\n", "[Result \"1-0\"]\n", "[Rules \"laps=single\"]\n",
        "- ", "...", "\xC2\xA0", "\r", "0", "9", " (+1)", "A", "n",
    };
    if (t->len == 0)
        return;
    size_t at = random_below(seed, (unsigned)t->len);
    switch (random_below(seed, 5)) {
    case 4: {   /* a result changed: the Result tag's or the one after the moves */
        static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*" };
        const char *was = NULL, *by = results[random_below(seed, 4)];
        size_t where = 0;
        int last = random_below(seed, 2);
        for (int i = 0; i < 4; i++)
            for (const char *c = t->s; (c = strstr(c, results[i])) != NULL; c++)
                if (!was || (last ? (size_t)(c - t->s) > where : (size_t)(c - t->s) < where)) {
                    was = results[i];
                    where = (size_t)(c - t->s);
                }
        if (!was)
            break;
        size_t n = strlen(by), old = strlen(was);
        char *s = malloc(t->len - old + n + 1);
        assert_non_null(s);
        memcpy(s, t->s, where);
        memcpy(s + where, by, n);
        memcpy(s + where + n, t->s + where + old, t->len - where - old + 1);
        free(t->s);
        t->s = s;
        t->len = t->len - old + n;
        t->cap = t->len + 1;
        break;
    }
    case 0: {   /* insert */
        const char *s = inserts[random_below(seed, sizeof inserts / sizeof *inserts)];
        size_t n = strlen(s);
        if (t->len + n + 1 > t->cap) {
            t->cap = t->len + n + 64;
            t->s = realloc(t->s, t->cap);
            assert_non_null(t->s);
        }
        memmove(t->s + at + n, t->s + at, t->len - at + 1);
        memcpy(t->s + at, s, n);
        t->len += n;
        break;
    }
    case 1:     /* delete */
        memmove(t->s + at, t->s + at + 1, t->len - at);
        t->len--;
        break;
    case 2: {   /* a letter or digit changed into another of its kind */
        char *c = t->s + at;
        if (*c >= 'a' && *c <= 'z')
            *c = (char)('a' + random_below(seed, 15));
        else if (*c >= 'A' && *c <= 'Z')
            *c = (char)('A' + random_below(seed, 15));
        else if (*c >= '0' && *c <= '9')
            *c = (char)('0' + random_below(seed, 10));
        break;
    }
    default:    /* a case slipped */
        if (t->s[at] >= 'a' && t->s[at] <= 'n')
            t->s[at] = (char)(t->s[at] - 'a' + 'A');
        else if (t->s[at] >= 'A' && t->s[at] <= 'N')
            t->s[at] = (char)(t->s[at] - 'A' + 'a');
        break;
    }
}

static void random_games_take_the_quick_pass(void **state)
{
    (void)state;
    unsigned long seed = 2026;
    struct tally all = { 0, 0, 0 };
    for (int i = 0; i < light(600); i++) {
        struct text t = { NULL, 0, 0 };
        random_game(&t, &seed);
        struct tally one = compare(t.s, t.len);
        assert_int_equal(one.games, 1);
        /* Clean, and written as the samples are: the quick pass takes it. */
        if (one.clean && !one.quick)
            fail_msg("a clean game the quick pass did not take:\n%s", t.s);
        all.quick += one.quick;
        all.clean += one.clean;
        free(t.s);
    }
    /* Most random games end by rule; a few by endless moves and repetitions. */
    assert_true(all.quick > 500 || !whole_sample());
    assert_int_equal(all.quick, all.clean);
}

static void changed_games_agree(void **state)
{
    (void)state;
    unsigned long seed = 13;
    struct tally all = { 0, 0, 0 };
    for (int i = 0; i < light(3000); i++) {
        struct text t = { NULL, 0, 0 };
        random_game(&t, &seed);
        for (unsigned k = random_below(&seed, 3) + 1; k > 0; k--)
            mutate(&t, &seed);
        struct tally one = compare(t.s, t.len);
        all.games += one.games;
        all.quick += one.quick;
        all.clean += one.clean;
        free(t.s);
    }
    /* Changes that leave a game clean (a letter in a tag, a blank) are
     * still taken; most changes are not, and take the full path. */
    assert_true(all.quick > 100 || !whole_sample());
    assert_true(all.quick < all.games / 2);
}

/* Every .pmn file under dir (of the source tree), whole. */
static int compare_files(const char *dir, struct tally *all)
{
    const char *top = getenv("top_srcdir");
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", top ? top : ".", dir);
    DIR *d = opendir(path);
    int files = 0;
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char name[512];
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        if (snprintf(name, sizeof name, "%s/%s", dir, e->d_name) >= (int)sizeof name)
            continue;
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", top ? top : ".", name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            files += compare_files(name, all);
        } else if ((n > 4 && (strcmp(e->d_name + n - 4, ".pmn") == 0
                              || strcmp(e->d_name + n - 4, ".txt") == 0))
                   || strcmp(e->d_name, "stdin") == 0) {
            char *text = slurp(name);
            assert_non_null(text);
            struct tally one = compare(text, strlen(text));
            all->games += one.games;
            all->quick += one.quick;
            free(text);
            files++;
        }
    }
    closedir(d);
    return files;
}

static void samples_and_fixtures_agree(void **state)
{
    (void)state;
    struct tally all = { 0, 0, 0 };
    assert_true(compare_files("samples", &all) >= 5);
    int samples = all.quick;
    /* tavares-gering-2009 is clean and written as the quick pass reads. */
    assert_true(samples >= 1);
    assert_true(compare_files("tests/cli", &all) > 50);
}

/* The tags of games the parser does not read: of a game the quick pass
 * proved, and of a piece the filter is asked about, as the parser reads
 * them (names, values, places); none where they are of another shape. */
struct seen_tags {
    pmn_reader *rd;
    int pieces, simple;
    char first[64];
};

static int keep_piece(void *ctx, const char *text, size_t len)
{
    struct seen_tags *st = ctx;
    const pmn_tag *tags;
    size_t n;
    (void)text;
    (void)len;
    st->pieces++;
    if (pmn_reader_game_tags(st->rd, &tags, &n) == 1) {
        st->simple++;
        snprintf(st->first, sizeof st->first, "%s=%s@%llu", tags[0].name, tags[0].value,
                 tags[0].line);
    }
    return 1;
}

static void tags_without_the_parser(void **state)
{
    (void)state;
    char *text = slurp("samples/hawalis/tavares-gering-2009.pmn");
    assert_non_null(text);
    FILE *f = fmemopen(text, strlen(text), "r");
    pmn_reader *rd = pmn_reader_new(f, NULL, NULL);
    pmn_record rec, full;
    pmn_game_facts facts;
    const pmn_tag *tags;
    size_t n;
    assert_int_equal(pmn_reader_next_checked(rd, &rec, &facts), 2);
    assert_int_equal(pmn_reader_game_tags(rd, &tags, &n), 1);
    pmn_reader_free(rd);
    /* The parser's tags of the same game. */
    rewind(f);
    rd = pmn_reader_new(f, NULL, NULL);
    assert_int_equal(pmn_reader_next(rd, &full), 1);
    assert_int_equal(pmn_reader_game_tags(rd, &tags, &n), 0);   /* parsed: none here */
    pmn_reader_free(rd);
    rewind(f);
    rd = pmn_reader_new(f, NULL, NULL);
    assert_int_equal(pmn_reader_next_checked(rd, &rec, &facts), 2);
    assert_int_equal(pmn_reader_game_tags(rd, &tags, &n), 1);
    assert_int_equal(n, full.ntags);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(tags[i].name, full.tags[i].name);
        assert_string_equal(tags[i].value, full.tags[i].value);
        assert_int_equal(tags[i].line, full.tags[i].line);
        assert_int_equal(tags[i].col, full.tags[i].col);
        assert_int_equal(tags[i].value_col, full.tags[i].value_col);
    }
    pmn_record_free(&full);
    pmn_reader_free(rd);
    fclose(f);
    free(text);

    /* The filter: a piece of simple tags, then one whose value has a quote. */
    static const char two[] = "[Event \"a\"]\n\n1. i (+4) *\n\n"
                              "[Event \"say \\\"b\\\"\"]\n\n1. i (+4) *\n";
    f = fmemopen((void *)two, sizeof two - 1, "r");
    struct seen_tags st = { .pieces = 0 };
    st.rd = rd = pmn_reader_new(f, NULL, NULL);
    pmn_reader_set_filter(rd, keep_piece, &st);
    while (pmn_reader_next(rd, &rec) > 0)
        pmn_record_free(&rec);
    assert_int_equal(st.pieces, 2);
    assert_int_equal(st.simple, 1);
    assert_string_equal(st.first, "Event=a@1");
    pmn_reader_free(rd);
    fclose(f);
}

/* A page whose title names another game reads the games after it under
 * that game's rules (N127): the quick pass, which reads Hawalis, must leave
 * them to the full path -- `1. i (+4)` is exact in Hawalis, not in Anywoli
 * (the audit of 2026-11-29: check said 0 errors, convert E205). */
static void a_page_title_leaves_the_quick_pass(void **state)
{
    (void)state;
    static const char page[] = "Anywoli\n*\n[t \"\"]\n1. i (+4) *";
    struct tally t = compare(page, sizeof page - 1);
    assert_int_equal(t.games, 2);
    assert_int_equal(t.quick, 0);
    /* A title of Hawalis gives the game its Game tag, which the quick
     * pass would leave out (the fuzzer's finding of 2026-11-29): the full
     * path reads it, and its tags are the parser's. */
    static const char hawalis[] = "Hawalis\n\n[Event \"Club\"]\n\n1. i (+4) L (+6) *";
    t = compare(hawalis, sizeof hawalis - 1);
    assert_int_equal(t.games, 1);
    assert_int_equal(t.quick, 0);
    /* The same game without the title is Hawalis, and clean. */
    static const char plain[] = "[t \"\"]\n1. i (+4) *";
    t = compare(plain, sizeof plain - 1);
    assert_int_equal(t.games, 1);
    assert_int_equal(t.quick, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_page_title_leaves_the_quick_pass),
        cmocka_unit_test(random_games_take_the_quick_pass),
        cmocka_unit_test(changed_games_agree),
        cmocka_unit_test(samples_and_fixtures_agree),
        cmocka_unit_test(tags_without_the_parser),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
