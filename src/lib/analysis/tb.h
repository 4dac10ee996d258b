/* tb.h - the endgame databases' wing, inside: what its files share (the
 * databases' struct, the codes a cell holds, the index, a layer's graph),
 * and what each gives the others.  Lowest first, none calling one above it
 * (tests/layers.sh): tb_file.c (the files: written, mapped, checked),
 * tb_moves.c (a position's moves played on the counts, its exits valued
 * from the layers below), tb_layer.c (a layer built as a graph: the passes
 * over its positions, the predecessor lists, the solve), tb_own.c (own
 * seeds: both seats apart, the bounds from endless games, the search with
 * the path), tb_walk.c (a layer where no position repeats), tb_history.c
 * (a layer solved again for a game with a history), and tablebase.c on top
 * (its comment says what the databases are; rules, building, opening,
 * probes, lines).  The public API is in pmn.h; what the solver calls, in
 * tablebase.h, tb_history.h and tb_own.h; tb_counts.h, the bytes the
 * index and the solver's table share. */
#ifndef PMN_TB_H
#define PMN_TB_H

#include "pmn.h"
#include "../engine/play.h"
#include "../base/util.h"
#include "tb_counts.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

#define TB_MAGIC "PMNTBASE"
#define TB_VERSION 6
#define TB_VERSION_KEPT 5   /* read too, but not where positions keep own seeds */
#define TB_HEADER 256          /* the least header; more for a long spec (tb_spec_header()) */
#define TB_SPEC 1024           /* the longest spec (every option of a rule file's
                                  own name, with room to spare: tb_spec() asserts it) */
#define TB_HEADER_MAX (TB_SPEC + 256)   /* the header of the longest spec */
#define TB_MAX_HOLES 16        /* both sides */
#define TB_MAX_SEEDS 64


struct pmn_tablebase {
    pmn_rules rules;
    char spec[TB_SPEC];
    unsigned header;           /* a layer file's header, bytes (tb_spec_header()) */
    unsigned k;                /* holes, both sides */
    unsigned seeds;            /* layers 0..seeds are held */
    int own;                   /* own seeds: a code a position, which its layer's
                                  table reads as U, L and a hole (own_*) */
    int coded;                 /* a code a position: its value, and the winner's hole
                                  (positions repeat, one value: tb_coded(), tb_code_of()) */
    int kalah;                 /* Kalah's sowing serves (engine_sows_as_kalah()): tb_kalah_sow() */
    char dir[4096];            /* where it was opened from */
    int damaged;               /* a probe met a value no position can have, or a
                                  layer whose body is not what its header says */
    /* checked[n]: the layer of n seeds read whole by this process --
     * LAYER_UNREAD, LAYER_SOUND (its checksum seen, every value one its
     * seeds can make) or LAYER_DAMAGED; a probe reads a layer whole at its
     * first value (tb_layer_sound()), so that no value is called exact from a
     * body that is not the one built.  check_lock serialises those reads. */
    int checked[TB_MAX_SEEDS + 1];
    pthread_mutex_t check_lock;
    const int8_t *layer[TB_MAX_SEEDS + 1];
    uint64_t size[TB_MAX_SEEDS + 1];
    size_t mapped[TB_MAX_SEEDS + 1];   /* bytes mapped (header included); 0: malloc'd */
    void *base[TB_MAX_SEEDS + 1];
    /* lay[j][s]: the ways to lay s seeds in j holes, tb_ways(s, j) (the index) */
    uint64_t lay[TB_MAX_HOLES + 1][TB_MAX_SEEDS + 1];
    /* past[t][s]: lay[k - t + 1][s] - lay[k - t][s], what rank_of takes off
     * for s seeds in the holes from t on */
    uint64_t past[TB_MAX_HOLES][TB_MAX_SEEDS + 1];
    /* A build's caller, told now and then how far the layer being built is
     * (pmn_tablebase_build), or NULL. */
    pmn_tablebase_fn progress;
    void *progress_ctx;
    /* value_of[n][c]: the value of code c in the layer of n seeds, or
     * INT8_MIN for a code no position has (coded layers) */
    int8_t value_of[TB_MAX_SEEDS + 1][256];
    /* Own seeds: what code c of the layer of n seeds stands for, from the
     * layer's table (tb_own_table_read()): U, L, and the hole the winner
     * moves from where U = L > 0 (else -1); own_hi INT8_MIN for a code no
     * position has. */
    int8_t own_hi[TB_MAX_SEEDS + 1][256], own_lo[TB_MAX_SEEDS + 1][256],
        own_hole[TB_MAX_SEEDS + 1][256];
};

