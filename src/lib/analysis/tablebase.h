/* tablebase.h - endgame databases, internal side: the probe the solver
 * calls (the public API is in pmn.h). */
#ifndef PMN_TABLEBASE_H
#define PMN_TABLEBASE_H

#include "pmn.h"
#include "tb_counts.h"

/* The value of p from the databases: the best final margin still to be
 * made by p's side to move (the seeds already banked not counted).
 * Returns 1 with *v, or 0 if the databases do not hold p (too many seeds
 * in play, or rules other than theirs). */
int tablebase_probe(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p, int *v);
/* What the databases say of p, as bounds: *lo == *hi where they hold its
 * value (tablebase_probe's), *lo < *hi where they bound it (own seeds:
 * the file's comment in tablebase.c).  0 if they do not hold p. */
int tablebase_probe_bounds(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                           int *lo, int *hi);
/* Does tb hold two bounds a position (own seeds), not one value? */
int tablebase_own_seeds(const pmn_tablebase *tb);
/* The bounds held where tablebase_locate points (*layer: the layer it
 * gave): 1, or 0 where they are no values a position of that layer can
 * have (a damaged file: the databases are then marked damaged). */
int tablebase_cell_bounds(const pmn_tablebase *tb, const int8_t *cell, unsigned layer, int *lo,
                          int *hi);
/* Where the databases keep the value of the position of counts h (2 *
 * pits of them, tablebase_counts()'s, n seeds in all), and in *layer the
 * layer: the cell is not read here, so that it can be fetched into the
 * cache before tablebase_cell_bounds reads it.  NULL if they do not hold
 * it. */
const int8_t *tablebase_at(const pmn_tablebase *tb, unsigned pits, const uint8_t *h, unsigned n,
                           unsigned *layer);
/* The same of p under r. */
const int8_t *tablebase_locate(const pmn_tablebase *tb, const pmn_rules *r,
                               const pmn_position *p, unsigned *layer);
/* The value, for p's side to move, of the move that made c from p (rep
 * its report): the final margin where it ended the game, else what the
 * databases say of c as a new game plus what is banked.  Returns 0 if
 * the databases do not hold c. */
int tablebase_move_value(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                         const pmn_position *c, const pmn_move_report *rep, long *v);
/* A line of best play from p, which the databases hold and whose value is
 * the game's (no position before it can come again): at each ply a move
 * that keeps the value -- the winner's out of the layer or nearer the way
 * out (the move the layer holds for him where positions repeat), the
 * loser's one that stays in the layer (with own seeds, out of it where he
 * can) -- to the end of the game, a repetition or
 * `max` moves.  Returns the moves written to line; *played
 * (if not NULL) grows by the moves played to find them. */
unsigned tablebase_line(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                        int *line, unsigned max, uint64_t *played);


/* Were tb's databases built under the rules r, or do they serve them (r
 * with a majority, the databases of majority=no)? */
int tablebase_same_rules(const pmn_tablebase *tb, const pmn_rules *r);
/* Do tb's databases give r's games their results only, not their margins:
 * r has a majority, the databases were built without (served_by())? */
int tablebase_outcome_only(const pmn_tablebase *tb, const pmn_rules *r);
/* The flag pmn_tablebase_damaged() reads, for a search's budget to stop
 * at (struct search_budget's damaged). */
const int *tablebase_damaged_flag(const pmn_tablebase *tb);


#endif
