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
/* The holes of p as the databases see them, into h[0..2 * pits): the
 * side to move's, then his opponent's, a byte each (a hole of more than
 * 255 seeds is cut, and the sum returned, the seeds on the board, is then
 * more than any layer holds).  The solver keys its table by the same
 * bytes, made once a position for both.  (Four holes at a time, as
 * 64-bit words, took more instructions than this for Kalah(4,n).) */
static inline unsigned tablebase_counts(unsigned pits, const pmn_position *p, uint8_t *h)
{
    unsigned n = 0;
    int me = p->to_move;
    for (unsigned i = 0; i < pits; i++) {
        h[i] = (uint8_t)p->pit[me][i];
        h[pits + i] = (uint8_t)p->pit[!me][i];
        n += p->pit[me][i] + p->pit[!me][i];
    }
    return n;
}
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
/* The positions a search with the path may visit for one position's value
 * (own seeds), in a build or a probe: past it, the bounds stand. */
extern uint64_t tablebase_cycle_budget;
/* A probe's search under own seeds: at most `budget` positions (and
 * tablebase_cycle_budget), so that a caller's own budget bounds it; and
 * the positions its probes have searched in all, to count into it. */
void tablebase_history_limit(struct tablebase_history *h, uint64_t budget);
uint64_t tablebase_history_searched(const struct tablebase_history *h);
void tablebase_history_free(struct tablebase_history *h);

/* Were tb's databases built under the rules r, or do they serve them (r
 * with a majority, the databases of majority=no)? */
int tablebase_same_rules(const pmn_tablebase *tb, const pmn_rules *r);
/* Do tb's databases give r's games their results only, not their margins:
 * r has a majority, the databases were built without (served_by())? */
int tablebase_outcome_only(const pmn_tablebase *tb, const pmn_rules *r);
/* The flag pmn_tablebase_damaged() reads, for a search's budget to stop
 * at (struct search_budget's damaged). */
const int *tablebase_damaged_flag(const pmn_tablebase *tb);

/* For the tests: where tb's rules sow as Kalah (its builder then plays
 * them on the counts), does that give, on every position of every layer
 * tb holds, the value and the moves within the layer that pmn_play gives?
 * The positions compared; 0 where the rules are not Kalah's; -1 at the
 * first that differs. */
long tablebase_kalah_agrees(const pmn_tablebase *tb);

#endif
