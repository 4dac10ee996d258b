/* solve.c - the margin solver: exact values of the games scored by seeds.
 *
 * Values.  A position's value is the final margin of the game (the side to
 * move's seeds less his opponent's, as the rules count them at the end)
 * under best play: one number, where search.c's scores also order by the
 * plies to the end.  Where seeds score, the margin orders every result (a
 * win is a positive margin, a draw 0), so nothing is lost for the outcome;
 * the quickest win is search.c's, asked for apart (pmn_search_limits'
 * distance).
 *
 * Search.  Null-window alpha-beta tests "is the value at least gamma?",
 * fail-soft, driven from the root by MTD(f): each test moves a bound, and
 * the next gamma is the last result, until the bounds meet.  The root
 * looks 6, 12 and 18 plies ahead before it searches to the end, the margin
 * banked so far standing for the value past the horizon; a bound that saw
 * no such leaf is proved, and the table keeps it as such, apart from the
 * guesses of a look ahead.  Where every margin has one parity, the tests
 * keep to it.  Helper threads share the table (Lazy SMP with ABDADA's
 * deferral: mtd_threads()).
 *
 * The table.  What decides the rest of the game from a position is its
 * holes and who is to move, as long as the rules look at nothing else (no
 * majority, no last seeds given by who captured, no repetition drawn
 * whatever the seeds): the table is keyed on the holes seen from the side
 * to move (his first: the same key for South to move and for North to move
 * on the turned board), and keeps bounds on the margin still to be made,
 * the banked difference added outside.  Under rules that look at more, the
 * key holds it too.  Before a child is searched, the table is asked about
 * every child (enhanced transposition cut-offs).
 *
 * Repetitions.  As in search.c: the positions since the last capture on
 * the path (and the game's before the root) are kept; a repeated one ends
 * the game as the rules say; a result that saw such an ending depends on
 * the path and is not stored.  One lap a sowing with a store on the way
 * out of each side (Kalah) never repeats a position: a seed that leaves a
 * side passes its store, and one that stays only moves on; such rules skip
 * the check.
 *
 * Bounds.  Where every seed on the board is still to be won or lost (the
 * rules count seeds at the end, and a repetition does not draw whatever
 * they say), the final margin lies within the banked difference give or
 * take the seeds on the board; with captures of empty facing holes, the
 * side to move banks one at once (shape_of()).  Before any child is
 * searched, every child is peeked at as Irving's solver does: its bounds
 * from the seeds, the databases' value, the table's bounds; one of them
 * may decide the test. */
#include "pmn.h"
#include "../engine/play.h"
#include "solve.h"
#include "tablebase.h"
#include "tb_history.h"
#include "tree.h"
#include "../base/util.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define SOLVE_MAX_PLY TREE_MAX_PLY
#define NONE_LO (-32000)
#define NONE_HI 32000

/* What the table knows of a position. */
struct entry {
    uint64_t key;
    int16_t lo, hi;           /* bounds on the margin still to be made */
    int8_t best;              /* the move that proved lo, or -1 */
    uint8_t generation;
    uint8_t work;             /* log2 of the positions searched to find it */
    uint8_t depth;            /* the plies looked ahead, or PROVED: to the end */
};

/* An entry as the table holds it, shared by the threads of a solve without
 * locks: the key is kept xor'ed with the rest, so that an entry torn by two
 * writers at once fails the check of its key and is taken for another
 * position's (Hyatt and Mann's lockless table).  Relaxed atomics: no order
 * is needed beyond each word's own. */
struct slot {
    _Atomic uint64_t check;   /* the key ^ data */
    _Atomic uint64_t data;    /* the rest of the entry, packed */
};

#define PROVED 255

/* What a result depends on beyond the position (test's *dep, or'ed up). */
enum { DEP_PATH = 1,          /* a repetition on the path, or the budget: not kept */
       DEP_HORIZON = 2 };     /* a leaf valued by the heuristic: kept for its depth */

#define BUCKET 4
#define BUSY_SIZE (1u << 14)

/* The most threads one solve takes. */
#define SOLVE_MAX_THREADS 64

struct solve_table {
    struct slot *e;
    size_t nbuckets;          /* in use, a power of two: those past it are zero */
    size_t cap;               /* made, a power of two: the size asked for */
    size_t filled;            /* slots the main thread filled (an estimate of
                                 the table's, times the threads) */
    uint8_t generation;
    const pmn_tablebase *tb;
    unsigned threads;         /* of the solve under way */
    _Atomic uint64_t busy[BUSY_SIZE];   /* positions being searched, by key */
    /* The children of each ply, for the main thread (0) and each helper:
     * made at their first solve and kept, since a table serves one solve at
     * a time.  Each is megabytes (SOLVE_MAX_PLY plies of PMN_MAX_SIDE_PITS
     * positions), of which a solve touches the plies it reaches: made anew
     * each solve, they cost an mmap and its page faults each position
     * annotated, and a sanitizer's allocator far more. */
    tree_ply *kids[SOLVE_MAX_THREADS];
    /* Growing the table (table_grow()): the helpers wait while it moves. */
    pthread_mutex_t grow_lock;
    pthread_cond_t arrived, resumed;
    atomic_int grow_wanted;
    unsigned running;         /* helpers searching */
    unsigned waiting;         /* helpers waiting for the table */
    /* The last layer solved again for a history (tb_history_answer), kept
     * for the next position of that layer: its graph is made once, not a
     * ply (annotate asks of every ply; making it was a third of its time
     * on Oware with databases to 10 seeds). */
    struct tablebase_history *hist;
    unsigned hist_n;
};

/* What the rules make the solver do. */
struct shape {
    int acyclic;              /* no position can repeat */
    int dependent;            /* the rest of the game depends on more than the holes */
    int bounded;              /* the final margin is within the banked difference,
                                 give or take the board */
    int counts_all;           /* every ending counts every seed, so that the final
                                 margin has the parity of the seeds of the game */
    int banks_one;            /* the side to move can always bank a seed at once
                                 (bound_of()) */
};

/* What a test of a position has found so far: the best value and its
 * move, and what the result depends on. */
struct tally {
    long best;
    int best_hole;            /* -1: none yet */
    int dependent;            /* DEP_PATH, gathered from the kids */
    int low_depth;            /* how far ahead the kids' upper bounds looked
                                 (the least; PROVED: to the end) */
    int depth;                /* and the result's: the cut-off's kid's where
                                 the test fails high, else low_depth */
};

struct solver {
    struct solve_table *t;
    const pmn_rules *r;
    struct engine eng;        /* chosen for the root */
    struct shape sh;
    struct search_budget b;
    struct line ln;           /* from the root; rkeys only where positions repeat */
    tree_ply *kids;
    int deep;                 /* a line went past SOLVE_MAX_PLY */
    int limit;                /* the iteration's plies: leaves past it are guessed */
    int root_best;            /* the move that made the last cut-off at ply 0 */
    int parity;               /* the final margin's parity (shape's counts_all), or -1 */
    long seeds;               /* of the game: on the board and banked */
    int outcome_only;         /* the databases give results, not margins
                                 (tablebase_outcome_only: under a majority) */
    int main;                 /* the solve's own thread, not a helper */
    /* Progress, the main thread's: the bounds proved so far, given to the
     * caller's function about once a second (tick()). */
    long plo, phi;
    pmn_progress_fn fn;
    void *fn_ctx;
    int (*stop)(void *);      /* the caller's own stop, which tick() asks */
    void *stop_ctx;
    double start, next_tick;
};

#define UNLIMITED (1 << 20)

int solve_applies(const pmn_rules *r)
{
    /* A cycle that plays on has no value of its own: the depth search
     * values it, as the seeds lie. */
    return r->goal == PMN_GOAL_MOST_SEEDS && r->laps == PMN_LAPS_SINGLE
        && r->repetition != PMN_REPETITION_PLAYS_ON && !r->one_side_plays_on;
}

static void shape_of(const pmn_rules *r, struct shape *sh)
{
    sh->acyclic = rules_acyclic(r);
    sh->dependent = r->majority || r->last_seeds != PMN_LAST_PLAY_ON
                 || (r->repetition == PMN_REPETITION_DRAW && !sh->acyclic);
    /* The seeds bound the final margin wherever an ending only adds seeds
     * to what is banked (the rest to one side, to each its own, or to
     * nobody): so too under a majority, which ends the game with the
     * seeds as they lie, and with last seeds given by who captured.  Only
     * a repetition drawn whatever the seeds scores a margin of none.
     * (The key still holds the captures where the rules look at them.) */
    sh->bounded = !(r->repetition == PMN_REPETITION_DRAW && !sh->acyclic);
    sh->counts_all = sh->acyclic && !r->majority && r->last_seeds == PMN_LAST_PLAY_ON
                  && (r->either_empty || r->no_move == PMN_NO_MOVE_COLLECT);
    /* Irving's bound, where it holds: the sowing of the side to move's
     * last hole with seeds (any hole may be sown, none must feed) either
     * passes his store or ends in an empty hole of his that captures
     * whatever faces it -- a seed banked at once, so that his opponent can
     * take at most the rest, less one.  With captures only of seeds facing
     * (standard Kalah) the sowing may end in an empty hole and bank none. */
    sh->banks_one = sh->counts_all && sh->bounded && r->capture == PMN_CAPTURE_OPPOSITE_ALWAYS
                 && r->min_lift <= 1 && !r->feed;
}


