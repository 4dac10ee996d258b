/* tb_counts.h - a position's holes as the databases index them, shared by
 * the databases (tb.h) and the solver, which keys its table by the same
 * bytes. */
#ifndef PMN_TB_COUNTS_H
#define PMN_TB_COUNTS_H

#include "pmn.h"

#include <stdint.h>

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

#endif