enum { LAYER_UNREAD, LAYER_SOUND, LAYER_DAMAGED };

/* The table that ends an own-seeds layer's body: 256 U, then 256 L, then
 * 256 holes, signed bytes (a code no position has: U = L = INT8_MIN, the
 * hole -1). */
#define OWN_TABLE (3 * 256)

/* Codes (coded layers; K holes a side, n seeds): a value v <= 0 is the
 * code n + v; a value v > 0 with the hole h the winner moves from to keep
 * it, the code n + 1 + (v - 1) * K + h.  The largest, n * (K + 1), must
 * fit a byte: 36 seeds on six holes a side, 28 on eight. */
static inline unsigned tb_code_top(const pmn_tablebase *tb, unsigned n)
{
    return n * (tb->k / 2 + 1);
}

static inline uint8_t tb_code_of(const pmn_tablebase *tb, unsigned n, int v, int hole)
{
    assert(v <= 0 || (hole >= 0 && (unsigned)hole < tb->k / 2));
    return (uint8_t)(v <= 0 ? (int)n + v : (int)n + 1 + (v - 1) * (int)(tb->k / 2) + hole);
}

/* The hole the winner of the position with code c (layer n) moves from,
 * or -1 (a value of 0 or less: no move held; own seeds: bounds apart). */
static inline int tb_code_hole(const pmn_tablebase *tb, unsigned n, uint8_t c)
{
    if (tb->own)
        return tb->own_hole[n][c];
    return c <= n ? -1 : (int)((c - n - 1) % (tb->k / 2));
}

/* The value(s) held at a sound cell c of the layer of n seeds: hi (U) and
 * lo (L), the same where a position has one. */
static inline void tb_cell_values(const pmn_tablebase *tb, unsigned n, const int8_t *c, int *hi,
                               int *lo)
{
    if (tb->own) {
        *hi = tb->own_hi[n][(uint8_t)c[0]];
        *lo = tb->own_lo[n][(uint8_t)c[0]];
    } else if (tb->coded) {
        *hi = *lo = tb->value_of[n][(uint8_t)c[0]];
    } else {
        *hi = *lo = c[0];
    }
}


/* ---- the index ------------------------------------------------------------ */

/* The ways to lay s seeds in j holes: C(s + j - 1, j - 1). */
static inline uint64_t tb_ways(unsigned s, unsigned j)
{
    if (j == 0)
        return s == 0;
    uint64_t w = 1;
    for (unsigned i = 1; i < j; i++)
        w = w * (s + i) / i;   /* exact: a binomial at every step */
    return w;
}


/* The rank of the counts h[0..k) (n seeds) in their layer: hole by hole,
 * the ways to lay the S_i seeds left in the k - i holes from this one on
 * with fewer in this one than h[i] -- all the ways less those with at
 * least h[i] here, lay[k - i][S_i] - lay[k - i][S_i+1].  Summed, that is
 * lay[k][n] - 1 less past[t][S_t] for each t from 1: one look-up a hole,
 * in a table of 8 KB.  (A table of the sums themselves, 540 KB, left the
 * cache: ranking took a third of a Kalah build.) */
static inline uint64_t tb_rank_in(const pmn_tablebase *tb, const uint8_t *h, unsigned n,
                               unsigned k)
{
    unsigned left = n;
    uint64_t r = tb->lay[k][n] - 1;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
    for (unsigned t = 1; t < k; t++) {
        left -= h[t - 1];
        r -= tb->past[t][left];
    }
    return r;
}

/* (The boards of four to six holes a side, unrolled: their ranking was a
 * quarter of a Kalah build's time.) */
static inline uint64_t tb_rank_of(const pmn_tablebase *tb, const uint8_t *h, unsigned n)
{
    switch (tb->k) {
    case 12: return tb_rank_in(tb, h, n, 12);
    case 10: return tb_rank_in(tb, h, n, 10);
    case 8: return tb_rank_in(tb, h, n, 8);
    default: return tb_rank_in(tb, h, n, tb->k);
    }
}

/* The counts of rank r in the layer of n seeds. */
static inline void tb_unrank(const pmn_tablebase *tb, uint64_t r, unsigned n, uint8_t *h)
{
    unsigned rem = n, k = tb->k;
    for (unsigned i = 0; i + 1 < k; i++) {
        /* The most seeds x in hole i whose lower ranks are no more than
         * r: lay[j][rem] - lay[j][rem - x] <= r, j = k - i (tb_rank_of()). */
        const uint64_t *l = tb->lay[k - i];
        uint64_t floor = l[rem] - r;   /* lay[j][rem - x] must stay at least this */
        unsigned x = 0;
        while (x < rem && l[rem - x - 1] >= floor)
            x++;
        r -= l[rem] - l[rem - x];
        h[i] = (uint8_t)x;
        rem -= x;
    }
    h[k - 1] = (uint8_t)rem;
}

