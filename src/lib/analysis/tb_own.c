/* tb_own.c - own seeds (Oware's repetition=own-side): the layer solved
 * with both seats apart (tb_solve_own()), the bounds from the endless
 * games a side wins with no memory (own_recurrence()), and the search with
 * the path where they do not meet (tb_cycle_solve()); tb_propagate_own()
 * makes a layer's codes and their table from them. */
#include "tb.h"
#include "tb_own.h"

/* tb_solve_own()'s seeds of level t among the nodes [from, to): North to
 * move with an exit worth t - 1 or less to South, South to move with no
 * move in the layer left and his best exit so. */
static void *scan_own(void *arg)
{
    struct spread *s = arg;
    const struct layer *L = s->L;
    uint64_t M = L->size;
    int t = s->v;
    struct found f;
    f.n = 0;
    for (uint64_t i = s->from; i < s->to; i++) {
        if (s->state[i] == TERMINAL && L->own_of) {
            /* A position of before: the game ends there, its own seeds
             * South's value, taken at the level of that value. */
            int e = i < M ? L->own_of[i] : -L->own_of[i - M];
            if (e == t - 1) {
                s->state[i] = AT_MOST;
                s->value[i] = (int8_t)e;
                tb_found_add(s, &f, (uint32_t)i);
            }
            continue;
        }
        if (s->state[i] != UNKNOWN)
            continue;
        int take = i >= M ? L->exit_low[i - M] != INT8_MIN && -L->exit_low[i - M] <= t - 1
                          : s->open[i] == 0 && L->exit[i] <= t - 1;
        if (take) {
            s->state[i] = AT_MOST;   /* (each node is one thread's to scan) */
            s->value[i] = (int8_t)(t - 1);
            tb_found_add(s, &f, (uint32_t)i);
        }
    }
    if (f.n)
        tb_found_flush(s, &f);
    return NULL;
}

/* Own seeds: the layer solved with both seats apart (node side * size +
 * rank, South to move then North), endless play worth every seed in play
 * to South, as South's values w[] -- the file's comment says what they
 * bound.  It is North's attractor, level by level: at level t, the nodes
 * where North forces play out of the layer worth at most t - 1 to South
 * (North to move: an exit that good, or a move to such a node; South to
 * move: every exit and every move so), t from -n + 1 up, each node worth
 * t - 1 at the level that takes it, the rest n.  A side that forces an
 * exit so never repeats a position (the attractor's distance falls at
 * every ply), which is why the bound holds whatever repetitions count.
 * L->hole[rank] gets North's move at each North node it takes: his best
 * exit (pass 1), or the move to a node taken a generation before, a ply
 * nearer the way out.  open[] holds each node's moves in the layer
 * (counted down here); state[] starts UNKNOWN. */
void tb_solve_own(const struct layer *L, uint8_t *state, uint8_t *open, uint32_t *queue,
                      int8_t *w)
{
    uint64_t M = L->size, nodes = 2 * M, head = 0, tail = 0;
    int n = (int)L->n;
    memset(w, 0, nodes);
    for (int t = -n + 1; t <= n; t++) {
        if (M > (1u << 20))
            tb_layer_progress(L, 2 + (double)(t + n - 1) / 2, 0);
        struct spread level = { L, 2, state, open, queue, w, t, 1, 0, 0, NULL, 0 };
        tb_spread_run(&level, scan_own, 0, nodes, &tail);
        tb_spread_level(&level, head, &tail);
        head = tail;
    }
    for (uint64_t i = 0; i < nodes; i++)
        if (state[i] == UNKNOWN || state[i] == TERMINAL)
            w[i] = (int8_t)n;   /* North cannot force play out: endless, South's (a
                                   TERMINAL left: all n on South's side) */
}

/* Own seeds: a position's U, L and hole (the winner's, where U = L > 0;
 * else -1) as one index into (2n + 1)^2 (K + 1) kinds. */
static uint32_t own_kind(unsigned n, unsigned holes, int u, int l, int hole)
{
    return ((uint32_t)(u + (int)n) * (2 * n + 1) + (uint32_t)(l + (int)n)) * (holes + 1)
         + (uint32_t)(hole + 1);
}

