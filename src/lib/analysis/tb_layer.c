/* tb_layer.c - a layer of the databases built as a graph (where positions
 * can repeat): each position's best exit and its moves in the layer, in
 * two passes over the positions on several threads (run_pass()), the
 * predecessor lists, and the solve from the highest value down
 * (tb_solve_graph()); and tb_build_layer(), which builds a layer by the
 * way its rules need (tb_walk_layer(), tb_propagate(), tb_propagate_own()).
 * tablebase.c's comment says what is solved and why. */
#include "tb.h"

/* A pass's shares: each thread's ranks, and the first not taken yet. */
struct shares {
    pthread_mutex_t lock;
    unsigned n;
    uint64_t next[16], end[16];   /* share i: [next[i], end[i]) not taken yet */
};

/* Pass 1's moves in the layer, kept a chunk at a time, so that pass 2
 * lists the predecessors from them without playing the positions again
 * (playing was three quarters of the two passes' time, and pass 2 played
 * every position a second time).  A chunk's array holds its positions'
 * moves in the layer in order, each the child's rank with the hole above
 * it where the layer is coded (PRED_HOLE), open[] saying how many are each
 * position's; a chunk whose array cannot be had (memory) is played again
 * by pass 2, as every chunk was before. */
struct kept {
    pthread_mutex_t lock;
    struct kept_chunk {
        uint64_t from, to;
        uint32_t *kid;         /* NULL: played again */
    } *c;
    size_t n, cap;
    size_t next;               /* pass 2: the next chunk to take (under lock) */
};

struct worker {
    struct layer *L;
    struct shares *shares;
    unsigned own;              /* its share; the caller's own thread is 0, and
                                  tells the progress */
    uint64_t here;
    struct kept *kept;
    uint32_t *kid;             /* pass 1: the chunk's moves in the layer so far */
    uint64_t nk, room;
};

/* The positions a thread takes at a time.  Their work differs with the
 * counts (the ranks run through them in order): a thread takes chunks
 * from the front of its own share of the ranks, then from the back of
 * the others' until all are taken.  (Even shares alone kept one thread of
 * two idle a third of a pass; chunks of one range taken in turn, or a
 * share's next chunk taken beside its owner, had both threads count the
 * in-layer moves into the same lines of memory, and the pass took twice
 * the CPU.) */
#define PASS_CHUNK 16384

/* The next chunk of positions for thread `own`, in [*from, *to); 0 when
 * every chunk is taken.  (A lock a chunk: some thousand a layer.) */
