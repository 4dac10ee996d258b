/* tb_history.c - a layer solved again for a game with a history: the
 * positions since the last capture end the game if they come again. */
#include "tb.h"
#include "tb_own.h"
#include "tb_history.h"

/* ---- a layer with a history ------------------------------------------------ */

/* The databases value a position as a new game.  With positions of before
 * that may come again (since the last capture), a repetition of one of
 * them ends the game and the value may change.  Where the seeds left go
 * uncounted (worth 0 of the seeds in play), the layer is solved again as
 * a graph whose nodes are its positions with the side to move (the two
 * seats apart: a position of before is one of them, not its mirror), the
 * positions of before terminal, worth 0, and the rest solved as the files'
 * layers are (tb_solve_graph()).  Under own seeds a repetition is worth the
 * seeds on each side, and a position is searched with the path (the
 * positions of before on it: cycle_value()), its exits read from the
 * layers below, its bounds from the layer solved again (tb_solve_own()). */
struct tablebase_history {
    const pmn_tablebase *tb;
    unsigned n;
    uint64_t size;
    struct layer L;            /* the layer's graph, built once */
    int8_t *value;             /* [side * size + rank], for the side to move
                                  (own seeds: tb_solve_own()'s w[]) */
    uint8_t *state, *open;
    uint32_t *queue;
    /* Own seeds: */
    int8_t *value_b;           /* tb_solve_own()'s w[] with the seats mirrored */
    struct cycle_graph g;
    struct cycle_search s;
    const pmn_position *ends;  /* the positions of before (the caller's) */
    size_t nends;
};

void tablebase_history_free(struct tablebase_history *h)
{
    if (h) {
        tb_layer_free(&h->L);
        tb_cycle_graph_free(&h->g);   /* (all NULL but under own seeds; tb not read:
                                      a searcher may free its own after them) */
        free(h->s.on_path);
        free(h->value_b);
        free(h->value);
        free(h->state);
        free(h->open);
        free(h->queue);
        free(h);
    }
}

/* The node of p in h's doubled layer, or -1 if p is not in it. */
static int64_t history_node(const struct tablebase_history *h, const pmn_position *p)
{
    uint8_t c[TB_MAX_HOLES];
    if (tb_counts_of(&h->tb->rules, p, c) != h->n)
        return -1;
    return (int64_t)((uint64_t)p->to_move * h->size + tb_rank_of(h->tb, c, h->n));
}

struct tablebase_history *tablebase_history_new(const pmn_tablebase *tb, unsigned n,
                                                uint64_t max_positions)
{
    pmn_error err;
    /* Under own seeds the layer above the databases too: its graph and
     * bounds are made here, its exits read from the layers held. */
    if (n > tb->seeds + (tb->own != 0) || n > TB_MAX_SEEDS || tb->size[n] > max_positions
        || tb->size[n] >= UINT32_MAX / 2)
        return NULL;
    struct tablebase_history *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->tb = tb;
    h->n = n;
    h->size = tb->size[n];
    uint64_t M = h->size, M2 = 2 * M;
    h->value = malloc(M2 ? M2 : 1);
    h->state = calloc(M2 ? M2 : 1, 1);
    h->open = malloc(M2 ? M2 : 1);
    h->queue = malloc((M2 ? M2 : 1) * sizeof *h->queue);
    if (!h->value || !h->state || !h->open || !h->queue
        || tb_layer_graph(tb, n, 1, &h->L, &err) != 0) {
        free(h->value);
        free(h->state);
        free(h->open);
        free(h->queue);
        free(h);
        return NULL;
    }
    if (tb->own) {
        /* The layer's bounds solved again (the files hold each position's
         * value as a new game, which bounds nothing with a path behind). */
        memcpy(h->open, h->L.open, M);
        memcpy(h->open + M, h->L.open, M);
        tb_solve_own(&h->L, h->state, h->open, h->queue, h->value);
        h->s.on_path = calloc(M2 ? M2 : 1, 1);
        h->value_b = malloc(M2 ? M2 : 1);
        if (!h->s.on_path || !h->value_b || tb_cycle_graph_make(&h->L, h->value, &h->g) != 0) {
            free(h->s.on_path);
            h->s.on_path = NULL;
            memset(&h->g, 0, sizeof h->g);
            tablebase_history_free(h);
            return NULL;
        }
        h->g.hi2 = malloc(M2 ? M2 : 1);
        h->g.lo2 = malloc(M2 ? M2 : 1);
        if (!h->g.hi2 || !h->g.lo2) {
            tablebase_history_free(h);
            return NULL;
        }
        h->L.own_of = h->g.own;
        h->s.g = &h->g;
        h->s.budget = tablebase_cycle_budget;
    }
    return h;
}