/* The table starts at TABLE_START bytes (or the size asked for, if less)
 * and doubles, up to that size, as it fills (table_grow()): a small
 * problem then keeps a table the processor's cache holds, and never pays
 * to clear the rest.  Kalah(4,5) with empty capture and databases to 16
 * seeds took 0.100 s with a table of 64 MB made at once, 0.056 s with
 * one of 1 MB (paired runs). */
#define TABLE_START (1u << 20)

/* ... and doubles when more than one slot in TABLE_LOAD is filled: a
 * bucket (of BUCKET slots) then holds one entry on average and seldom
 * overflows, so that the positions searched hardly depend on the keys.
 * Growing at half full, a few thousand overflows changed them by up to
 * 30% from one hash of the holes to another (Kalah(4,5) standard with
 * databases to 16 seeds: 686 k to 883 k positions), and cost 2-6% over
 * eight small Kalah boards; at one in four, 0-6% on one board of the
 * eight; at one in eight, none, but the CPU saved went on the larger
 * table (Kalah(4,6): 71 MB at most against 39; paired runs saw no gain). */
#define TABLE_LOAD 4

/* n zeroed bytes that the system gives page by page as they are first
 * touched (anonymous pages are zero), on huge pages where it has them:
 * probes, each a miss of the cache and without them of the TLB, are most
 * of the solver's time. */
static void *table_map(size_t n)
{
    size_t huge = 2u << 20, extra = n >= huge ? huge : 0;
    char *m = mmap(NULL, n + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (extra) {   /* keep the aligned n bytes, give the rest back */
        size_t head = (huge - (uintptr_t)m % huge) % huge;
        if (head)
            munmap(m, head);
        if (extra - head)
            munmap(m + head + n, extra - head);
        m += head;
#ifdef MADV_HUGEPAGE
        madvise(m, n, MADV_HUGEPAGE);
#endif
    }
    return m;
}

struct solve_table *solve_table_new(size_t bytes)
{
    struct solve_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    size_t n = 1;
    while (2 * n * BUCKET * sizeof(struct slot) <= bytes)
        n *= 2;
    t->cap = n;
    t->nbuckets = n * BUCKET * sizeof(struct slot) > TABLE_START
                ? TABLE_START / (BUCKET * sizeof(struct slot)) : n;
    t->e = table_map(t->cap * BUCKET * sizeof *t->e);
    if (!t->e) {
        free(t);
        return NULL;
    }
    pthread_mutex_init(&t->grow_lock, NULL);
    pthread_cond_init(&t->arrived, NULL);
    pthread_cond_init(&t->resumed, NULL);
    return t;
}

void solve_table_free(struct solve_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < SOLVE_MAX_THREADS; i++)
        free(t->kids[i]);
    tablebase_history_free(t->hist);
    munmap(t->e, t->cap * BUCKET * sizeof *t->e);
    pthread_mutex_destroy(&t->grow_lock);
    pthread_cond_destroy(&t->arrived);
    pthread_cond_destroy(&t->resumed);
    free(t);
}

/* Thread i's children of each ply (struct solve_table), or NULL when
 * memory runs out. */
static tree_ply *table_kids(struct solve_table *t, unsigned i)
{
    assert(i < SOLVE_MAX_THREADS);
    if (!t->kids[i])
        t->kids[i] = tree_kids_new();
    return t->kids[i];
}

void solve_table_clear(struct solve_table *t)
{
    memset(t->e, 0, t->nbuckets * BUCKET * sizeof *t->e);
    t->filled = 0;
}

void solve_table_use(struct solve_table *t, const pmn_tablebase *tb)
{
    if (tb != t->tb) {
        tablebase_history_free(t->hist);
        t->hist = NULL;
    }
    t->tb = tb;
}

/* ---- keys ---------------------------------------------------------------- */

/* The seeds of the game not banked, which are on the board (the
 * invariant counts_of() asserts, from the sum it makes anyway: counting
 * the holes again for every position searched cost 3% of the time). */
static long in_play(const struct solver *x, const pmn_position *p)
{
    return x->seeds - (long)p->captured[0] - (long)p->captured[1];
}

/* A position's holes as the databases see them (tablebase_counts()), made
 * once for both the table's key and the databases' cell.  The bytes past
 * the last hole's are zero: the key reads the counts a word at a time. */
struct counts {
    uint8_t h[2 * PMN_MAX_SIDE_PITS + 8];
    unsigned n;               /* seeds on the board */
};

static inline void counts_of(const struct solver *x, const pmn_position *p, struct counts *c)
{
    unsigned bytes = 2 * x->r->pits;
    memset(c->h + (bytes & ~7u), 0, 8);
    c->n = tablebase_counts(x->r->pits, p, c->h);
    assert(c->n == (unsigned long)in_play(x, p));
}

/* The table's key of p, whose counts are c: the holes from the side to
 * move's seat, eight to a word, each word mixed into the key by a
 * bijection (boards of four holes a side, one word, never share a key);
 * past what bytes hold, each hole mixed in.  Then what else the rest of
 * the game depends on.  (It was a Zobrist key, a table's entry a hole:
 * 14% of the solver's instructions on Kalah(4,5), this 4%.) */
static inline uint64_t key_of_counts(const struct solver *x, const pmn_position *p,
                                     const struct counts *c)
{
    unsigned bytes = 2 * x->r->pits;
    uint64_t h = 0x5EED5EED1234ULL;
    if (c->n < 256) {   /* every hole within a byte: the counts are the holes */
        for (unsigned i = 0; i < bytes; i += 8) {
            uint64_t w;
            memcpy(&w, c->h + i, sizeof w);
            h = pmn_mix64(h ^ w);
        }
    } else {
        int me = p->to_move;
        for (unsigned i = 0; i < bytes; i++) {
            unsigned s = i >= x->r->pits, j = s ? i - x->r->pits : i;
            h = pmn_mix64(h ^ ((uint64_t)p->pit[s ? !me : me][j] << 8 | i));
        }
    }
    if (x->sh.dependent) {
        int me = p->to_move;
        unsigned lc = p->last_capturer ? (p->last_capturer - 1u == (unsigned)me ? 1u : 2u) : 0u;
        unsigned ft = p->first_three ? (p->first_three - 1u == (unsigned)me ? 1u : 2u) : 0u;
        h = pmn_mix64(h ^ ((uint64_t)p->captured[me] << 40 | (uint64_t)p->captured[!me] << 8
                     | lc << 4 | ft));
    }
    return h;
}

static uint64_t key_of(const struct solver *x, const pmn_position *p)
{
    struct counts c;
    counts_of(x, p, &c);
    return key_of_counts(x, p, &c);
}

static long banked(const pmn_position *p)
{
    int me = p->to_move;
    return (long)p->captured[me] - (long)p->captured[!me];
}

static long on_board(const pmn_rules *r, const pmn_position *p)
{
    return (long)pmn_position_seeds(r, p, 0) + (long)pmn_position_seeds(r, p, 1);
}

/* ---- the table ------------------------------------------------------------- */

static uint64_t pack_entry(const struct entry *e)
{
    return (uint64_t)(uint16_t)e->lo | (uint64_t)(uint16_t)e->hi << 16
         | (uint64_t)(uint8_t)e->best << 32 | (uint64_t)e->generation << 40
         | (uint64_t)e->work << 48 | (uint64_t)e->depth << 56;
}

/* The entry of a slot's two words, as loaded (its key is then whatever
 * the check gives). */
static void entry_of(uint64_t check, uint64_t d, struct entry *e)
{
    e->key = check ^ d;
    e->lo = (int16_t)(uint16_t)d;
    e->hi = (int16_t)(uint16_t)(d >> 16);
    e->best = (int8_t)(uint8_t)(d >> 32);
    e->generation = (uint8_t)(d >> 40);
    e->work = (uint8_t)(d >> 48);
    e->depth = (uint8_t)(d >> 56);
}

static void unpack_slot(const struct slot *s, struct entry *e)
{
    uint64_t d = atomic_load_explicit(&s->data, memory_order_relaxed);
    entry_of(atomic_load_explicit(&s->check, memory_order_relaxed), d, e);
}

static void write_slot(struct slot *s, const struct entry *e)
{
    uint64_t d = pack_entry(e);
    atomic_store_explicit(&s->data, d, memory_order_relaxed);
    atomic_store_explicit(&s->check, e->key ^ d, memory_order_relaxed);
}

/* Is key in the table?  Then 1 and a copy of its entry in *e. */
static int probe(struct solve_table *t, uint64_t key, struct entry *e)
{
    struct slot *b = &t->e[(key & (t->nbuckets - 1)) * BUCKET];
    for (int i = 0; i < BUCKET; i++) {
        /* (the key first: the other slots' entries are not unpacked) */
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((check ^ d) == key && (uint8_t)(d >> 48) != 0) {   /* its key, and work */
            entry_of(check, d, e);
            return 1;
        }
    }
    return 0;
}

