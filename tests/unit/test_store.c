/* test_store.c - an archive index's database (src/cli/store.c) through
 * both of its drivers: every case runs on an SQLite file, and again on a
 * PostgreSQL server when PMN_TEST_PG_URI names a database there
 * (tests/postgres.sh sets it, its throwaway server's), each case in a
 * schema of its own.  What a game holds comes back as it went in; the
 * same game is stored once; postings are found by their fingerprint (and
 * not by another's that shares its bucket), variations' apart; the
 * explorer's rows are replaced, listed and read; a transaction rolled
 * back leaves nothing; what is not an index, or one of a later schema, is
 * refused (F006). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli/store.h"
#include "cli/driver.h"

static char dir[] = "/tmp/pmn-test-store.XXXXXX";
static int serial;

/* A new address: a file in dir, or on the server a schema of its own. */
static const char *fresh(int on_server)
{
    static char address[1024];
    serial++;
    if (!on_server) {
        snprintf(address, sizeof address, "%s/i%d.db", dir, serial);
        return address;
    }
    const char *uri = getenv("PMN_TEST_PG_URI");
    enum failure f;
    char why[256], sql[64];
    struct conn *c = driver_postgres.open(uri, DRIVER_WRITE, &f, why, sizeof why);
    assert_non_null(c);
    snprintf(sql, sizeof sql, "CREATE SCHEMA s%d_%ld", serial, (long)getpid());
    assert_int_equal(driver_postgres.exec(c, sql), 0);
    driver_postgres.close(c);
    snprintf(address, sizeof address, "%s%soptions=-csearch_path%%3Ds%d_%ld", uri,
             strchr(uri, '?') ? "&" : "?", serial, (long)getpid());
    return address;
}

static int on_server(void **state)
{
    return *state != NULL;
}

static struct stored_game a_game(unsigned char digest_byte)
{
    static const unsigned char plies[] = { 8, 11, 3 };
    struct stored_game g = {
        .file = "games.pmn", .number = 2, .line = 14, .rules = "hawalis", .rule_set = "hawalis",
        .start = "", .plies = plies, .nplies = sizeof plies, .result = "0-1",
        .date = "2026.03.07", .state = 0, .ending = 1, .outcome = 2, .moves = 2,
        .codes = "W118", .text = "[Event \"Zanzibar\"]\n\n1. i L; 2. d 0-1", .len = 34,
        .south = "Miceu Tavares", .north = "Ralf Gering", .event = "Zanzibar",
    };
    g.count[PMN_WARNING] = 1;
    memset(g.digest, digest_byte, sizeof g.digest);
    return g;
}

