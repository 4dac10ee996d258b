/* perft.c - counting move sequences: the engine's self-test and benchmark. */
#include "pmn.h"

static uint64_t perft(const pmn_rules *r, const pmn_position *p, unsigned depth)
{
    int moves[PMN_MAX_SIDE_PITS];
    int n = pmn_legal_moves(r, p, moves);
    /* Every legal move ends a sequence of the full depth, game-ending or not. */
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        pmn_position q = *p;
        pmn_move_report rep;
        pmn_play(r, &q, moves[i], &rep);
        if (rep.ending == PMN_END_NONE)
            total += perft(r, &q, depth - 1);
    }
    return total;
}

uint64_t pmn_perft(const pmn_rules *r, const pmn_position *p, unsigned depth,
                   uint64_t divide[PMN_MAX_SIDE_PITS], int *ndivide)
{
    int moves[PMN_MAX_SIDE_PITS];
    if (depth == 0) {
        if (ndivide)
            *ndivide = 0;
        return 1;
    }
    if (!divide)
        return perft(r, p, depth);
    int n = pmn_legal_moves(r, p, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        pmn_position q = *p;
        pmn_move_report rep;
        pmn_play(r, &q, moves[i], &rep);
        divide[i] = depth == 1 ? 1 : rep.ending != PMN_END_NONE ? 0 : perft(r, &q, depth - 1);
        total += divide[i];
    }
    if (ndivide)
        *ndivide = n;
    return total;
}
