/* tree.h - the parts of a search tree that the depth search (search.c)
 * and the margin solver (solve.c) share, internal to libpmn:
 *
 * - a node's children (struct kid), each played once through the one
 *   engine interface (play.h), with the repetition key the engine makes;
 * - the line from the root (struct line): the repetition keys of its
 *   positions and, for each ply, the first ply since the last capture, so
 *   that a child that comes back to a position of the line, or of the game
 *   before the root, is known as such;
 * - the children of every ply of one search, allocated at the first search
 *   and kept (tree_kids_new).
 *
 * What each search adds is its own: the depth search's scores and lines,
 * the solver's bounds and its table.  Both keep the kids of ply k in
 * kids[k], so that a child is played in place and never copied. */
#ifndef PMN_TREE_H
#define PMN_TREE_H

#include "pmn.h"
#include "../engine/play.h"
#include "../base/util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The longest line either search follows from its root. */
#define TREE_MAX_PLY 1024

/* A child of a node. */
struct kid {
    pmn_position pos;
    pmn_move_report rep;
    uint64_t rkey;            /* engine_key of pos, or 0 where the search keeps
                                 none (rules where no position repeats) */
    uint64_t key;             /* the search's own table key of pos, where it keeps one */
    int hole;
    int order;                /* the higher, the sooner searched */
    /* The solver's: what is known of the move's value (the mover's view),
     * and its cell in the databases, where they hold it. */
    int lo, hi;
    int depth;                /* how far ahead lo..hi looked (solve.c's PROVED: to the end) */
    const int8_t *tbv;
    unsigned tbn;             /* the layer of tbv */
};

/* The children of each ply of a search. */
typedef struct kid tree_ply[PMN_MAX_SIDE_PITS];

/* TREE_MAX_PLY + 1 plies of children, to be freed with free(); NULL when
 * out of memory.  Megabytes, of which a search touches the plies it
 * reaches: made anew for each search, they would cost an mmap and its page
 * faults each position annotated (and a sanitizer's allocator far more),
 * so each search keeps its own from one search to the next. */
static inline tree_ply *tree_kids_new(void)
{
    return malloc((TREE_MAX_PLY + 1) * sizeof(tree_ply));
}

/* The line from the root. */
struct line {
    uint64_t path[TREE_MAX_PLY + 1];   /* the rkey of the position at each ply */
    unsigned since[TREE_MAX_PLY + 1];  /* the first ply since the last capture */
    const uint64_t *before;            /* the game's positions before the root */
    size_t nbefore;                    /* (since its last capture), oldest first */
};

/* A line that starts at a root of repetition key `key` (0: none kept),
 * the game's positions before[0..nbefore) before it. */
static inline void line_start(struct line *l, uint64_t key, const uint64_t *before,
                              size_t nbefore)
{
    l->path[0] = key;
    l->since[0] = 0;
    l->before = before;
    l->nbefore = nbefore;
}

/* Play `hole` of p into k, with its repetition key where `keyed`. */
static inline void kid_play(const struct engine *e, const pmn_position *p, int hole, int keyed,
                            struct kid *k)
{
    k->pos = *p;
    k->hole = hole;
    k->rkey = 0;
    engine_play(e, &k->pos, hole, &k->rep, keyed ? &k->rkey : NULL);
}

/* Does the kid k of the node at `ply` of line l come back to a position
 * of the line since its last capture, or of the game before the root
 * where none came since it?  (k keyed; a move that left the board for
 * good repeats nothing.) */
static inline int kid_repeats(const struct line *l, int ply, const struct kid *k)
{
    return !pmn_irreversible(&k->rep)
        && path_repeats(l->path, l->since[ply], ply, l->before, l->nbefore, k->rkey);
}

/* The line goes on from the node at `ply` to its kid k. */
static inline void line_enter(struct line *l, int ply, const struct kid *k)
{
    l->since[ply + 1] = pmn_irreversible(&k->rep) ? (unsigned)ply + 1 : l->since[ply];
    l->path[ply + 1] = k->rkey;
}

#endif
