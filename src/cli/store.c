/* store.c - an archive index's database (store.h), in SQLite or on a
 * PostgreSQL server: each query written once here, run by the driver of
 * the database the index is in (driver.h: sqlite.c, postgres.c), which
 * holds the schema in its dialect.
 *
 * The schema (version 3; version 2 filed positions under other
 * fingerprints, version 1 kept the text in games):
 *   meta(name, value)       'schema' = pmn-index, 'version', 'pmn' that made it
 *   games(id, ...)          a game a row: where it was read, its rules, start
 *                           and plies (what its positions are replayed from),
 *                           its roster tags, result, ending, what checking it
 *                           found; digest UNIQUE (games_digest): the same game
 *                           is stored once
 *   texts(id, text)         its text, apart: a question of tags reads the
 *                           games' rows alone (a sixth of the bytes)
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
 *   vsegments, vpostings    with --variations: as segments and postings,
 *                           of the positions the games' variations reach,
 *                           each entry with the variation's line (a varint)
 *                           before its ply; meta 'variations' = 1 in such
 *                           an index (one without the row holds main lines
 *                           only)
 *   postings(key, data)     ... in 2^bits buckets by the top bits of their
 *                           fingerprints: key = segment << 32 | bucket, data
 *                           its entries, in order of game and ply: the game
 *                           less the one before (a varint), the 16 bits of
 *                           the fingerprint after the bucket's, the ply (a
 *                           varint) -- about 5 bytes a position
 * A fingerprint is pmn_position_key of a position (its exact key: the
 * holes a side, the side to move, each hole's seeds; lookup.c), and a
 * bucket keeps 16 of them past its own: two positions may share what is
 * kept, so a game found by it is replayed to its ply and compared before
 * it is taken (index.c) -- the index narrows, the replay decides.  A
 * segment's buckets hold about 1024 entries each (a build's batch; a
 * smaller segment, fewer): a lookup reads one blob a segment.
 *
 * Readers see the last batch committed while a writer writes, and two
 * writers write at once (each driver says how). */
#include "store.h"
#include "driver.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What store_game reads of a game (g: games), in its order. */
#define GAME_COLUMNS \
    "g.id, file, number, line, rules, rule_set, start, plies, result, date, state, ending," \
    " outcome, moves, errors, warnings, notes, codes, text_form, digest, south, north, event"

/* Each statement once, its parameters $1, $2, ... in the order they
 * first appear (SQLite numbers named parameters so, and PostgreSQL's are
 * these); only SQL both databases read, the few a dialect writes its own
 * way in its driver.  A time is written by pmn (UTC), not by the
 * database's own functions, which the two name differently. */
static const char *const sql[DRIVER_STATEMENTS] = {
    [S_ADD_GAME] = SQL_ADD_GAME " RETURNING id",
    [S_ADD_TEXT] = "INSERT INTO texts(id, text) VALUES($1, $2)",
    [S_FIND_DIGEST] = "SELECT id FROM games WHERE digest = $1",
    [S_GAME_DIGEST] = "SELECT digest FROM games WHERE id = $1",
    /* Made by a build once its games are in (store_digest_index), or by
     * the first transaction of any writer that finds it missing. */
    [S_DIGEST_INDEX] = "CREATE UNIQUE INDEX IF NOT EXISTS games_digest ON games(digest)",
    [S_ADD_SEGMENT] = "INSERT INTO segments(bits, entries) VALUES($1, $2) RETURNING id",
    [S_ADD_POSTING] = "INSERT INTO postings(key, data) VALUES($1, $2)",
    [S_GAME] = "SELECT " GAME_COLUMNS " FROM games g WHERE g.id = $1",
    /* With its text: one statement (on a server, one round trip). */
    [S_GAME_TEXT] = "SELECT " GAME_COLUMNS ", t.text FROM games g LEFT JOIN texts t"
                    " ON t.id = g.id WHERE g.id = $1",
    /* What the explorer counts of a game, from an id on, a page at a
     * time (store_game_brief walks it). */
    [S_GAME_BRIEF] = "SELECT id, rules, start, plies, result, date FROM games WHERE id >= $1"
                     " ORDER BY id LIMIT 64",
    [S_SEGMENTS] = "SELECT id, bits FROM segments ORDER BY id",
    [S_BUCKET] = "SELECT data FROM postings WHERE key = $1",
    /* A page of ids at a time: a million games are not one result. */
    [S_EACH] = "SELECT id FROM games WHERE id > $1 ORDER BY id LIMIT 4096",
    [S_ADD_START] = "INSERT INTO starts(spec, start) VALUES($1, $2) ON CONFLICT DO NOTHING",
    [S_STARTS] = "SELECT spec, start FROM starts ORDER BY spec, start",
    /* Two writers take turns: each write transaction first writes a row
     * the other must wait for (SQLite's BEGIN IMMEDIATE waits already).
     * Side by side on PostgreSQL, two adds of the same games waited for
     * each other's digests in turn, and one failed: "deadlock detected". */
    [S_WRITE_LOCK] = "UPDATE meta SET value = value WHERE name = 'schema'",
    [S_EXPLORER_CLEAR] = "DELETE FROM explorer",
    [S_EXPLORER_PUT] = "INSERT INTO explorer(fp, key, games, stats) VALUES($1, $2, $3, $4)"
                       " ON CONFLICT(fp, key) DO UPDATE SET games = excluded.games,"
                       " stats = excluded.stats",
    [S_EXPLORER_KEYS] = "SELECT fp, key FROM explorer",
    [S_ROSTER] = "SELECT id, number, south, north, event, date, result, rule_set, state, ending,"
                 " outcome, moves, errors, warnings, notes, codes FROM games WHERE id > $1"
                 " ORDER BY id LIMIT 4096",
    [S_META_SET] = "INSERT INTO meta(name, value) VALUES($1, $2)"
                   " ON CONFLICT(name) DO UPDATE SET value = excluded.value",
    [S_EXPLORER_GET] = "SELECT games, stats FROM explorer WHERE fp = $1 AND key = $2",
    [S_RUN_START] = "INSERT INTO runs(started) VALUES($1) RETURNING id",
    [S_RUN_FIRST] = "UPDATE runs SET first_game = $1 WHERE id = $2",
    [S_RUN_END] = "UPDATE runs SET games = $1, finished = $2 WHERE id = $3",
    [S_RUNS_OPEN] = "SELECT started, (SELECT count(*) FROM games WHERE id >= runs.first_game)"
                    " FROM runs WHERE finished IS NULL ORDER BY id",
    [S_META_PUT] = "INSERT INTO meta(name, value) VALUES($1, $2)",
    [S_COUNT_GAMES] = "SELECT count(*) FROM games",
    [S_COUNT_POSITIONS] = "SELECT CAST(coalesce(sum(entries), 0) AS BIGINT) FROM segments",
    [S_COUNT_VPOSITIONS] = "SELECT CAST(coalesce(sum(entries), 0) AS BIGINT) FROM vsegments",
    [S_COUNT_SEGMENTS] = "SELECT count(*) FROM segments",
    [S_COUNT_ERRORS] = "SELECT count(*) FROM games WHERE errors > 0",
    [S_ADD_VSEGMENT] = "INSERT INTO vsegments(bits, entries) VALUES($1, $2) RETURNING id",
    [S_ADD_VPOSTING] = "INSERT INTO vpostings(key, data) VALUES($1, $2)",
    [S_VSEGMENTS] = "SELECT id, bits FROM vsegments ORDER BY id",
    [S_VBUCKET] = "SELECT data FROM vpostings WHERE key = $1",
    [S_META_GET] = "SELECT value FROM meta WHERE name = $1",
    [S_BEGIN] = "BEGIN",
    [S_COMMIT] = "COMMIT",
    [S_ROLLBACK] = "ROLLBACK",
};