static int16_t clamp16(long v)
{
    return (int16_t)(v < NONE_LO ? NONE_LO : v > NONE_HI ? NONE_HI : v);
}

static unsigned log2_of(uint64_t n)
{
    unsigned l = 1;
    while (n >>= 1)
        l++;
    return l > 255 ? 255 : l;
}

/* Keep bounds lo..hi (relative) for key, found looking `depth` plies ahead
 * (PROVED: to the end).  A proved entry is never replaced by a guess; the
 * bounds of equal depths tighten each other.  Returns 1 where it filled an
 * empty slot. */
static int store(struct solve_table *t, uint64_t key, long lo, long hi, int best, uint64_t work,
                 int depth)
{
    struct slot *slots = &t->e[(key & (t->nbuckets - 1)) * BUCKET];
    uint64_t d[BUCKET], check[BUCKET];
    unsigned w = log2_of(work);
    int i, at = -1;
    /* (the keys first, as probe() reads them: only the entry kept or
     * replaced is unpacked) */
    for (i = 0; i < BUCKET; i++) {
        d[i] = atomic_load_explicit(&slots[i].data, memory_order_relaxed);
        check[i] = atomic_load_explicit(&slots[i].check, memory_order_relaxed);
    }
    for (i = 0; i < BUCKET && at < 0; i++)
        if ((check[i] ^ d[i]) == key && (uint8_t)(d[i] >> 48) != 0)   /* its key, and work */
            at = i;
    struct entry v;
    if (at >= 0) {
        entry_of(check[at], d[at], &v);
        if (v.depth == PROVED && depth != PROVED) {
            if (best >= 0 && v.best < 0) {
                v.best = (int8_t)best;
                write_slot(&slots[at], &v);
            }
            return 0;
        }
        if (v.depth == depth) {
            if (v.lo > lo)
                lo = v.lo;
            if (v.hi < hi)
                hi = v.hi;
        } else if (v.depth > depth) {
            return 0;   /* a deeper look is worth more */
        }
        if (best < 0)
            best = v.best;
        if (v.work > w)
            w = v.work;
    } else {
        /* The entry least worth keeping: an empty slot, else the least
         * work, an older solve's and guesses first. */
        int worst = 1 << 30;
        for (i = 0; i < BUCKET; i++) {
            unsigned slot_work = (uint8_t)(d[i] >> 48);
            int keep = !slot_work ? -1
                     : (int)slot_work + ((uint8_t)(d[i] >> 40) == t->generation ? 256 : 0)
                       + ((uint8_t)(d[i] >> 56) == PROVED ? 64 : 0);
            if (keep < worst) {
                worst = keep;
                at = i;
            }
        }
        v.work = (uint8_t)(d[at] >> 48);
    }
    int filled = !v.work;
    if (lo > hi)   /* cannot happen with bounds of one depth: keep the newer */
        lo = hi;
    v.key = key;
    v.lo = clamp16(lo);
    v.hi = clamp16(hi);
    v.best = (int8_t)best;
    v.generation = t->generation;
    v.work = (uint8_t)(w ? w : 1);
    v.depth = (uint8_t)depth;
    write_slot(&slots[at], &v);
    return filled;
}

/* Double the table in use, where it is over 1 / TABLE_LOAD full and may
 * grow: each entry of bucket b whose key has the new bit moves to bucket
 * b + n (zero, past the old size).  The main thread grows it, between two
 * positions of its search; helpers wait in their stop check (halted())
 * while it moves, since no slot is where it was. */
static void table_grow(struct solve_table *t)
{
    size_t n = t->nbuckets;
    if (n >= t->cap || t->filled * t->threads <= n * BUCKET / TABLE_LOAD)
        return;
    if (t->threads > 1) {
        pthread_mutex_lock(&t->grow_lock);
        atomic_store(&t->grow_wanted, 1);
        while (t->waiting < t->running)
            pthread_cond_wait(&t->arrived, &t->grow_lock);
    }
    for (size_t b = 0; b < n; b++) {
        struct slot *from = &t->e[b * BUCKET], *to = &t->e[(b + n) * BUCKET];
        for (int i = 0; i < BUCKET; i++) {
            struct entry e;
            unpack_slot(&from[i], &e);
            if (e.work && (e.key & n)) {
                write_slot(to++, &e);
                atomic_store_explicit(&from[i].check, 0, memory_order_relaxed);
                atomic_store_explicit(&from[i].data, 0, memory_order_relaxed);
            }
        }
    }
    t->nbuckets = 2 * n;
    if (t->threads > 1) {
        atomic_store(&t->grow_wanted, 0);
        pthread_cond_broadcast(&t->resumed);
        pthread_mutex_unlock(&t->grow_lock);
    }
}

/* The helpers searching (running) grow or shrink by delta, and a growth
 * waiting for them all hears of it. */
static void crew(struct solve_table *t, int delta)
{
    pthread_mutex_lock(&t->grow_lock);
    t->running = (unsigned)((int)t->running + delta);
    pthread_cond_signal(&t->arrived);
    pthread_mutex_unlock(&t->grow_lock);
}

/* A helper's wait while the table grows. */
static void table_wait(struct solve_table *t)
{
    pthread_mutex_lock(&t->grow_lock);
    t->waiting++;
    pthread_cond_signal(&t->arrived);
    while (atomic_load(&t->grow_wanted))
        pthread_cond_wait(&t->resumed, &t->grow_lock);
    t->waiting--;
    pthread_mutex_unlock(&t->grow_lock);
}

/* The marks of positions being searched (threads > 1): a position's key in
 * a slot of its own, two positions of one slot sharing it (a false mark
 * only puts a move off). */
static int busy(struct solve_table *t, uint64_t key)
{
    return atomic_load_explicit(&t->busy[key & (BUSY_SIZE - 1)], memory_order_relaxed) == key;
}

static _Atomic uint64_t *enter(struct solve_table *t, uint64_t key)
{
    _Atomic uint64_t *mark = &t->busy[key & (BUSY_SIZE - 1)];
    atomic_store_explicit(mark, key, memory_order_relaxed);
    return mark;
}

static void leave(_Atomic uint64_t *mark, uint64_t key)
{
    uint64_t expected = key;
    atomic_compare_exchange_strong_explicit(mark, &expected, 0, memory_order_relaxed,
                                            memory_order_relaxed);
}

/* May an entry found looking `depth` plies ahead answer a look of `rem`? */
static int deep_enough(const struct entry *e, int rem)
{
    return e->depth == PROVED || e->depth >= rem;
}

/* ---- the search -------------------------------------------------------------- */

/* The final margin for `mover` of a game that ended after his move. */
static long end_margin(const pmn_rules *r, pmn_ending e, pmn_outcome o, const pmn_position *end,
                       int mover)
{
    unsigned long seeds[2];
    if (o == PMN_DRAWN || o == PMN_ONGOING || !pmn_final_seeds(r, e, end, seeds))
        return 0;
    return (long)seeds[mover] - (long)seeds[!mover];
}

/* The bounds on the value of p (not ended, a move to make; bounded rules)
 * from its seeds alone: the banked difference d give or take the seeds on
 * the board, less one that the side to move banks at once (banks_one). */
static void bound_of(const struct solver *x, const pmn_position *p, long d, long *lo, long *hi)
{
    long board = in_play(x, p);
    *hi = d + board;
    *lo = x->sh.banks_one && board > 0 ? d - board + 2 : d - board;
}

static long test_key(struct solver *x, const pmn_position *p, uint64_t key, int ply, long gamma,
                     int *dep, int *depth);
static long test(struct solver *x, const pmn_position *p, int ply, long gamma, int *dep);

/* Is the position at `ply` valued as a new game would value it: no
 * position before it can come again (a capture came between, or none can
 * repeat)?  Only then do the databases, which know no path, answer. */
static int fresh(const struct solver *x, int ply)
{
    return x->sh.acyclic || (x->ln.since[ply] == (unsigned)ply && (ply > 0 || x->ln.nbefore == 0));
}

/* What the databases' value v of a position says of it (banked difference
 * d); returns 1, or 0 where it says nothing.  At a fresh position, its
 * value: *lo == *hi; where the databases hold bounds (own seeds), those.
 * Under own seeds, elsewhere nothing: a repetition of a position of before
 * ends the game with its own seeds, which no value of a new game bounds.
 * Elsewhere the
 * positions since the last capture may come again, and a repetition ends
 * the game with the seeds left uncounted (the databases' rules), worth 0
 * of what is in play -- a way out that either side may find, or be
 * handed.  The databases' value v (of a new game) then bounds the value
 * between 0 and v: the side that wins v in a new game plays as there and
 * gets v, or 0 where play comes back to a position of before; the other
 * side likewise keeps the other bound.  Where v is 0, so is the value,
 * whatever came before. */
