/* store.c - an archive index's database, in SQLite (store.h).
 *
 * The schema (version 1):
 *   meta(name, value)       'schema' = pmn-index, 'version', 'pmn' that made it
 *   games(id, ...)          a game a row: where it was read, its rules, start
 *                           and plies (what its positions are replayed from),
 *                           its roster tags, result, ending, what checking it
 *                           found, and its text; digest UNIQUE: the same game
 *                           is stored once
 *   segments(id, bits, entries)  the positions of the games of a batch ...
 *   starts(spec, start)     each rule set and start of the games held
 *   explorer(fp, key, games, stats)   the positions that many games reach
 *                           (index.c, refresh_explorer): what was played
 *                           from each, made anew after each build or add;
 *                           key the exact one
 *   runs(id, started, finished, games, first_game)   each build or add: a
 *                           run with no finish was interrupted (or is
 *                           running), and holds the games of the
 *                           transactions it committed, each whole
 *   postings(key, data)     ... in 2^bits buckets by the top bits of their
 *                           fingerprints: key = segment << 32 | bucket, data
 *                           its entries, in order of game and ply: the game
 *                           less the one before (a varint), the 16 bits of
 *                           the fingerprint after the bucket's, the ply (a
 *                           varint) -- about 5 bytes a position
 * A fingerprint is 64 bits of a position's exact key (index.c), and a
 * bucket keeps 16 of them past its own: two positions may share what is
 * kept, so a game found by it is replayed to its ply and compared before
 * it is taken (index.c) -- the index narrows, the replay decides.  A
 * segment's buckets hold about 128 entries each, whatever its size: a
 * lookup reads one blob a segment.
 *
 * The file is in WAL mode: readers see the last batch committed while a
 * writer writes, and two writers take turns (a busy writer is waited for). */
#include "store.h"

#include <assert.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    S_ADD_GAME, S_FIND_DIGEST, S_ADD_SEGMENT, S_ADD_POSTING, S_GAME, S_SEGMENTS, S_BUCKET,
    S_EACH, S_ADD_START, S_STARTS, S_EXPLORER_CLEAR, S_EXPLORER_PUT,
    S_EXPLORER_GET, S_RUN_START, S_RUN_END, S_RUNS_OPEN, S_BEGIN, S_COMMIT,
    S_ROLLBACK, S_COUNT
};

/* Each statement once, its parameters $1, $2, ... in the order they
 * first appear (SQLite numbers named parameters so, and PostgreSQL's
 * are these), so that the text can serve a server's database too (but
 * for SQLite's own functions, strftime);
 * prepared when first used. */
static const char *const sql[S_COUNT] = {
    [S_ADD_GAME] =
        "INSERT INTO games(digest, file, number, line, rules, rule_set, start, plies, south,"
        " north, event, date, result, state, ending, outcome, moves, errors, warnings, notes,"
        " codes, text_form, text) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,"
        " $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)"
        " ON CONFLICT(digest) DO NOTHING",
    [S_FIND_DIGEST] = "SELECT id FROM games WHERE digest = $1",
    [S_ADD_SEGMENT] = "INSERT INTO segments(bits, entries) VALUES($1, $2)",
    [S_ADD_POSTING] = "INSERT INTO postings(key, data) VALUES($1, $2)",
    [S_GAME] =
        "SELECT id, file, number, line, rules, rule_set, start, plies, result, date, state,"
        " ending, outcome, moves, errors, warnings, notes, codes, text_form, text, digest,"
        " south, north, event FROM games WHERE id = $1",
    [S_SEGMENTS] = "SELECT id, bits FROM segments ORDER BY id",
    [S_BUCKET] = "SELECT data FROM postings WHERE key = $1",
    [S_EACH] = "SELECT id FROM games ORDER BY id",
    [S_ADD_START] = "INSERT INTO starts(spec, start) VALUES($1, $2) ON CONFLICT DO NOTHING",
    [S_STARTS] = "SELECT spec, start FROM starts ORDER BY spec, start",
    [S_EXPLORER_CLEAR] = "DELETE FROM explorer",
    [S_EXPLORER_PUT] = "INSERT INTO explorer(fp, key, games, stats) VALUES($1, $2, $3, $4)",
    [S_EXPLORER_GET] = "SELECT games, stats FROM explorer WHERE fp = $1 AND key = $2",
    [S_RUN_START] = "INSERT INTO runs(started) VALUES(strftime('%Y-%m-%d %H:%M:%S', 'now'))",
    [S_RUN_END] = "UPDATE runs SET games = $1, finished = strftime('%Y-%m-%d %H:%M:%S', 'now')"
                  " WHERE id = $2",
    [S_RUNS_OPEN] = "SELECT started, (SELECT count(*) FROM games WHERE id >= runs.first_game)"
                    " FROM runs WHERE finished IS NULL ORDER BY id",
    [S_BEGIN] = "BEGIN IMMEDIATE",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
};