struct store {
    const struct driver *d;
    struct conn *c;
    char error[512];
    int code;
    /* The segments being filled, of main lines and of variations. */
    struct filling {
        unsigned bits;        /* 2^bits buckets */
        struct bucket {
            unsigned char *data;   /* its entries, as written */
            size_t len, cap;
            int64_t last;          /* the game of its last entry (0 none) */
        } *b;
        size_t nb;            /* of b, allocated (kept from segment to segment) */
        uint64_t entries;
        int open;
        struct posting *staged;   /* come, not yet in their buckets */
        size_t nstaged;
    } fill[2];
    size_t segment_size;      /* positions a segment is sized for */
    /* A new index's games by the first 8 bytes of their digests (an
     * open-addressing table, id 0 a free place) while the unique index of
     * digests is not made (store_digest_index); heldcap a power of 2. */
    struct held_digest {
        uint64_t key;
        int64_t id;
    } *held;
    size_t nheld, heldcap;
    size_t held_max;          /* 0: HELD_MAX */
    int deferred;             /* the index of digests is not made: held tells */
    int index_checked;        /* a writer made sure it is there */
    int brief;                /* store_game_brief's statement is on its row brief_id */
    int64_t brief_id;
    char *last_spec;          /* the rules of the game added last */
    char *last_start;         /* its start */
    int64_t run, run_first;   /* the build or add running, its first game */
};

static char open_error[512];
static int open_code;

/* The driver of the database an address names: a PostgreSQL URI, else
 * an SQLite file. */
static const struct driver *driver_of(const char *address)
{
    return strncmp(address, "postgresql:", 11) == 0 || strncmp(address, "postgres:", 9) == 0
           ? &driver_postgres : &driver_sqlite;
}

int store_exists(const char *address)
{
    return driver_of(address)->exists(address);
}

static const char *const reading = "cannot read the index", *const writing = "cannot write to "
                                                                            "the index";

static int code_of(enum failure f)
{
    return f == FAIL_WRITE ? PMN_F003 : f == FAIL_GONE ? PMN_F001
         : f == FAIL_MEMORY ? PMN_F002 : PMN_F006;
}

/* The reason of a failure of the database, with its code. */
static int failed(struct store *st, const char *what)
{
    const char *why;
    enum failure f = st->d->failure(st->c, &why);
    /* The server gone: a write that failed, or a read. */
    st->code = f == FAIL_GONE && what != reading ? PMN_F003 : code_of(f);
    snprintf(st->error, sizeof st->error, "%s: %s", what, why);
    return -1;
}

static int memory_failed(struct store *st)
{
    st->code = PMN_F002;
    snprintf(st->error, sizeof st->error, "out of memory");
    return -1;
}