static int tb_value_bounds(const struct solver *x, const int8_t *cell, unsigned layer, long d,
                           int is_fresh, long *lo, long *hi)
{
    int v, u;
    if (!tablebase_cell_bounds(x->t->tb, cell, layer, &v, &u))
        return 0;
    if (tablebase_own_seeds(x->t->tb)) {
        if (!is_fresh)
            return 0;
        *lo = d + v;
        *hi = d + u;
    } else {
        assert(v == u);
        *lo = d + (is_fresh || v < 0 ? v : 0);
        *hi = d + (is_fresh || v > 0 ? v : 0);
    }
    if (x->outcome_only) {
        /* Those are the margins of the game that plays every seed out,
         * whose winner is the majority's: of this game they say the sign
         * alone (a win at least 1, a draw 0, a loss at most -1). */
        long wlo = *lo, whi = *hi;
        *lo = wlo > 0 ? 1 : wlo == 0 ? 0 : -100000;
        *hi = whi < 0 ? -1 : whi == 0 ? 0 : 100000;
    }
    return 1;
}

/* The same of p, or 0 if the databases do not hold it. */
static int tb_bounds(const struct solver *x, const pmn_position *p, long d, int is_fresh,
                     long *lo, long *hi)
{
    unsigned layer;
    const int8_t *at = tablebase_locate(x->t->tb, x->r, p, &layer);
    return at && tb_value_bounds(x, at, layer, d, is_fresh, lo, hi);
}

/* The value (mover's view) of the kid k of p at `ply`, tested against gamma. */
static long kid_value(struct solver *x, const pmn_position *p, struct kid *k, int ply, long gamma,
                      int *dep, int *depth)
{
    *dep = 0;
    *depth = k->depth;
    if (k->lo == k->hi)
        return k->lo;
    if (ply + 1 >= SOLVE_MAX_PLY) {
        x->deep = 1;
        *dep = DEP_PATH;
        return gamma - 1;
    }
    line_enter(&x->ln, ply, k);
    if (k->pos.to_move == p->to_move)
        return test_key(x, &k->pos, k->key, ply + 1, gamma, dep, depth);
    return -test_key(x, &k->pos, k->key, ply + 1, 1 - gamma, dep, depth);
}

/* How far ahead a result looked that a kid's of `depth` made: a ply more. */
static int after(int depth)
{
    return depth == PROVED ? PROVED : depth >= 254 ? 254 : depth + 1;
}

/* A kid's upper bound, looked `depth` ahead, taken into t's (the least). */
static void bound_below(struct tally *t, int depth)
{
    if (after(depth) < t->low_depth)
        t->low_depth = after(depth);
}

/* Play the move `hole` of p into k: the end of the game, a repetition and
 * what the table and the databases know of the child may decide the test
 * before it is searched; the memory the peek reads is fetched meanwhile. */
static void play_kid(struct solver *x, const pmn_position *p, int hole, struct kid *k)
{
    kid_play(&x->eng, p, hole, !x->sh.acyclic, k);
    x->b.nodes++;
    k->tbv = NULL;
    if (k->rep.ending == PMN_END_NONE) {
        struct counts c;
        counts_of(x, &k->pos, &c);
        k->key = key_of_counts(x, &k->pos, &c);
        if (x->t->tb && (k->tbv = tablebase_at(x->t->tb, x->r->pits, c.h, c.n, &k->tbn)) != NULL)
            __builtin_prefetch(k->tbv);
        __builtin_prefetch(&x->t->e[(k->key & (x->t->nbuckets - 1)) * BUCKET]);
    }
}

/* What is known of the kid k of p at `ply` before any search, into
 * k->lo..k->hi (the mover's view): the end of the game or a repetition
 * (which makes the result hang on the path: *dependent), the seeds and
 * the databases, then the table (Irving's peek at every child; a bound
 * short of the end sets k->depth, how far it looked). */
static void peek_kid(struct solver *x, struct kid *k, int me, int ply, int rem, int *dependent)
{
    const pmn_rules *r = x->r;
    k->lo = -100000;
    k->hi = 100000;
    k->depth = PROVED;
    if (k->rep.ending != PMN_END_NONE) {
        k->lo = k->hi = (int)end_margin(r, k->rep.ending, k->rep.outcome, &k->pos, me);
    } else if (!x->sh.acyclic && kid_repeats(&x->ln, ply, k)) {
        k->lo = k->hi = (int)end_margin(r, PMN_END_REPETITION,
                                        pmn_repetition_outcome(r, &k->pos), &k->pos, me);
        *dependent = DEP_PATH;
    } else {
        /* What the seeds and the databases say of the child, then the
         * table (Irving's peek at every child). */
        long cd = banked(&k->pos), clo = -100000, chi = 100000;
        if (x->sh.bounded)
            bound_of(x, &k->pos, cd, &clo, &chi);
        long tlo, thi;
        if (k->tbv && tb_value_bounds(x, k->tbv, k->tbn, cd,
                                      x->sh.acyclic || pmn_irreversible(&k->rep), &tlo, &thi)) {
            clo = tlo > clo ? tlo : clo;
            chi = thi < chi ? thi : chi;
        }
        if (k->pos.to_move == me) {
            k->lo = (int)clo;
            k->hi = (int)chi;
        } else {
            k->lo = (int)-chi;
            k->hi = (int)-clo;
        }
        struct entry kid_found, *c = clo < chi && probe(x->t, k->key, &kid_found)
                                   ? &kid_found : NULL;
        if (c && !deep_enough(c, rem - 1))
            c = NULL;
        if (c) {
            k->depth = c->depth;
            long lo = c->lo + cd, hi = c->hi + cd, klo, khi;
            if (k->pos.to_move == me) {
                klo = c->lo <= NONE_LO ? -100000 : lo;
                khi = c->hi >= NONE_HI ? 100000 : hi;
            } else {
                klo = c->hi >= NONE_HI ? -100000 : -hi;
                khi = c->lo <= NONE_LO ? 100000 : -lo;
            }
            if (klo > k->lo)
                k->lo = (int)klo;
            if (khi < k->hi)
                k->hi = (int)khi;
        }
    }
}

/* Play and peek at the moves of p at `ply` (rem plies left to look
 * ahead) into x->kids[ply]: each in turn, the nearest the store first (the
 * likeliest to cut off; Irving's order), and none played more than
 * PLAY_AHEAD past a cut-off -- the kids after this one are played while
 * the memory its peek reads (the table's bucket, the databases' cell) is
 * on its way.  A kid that reaches gamma ends it (t->best); those decided
 * below it raise t->best; the rest are *opened, ranked, and their number
 * returned.  (One ahead, the peek's read of the table was nine tenths of
 * its time and a third of the solve's; two ahead play 4-7% more
 * positions and take 0.90-0.97x the CPU: Kalah(4,6), (5,4), (6,3) and
 * (6,4) with databases, paired runs; three, 0.98-1.01x of two.) */
#define PLAY_AHEAD 2

static int peek_kids(struct solver *x, const pmn_position *p, int ply, int rem, long gamma,
                     int tt_best, struct kid **opened, struct tally *t)
{
    /* (packed at the rules' holes a ply, not PMN_MAX_SIDE_PITS: the kids
     * of a line then lie in a few pages, 2-3% of the time on Kalah(4,n)) */
    struct kid *kids = (struct kid *)x->kids + (size_t)ply * x->r->pits;
    int holes[PMN_MAX_SIDE_PITS], open = 0, me = p->to_move;
    int n = engine_moves(&x->eng, p, holes);
    for (int i = 0; i < PLAY_AHEAD && i < n; i++)
        play_kid(x, p, holes[n - 1 - i], &kids[i]);
    for (int i = 0; i < n; i++) {
        struct kid *k = &kids[i];
        if (i + PLAY_AHEAD < n)
            play_kid(x, p, holes[n - 1 - PLAY_AHEAD - i], &kids[i + PLAY_AHEAD]);
        peek_kid(x, k, me, ply, rem, &t->dependent);
        if (k->lo >= gamma) {   /* a cut-off before any search */
            t->best = k->lo;
            t->best_hole = k->hole;
            t->depth = after(k->depth);
            return 0;
        }
        if (k->hi > t->best && k->hi < gamma && k->lo == k->hi) {
            t->best = k->hi;
            t->best_hole = k->hole;
        }
        if (k->lo == k->hi) {   /* decided, below gamma */
            bound_below(t, k->depth);
            continue;
        }
        /* Irving's order: the table's move, then the moves that earn
         * another sowing, the nearest the store first (they keep the turn
         * and the most sowings after them), then the seeds banked. */
        k->order = k->hole == tt_best ? 1 << 24
                 : k->rep.extra ? (1 << 20) + k->hole
                 : (int)(((long)k->rep.captured + (long)k->rep.stored - (long)k->rep.given) * 64);
        opened[open++] = k;
    }
    return open;
}

/* The kids[0..open) of p at `ply` not decided by a peek, searched best
 * first against gamma until one reaches it: t->best and its move raised,
 * t->dependent gathering the kids'.  0 where the budget stopped the search
 * (the caller's result is then not to be kept), else 1. */
