/* sqlite.c - an archive index in an SQLite file (driver.h).
 *
 * The file is in WAL mode: readers see the last batch committed while a
 * writer writes, and two writers take turns (a busy writer is waited for,
 * a minute at most). */
#include "driver.h"

#include <assert.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct conn {
    sqlite3 *db;
    sqlite3_stmt *st[DRIVER_STATEMENTS];
    int rc[DRIVER_STATEMENTS];  /* what the last step of each gave */
    char why[512];
};

static const char schema[] =
    "CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE games("
    " id INTEGER PRIMARY KEY, digest BLOB NOT NULL,"
    " file TEXT NOT NULL, number INTEGER NOT NULL, line INTEGER NOT NULL,"
    " rules TEXT NOT NULL, rule_set TEXT NOT NULL, start TEXT NOT NULL, plies BLOB NOT NULL,"
    " south TEXT, north TEXT, event TEXT, date TEXT, result TEXT,"
    " state INTEGER NOT NULL, ending INTEGER NOT NULL, outcome INTEGER NOT NULL,"
    " moves INTEGER NOT NULL, errors INTEGER NOT NULL, warnings INTEGER NOT NULL,"
    " notes INTEGER NOT NULL, codes TEXT NOT NULL, text_form INTEGER NOT NULL);"
    "CREATE TABLE texts(id INTEGER PRIMARY KEY, text BLOB NOT NULL);"
    "CREATE TABLE segments(id INTEGER PRIMARY KEY, bits INTEGER NOT NULL,"
    " entries INTEGER NOT NULL);"
    "CREATE TABLE postings(key INTEGER PRIMARY KEY, data BLOB NOT NULL);"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT,"
    " games INTEGER NOT NULL DEFAULT 0, first_game INTEGER);"
    "CREATE TABLE starts(spec TEXT NOT NULL, start TEXT NOT NULL,"
    " PRIMARY KEY(spec, start)) WITHOUT ROWID;"
    "CREATE TABLE explorer(fp INTEGER NOT NULL, key BLOB NOT NULL, games INTEGER NOT NULL,"
    " stats TEXT NOT NULL, PRIMARY KEY(fp, key)) WITHOUT ROWID;"
    "CREATE TABLE vsegments(id INTEGER PRIMARY KEY, bits INTEGER NOT NULL,"
    " entries INTEGER NOT NULL);"
    "CREATE TABLE vpostings(key INTEGER PRIMARY KEY, data BLOB NOT NULL);";

/* Its own words: a write transaction takes the file's write lock at once,
 * so that two writers wait for each other at BEGIN instead of failing at
 * their first write; the bytes are its pages. */
