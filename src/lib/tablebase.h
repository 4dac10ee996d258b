/* tablebase.h - endgame databases, internal side: the probe the solver
 * calls (the public API is in pmn.h). */
#ifndef PMN_TABLEBASE_H
#define PMN_TABLEBASE_H

#include "pmn.h"

/* The value of p from the databases: the best final margin still to be
 * made by p's side to move (the seeds already banked not counted).
 * Returns 1 with *v, or 0 if the databases do not hold p (too many seeds
 * in play, or rules other than theirs). */
int tablebase_probe(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p, int *v);
/* The same, and the depth: the plies within which the side that wins the
 * value forces the play out of p's layer (a winner moving to a position of
 * smaller depth, and exits first, never repeats a position). */
int tablebase_probe_depth(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                          int *v, unsigned *depth);

/* Were tb's databases built under the rules r? */
int tablebase_same_rules(const pmn_tablebase *tb, const pmn_rules *r);

#endif