static int next_chunk(struct shares *s, unsigned own, uint64_t *from, uint64_t *to)
{
    int found = 0;
    pthread_mutex_lock(&s->lock);
    if (s->next[own] < s->end[own]) {
        *from = s->next[own];
        *to = s->end[own] - *from > PASS_CHUNK ? *from + PASS_CHUNK : s->end[own];
        s->next[own] = *to;
        found = 1;
    }
    for (unsigned i = 1; i < s->n && !found; i++) {
        unsigned share = (own + i) % s->n;
        if (s->next[share] < s->end[share]) {
            *to = s->end[share];
            *from = *to - s->next[share] > PASS_CHUNK ? *to - PASS_CHUNK : s->next[share];
            s->end[share] = *from;
            found = 1;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

/* How far the layer of L is built, told to the build's caller: its work is
 * two passes over the positions (work()) and n scans of them in
 * tb_solve_graph(), steps 0 .. n + 2; `within` how far the step is. */
void tb_layer_progress(const struct layer *L, double step, double within)
{
    pmn_tablebase_fn fn = L->tb->progress;
    if (!fn)
        return;
    pmn_tablebase_layer s;
    memset(&s, 0, sizeof s);
    s.seeds = L->n;
    s.positions = L->size;
    s.done = (step + within) / (double)(L->n + 2);
    if (s.done >= 1)
        s.done = 0.999;
    fn(L->tb->progress_ctx, &s);
}

static void inner_move(void *ctx, uint64_t child, const uint8_t *counts, int hole)
{
    (void)counts;
    assert(hole >= 0 && hole < 8);
    struct worker *w = ctx;
    struct layer *L = w->L;
    if (L->pass == 1) {
        L->open[w->here]++;
        __atomic_fetch_add(&L->cursor[child], 1, __ATOMIC_RELAXED);
        if (w->kid) {
            if (w->nk == w->room) {   /* (more moves than holes: never; played again) */
                free(w->kid);
                w->kid = NULL;
            } else {
                w->kid[w->nk++] = (uint32_t)child | (L->hole ? (uint32_t)hole << PRED_HOLE : 0);
            }
        }
    } else {
        uint32_t at = __atomic_fetch_add(&L->cursor[child], 1, __ATOMIC_RELAXED);
        L->pred[at] = (uint32_t)w->here | (L->hole ? (uint32_t)hole << PRED_HOLE : 0);
    }
}

/* The positions [from, to) played (tb_exits()): pass 1 values their best
 * exits and counts their moves in the layer, pass 2 lists them. */
static void play_chunk(struct worker *w, uint64_t from, uint64_t to)
{
    struct layer *L = w->L;
    uint8_t h[TB_MAX_HOLES];
    tb_unrank(L->tb, from, L->n, h);
    for (w->here = from; w->here < to; w->here++) {
        int low, hole;
        /* (the second pass lists the moves in the layer: the values
         * out of it, read from the layers below, are the first's) */
        int e = tb_exits(L->tb, L->r, h, L->n, inner_move, w, &low, &hole, L->pass == 1);
        if (L->pass == 1) {
            L->exit[w->here] = (int8_t)e;
            if (L->hole)
                L->hole[w->here] = (uint8_t)hole;
            if (L->exit_low)
                L->exit_low[w->here] = (int8_t)low;
        }
        if (w->here + 1 < to)
            tb_successor(h, L->tb->k);
    }
}

/* Pass 1: every chunk played, its moves in the layer kept (struct kept). */
static void *work(void *arg)
{
    struct worker *w = arg;
    struct layer *L = w->L;
    uint64_t from, to;
    while (next_chunk(w->shares, w->own, &from, &to)) {
        /* The caller's thread tells the progress of all, by its share. */
        const struct shares *s = w->shares;
        if (w->own == 0 && from && from < L->size / s->n)
            tb_layer_progress(L, 0, (double)from * s->n / (double)L->size);
        w->room = (to - from) * (L->tb->k / 2);   /* (a move a hole of a side at most) */
        w->kid = malloc(w->room * sizeof *w->kid);
        w->nk = 0;
        play_chunk(w, from, to);
        uint32_t *fit = w->kid ? realloc(w->kid, (w->nk ? w->nk : 1) * sizeof *w->kid) : NULL;
        if (fit)
            w->kid = fit;
        struct kept *k = w->kept;
        pthread_mutex_lock(&k->lock);
        if (k->n == k->cap) {
            size_t cap = k->cap ? 2 * k->cap : 64;
            struct kept_chunk *c = realloc(k->c, cap * sizeof *c);
            if (c) {
                k->c = c;
                k->cap = cap;
            }
        }
        if (k->n < k->cap) {
            k->c[k->n++] = (struct kept_chunk){ from, to, w->kid };
        } else {   /* (no room to say it: this chunk's lists are left out; the caller
                      sees the positions not covered and fails for memory) */
            free(w->kid);
        }
        w->kid = NULL;
        pthread_mutex_unlock(&k->lock);
    }
    return NULL;
}

/* Pass 2: each chunk's predecessor entries, from its kept moves (or its
 * positions played again). */
static void *list_work(void *arg)
{
    struct worker *w = arg;
    struct layer *L = w->L;
    struct kept *k = w->kept;
    for (;;) {
        pthread_mutex_lock(&k->lock);
        size_t i = k->next < k->n ? k->next++ : k->n;
        pthread_mutex_unlock(&k->lock);
        if (i == k->n)
            break;
        struct kept_chunk *c = &k->c[i];
        if (w->own == 0)
            tb_layer_progress(L, 1, (double)i / (double)k->n);
        if (!c->kid) {
            play_chunk(w, c->from, c->to);
            continue;
        }
        const uint32_t *kid = c->kid;
        for (uint64_t p = c->from; p < c->to; p++)
            for (unsigned m = L->open[p]; m > 0; m--) {
                uint32_t e = *kid++, child = L->hole ? e & PRED_RANK : e;
                uint32_t at = __atomic_fetch_add(&L->cursor[child], 1, __ATOMIC_RELAXED);
                L->pred[at] = (uint32_t)p | (L->hole ? e & ~PRED_RANK : 0);
            }
        free(c->kid);
        c->kid = NULL;
    }
    return NULL;
}

/* fn(args + i * size) for each i < n (at most 16), each on a thread of
 * its own, the first on the caller's; one whose thread cannot start runs
 * on the caller's after the others. */
void tb_on_threads(void *(*fn)(void *), void *args, size_t size, unsigned n)
{
    pthread_t t[16];
    unsigned started = 0;
    assert(n >= 1 && n <= 16);
    for (unsigned i = 1; i < n; i++) {
        if (pthread_create(&t[i], NULL, fn, (char *)args + i * size) != 0)
            break;
        started = i;
    }
    fn(args);
    for (unsigned i = 1; i <= started; i++)
        pthread_join(t[i], NULL);
    for (unsigned i = started + 1; i < n; i++)
        fn((char *)args + i * size);
}

/* Every position of the layer through work() (pass 1), or every chunk
 * kept through list_work() (pass 2), on `threads` threads. */
static void run_pass(struct layer *L, int pass, unsigned threads, struct kept *k)
{
    struct worker w[16];
    unsigned nt = threads < 1 ? 1 : threads > 16 ? 16 : threads;
    struct shares s = { PTHREAD_MUTEX_INITIALIZER, nt, { 0 }, { 0 } };
    L->pass = pass;
    for (unsigned i = 0; i < nt; i++) {
        s.next[i] = L->size * i / nt;
        s.end[i] = L->size * (i + 1) / nt;
        w[i] = (struct worker){ .L = L, .shares = &s, .own = i, .kept = k };
    }
    /* (pass 1: a thread's share taken by the others once its own is done) */
    tb_on_threads(pass == 1 ? work : list_work, w, sizeof *w, nt);
}

static void kept_free(struct kept *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->c[i].kid);
    free(k->c);
    pthread_mutex_destroy(&k->lock);
}

void tb_found_flush(struct spread *s, struct found *f)
{
    uint64_t at = __atomic_fetch_add(s->tail, f->n, __ATOMIC_RELAXED);
    memcpy(&s->queue[at], f->x, f->n * sizeof *f->x);
    f->n = 0;
}

/* p valued: appended to the queue, at once alone, in batches beside
 * other threads. */
void tb_found_add(struct spread *s, struct found *f, uint32_t p)
{
    if (!s->shared) {
        s->queue[(*s->tail)++] = p;
        return;
    }
    f->x[f->n++] = p;
    if (f->n == SPREAD_BATCH)
        tb_found_flush(s, f);
}

static uint8_t state_of(const struct spread *s, uint64_t p)
{
    return s->shared ? __atomic_load_n(&s->state[p], __ATOMIC_RELAXED) : s->state[p];
}

static int claim(struct spread *s, uint64_t p, uint8_t to)
{
    if (!s->shared) {
        if (s->state[p] != UNKNOWN)
            return 0;
        s->state[p] = to;
        return 1;
    }
    uint8_t unknown = UNKNOWN;
    return __atomic_compare_exchange_n(&s->state[p], &unknown, to, 0, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED);
}

/* One move fewer of p not known to lead where the level's rule wants;
 * how many are left. */
static uint8_t one_open_less(struct spread *s, uint64_t p)
{
    return s->shared ? __atomic_sub_fetch(&s->open[p], 1, __ATOMIC_RELAXED) : --s->open[p];
}

/* Where node p, claimed as to_state, keeps the hole its side to move
 * plays, or -1 where it keeps none: a winner (AT_LEAST) of a coded layer
 * (sides 1), North with own seeds (his move that forces play out). */
static int64_t hole_at(const struct spread *s, uint64_t p, uint8_t to_state)
{
    const struct layer *L = s->L;
    if (!L->hole)
        return -1;
    if (s->own)
        return p >= L->size ? (int64_t)(p - L->size) : -1;
    return s->sides == 1 && to_state == AT_LEAST ? (int64_t)p : -1;
}

/* Node x's predecessor lists in pred[from, to), and the node of entry j:
 * a move in the layer hands the turn over, so with both seats apart the
 * predecessor's side to move is the other one. */
static void preds_of(const struct spread *s, uint32_t x, uint32_t *from, uint32_t *to)
{
    uint64_t M = s->L->size, c = x >= M ? x - M : x;
    *from = c ? s->L->cursor[c - 1] : 0;
    *to = s->L->cursor[c];
}

static uint64_t pred_node(const struct spread *s, uint32_t x, uint32_t j)
{
    uint64_t M = s->L->size, side = x >= M;
    return (s->sides - 1 - side) * M + (s->L->pred[j] & PRED_RANK);
}

/* The predecessors of the nodes queue[from, to), valued by the level's
 * rule, appended to the queue: the next generation, each a ply deeper.
 * tb_solve_graph(): a predecessor of a node worth v to its mover (AT_LEAST)
 * has one move fewer that might lead below v, and is worth -v once none
 * is left and its best exit is no better; one of a node worth -v is worth
 * v.  tb_solve_own(): North to move takes a move to a node of the level
 * (worth t - 1 or less to South); South to move, once every move is so
 * and his best exit too. */
static void *spread_from(void *arg)
{
    struct spread *s = arg;
    const struct layer *L = s->L;
    uint64_t M = L->size;
    struct found f;
    f.n = 0;
    for (uint64_t q = s->from; q < s->to; q++) {
        uint32_t x = s->queue[q], from, to;
        int at_least = s->state[x] == AT_LEAST;
        preds_of(s, x, &from, &to);
        for (uint32_t j = from; j < to; j++) {
            uint64_t p = pred_node(s, x, j);
            if (state_of(s, p) != UNKNOWN)   /* (a TERMINAL node too) */
                continue;
            uint8_t to_state = AT_MOST;
            int value;
            if (s->own) {
                if (p < M && (one_open_less(s, p) != 0 || L->exit[p] > s->v - 1))
                    continue;
                value = s->v - 1;
            } else if (at_least) {
                if (one_open_less(s, p) != 0 || L->exit[p < M ? p : p - M] > -s->v)
                    continue;
                value = -s->v;
            } else {
                to_state = AT_LEAST;
                value = s->v;
            }
            if (!claim(s, p, to_state))
                continue;
            s->value[p] = (int8_t)value;
            int64_t at = hole_at(s, p, to_state);
            if (at >= 0)   /* its hole: spread_holes(), once the generation is whole */
                L->hole[at] = HOLE_PENDING;
            tb_found_add(s, &f, (uint32_t)p);
        }
    }
    if (f.n)
        tb_found_flush(s, &f);
    return NULL;
}

/* The holes of the generation that queue[from, to) made (spread_from()):
 * each move from a winner of it to one of these nodes that made him one
 * -- to a loser (AT_MOST, tb_solve_graph()), to South (tb_solve_own()) --
 * lowers his hole to its own where that is lower. */
static void *spread_holes(void *arg)
{
    struct spread *s = arg;
    const struct layer *L = s->L;
    uint64_t M = L->size;
    for (uint64_t q = s->from; q < s->to; q++) {
        uint32_t x = s->queue[q], from, to;
        if (s->own ? x >= M : s->state[x] != AT_MOST)
            continue;
        preds_of(s, x, &from, &to);
        for (uint32_t j = from; j < to; j++) {
            int64_t at = hole_at(s, pred_node(s, x, j), AT_LEAST);
            if (at < 0)
                continue;
            uint8_t h = (uint8_t)(HOLE_NEW | L->pred[j] >> PRED_HOLE);
            uint8_t now = __atomic_load_n(&L->hole[at], __ATOMIC_RELAXED);
            while ((now & HOLE_NEW) && h < now
                   && !__atomic_compare_exchange_n(&L->hole[at], &now, h, 0, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
                ;
        }
    }
    return NULL;
}

/* A piece of work smaller than this is done by one thread: starting
 * threads would cost more than they save. */
#define SPREAD_SHARED_MIN 4096

/* fn over [from, to) -- queue entries or nodes -- cut among L->threads
 * threads where it is large. */
void tb_spread_run(struct spread *base, void *(*fn)(void *), uint64_t from, uint64_t to,
                       uint64_t *tail)
{
    unsigned nt = to - from >= SPREAD_SHARED_MIN ? base->L->threads : 1;
    struct spread s[16];
    for (unsigned i = 0; i < nt; i++) {
        s[i] = *base;
        s[i].from = from + (to - from) * i / nt;
        s[i].to = from + (to - from) * (i + 1) / nt;
        s[i].tail = tail;
        s[i].shared = nt > 1;
    }
    tb_on_threads(fn, s, sizeof *s, nt);
}

/* The generations of the level, one after another (each a ply deeper
 * than the one before, as a queue taken in order would give them).
 * Which thread values a node does not matter: tb_solve_graph() values a
 * node -v in the generation where its last move known to lead to v or
 * more is found, v in the one where its first move to a node worth -v
 * is, whatever the order within; tb_solve_own() likewise. */
void tb_spread_level(struct spread *base, uint64_t head, uint64_t *tail)
{
    while (head < *tail) {
        uint64_t end = *tail;
        tb_spread_run(base, spread_from, head, end, tail);
        if (base->L->hole) {
            tb_spread_run(base, spread_holes, head, end, tail);
            for (uint64_t q = end; q < *tail; q++) {
                int64_t at = hole_at(base, base->queue[q], base->state[base->queue[q]]);
                if (at >= 0) {
                    assert(base->L->hole[at] != HOLE_PENDING);
                    base->L->hole[at] &= (uint8_t)~HOLE_NEW;
                }
            }
        }
        head = end;
    }
}

/* Solve the layer's graph from the highest value down (the file's
 * comment), its nodes the positions of the layer once (sides 1: whoever
 * is to move, as the files hold them) or twice (sides 2: node side * size
 * + rank, South to move then North, for tablebase_history_solve()).  The
 * caller sets state[] (UNKNOWN, or TERMINAL) and open[] (each node's
 * moves in the layer, counted down here) for every node; value[] is
 * written for every node (and L->hole for the winners, sides 1, where the
 * layer is coded); queue has room for them all.  sides is 1 or 2.  (The
 * generations are the depths: a winner's hole, from the generation that
 * found it, leads a ply nearer the way out.) */
void tb_solve_graph(const struct layer *L, unsigned sides, uint8_t *state, uint8_t *open,
                        uint32_t *queue, int8_t *value)
{
    uint64_t M = L->size, nodes = sides * M;
    memset(value, 0, nodes);
    uint64_t head = 0, tail = 0;
    int n = (int)L->n;
    for (int v = n; v >= 1; v--) {
        if (sides == 1 && nodes > (1u << 20))
            tb_layer_progress(L, 2 + (L->n - (unsigned)v), 0);
        /* The level's seeds: exits worth v, and exits worth -v with every
         * move in the layer known to lead to v or more.  (In another order
         * than the nodes': values and depths are the same, the queue
         * taking each level's nodes by depth.) */
        for (uint64_t k = L->exit_at[v + n]; k < L->exit_at[v + n + 1]; k++)
            for (uint64_t i = L->by_exit[k]; i < nodes; i += M)
                if (state[i] == UNKNOWN) {
                    state[i] = AT_LEAST;
                    value[i] = (int8_t)v;
                    queue[tail++] = (uint32_t)i;
                }
        for (uint64_t k = L->exit_at[-v + n]; k < L->exit_at[-v + n + 1]; k++)
            for (uint64_t i = L->by_exit[k]; i < nodes; i += M)
                if (state[i] == UNKNOWN && open[i] == 0) {
                    state[i] = AT_MOST;
                    value[i] = (int8_t)-v;
                    queue[tail++] = (uint32_t)i;
                }
        struct spread level = { L, sides, state, open, queue, value, v, 0, 0, 0, NULL, 0 };
        tb_spread_level(&level, head, &tail);
        head = tail;
    }
    /* The rest: both sides can keep the game in the layer (a repetition,
     * worth 0), or an exit worth 0 is the best. */
}

/* The layer's values (and its winners' holes, L->hole).  -1 when memory
 * runs out (nothing valued). */
int tb_propagate(struct layer *L, int8_t *value)
{
    uint8_t *state = calloc(L->size, 1);
    uint32_t *queue = malloc(L->size * sizeof *queue);
    int ok = state && queue;
    if (ok)
        tb_solve_graph(L, 1, state, L->open, queue, value);
    free(state);
    free(queue);
    return ok ? 0 : -1;
}

void tb_by_exit(const int8_t *exit, uint64_t m, unsigned n, uint64_t *at, uint32_t *by)
{
    int n2 = (int)n;
    memset(at, 0, (2 * TB_MAX_SEEDS + 2) * sizeof *at);
    for (uint64_t i = 0; i < m; i++)
        if (exit[i] != INT8_MIN)
            at[exit[i] + n2 + 1]++;
    for (int e = 0; e <= 2 * n2; e++)
        at[e + 1] += at[e];
    uint64_t put[2 * TB_MAX_SEEDS + 1];
    memcpy(put, at, sizeof put);
    for (uint64_t i = 0; i < m; i++)
        if (exit[i] != INT8_MIN)
            by[put[exit[i] + n2]++] = (uint32_t)i;
}

void tb_layer_free(struct layer *L)
{
    free(L->exit);
    free(L->exit_low);
    free(L->hole);
    free(L->open);
    free(L->cursor);
    free(L->pred);
    free(L->by_exit);
}

/* The layer of n seeds as a graph: each position's best exit, its moves
 * in the layer, and the predecessors of each.  Returns 0; -1 (and *err)
 * when memory runs out or the layer has too many moves for the format. */
int tb_layer_graph(const pmn_tablebase *tb, unsigned n, unsigned threads, struct layer *L,
                       pmn_error *err)
{
    memset(L, 0, sizeof *L);
    L->tb = tb;
    L->r = &tb->rules;
    L->n = n;
    L->size = tb->size[n];
    L->threads = threads < 1 ? 1 : threads > 16 ? 16 : threads;
    if ((tb->coded || tb->own) && L->size > (uint64_t)PRED_RANK + 1)
        return util_fail(err, PMN_ERR_RANGE, 0, "the layer of %u seeds has too many positions "
                         "(%llu) for this format", n, (unsigned long long)L->size);
    L->exit = malloc(L->size);
    L->exit_low = tb->own ? malloc(L->size) : NULL;
    L->hole = tb->coded || tb->own ? malloc(L->size ? L->size : 1) : NULL;
    L->open = calloc(L->size, 1);
    L->cursor = calloc(L->size, sizeof *L->cursor);
    if (!L->exit || !L->open || !L->cursor || (tb->own && !L->exit_low)
        || ((tb->coded || tb->own) && !L->hole))
        goto nomem;
    struct kept k = { .lock = PTHREAD_MUTEX_INITIALIZER };
    run_pass(L, 1, threads, &k);
    uint64_t covered = 0;
    for (size_t i = 0; i < k.n; i++)
        covered += k.c[i].to - k.c[i].from;
    L->by_exit = malloc((L->size ? L->size : 1) * sizeof *L->by_exit);
    if (covered != L->size || !L->by_exit) {
        kept_free(&k);
        goto nomem;
    }
    tb_by_exit(L->exit, L->size, n, L->exit_at, L->by_exit);
    uint64_t edges = 0;
    for (uint64_t i = 0; i < L->size; i++) {
        edges += L->cursor[i];
        L->cursor[i] = (uint32_t)(edges - L->cursor[i]);   /* where its list starts */
    }
    if (edges >= UINT32_MAX) {
        kept_free(&k);
        tb_layer_free(L);
        return util_fail(err, PMN_ERR_RANGE, 0, "the layer of %u seeds has too many moves "
                         "(%llu) for this format", n, (unsigned long long)edges);
    }
    L->pred = malloc((edges ? edges : 1) * sizeof *L->pred);
    if (!L->pred) {
        kept_free(&k);
        goto nomem;
    }
    run_pass(L, 2, threads, &k);   /* each cursor ends where the next list starts */
    kept_free(&k);
    return 0;
nomem:
    tb_layer_free(L);
    return util_fail(err, PMN_ERR_NOMEM, 0, "out of memory for the layer of %u seeds "
                     "(%llu positions)", n, (unsigned long long)tb->size[n]);
}

