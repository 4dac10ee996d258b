/* driver.h - the databases an archive index lives in, behind one table of
 * calls: SQLite (sqlite.c), a file, embedded; PostgreSQL (postgres.c), a
 * server, named by a libpq URI (postgresql://...).  store.c writes each
 * query once, for both; a driver runs them and says what went wrong in
 * words both share (enum failure), and holds the schema of its dialect.
 *
 * Who owns what: a connection owns its statements and their results.  A
 * statement is named by its number in store.c's table (`which`), prepared
 * the first time it runs.  What a column gives (text, blob) is the
 * connection's, valid until the statement runs again or is reset. */
#ifndef PMN_CLI_DRIVER_H
#define PMN_CLI_DRIVER_H

#include <stddef.h>
#include <stdint.h>

struct conn;

/* The statements store.c runs, by number (their texts are its table; a
 * driver writes its own of a few, struct driver's `own`). */
enum {
    S_ADD_GAME, S_ADD_TEXT, S_GAME_TEXT, S_FIND_DIGEST, S_ADD_SEGMENT, S_ADD_POSTING, S_GAME, S_SEGMENTS, S_BUCKET,
    S_EACH, S_ADD_START, S_STARTS, S_WRITE_LOCK, S_EXPLORER_CLEAR, S_EXPLORER_PUT,
    S_EXPLORER_GET, S_RUN_START, S_RUN_FIRST, S_RUN_END, S_RUNS_OPEN, S_META_PUT,
    S_COUNT_GAMES, S_COUNT_POSITIONS, S_COUNT_VPOSITIONS, S_COUNT_SEGMENTS, S_COUNT_ERRORS, S_BYTES,
    S_ADD_VSEGMENT, S_ADD_VPOSTING, S_VSEGMENTS, S_VBUCKET, S_EXPLORER_KEYS, S_META_SET, S_ROSTER,
    S_META_GET, S_GAME_BRIEF, S_DIGEST_INDEX, S_GAME_DIGEST, S_BEGIN, S_COMMIT, S_ROLLBACK,
    DRIVER_STATEMENTS
};

/* A game added (S_ADD_GAME), its id asked as RETURNING id (or, of a
 * driver with `inserted`, of that), nothing added where the digest is
 * held already (once the digests' unique index is there: store.c). */
#define SQL_ADD_GAME \
    "INSERT INTO games(digest, file, number, line, rules, rule_set, start, plies, south," \
    " north, event, date, result, state, ending, outcome, moves, errors, warnings, notes," \
    " codes, text_form) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12," \
    " $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)" \
    " ON CONFLICT DO NOTHING"

/* A parameter of a statement: $1 the first. */
struct arg {
    enum { ARG_NULL, ARG_INT, ARG_TEXT, ARG_BLOB } kind;
    int64_t i;
    const void *p;            /* TEXT: a C string; BLOB: n bytes */
    size_t n;
};
#define ARG_I(v) ((struct arg){ .kind = ARG_INT, .i = (int64_t)(v) })
static inline struct arg arg_text(const char *s)
{
    return (struct arg){ .kind = s ? ARG_TEXT : ARG_NULL, .p = s };
}
#define ARG_T(s) arg_text(s)
#define ARG_B(b, len) ((struct arg){ .kind = ARG_BLOB, .p = (b), .n = (len) })

/* What a connection is for (store.h's enum store_mode, which it mirrors:
 * this header is below store's). */
enum driver_mode { DRIVER_CREATE, DRIVER_WRITE, DRIVER_READ };

/* What went wrong, in the words store.c turns into diagnostics. */
enum failure {
    FAIL_OTHER,               /* an error of the database: F006 */
    FAIL_NOT_DB,              /* not a database of this kind at all: F006 */
    FAIL_DAMAGED,             /* its pages are damaged: F006 */
    FAIL_NO_TABLE,            /* a database, without an index's tables: F006 */
    FAIL_WRITE,               /* a write failed: a full disk, read-only: F003 */
    FAIL_GONE,                /* cannot reach it: the server gone: F001 */
    FAIL_MEMORY               /* F002 */
};

struct driver {
    const char *name;         /* "SQLite", "PostgreSQL" */
    const char *schema;       /* the tables of an index, in its dialect */
    /* The few statements its dialect writes its own way (NULL: store.c's
     * one text), by number. */
    const char *const *own;
    int nown;
    /* Connect: NULL with *why on failure.  DRIVER_READ: it writes nothing. */
    struct conn *(*open)(const char *address, enum driver_mode mode, enum failure *f,
                         char *why, size_t whylen);
    /* Does the address hold something an index would replace: 1, 0, -1. */
    int (*exists)(const char *address);
    int (*close)(struct conn *c);
    /* Statements without parameters or rows, several in one text. */
    int (*exec)(struct conn *c, const char *sql);
    /* Run statement `which` (its text sql) with its parameters; its rows
     * follow by row(): 1 a row, 0 none left, -1 failed. */
    int (*run)(struct conn *c, int which, const char *sql, const struct arg *a, int n);
    int (*row)(struct conn *c, int which);
    int64_t (*integer)(struct conn *c, int which, int col);
    /* Text (NUL-terminated) or blob; NULL for SQL's NULL. */
    const void *(*bytes)(struct conn *c, int which, int col, size_t *len);
    void (*reset)(struct conn *c, int which);
    /* NULL, or the id of the row the last statement run inserted, 0 if
     * it inserted none: S_ADD_GAME is then its own text, SQL_ADD_GAME
     * without RETURNING (SQLite's makes a temporary table each time it
     * runs, a third of the insert of a game). */
    int64_t (*inserted)(struct conn *c);
    /* The last failure, and its words. */
    enum failure (*failure)(struct conn *c, const char **why);
};

extern const struct driver driver_sqlite;
extern const struct driver driver_postgres;

#endif