/* Game id's row read back without what every row has (F006): -1. */
static int damaged(struct store *st, int64_t id, const char *what)
{
    st->code = PMN_F006;
    snprintf(st->error, sizeof st->error, "game %lld of the index is damaged (%s)",
             (long long)id, what);
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

/* Run statement which with its parameters: 0, or -1 said as `what`. */
static int query(struct store *st, int which, const char *what, const struct arg *a, int n)
{
    const char *text = which < st->d->nown && st->d->own[which] ? st->d->own[which] : sql[which];
    return st->d->run(st->c, which, text, a, n) < 0 ? failed(st, what) : 0;
}

/* Its next row: 1, 0 none left, -1. */
static int next(struct store *st, int which, const char *what)
{
    int rc = st->d->row(st->c, which);
    return rc < 0 ? failed(st, what) : rc;
}

/* A statement of no rows run: 0 or -1. */
static int run(struct store *st, int which, const char *what, const struct arg *a, int n)
{
    int rc = query(st, which, what, a, n) < 0 ? -1 : next(st, which, what);
    st->d->reset(st->c, which);
    return rc < 0 ? -1 : 0;
}

/* A statement of one integer: 1 with *v, 0 if it gave no row, -1. */
static int one(struct store *st, int which, const char *what, const struct arg *a, int n,
               int64_t *v)
{
    int rc = query(st, which, what, a, n) < 0 ? -1 : next(st, which, what);
    *v = rc == 1 ? st->d->integer(st->c, which, 0) : 0;
    st->d->reset(st->c, which);
    return rc;
}

static const char *text_at(struct store *st, int which, int col)
{
    return st->d->bytes(st->c, which, col, NULL);
}

/* Is the database an index of this schema, of a version this pmn reads? */
static int check_schema(struct store *st)
{
    char name[64], text[16];
    const char *why;
    if (store_meta_get(st, "schema", name, sizeof name) < 0) {
        if (st->d->failure(st->c, &why) != FAIL_NO_TABLE)
            return -1;   /* said as the failure it is */
        st->code = PMN_F006;   /* no table meta: another database */
        snprintf(st->error, sizeof st->error, "not a pmn archive index (a%s %s database "
                 "without its tables: make one with 'pmn index build')",
                 st->d == &driver_sqlite ? "n" : "", st->d->name);
        return -1;
    }
    if (store_meta_get(st, "version", text, sizeof text) < 0)
        return -1;
    long version = strtol(text, NULL, 10);
    st->code = PMN_F006;
    if (strcmp(name, STORE_SCHEMA) != 0) {
        snprintf(st->error, sizeof st->error, "not a pmn archive index (its meta table "
                 "names no schema '%s')", STORE_SCHEMA);
        return -1;
    }
    if (version != STORE_VERSION) {
        /* An earlier one filed its positions otherwise: read by this pmn,
         * it would find nothing (never a wrong game: the replay decides). */
        int earlier = version >= 1 && version < STORE_VERSION;
        snprintf(st->error, sizeof st->error, "an index of schema version %ld, which this pmn "
                 "(%s, version %d) cannot read: made by a%s pmn%s", version, pmn_version(),
                 STORE_VERSION, version > STORE_VERSION ? " later" : earlier ? "n earlier"
                 : " broken", earlier ? " (build it again from its archives)" : "");
        return -1;
    }
    st->code = 0;
    return 0;
}

/* The tables and what they are, in one transaction: a database holds an
 * index whole or not at all. */
static int create(struct store *st)
{
    char version[16];
    snprintf(version, sizeof version, "%d", STORE_VERSION);
    struct arg meta[][2] = {
        { ARG_T("schema"), ARG_T(STORE_SCHEMA) },
        { ARG_T("version"), ARG_T(version) },
        { ARG_T("pmn"), ARG_T(pmn_version()) },
    };
    if (run(st, S_BEGIN, "cannot make the index", NULL, 0) < 0)
        return -1;
    if (st->d->exec(st->c, st->d->schema) < 0) {
        failed(st, "cannot make the index");
        store_rollback(st);
        return -1;
    }
    for (size_t i = 0; i < sizeof meta / sizeof *meta; i++)
        if (run(st, S_META_PUT, "cannot make the index", meta[i], 2) < 0) {
            store_rollback(st);
            return -1;
        }
    st->deferred = 1;   /* the index of digests after the games: store_digest_index */
    return run(st, S_COMMIT, "cannot make the index", NULL, 0);
}

struct store *store_open(const char *path, enum store_mode mode)
{
    struct store *st = calloc(1, sizeof *st);
    if (!st) {
        open_code = PMN_F002;
        snprintf(open_error, sizeof open_error, "out of memory");
        return NULL;
    }
    st->d = driver_of(path);
    enum failure f = FAIL_OTHER;
    st->c = st->d->open(path, mode == STORE_CREATE ? DRIVER_CREATE : mode == STORE_WRITE
                                  ? DRIVER_WRITE : DRIVER_READ, &f, open_error, sizeof open_error);
    if (!st->c) {
        open_code = code_of(f);
        free(st);
        return NULL;
    }
    if ((mode == STORE_CREATE ? create(st) : check_schema(st)) < 0) {
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
    int rc = st->c ? st->d->close(st->c) : 0;
    free(st->held);
    for (int v = 0; v < 2; v++) {
        for (size_t k = 0; k < st->fill[v].nb; k++)
            free(st->fill[v].b[k].data);
        free(st->fill[v].b);
        free(st->fill[v].staged);
    }
    free(st->last_spec);
    free(st->last_start);
    free(st);
    return rc;
}

int store_begin(struct store *st)
{
    if (run(st, S_BEGIN, writing, NULL, 0) < 0)
        return -1;
    if (run(st, S_WRITE_LOCK, writing, NULL, 0) < 0) {
        store_rollback(st);
        return -1;
    }
    /* An index whose build stopped before it made the index of digests
     * (killed, the disk full): made now, before a game is added. */
    if (!st->deferred && !st->index_checked) {
        if (run(st, S_DIGEST_INDEX, writing, NULL, 0) < 0) {
            store_rollback(st);
            return -1;
        }
        st->index_checked = 1;
    }
    return 0;
}

int store_commit(struct store *st)
{
    return run(st, S_COMMIT, writing, NULL, 0);
}

void store_rollback(struct store *st)
{
    /* What failed is said already: what this says is not kept. */
    char error[sizeof st->error];
    int code = st->code;
    memcpy(error, st->error, sizeof error);
    run(st, S_ROLLBACK, writing, NULL, 0);
    memcpy(st->error, error, sizeof error);
    st->code = code;
    st->fill[0].open = st->fill[1].open = 0;   /* its postings, not written */
}

/* Now, as a run's times are written: UTC, to the second. */
static const char *now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm) == 0)
        snprintf(buf, len, "?");
    return buf;
}

/* The most games a new index tells apart in memory (16 bytes a place, at
 * most 3/4 of them taken: 64 MB); past them, the index of digests is made
 * and kept up game by game. */
#define HELD_MAX ((size_t)3 << 20)

