/* naive.h - a plain minimax, written apart from src/lib/analysis/search.c to check
 * it: no pruning, no table, the rules' outcome at every end of the game,
 * repetitions along the path since the last capture.  A value is an
 * outcome, a seed margin and a number of plies, for the side to move. */
#ifndef PMN_TEST_NAIVE_H
#define PMN_TEST_NAIVE_H

#include <string.h>

#include "pmn.h"

struct naive_value {
    int outcome;              /* 1 win, 0 draw, -1 loss */
    long margin;
    unsigned plies;
};

/* Is a better than b, for the side whose values they are? */
static inline int naive_better(struct naive_value a, struct naive_value b)
{
    if (a.outcome != b.outcome)
        return a.outcome > b.outcome;
    if (a.margin != b.margin)
        return a.margin > b.margin;
    if (a.outcome > 0)
        return a.plies < b.plies;
    if (a.outcome < 0)
        return a.plies > b.plies;
    return 0;
}

/* The end of the game after a move of `mover`, for the mover. */
static inline struct naive_value naive_end(const pmn_rules *r, pmn_ending e, pmn_outcome o,
                                           const pmn_position *end, int mover)
{
    struct naive_value v = { 0, 0, 1 };
    unsigned long seeds[2];
    if (o == PMN_SOUTH_WINS || o == PMN_NORTH_WINS)
        v.outcome = (o == PMN_SOUTH_WINS) == (mover == PMN_SOUTH) ? 1 : -1;
    if (o != PMN_DRAWN && pmn_final_seeds(r, e, end, seeds))
        v.margin = (long)seeds[mover] - (long)seeds[!mover];
    if (v.outcome == 0)
        v.plies = 0;
    return v;
}

#define NAIVE_MAX_PATH 4096

/* The positions of the path from the start; those from `since` on are
 * the ones since the last capture. */
struct naive_path {
    pmn_position pos[NAIVE_MAX_PATH];
    int n, since;
};

static inline int naive_repeats(const struct naive_path *path, const pmn_position *q)
{
    for (int i = path->since; i < path->n; i++)
        if (path->pos[i].to_move == q->to_move
            && memcmp(path->pos[i].pit, q->pit, sizeof q->pit) == 0)
            return 1;
    return 0;
}

/* The value of the last position of the path (not ended) for its side to
 * move, and its best hole (-1: he passes); *nodes counts positions. */
static inline struct naive_value naive_minimax(const pmn_rules *r, struct naive_path *path,
                                               int *best_hole, unsigned long *nodes)
{
    const pmn_position *p = &path->pos[path->n - 1];
    int holes[PMN_MAX_SIDE_PITS];
    int n = pmn_legal_moves(r, p, holes);
    struct naive_value best = { -2, 0, 0 };
    *best_hole = -1;
    if (n == 0 && path->n < NAIVE_MAX_PATH) {
        /* A player who cannot move passes, where the game goes on. */
        int ignored;
        path->pos[path->n] = *p;
        path->pos[path->n].to_move = (uint8_t)!p->to_move;
        path->n++;
        best = naive_minimax(r, path, &ignored, nodes);
        path->n--;
        best.outcome = -best.outcome;
        best.margin = -best.margin;
        return best;
    }
    for (int i = 0; i < n; i++) {
        pmn_position q = *p;
        pmn_move_report rep;
        struct naive_value v;
        ++*nodes;
        pmn_play(r, &q, holes[i], &rep);
        int capture = rep.captured || rep.given || rep.stored;
        if (rep.ending != PMN_END_NONE) {
            v = naive_end(r, rep.ending, rep.outcome, &q, p->to_move);
        } else if (!capture && naive_repeats(path, &q)) {
            v = naive_end(r, PMN_END_REPETITION, pmn_repetition_outcome(r, &q), &q, p->to_move);
        } else if (path->n == NAIVE_MAX_PATH) {
            return best;   /* not reached by the tests' small positions */
        } else {
            int child_best, since = path->since;
            if (capture)
                path->since = path->n;
            path->pos[path->n++] = q;
            v = naive_minimax(r, path, &child_best, nodes);
            path->n--;
            path->since = since;
            if (q.to_move != p->to_move) {
                v.outcome = -v.outcome;
                v.margin = -v.margin;
            }
            if (v.outcome != 0)
                v.plies++;
        }
        if (best.outcome == -2 || naive_better(v, best)) {
            best = v;
            *best_hole = holes[i];
        }
    }
    return best;
}

/* The minimax value of p (not ended) as a new game, for its side to move
 * (path: room for the search). */
static inline struct naive_value naive_new_game(const pmn_rules *r, struct naive_path *path,
                                                const pmn_position *p)
{
    unsigned long nodes = 0;
    int best;
    path->n = 1;
    path->since = 0;
    path->pos[0] = *p;
    return naive_minimax(r, path, &best, &nodes);
}

/* The minimax value of playing `hole` in p, for p's side to move, after
 * the positions hist[0..nh) since the last capture (path: room for the
 * search, its contents replaced). */
static inline struct naive_value naive_move_value_after(const pmn_rules *r,
                                                        struct naive_path *path,
                                                        const pmn_position *hist, int nh,
                                                        const pmn_position *p, int hole)
{
    pmn_position q = *p;
    pmn_move_report rep;
    unsigned long nodes = 0;
    int best;
    pmn_play(r, &q, hole, &rep);
    if (rep.ending != PMN_END_NONE)
        return naive_end(r, rep.ending, rep.outcome, &q, p->to_move);
    path->n = path->since = 0;
    if (!(rep.captured || rep.given || rep.stored)) {
        for (int i = 0; i < nh && path->n < NAIVE_MAX_PATH - 2; i++)
            path->pos[path->n++] = hist[i];
        path->pos[path->n++] = *p;
        if (naive_repeats(path, &q))
            return naive_end(r, PMN_END_REPETITION, pmn_repetition_outcome(r, &q), &q,
                             p->to_move);
    }
    path->pos[path->n++] = q;
    struct naive_value v = naive_minimax(r, path, &best, &nodes);
    if (q.to_move != p->to_move) {
        v.outcome = -v.outcome;
        v.margin = -v.margin;
    }
    if (v.outcome)
        v.plies++;
    return v;
}

/* The outcome alone, in the shape of judged.h's judged_truth (ctx: the
 * struct naive_path to search with). */
static inline int naive_outcome_after(const pmn_rules *r, const pmn_position *hist, int nh,
                                      const pmn_position *p, int hole, void *ctx)
{
    return naive_move_value_after(r, ctx, hist, nh, p, hole).outcome;
}

/* The same, as a new game (no positions before p). */
static inline struct naive_value naive_move_value(const pmn_rules *r, struct naive_path *path,
                                                  const pmn_position *p, int hole)
{
    return naive_move_value_after(r, path, NULL, 0, p, hole);
}

#endif