/* Own seeds: the kind of the position of rank i, from tb_solve_own()'s w[]
 * (U: South to move; L: North to move, his view) and L's holes. */
static uint32_t kind_at(const struct layer *L, const int8_t *w, uint64_t i)
{
    int u = w[i], l = -w[L->size + i];
    assert(l <= u);
    /* (a value the search with the path found holds no hole: UINT8_MAX) */
    int hole = u == l && u > 0 && L->hole[i] != UINT8_MAX ? L->hole[i] : -1;
    return own_kind(L->n, L->tb->k / 2, u, l, hole);
}

/* ---- own seeds: values with the path --------------------------------------
 *
 * Under own seeds a position's value as a new game (just arisen by a
 * capture: no position before it can come again) is defined, but not by
 * any retrograde rule: the game ends at its first repeated position, with
 * that position's own seeds, and which positions have been played is part
 * of the state.  tb_solve_own()'s bounds U and L hold it, and meet for most
 * positions once the layers below are exact; the rest are searched with
 * the path (cycle_value()): a depth-first search of the layer's moves from
 * the position, the positions on the path marked, a move to one of them
 * ending the game with its own seeds, a move out of the layer worth what
 * the layers below say.  Nothing is kept from one search to the next: a
 * result depends on the path (choosing which position a repetition comes
 * back to is a move, and no smaller state decides it).  It is fast where
 * it is needed because the bounds cut it: a position's U and L, widened by
 * the own seeds of the positions on the path (those a repetition can end
 * at: max(U, their best) bounds the value whatever the path, since the
 * opponent's strategy that holds U forces play out without repeating a
 * position of its own), and its moves tried in the order of their bounds.
 * A search that passes its budget of positions leaves the bounds as they
 * were: the layer is then not exact, and its bounded positions are
 * counted in its statistics.
 *
 * Where the layers below only bound a move out, the search runs twice:
 * with each exit at the bound worse for the position's side to move (a
 * lower bound) and at the better (an upper bound) -- a game's value never
 * falls when one of its outcomes rises. */

/* A position's budget: a search of more positions, or of a longer path
 * (each ply a frame of the stack), leaves its bounds.  A build searches
 * each position of a layer with a small budget first, then those left
 * with this one while the layer has spent less than CYCLE_LAYER_BUDGET in
 * all (tb_cycle_round()): a position is mostly found within thousands of positions or not in
 * millions (Oware's layer of 6 seeds: 1,512 of 1,528 not found with 2^20
 * or 2^23 each), and a layer's hard positions would otherwise take hours. */
uint64_t tablebase_cycle_budget = UINT64_C(1) << 22;
#define CYCLE_FIRST_BUDGET (UINT64_C(1) << 12)
#define CYCLE_LAYER_BUDGET (UINT64_C(1) << 28)
#define CYCLE_DEPTH 20000


/* The bounds of rank r, parity plies from the root. */
static inline void cycle_bounds(const struct cycle_search *s, uint32_t r, unsigned parity,
                                int *lo, int *hi)
{
    const struct cycle_graph *g = s->g;
    if (g->hi2) {
        uint64_t x = (uint64_t)(s->root_side ^ parity) * g->size + r;
        *lo = g->lo2[x];
        *hi = g->hi2[x];
    } else {
        *lo = g->lo[r];
        *hi = g->hi[r];
    }
}

/* The value of rank r for its side to move (the root's when parity is 0)
 * with the positions on s's path behind it, within (alpha, beta): as an
 * alpha-beta search returns it (at most alpha: an upper bound; at least
 * beta: a lower). */