static int search_kids(struct solver *x, const pmn_position *p, struct kid **kids, int open,
                       int ply, long gamma, struct tally *t)
{
    /* Best-looking first: insertion sort of a handful (of pointers: a kid
     * is a position and its report, too much to copy on every node). */
    for (int i = 1; i < open; i++) {
        struct kid *tmp = kids[i];
        int j = i;
        while (j > 0 && kids[j - 1]->order < tmp->order) {
            kids[j] = kids[j - 1];
            j--;
        }
        kids[j] = tmp;
    }
    /* With helper threads (ABDADA): after the first move, a move whose
     * position another thread is searching is put off to a second
     * pass, by when its value may be in the table. */
    int later[PMN_MAX_SIDE_PITS], nlater = 0, cut = 0;
    for (int pass = 0; pass < 2 && !cut; pass++) {
        int m = pass ? nlater : open;
        for (int j = 0; j < m; j++) {
            struct kid *k = kids[pass ? later[j] : j];
            if (k->hi < gamma) {   /* the table says it fails: its bound is all we need */
                if (k->hi > t->best) {
                    t->best = k->hi;
                    t->best_hole = k->hole;
                }
                bound_below(t, k->depth);
                continue;
            }
            if (pass == 0 && j > 0 && x->t->threads > 1 && busy(x->t, k->key)) {
                later[nlater++] = j;
                continue;
            }
            int kd, kdepth;
            _Atomic uint64_t *mark = x->t->threads > 1 ? enter(x->t, k->key) : NULL;
            long v = kid_value(x, p, k, ply, gamma, &kd, &kdepth);
            if (mark)
                leave(mark, k->key);
            if (x->b.stopped)
                return 0;
            t->dependent |= kd & DEP_PATH;
            if (v > t->best) {
                t->best = v;
                t->best_hole = k->hole;
            }
            if (v >= gamma) {
                t->depth = after(kdepth);
                cut = 1;
                break;
            }
            bound_below(t, kdepth);
        }
    }
    return 1;
}

/* Is the value of p (not ended; the side to move has a move) at least
 * gamma?  Fail-soft: a result at or above gamma is a lower bound, one below
 * an upper bound.  *dep: the result depends on the path (a repetition), or
 * was cut short by the budget, and is not to be kept.  key: key_of(x, p),
 * which the parent made when it peeked at p (not made again). */
static long test_key(struct solver *x, const pmn_position *p, uint64_t key, int ply, long gamma,
                     int *dep, int *depth)
{
    *dep = 0;
    *depth = PROVED;
    if (search_budget_spent(&x->b)) {
        *dep = DEP_PATH;
        return gamma - 1;
    }
    int rem = x->limit - ply;   /* plies left to look ahead */
    long d = banked(p);
    /* Below the root, the parent's peek at p asked the seeds and the
     * databases already (with the same freshness: fresh() as the move's
     * irreversibility), and searches p only when they do not decide. */
    if (ply == 0 && x->sh.bounded) {
        long lo, hi;
        bound_of(x, p, d, &lo, &hi);
        if (hi < gamma)
            return hi;
        if (lo >= gamma)
            return lo;
    }
    if (ply == 0 && x->t->tb) {
        long lo, hi;
        if (tb_bounds(x, p, d, fresh(x, ply), &lo, &hi)) {
            if (lo == hi || lo >= gamma)
                return lo;
            if (hi < gamma)
                return hi;
        }
    }
    struct entry found, *e = probe(x->t, key, &found) ? &found : NULL;
    int tt_best = -1;
    if (e) {
        if (deep_enough(e, rem)) {
            *dep = e->depth == PROVED ? 0 : DEP_HORIZON;
            *depth = e->depth;
            if (e->lo + d >= gamma)
                return e->lo + d;
            if (e->hi + d < gamma)
                return e->hi + d;
            *dep = 0;
            *depth = PROVED;
        }
        tt_best = e->best;
    }
    if (rem <= 0) {   /* the horizon: the margin banked so far */
        *dep = DEP_HORIZON;
        *depth = 0;
        return d;
    }
    uint64_t nodes0 = x->b.nodes;
    struct kid *opened[PMN_MAX_SIDE_PITS];
    struct tally t = { -100000, -1, 0, PROVED, PROVED };
    int open = peek_kids(x, p, ply, rem, gamma, tt_best, opened, &t);
    if (t.best < gamma && !search_kids(x, p, opened, open, ply, gamma, &t)) {
        *dep = DEP_PATH;
        return gamma - 1;
    }
    /* How far ahead the result looked (Irving's account): a lower bound,
     * as far as the kid that made it; an upper bound, as far as the
     * shortest of the kids' -- at least rem, where every bound taken was
     * deep enough, and more where the table held deeper ones, which a
     * later look of more plies then takes as it is.  (PROVED: to the end,
     * and a lower bound is so where its kid's is, whatever its elder
     * brothers' were.) */
    if (t.best < gamma)
        t.depth = t.low_depth;
    assert(t.depth >= rem || t.depth == PROVED);
    if (t.depth != PROVED)
        t.dependent |= DEP_HORIZON;
    if (ply == 0 && t.best >= gamma)
        x->root_best = t.best_hole;
    *dep = t.dependent;
    *depth = t.depth;
    if (!(t.dependent & DEP_PATH)) {
        int filled = t.best >= gamma
            ? store(x->t, key, t.best - d, NONE_HI, t.best_hole, x->b.nodes - nodes0 + 1, t.depth)
            : store(x->t, key, NONE_LO, t.best - d, t.best_hole, x->b.nodes - nodes0 + 1, t.depth);
        if (filled && x->main) {
            x->t->filled++;
            table_grow(x->t);
        }
    }
    return t.best;
}

/* The same of p, whose key is not known yet (the root). */
static long test(struct solver *x, const pmn_position *p, int ply, long gamma, int *dep)
{
    int depth;
    return test_key(x, p, key_of(x, p), ply, gamma, dep, &depth);
}

/* ---- the root ------------------------------------------------------------------ */

/* Where every margin has one parity (Kalah: the two final counts make the
 * seeds of the game), a bound proved to the end rounds to it, and a test
 * of the other parity would prove nothing a test of this one does not:
 * half the steps of MTD(f) on the way from the guess. */
static long round_up(const struct solver *x, long v)
{
    return x->parity < 0 || x->limit != UNLIMITED || (v & 1) == x->parity ? v : v + 1;
}

static long round_down(const struct solver *x, long v)
{
    return x->parity < 0 || x->limit != UNLIMITED || (v & 1) == x->parity ? v : v - 1;
}

/* The next gamma within lo+1..hi (lo < hi, both rounded): the guess g, or
 * after four steps from it the middle; of the margins' parity. */
static long next_gamma(const struct solver *x, long g, long lo, long hi, int steps)
{
    long gamma = steps >= 4 ? lo + (hi - lo + 1) / 2 : g;
    if (gamma <= lo)
        gamma = lo + 1;
    if (gamma > hi)
        gamma = hi;
    /* hi has the parity, and gamma < hi when it has not */
    return round_up(x, gamma);
}

/* The exact value of p (not ended, with a move) by MTD(f), from the guess
 * g, within lo..hi.  Returns 0 when the budget ran out first (then *lo and
 * *hi are the bounds proved), 1 when exact (*lo == *hi).  *best_hole: a
 * move that proved the value, if a test found one. */
static int mtd(struct solver *x, const pmn_position *p, long g, long *lo, long *hi,
               int *best_hole)
{
    /* Iterative deepening: looks ahead that fill the table with best
     * moves (a fail-low's too: the move of its highest bound, as Irving's
     * table keeps) and a first guess; then the search to the end.  How far
     * and in what steps, by the holes a side, measured in positions played
     * on one thread from the opening of Kalah with databases to 16 seeds
     * (first standard capture, then empty; one kid played ahead, see
     * peek_kids(); Irving's solver's own count of the positions it peeked
     * at, beside):
     *                  (4,4)   (4,5)   (4,6)   (5,4)   (6,3)  (6,4)  (5,5)
     *   6, 12, 18     61.5k   667k    2.40M   3.50M   624k   355M
     *     empty       47.5k   765k    2.95M   1.67M   333k   94.5M  602M
     *   5, 8, ..., 29 43.0k   730k    1.93M   4.63M   1.03M  401M
     *     empty       47.6k   457k    2.56M   2.58M   361k   117M   701M
     *   Irving's      41.6k   789k    1.73M   4.74M   909k   534M
     *     empty       52.9k   382k    2.51M   2.36M   320k   129M   933M
     * With four holes a side or fewer, a move leads to few others and a
     * look of 29 plies is cheap, and what it proves saves more in the
     * search to the end; with more, looks past 18 plies cost more than
     * they save (the margin banked at a horizon is a poor guess, and a
     * test of it fails low only after every move is searched).  Without
     * the fail-low's move kept, Kalah(4,6) standard took 2.25M positions
     * by steps of 3, and with it by 6, 12, 18 3.03M; by 6, 12, 18 with
     * more holes it changes the count by 2% at most.  Those counts were
     * made when the table grew at half full, and a bucket's overflows
     * could move them by up to 30% (TABLE_LOAD); made again with the
     * table grown at a quarter full and two kids played ahead, the choice
     * stands: Kalah(4,4..6) under both captures take 5.88M positions in
     * all by steps of 3 (6.32M by 6, 12, 18); Kalah(5,4) and (6,3) 6.50M
     * by 6, 12, 18 (8.93M by steps of 3). */
    const int small = x->r->pits <= 4, step = small ? 3 : 6, last = small ? 29 : 18;
    long plo = *lo, phi = *hi;   /* proved */
    *best_hole = -1;   /* a move proved as good as plo, when a test finds one */
    for (int limit = small ? 5 : 6;; limit = limit >= last ? UNLIMITED : limit + step) {
        long dlo = plo, dhi = phi;
        int steps = 0, guessed = 0;
        x->limit = limit;
        dlo = round_up(x, dlo);
        dhi = round_down(x, dhi);
        while (dlo < dhi) {
            long gamma = next_gamma(x, g, dlo, dhi, steps);
            int dep;
            x->root_best = -1;
            long v = test(x, p, 0, gamma, &dep);
            if (x->b.stopped) {
                *lo = plo;
                *hi = phi;
                x->limit = UNLIMITED;
                return 0;
            }
            if (v >= gamma) {
                dlo = v = round_up(x, v);
                /* The move that made the cut (not the table's, which a result
                 * that saw a repetition does not reach). */
                if (!(dep & DEP_HORIZON))
                    *best_hole = x->root_best;
                if (!(dep & DEP_HORIZON) && v > plo)
                    plo = v;
            } else {
                dhi = v = round_down(x, v);
                if (!(dep & DEP_HORIZON) && v < phi)
                    phi = v;
            }
            x->plo = plo;
            x->phi = phi;
            guessed |= dep & DEP_HORIZON;
            g = v;
            steps++;
        }
        if (!guessed || plo >= phi || limit == UNLIMITED) {
            *lo = *hi = plo >= phi ? plo : dlo;
            x->limit = UNLIMITED;
            return 1;
        }
    }
}

