/* perft.c - counting move sequences: the engine's self-test and benchmark. */
#include "pmn.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

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

/* pmn_perft_jobs: the positions after the first two plies are the tasks,
 * taken by the threads in turn (an atomic counter), so that a large subtree
 * does not leave the other threads idle. */
struct task {
    pmn_position after;
    int root;                 /* the first ply's index */
    int ended;                /* the second ply ended the game */
    uint64_t count;
};

struct tasks {
    const pmn_rules *r;
    unsigned depth;           /* left below each task's position */
    struct task *t;
    size_t n;
    atomic_size_t next;
};

static void *count_tasks(void *arg)
{
    struct tasks *ts = arg;
    size_t i;
    while ((i = atomic_fetch_add(&ts->next, 1)) < ts->n) {
        struct task *t = &ts->t[i];
        t->count = t->ended ? 0 : perft(ts->r, &t->after, ts->depth);
    }
    return NULL;
}

uint64_t pmn_perft_jobs(const pmn_rules *r, const pmn_position *p, unsigned depth, int jobs,
                        uint64_t divide[PMN_MAX_SIDE_PITS], int *ndivide)
{
    uint64_t scratch[PMN_MAX_SIDE_PITS];
    int first[PMN_MAX_SIDE_PITS], second[PMN_MAX_SIDE_PITS], n, dummy;
    if (!divide)
        divide = scratch;
    if (!ndivide)
        ndivide = &dummy;
    if (depth < 3 || jobs < 2)
        return pmn_perft(r, p, depth, divide, ndivide);
    n = pmn_legal_moves(r, p, first);
    struct tasks ts = { r, depth - 2, malloc((size_t)n * PMN_MAX_SIDE_PITS * sizeof *ts.t), 0,
                        0 };
    if (!ts.t) {
        *ndivide = -1;
        return 0;
    }
    for (int i = 0; i < n; i++) {
        pmn_position q = *p;
        pmn_move_report rep;
        pmn_play(r, &q, first[i], &rep);
        divide[i] = 0;
        if (rep.ending != PMN_END_NONE)
            continue;   /* a sequence that ends before its depth */
        int m = pmn_legal_moves(r, &q, second);
        for (int j = 0; j < m; j++) {
            struct task *t = &ts.t[ts.n++];
            t->after = q;
            t->root = i;
            pmn_play(r, &t->after, second[j], &rep);
            t->ended = rep.ending != PMN_END_NONE;
        }
    }
    atomic_init(&ts.next, 0);
    pthread_t tid[64];
    int started = 0;
    for (; started < jobs - 1 && started < 64; started++)
        if (pthread_create(&tid[started], NULL, count_tasks, &ts) != 0)
            break;
    count_tasks(&ts);
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    uint64_t total = 0;
    for (size_t k = 0; k < ts.n; k++) {
        divide[ts.t[k].root] += ts.t[k].count;
        total += ts.t[k].count;
    }
    free(ts.t);
    *ndivide = n;
    return total;
}