static const char schema[] =
    "CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE games("
    " id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE,"
    " file TEXT NOT NULL, number INTEGER NOT NULL, line INTEGER NOT NULL,"
    " rules TEXT NOT NULL, rule_set TEXT NOT NULL, start TEXT NOT NULL, plies BLOB NOT NULL,"
    " south TEXT, north TEXT, event TEXT, date TEXT, result TEXT,"
    " state INTEGER NOT NULL, ending INTEGER NOT NULL, outcome INTEGER NOT NULL,"
    " moves INTEGER NOT NULL, errors INTEGER NOT NULL, warnings INTEGER NOT NULL,"
    " notes INTEGER NOT NULL, codes TEXT NOT NULL, text_form INTEGER NOT NULL,"
    " text BLOB NOT NULL);"
    "CREATE TABLE segments(id INTEGER PRIMARY KEY, bits INTEGER NOT NULL,"
    " entries INTEGER NOT NULL);"
    "CREATE TABLE postings(key INTEGER PRIMARY KEY, data BLOB NOT NULL);"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT,"
    " games INTEGER NOT NULL DEFAULT 0, first_game INTEGER);"
    "CREATE TABLE starts(spec TEXT NOT NULL, start TEXT NOT NULL,"
    " PRIMARY KEY(spec, start)) WITHOUT ROWID;"
    "CREATE TABLE explorer(fp INTEGER NOT NULL, key BLOB NOT NULL, games INTEGER NOT NULL,"
    " stats TEXT NOT NULL, PRIMARY KEY(fp, key)) WITHOUT ROWID;";

struct store {
    sqlite3 *db;
    sqlite3_stmt *st[S_COUNT];
    char error[512];
    int code;
    unsigned char *blob;      /* a bucket being written */
    size_t bloblen, blobcap;
    char *last_spec;          /* the rules of the game added last */
    char *last_start;         /* its start */
    int64_t run, run_first;   /* the build or add running, its first game */
};

static char open_error[512];
static int open_code;

/* The reason of a failure of SQLite: a file that is not an index it can
 * read is F006, a write that failed F003. */
static int failed(struct store *st, const char *what)
{
    int rc = sqlite3_extended_errcode(st->db) & 0xFF;
    st->code = rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT ? PMN_F006
             : rc == SQLITE_FULL || rc == SQLITE_IOERR || rc == SQLITE_READONLY
               || rc == SQLITE_CANTOPEN ? PMN_F003 : PMN_F006;
    const char *why = sqlite3_errmsg(st->db);
    if (rc == SQLITE_NOTADB)
        why = "not an SQLite database";
    else if (rc == SQLITE_CORRUPT)
        why = "the database is damaged (SQLite: database disk image is malformed)";
    snprintf(st->error, sizeof st->error, "%s: %s", what, why);
    return -1;
}

const char *store_error(const struct store *st, int *code)
{
    if (code)
        *code = st->code;
    return st->error;
}

const char *store_open_error(int *code)
{
    if (code)
        *code = open_code;
    return open_error;
}

static sqlite3_stmt *stmt(struct store *st, int which)
{
    if (!st->st[which] && sqlite3_prepare_v3(st->db, sql[which], -1, SQLITE_PREPARE_PERSISTENT,
                                             &st->st[which], NULL) != SQLITE_OK) {
        failed(st, "cannot read the index");
        return NULL;
    }
    return st->st[which];
}

/* Run a statement with no rows; 0 or -1. */
static int run(struct store *st, int which, const char *what)
{
    sqlite3_stmt *s = stmt(st, which);
    if (!s)
        return -1;
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, what);
}