static void set_value(long lo, long hi, pmn_value *v);

/* The main thread's stop check, every 1024 positions: the caller's stop,
 * and about once a second the bounds proved so far to the caller's
 * progress function (a long solve shows it is under way: pmn analyse on a
 * terminal). */
static int tick(void *ctx)
{
    struct solver *x = ctx;
    if (x->stop && x->stop(x->stop_ctx))
        return 1;
    double now = util_now();
    if (x->fn && now >= x->next_tick) {
        pmn_analysis a;
        memset(&a, 0, sizeof a);
        set_value(x->plo, x->phi, &a.value);
        a.value.exact = 0;
        a.stopped = 1;
        a.best = -1;
        a.nodes = x->b.nodes;
        a.seconds = now - x->start;
        x->fn(x->fn_ctx, &a);
        x->next_tick = now + 1;
    }
    return 0;
}

/* ---- threads ------------------------------------------------------------------- */

/* Lazy SMP: helper threads run the same MTD(f) from the root on the shared
 * table, and what one proves the others find there.  They part ways by
 * ABDADA's rule (test(): a move another thread is searching is put off),
 * so that the moves of a node where every move must be searched are
 * searched side by side.  The main thread's result is the answer; the
 * helpers stop when it has one.  The value is the same whatever the
 * threads (each bound in the table is proved); the best move is one of
 * that value, which with ties may be another. */
static void root_bounds(const struct solver *x, const pmn_position *p, long *lo, long *hi);

struct helper {
    pthread_t id;
    struct solver x;
    const pmn_position *p;
    long g;
    const atomic_int *halt;
};

/* A helper's stop check, between two positions: it stops when the main
 * thread has its answer, and waits while the table grows. */
static int halted(void *ctx)
{
    const struct helper *h = ctx;
    if (atomic_load_explicit(&h->x.t->grow_wanted, memory_order_relaxed))
        table_wait(h->x.t);
    return atomic_load_explicit(h->halt, memory_order_relaxed);
}

static void *help(void *arg)
{
    struct helper *h = arg;
    long lo, hi;
    int best;
    root_bounds(&h->x, h->p, &lo, &hi);
    mtd(&h->x, h->p, h->g, &lo, &hi, &best);
    crew(h->x.t, -1);   /* no longer one the table's growth waits for */
    return NULL;
}

/* mtd() on `threads` threads, from the banked difference as the guess.
 * *helped: the positions the helpers played. */
static int mtd_threads(struct solver *x, const pmn_position *p, unsigned threads, long *lo,
                       long *hi, int *best, uint64_t *helped)
{
    struct helper *h = NULL;
    atomic_int halt = 0;
    unsigned started = 0;
    if (threads > SOLVE_MAX_THREADS)
        threads = SOLVE_MAX_THREADS;
    if (x->b.max_nodes)   /* a count of positions: the same result on every run */
        threads = 1;
    x->t->threads = threads;
    if (threads > 1 && (h = calloc(threads - 1, sizeof *h)) != NULL) {
        for (unsigned i = 0; i < threads - 1; i++) {
            struct helper *k = &h[i];
            k->x = *x;
            k->x.main = 0;
            k->x.kids = table_kids(x->t, i + 1);
            if (!k->x.kids)
                break;
            memset(&k->x.b, 0, sizeof k->x.b);
            k->x.b.stop = halted;
            k->x.b.stop_ctx = k;
            k->x.b.damaged = x->b.damaged;
            k->p = p;
            k->halt = &halt;
            k->g = banked(p);
            crew(x->t, 1);
            if (pthread_create(&k->id, NULL, help, k) != 0) {
                crew(x->t, -1);
                break;
            }
            started++;
        }
    }
    int exact = mtd(x, p, banked(p), lo, hi, best);
    atomic_store_explicit(&halt, 1, memory_order_relaxed);
    *helped = 0;
    for (unsigned i = 0; i < started; i++) {
        pthread_join(h[i].id, NULL);
        *helped += h[i].x.b.nodes;
    }
    free(h);
    x->t->threads = 1;
    return exact;
}

/* The root's own bounds: the seeds, where they bound the margin. */
static void root_bounds(const struct solver *x, const pmn_position *p, long *lo, long *hi)
{
    if (x->sh.bounded) {
        long d = banked(p), board = on_board(x->r, p);
        *lo = d - board;
        *hi = d + board;
    } else {
        *lo = -100000;
        *hi = 100000;
    }
}

/* A move of the root to k: 1 with its value *v (root's mover) when the
 * game ends there, by the move or by a repetition; else 0, the path set
 * for tests of k at ply 1. */
static int root_kid_ends(struct solver *x, const pmn_position *root, const struct kid *k,
                         long *v)
{
    if (k->rep.ending != PMN_END_NONE) {
        *v = end_margin(x->r, k->rep.ending, k->rep.outcome, &k->pos, root->to_move);
        return 1;
    }
    line_enter(&x->ln, 0, k);
    if (!x->sh.acyclic && kid_repeats(&x->ln, 0, k)) {
        *v = end_margin(x->r, PMN_END_REPETITION, pmn_repetition_outcome(x->r, &k->pos),
                        &k->pos, root->to_move);
        return 1;
    }
    return 0;
}

/* Is the value of the root's move to k, for the root's mover, at least g?
 * One null-window test: against the root's own value, it tells a best move
 * from another at a fraction of the cost of the other's exact value.  0
 * when stopped (x->b.stopped). */
static int kid_at_least(struct solver *x, const pmn_position *root, struct kid *k, long g)
{
    long v;
    int dep;
    if (!root_kid_ends(x, root, k, &v))
        v = k->pos.to_move == root->to_move ? test(x, &k->pos, 1, g, &dep)
                                            : -test(x, &k->pos, 1, 1 - g, &dep);
    return !x->b.stopped && v >= g;
}

/* The exact value of the child c of root, for the root's mover. */
static int child_exact(struct solver *x, const pmn_position *root, struct kid *k, long guess,
                       long *lo, long *hi)
{
    long end;
    if (root_kid_ends(x, root, k, &end)) {
        *lo = *hi = end;
        return 1;
    }
    /* Shift the root's view down one ply: the child's tests run at ply 1. */
    long clo, chi;
    root_bounds(x, &k->pos, &clo, &chi);
    int same = k->pos.to_move == root->to_move;
    long g = same ? guess : -guess;
    int steps = 0;
    while (clo < chi) {
        long gamma = next_gamma(x, g, clo, chi, steps);
        int dep;
        long v = test(x, &k->pos, 1, gamma, &dep);
        if (x->b.stopped)
            break;
        if (v >= gamma)
            clo = round_up(x, v);
        else
            chi = round_down(x, v);
        g = v;
        steps++;
    }
    *lo = same ? clo : -chi;
    *hi = same ? chi : -clo;
    return !x->b.stopped;
}

static void set_value(long lo, long hi, pmn_value *v)
{
    memset(v, 0, sizeof *v);
    v->has_margin = 1;
    v->exact = lo == hi;
    v->margin = (int)(v->exact ? lo : (lo + hi) / 2);
    v->outcome = v->margin > 0 ? 1 : v->margin < 0 ? -1 : 0;
    v->solved = 1;
    v->lower = (int)lo;
    v->upper = (int)hi;
    v->score = v->margin * 4096;
}

