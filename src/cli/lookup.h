/* lookup.h - an archive index read (lookup.c): positions looked up, the
 * games found replayed to them, an index's games read as an archive. */
#ifndef PMN_CLI_LOOKUP_H
#define PMN_CLI_LOOKUP_H

#include "command.h"
#include "archive.h"
#include "store.h"

#include <stdint.h>

/* The largest exact key: holes a side, side, two bytes a hole. */
#define KEY_MAX (2 + 4 * PMN_MAX_SIDE_PITS)
/* The exact key of p (its board and side to move) into key (KEY_MAX
 * bytes), its length in *n; returns its fingerprint, pmn_position_key (the
 * index's format: what a lookup computes is what the build stored). */
uint64_t index_exact_key(const pmn_rules *r, const pmn_position *p, unsigned char *key,
                         size_t *n);
/* The rules of a spec the index holds (pmn_rules_format's): 0, or -1. */
int index_rules_of_spec(const char *spec, pmn_rules *r);
/* A start as the index holds it ("": the rules' opening) into *p: 0, or
 * -1 if it is not a position of r.  A stored game replayed to ply: its
 * position there into *p; 0, or -1 if its plies do not go so far (a
 * damaged index). */
int index_start(const pmn_rules *r, const char *start, pmn_position *p);
int index_position_at(const pmn_rules *r, const struct stored_game *sg, unsigned ply,
                      pmn_position *p);

/* The codes of g's diagnostics as the index holds them: "E205 W118". */
void index_codes_text(const struct game *g, char *buf, size_t size);

/* The index db opened (NULL: said on c's sink, F001/F006); the store's
 * failure said on a sink; the same under the index's name, for a command:
 * EXIT_FATAL. */
struct store *index_open(struct common *c, const char *db, enum store_mode mode);
void index_store_failed(struct diag_sink *s, struct store *st);
int index_say_failed(struct common *c, struct store *st, const char *db);

/* Games found, each once, in order, with the first ply of each where the
 * index holds the position (candidates: the replay decides). */
struct found {
    int64_t *id;
    unsigned *ply;
    size_t n, cap;
    int nomem;
};
/* Callbacks of store_at and store_each that add to a struct found. */
int index_found_add(void *ctx, int64_t game, unsigned ply);
int index_found_all(void *ctx, int64_t game, unsigned ply);
/* The games whose rows hold the position the string text names under each
 * rule set the index holds (both sides' with any_side; the games whose
 * variations hold it too with variations, which the index must have):
 * 0, -1 the index failed, -2 out of memory. */
int index_candidates(struct store *st, const char *text, int any_side, int variations,
                     struct found *out);

/* The games of the index db that the criteria of c may take (a --reaches
 * looked up; the rest the command's own criteria judge), read from their
 * text as archive_file reads a file's, each handed to a->game as it was
 * read (its file, line and number).  EXIT_CLEAN, or EXIT_FATAL when the
 * index cannot be read (said). */
int index_archive(struct common *c, const char *db, struct archive *a);

/* pmn select --index db (select.c), for pmn index select. */
int select_index(struct common *c, const char *db, int count_only);

#endif