/* Is the file an index of this schema, of a version this pmn reads? */
static int check_schema(struct store *st)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "SELECT name, value FROM meta WHERE name IN ('schema',"
                           " 'version')", -1, &s, NULL) != SQLITE_OK) {
        int rc = sqlite3_extended_errcode(st->db) & 0xFF;
        if (rc == SQLITE_ERROR) {   /* no table meta: another database */
            st->code = PMN_F006;
            snprintf(st->error, sizeof st->error, "not a pmn archive index (an SQLite "
                     "database without its tables: make one with 'pmn index build')");
            return -1;
        }
        return failed(st, "cannot read the index");
    }
    char name[64] = "";
    long version = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *n = (const char *)sqlite3_column_text(s, 0);
        const char *v = (const char *)sqlite3_column_text(s, 1);
        if (n && v && strcmp(n, "schema") == 0)
            snprintf(name, sizeof name, "%s", v);
        else if (n && v && strcmp(n, "version") == 0)
            version = strtol(v, NULL, 10);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return failed(st, "cannot read the index");
    st->code = PMN_F006;
    if (strcmp(name, STORE_SCHEMA) != 0) {
        snprintf(st->error, sizeof st->error, "not a pmn archive index (its meta table "
                 "names no schema '%s')", STORE_SCHEMA);
        return -1;
    }
    if (version < 1 || version > STORE_VERSION) {
        snprintf(st->error, sizeof st->error, "an index of schema version %ld, which this pmn "
                 "(%s, version %d) cannot read: made by a %s pmn", version, pmn_version(),
                 STORE_VERSION, version > STORE_VERSION ? "later" : "broken");
        return -1;
    }
    st->code = 0;
    return 0;
}

static int create(struct store *st)
{
    char *err = NULL;
    char meta[256];
    snprintf(meta, sizeof meta, "INSERT INTO meta VALUES('schema', '%s'), ('version', '%d'),"
             " ('pmn', '%s');", STORE_SCHEMA, STORE_VERSION, pmn_version());
    if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, &err) != SQLITE_OK
        || sqlite3_exec(st->db, schema, NULL, NULL, &err) != SQLITE_OK
        || sqlite3_exec(st->db, meta, NULL, NULL, &err) != SQLITE_OK
        || sqlite3_exec(st->db, "COMMIT", NULL, NULL, &err) != SQLITE_OK) {
        sqlite3_free(err);
        return failed(st, "cannot make the index");
    }
    return 0;
}

