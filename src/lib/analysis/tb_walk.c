/* tb_walk.c - a layer of rules where no position repeats (Kalah), valued
 * by a depth-first walk, each position once after those its moves lead
 * to (tb_walk_layer()). */
#include "tb.h"

/* ---- a layer of rules where no position repeats ------------------------- */

/* Where positions cannot repeat (Kalah: a move that stays in the layer
 * only carries the mover's seeds towards his store), the moves within a
 * layer form no cycle, and each position is valued once, after the
 * positions its moves lead to: a depth-first walk, each frame a position
 * whose moves are sown (struct sown) and whose moves in the layer are
 * walked first.  No predecessor lists, no levels, no depths (a line that
 * keeps the value ends without them): tb_kalah_sow() a position where the
 * rules sow as Kalah, else tb_exits().  Returns 0; -1 when memory runs out,
 * or -2 where the walk meets a position it is inside (the rules repeat
 * after all: the caller builds the layer as a graph). */
#define WALKING (INT8_MIN + 1)   /* a value no position has: on the walk's path */

struct frame {
    uint64_t rank;
    int expanded;
    uint8_t h[TB_MAX_HOLES];   /* the counts of rank (carried: tb_unrank() cost a sixth) */
    struct sown s;
};

/* tb_exits()'s kids into a frame's sown, their values asked for. */
struct collect {
    struct sown *s;
    const int8_t *here;
    unsigned k;
};

static void collect_kid(void *ctx, uint64_t child, const uint8_t *counts, int hole)
{
    const struct collect *cc = ctx;
    struct sown *s = cc->s;
    (void)hole;
    PREFETCH(&cc->here[child]);
    assert(s->nkids < TB_MAX_HOLES / 2);
    memcpy(s->kid_h[s->nkids], counts, cc->k);
    s->kid[s->nkids++] = child;
}

/* f's position's moves played into f->s (here: the layer's values).  The
 * walk sows each frame a while before it expands it, so that the reads
 * below, asked for here, overlap other work instead of stalling each
 * position: read at once, they were a fifth of the build's time. */
static void walk_sow(const pmn_tablebase *tb, unsigned n, struct frame *f, const int8_t *here)
{
    f->expanded = 0;
    if (tb->kalah) {
        tb_kalah_sow(tb, f->h, n, here, &f->s);
        return;
    }
    struct collect cc = { &f->s, here, tb->k };
    f->s.nkids = f->s.nread = 0;
    f->s.best = tb_exits(tb, &tb->rules, f->h, n, collect_kid, &cc, NULL, NULL, 1);
}

/* The roots of the walk, the positions in rank order, sown ahead: the
 * ranks [r, next) are in the ring's slots (r the root walked, next <=
 * r + WALK_AHEAD), sown unless valued before (once valued, a position
 * stays so).  (Sowing 16 or 32 ahead, or one more before each frame the
 * walk expands, gained nothing: paired runs, Kalah's six holes to 16
 * seeds.) */
#define WALK_AHEAD 8

struct ring {
    struct frame f[WALK_AHEAD];
    uint64_t next;                /* the next rank to sow */
    uint8_t at[TB_MAX_HOLES];     /* its counts */
};

static void ring_sow(const pmn_tablebase *tb, unsigned n, struct ring *g, const int8_t *value)
{
    struct frame *a = &g->f[g->next % WALK_AHEAD];
    a->rank = g->next;
    memcpy(a->h, g->at, sizeof a->h);   /* (all of it: a fixed copy is a move or two) */
    if (value[g->next] == INT8_MIN)
        walk_sow(tb, n, a, value);
    if (++g->next < tb->size[n])
        tb_successor(g->at, tb->k);
}

int tb_walk_layer(const pmn_tablebase *tb, unsigned n, int8_t *value)
{
    uint64_t size = tb->size[n], done = 0;
    size_t cap = 1024, top = 0;
    /* The path: level 0 is the root, in the ring; level t > 0 is st[t]
     * (st[0] unused: the root is not copied). */
    struct frame *st = malloc(cap * sizeof *st), *root;
    struct ring *g = malloc(sizeof *g);
#define FRAME(t) ((t) == 0 ? root : &st[t])
    struct layer progress = { .tb = tb, .n = n, .size = size };
    if (!st || !g) {
        free(st);
        free(g);
        return -1;
    }
    memset(value, INT8_MIN, size);
    unsigned k = tb->k;
    memset(g->at, 0, sizeof g->at);
    g->at[k - 1] = (uint8_t)n;
    g->next = 0;
    for (uint64_t r = 0; r < size; r++) {
        while (g->next < size && g->next < r + WALK_AHEAD)
            ring_sow(tb, n, g, value);
        if (value[r] != INT8_MIN)
            continue;
        root = &g->f[r % WALK_AHEAD];
        top = 1;
        while (top > 0) {
            struct frame *f = FRAME(top - 1);
            if (!f->expanded) {
                if (value[f->rank] != INT8_MIN) {   /* reached by another path */
                    top--;
                    continue;
                }
                f->s.best = tb_sown_best(&f->s);
                f->expanded = 1;
                value[f->rank] = WALKING;
                size_t parent = top - 1, first = top;   /* (st may move as frames are pushed) */
                unsigned nk = f->s.nkids;
                for (unsigned i = 0; i < nk; i++) {
                    uint64_t c = FRAME(parent)->s.kid[i];
                    if (value[c] == WALKING) {
                        free(st);
                        free(g);
                        return -2;
                    }
                    if (value[c] != INT8_MIN)
                        continue;
                    if (top == cap) {
                        struct frame *bigger = realloc(st, 2 * cap * sizeof *st);
                        if (!bigger) {
                            free(st);
                            free(g);
                            return -1;
                        }
                        st = bigger;
                        cap *= 2;
                    }
                    st[top].rank = c;
                    memcpy(st[top].h, FRAME(parent)->s.kid_h[i], sizeof st[top].h);
                    top++;
                }
                /* The kids sown now, the one expanded next first: the
                 * others' sowing is the while its reads take. */
                for (size_t t = top; t > first; t--)
                    walk_sow(tb, n, &st[t - 1], value);
                continue;
            }
            /* Every move's value is known: the best. */
            int best = f->s.best;
            for (unsigned i = 0; i < f->s.nkids; i++)
                if (-value[f->s.kid[i]] > best)
                    best = -value[f->s.kid[i]];
            assert(best != INT8_MIN && best >= -(int)n && best <= (int)n);
            value[f->rank] = (int8_t)best;
            top--;
            if ((++done & 0xFFFFF) == 0)
                tb_layer_progress(&progress, 0, (double)done / (double)size * (n + 2));
        }
    }
#undef FRAME
    free(st);
    free(g);
    return 0;
}