static int cycle_value(struct cycle_search *s, uint32_t r, unsigned parity, int alpha,
                       int beta)
{
    const struct cycle_graph *g = s->g;
    int exit = (unsigned)s->high != parity ? g->exit_hi[r] : g->exit_lo[r];
    uint32_t from = g->first[r], to = g->first[r + 1];
    if (from == to)
        return exit;   /* (a position with no move in the layer has one out, or ends) */
    if (++s->nodes > s->budget || s->depth >= CYCLE_DEPTH) {
        s->stopped = 1;
        return alpha;
    }
    /* The bounds: U and L, widened by what a repetition of the path can give. */
    int lo, hi;
    cycle_bounds(s, r, parity, &lo, &hi);
    int pmax = parity ? -s->path_min : s->path_max, pmin = parity ? -s->path_max : s->path_min;
    if (pmin < lo)
        lo = pmin;
    if (pmax > hi)
        hi = pmax;
    if (lo == hi || hi <= alpha)
        return hi;
    if (lo >= beta)
        return lo;
    if (lo > alpha)
        alpha = lo;
    if (hi < beta)
        beta = hi;
    int best = exit;
    uint32_t next[TB_MAX_HOLES / 2 * 2];
    int key[TB_MAX_HOLES / 2 * 2];
    unsigned nn = 0;
    for (uint32_t j = from; j < to; j++) {
        uint32_t c = g->kid[j];
        if (s->on_path[2 * (uint64_t)c + !parity]) {
            if (-g->own[c] > best)
                best = -g->own[c];   /* a repetition: the seeds go to their sides */
        } else {
            /* In the order of their bounds, the opponent's worst first. */
            int clo, chi;
            cycle_bounds(s, c, !parity, &clo, &chi);
            unsigned at = nn++;
            key[at] = clo + chi;
            while (at > 0 && key[at - 1] > clo + chi) {
                next[at] = next[at - 1];
                key[at] = key[at - 1];
                at--;
            }
            next[at] = c;
            key[at] = clo + chi;
        }
    }
    if (best > alpha)
        alpha = best;
    int own = parity ? -g->own[r] : g->own[r], save_max = s->path_max, save_min = s->path_min;
    if (own > s->path_max)
        s->path_max = own;
    if (own < s->path_min)
        s->path_min = own;
    s->on_path[2 * (uint64_t)r + parity] = 1;
    s->depth++;
    for (unsigned i = 0; i < nn && alpha < beta && !s->stopped; i++) {
        int v = -cycle_value(s, next[i], !parity, -beta, -alpha);
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
    }
    s->on_path[2 * (uint64_t)r + parity] = 0;
    s->depth--;
    s->path_max = save_max;
    s->path_min = save_min;
    return best;
}

/* Rank r's value for its side to move with s's path behind it, within
 * (alpha, beta), into v[0] and v[1]: with each exit at the bound worse for
 * r's side to move, then at the better (once, where the exits are exact).
 * 0, or -1 where the budget ran out. */
int tb_cycle_both(struct cycle_search *s, uint32_t r, int alpha, int beta, int v[2])
{
    for (int high = 0; high < 2; high++) {
        if (high && s->g->exits_exact) {
            v[1] = v[0];
            break;
        }
        s->high = high;
        s->nodes = 0;
        s->stopped = 0;
        s->depth = 0;
        s->path_max = INT8_MIN;
        s->path_min = INT8_MAX;
        v[high] = cycle_value(s, r, 0, alpha, beta);
        s->total += s->nodes;
        if (s->stopped)
            return -1;
    }
    return 0;
}

/* The value of rank r as a new game, by the search with the path, into
 * *lo and *hi (bounds where the layers below bound an exit); 0, or -1
 * where the budget ran out. */
static int cycle_root(struct cycle_search *s, uint32_t r, int *lo, int *hi)
{
    const struct cycle_graph *g = s->g;
    int v[2];
    if (tb_cycle_both(s, r, g->lo[r] - 1, g->hi[r] + 1, v) != 0)
        return -1;
    assert(v[0] >= g->lo[r] && v[1] <= g->hi[r] && v[0] <= v[1]);
    *lo = v[0];
    *hi = v[1];
    return 0;
}

/* The own seeds of each position of L's layer, for its side to move. */
static void own_seeds_of(const struct layer *L, int8_t *own)
{
    uint8_t h[TB_MAX_HOLES];
    unsigned k = L->tb->k, half = k / 2;
    if (L->size == 0)
        return;
    tb_unrank(L->tb, 0, L->n, h);
    for (uint64_t i = 0; i < L->size; i++) {
        int d = 0;
        for (unsigned j = 0; j < half; j++)
            d += (int)h[j] - (int)h[half + j];
        own[i] = (int8_t)d;
        if (i + 1 < L->size)
            tb_successor(h, k);
    }
}