struct store *store_open(const char *path, enum store_mode mode)
{
    struct store *st = calloc(1, sizeof *st);
    if (!st) {
        open_code = PMN_F002;
        snprintf(open_error, sizeof open_error, "out of memory");
        return NULL;
    }
    int flags = mode == STORE_READ ? SQLITE_OPEN_READONLY
              : mode == STORE_CREATE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
              : SQLITE_OPEN_READWRITE;
    if (sqlite3_open_v2(path, &st->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        open_code = PMN_F001;
        snprintf(open_error, sizeof open_error, "cannot open: %s",
                 st->db ? sqlite3_errmsg(st->db) : "out of memory");
        sqlite3_close(st->db);
        free(st);
        return NULL;
    }
    sqlite3_extended_result_codes(st->db, 1);
    /* Another writer's batch is waited for (two writers take turns). */
    sqlite3_busy_timeout(st->db, 60000);
    char *err = NULL;
    int ok = 1;
    if (mode != STORE_READ)
        ok = sqlite3_exec(st->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL,
                          NULL, &err) == SQLITE_OK;
    sqlite3_free(err);
    if (!ok)
        failed(st, "cannot open the index");
    if (ok && mode == STORE_CREATE)
        ok = create(st) == 0;
    else if (ok)
        ok = check_schema(st) == 0;
    if (!ok) {
        open_code = st->code;
        snprintf(open_error, sizeof open_error, "%s", st->error);
        store_close(st);
        return NULL;
    }
    return st;
}

int store_close(struct store *st)
{
    if (!st)
        return 0;
    for (int i = 0; i < S_COUNT; i++)
        sqlite3_finalize(st->st[i]);
    int rc = sqlite3_close(st->db) == SQLITE_OK ? 0 : -1;
    free(st->blob);
    free(st->last_spec);
    free(st->last_start);
    free(st);
    return rc;
}

int store_begin(struct store *st)
{
    return run(st, S_BEGIN, "cannot write to the index");
}

int store_commit(struct store *st)
{
    return run(st, S_COMMIT, "cannot write to the index");
}

void store_rollback(struct store *st)
{
    sqlite3_stmt *s = stmt(st, S_ROLLBACK);
    if (s) {
        sqlite3_step(s);
        sqlite3_reset(s);
    }
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(s, i);
}

static const char *tag_of(const struct stored_game *g, const char *name)
{
    for (size_t i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

/* Run a statement of two texts, no rows: 0, or -1. */
static int run_texts(struct store *st, int which, const char *a, const char *b)
{
    sqlite3_stmt *s = stmt(st, which);
    if (!s)
        return -1;
    bind_text(s, 1, a);
    bind_text(s, 2, b);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot write to the index");
}

int store_add_game(struct store *st, const struct stored_game *g, int64_t *id)
{
    sqlite3_stmt *s = stmt(st, S_ADD_GAME), *f = stmt(st, S_FIND_DIGEST);
    if (!s || !f)
        return -1;
    sqlite3_bind_blob(s, 1, g->digest, sizeof g->digest, SQLITE_STATIC);
    bind_text(s, 2, g->file);
    sqlite3_bind_int64(s, 3, (sqlite3_int64)g->number);
    sqlite3_bind_int64(s, 4, (sqlite3_int64)g->line);
    bind_text(s, 5, g->rules);
    bind_text(s, 6, g->rule_set);
    bind_text(s, 7, g->start);
    sqlite3_bind_blob(s, 8, g->plies ? (const void *)g->plies : "", (int)g->nplies,
                      SQLITE_STATIC);
    bind_text(s, 9, tag_of(g, "South"));
    bind_text(s, 10, tag_of(g, "North"));
    bind_text(s, 11, tag_of(g, "Event"));
    bind_text(s, 12, g->date);
    bind_text(s, 13, g->result);
    sqlite3_bind_int(s, 14, g->state);
    sqlite3_bind_int(s, 15, g->ending);
    sqlite3_bind_int(s, 16, g->outcome);
    sqlite3_bind_int(s, 17, (int)g->moves);
    sqlite3_bind_int(s, 18, (int)(g->count[PMN_ERROR] + g->count[PMN_FATAL]));
    sqlite3_bind_int(s, 19, (int)g->count[PMN_WARNING]);
    sqlite3_bind_int(s, 20, (int)g->count[PMN_NOTE]);
    bind_text(s, 21, g->codes ? g->codes : "");
    sqlite3_bind_int(s, 22, g->text_form);
    sqlite3_bind_blob64(s, 23, g->text ? g->text : "", g->len, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc != SQLITE_DONE)
        return failed(st, "cannot write to the index");
    if (sqlite3_changes(st->db) == 0) {
        /* The same game: its id. */
        sqlite3_bind_blob(f, 1, g->digest, sizeof g->digest, SQLITE_STATIC);
        rc = sqlite3_step(f);
        *id = rc == SQLITE_ROW ? sqlite3_column_int64(f, 0) : 0;
        sqlite3_reset(f);
        return rc == SQLITE_ROW ? 0 : failed(st, "cannot read the index");
    }
    *id = sqlite3_last_insert_rowid(st->db);
    if (st->run && !st->run_first) {
        /* The run's first game: where its games begin (ids grow). */
        char q[128];
        snprintf(q, sizeof q, "UPDATE runs SET first_game = %lld WHERE id = %lld",
                 (long long)*id, (long long)st->run);
        if (sqlite3_exec(st->db, q, NULL, NULL, NULL) != SQLITE_OK)
            return failed(st, "cannot write to the index");
        st->run_first = *id;
    }
    /* Its rules and start among those a lookup reads a position under, and
     * the explorer starts from (most games share the ones before). */
    if (!st->last_start || strcmp(st->last_start, g->start) != 0
        || !st->last_spec || strcmp(st->last_spec, g->rules) != 0) {
        if (run_texts(st, S_ADD_START, g->rules, g->start) < 0)
            return -1;
        free(st->last_start);
        free(st->last_spec);
        st->last_start = strdup(g->start);
        st->last_spec = strdup(g->rules);
    }
    return 1;
}

/* ---- postings ------------------------------------------------------------ */

static unsigned bucket_of(uint64_t fp, unsigned bits)
{
    return bits ? (unsigned)(fp >> (64 - bits)) : 0;
}

/* The 16 bits of fp after its bucket's. */
static unsigned check_of(uint64_t fp, unsigned bits)
{
    return (unsigned)(fp >> (48 - bits)) & 0xFFFF;
}

static int put_byte(struct store *st, unsigned char b)
{
    if (st->bloblen == st->blobcap) {
        size_t cap = st->blobcap ? 2 * st->blobcap : 4096;
        unsigned char *n = realloc(st->blob, cap);
        if (!n)
            return -1;
        st->blob = n;
        st->blobcap = cap;
    }
    st->blob[st->bloblen++] = b;
    return 0;
}

static int put_varint(struct store *st, uint64_t v)
{
    while (v >= 0x80) {
        if (put_byte(st, (unsigned char)(v | 0x80)) < 0)
            return -1;
        v >>= 7;
    }
    return put_byte(st, (unsigned char)v);
}

static int write_bucket(struct store *st, int64_t segment, unsigned bucket)
{
    sqlite3_stmt *s = stmt(st, S_ADD_POSTING);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, (sqlite3_int64)((uint64_t)segment << 32 | bucket));
    sqlite3_bind_blob(s, 2, st->blob, (int)st->bloblen, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    st->bloblen = 0;
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot write to the index");
}

int store_add_postings(struct store *st, struct posting *p, size_t n)
{
    if (n == 0)
        return 0;
    /* About 128 entries a bucket. */
    unsigned bits = 0;
    while (bits < 24 && ((size_t)128 << bits) < n)
        bits++;
    sqlite3_stmt *s = stmt(st, S_ADD_SEGMENT);
    if (!s)
        return -1;
    sqlite3_bind_int(s, 1, (int)bits);
    sqlite3_bind_int64(s, 2, (sqlite3_int64)n);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return failed(st, "cannot write to the index");
    int64_t segment = sqlite3_last_insert_rowid(st->db);
    /* Into bucket order, keeping the order of game and ply they come in
     * (a counting sort: stable, and linear). */
    size_t nb = (size_t)1 << bits;
    size_t *at = calloc(nb + 1, sizeof *at);
    struct posting *sorted = malloc(n * sizeof *sorted);
    if (!at || !sorted) {
        free(at);
        free(sorted);
        st->code = PMN_F002;
        snprintf(st->error, sizeof st->error, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        assert(i == 0 || p[i].game > p[i - 1].game
               || (p[i].game == p[i - 1].game && p[i].ply > p[i - 1].ply));
        at[bucket_of(p[i].fp, bits) + 1]++;
    }
    for (size_t b = 0; b < nb; b++)
        at[b + 1] += at[b];
    for (size_t i = 0; i < n; i++)
        sorted[at[bucket_of(p[i].fp, bits)]++] = p[i];
    memcpy(p, sorted, n * sizeof *p);
    free(sorted);
    free(at);
    st->bloblen = 0;
    unsigned bucket = bucket_of(p[0].fp, bits);
    int64_t game = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned b = bucket_of(p[i].fp, bits);
        if (b != bucket) {
            if (write_bucket(st, segment, bucket) < 0)
                return -1;
            bucket = b;
            game = 0;
        }
        unsigned check = check_of(p[i].fp, bits);
        if (put_varint(st, (uint64_t)(p[i].game - game)) < 0
            || put_byte(st, (unsigned char)(check >> 8)) < 0
            || put_byte(st, (unsigned char)check) < 0 || put_varint(st, p[i].ply) < 0) {
            st->code = PMN_F002;
            snprintf(st->error, sizeof st->error, "out of memory");
            return -1;
        }
        game = p[i].game;
    }
    return write_bucket(st, segment, bucket);
}

static const char *column_text(sqlite3_stmt *s, int i)
{
    return (const char *)sqlite3_column_text(s, i);
}

int store_game(struct store *st, int64_t id, int text, struct stored_game *g)
{
    sqlite3_stmt *s = stmt(st, S_GAME);
    if (!s)
        return -1;
    /* The statement of the game stays on its row, so that its strings stay
     * valid until the next read (the reset below comes then). */
    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, id);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE)
        return 0;
    if (rc != SQLITE_ROW)
        return failed(st, "cannot read the index");
    memset(g, 0, sizeof *g);
    g->id = sqlite3_column_int64(s, 0);
    g->file = column_text(s, 1);
    g->number = (unsigned long)sqlite3_column_int64(s, 2);
    g->line = (pmn_at)sqlite3_column_int64(s, 3);
    g->rules = column_text(s, 4);
    g->rule_set = column_text(s, 5);
    g->start = column_text(s, 6);
    g->plies = sqlite3_column_blob(s, 7);
    g->nplies = (size_t)sqlite3_column_bytes(s, 7);
    g->result = column_text(s, 8);
    g->date = column_text(s, 9);
    g->state = sqlite3_column_int(s, 10);
    g->ending = sqlite3_column_int(s, 11);
    g->outcome = sqlite3_column_int(s, 12);
    g->moves = (unsigned)sqlite3_column_int(s, 13);
    g->count[PMN_ERROR] = (unsigned)sqlite3_column_int(s, 14);
    g->count[PMN_WARNING] = (unsigned)sqlite3_column_int(s, 15);
    g->count[PMN_NOTE] = (unsigned)sqlite3_column_int(s, 16);
    g->codes = column_text(s, 17);
    g->text_form = sqlite3_column_int(s, 18);
    g->text = text ? sqlite3_column_blob(s, 19) : NULL;
    g->len = text ? (size_t)sqlite3_column_bytes(s, 19) : 0;
    if (!g->text)
        g->text = "";
    if (sqlite3_column_bytes(s, 20) == (int)sizeof g->digest)
        memcpy(g->digest, sqlite3_column_blob(s, 20), sizeof g->digest);
    if (!g->file || !g->rules || !g->rule_set || !g->start || !g->codes) {
        st->code = PMN_F006;
        snprintf(st->error, sizeof st->error, "game %lld of the index is damaged (a column "
                 "of it is empty)", (long long)id);
        return -1;
    }
    g->south = column_text(s, 21);
    g->north = column_text(s, 22);
    g->event = column_text(s, 23);
    return 1;
}

/* The rows of statement which (bound: its first parameter fp, if any),
 * each (int64, int) to fn. */
static int each_row(struct store *st, int which,
                    int (*fn)(void *ctx, int64_t game, unsigned ply), void *ctx)
{
    sqlite3_stmt *s = stmt(st, which);
    if (!s)
        return -1;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if (fn(ctx, sqlite3_column_int64(s, 0),
               sqlite3_column_count(s) > 1 ? (unsigned)sqlite3_column_int(s, 1) : 0)) {
            rc = SQLITE_DONE;
            break;
        }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot read the index");
}

static uint64_t get_varint(const unsigned char **p, const unsigned char *end, int *bad)
{
    uint64_t v = 0;
    for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
        unsigned char b = *(*p)++;
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80))
            return v;
    }
    *bad = 1;
    return 0;
}

