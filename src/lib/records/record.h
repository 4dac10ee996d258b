/* record.h - building records; internal to libpmn (the parser uses it). */
#ifndef PMN_RECORD_H
#define PMN_RECORD_H

#include "pmn.h"

/* The limits of one game, so that the memory a game takes stays within a
 * fixed multiple of the limits (pmn(5), "Limits"), whatever its text: the
 * PMN reader's and the readers' of other programs' notations. */
#define PMN_MAX_GAME_TEXT ((size_t)64 << 20)   /* bytes: more is F001 */
#define PMN_MAX_GAME_MOVES 100000      /* moves, main line and variations */
#define PMN_MAX_GAME_VARIATIONS 10000
#define PMN_MAX_COMMENT (1u << 20)     /* bytes of one comment */

/* Each returns 0, or -1 when memory runs out (the record stays valid). */
int record_add_tag(pmn_record *rec, const char *name, size_t nlen,
                   const char *value, size_t vlen, pmn_at line, pmn_at col,
                   pmn_at value_col);
/* The first tag of that name given this value, in its place; else a tag
 * added, said to stand where `at` stands (NULL: nowhere). */
int record_set_tag(pmn_record *rec, const char *name, const char *value,
                   const pmn_tag *at);
/* Every tag of that name dropped. */
void record_drop_tags(pmn_record *rec, const char *name);
/* A new move at the end of the line; NULL when memory runs out. */
pmn_move *record_line_add_move(pmn_line *l);
int record_line_add_lead(pmn_line *l, const char *text, size_t len);
int record_move_add_comment(pmn_move *m, const char *text, size_t len);
/* A new, empty variation of m; NULL when memory runs out. */
pmn_line *record_move_add_variation(pmn_move *m);
void record_line_free(pmn_line *l);
/* May move m, a letter of the side not to move, be the same hole of the
 * side to move typed in the other case?  Only if nothing else in the record
 * says whose move it is: a move number written before it ("29. a") that
 * names the letter's own side says a move was left out before it, not a
 * slip (which "1. I" is: the number South's, the letter North's). */
int record_slip_of_case(const pmn_move *m, int to_move);
/* The side m's move number names ("29." South, "29..." North), or -1 where
 * none is written before it. */
int record_number_side(const pmn_move *m);

/* The roster every writer of text writes first, in this order, "?" for
 * one the record lacks (the Result after them; then the writer's own). */
#define RECORD_ROSTER 6
extern const char *const record_roster[RECORD_ROSTER];

#endif