/* Its place in a table of cap (a power of 2, at most 2^32). */
static size_t held_slot(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

static uint64_t digest_key(const unsigned char d[16])
{
    uint64_t k = 0;
    for (int i = 0; i < 8; i++)
        k |= (uint64_t)d[i] << (8 * i);
    return k;
}

/* Is game id's digest d?  1, 0, -1. */
static int digest_is(struct store *st, int64_t id, const unsigned char d[16])
{
    const struct arg a[] = { ARG_I(id) };
    int rc = query(st, S_GAME_DIGEST, reading, a, 1) < 0 ? -1 : next(st, S_GAME_DIGEST, reading);
    size_t n = 0;
    const void *v = rc == 1 ? st->d->bytes(st->c, S_GAME_DIGEST, 0, &n) : NULL;
    int same = v && n == 16 && memcmp(v, d, 16) == 0;
    st->d->reset(st->c, S_GAME_DIGEST);
    return rc < 0 ? -1 : same;
}

/* The game of digest d among those held: its id, 0 none, -1. */
static int64_t held_game(struct store *st, const unsigned char d[16])
{
    uint64_t key = digest_key(d);
    size_t mask = st->heldcap - 1;
    for (size_t i = held_slot(key, st->heldcap); st->held[i].id; i = (i + 1) & mask)
        if (st->held[i].key == key) {
            int same = digest_is(st, st->held[i].id, d);
            if (same != 0)
                return same < 0 ? -1 : st->held[i].id;
        }
    return 0;
}

/* e into the first free place from its own in a table of cap. */
static void place_held(struct held_digest *h, size_t cap, struct held_digest e)
{
    size_t i = held_slot(e.key, cap);
    while (h[i].id)
        i = (i + 1) & (cap - 1);
    h[i] = e;
}

/* 0, 1 when as many are held as may be (the index of digests is made
 * then), -1. */
static int hold_digest(struct store *st, const unsigned char d[16], int64_t id)
{
    if (st->nheld >= (st->held_max ? st->held_max : HELD_MAX))
        return 1;
    if (4 * (st->nheld + 1) > 3 * st->heldcap) {
        size_t cap = st->heldcap ? 2 * st->heldcap : 4096;
        struct held_digest *h = calloc(cap, sizeof *h);
        if (!h)
            return memory_failed(st);
        for (size_t k = 0; k < st->heldcap; k++)
            if (st->held[k].id)
                place_held(h, cap, st->held[k]);
        free(st->held);
        st->held = h;
        st->heldcap = cap;
    }
    place_held(st->held, st->heldcap, (struct held_digest){ digest_key(d), id });
    st->nheld++;
    return 0;
}

static void forget_held(struct store *st)
{
    free(st->held);
    st->held = NULL;
    st->nheld = st->heldcap = 0;
    st->deferred = 0;
    st->index_checked = 1;
}

void store_set_held_max(struct store *st, size_t games)
{
    st->held_max = games;
}

int store_digest_index(struct store *st)
{
    if (!st->deferred)
        return 0;
    if (store_begin(st) < 0)
        return -1;
    if (run(st, S_DIGEST_INDEX, writing, NULL, 0) < 0 || store_commit(st) < 0) {
        store_rollback(st);
        return -1;
    }
    forget_held(st);
    return 0;
}

int store_add_game(struct store *st, const struct stored_game *g, int64_t *id)
{
    if (st->deferred && st->heldcap) {
        int64_t held = held_game(st, g->digest);
        if (held < 0)
            return -1;
        if (held) {
            *id = held;
            return 0;
        }
    }
    const struct arg a[] = {
        /* The file's name as bytes: a system's names need not be UTF-8,
         * which a server's text must be. */
        ARG_B(g->digest, sizeof g->digest), ARG_B(g->file, strlen(g->file)), ARG_I(g->number),
        ARG_I(g->line),
        ARG_T(g->rules), ARG_T(g->rule_set), ARG_T(g->start), ARG_B(g->plies, g->nplies),
        ARG_T(g->south), ARG_T(g->north), ARG_T(g->event),
        ARG_T(g->date), ARG_T(g->result), ARG_I(g->state), ARG_I(g->ending), ARG_I(g->outcome),
        ARG_I(g->moves), ARG_I(g->count[PMN_ERROR] + g->count[PMN_FATAL]),
        ARG_I(g->count[PMN_WARNING]), ARG_I(g->count[PMN_NOTE]), ARG_T(g->codes ? g->codes : ""),
        ARG_I(g->text_form),
    };
    int rc = st->d->inserted
             ? run(st, S_ADD_GAME, writing, a, (int)(sizeof a / sizeof *a)) < 0 ? -1
               : (*id = st->d->inserted(st->c)) != 0
             : one(st, S_ADD_GAME, writing, a, (int)(sizeof a / sizeof *a), id);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        /* The same game: its id. */
        rc = one(st, S_FIND_DIGEST, reading, a, 1, id);
        if (rc == 0) {
            st->code = PMN_F006;
            snprintf(st->error, sizeof st->error, "cannot read the index: a game it holds "
                     "already is not found by its digest");
        }
        return rc == 1 ? 0 : -1;
    }
    if (st->deferred) {
        int full = hold_digest(st, g->digest, *id);
        if (full < 0)
            return -1;
        if (full) {
            /* As many as memory is given for: the index of digests now,
             * in this transaction, and kept up from here on. */
            if (run(st, S_DIGEST_INDEX, writing, NULL, 0) < 0)
                return -1;
            forget_held(st);
        }
    }
    /* Its text apart: the rows a question of tags reads are then small. */
    const struct arg t[] = { ARG_I(*id), ARG_B(g->text ? g->text : "", g->len) };
    if (run(st, S_ADD_TEXT, writing, t, 2) < 0)
        return -1;
    if (st->run && !st->run_first) {
        /* The run's first game: where its games begin (ids grow). */
        const struct arg f[] = { ARG_I(*id), ARG_I(st->run) };
        if (run(st, S_RUN_FIRST, writing, f, 2) < 0)
            return -1;
        st->run_first = *id;
    }
    /* Its rules and start among those a lookup reads a position under, and
     * the explorer starts from (most games share the ones before). */
    if (!st->last_start || strcmp(st->last_start, g->start) != 0
        || !st->last_spec || strcmp(st->last_spec, g->rules) != 0) {
        const struct arg s[] = { ARG_T(g->rules), ARG_T(g->start) };
        if (run(st, S_ADD_START, writing, s, 2) < 0)
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

static unsigned char *put_varint(unsigned char *o, uint64_t v)
{
    for (; v >= 0x80; v >>= 7)
        *o++ = (unsigned char)(v | 0x80);
    *o++ = (unsigned char)v;
    return o;
}

/* The most an entry takes: the game (a varint of 64 bits), the check, the
 * line and the ply (of 32). */
#define ENTRY_MAX (10 + 2 + 5 + 5)

/* Entries staged before they go to their buckets (24 bytes each). */
#define STAGED 8192

/* The buckets of a segment of n positions: about 1024 entries each (a
 * bucket of about 4.5 KB, three to a page of 16 KB; a lookup reads one a
 * segment). */
static unsigned bits_for(size_t n)
{
    unsigned bits = 0;
    while (bits < 24 && ((size_t)1024 << bits) < n)
        bits++;
    return bits;
}

void store_segment_size(struct store *st, size_t positions)
{
    st->segment_size = positions;
}

/* f open for the entries of a new segment (its buffers kept from the
 * segment before): 0, -1. */
static int open_for(struct store *st, struct filling *f)
{
    if (f->open)
        return 0;
    if (!f->staged && !(f->staged = malloc(STAGED * sizeof *f->staged)))
        return memory_failed(st);
    f->nstaged = 0;
    f->bits = bits_for(st->segment_size);
    size_t nb = (size_t)1 << f->bits;
    if (nb > f->nb) {
        struct bucket *b = realloc(f->b, nb * sizeof *b);
        if (!b)
            return memory_failed(st);
        memset(b + f->nb, 0, (nb - f->nb) * sizeof *b);
        f->b = b;
        f->nb = nb;
    }
    for (size_t k = 0; k < nb; k++) {
        f->b[k].len = 0;
        f->b[k].last = 0;
    }
    f->entries = 0;
    f->open = 1;
    return 0;
}

/* An entry into its bucket of f. */
static int put_entry(struct store *st, struct filling *f, int variations, uint64_t fp,
                     int64_t game, unsigned line, unsigned ply)
{
    struct bucket *k = &f->b[bucket_of(fp, f->bits)];
    assert(game >= k->last);   /* in the order of game (then line and ply) */
    if (k->cap - k->len < ENTRY_MAX) {
        size_t cap = k->cap ? 2 * k->cap : 256;
        unsigned char *d = realloc(k->data, cap);
        if (!d)
            return memory_failed(st);
        k->data = d;
        k->cap = cap;
    }
    unsigned check = check_of(fp, f->bits);
    unsigned char *o = put_varint(k->data + k->len, (uint64_t)(game - k->last));
    *o++ = (unsigned char)(check >> 8);
    *o++ = (unsigned char)check;
    if (variations)
        o = put_varint(o, line);
    o = put_varint(o, ply);
    k->len = (size_t)(o - k->data);
    k->last = game;
    f->entries++;
    return 0;
}

/* The entries staged into their buckets, in the order they came: in a
 * loop of its own, the buckets' ends stay in the cache (between the games,
 * reading them and writing their rows would push them out, and each entry
 * miss it). */
static int put_staged(struct store *st, struct filling *f, int variations)
{
    for (size_t i = 0; i < f->nstaged; i++) {
        const struct posting *p = &f->staged[i];
        if (put_entry(st, f, variations, p->fp, p->game, p->line, p->ply) < 0)
            return -1;
    }
    f->nstaged = 0;
    return 0;
}

static int stage(struct store *st, struct filling *f, int variations, uint64_t fp,
                 int64_t game, unsigned line, unsigned ply)
{
    if (f->nstaged == STAGED && put_staged(st, f, variations) < 0)
        return -1;
    f->staged[f->nstaged++] = (struct posting){ .fp = fp, .game = game, .line = line,
                                                .ply = ply };
    return 0;
}

int store_posting(struct store *st, int variations, uint64_t fp, int64_t game, unsigned line,
                  unsigned ply)
{
    struct filling *f = &st->fill[variations != 0];
    assert(!line == !variations);
    if (open_for(st, f) < 0)
        return -1;
    return stage(st, f, variations, fp, game, line, ply);
}

int store_line_postings(struct store *st, int64_t game, const uint64_t *fps, size_t n)
{
    struct filling *f = &st->fill[0];
    if (open_for(st, f) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (stage(st, f, 0, fps[i], game, 0, (unsigned)i) < 0)
            return -1;
    return 0;
}

int store_segment_write(struct store *st, int variations)
{
    struct filling *f = &st->fill[variations != 0];
    if (f->open && put_staged(st, f, variations) < 0)
        return -1;
    if (!f->open || f->entries == 0) {
        f->open = 0;
        return 0;
    }
    f->open = 0;
    const struct arg sa[] = { ARG_I(f->bits), ARG_I(f->entries) };
    int64_t segment;
    if (one(st, variations ? S_ADD_VSEGMENT : S_ADD_SEGMENT, writing, sa, 2, &segment) != 1)
        return -1;
    for (size_t b = 0; b < ((size_t)1 << f->bits); b++) {
        if (!f->b[b].len)
            continue;   /* an empty bucket: no row */
        const struct arg a[] = { ARG_I((uint64_t)segment << 32 | b),
                                 ARG_B(f->b[b].data, f->b[b].len) };
        if (run(st, variations ? S_ADD_VPOSTING : S_ADD_POSTING, writing, a, 2) < 0)
            return -1;
    }
    return 0;
}

int store_add_postings(struct store *st, const struct posting *p, size_t n, int variations)
{
    size_t size = st->segment_size;
    st->segment_size = n;
    st->fill[variations != 0].open = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = store_posting(st, variations, p[i].fp, p[i].game, p[i].line, p[i].ply);
    if (rc == 0)
        rc = store_segment_write(st, variations);
    st->fill[variations != 0].open = 0;
    st->segment_size = size;
    return rc;
}

int store_game(struct store *st, int64_t id, int text, struct stored_game *g)
{
    /* The statement of the game stays on its row, so that its strings stay
     * valid until the next read (which runs it anew). */
    const int q = text ? S_GAME_TEXT : S_GAME;
    const struct arg a[] = { ARG_I(id) };
    int rc = query(st, q, reading, a, 1) < 0 ? -1 : next(st, q, reading);
    if (rc <= 0)
        return rc;
    const struct driver *d = st->d;
    struct conn *c = st->c;
    memset(g, 0, sizeof *g);
    g->id = d->integer(c, q, 0);
    g->file = text_at(st, q, 1);
    g->number = (unsigned long)d->integer(c, q, 2);
    g->line = (pmn_at)d->integer(c, q, 3);
    g->rules = text_at(st, q, 4);
    g->rule_set = text_at(st, q, 5);
    g->start = text_at(st, q, 6);
    g->plies = d->bytes(c, q, 7, &g->nplies);
    g->result = text_at(st, q, 8);
    g->date = text_at(st, q, 9);
    g->state = (int)d->integer(c, q, 10);
    g->ending = (int)d->integer(c, q, 11);
    g->outcome = (int)d->integer(c, q, 12);
    g->moves = (unsigned)d->integer(c, q, 13);
    g->count[PMN_ERROR] = (unsigned)d->integer(c, q, 14);
    g->count[PMN_WARNING] = (unsigned)d->integer(c, q, 15);
    g->count[PMN_NOTE] = (unsigned)d->integer(c, q, 16);
    g->codes = text_at(st, q, 17);
    g->text_form = (int)d->integer(c, q, 18);
    size_t n = 0;
    const void *dg = d->bytes(c, q, 19, &n);
    if (dg && n == sizeof g->digest)
        memcpy(g->digest, dg, sizeof g->digest);
    g->south = text_at(st, q, 20);
    g->north = text_at(st, q, 21);
    g->event = text_at(st, q, 22);
    g->text = text ? d->bytes(c, q, 23, &g->len) : "";
    if (!g->text)
        return damaged(st, id, "its text is not there");
    if (!text)
        g->len = 0;
    if (!g->file || !g->rules || !g->rule_set || !g->start || !g->codes || !g->plies)
        return damaged(st, id, "a column of it is empty");
    return 1;
}

/* A brief read skips forward over this many games on its rows before it
 * looks the next one up anew (a step is cheaper than a statement). */
#define BRIEF_SKIP 16

/* The walk's next row, or (from id) its first: 1 on a row (brief_id), 0
 * past the last (of the page: a walk is looked up anew), -1. */
static int brief_row(struct store *st, const int64_t *from)
{
    const int q = S_GAME_BRIEF;
    int rc;
    if (from) {
        const struct arg a[] = { ARG_I(*from) };
        rc = query(st, q, reading, a, 1) < 0 ? -1 : next(st, q, reading);
    } else {
        rc = next(st, q, reading);
    }
    st->brief = rc == 1;
    if (rc == 1)
        st->brief_id = st->d->integer(st->c, q, 0);
    return rc;
}

int store_game_brief(struct store *st, int64_t id, struct stored_game *g)
{
    const int q = S_GAME_BRIEF;
    int rc = 1;
    if (st->brief && id >= st->brief_id && id - st->brief_id <= BRIEF_SKIP) {
        while (rc == 1 && st->brief_id < id)
            rc = brief_row(st, NULL);   /* stepped forward on the rows */
        if (rc == 0)
            rc = brief_row(st, &id);    /* the page's end: looked up anew */
    } else {
        rc = brief_row(st, &id);
    }
    if (rc <= 0 || st->brief_id > id)
        return rc < 0 ? -1 : 0;   /* not held */
    const struct driver *d = st->d;
    memset(g, 0, sizeof *g);
    g->id = id;
    g->rules = text_at(st, q, 1);
    g->start = text_at(st, q, 2);
    g->plies = d->bytes(st->c, q, 3, &g->nplies);
    g->result = text_at(st, q, 4);
    g->date = text_at(st, q, 5);
    g->text = "";
    if (!g->rules || !g->start || !g->plies)
        return damaged(st, id, "a column of it is empty");
    return 1;
}

void store_brief_end(struct store *st)
{
    if (st->brief)
        st->d->reset(st->c, S_GAME_BRIEF);
    st->brief = 0;
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

/* The segments, (id, bits) each: read whole before their buckets are (a
 * server's connection runs one statement at a time), into *seg. */
static int segments(struct store *st, int which, int64_t **seg, size_t *n)
{
    size_t cap = 0;
    *seg = NULL;
    *n = 0;
    if (query(st, which, reading, NULL, 0) < 0)
        return -1;
    int rc;
    while ((rc = next(st, which, reading)) == 1) {
        if (*n + 2 > cap) {
            cap = cap ? 2 * cap : 64;
            int64_t *m = realloc(*seg, cap * sizeof *m);
            if (!m) {
                rc = memory_failed(st);
                break;
            }
            *seg = m;
        }
        (*seg)[(*n)++] = st->d->integer(st->c, which, 0);
        (*seg)[(*n)++] = st->d->integer(st->c, which, 1);
    }
    st->d->reset(st->c, which);
    return rc;
}

/* The entries of fingerprint fp among main lines' postings (fn) or
 * variations' (vfn). */
static int entries_at(struct store *st, uint64_t fp,
                      int (*fn)(void *ctx, int64_t game, unsigned ply),
                      int (*vfn)(void *ctx, int64_t game, unsigned line, unsigned ply), void *ctx)
{
    int64_t *seg;
    size_t nseg;
    int bucket_stmt = vfn ? S_VBUCKET : S_BUCKET;
    if (segments(st, vfn ? S_VSEGMENTS : S_SEGMENTS, &seg, &nseg) < 0) {
        free(seg);
        return -1;
    }
    int rc = 0, stop = 0, bad = 0;
    for (size_t s = 0; s < nseg && !stop && !bad && rc == 0; s += 2) {
        int64_t segment = seg[s];
        if (seg[s + 1] < 0 || seg[s + 1] > 24) {
            bad = 1;
            break;
        }
        unsigned bits = (unsigned)seg[s + 1];
        unsigned bucket = bucket_of(fp, bits), check = check_of(fp, bits);
        const struct arg a[] = { ARG_I((uint64_t)segment << 32 | bucket) };
        int brc = query(st, bucket_stmt, reading, a, 1) < 0 ? -1
                : next(st, bucket_stmt, reading);
        if (brc == 1) {
            size_t len = 0;
            const unsigned char *p = st->d->bytes(st->c, bucket_stmt, 0, &len);
            const unsigned char *end = p + len;
            int64_t game = 0;
            while (p && p < end && !stop && !bad) {
                game += (int64_t)get_varint(&p, end, &bad);
                if (end - p < 2) {
                    bad = 1;
                    break;
                }
                unsigned c = (unsigned)p[0] << 8 | p[1];
                p += 2;
                uint64_t line = vfn ? get_varint(&p, end, &bad) : 0;
                uint64_t ply = get_varint(&p, end, &bad);
                if (!bad && c == check)
                    stop = vfn ? vfn(ctx, game, (unsigned)line, (unsigned)ply)
                               : fn(ctx, game, (unsigned)ply);
            }
        }
        rc = brc < 0 ? -1 : 0;
        st->d->reset(st->c, bucket_stmt);
    }
    free(seg);
    if (bad) {
        st->code = PMN_F006;
        snprintf(st->error, sizeof st->error, "the index is damaged (a bucket of its "
                 "positions cannot be read)");
        return -1;
    }
    return rc;
}

int store_at(struct store *st, uint64_t fp, int (*fn)(void *ctx, int64_t game, unsigned ply),
             void *ctx)
{
    return entries_at(st, fp, fn, NULL, ctx);
}

int store_at_variations(struct store *st, uint64_t fp,
                        int (*fn)(void *ctx, int64_t game, unsigned line, unsigned ply),
                        void *ctx)
{
    return entries_at(st, fp, NULL, fn, ctx);
}

int store_meta_get(struct store *st, const char *name, char *value, size_t size)
{
    const struct arg a[] = { ARG_T(name) };
    int rc = query(st, S_META_GET, reading, a, 1) < 0 ? -1 : next(st, S_META_GET, reading);
    const char *v = rc == 1 ? text_at(st, S_META_GET, 0) : NULL;
    snprintf(value, size, "%s", v ? v : "");
    st->d->reset(st->c, S_META_GET);
    return rc < 0 ? -1 : v != NULL;
}

int store_meta_set(struct store *st, const char *name, const char *value)
{
    const struct arg a[] = { ARG_T(name), ARG_T(value) };
    return run(st, S_META_SET, writing, a, 2);
}

int store_has_variations(struct store *st)
{
    char v[8];
    int rc = store_meta_get(st, "variations", v, sizeof v);
    return rc < 0 ? -1 : rc == 1 && strcmp(v, "1") == 0;
}

int store_set_variations(struct store *st)
{
    return store_meta_set(st, "variations", "1");
}

int store_each(struct store *st, int (*fn)(void *ctx, int64_t game, unsigned ply), void *ctx)
{
    int64_t ids[4096], after = 0;
    for (;;) {
        /* A page read whole before fn reads games (one statement at a time). */
        const struct arg a[] = { ARG_I(after) };
        size_t n = 0;
        int rc;
        if (query(st, S_EACH, reading, a, 1) < 0)
            return -1;
        while (n < sizeof ids / sizeof *ids && (rc = next(st, S_EACH, reading)) == 1)
            ids[n++] = st->d->integer(st->c, S_EACH, 0);
        st->d->reset(st->c, S_EACH);
        if (rc < 0)
            return -1;
        for (size_t i = 0; i < n; i++)
            if (fn(ctx, ids[i], 0))
                return 0;
        if (n < sizeof ids / sizeof *ids)
            return 0;
        after = ids[n - 1];
    }
}

int store_games(struct store *st, uint64_t *n)
{
    int64_t v;
    int rc = one(st, S_COUNT_GAMES, reading, NULL, 0, &v);
    *n = rc == 1 ? (uint64_t)v : 0;
    return rc < 0 ? -1 : 0;
}

int store_each_roster(struct store *st, int (*fn)(void *ctx, const struct stored_game *g),
                      void *ctx)
{
    int64_t after = 0;
    const struct driver *d = st->d;
    for (;;) {
        const struct arg a[] = { ARG_I(after) };
        if (query(st, S_ROSTER, reading, a, 1) < 0)
            return -1;
        int rc, rows = 0, stop = 0;
        while (!stop && (rc = next(st, S_ROSTER, reading)) == 1) {
            struct stored_game g;
            memset(&g, 0, sizeof g);
            g.id = after = d->integer(st->c, S_ROSTER, 0);
            g.number = (unsigned long)d->integer(st->c, S_ROSTER, 1);
            g.south = text_at(st, S_ROSTER, 2);
            g.north = text_at(st, S_ROSTER, 3);
            g.event = text_at(st, S_ROSTER, 4);
            g.date = text_at(st, S_ROSTER, 5);
            g.result = text_at(st, S_ROSTER, 6);
            g.rule_set = text_at(st, S_ROSTER, 7);
            g.state = (int)d->integer(st->c, S_ROSTER, 8);
            g.ending = (int)d->integer(st->c, S_ROSTER, 9);
            g.outcome = (int)d->integer(st->c, S_ROSTER, 10);
            g.moves = (unsigned)d->integer(st->c, S_ROSTER, 11);
            g.count[PMN_ERROR] = (unsigned)d->integer(st->c, S_ROSTER, 12);
            g.count[PMN_WARNING] = (unsigned)d->integer(st->c, S_ROSTER, 13);
            g.count[PMN_NOTE] = (unsigned)d->integer(st->c, S_ROSTER, 14);
            g.codes = text_at(st, S_ROSTER, 15);
            g.text = "";
            rows++;
            if (!g.rule_set || !g.codes) {
                st->d->reset(st->c, S_ROSTER);
                return damaged(st, g.id, "a column of it is empty");
            }
            stop = fn(ctx, &g);
        }
        st->d->reset(st->c, S_ROSTER);
        if (rc < 0)
            return -1;
        if (stop || rows < 4096)
            return 0;
    }
}

int store_counts(struct store *st, struct store_counts *c)
{
    memset(c, 0, sizeof *c);
    int64_t v[6];
    static const int which[6] = { S_COUNT_GAMES, S_COUNT_POSITIONS, S_COUNT_SEGMENTS,
                                  S_COUNT_ERRORS, S_BYTES, S_COUNT_VPOSITIONS };
    for (int i = 0; i < 6; i++)
        if (one(st, which[i], reading, NULL, 0, &v[i]) < 0)
            return -1;
    c->games = (uint64_t)v[0];
    c->positions = (uint64_t)v[1];
    c->segments = (uint64_t)v[2];
    c->with_errors = (uint64_t)v[3];
    c->bytes = (uint64_t)v[4];
    c->vpositions = (uint64_t)v[5];
    return 0;
}

int store_run_start(struct store *st, int64_t *id)
{
    char when[32];
    const struct arg a[] = { ARG_T(now(when, sizeof when)) };
    if (one(st, S_RUN_START, writing, a, 1, id) != 1)
        return -1;
    st->run = *id;
    st->run_first = 0;
    return 0;
}

int store_run_end(struct store *st, int64_t id, uint64_t games)
{
    char when[32];
    const struct arg a[] = { ARG_I(games), ARG_T(now(when, sizeof when)), ARG_I(id) };
    return run(st, S_RUN_END, writing, a, 3);
}

int store_runs_open(struct store *st, int (*fn)(void *ctx, const char *started, uint64_t games),
                    void *ctx)
{
    if (query(st, S_RUNS_OPEN, reading, NULL, 0) < 0)
        return -1;
    int rc;
    while ((rc = next(st, S_RUNS_OPEN, reading)) == 1) {
        const char *started = text_at(st, S_RUNS_OPEN, 0);
        if (fn(ctx, started ? started : "?", (uint64_t)st->d->integer(st->c, S_RUNS_OPEN, 1)))
            break;
    }
    st->d->reset(st->c, S_RUNS_OPEN);
    return rc < 0 ? -1 : 0;
}

int store_each_start(struct store *st, int (*fn)(void *ctx, const char *spec, const char *start),
                     void *ctx)
{
    /* Few: read whole, so that fn may ask the store (one statement at a time). */
    if (query(st, S_STARTS, reading, NULL, 0) < 0)
        return -1;
    char **pairs = NULL;
    size_t n = 0, cap = 0;
    int rc;
    while ((rc = next(st, S_STARTS, reading)) == 1) {
        const char *spec = text_at(st, S_STARTS, 0), *start = text_at(st, S_STARTS, 1);
        if (!spec || !start)
            continue;
        if (n + 2 > cap) {
            cap = cap ? 2 * cap : 16;
            char **m = realloc(pairs, cap * sizeof *m);
            if (!m) {
                rc = memory_failed(st);
                break;
            }
            pairs = m;
        }
        pairs[n] = strdup(spec);
        pairs[n + 1] = strdup(start);
        n += 2;
        if (!pairs[n - 2] || !pairs[n - 1]) {
            rc = memory_failed(st);
            break;
        }
    }
    st->d->reset(st->c, S_STARTS);
    for (size_t i = 0; rc == 0 && i < n; i += 2)
        if (fn(ctx, pairs[i], pairs[i + 1]))
            break;
    for (size_t i = 0; i < n; i++)
        free(pairs[i]);
    free(pairs);
    return rc < 0 ? -1 : 0;
}

int store_explorer_clear(struct store *st)
{
    return run(st, S_EXPLORER_CLEAR, writing, NULL, 0);
}

int store_explorer_keys(struct store *st,
                        int (*fn)(void *ctx, uint64_t fp, const unsigned char *key, size_t len),
                        void *ctx)
{
    if (query(st, S_EXPLORER_KEYS, reading, NULL, 0) < 0)
        return -1;
    int rc;
    while ((rc = next(st, S_EXPLORER_KEYS, reading)) == 1) {
        size_t len = 0;
        const unsigned char *key = st->d->bytes(st->c, S_EXPLORER_KEYS, 1, &len);
        if (key && fn(ctx, (uint64_t)st->d->integer(st->c, S_EXPLORER_KEYS, 0), key, len)) {
            rc = -2;
            break;
        }
    }
    st->d->reset(st->c, S_EXPLORER_KEYS);
    return rc == -2 ? -2 : rc < 0 ? -1 : 0;
}

int store_explorer_put(struct store *st, uint64_t fp, const unsigned char *key, size_t keylen,
                       uint64_t games, const char *stats)
{
    const struct arg a[] = { ARG_I(fp), ARG_B(key, keylen), ARG_I(games), ARG_T(stats) };
    return run(st, S_EXPLORER_PUT, writing, a, 4);
}

int store_explorer_get(struct store *st, uint64_t fp, const unsigned char *key, size_t keylen,
                       const char **stats)
{
    /* On its row until the next call: stats stays valid. */
    const struct arg a[] = { ARG_I(fp), ARG_B(key, keylen) };
    int rc = query(st, S_EXPLORER_GET, reading, a, 2) < 0 ? -1
           : next(st, S_EXPLORER_GET, reading);
    if (rc <= 0)
        return rc;
    *stats = text_at(st, S_EXPLORER_GET, 1);
    return *stats ? 1 : 0;
}
