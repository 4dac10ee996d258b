/* solve.h - the margin solver, internal to libpmn: exact values of the
 * games scored by seeds, by null-window tests of the final margin (MTD(f)).
 * search.c calls it for pmn_analyse's solves; it keeps a table of its own,
 * made by the searcher. */
#ifndef PMN_SOLVE_H
#define PMN_SOLVE_H

#include "pmn.h"

#include <stddef.h>
#include <stdint.h>

struct solve_table;

/* Can the margin solver value positions of these rules: the winner is who
 * has more seeds (so that the final margin orders every result), one lap a
 * sowing (no endless move)? */
int solve_applies(const pmn_rules *r);

/* A table of about `bytes` bytes; NULL when memory runs out. */
struct solve_table *solve_table_new(size_t bytes);
void solve_table_free(struct solve_table *t);
void solve_table_clear(struct solve_table *t);
/* The endgame databases it probes, or NULL: kept, not owned. */
void solve_table_use(struct solve_table *t, const pmn_tablebase *tb);

/* Where positions since the last capture may come again, a layer of the
 * databases of at most this many positions is solved again with them as
 * ends of the game (tablebase_history_solve); a larger one gives bounds
 * alone (0 and its value as a new game).  4M; a variable so that the tests
 * reach the bounds on small layers.  Set it before any search runs. */
extern uint64_t solve_history_layer_max;

/* Solve p (not ended, with a legal move) as pmn_analyse does, within the
 * limits (the depth is not one of them): the value, the best move, a line
 * of best play and, with all_moves, every move's value.  history as
 * pmn_analyse's.  Returns 0; PMN_ERR_NOMEM if memory runs out. */
int solve_position(struct solve_table *t, const pmn_rules *r, const pmn_position *p,
                   const pmn_position *history, size_t nhistory, const pmn_search_limits *l,
                   pmn_progress_fn fn, void *ctx, pmn_analysis *a);

#endif
