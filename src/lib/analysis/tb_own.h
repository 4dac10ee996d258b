/* tb_own.h - own seeds (tb_own.c): what is tuned from outside the wing. */
#ifndef PMN_TB_OWN_H
#define PMN_TB_OWN_H

#include <stdint.h>

/* The positions a search with the path may visit for one position's value
 * (own seeds), in a build or a probe: past it, the bounds stand. */
extern uint64_t tablebase_cycle_budget;

#endif
