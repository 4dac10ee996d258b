/* tb_history.h - a layer of the databases solved again for a game with a
 * history (tb_history.c): what the solver calls where the positions since
 * the last capture may come again. */
#ifndef PMN_TB_HISTORY_H
#define PMN_TB_HISTORY_H

#include "pmn.h"

#include <stddef.h>
#include <stdint.h>

/* A layer solved again for a game with a history: the positions `ends`
 * (those since the last capture, and the one to move from) end the game
 * if they come again -- worth 0 of the seeds in play where they go
 * uncounted, the seeds on each side under own seeds.  _new makes the
 * layer's graph, once: NULL if the databases do not hold the layer of n
 * seeds, it holds more than max_positions, or memory runs out.  _solve
 * values it for a set of ends (kept, not copied, until the next); _probe
 * then gives the value of p (in the layer) for its side to move, of the
 * seeds in play, in that game: 1, 0 if p is not in the layer, -1 where
 * it is not found (own seeds: a search past tablebase_cycle_budget, or
 * an exit the layers below only bound). */
struct tablebase_history;
struct tablebase_history *tablebase_history_new(const pmn_tablebase *tb, unsigned n,
                                                uint64_t max_positions);
void tablebase_history_solve(struct tablebase_history *h, const pmn_position *ends,
                             size_t nends);
int tablebase_history_probe(struct tablebase_history *h, const pmn_position *p, int *v);
/* A probe's search under own seeds: at most `budget` positions (and
 * tablebase_cycle_budget), so that a caller's own budget bounds it; and
 * the positions its probes have searched in all, to count into it. */
void tablebase_history_limit(struct tablebase_history *h, uint64_t budget);
uint64_t tablebase_history_searched(const struct tablebase_history *h);
void tablebase_history_free(struct tablebase_history *h);

#endif
