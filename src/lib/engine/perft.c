/* perft.c - counting move sequences: the engine's self-test and benchmark. */
#include "pmn.h"
#include "play.h"
#include "../base/util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* perft by pmn_legal_moves and the general engine, for every rule set. */
uint64_t perft_general(const pmn_rules *r, const pmn_position *p, unsigned depth)
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
            total += perft_general(r, &q, depth - 1);
    }
    return total;
}

/* The fast path for the family of Hawalis (relay.h): where the moves of
 * the last level but one end is kept (struct sown).  A move still sowing
 * after RELAY_LAP_LIMIT laps goes to the general engine, which proves it
 * endless or sows it to its end.  test_perft compares the two paths on
 * random positions.  perft 8 from the opening: 0.45 s by the general
 * engine, 0.07 s here. */
#ifdef PMN_RELAY
/* Where the moves of the side to move end, kept while its holes are the
 * same: at the last level of moves played, the opponent's move before
 * changed them only if it captured, so most positions there share them
 * with one a little before.  A few are kept, by a hash of the holes. */
#define SOWN_BITS 3

struct sown {
    holeset mine;
    int known;
    unsigned n;
    uint8_t hole[16];
    int8_t end[16];           /* -1: the general engine plays it */
};

static uint64_t relay_perft(const struct relay *f, struct sown *memo, holeset mine, holeset theirs,
                            unsigned depth);

/* A move the fast path gave up on, played by the general engine.  Sides do
 * not matter to the counts: the mover is South. */
static uint64_t general_below(const struct relay *f, struct sown *memo, holeset mine,
                              holeset theirs, unsigned hole, unsigned depth)
{
    pmn_position q;
    pmn_move_report rep;
    memset(&q, 0, sizeof q);
    for (unsigned i = 0; i < f->n; i++) {
        q.pit[0][i] = (uint16_t)hole_of(mine, i);
        q.pit[1][i] = (uint16_t)hole_of(theirs, i);
    }
    pmn_play(f->r, &q, (int)hole, &rep);
    if (rep.ending != PMN_END_NONE)
        return 0;
    return relay_perft(f, memo, pack(f, q.pit[1]), pack(f, q.pit[0]), depth);
}

/* perft 2: each move's sowing (kept in *memo), then the opponent's moves
 * counted. */
static uint64_t last_two(const struct relay *f, struct sown *memo, holeset mine, holeset theirs)
{
    uint64_t hash = ((uint64_t)mine ^ (uint64_t)(mine >> 64)) * 0x9E3779B97F4A7C15ull;
    memo += hash >> (64 - SOWN_BITS);
    if (!memo->known || memo->mine != mine) {
        memo->mine = mine;
        memo->known = 1;
        memo->n = 0;
        for (uint32_t set = legal_set(f, mine); set; set &= set - 1) {
            unsigned hole = (unsigned)__builtin_ctz(set);
            holeset m = mine;
            memo->hole[memo->n] = (uint8_t)hole;
            memo->end[memo->n++] = (int8_t)relay_sow(f, &m, hole, RELAY_LAP_LIMIT, NULL);
        }
    }
    uint64_t total = 0;
    for (unsigned i = 0; i < memo->n; i++)
        total += memo->end[i] < 0
               ? general_below(f, NULL, mine, theirs, memo->hole[i], 1)
               : legal_count(f, captured(f, theirs, (unsigned)memo->end[i]));
    return total;
}

/* perft of the family: no move ends the game but an endless one (the side
 * left without a move has none to count), so a position's count is its
 * moves' counts.  The side to move holds `mine`. */
static uint64_t relay_perft(const struct relay *f, struct sown *memo, holeset mine, holeset theirs,
                            unsigned depth)
{
    if (depth == 1)
        return legal_count(f, mine);
    if (depth == 2)
        return last_two(f, memo, mine, theirs);
    uint64_t total = 0;
    for (uint32_t set = legal_set(f, mine); set; set &= set - 1) {
        unsigned hole = (unsigned)__builtin_ctz(set);
        holeset m = mine;
        int end = relay_sow(f, &m, hole, RELAY_LAP_LIMIT, NULL);
        total += end < 0 ? general_below(f, memo, mine, theirs, hole, depth - 1)
                         : relay_perft(f, memo, captured(f, theirs, (unsigned)end), m, depth - 1);
    }
    return total;
}
#endif

/* perft by the engine the search plays with (play.h). */
static uint64_t perft(const pmn_rules *r, const pmn_position *p, unsigned depth)
{
    struct engine e;
    engine_init(&e, r, p);
#ifdef PMN_RELAY
    struct sown memo[1 << SOWN_BITS] = { 0 };
    if (depth > 0 && e.packed)
        return relay_perft(&e.f, memo, pack(&e.f, p->pit[p->to_move]),
                           pack(&e.f, p->pit[!p->to_move]), depth);
#endif
    return perft_general(r, p, depth);
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