void tb_cycle_graph_free(struct cycle_graph *g)
{
    free(g->hi2);
    free(g->lo2);
    free(g->first);
    free(g->kid);
    free(g->own);
    free(g->hi);
    free(g->lo);
    memset(g, 0, sizeof *g);
}

/* L's layer as a cycle_graph: its moves forward (from the lists of
 * predecessors), its own seeds, and its bounds from tb_solve_own()'s w[].
 * 0, or -1 when memory runs out. */
int tb_cycle_graph_make(const struct layer *L, const int8_t *w, struct cycle_graph *g)
{
    uint64_t M = L->size, edges = M ? L->cursor[M - 1] : 0;
    memset(g, 0, sizeof *g);
    g->size = M;
    g->exit_hi = L->exit;
    g->exit_lo = L->exit_low;
    g->first = malloc((M + 1) * sizeof *g->first);
    g->kid = malloc((edges ? edges : 1) * sizeof *g->kid);
    g->own = malloc(M ? M : 1);
    g->hi = malloc(M ? M : 1);
    g->lo = malloc(M ? M : 1);
    uint32_t *fill = calloc(M ? M : 1, sizeof *fill);
    if (!g->first || !g->kid || !g->own || !g->hi || !g->lo || !fill) {
        free(fill);
        tb_cycle_graph_free(g);
        return -1;
    }
    uint64_t at = 0;
    for (uint64_t i = 0; i < M; i++) {
        g->first[i] = (uint32_t)at;
        at += L->open[i];
    }
    g->first[M] = (uint32_t)at;
    assert(at == edges);
    for (uint64_t c = 0; c < M; c++)
        for (uint32_t j = c ? L->cursor[c - 1] : 0; j < L->cursor[c]; j++) {
            uint32_t p = L->pred[j] & PRED_RANK;
            g->kid[g->first[p] + fill[p]++] = (uint32_t)c;
        }
    free(fill);
    own_seeds_of(L, g->own);
    g->exits_exact = 1;
    for (uint64_t i = 0; i < M; i++) {
        g->hi[i] = w[i];
        g->lo[i] = (int8_t)-w[M + i];
        if (L->exit[i] != L->exit_low[i])
            g->exits_exact = 0;
    }
    return 0;
}

/* ---- own seeds: bounds from the endless games ---------------------------
 *
 * tb_solve_own()'s U holds where North forces play out of the layer; where
 * he cannot, it is every seed in play.  Tighter, and still sound whatever
 * the path (the bound's argument is a strategy of one side that needs no
 * memory): at threshold t, call a node good when South's own seeds there
 * (his side less North's) are t or more.  If North has a strategy that
 * wins the endless game "South never takes an exit worth t or more to
 * him, and the play passes good nodes only finitely often", he has one
 * without memory (a co-Büchi objective), and with it the game as Oware
 * plays it ends below t for South: a play that follows it either leaves
 * the layer at an exit worth less than t, or first repeats a position on
 * a cycle that the strategy allows, and no such cycle has a good node
 * (South would go round it for ever).  So U < t wherever South loses his
 * Büchi game (an exit worth t, or good nodes infinitely often), solved as
 * usual: his attractor to the good nodes, the rest North's trap, North's
 * attractor to it taken away, again until nothing is taken.  The bound
 * for the other side comes from the seats mirrored, as tb_solve_own()'s
 * does.  A repetition of a position of the path that is not on the
 * strategy's cycles (a position of before, in a search) is the caller's:
 * it widens the bound as cycle_value() does. */

/* The successors of node x of the doubled layer: the moves in the layer of
 * its rank, to the other seat. */
#define OWN_NODE_KIDS(g, x, j, body)                                                   \
    do {                                                                               \
        uint64_t r_ = (x) < (g)->size ? (x) : (x) - (g)->size;                         \
        uint64_t off_ = (x) < (g)->size ? (g)->size : 0;                               \
        for (uint32_t k_ = (g)->first[r_]; k_ < (g)->first[r_ + 1]; k_++) {            \
            uint64_t j = off_ + (g)->kid[k_];                                          \
            body;                                                                      \
        }                                                                              \
    } while (0)