static const char *const own[] = {
    [S_ADD_GAME] = SQL_ADD_GAME,   /* the id: inserted() */
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_BYTES] = "SELECT page_count * page_size FROM pragma_page_count(), "
                        "pragma_page_size()",
};

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static struct conn *open_db(const char *path, enum driver_mode mode, enum failure *f,
                            char *why, size_t whylen)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c) {
        *f = FAIL_MEMORY;
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    int flags = mode == DRIVER_READ ? SQLITE_OPEN_READONLY
              : mode == DRIVER_CREATE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
              : SQLITE_OPEN_READWRITE;
    if (sqlite3_open_v2(path, &c->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        *f = FAIL_GONE;
        snprintf(why, whylen, "cannot open: %s", c->db ? sqlite3_errmsg(c->db) : "out of memory");
        sqlite3_close(c->db);
        free(c);
        return NULL;
    }
    sqlite3_extended_result_codes(c->db, 1);
    /* Another writer's batch is waited for (two writers take turns). */
    sqlite3_busy_timeout(c->db, 60000);
    /* Pages of 16 KB (a new file's; one made before keeps its own): a
     * build writes each page twice (the WAL, then the file), a system call
     * each -- a quarter of them against 4 KB pages -- and a bucket of
     * postings is still one page. */
    if (mode != DRIVER_READ
        && sqlite3_exec(c->db, "PRAGMA page_size=16384; PRAGMA journal_mode=WAL; "
                        "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;", NULL,
                        NULL, NULL) != SQLITE_OK) {
        const char *w;
        *f = driver_sqlite.failure(c, &w);
        snprintf(why, whylen, "%s", w);
        driver_sqlite.close(c);
        return NULL;
    }
    return c;
}

static int close_db(struct conn *c)
{
    for (int i = 0; i < DRIVER_STATEMENTS; i++)
        sqlite3_finalize(c->st[i]);
    int rc = sqlite3_close(c->db) == SQLITE_OK ? 0 : -1;
    free(c);
    return rc;
}

static int exec(struct conn *c, const char *sql)
{
    return sqlite3_exec(c->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int run(struct conn *c, int which, const char *sql, const struct arg *a, int n)
{
    assert(which >= 0 && which < DRIVER_STATEMENTS);
    if (!c->st[which] && sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                            &c->st[which], NULL) != SQLITE_OK)
        return -1;
    sqlite3_stmt *s = c->st[which];
    sqlite3_reset(s);
    c->rc[which] = SQLITE_OK;
    for (int i = 0; i < n; i++) {
        /* Bound where they are (STATIC), not copied (a game's text, a
         * bucket's entries): store.c steps a statement only while its
         * parameters live, and runs one left on its row (a game read
         * back) anew, bound again, before it steps it; no column of a
         * statement is one of its parameters. */
        int rc = a[i].kind == ARG_INT ? sqlite3_bind_int64(s, i + 1, a[i].i)
               : a[i].kind == ARG_TEXT ? sqlite3_bind_text(s, i + 1, a[i].p, -1, SQLITE_STATIC)
               : a[i].kind == ARG_BLOB ? sqlite3_bind_blob64(s, i + 1, a[i].n ? a[i].p : "",
                                                            a[i].n, SQLITE_STATIC)
               : sqlite3_bind_null(s, i + 1);
        if (rc != SQLITE_OK)
            return -1;
    }
    return 0;
}

static int row(struct conn *c, int which)
{
    sqlite3_stmt *s = c->st[which];
    assert(s);
    int rc = c->rc[which] = sqlite3_step(s);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int64_t integer(struct conn *c, int which, int col)
{
    return sqlite3_column_int64(c->st[which], col);
}

static const void *bytes(struct conn *c, int which, int col, size_t *len)
{
    sqlite3_stmt *s = c->st[which];
    if (sqlite3_column_type(s, col) == SQLITE_NULL)
        return NULL;
    /* As text, a blob too: the same bytes, with a NUL after them (a file
     * name is held as a blob, and read as a string). */
    const void *v = sqlite3_column_text(s, col);
    if (len)
        *len = (size_t)sqlite3_column_bytes(s, col);
    return v ? v : "";
}

static int64_t inserted(struct conn *c)
{
    return sqlite3_changes(c->db) ? sqlite3_last_insert_rowid(c->db) : 0;
}

static void reset(struct conn *c, int which)
{
    if (c->st[which]) {
        sqlite3_reset(c->st[which]);
        sqlite3_clear_bindings(c->st[which]);
    }
}

static enum failure failure(struct conn *c, const char **why)
{
    int rc = sqlite3_extended_errcode(c->db) & 0xFF;
    const char *msg = sqlite3_errmsg(c->db);
    enum failure f = FAIL_OTHER;
    if (rc == SQLITE_NOTADB) {
        f = FAIL_NOT_DB;
        msg = "not an SQLite database";
    } else if (rc == SQLITE_CORRUPT) {
        f = FAIL_DAMAGED;
        msg = "the database is damaged (SQLite: database disk image is malformed)";
    } else if (rc == SQLITE_FULL || rc == SQLITE_IOERR || rc == SQLITE_READONLY
               || rc == SQLITE_CANTOPEN) {
        f = FAIL_WRITE;
    } else if (rc == SQLITE_NOMEM) {
        f = FAIL_MEMORY;
    } else if (rc == SQLITE_ERROR && strncmp(msg, "no such table", 13) == 0) {
        f = FAIL_NO_TABLE;
    }
    snprintf(c->why, sizeof c->why, "%s", msg);
    *why = c->why;
    return f;
}

const struct driver driver_sqlite = {
    .name = "SQLite", .schema = schema, .own = own, .nown = sizeof own / sizeof *own,
    .open = open_db, .exists = exists, .close = close_db, .exec = exec, .run = run, .row = row,
    .integer = integer, .bytes = bytes, .reset = reset, .inserted = inserted,
    .failure = failure,
};