int store_at(struct store *st, uint64_t fp, int (*fn)(void *ctx, int64_t game, unsigned ply),
             void *ctx)
{
    sqlite3_stmt *seg = stmt(st, S_SEGMENTS), *b = stmt(st, S_BUCKET);
    if (!seg || !b)
        return -1;
    int rc, stop = 0, bad = 0;
    while (!stop && !bad && (rc = sqlite3_step(seg)) == SQLITE_ROW) {
        int64_t segment = sqlite3_column_int64(seg, 0);
        unsigned bits = (unsigned)sqlite3_column_int(seg, 1);
        if (bits > 24) {
            bad = 1;
            break;
        }
        unsigned bucket = bucket_of(fp, bits), check = check_of(fp, bits);
        sqlite3_bind_int64(b, 1, (sqlite3_int64)((uint64_t)segment << 32 | bucket));
        int brc = sqlite3_step(b);
        if (brc == SQLITE_ROW) {
            const unsigned char *p = sqlite3_column_blob(b, 0);
            const unsigned char *end = p + sqlite3_column_bytes(b, 0);
            int64_t game = 0;
            while (p && p < end && !stop && !bad) {
                game += (int64_t)get_varint(&p, end, &bad);
                if (end - p < 2) {
                    bad = 1;
                    break;
                }
                unsigned c = (unsigned)p[0] << 8 | p[1];
                p += 2;
                uint64_t ply = get_varint(&p, end, &bad);
                if (!bad && c == check)
                    stop = fn(ctx, game, (unsigned)ply);
            }
        } else if (brc != SQLITE_DONE) {
            sqlite3_reset(b);
            sqlite3_reset(seg);
            return failed(st, "cannot read the index");
        }
        sqlite3_reset(b);
    }
    sqlite3_reset(seg);
    if (bad) {
        st->code = PMN_F006;
        snprintf(st->error, sizeof st->error, "the index is damaged (a bucket of its "
                 "positions cannot be read)");
        return -1;
    }
    return stop || rc == SQLITE_DONE ? 0 : failed(st, "cannot read the index");
}