/* A solve's start: every node unknown, its moves in the layer counted,
 * and the ends (the positions since the last capture) terminal -- on the
 * other seat where `mirrored` (own seeds' bounds with the seats mirrored,
 * the ends on the other seat). */
static void ends_terminal(struct tablebase_history *h, const pmn_position *ends, size_t nends,
                          int mirrored)
{
    uint64_t M = h->size;
    memset(h->state, UNKNOWN, 2 * M);
    memcpy(h->open, h->L.open, M);
    memcpy(h->open + M, h->L.open, M);
    for (size_t i = 0; i < nends; i++) {
        int64_t x = history_node(h, &ends[i]);
        if (x >= 0)
            h->state[mirrored ? ((uint64_t)x + M) % (2 * M) : (uint64_t)x] = TERMINAL;
    }
}

void tablebase_history_solve(struct tablebase_history *h, const pmn_position *ends,
                             size_t nends)
{
    uint64_t M = h->size;
    if (h->tb->own) {
        /* The layer's bounds with the ends terminal, worth their own seeds
         * (a strategy that holds a bound with them so holds it in the game:
         * the file's comment of cycle_value() says why): endless play
         * South's (w), then with the seats mirrored (the ends on the other
         * seat: endless play North's, value_b). */
        h->ends = ends;
        h->nends = nends;
        int8_t *w[2] = { h->value, h->value_b };
        for (int m = 0; m < 2; m++) {
            ends_terminal(h, ends, nends, m);
            tb_solve_own(&h->L, h->state, h->open, h->queue, w[m]);
        }
        /* Each node's: with endless play its mover's, and his opponent's. */
        for (uint64_t r = 0; r < M; r++) {
            h->g.hi2[r] = w[0][r];                    /* South to move */
            h->g.lo2[r] = (int8_t)-w[1][M + r];
            h->g.hi2[M + r] = w[1][r];                /* North to move */
            h->g.lo2[M + r] = (int8_t)-w[0][M + r];
        }
        return;   /* each probe searches */
    }
    ends_terminal(h, ends, nends, 0);   /* (worth 0: solve_graph leaves them so) */
    tb_solve_graph(&h->L, 2, h->state, h->open, h->queue, h->value);
}

/* Own seeds: the ends put on the search's path (mark 1) or taken off (0),
 * each with the parity of its side to move from p's (a position of before
 * is one seat of its counts); their own seeds are in the bounds already
 * (hi2, lo2), not the path's. */
static void history_mark(struct tablebase_history *h, const pmn_position *p, uint8_t mark)
{
    for (size_t i = 0; i < h->nends; i++) {
        int64_t x = history_node(h, &h->ends[i]);
        if (x >= 0)
            h->s.on_path[2 * ((uint64_t)x % h->size) + (h->ends[i].to_move != p->to_move)] = mark;
    }
}

/* Own seeds: p's value after the ends, by the search with them on the
 * path (both bounds of the exits where the layers below bound one).  1,
 * or -1 where it is not found: the budget, or bounds apart. */
static int history_search(struct tablebase_history *h, const pmn_position *p, uint64_t node,
                          int *v)
{
    int found[2];
    h->s.root_side = p->to_move;
    history_mark(h, p, 1);
    int rc = tb_cycle_both(&h->s, (uint32_t)(node % h->size), -(int)h->n - 1, (int)h->n + 1,
                        found);
    history_mark(h, p, 0);
    if (rc != 0 || found[0] != found[1])
        return -1;
    *v = found[0];
    return 1;
}

void tablebase_history_limit(struct tablebase_history *h, uint64_t budget)
{
    h->s.budget = budget < tablebase_cycle_budget ? budget : tablebase_cycle_budget;
}

uint64_t tablebase_history_searched(const struct tablebase_history *h)
{
    return h->s.total;
}

int tablebase_history_probe(struct tablebase_history *h, const pmn_position *p, int *v)
{
    int64_t x = history_node(h, p);
    if (x < 0)
        return 0;
    if (!h->tb->own) {
        *v = h->value[x];
        return 1;
    }
    for (size_t i = 0; i < h->nends; i++)
        if (history_node(h, &h->ends[i]) == x) {
            *v = h->g.own[(uint64_t)x % h->size];   /* a repetition: the seeds on each side */
            return 1;
        }
    return history_search(h, p, (uint64_t)x, v);
}