/* The counts of the next rank (the lexicographic successor). */
static inline void tb_successor(uint8_t *h, unsigned k)
{
    if (h[k - 1] > 0) {
        h[k - 2]++;
        h[k - 1]--;
        return;
    }
    unsigned j = k - 2;
    while (h[j] == 0)
        j--;
    h[j - 1]++;
    h[k - 1] = (uint8_t)(h[j] - 1);
    h[j] = 0;
}

/* The holes of p from its side to move's seat, and their seeds. */
static inline unsigned tb_counts_of(const pmn_rules *r, const pmn_position *p, uint8_t *h)
{
    assert(r->pits <= TB_MAX_HOLES / 2);   /* (h has TB_MAX_HOLES) */
    return tablebase_counts(r->pits, p, h);
}

static inline void tb_position_of(const pmn_rules *r, const uint8_t *h, pmn_position *p)
{
    unsigned m = r->pits;
    memset(p, 0, sizeof *p);
    for (unsigned i = 0; i < m; i++) {
        p->pit[0][i] = (uint16_t)h[i];
        p->pit[1][i] = (uint16_t)h[m + i];
    }
}

/* A position's moves, sown and not yet valued in full: what the walk
 * (tb_walk_layer()) carries of each position on its path.  The moves that
 * end the game are valued at once (best); those that leave the layer
 * wait for their value below, asked for (prefetched) but not yet read --
 * they are the build's cache misses, and the walk reads them a while
 * later (tb_sown_best()), when they have arrived; those that stay in the
 * layer are its kids, with their counts. */
struct sown {
    int best;                                 /* of the moves valued at once */
    unsigned nread, nkids;
    const int8_t *cell[TB_MAX_HOLES / 2];     /* a layer below's value, */
    int8_t gain[TB_MAX_HOLES / 2];            /* plus the seeds stored on the way, */
    uint8_t again[TB_MAX_HOLES / 2];          /* and whose the move after is */
    uint64_t kid[TB_MAX_HOLES / 2];           /* ranks in the layer */
    uint8_t kid_h[TB_MAX_HOLES / 2][TB_MAX_HOLES];
};

/* The best of s's moves but its kids, the layers below read. */
static inline int tb_sown_best(const struct sown *s)
{
    int best = s->best;
    for (unsigned i = 0; i < s->nread; i++) {
        int v = s->again[i] ? s->gain[i] + *s->cell[i] : s->gain[i] - *s->cell[i];
        if (v > best)
            best = v;
    }
    return best;
}

/* ---- building a layer ----------------------------------------------------- */

/* A layer's body: a byte a position, then with own seeds the table of
 * what its codes stand for (OWN_TABLE). */
static inline uint64_t tb_body_bytes(const pmn_tablebase *tb, unsigned n)
{
    uint64_t c = tb->size[n];
    return c + (tb->own ? OWN_TABLE : 0) + (c == 0);
}

struct layer {
    const pmn_tablebase *tb;
    const pmn_rules *r;
    unsigned n;
    uint64_t size;
    int8_t *exit;              /* E: the best move out, or INT8_MIN */
    int8_t *exit_low;          /* own seeds: the L nodes' E; else NULL */
    uint8_t *open;             /* moves in the layer not yet known to lead to v or more */
    uint32_t *cursor;          /* in-degree, then where each predecessor list ends */
    uint32_t *pred;            /* the predecessors of each position, one list after another */
    int pass;                  /* 1: count the moves in the layer; 2: list them */
    /* The positions by their best exit, e from -n to n: by_exit[exit_at[e + n]
     * .. exit_at[e + n + 1]) (none without an exit), so that each level of
     * tb_solve_graph() takes those of its value without a scan of the layer */
    uint32_t *by_exit;
    uint64_t exit_at[2 * TB_MAX_SEEDS + 2];
    unsigned threads;          /* for the passes and the large generations of
                                  tb_solve_graph() */
    /* Coded layers: the hole the winner of each position plays to keep
     * its value (pass 1: the best exit's; tb_solve_graph(): the move to the
     * node that made it a winner, a ply nearer the way out), and in pred[]
     * beside each predecessor the hole it moves from (PRED_HOLE). */
    uint8_t *hole;
    /* tb_solve_own() with a history: the own seeds of each rank, for its
     * side to move, which a TERMINAL node (a position of before) is worth
     * to its seats' South; NULL in a build. */
    const int8_t *own_of;
};

