/* store.h - an archive index's database (store.c): the games of archives,
 * their tags, what checking them found, their text, and every position
 * their main lines reach, in an SQLite file or on a PostgreSQL server (an
 * address that is a libpq URI, postgresql://...).  pmn index (index.c)
 * builds it and asks it; nothing else touches the SQL.
 *
 * Who owns what: a struct store owns its connection and statements; a
 * stored game read back (store_game) points into the store's buffers,
 * valid until the next read.  Every function that can fail returns -1 and
 * leaves the reason in the store (store_error), with the diagnostic code
 * it calls for: PMN_F006 for a file that is not an index pmn can use,
 * PMN_F003 for a write that failed (a full disk), PMN_F001 for one that
 * cannot be opened or reached (the server gone), PMN_F002 for memory. */
#ifndef PMN_CLI_STORE_H
#define PMN_CLI_STORE_H

#include "pmn.h"

#include <stddef.h>
#include <stdint.h>

/* The schema this pmn writes and reads; an index of a later one is
 * refused (F006), never read as if it were this one. */
#define STORE_SCHEMA "pmn-index"
#define STORE_VERSION 3   /* 3: fingerprints are pmn_position_key's */

enum store_mode {
    STORE_CREATE,             /* a new index: the file must not exist */
    STORE_WRITE,              /* an index to add to */
    STORE_READ
};

/* How a game's text is held. */
enum store_text {
    STORE_TEXT_AS_READ = 0,   /* the bytes of the input, PMN */
    STORE_TEXT_WRITTEN = 1    /* written by pmn as PMN: the input was XML or
                                 another program's notation */
};

struct store;

/* A game as the index holds it. */
struct stored_game {
    int64_t id;
    const char *file;         /* where it was read (as named on the command line) */
    unsigned long number;     /* its number in that file, from 1 */
    pmn_at line;
    const char *rules;        /* its rules as a spec (pmn_rules_format) */
    const char *rule_set;     /* their name */
    const char *start;        /* its start as a position string; "": the rules'
                                 opening */
    const unsigned char *plies;   /* the hole of each ply replayed */
    size_t nplies;
    const char *result;       /* written (Result tag, else after the moves), or NULL */
    const char *date;         /* the Date tag, or NULL */
    int state;                /* enum game_state */
    int ending, outcome;      /* pmn_ending, pmn_outcome where it ended */
    unsigned moves;
    unsigned count[PMN_FATAL + 1];
    const char *codes;        /* the codes of its diagnostics, "E205 W118" */
    const char *text;
    size_t len;
    int text_form;            /* enum store_text */
    const char *south, *north, *event;   /* its roster tags, or NULL */
    unsigned char digest[16]; /* the same game: its rules, start, plies, roster */
};

struct store *store_open(const char *address, enum store_mode mode);
/* Does the address hold what a new index would replace (a file; a
 * database with an index's tables): 1, 0, -1 (it cannot be asked). */
int store_exists(const char *address);
/* Why the last call failed, and its code; for a store that could not be
 * opened, store_open_error. */
const char *store_error(const struct store *st, int *code);
const char *store_open_error(int *code);
/* Closes; -1 if what was written could not be made durable. */
int store_close(struct store *st);

/* Writes go in batches: each a transaction of whole games, so that an index
 * interrupted (killed, the disk full) holds the batches before, whole. */
int store_begin(struct store *st);
int store_commit(struct store *st);
void store_rollback(struct store *st);

/* Add g: 1 (its id in *id), 0 when the index holds the same game already
 * (its id in *id), -1 on failure. */
int store_add_game(struct store *st, const struct stored_game *g, int64_t *id);
/* A new index (STORE_CREATE) tells the same game by the digests of the
 * games it added, held in memory, until this makes the index of digests
 * at once (a build, after its games; or the first transaction of any
 * writer that finds it missing): 0, -1.  Kept up game by game instead,
 * each insert a random place of it, it cost a build most of its writes. */
int store_digest_index(struct store *st);
/* At most `games` told apart so (0: the default, three million; a test
 * sets fewer, to see the index made midway). */
void store_set_held_max(struct store *st, size_t games);
/* A position a game reaches: the fingerprint of its key, the game, its
 * line (0 the main line; a variation, its number in the record) and the
 * ply of it (0 its start). */
struct posting {
    uint64_t fp;
    int64_t game;
    uint32_t line, ply;
};
/* The positions of the games added are written as segments: each a
 * transaction's (a batch's), in buckets by the top bits of their
 * fingerprints, about 1024 entries a bucket for a segment of the size said
 * here (a build's batch; 0 until said: one bucket).  Each is added as it
 * comes, in the order of game, line and ply, and held as the bytes it is
 * written as; store_segment_write writes the segment filled (of main
 * lines, or of variations: line not 0, the record's lines begun before
 * it; store_at_variations reads them) in the transaction open;
 * store_rollback forgets both. */