#define OWN_NODE_PREDS(L, x, j, body)                                                  \
    do {                                                                               \
        uint64_t c_ = (x) < (L)->size ? (x) : (x) - (L)->size;                         \
        uint64_t off_ = (x) < (L)->size ? (L)->size : 0;                               \
        for (uint32_t k_ = c_ ? (L)->cursor[c_ - 1] : 0; k_ < (L)->cursor[c_]; k_++) { \
            uint64_t j = off_ + ((L)->pred[k_] & PRED_RANK);                           \
            body;                                                                      \
        }                                                                              \
    } while (0)

enum { RB_IN = 1, RB_OUT = 2, RB_ATTR = 4, RB_NOW_S = 8, RB_NOW_N = 16, RB_GOOD = 32 };

/* w[] (tb_solve_own()'s, South's view of each node) lowered to the Büchi
 * bound; the holes of the ranks whose lower bound rose dropped (the hole
 * L->hole holds is the move that keeps the old bound).  0; -1 when memory
 * runs out (w[] as it was).  (Not used with a history: tried there, it
 * changed no annotation of samples/oware and cost 40% more time.) */
static int own_recurrence(struct layer *L, const struct cycle_graph *g, int8_t *w)
{
    uint64_t M = L->size, N = 2 * M;
    int n = (int)L->n;
    uint8_t *st = malloc(N ? N : 1);
    uint32_t *cnt = malloc((N ? N : 1) * sizeof *cnt), *q = malloc((N ? N : 1) * sizeof *q);
    int8_t *u = malloc(N ? N : 1);
    if (!st || !cnt || !q || !u) {
        free(st); free(cnt); free(q); free(u);
        return -1;
    }
    for (uint64_t x = 0; x < N; x++)
        u[x] = (int8_t)n;
    /* Thresholds t = -n + 2, -n + 4, ..., n (values have the parity of n):
     * a node North wins at t he wins above it, so it leaves the arena. */
    for (int t = -n + 2; t <= n; t += 2) {
        for (uint64_t x = 0; x < N; x++) {
            uint64_t r = x < M ? x : x - M;
            int south = x < M, moves = g->first[r + 1] > g->first[r];
            int e = south ? L->exit[r] : L->exit_low[r] == INT8_MIN ? INT8_MIN : -L->exit_low[r];
            int own = south ? g->own[r] : -g->own[r];
            uint8_t s = u[x] < t ? RB_OUT : RB_IN;
            if (south ? e != INT8_MIN && e >= t : !moves && (e == INT8_MIN || e >= t))
                s |= RB_NOW_S;   /* South takes a good exit (or North must) */
            else if (south ? !moves : e != INT8_MIN && e < t)
                s |= RB_NOW_N;   /* North takes one bad for South (or South must) */
            else if (own >= t)
                s |= RB_GOOD;
            st[x] = s;
        }
        for (;;) {
            /* South's attractor to the good nodes in the arena. */
            uint64_t head = 0, tail = 0;
            for (uint64_t x = 0; x < N; x++) {
                if (!(st[x] & RB_IN))
                    continue;
                st[x] &= (uint8_t)~RB_ATTR;
                if (st[x] & (RB_NOW_S | RB_GOOD)) {
                    st[x] |= RB_ATTR;
                    q[tail++] = (uint32_t)x;
                } else if (x >= M) {
                    cnt[x] = g->first[x - M + 1] - g->first[x - M];
                }
            }
            while (head < tail) {
                uint64_t y = q[head++];
                OWN_NODE_PREDS(L, y, x, {
                    if ((st[x] & (RB_IN | RB_ATTR | RB_NOW_N | RB_NOW_S)) == RB_IN
                        && (x < M || --cnt[x] == 0)) {
                        st[x] |= RB_ATTR;
                        q[tail++] = (uint32_t)x;
                    }
                });
            }
            /* The rest is North's trap; his attractor to it leaves the arena. */
            head = tail = 0;
            for (uint64_t x = 0; x < N; x++) {
                if (!(st[x] & RB_IN))
                    continue;
                if (!(st[x] & RB_ATTR)) {
                    q[tail++] = (uint32_t)x;
                } else if (x < M) {
                    uint32_t c = 0;
                    OWN_NODE_KIDS(g, x, j, c += (st[j] & RB_IN) != 0);
                    cnt[x] = c;
                }
            }
            if (tail == 0)
                break;
            for (uint64_t i = 0; i < tail; i++)
                st[q[i]] = (uint8_t)((st[q[i]] & ~RB_IN) | RB_OUT);
            while (head < tail) {
                uint64_t y = q[head++];
                OWN_NODE_PREDS(L, y, x, {
                    if ((st[x] & RB_IN) && !(st[x] & RB_NOW_S) && (x >= M || --cnt[x] == 0)) {
                        st[x] = (uint8_t)((st[x] & ~RB_IN) | RB_OUT);
                        q[tail++] = (uint32_t)x;
                    }
                });
            }
        }
        for (uint64_t x = 0; x < N; x++)
            if ((st[x] & RB_OUT) && u[x] >= t)
                u[x] = (int8_t)(t - 2);
    }
    for (uint64_t x = 0; x < N; x++)
        if (u[x] < w[x]) {
            w[x] = u[x];
            if (x >= M)
                L->hole[x - M] = UINT8_MAX;   /* (the rank's L rose) */
        }
    free(st); free(cnt); free(q); free(u);
    return 0;
}

