/* store.c - an archive index's database, in SQLite (store.h).
 *
 * The schema (version 1):
 *   meta(name, value)       'schema' = pmn-index, 'version', 'pmn' that made it
 *   games(id, ...)          a game a row: where it was read, its rules, start
 *                           and plies (what its positions are replayed from),
 *                           its roster tags, result, ending, what checking it
 *                           found, and its text; digest UNIQUE: the same game
 *                           is stored once
 *   tags(game, i, name, value)   every tag, in its order
 *   positions(fp, game, ply)     every position of each main line: its key's
 *                           fingerprint (index.c), the game, the ply
 * A fingerprint is 64 bits of a position's exact key: two positions may
 * share one, so a game found by it is replayed to its ply and compared
 * before it is taken (index.c) -- the index narrows, the replay decides.
 *
 * The file is in WAL mode: readers see the last batch committed while a
 * writer writes, and two writers take turns (a busy writer is waited for). */
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    S_ADD_GAME, S_FIND_DIGEST, S_ADD_TAG, S_ADD_POSITION, S_GAME, S_TAGS, S_AT, S_EACH,
    S_SPECS, S_BEGIN, S_COMMIT, S_ROLLBACK, S_COUNT
};

/* Each statement once; prepared when first used. */
static const char *const sql[S_COUNT] = {
    [S_ADD_GAME] =
        "INSERT INTO games(digest, file, number, line, rules, rule_set, start, plies, south,"
        " north, event, date, result, state, ending, outcome, moves, errors, warnings, notes,"
        " codes, text_form, text) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
        " ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)"
        " ON CONFLICT(digest) DO NOTHING",
    [S_FIND_DIGEST] = "SELECT id FROM games WHERE digest = ?1",
    [S_ADD_TAG] = "INSERT INTO tags(game, i, name, value) VALUES(?1, ?2, ?3, ?4)",
    [S_ADD_POSITION] =
        "INSERT INTO positions(fp, game, ply) VALUES(?1, ?2, ?3) ON CONFLICT DO NOTHING",
    [S_GAME] =
        "SELECT id, file, number, line, rules, rule_set, start, plies, result, date, state,"
        " ending, outcome, moves, errors, warnings, notes, codes, text_form, text, digest"
        " FROM games WHERE id = ?1",
    [S_TAGS] = "SELECT name, value FROM tags WHERE game = ?1 ORDER BY i",
    [S_AT] = "SELECT game, ply FROM positions WHERE fp = ?1 ORDER BY game, ply",
    [S_EACH] = "SELECT id FROM games ORDER BY id",
    [S_SPECS] = "SELECT DISTINCT rules FROM games",
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
    "CREATE TABLE tags(game INTEGER NOT NULL, i INTEGER NOT NULL, name TEXT NOT NULL,"
    " value TEXT NOT NULL, PRIMARY KEY(game, i)) WITHOUT ROWID;"
    "CREATE TABLE positions(fp INTEGER NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL,"
    " PRIMARY KEY(fp, game, ply)) WITHOUT ROWID;"
    "CREATE INDEX games_south ON games(south);"
    "CREATE INDEX games_north ON games(north);"
    "CREATE INDEX games_event ON games(event);"
    "CREATE INDEX games_date ON games(date);";

struct store {
    sqlite3 *db;
    sqlite3_stmt *st[S_COUNT];
    char error[512];
    int code;
    /* A game read back: its tags. */
    pmn_tag *tags;
    size_t ntags, tagcap;
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
    free(st->tags);
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

int store_add_game(struct store *st, const struct stored_game *g, int64_t *id)
{
    sqlite3_stmt *s = stmt(st, S_ADD_GAME), *t = stmt(st, S_ADD_TAG),
                 *f = stmt(st, S_FIND_DIGEST);
    if (!s || !t || !f)
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
    for (size_t i = 0; i < g->ntags; i++) {
        sqlite3_bind_int64(t, 1, *id);
        sqlite3_bind_int64(t, 2, (sqlite3_int64)i);
        bind_text(t, 3, g->tags[i].name);
        bind_text(t, 4, g->tags[i].value);
        rc = sqlite3_step(t);
        sqlite3_reset(t);
        if (rc != SQLITE_DONE)
            return failed(st, "cannot write to the index");
    }
    return 1;
}

int store_add_position(struct store *st, int64_t game, int64_t fp, unsigned ply)
{
    sqlite3_stmt *s = stmt(st, S_ADD_POSITION);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, fp);
    sqlite3_bind_int64(s, 2, game);
    sqlite3_bind_int(s, 3, (int)ply);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot write to the index");
}

static const char *column_text(sqlite3_stmt *s, int i)
{
    return (const char *)sqlite3_column_text(s, i);
}

int store_game(struct store *st, int64_t id, struct stored_game *g)
{
    sqlite3_stmt *s = stmt(st, S_GAME), *t = stmt(st, S_TAGS);
    if (!s || !t)
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
    g->text = sqlite3_column_blob(s, 19);
    g->len = (size_t)sqlite3_column_bytes(s, 19);
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
    /* Its tags: copies, the statement of the tags being reset below. */
    for (size_t i = 0; i < st->ntags; i++) {
        free(st->tags[i].name);
        free(st->tags[i].value);
    }
    st->ntags = 0;
    sqlite3_bind_int64(t, 1, id);
    while ((rc = sqlite3_step(t)) == SQLITE_ROW) {
        if (st->ntags == st->tagcap) {
            size_t cap = st->tagcap ? 2 * st->tagcap : 16;
            pmn_tag *n = realloc(st->tags, cap * sizeof *n);
            if (!n)
                break;
            st->tags = n;
            st->tagcap = cap;
        }
        pmn_tag *tag = &st->tags[st->ntags];
        memset(tag, 0, sizeof *tag);
        const char *name = column_text(t, 0), *value = column_text(t, 1);
        tag->name = strdup(name ? name : "");
        tag->value = strdup(value ? value : "");
        if (!tag->name || !tag->value) {
            free(tag->name);
            free(tag->value);
            break;
        }
        st->ntags++;
    }
    sqlite3_reset(t);
    if (rc != SQLITE_DONE) {
        if (rc == SQLITE_ROW) {
            st->code = PMN_F002;
            snprintf(st->error, sizeof st->error, "out of memory");
            return -1;
        }
        return failed(st, "cannot read the index");
    }
    g->tags = st->tags;
    g->ntags = st->ntags;
    return 1;
}

/* The rows of statement which (bound: its first parameter fp, if any),
 * each (int64, int) to fn. */
static int each_row(struct store *st, int which, const int64_t *fp,
                    int (*fn)(void *ctx, int64_t game, unsigned ply), void *ctx)
{
    sqlite3_stmt *s = stmt(st, which);
    if (!s)
        return -1;
    if (fp)
        sqlite3_bind_int64(s, 1, *fp);
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

int store_at(struct store *st, int64_t fp, int (*fn)(void *ctx, int64_t game, unsigned ply),
             void *ctx)
{
    return each_row(st, S_AT, &fp, fn, ctx);
}

int store_each(struct store *st, int (*fn)(void *ctx, int64_t game, unsigned ply), void *ctx)
{
    return each_row(st, S_EACH, NULL, fn, ctx);
}

int store_rule_specs(struct store *st, int (*fn)(void *ctx, const char *spec), void *ctx)
{
    sqlite3_stmt *s = stmt(st, S_SPECS);
    if (!s)
        return -1;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *spec = column_text(s, 0);
        if (spec && fn(ctx, spec)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : failed(st, "cannot read the index");
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
        || count_of(st, "SELECT count(*) FROM positions", &c->positions) < 0
        || count_of(st, "SELECT count(DISTINCT fp) FROM positions", &c->distinct) < 0
        || count_of(st, "SELECT count(*) FROM games WHERE errors > 0", &c->with_errors) < 0
        || count_of(st, "PRAGMA page_count", &pages) < 0
        || count_of(st, "PRAGMA page_size", &size) < 0)
        return -1;
    c->bytes = pages * size;
    return 0;
}