int store_each(struct store *st, int (*fn)(void *ctx, int64_t game, unsigned ply), void *ctx)
{
    return each_row(st, S_EACH, fn, ctx);
}

static int count_of(struct store *st, const char *q, uint64_t *n)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, q, -1, &s, NULL) != SQLITE_OK)
        return failed(st, "cannot read the index");
    int rc = sqlite3_step(s);
    *n = rc == SQLITE_ROW ? (uint64_t)sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : failed(st, "cannot read the index");
}

int store_counts(struct store *st, struct store_counts *c)
{
    memset(c, 0, sizeof *c);
    uint64_t pages = 0, size = 0;
    if (count_of(st, "SELECT count(*) FROM games", &c->games) < 0
        || count_of(st, "SELECT coalesce(sum(entries), 0) FROM segments", &c->positions) < 0
        || count_of(st, "SELECT count(*) FROM segments", &c->segments) < 0
        || count_of(st, "SELECT count(*) FROM games WHERE errors > 0", &c->with_errors) < 0
        || count_of(st, "PRAGMA page_count", &pages) < 0
        || count_of(st, "PRAGMA page_size", &size) < 0)
        return -1;
    c->bytes = pages * size;
    return 0;
}

int store_run_start(struct store *st, int64_t *id)
{
    if (run(st, S_RUN_START, "cannot write to the index") < 0)
        return -1;
    *id = st->run = sqlite3_last_insert_rowid(st->db);
    st->run_first = 0;
    return 0;
}