/* ---- own seeds: the layer's search, its budget spent in rank order --------
 *
 * A layer's open positions are searched in two rounds (tb_cycle_round()):
 * each with CYCLE_FIRST_BUDGET, then those left with the whole budget
 * while the second round has spent less than CYCLE_LAYER_BUDGET.  Which
 * positions the second round reaches depends on what those before them
 * spent, so outcomes are committed in the order of the ranks
 * (tb_cycle_commit()), as one thread taking them in turn would.  A
 * search's outcome depends on its position alone (the bounds it reads are
 * those of the round's start, never narrowed during it), so threads
 * (tb_cycle_solve()) and processes (pmn-tablebase-mpi) make them in any
 * order, and the files are the same on any number of either; a search
 * made past the point where the budget ran out is dropped. */

/* The open positions of L's layer (w[]: tb_solve_own()'s bounds), the
 * bounds narrowed by own_recurrence(), made ready for the search: g, and
 * c with the open ranks in order (none: c->n 0, g freed).  0, or -1 when
 * memory runs out (the bounds then stand). */
int tb_cycle_prepare(struct layer *L, int8_t *w, struct cycle_graph *g, struct cycle_rounds *c)
{
    uint64_t M = L->size, open = 0;
    memset(c, 0, sizeof *c);
    memset(g, 0, sizeof *g);
    for (uint64_t i = 0; i < M; i++)
        open += w[i] != -w[M + i];
    if (open == 0)
        return 0;
    if (tb_cycle_graph_make(L, w, g) != 0)
        return -1;
    if (own_recurrence(L, g, w) == 0) {
        open = 0;
        for (uint64_t i = 0; i < M; i++) {
            g->hi[i] = w[i];
            g->lo[i] = (int8_t)-w[M + i];
            open += w[i] != -w[M + i];
        }
    }
    if (open == 0) {
        tb_cycle_graph_free(g);
        return 0;
    }
    c->todo = malloc(open * sizeof *c->todo);
    c->found = calloc(open, 1);
    if (!c->todo || !c->found) {
        tb_cycle_rounds_free(c);
        tb_cycle_graph_free(g);
        return -1;
    }
    for (uint64_t i = 0; i < M; i++)
        if (g->hi[i] != g->lo[i])
            c->todo[c->n++] = (uint32_t)i;
    assert(c->n == open);
    c->g = g;
    return 0;
}

void tb_cycle_rounds_free(struct cycle_rounds *c)
{
    free(c->todo);
    free(c->found);
    memset(c, 0, sizeof *c);
}

/* Round 0 or 1 begun: round 1 keeps the ranks round 0 did not find. */
void tb_cycle_round(struct cycle_rounds *c, int round)
{
    if (round == 1) {
        uint64_t kept = 0;
        for (uint64_t j = 0; j < c->n; j++)
            if (!c->found[j])
                c->todo[kept++] = c->todo[j];
        c->n = kept;
        memset(c->found, 0, kept);
    }
    c->done = 0;
    c->stopped = 0;
    c->budget = round == 0 && tablebase_cycle_budget > CYCLE_FIRST_BUDGET
              ? CYCLE_FIRST_BUDGET : tablebase_cycle_budget;
    c->limit = round == 0 ? UINT64_MAX : c->spent + CYCLE_LAYER_BUDGET;
}