static int by_value(const void *a, const void *b)
{
    const pmn_move_value *x = a, *y = b;
    return (y->value.margin > x->value.margin) - (y->value.margin < x->value.margin);
}

/* A line of best play from p, whose value is v: at each ply a move whose
 * value is the position's, the table's best tried first.  The positions
 * of the line since its last capture join the game's for repetitions. */
static void best_line(struct solver *x, const pmn_position *root, long v, int first,
                      pmn_analysis *a)
{
    pmn_position q = *root;
    size_t cap = x->ln.nbefore + PMN_MAX_PV + 1, n0 = x->ln.nbefore;
    uint64_t *line = malloc(cap * sizeof *line);
    const uint64_t *saved = x->ln.before;
    a->npv = 0;
    if (!line)
        return;
    if (n0)
        memcpy(line, x->ln.before, n0 * sizeof *line);
    size_t nline = n0;
    for (unsigned i = 0; i < PMN_MAX_PV && !x->b.stopped; i++) {
        int holes[PMN_MAX_SIDE_PITS];
        int n = engine_moves(&x->eng, &q, holes);
        if (n == 0)
            break;
        line_start(&x->ln, x->sh.acyclic ? 0 : engine_key(x->r, &q), line, nline);
        struct entry found, *e = probe(x->t, key_of(x, &q), &found) ? &found : NULL;
        int pref = i == 0 && first >= 0 ? first : e ? e->best : -1;
        int chosen = -1;
        struct kid k, pick;
        for (int pass = 0; pass < 2 && chosen < 0 && !x->b.stopped; pass++)
            for (int j = 0; j < n && chosen < 0; j++) {
                if ((pass == 0) != (holes[j] == pref))
                    continue;
                kid_play(&x->eng, &q, holes[j], !x->sh.acyclic, &k);
                x->b.nodes++;
                /* No move is worth more than q: one worth as much is best. */
                if (kid_at_least(x, &q, &k, v)) {
                    chosen = holes[j];
                    pick = k;
                } else if (x->b.stopped) {
                    break;
                }
            }
        if (chosen < 0)
            break;
        a->pv[a->npv++] = chosen;
        if (pick.rep.ending != PMN_END_NONE)
            break;
        if (pick.pos.to_move != q.to_move)
            v = -v;
        if (pmn_irreversible(&pick.rep))
            nline = 0;
        else if (!x->sh.acyclic)
            line[nline++] = engine_key(x->r, &q);
        q = pick.pos;
    }
    x->ln.before = saved;
    x->ln.nbefore = n0;
    free(line);
}

/* The value of the move to k from p by the databases, for p's mover: 1
 * and *v, or 0 when they do not hold where it leads. */
static int tb_move(const struct solver *x, const pmn_position *p, const struct kid *k, long *v)
{
    return tablebase_move_value(x->t->tb, x->r, p, &k->pos, &k->rep, v);
}

/* A position the databases hold, as a new game: its value, its best move
 * and a line of best play from them, each move's value with all_moves.
 * The databases' best moves keep the value under the rules' repetitions
 * too (a winner's never come back to a position; a holder's keep the
 * value or repeat, worth 0 then); another move's value is the database's,
 * proved only where no repetition of p could change it (a capture, or
 * rules where none repeats).  Returns 0 if they do not hold p. */
static int tb_answer(struct solver *x, const pmn_position *p, const pmn_search_limits *l,
                     pmn_analysis *a)
{
    int pv;
    if (!x->t->tb || !fresh(x, 0) || !tablebase_probe(x->t->tb, x->r, p, &pv))
        return 0;
    long value = banked(p) + pv;
    set_value(value, value, &a->value);
    a->value.tablebase = 1;
    a->npv = tablebase_line(x->t->tb, x->r, p, a->pv, PMN_MAX_PV, &x->b.nodes);
    a->best = a->npv ? a->pv[0] : -1;
    if (l->all_moves) {
        int holes[PMN_MAX_SIDE_PITS];
        int n = engine_moves(&x->eng, p, holes), nm = 0;
        for (int j = 0; j < n; j++) {
            struct kid k;
            long mv;
            k.pos = *p;
            engine_play(&x->eng, &k.pos, holes[j], &k.rep, NULL);
            if (!tb_move(x, p, &k, &mv))
                continue;
            a->moves[nm].hole = holes[j];
            set_value(mv, mv, &a->moves[nm].value);
            /* (Under own seeds, a move that keeps the value may still meet
             * p again, worth its own seeds: no new game's value says.) */
            a->moves[nm].value.exact = x->sh.acyclic || pmn_irreversible(&k.rep)
                                    || (mv == value && !tablebase_own_seeds(x->t->tb));
            a->moves[nm].value.tablebase = 1;
            nm++;
        }
        a->nmoves = nm;
        qsort(a->moves, (size_t)nm, sizeof a->moves[0], by_value);
    }
    a->depth = a->npv;
    return 1;
}

/* Where a layer is solved again for a history: at most
 * solve_history_layer_max positions a layer (its graph made once), and in
 * all for a line of best play, a solve a ply. */
uint64_t solve_history_layer_max = 4000000u;
#define HISTORY_LINE_MAX 200000000u

/* A position with a history since the last capture, in a game where
 * positions repeat, whose layer the databases hold: each move's value
 * from the layer solved again with the positions of before (and p) as
 * ends of the game (tablebase_history_solve), a move that captures from
 * the databases; the line of best play likewise, ply by ply, up to its
 * first capture.  Also a new game's position when every move's value is
 * asked: p itself may come again after a move that does not capture,
 * which the databases' values of the children do not know (tb_answer
 * could not prove them; annotate needs them proved to say '!'); its line
 * is then the databases' own.
 * Returns 0 if the databases cannot answer so. */
static int tb_history_answer(struct solver *x, const pmn_position *p,
                             const pmn_position *history, size_t nhistory,
                             const pmn_search_limits *l, pmn_analysis *a)
{
    const pmn_tablebase *tb = x->t->tb;
    /* (under own seeds a new game's line too: the databases keep no move
     * for a value the search with the path found) */
    int own = tb && tablebase_own_seeds(tb);
    if (!tb || x->sh.acyclic || (nhistory == 0 && !l->all_moves && !own))
        return 0;
    unsigned n = (unsigned)on_board(x->r, p);
    pmn_position *ends = malloc((nhistory + PMN_MAX_PV + 1) * sizeof *ends);
    if (!ends)
        return 0;
    if (nhistory)   /* history may be NULL then */
        memcpy(ends, history, nhistory * sizeof *ends);
    size_t nends = nhistory;
    struct tablebase_history *h = x->t->hist && x->t->hist_n == n ? x->t->hist : NULL;
    if (!h) {
        tablebase_history_free(x->t->hist);
        x->t->hist = h = tablebase_history_new(tb, n, solve_history_layer_max);
        x->t->hist_n = n;
    }
    if (!h) {
        free(ends);
        return 0;
    }
    uint64_t solved = 0;
    pmn_position q = *p;
    int unknown = 0;
    a->npv = 0;
    for (unsigned i = 0; i < PMN_MAX_PV && !unknown; i++) {
        if (i > 0 && ((nhistory == 0 && !own) || search_budget_spent(&x->b)
                      || solved > HISTORY_LINE_MAX))
            break;
        ends[nends++] = q;
        tablebase_history_solve(h, ends, nends);
        solved += pmn_tablebase_positions(x->r, n);
        int holes[PMN_MAX_SIDE_PITS];
        int nm = engine_moves(&x->eng, &q, holes), kept = 0, chosen = -1;
        long best = 0;
        struct kid k, pick;
        for (int j = 0; j < nm; j++) {
            long mv;
            int cv;
            k.pos = q;
            engine_play(&x->eng, &k.pos, holes[j], &k.rep, NULL);
            x->b.nodes++;
            if (k.rep.ending != PMN_END_NONE || pmn_irreversible(&k.rep)) {
                if (!tb_move(x, &q, &k, &mv))
                    continue;
            } else {
                /* (one of the ends: a repetition, worth 0 where the seeds
                 * left go uncounted, the seeds on each side under own; a
                 * search within what is left of the budget, and counted
                 * into it: two searches a probe at most) */
                tablebase_history_limit(h, !x->b.max_nodes ? UINT64_MAX
                                           : x->b.max_nodes > x->b.nodes
                                           ? (x->b.max_nodes - x->b.nodes) / 2 : 0);
                uint64_t searched = tablebase_history_searched(h);
                int found = tablebase_history_probe(h, &k.pos, &cv);
                x->b.nodes += tablebase_history_searched(h) - searched;
                if (found < 0) {
                    unknown = 1;   /* a move not found: no answer but the whole */
                    break;
                }
                if (found == 0)
                    continue;
                long cd = (long)k.pos.captured[q.to_move] - (long)k.pos.captured[!q.to_move];
                mv = k.pos.to_move == q.to_move ? cd + cv : cd - cv;
            }
            if (i == 0 && l->all_moves) {
                a->moves[kept].hole = holes[j];
                set_value(mv, mv, &a->moves[kept].value);
                a->moves[kept].value.tablebase = 1;
                kept++;
            }
            if (chosen < 0 || mv > best) {
                best = mv;
                chosen = holes[j];
                pick = k;
            }
        }
        if (chosen < 0 || unknown)
            break;   /* (at ply 0 no answer; later, a line to where a move is not found) */
        if (i == 0) {
            set_value(best, best, &a->value);
            a->value.tablebase = 1;
            a->best = chosen;
            if (l->all_moves) {
                a->nmoves = kept;
                qsort(a->moves, (size_t)kept, sizeof a->moves[0], by_value);
            }
        }
        a->pv[a->npv++] = chosen;
        if (pick.rep.ending != PMN_END_NONE)
            break;
        if (pmn_irreversible(&pick.rep)) {
            /* A new game from the capture on: the databases' line. */
            a->npv += tablebase_line(tb, x->r, &pick.pos, a->pv + a->npv,
                                     PMN_MAX_PV - a->npv, &x->b.nodes);
            break;
        }
        int again = 0;
        for (size_t j = 0; j < nends; j++)
            again |= pmn_position_equal(x->r, &ends[j], &pick.pos);
        if (again)
            break;   /* the rules end the game here: a repetition */
        q = pick.pos;
    }
    free(ends);   /* (h is kept: x->t->hist; the next solves it for its ends) */
    if (a->npv == 0)
        return 0;
    if (nhistory == 0 && !own) {
        /* A new game: the databases' own line (the quickest way to their
         * value, as tb_answer gives it), not one solve a ply. */
        int pv[PMN_MAX_PV];
        unsigned npv = tablebase_line(tb, x->r, p, pv, PMN_MAX_PV, &x->b.nodes);
        if (npv > 0) {
            memcpy(a->pv, pv, npv * sizeof pv[0]);
            a->npv = npv;
            a->best = pv[0];
        }
    }
    a->depth = a->npv;
    return 1;
}