void store_segment_size(struct store *st, size_t positions);
int store_posting(struct store *st, int variations, uint64_t fp, int64_t game, unsigned line,
                  unsigned ply);
/* The positions of a game's main line at once: fps[i] its ply i's. */
int store_line_postings(struct store *st, int64_t game, const uint64_t *fps, size_t n);
int store_segment_write(struct store *st, int variations);
/* n postings at once as a segment of their own (sized for them). */
int store_add_postings(struct store *st, const struct posting *p, size_t n, int variations);
/* A value of the meta table: 1 with it in value, 0 none (""), -1; set. */
int store_meta_get(struct store *st, const char *name, char *value, size_t size);
int store_meta_set(struct store *st, const char *name, const char *value);
/* Does the index hold the positions of variations (built with them)? 1,
 * 0, -1.  Set by the build that makes it. */
int store_has_variations(struct store *st);
int store_set_variations(struct store *st);

/* Read game id into *g (its strings the store's, until the next read),
 * its text too if `text` (else g->text is "": the text is the most of a
 * game, and a question of many games may not need it): 1, 0 if there is
 * none, -1 on failure. */
int store_game(struct store *st, int64_t id, int text, struct stored_game *g);
/* Of game id, what the explorer counts alone: its id, rules, start, plies,
 * result and date (the rest 0, NULL, text ""), as store_game gives them;
 * quick when the ids asked rise (a walk over the games' rows, which
 * stays open until store_brief_end: called before the transaction ends). */
int store_game_brief(struct store *st, int64_t id, struct stored_game *g);
void store_brief_end(struct store *st);
/* The games and plies where a position of fingerprint fp stands, and
 * perhaps others (a segment keeps 16 bits of it past its bucket's): fn(ctx,
 * game, ply) for each, in game order; fn returns nonzero to stop.  0, -1. */
int store_at(struct store *st, uint64_t fp, int (*fn)(void *ctx, int64_t game, unsigned ply),
             void *ctx);
/* The same among the positions of variations: fn(ctx, game, line, ply). */
int store_at_variations(struct store *st, uint64_t fp,
                        int (*fn)(void *ctx, int64_t game, unsigned line, unsigned ply),
                        void *ctx);
/* Every game's roster, in order of id: fn(ctx, g) with g's id, number,
 * south, north, event, date, result, rule_set, state, ending, outcome,
 * moves, counts and codes (no text, no plies: the cheap columns), which
 * must not use the store; fn nonzero stops.  0, -1. */
int store_each_roster(struct store *st, int (*fn)(void *ctx, const struct stored_game *g),
                      void *ctx);
/* Every game's id, in order: fn as above. */
int store_each(struct store *st, int (*fn)(void *ctx, int64_t game, unsigned ply), void *ctx);

/* A build or an add: its start said (committed at once), its end when it
 * ends, with the games it added; a run without an end was interrupted
 * (or runs still): fn(ctx, when it started, the games it holds) for each. */
int store_run_start(struct store *st, int64_t *run);
int store_run_end(struct store *st, int64_t run, uint64_t games);
int store_runs_open(struct store *st, int (*fn)(void *ctx, const char *started, uint64_t games),
                    void *ctx);

/* Each rule set and start of the games held, once: fn(ctx, spec, start)
 * (a spec as often as its games have starts). */
int store_each_start(struct store *st, int (*fn)(void *ctx, const char *spec, const char *start),
                     void *ctx);
/* The explorer's positions (index.c; two writers make them one after the
 * other, as every write transaction takes its turn: store_begin()),
 * emptied, one put (its
 * fingerprint, exact key, games and what was played from it, as text;
 * replacing what it held), one got (1 with *stats, the store's until the
 * next call; 0 if it holds none), the keys of all (fn nonzero stops: -2). */
int store_explorer_clear(struct store *st);
int store_explorer_keys(struct store *st,
                        int (*fn)(void *ctx, uint64_t fp, const unsigned char *key, size_t len),
                        void *ctx);
int store_explorer_put(struct store *st, uint64_t fp, const unsigned char *key, size_t keylen,
                       uint64_t games, const char *stats);
int store_explorer_get(struct store *st, uint64_t fp, const unsigned char *key, size_t keylen,
                       const char **stats);

struct store_counts {
    uint64_t games, positions, segments;
    uint64_t vpositions;      /* of variations (built with --variations) */
    uint64_t bytes;           /* the file */
    uint64_t with_errors;
};
int store_counts(struct store *st, struct store_counts *c);
/* The games it holds, alone. */
int store_games(struct store *st, uint64_t *n);

#endif