/* The search of rank r with the round's budget, into o. */
void tb_cycle_search(struct cycle_search *s, const struct cycle_rounds *c, uint32_t r,
                     struct cycle_outcome *o)
{
    int lo = 0, hi = 0;
    s->g = c->g;
    s->budget = c->budget;
    o->found = cycle_root(s, r, &lo, &hi) == 0;
    o->nodes = s->nodes;   /* (the last pass's: what the layer's budget counts) */
    o->lo = (int8_t)lo;
    o->hi = (int8_t)hi;
}

/* o, the outcome of todo[c->done], committed: 0; -1 where the round's
 * budget ran out before it (c->stopped: it and those after are dropped).
 * Where found, the rank's bounds in w[] meet and its hole is UINT8_MAX
 * (none held: kind_at()); w and hole NULL: the count alone (a process
 * that keeps no values). */
int tb_cycle_commit(struct cycle_rounds *c, const struct cycle_outcome *o, int8_t *w,
                    uint8_t *hole)
{
    assert(c->done < c->n && !c->stopped);
    if (c->spent > c->limit) {
        __atomic_store_n(&c->stopped, 1, __ATOMIC_RELEASE);
        return -1;
    }
    uint64_t j = c->done++;
    c->spent += o->nodes;
    c->found[j] = o->found;
    if (o->found && w) {
        uint32_t r = c->todo[j];
        assert(o->lo >= c->g->lo[r] && o->hi <= c->g->hi[r]);
        w[r] = o->hi;
        w[c->g->size + r] = (int8_t)-o->lo;
        hole[r] = UINT8_MAX;
    }
    return 0;
}

struct cycle_worker {
    struct cycle_search s;
    struct cycle_rounds *c;    /* shared: committed under lock */
    struct cycle_outcome *o;   /* each entry's outcome (an entry one thread's) */
    uint8_t *ready;            /* o[j] made (under lock) */
    uint64_t *next;            /* the next entry to take (shared) */
    pthread_mutex_t *lock;
    int8_t *w;
    uint8_t *hole;
};

/* Entries taken in order; each outcome made, then every outcome ready
 * from the first not committed on, committed (by whichever thread). */
static void *cycle_work(void *arg)
{
    struct cycle_worker *cw = arg;
    struct cycle_rounds *c = cw->c;
    while (!__atomic_load_n(&c->stopped, __ATOMIC_ACQUIRE)) {
        uint64_t j = __atomic_fetch_add(cw->next, 1, __ATOMIC_RELAXED);
        if (j >= c->n)
            break;
        tb_cycle_search(&cw->s, c, c->todo[j], &cw->o[j]);
        pthread_mutex_lock(cw->lock);
        cw->ready[j] = 1;
        while (!c->stopped && c->done < c->n && cw->ready[c->done])
            tb_cycle_commit(c, &cw->o[c->done], cw->w, cw->hole);
        pthread_mutex_unlock(cw->lock);
    }
    return NULL;
}

/* The positions of L's layer whose bounds tb_solve_own() left apart (w[]),
 * searched with the path on L->threads threads, both rounds; those found
 * get their value and the hole UINT8_MAX.  0; -1 when memory runs out
 * (the bounds then stand). */
int tb_cycle_solve(struct layer *L, int8_t *w)
{
    struct cycle_graph g;
    struct cycle_rounds c;
    if (tb_cycle_prepare(L, w, &g, &c) != 0)
        return -1;
    if (c.n == 0)
        return 0;
    unsigned threads = L->threads < 1 ? 1 : L->threads > 16 ? 16 : L->threads;
    struct cycle_worker cw[16];
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    struct cycle_outcome *o = malloc(c.n * sizeof *o);
    uint8_t *ready = malloc(c.n);
    uint64_t next = 0;
    int rc = o && ready ? 0 : -1;
    memset(cw, 0, sizeof cw);
    for (unsigned t = 0; t < threads && rc == 0; t++) {
        cw[t] = (struct cycle_worker){ .c = &c, .o = o, .ready = ready, .next = &next,
                                       .lock = &lock, .w = w, .hole = L->hole };
        if (!(cw[t].s.on_path = calloc(2 * L->size, 1)))
            rc = -1;
    }
    for (int round = 0; round < 2 && rc == 0; round++) {
        tb_cycle_round(&c, round);
        memset(ready, 0, c.n);
        next = 0;
        tb_on_threads(cycle_work, cw, sizeof *cw, threads);
        assert(c.stopped || c.done == c.n);
    }
    for (unsigned t = 0; t < threads; t++)
        free(cw[t].s.on_path);
    free(o);
    free(ready);
    tb_cycle_rounds_free(&c);
    tb_cycle_graph_free(&g);
    return rc;
}