/* A predecessor list's entry: the rank, and above it the hole (coded
 * layers). */
#define PRED_HOLE 29
#define PRED_RANK ((UINT32_C(1) << PRED_HOLE) - 1)

enum { UNKNOWN = 0, AT_LEAST = 1, AT_MOST = 2,
       TERMINAL = 3 };   /* a node that ends the game, worth 0: never valued */

/* What tb_solve_graph() and tb_solve_own() hand each thread of a generation:
 * the level's arrays, and the nodes of the generation it spreads from. */
struct spread {
    const struct layer *L;
    unsigned sides;
    uint8_t *state, *open;
    uint32_t *queue;
    int8_t *value;
    int v;                     /* the level: v (solve_graph), t (solve_own) */
    int own;                   /* tb_solve_own()'s rule, not tb_solve_graph()'s */
    uint64_t from, to;         /* the generation's part, in queue (or the
                                  nodes a scan looks at) */
    uint64_t *tail;            /* where the next generation grows */
    int shared;                /* other threads beside: updates are atomic */
};

/* Room for this many nodes a thread finds before it appends them to the
 * queue in one step (one atomic add a batch, not a node). */
#define SPREAD_BATCH 1024

/* A winner's hole found by the spread: the lowest of his moves to the
 * generation before his -- the same whatever thread (or process) claimed
 * him, so that the files are the same on any number of threads or
 * processes (the claimer's own move would not be).  While the generation
 * is made, its winners hold HOLE_PENDING, then the lowest such hole with
 * HOLE_NEW set, cleared when the generation is whole (tb_spread_level()). */
#define HOLE_NEW 0x80
#define HOLE_PENDING 0xFF

struct found {
    unsigned n;
    uint32_t x[SPREAD_BATCH];
};


/* Own seeds: a layer's graph for the search with the path (tb_own.c). */
struct cycle_graph {
    uint64_t size;
    uint32_t *first;           /* the moves of rank r: kid[first[r] .. first[r + 1]) */
    uint32_t *kid;
    int8_t *own;               /* seeds on the side to move's side less the other's */
    const int8_t *exit_hi, *exit_lo;   /* the best move out: as U and L read them */
    int8_t *hi, *lo;           /* U and L */
    /* With a history (NULL in a build): U and L of each node, side to
     * move * size + rank, the positions of before ending the game. */
    int8_t *hi2, *lo2;
    int exits_exact;           /* exit_hi == exit_lo everywhere */
};

struct cycle_search {
    const struct cycle_graph *g;
    uint8_t *on_path;          /* [rank * 2 + parity]: on the path */
    uint64_t nodes, budget;
    uint64_t total;            /* the nodes of every search cycle_both made */
    unsigned depth;            /* the path's length (CYCLE_DEPTH at most: the stack) */
    int stopped;               /* the budget ran out: the value means nothing */
    int high;                  /* 1: the exits the root's side to move likes best */
    unsigned root_side;        /* the root's side to move (hi2, lo2) */
    int path_max, path_min;    /* the own seeds of the path's positions, for the
                                  root's side to move (INT8 bounds when empty) */
};

/* Own seeds: a layer's search in rounds (tb_own.c), its budget spent in
 * the order of the ranks whoever makes the searches. */
struct cycle_rounds {
    const struct cycle_graph *g;
    uint32_t *todo;            /* the open ranks, in order: todo[0 .. n) */
    uint8_t *found;            /* todo[j]'s search found its value */
    uint64_t n;
    uint64_t done;             /* todo[0 .. done) committed */
    uint64_t budget;           /* a search's, this round */
    uint64_t spent, limit;     /* what the searches committed spent; past limit,
                                  the round stops */
    int stopped;
};

/* One search's outcome, made anywhere, committed in order. */
struct cycle_outcome {
    uint64_t nodes;            /* what it spent of the layer's budget */
    int8_t lo, hi;             /* the value's bounds, where found */
    uint8_t found;
};

int tb_own_table_read(pmn_tablebase *tb, unsigned n, const int8_t *v);
void tb_kalah_sow(const pmn_tablebase *tb, const uint8_t *h, unsigned n,
                      const int8_t *here, struct sown *out);
int tb_exits(const pmn_tablebase *tb, const pmn_rules *r, const uint8_t *h, unsigned n,
                 void (*inner)(void *ctx, uint64_t child, const uint8_t *counts, int hole),
                 void *ctx, int *low, int *best_hole, int values);