static void games_come_back(void **state)
{
    const char *db = fresh(on_server(state));
    struct store *st = store_open(db, STORE_CREATE);
    assert_non_null(st);
    struct stored_game g = a_game(1);
    int64_t id = 0, again = 0;
    assert_int_equal(store_begin(st), 0);
    assert_int_equal(store_add_game(st, &g, &id), 1);
    assert_true(id > 0);
    /* The same game (its digest): stored once, its id said. */
    assert_int_equal(store_add_game(st, &g, &again), 0);
    assert_int_equal(again, id);
    assert_int_equal(store_commit(st), 0);
    struct stored_game b;
    assert_int_equal(store_game(st, id, 1, &b), 1);
    assert_string_equal(b.file, "games.pmn");
    assert_int_equal(b.number, 2);
    assert_int_equal(b.line, 14);
    assert_string_equal(b.rules, "hawalis");
    assert_string_equal(b.start, "");
    assert_int_equal(b.nplies, 3);
    assert_memory_equal(b.plies, g.plies, 3);
    assert_string_equal(b.result, "0-1");
    assert_string_equal(b.date, "2026.03.07");
    assert_int_equal(b.ending, 1);
    assert_int_equal(b.outcome, 2);
    assert_int_equal(b.count[PMN_WARNING], 1);
    assert_string_equal(b.codes, "W118");
    assert_int_equal(b.len, g.len);
    assert_memory_equal(b.text, g.text, g.len);
    assert_memory_equal(b.digest, g.digest, sizeof g.digest);
    assert_string_equal(b.south, "Miceu Tavares");
    assert_string_equal(b.north, "Ralf Gering");
    assert_string_equal(b.event, "Zanzibar");
    /* Without its text, the rest the same. */
    assert_int_equal(store_game(st, id, 0, &b), 1);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.south, "Miceu Tavares");
    assert_int_equal(store_game(st, id + 100, 1, &b), 0);
    uint64_t n;
    assert_int_equal(store_games(st, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(store_close(st), 0);
    /* Read again, read-only. */
    st = store_open(db, STORE_READ);
    assert_non_null(st);
    assert_int_equal(store_game(st, id, 1, &b), 1);
    assert_memory_equal(b.text, g.text, g.len);
    store_close(st);
}

/* A new index tells the same game by the digests it holds in memory until
 * its index of digests is made: by the build at its end, or by the next
 * writer when the build stopped before (killed), or midway when memory
 * holds no more; the same game is stored once in every case.  Two games
 * whose digests share the 8 bytes held are told apart by the rest. */
static void the_same_game_once_either_way(void **state)
{
    const char *db = fresh(on_server(state));
    struct store *st = store_open(db, STORE_CREATE);
    assert_non_null(st);
    struct stored_game g1 = a_game(1), g2 = a_game(2), g3 = a_game(3), near = a_game(1);
    near.digest[15] = 9;
    int64_t id1, id2, idn, id;
    assert_int_equal(store_begin(st), 0);
    assert_int_equal(store_add_game(st, &g1, &id1), 1);
    assert_int_equal(store_add_game(st, &g2, &id2), 1);
    assert_int_equal(store_add_game(st, &near, &idn), 1);
    assert_int_equal(store_add_game(st, &g1, &id), 0);
    assert_int_equal(id, id1);
    assert_int_equal(store_add_game(st, &near, &id), 0);
    assert_int_equal(id, idn);
    assert_int_equal(store_commit(st), 0);
    /* Closed as a build killed before its end: no index of digests. */
    assert_int_equal(store_close(st), 0);
    st = store_open(db, STORE_WRITE);
    assert_non_null(st);
    assert_int_equal(store_begin(st), 0);   /* makes it */
    assert_int_equal(store_add_game(st, &g2, &id), 0);
    assert_int_equal(id, id2);
    assert_int_equal(store_add_game(st, &g3, &id), 1);
    assert_int_equal(store_commit(st), 0);
    uint64_t n;
    assert_int_equal(store_games(st, &n), 0);
    assert_int_equal(n, 4);
    assert_int_equal(store_close(st), 0);
    /* Memory for two: the index made at the third, in its transaction. */
    st = store_open(fresh(on_server(state)), STORE_CREATE);
    assert_non_null(st);
    store_set_held_max(st, 2);
    assert_int_equal(store_begin(st), 0);
    assert_int_equal(store_add_game(st, &g1, &id1), 1);
    assert_int_equal(store_add_game(st, &g2, &id2), 1);
    assert_int_equal(store_add_game(st, &g3, &id), 1);
    assert_int_equal(store_add_game(st, &g1, &id), 0);
    assert_int_equal(id, id1);
    assert_int_equal(store_add_game(st, &g2, &id), 0);
    assert_int_equal(id, id2);
    assert_int_equal(store_commit(st), 0);
    assert_int_equal(store_digest_index(st), 0);
    assert_int_equal(store_games(st, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(store_close(st), 0);
}

struct seen {
    int64_t game[16];
    unsigned line[16], ply[16];
    int n;
};

static int saw(void *ctx, int64_t game, unsigned ply)
{
    struct seen *s = ctx;
    s->game[s->n] = game;
    s->line[s->n] = 0;
    s->ply[s->n++] = ply;
    return s->n == 16;
}

static int saw_line(void *ctx, int64_t game, unsigned line, unsigned ply)
{
    struct seen *s = ctx;
    s->game[s->n] = game;
    s->line[s->n] = line;
    s->ply[s->n++] = ply;
    return s->n == 16;
}

static const char *found_at(struct store *st, uint64_t fp, int variations)
{
    static char out[256];
    struct seen s = { .n = 0 };
    assert_int_equal(variations ? store_at_variations(st, fp, saw_line, &s)
                                : store_at(st, fp, saw, &s), 0);
    out[0] = '\0';
    for (int i = 0; i < s.n; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%lld.%u.%u", i ? " " : "",
                 (long long)s.game[i], s.line[i], s.ply[i]);
    return out;
}

static void postings_found_by_fingerprint(void **state)
{
    struct store *st = store_open(fresh(on_server(state)), STORE_CREATE);
    assert_non_null(st);
    /* So few postings make one bucket: A and B share it, and differ in
     * the 16 bits kept of each past the bucket's (the top 16). */
    const uint64_t A = 0x123456789A000001ULL, B = 0x123556789A000001ULL, C = ~A;
    struct posting p[] = {
        { A, 1, 0, 0 }, { B, 1, 0, 1 }, { C, 1, 0, 2 }, { A, 3, 0, 7 }, { B, 9, 0, 200 },
    };
    struct posting v[] = { { A, 3, 2, 1 }, { C, 3, 2, 2 }, { A, 9, 5, 3 } };
    assert_int_equal(store_begin(st), 0);
    assert_int_equal(store_add_postings(st, p, 5, 0), 0);
    assert_int_equal(store_add_postings(st, v, 3, 1), 0);
    assert_int_equal(store_commit(st), 0);
    /* What each fingerprint finds, as "game.line.ply ...". */
    assert_string_equal(found_at(st, A, 0), "1.0.0 3.0.7");
    assert_string_equal(found_at(st, B, 0), "1.0.1 9.0.200");
    assert_string_equal(found_at(st, C, 0), "1.0.2");
    assert_string_equal(found_at(st, 0x42, 0), "");
    /* Variations' apart, with their lines. */
    assert_string_equal(found_at(st, A, 1), "3.2.1 9.5.3");
    assert_string_equal(found_at(st, C, 1), "3.2.2");
    struct store_counts sc;
    assert_int_equal(store_counts(st, &sc), 0);
    assert_int_equal(sc.positions, 5);
    assert_int_equal(sc.segments, 1);
    assert_true(sc.bytes > 0);
    store_close(st);
}

static int listed(void *ctx, uint64_t fp, const unsigned char *key, size_t len)
{
    int *n = ctx;
    assert_int_equal(fp, 77);
    assert_int_equal(len, 3);
    assert_memory_equal(key, "abc", 3);
    ++*n;
    return 0;
}

static void explorer_and_meta(void **state)
{
    struct store *st = store_open(fresh(on_server(state)), STORE_CREATE);
    assert_non_null(st);
    const unsigned char key[] = "abc";
    const char *stats;
    assert_int_equal(store_begin(st), 0);
    assert_int_equal(store_explorer_put(st, 77, key, 3, 1000, "first"), 0);
    assert_int_equal(store_explorer_put(st, 77, key, 3, 1001, "second"), 0);
    assert_int_equal(store_meta_set(st, "explorer_games", "1001"), 0);
    assert_int_equal(store_meta_set(st, "explorer_games", "1002"), 0);
    assert_int_equal(store_commit(st), 0);
    assert_int_equal(store_explorer_get(st, 77, key, 3, &stats), 1);
    assert_string_equal(stats, "second");
    assert_int_equal(store_explorer_get(st, 77, key, 2, &stats), 0);
    int n = 0;
    assert_int_equal(store_explorer_keys(st, listed, &n), 0);
    assert_int_equal(n, 1);
    char v[16];
    assert_int_equal(store_meta_get(st, "explorer_games", v, sizeof v), 1);
    assert_string_equal(v, "1002");
    assert_int_equal(store_meta_get(st, "none", v, sizeof v), 0);
    assert_int_equal(store_has_variations(st), 0);
    assert_int_equal(store_set_variations(st), 0);
    assert_int_equal(store_has_variations(st), 1);
    store_close(st);
}

static void rolled_back_leaves_nothing(void **state)
{
    struct store *st = store_open(fresh(on_server(state)), STORE_CREATE);
    assert_non_null(st);
    struct stored_game g = a_game(2);
    int64_t id;
    assert_int_equal(store_begin(st), 0);
    assert_int_equal(store_add_game(st, &g, &id), 1);
    store_rollback(st);
    uint64_t n = 9;
    assert_int_equal(store_games(st, &n), 0);
    assert_int_equal(n, 0);
    struct stored_game b;
    assert_int_equal(store_game(st, id, 1, &b), 0);
    store_close(st);
}

static void not_an_index_refused(void **state)
{
    int code = 0;
    if (!on_server(state)) {
        char path[512];
        snprintf(path, sizeof path, "%s/text.db", dir);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs("1. i L *\n", f);
        fclose(f);
        assert_null(store_open(path, STORE_READ));
        store_open_error(&code);
        assert_int_equal(code, PMN_F006);
    } else {
        /* A schema without an index's tables. */
        assert_null(store_open(fresh(1), STORE_READ));
        const char *why = store_open_error(&code);
        assert_int_equal(code, PMN_F006);
        assert_non_null(strstr(why, "without its tables"));
    }
    /* A later schema: refused, not read. */
    const char *db = fresh(on_server(state));
    struct store *st = store_open(db, STORE_CREATE);
    assert_non_null(st);
    assert_int_equal(store_meta_set(st, "version", "99"), 0);
    store_close(st);
    assert_null(store_open(db, STORE_READ));
    const char *why = store_open_error(&code);
    assert_int_equal(code, PMN_F006);
    assert_non_null(strstr(why, "schema version 99"));
    /* Nothing there. */
    assert_null(store_open(on_server(state) ? "postgresql:///none?host=/nonexistent"
                                            : "/nonexistent/dir/x.db", STORE_WRITE));
    store_open_error(&code);
    assert_int_equal(code, PMN_F001);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 99;
    int server = getenv("PMN_TEST_PG_URI") && *getenv("PMN_TEST_PG_URI");
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test(games_come_back),
        cmocka_unit_test(the_same_game_once_either_way),
        cmocka_unit_test(postings_found_by_fingerprint),
        cmocka_unit_test(explorer_and_meta),
        cmocka_unit_test(rolled_back_leaves_nothing),
        cmocka_unit_test(not_an_index_refused),
    };
    static int yes = 1;
    const struct CMUnitTest postgres[] = {
        cmocka_unit_test_prestate(games_come_back, &yes),
        cmocka_unit_test_prestate(the_same_game_once_either_way, &yes),
        cmocka_unit_test_prestate(postings_found_by_fingerprint, &yes),
        cmocka_unit_test_prestate(explorer_and_meta, &yes),
        cmocka_unit_test_prestate(rolled_back_leaves_nothing, &yes),
        cmocka_unit_test_prestate(not_an_index_refused, &yes),
    };
    int failed = server ? cmocka_run_group_tests_name("store on PostgreSQL", postgres, NULL, NULL)
                        : cmocka_run_group_tests_name("store on SQLite", sqlite, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 99;
    return failed ? 1 : 0;
}