int store_run_end(struct store *st, int64_t run, uint64_t games)
{
    sqlite3_stmt *s = stmt(st, S_RUN_END);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, (sqlite3_int64)games);
    sqlite3_bind_int64(s, 2, run);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot write to the index");
}

int store_runs_open(struct store *st, int (*fn)(void *ctx, const char *started, uint64_t games),
                    void *ctx)
{
    sqlite3_stmt *s = stmt(st, S_RUNS_OPEN);
    if (!s)
        return -1;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *started = column_text(s, 0);
        if (fn(ctx, started ? started : "?", (uint64_t)sqlite3_column_int64(s, 1))) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot read the index");
}

int store_each_start(struct store *st, int (*fn)(void *ctx, const char *spec, const char *start),
                     void *ctx)
{
    sqlite3_stmt *s = stmt(st, S_STARTS);
    if (!s)
        return -1;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *spec = column_text(s, 0), *start = column_text(s, 1);
        if (spec && start && fn(ctx, spec, start)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot read the index");
}

int store_explorer_clear(struct store *st)
{
    return run(st, S_EXPLORER_CLEAR, "cannot write to the index");
}

int store_explorer_put(struct store *st, uint64_t fp, const unsigned char *key, size_t keylen,
                       uint64_t games, const char *stats)
{
    sqlite3_stmt *s = stmt(st, S_EXPLORER_PUT);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, (sqlite3_int64)fp);
    sqlite3_bind_blob(s, 2, key, (int)keylen, SQLITE_STATIC);
    sqlite3_bind_int64(s, 3, (sqlite3_int64)games);
    bind_text(s, 4, stats);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot write to the index");
}

int store_explorer_get(struct store *st, uint64_t fp, const unsigned char *key, size_t keylen,
                       const char **stats)
{
    sqlite3_stmt *s = stmt(st, S_EXPLORER_GET);
    if (!s)
        return -1;
    /* On its row until the next call: stats stays valid. */
    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, (sqlite3_int64)fp);
    sqlite3_bind_blob(s, 2, key, (int)keylen, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE)
        return 0;
    if (rc != SQLITE_ROW)
        return failed(st, "cannot read the index");
    *stats = column_text(s, 1);
    return *stats ? 1 : 0;
}