void tb_layer_progress(const struct layer *L, double step, double within);
void tb_on_threads(void *(*fn)(void *), void *args, size_t size, unsigned n);
void tb_found_flush(struct spread *s, struct found *f);
void tb_found_add(struct spread *s, struct found *f, uint32_t p);
void tb_spread_run(struct spread *base, void *(*fn)(void *), uint64_t from, uint64_t to,
                       uint64_t *tail);
void tb_spread_level(struct spread *base, uint64_t head, uint64_t *tail);
void tb_solve_graph(const struct layer *L, unsigned sides, uint8_t *state, uint8_t *open,
                        uint32_t *queue, int8_t *value);
void tb_solve_own(const struct layer *L, uint8_t *state, uint8_t *open, uint32_t *queue,
                      int8_t *w);
int tb_cycle_both(struct cycle_search *s, uint32_t r, int alpha, int beta, int v[2]);
void tb_cycle_graph_free(struct cycle_graph *g);
int tb_cycle_graph_make(const struct layer *L, const int8_t *w, struct cycle_graph *g);
int tb_cycle_prepare(struct layer *L, int8_t *w, struct cycle_graph *g, struct cycle_rounds *c);
void tb_cycle_rounds_free(struct cycle_rounds *c);
void tb_cycle_round(struct cycle_rounds *c, int round);
void tb_cycle_search(struct cycle_search *s, const struct cycle_rounds *c, uint32_t r,
                     struct cycle_outcome *o);
int tb_cycle_commit(struct cycle_rounds *c, const struct cycle_outcome *o, int8_t *w,
                    uint8_t *hole);
int tb_cycle_solve(struct layer *L, int8_t *w);
int tb_own_bounds(const struct layer *L, int8_t *w);
int tb_own_codes(const struct layer *L, const int8_t *w, int8_t *value);
int tb_propagate_own(struct layer *L, int8_t *value);
int tb_propagate(struct layer *L, int8_t *value);
/* The positions [0, m) of a layer of n seeds by their best exit, e from
 * -n to n: by[at[e + n] .. at[e + n + 1]), in the ranks' order (a counting
 * sort; those with no exit left out), so that each level of a solve takes
 * those of its value without a scan.  at holds 2 * TB_MAX_SEEDS + 2. */
void tb_by_exit(const int8_t *exit, uint64_t m, unsigned n, uint64_t *at, uint32_t *by);
void tb_layer_free(struct layer *L);
int tb_layer_graph(const pmn_tablebase *tb, unsigned n, unsigned threads, struct layer *L,
                       pmn_error *err);
int tb_walk_layer(const pmn_tablebase *tb, unsigned n, int8_t *value);
void tb_layer_path(const pmn_tablebase *tb, const char *dir, unsigned n, char *buf,
                       size_t size);
unsigned tb_spec_header(const char *spec);
int tb_write_layer(const pmn_tablebase *tb, const char *dir, unsigned n, const int8_t *v,
                       pmn_error *err);
const char *tb_body_unsound(const pmn_tablebase *tb, unsigned n, const unsigned char *h);
int tb_map_layer(pmn_tablebase *tb, const char *dir, unsigned n, int verify,
                     pmn_error *err);
int tb_cell_sound(const pmn_tablebase *tb, unsigned n, const int8_t *c);
int tb_layer_sound(const pmn_tablebase *tb, unsigned n);

/* A layer's header (tb->header bytes at h) whose body's checksum is
 * `checksum`: tb_checksum() over the body, from TB_CHECKSUM_START, in
 * pieces if need be (the FNV-1a of the whole is that of its pieces in
 * order, each from the one before's). */
void tb_layer_header(const pmn_tablebase *tb, unsigned n, uint64_t checksum, unsigned char *h);
uint64_t tb_checksum(const void *data, size_t n, uint64_t h);
#define TB_CHECKSUM_START 0xCBF29CE484222325ULL

/* For a build across processes (src/mpi/tablebase_mpi.c): the databases of
 * r with no layer yet, as a build starts them (NULL and *err where r have
 * none); and the layer of n seeds read from dir, whole and checked, as a
 * build reads what is there: 1, 0 (not there), -1 (*err: unusable), -2
 * (of another format version: to be made again). */
pmn_tablebase *tablebase_new(const pmn_rules *r, pmn_error *err);
int tablebase_load_layer(pmn_tablebase *tb, const char *dir, unsigned n, pmn_error *err);

/* For the tests: where tb's rules sow as Kalah (its builder then plays
 * them on the counts), does that give, on every position of every layer
 * tb holds, the value and the moves within the layer that pmn_play gives?
 * The positions compared; 0 where the rules are not Kalah's; -1 at the
 * first that differs. */
long tablebase_kalah_agrees(const pmn_tablebase *tb);

#endif