/* Own seeds: tb_solve_own()'s bounds of L's layer into w[] (2 L->size).
 * 0; -1 when memory runs out. */
int tb_own_bounds(const struct layer *L, int8_t *w)
{
    uint64_t M = L->size, N = M ? 2 * M : 1;
    uint8_t *state = calloc(N, 1), *open = malloc(N);
    uint32_t *queue = malloc(N * sizeof *queue);
    int rc = state && open && queue ? 0 : -1;
    if (rc == 0) {
        memcpy(open, L->open, M);
        memcpy(open + M, L->open, M);
        tb_solve_own(L, state, open, queue, w);
    }
    free(state);
    free(open);
    free(queue);
    return rc;
}

/* Own seeds: the layer's positions made codes in value[] and its table
 * (OWN_TABLE) after them, as the file holds them: the kinds of (U, L,
 * hole) the layer has (w[], L->hole), in the order of own_kind(), a code
 * each -- few, since the values have the parity of the seeds, U and L are
 * mostly near each other, and a hole is held only where they meet above 0
 * (Oware's layer of 12 seeds has 87 kinds).  -1 when memory runs out, -2
 * when the layer has more than 256 kinds. */
int tb_own_codes(const struct layer *L, const int8_t *w, int8_t *value)
{
    uint64_t M = L->size;
    unsigned n = L->n, holes = L->tb->k / 2;
    uint32_t kinds = own_kind(n, holes, (int)n, (int)n, (int)holes - 1) + 1;
    int16_t *code = malloc(kinds * sizeof *code);
    if (!code)
        return -1;
    int rc = 0;
    /* The kinds the layer has, numbered in order. */
    for (uint32_t k = 0; k < kinds; k++)
        code[k] = -1;
    for (uint64_t i = 0; i < M; i++)
        code[kind_at(L, w, i)] = 0;
    int8_t *table = value + M;
    unsigned used = 0;
    memset(table, INT8_MIN, 2 * 256);
    memset(table + 2 * 256, -1, 256);
    for (uint32_t k = 0; k < kinds; k++) {
        if (code[k] < 0)
            continue;
        if (used == 256) {
            rc = -2;
            break;
        }
        uint32_t pair = k / (holes + 1);
        table[used] = (int8_t)((int)(pair / (2 * n + 1)) - (int)n);          /* U */
        table[256 + used] = (int8_t)((int)(pair % (2 * n + 1)) - (int)n);    /* L */
        table[512 + used] = (int8_t)((int)(k % (holes + 1)) - 1);          /* the hole */
        code[k] = (int16_t)used++;
    }
    for (uint64_t i = 0; rc == 0 && i < M; i++)
        value[i] = (int8_t)(uint8_t)code[kind_at(L, w, i)];
    free(code);
    return rc;
}

/* Own seeds: the layer of n seeds solved -- its bounds (tb_own_bounds()),
 * narrowed by the search with the path (tb_cycle_solve()) -- and made
 * codes (tb_own_codes()).  -1 when memory runs out, -2 when the layer has
 * more than 256 kinds. */
int tb_propagate_own(struct layer *L, int8_t *value)
{
    int8_t *w = malloc(L->size ? 2 * L->size : 1);
    int rc = w ? tb_own_bounds(L, w) : -1;
    if (rc == 0) {
        tb_cycle_solve(L, w);   /* (where memory runs out, the bounds stand) */
        rc = tb_own_codes(L, w, value);
    }
    free(w);
    return rc;
}