/* A result proved, with no margin: a win or a loss by some seeds (their
 * number not proved), or a draw (a margin of none). */
static void set_outcome(int o, int held, pmn_value *v)
{
    memset(v, 0, sizeof *v);
    v->exact = 1;
    v->outcome = o;
    v->has_margin = o == 0;
    v->margin = o;
    v->solved = 1;
    v->lower = o > 0 ? 1 : o == 0 ? 0 : -100000;
    v->upper = o < 0 ? -1 : o == 0 ? 0 : 100000;
    v->score = o * 4096;
    v->tablebase = held;
}

/* Under a majority, from the databases of majority=no (outcome_only): a
 * value they proved, with the history, is the margin of the game that
 * plays every seed out, whose sign is this game's result (the same winner:
 * the first side past half of the seeds); its margin is not this game's.
 * The line stops where these rules end the game. */
static void to_outcome(pmn_value *v)
{
    if (v->exact)
        set_outcome(v->margin > 0 ? 1 : v->margin < 0 ? -1 : 0, v->tablebase, v);
}

static void to_outcomes(struct solver *x, const pmn_position *p, pmn_analysis *a)
{
    to_outcome(&a->value);
    for (int i = 0; i < a->nmoves; i++)
        to_outcome(&a->moves[i].value);
    pmn_position q = *p;
    for (unsigned i = 0; i < a->npv; i++) {
        pmn_move_report rep;
        if (engine_play(&x->eng, &q, a->pv[i], &rep, NULL) != 0) {
            a->npv = i;
            break;
        }
        if (rep.ending != PMN_END_NONE) {
            a->npv = i + 1;
            break;
        }
    }
    a->depth = a->npv;
}

/* Every root move's value into a (with all_moves), or, where the solve
 * named no best move (a helper thread proved the value), enough of them
 * to name it; the position's value proved lo where exact.  The best hole
 * (best, if already named), or -1. */
static int root_moves(struct solver *x, const pmn_position *p, const pmn_search_limits *l,
                      long lo, int exact, int best, pmn_analysis *a)
{
    int holes[PMN_MAX_SIDE_PITS];
    int n = engine_moves(&x->eng, p, holes), nm = 0;
    struct entry found;
    if (!l->all_moves && probe(x->t, key_of(x, p), &found) && found.best >= 0) {
        /* The table's best first: when a helper thread proved the value,
         * the main thread's last test found it there and named no move,
         * and the proof of a lesser move's value (hole order) can cost
         * more than the whole solve. */
        for (int i = 1; i < n; i++)
            if (holes[i] == found.best) {
                memmove(holes + 1, holes, (size_t)i * sizeof holes[0]);
                holes[0] = found.best;
                break;
            }
    }
    for (int i = 0; i < n && !x->b.stopped; i++) {
        struct kid k;
        kid_play(&x->eng, p, holes[i], !x->sh.acyclic, &k);
        x->b.nodes++;
        long mlo, mhi;
        if (!l->all_moves && best < 0 && i + 1 < n) {
            /* Naming the best: a null-window test against the value. */
            if (kid_at_least(x, p, &k, lo) && exact) {
                best = holes[i];
                break;
            }
            continue;
        }
        if (!l->all_moves && best < 0) {
            best = holes[i];   /* the last one left */
            break;
        }
        child_exact(x, p, &k, lo, &mlo, &mhi);   /* stopped: the bounds it has */
        a->moves[nm].hole = holes[i];
        set_value(mlo, mhi, &a->moves[nm].value);
        nm++;
    }
    if (l->all_moves) {
        a->nmoves = nm;
        qsort(a->moves, (size_t)nm, sizeof a->moves[0], by_value);
        if (nm && best < 0)
            best = a->moves[0].hole;
    }
    return best;
}

int solve_position(struct solve_table *t, const pmn_rules *r, const pmn_position *p,
                   const pmn_position *history, size_t nhistory, const pmn_search_limits *l,
                   pmn_progress_fn fn, void *ctx, pmn_analysis *a)
{
    struct solver *x = calloc(1, sizeof *x);
    uint64_t *before = nhistory ? malloc(nhistory * sizeof *before) : NULL;
    double start = util_now();
    if (x)
        x->kids = table_kids(t, 0);
    if (!x || !x->kids || (nhistory && !before)) {
        free(x);
        free(before);
        return PMN_ERR_NOMEM;
    }
    x->t = t;
    x->main = 1;
    x->r = r;
    engine_init(&x->eng, r, p);
    x->limit = UNLIMITED;
    shape_of(r, &x->sh);
    x->seeds = (long)p->captured[0] + (long)p->captured[1] + on_board(r, p);
    x->parity = x->sh.counts_all ? (int)(x->seeds & 1) : -1;
    x->b.max_nodes = l->nodes;
    x->b.deadline = l->seconds > 0 ? start + l->seconds : 0;
    x->stop = l->stop;
    x->stop_ctx = l->stop_ctx;
    if (fn || l->stop) {
        x->b.stop = tick;
        x->b.stop_ctx = x;
    }
    x->fn = fn;
    x->fn_ctx = ctx;
    x->start = start;
    x->next_tick = start + 1;
    x->b.damaged = t->tb ? tablebase_damaged_flag(t->tb) : NULL;
    for (size_t i = 0; i < nhistory; i++)
        before[i] = engine_key(x->r, &history[i]);
    x->ln.before = before;
    x->ln.nbefore = nhistory;
    t->generation++;

    x->outcome_only = t->tb && tablebase_outcome_only(t->tb, r);
    x->ln.since[0] = 0;
    if (tb_history_answer(x, p, history, nhistory, l, a) || tb_answer(x, p, l, a)) {
        if (x->outcome_only)
            to_outcomes(x, p, a);
        a->nodes = x->b.nodes;
        a->seconds = util_now() - start;
        if (fn)
            fn(ctx, a);
        free(x);
        free(before);
        return 0;
    }
    long lo, hi;
    root_bounds(x, p, &lo, &hi);
    x->plo = lo;
    x->phi = hi;
    x->ln.path[0] = x->sh.acyclic ? 0 : engine_key(x->r, p);
    int best = -1;
    uint64_t helped = 0;
    int exact = mtd_threads(x, p, l->threads, &lo, &hi, &best, &helped);
    set_value(lo, hi, &a->value);
    a->stopped = !exact;
    if (l->all_moves || best < 0)
        best = root_moves(x, p, l, lo, exact, best, a);
    if (best < 0) {
        int holes[PMN_MAX_SIDE_PITS];
        if (engine_moves(&x->eng, p, holes) > 0)
            best = holes[0];   /* out of budget before any move was proved best */
    }
    a->best = best;
    if (exact && !x->b.stopped)
        best_line(x, p, lo, best, a);
    if (a->npv == 0 && best >= 0) {
        a->pv[0] = best;
        a->npv = 1;
    }
    a->stopped = !exact || x->b.stopped;
    a->depth = a->npv;
    a->nodes = x->b.nodes + helped;
    a->seconds = util_now() - start;
    if (x->deep && a->value.exact) {
        /* A line went past the plies the solver follows: not proved. */
        a->value.exact = 0;
    }
    if (fn)
        fn(ctx, a);
    free(x);
    free(before);
    return 0;
}
