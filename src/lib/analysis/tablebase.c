/* tablebase.c - endgame databases of the games scored by seeds: every
 * position with at most N seeds in play, valued exactly by retrograde
 * analysis, layer by layer of seeds in play.
 *
 * Values.  A position is its holes seen from the side to move (his first,
 * then his opponent's), whoever that is: the rules are the same for both.
 * Its value is the best final margin of the seeds still in play for the
 * side to move, what is banked already not counted; it lies in -n..n for a
 * layer of n seeds, one signed byte.  The rules must make that margin
 * depend on the holes alone (pmn_tablebase_check_rules says which do).
 *
 * Own seeds.  Where a repetition gives each side the seeds on its side
 * (Oware's repetition=own-side), a position's value depends on the moves
 * since the last capture; the files hold its value as a new game (just
 * made by a capture), found where the bounds below meet and otherwise by
 * a search with the path (cycle_value()), and the bounds where that search
 * passes its budget.  Such a layer holds two a position, bounds U and L
 * of its value as a new game; where L = U it is exact.  Both come from one
 * solve of the layer's positions with both seats apart, endless play
 * going to South (solve_own(): a side that forces play out of the layer
 * never repeats a position, whatever the rest counts), narrowed by the
 * endless games a side wins with a strategy of no memory
 * (own_recurrence()): South to move, it is U; North to move, L.
 *
 * Layers.  A move that banks seeds (a capture, a seed stored) goes to a
 * lower layer, whose values are known; a move that banks none stays in the
 * layer and hands the turn over.  Within a layer positions may form cycles
 * (Oware, Awale): a repeated position ends the game with the seeds left
 * uncounted, a margin of 0 for what is still in play, which is also what
 * endless play inside a layer would be worth -- so a value is the rules'
 * with or without the path, and the layer is solved as a graph:
 *   E(P)  the best of P's moves that leave the layer (or end the game);
 *   V(P)  = max(E(P), max over P's moves in the layer to C of -V(C)),
 *         0 where both sides can keep play in the layer for ever.
 * It is solved from the highest value down: at level v (n, n-1, ..., 1),
 * the positions worth v are those with E = v, or with a move to a position
 * worth -v; a position is worth -v when its best exit is at most -v and
 * every move in the layer leads to a position worth v or more (counters of
 * the moves not yet known to do so).  The predecessors of a position are
 * found by playing every move forward once more, not by unplaying.  Where
 * no position repeats (Kalah) there is no cycle to solve: walk_layer()
 * values each position once, after the positions its moves lead to.
 *
 * Files.  One a layer, DIR/pmn-HASH-NN.tb (HASH: of the rules' spec, NN:
 * the seeds in play; the spec with 4 seeds a hole at the start, whatever
 * the rules say, since a position's value does not depend on how the game
 * began: one set of files serves Kalah(6,4), (6,5) and (6,6)): a header of 256 bytes -- "PMNTBASE", the format version, the
 * header's size, the holes a side, the seeds, the positions, an FNV-1a
 * checksum of the body, the rules' spec whole (a spec longer than 191
 * characters makes the header as many blocks of 256 as hold it:
 * spec_header()) -- then the body, in the order of
 * the index below: where no position repeats (Kalah), one signed byte a
 * position, its value (any line that keeps the value ends).  Where
 * positions can repeat, a line that keeps the value may go round the
 * layer for ever: a winner must move nearer the way out.  The solve finds
 * each position's depth (the plies in which the side that wins the value
 * can force a move out of the layer), and the file holds, a byte a
 * position, a code (code_of()): the value, and where it is positive the
 * hole the winner moves from -- out of the layer at that value, or to a
 * position of smaller depth -- so that a line of such moves leaves the
 * layer whatever the loser does.  With own seeds, a byte a position too:
 * a code that the table at the end of the body (OWN_TABLE, 768 bytes)
 * reads as U, L and, where they meet above 0, the hole the winner moves
 * from (his move that forces play out, solve_own()); a layer with more
 * than 256 kinds of them is refused by the build (Oware's of 12 seeds
 * has 87).  (Format version 6: version 5, still read where no position
 * keeps own seeds, held bounds whose layers below were bounds too; version 4 held U, L and two depths with
 * own seeds, version 3 a value and a depth where positions repeat,
 * version 1 16-bit depths for every game, version 2 depths where
 * positions repeat: all are refused, not misread.)  A layer is written to a
 * temporary file and renamed when whole, so an interrupted build leaves the
 * finished layers, which the next build reads instead of computing again.
 *
 * Index.  The positions of a layer of n seeds in k holes are ranked in
 * the lexicographic order of the counts, the first hole most significant:
 * the rank adds, hole by hole, the number of ways to lay the seeds left
 * when that hole holds fewer. */
#include "pmn.h"
#include "../engine/play.h"
#include "tablebase.h"
#include "../base/util.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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
#define TB_HEADER 256          /* the least header; more for a long spec (spec_header()) */
#define TB_SPEC 1024           /* the longest spec (every option of a rule file's
                                  own name, with room to spare: tb_spec() asserts it) */
#define TB_HEADER_MAX (TB_SPEC + 256)   /* the header of the longest spec */
#define TB_MAX_HOLES 16        /* both sides */
#define TB_MAX_SEEDS 64


struct pmn_tablebase {
    pmn_rules rules;
    char spec[TB_SPEC];
    unsigned header;           /* a layer file's header, bytes (spec_header()) */
    unsigned k;                /* holes, both sides */
    unsigned seeds;            /* layers 0..seeds are held */
    int own;                   /* own seeds: a code a position, which its layer's
                                  table reads as U, L and a hole (own_*) */
    int coded;                 /* a code a position: its value, and the winner's hole
                                  (positions repeat, one value: coded(), code_of()) */
    int kalah;                 /* Kalah's sowing serves (engine_sows_as_kalah()): kalah_sow() */
    char dir[4096];            /* where it was opened from */
    int damaged;               /* a probe met a value no position can have, or a
                                  layer whose body is not what its header says */
    /* checked[n]: the layer of n seeds read whole by this process --
     * LAYER_UNREAD, LAYER_SOUND (its checksum seen, every value one its
     * seeds can make) or LAYER_DAMAGED; a probe reads a layer whole at its
     * first value (layer_sound()), so that no value is called exact from a
     * body that is not the one built.  check_lock serialises those reads. */
    int checked[TB_MAX_SEEDS + 1];
    pthread_mutex_t check_lock;
    const int8_t *layer[TB_MAX_SEEDS + 1];
    uint64_t size[TB_MAX_SEEDS + 1];
    size_t mapped[TB_MAX_SEEDS + 1];   /* bytes mapped (header included); 0: malloc'd */
    void *base[TB_MAX_SEEDS + 1];
    /* lay[j][s]: the ways to lay s seeds in j holes, ways(s, j) (the index) */
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
     * layer's table (own_table_read()): U, L, and the hole the winner
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
static unsigned code_top(const pmn_tablebase *tb, unsigned n)
{
    return n * (tb->k / 2 + 1);
}

static uint8_t code_of(const pmn_tablebase *tb, unsigned n, int v, int hole)
{
    assert(v <= 0 || (hole >= 0 && (unsigned)hole < tb->k / 2));
    return (uint8_t)(v <= 0 ? (int)n + v : (int)n + 1 + (v - 1) * (int)(tb->k / 2) + hole);
}

/* The hole the winner of the position with code c (layer n) moves from,
 * or -1 (a value of 0 or less: no move held; own seeds: bounds apart). */
static int code_hole(const pmn_tablebase *tb, unsigned n, uint8_t c)
{
    if (tb->own)
        return tb->own_hole[n][c];
    return c <= n ? -1 : (int)((c - n - 1) % (tb->k / 2));
}

static void codes_init(pmn_tablebase *tb)
{
    memset(tb->own_hi, INT8_MIN, sizeof tb->own_hi);   /* (no layer's table read yet) */
    for (unsigned n = 0; n <= TB_MAX_SEEDS; n++)
        for (unsigned c = 0; c < 256; c++)
            tb->value_of[n][c] = code_top(tb, n) > 255 || c > code_top(tb, n) ? INT8_MIN
                               : c <= n ? (int8_t)((int)c - (int)n)
                               : (int8_t)(1 + (c - n - 1) / (tb->k / 2));
}

/* Own seeds: the table of the layer of n seeds, at the end of its body
 * v, read into tb->own_*[n].  0; -1 when an entry is one no position can
 * have (bounds past the seeds, L above U, a hole where there is no
 * winner, or none where there is): a corrupt or forged file. */
static int own_table_read(pmn_tablebase *tb, unsigned n, const int8_t *v)
{
    const int8_t *t = v + tb->size[n];
    int most = (int)n, holes = (int)(tb->k / 2);
    for (unsigned c = 0; c < 256; c++) {
        int u = t[c], l = t[256 + c], h = t[512 + c];
        int unused = u == INT8_MIN && l == INT8_MIN && h == -1;
        int winner = u == l && u > 0;
        /* (a winner without a hole: his value found by the search with the
         * path, cycle_solve(), whose moves no one hole keeps) */
        if (!unused && (u > most || l < -most || l > u || h < -1 || h >= holes
                        || (h >= 0 && !winner)))
            return -1;
        tb->own_hi[n][c] = (int8_t)u;
        tb->own_lo[n][c] = (int8_t)l;
        tb->own_hole[n][c] = (int8_t)h;
    }
    return 0;
}

/* The value(s) held at a sound cell c of the layer of n seeds: hi (U) and
 * lo (L), the same where a position has one. */
static inline void cell_values(const pmn_tablebase *tb, unsigned n, const int8_t *c, int *hi,
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

static int cell_sound(const pmn_tablebase *tb, unsigned n, const int8_t *c);

/* ---- the index ------------------------------------------------------------ */

/* The ways to lay s seeds in j holes: C(s + j - 1, j - 1). */
static uint64_t ways(unsigned s, unsigned j)
{
    if (j == 0)
        return s == 0;
    uint64_t w = 1;
    for (unsigned i = 1; i < j; i++)
        w = w * (s + i) / i;   /* exact: a binomial at every step */
    return w;
}

static void index_init(pmn_tablebase *tb)
{
    for (unsigned j = 0; j <= TB_MAX_HOLES; j++)
        for (unsigned s = 0; s <= TB_MAX_SEEDS; s++)
            tb->lay[j][s] = ways(s, j);
    for (unsigned t = 1; t < tb->k; t++)
        for (unsigned s = 0; s <= TB_MAX_SEEDS; s++)
            tb->past[t][s] = tb->lay[tb->k - t + 1][s] - tb->lay[tb->k - t][s];
}

/* The rank of the counts h[0..k) (n seeds) in their layer: hole by hole,
 * the ways to lay the S_i seeds left in the k - i holes from this one on
 * with fewer in this one than h[i] -- all the ways less those with at
 * least h[i] here, lay[k - i][S_i] - lay[k - i][S_i+1].  Summed, that is
 * lay[k][n] - 1 less past[t][S_t] for each t from 1: one look-up a hole,
 * in a table of 8 KB.  (A table of the sums themselves, 540 KB, left the
 * cache: ranking took a third of a Kalah build.) */
static inline uint64_t rank_in(const pmn_tablebase *tb, const uint8_t *h, unsigned n,
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
static uint64_t rank_of(const pmn_tablebase *tb, const uint8_t *h, unsigned n)
{
    switch (tb->k) {
    case 12: return rank_in(tb, h, n, 12);
    case 10: return rank_in(tb, h, n, 10);
    case 8: return rank_in(tb, h, n, 8);
    default: return rank_in(tb, h, n, tb->k);
    }
}

/* The counts of rank r in the layer of n seeds. */
static void unrank(const pmn_tablebase *tb, uint64_t r, unsigned n, uint8_t *h)
{
    unsigned rem = n, k = tb->k;
    for (unsigned i = 0; i + 1 < k; i++) {
        /* The most seeds x in hole i whose lower ranks are no more than
         * r: lay[j][rem] - lay[j][rem - x] <= r, j = k - i (rank_of()). */
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
static void successor(uint8_t *h, unsigned k)
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
static unsigned counts_of(const pmn_rules *r, const pmn_position *p, uint8_t *h)
{
    assert(r->pits <= TB_MAX_HOLES / 2);   /* (h has TB_MAX_HOLES) */
    return tablebase_counts(r->pits, p, h);
}

static void position_of(const pmn_rules *r, const uint8_t *h, pmn_position *p)
{
    unsigned m = r->pits;
    memset(p, 0, sizeof *p);
    for (unsigned i = 0; i < m; i++) {
        p->pit[0][i] = (uint16_t)h[i];
        p->pit[1][i] = (uint16_t)h[m + i];
    }
}

/* ---- the rules ------------------------------------------------------------- */

/* Why databases cannot be made for r, a game of their shape, or NULL;
 * *near (if not NULL) gets r with what stands in the way changed as little
 * as the reasons say, for the message to name the rules that can be
 * built. */
static const char *unfit(const pmn_rules *r, pmn_rules *near)
{
    pmn_rules n = *r;
    const char *why = NULL;
    if (r->last_seeds != PMN_LAST_PLAY_ON) {
        why = why ? why : "the last seeds' rule looks at who captured: databases need "
                          "last-seeds=play-on";
        n.last_seeds = PMN_LAST_PLAY_ON;
    }
    if (r->no_move == PMN_NO_MOVE_PASS) {
        why = why ? why : "databases need a game that ends when the player to move cannot "
                          "(no-move=collect or loses), not pass";
        n.no_move = PMN_NO_MOVE_COLLECT;
    }
    if (!rules_acyclic(r) && ((r->repetition != PMN_REPETITION_UNCOUNTED
                               && r->repetition != PMN_REPETITION_OWN_SIDE)
                              || r->one_side_plays_on)) {
        why = why ? why
            : r->repetition == PMN_REPETITION_DRAW
            ? "a repeated position that draws whatever the seeds makes a value depend on the "
              "moves before it: databases need repetition=uncounted or own-side"
            : "a repeated position that may play on makes a value depend on the moves before "
              "it: databases need repetition=uncounted or own-side";
        n.repetition = PMN_REPETITION_UNCOUNTED;
        n.one_side_plays_on = 0;
    }
    if (near)
        *near = n;
    return why;
}

/* Rules whose databases are another set's: with a majority (more than
 * half the seeds win at once, Oware's and Awale's), a game is the same as
 * the one that plays every seed out until a side first has more than half
 * -- and that side wins both -- so the databases of majority=no decide its
 * result, though not its margin.  *n gets r without its majority; returns
 * why databases cannot be made for those either (unfit()), or NULL. */
static const char *without_majority(const pmn_rules *r, pmn_rules *n, pmn_rules *near)
{
    *n = *r;
    n->majority = 0;
    n->majority_sweep = 0;
    return unfit(n, near);
}

/* 1 with *served (r with majority=no) if r has a majority and those
 * databases can be built, else 0. */
static int served_by(const pmn_rules *r, pmn_rules *served)
{
    pmn_rules n;
    if (!r->majority || without_majority(r, &n, NULL))
        return 0;
    *served = n;
    return 1;
}

void pmn_tablebase_built_rules(const pmn_rules *r, pmn_rules *built)
{
    if (!served_by(r, built))
        *built = *r;
}

int tablebase_outcome_only(const pmn_tablebase *tb, const pmn_rules *r)
{
    return r->majority && !tb->rules.majority;
}

int pmn_tablebase_check_rules(const pmn_rules *r, pmn_error *err)
{
    char shape[96], rules[256], spec[256] = "";
    const char *why;
    pmn_rules near;
    if (r->goal != PMN_GOAL_MOST_SEEDS || r->laps != PMN_LAPS_SINGLE
        || r->cycle != PMN_CYCLE_BOTH_SIDES) {
        why = "databases are made for the games scored by seeds, sown one lap round the board "
              "(Kalah, Oware, Awale)";
    } else if (2 * r->pits > TB_MAX_HOLES) {
        snprintf(shape, sizeof shape, "databases hold boards of at most %u holes a side",
                 TB_MAX_HOLES / 2);
        why = shape;
    } else if (served_by(r, &near)) {
        return 0;
    } else if (r->majority) {
        /* The majority is served (served_by): what stands in the way is
         * the rest, and the rules to build keep the majority. */
        pmn_rules n;
        why = without_majority(r, &n, &near);
        assert(why && !unfit(&near, NULL));
        near.majority = r->majority;
        near.majority_sweep = r->majority_sweep;
        pmn_rules_format(&near, spec, sizeof spec);
    } else if ((why = unfit(r, &near))) {
        /* The first reason, and every change it takes at once (the
         * others' reasons are of the same kind). */
        assert(!unfit(&near, NULL));
        pmn_rules_format(&near, spec, sizeof spec);
    } else {
        return 0;
    }
    /* Which rules (a file's game may not be the one its user thought of),
     * why not, and which can be built. */
    pmn_rules_format(r, rules, sizeof rules);
    return util_fail(err, PMN_ERR_RANGE, 0, "the rules %s: %s%s%s", rules, why,
                     *spec ? "; databases can be built for " : "", spec);
}

/* ---- values of one position ------------------------------------------------- */

/* A position's moves, sown and not yet valued in full: what the walk
 * (walk_layer()) carries of each position on its path.  The moves that
 * end the game are valued at once (best); those that leave the layer
 * wait for their value below, asked for (prefetched) but not yet read --
 * they are the build's cache misses, and the walk reads them a while
 * later (sown_best()), when they have arrived; those that stay in the
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
static int sown_best(const struct sown *s)
{
    int best = s->best;
    for (unsigned i = 0; i < s->nread; i++) {
        int v = s->again[i] ? s->gain[i] + *s->cell[i] : s->gain[i] - *s->cell[i];
        if (v > best)
            best = v;
    }
    return best;
}

/* exits() of rules that sow as Kalah (engine_sows_as_kalah()), played on the
 * counts, into *out: no position is made, no move report, and a lap of the
 * board is added at once.  The value of each kid in `here` (the layer
 * being built), if not NULL, is asked for too.  It must give what exits()
 * gives through pmn_play: test_tablebase holds the two to the same values
 * and kids on every position of the small layers (tablebase_kalah_agrees()). */
static void kalah_sow(const pmn_tablebase *tb, const uint8_t *h, unsigned n,
                      const int8_t *here, struct sown *out)
{
    const unsigned m = tb->k / 2, len = 2 * m + 1;   /* own holes, the store, his */
    const int always = tb->rules.capture == PMN_CAPTURE_OPPOSITE_ALWAYS;
    unsigned own = 0, his = 0;
    out->nread = out->nkids = 0;
    for (unsigned i = 0; i < m; i++) {
        own += h[i];
        his += h[m + i];
    }
    if (own == 0 || his == 0) {
        out->best = (int)own - (int)his;   /* over: each side takes his own */
        return;
    }
    int best = INT8_MIN;
    unsigned nread = 0, nkids = 0;
    for (unsigned i = 0; i < m; i++) {
        if (h[i] == 0)
            continue;
        /* (no division where the seeds make less than a lap, as they
         * mostly do: a tenth of the build's time went to three of them) */
        unsigned seeds = h[i], laps = 0, rest = seeds;
        if (seeds >= len) {
            laps = seeds / len;
            rest = seeds % len;
        }
        unsigned last = i + rest < len ? i + rest : i + rest - len;
        int same = last == m;   /* the last seed in the store: he sows again */
        /* The child's counts straight in its side to move's order (his
         * own holes at mine, the other's at theirs), and in the place of
         * the next kid: kept there if it is one. */
        uint8_t *c = out->kid_h[nkids], *mine = same ? c : c + m, *theirs = same ? c + m : c;
        for (unsigned j = 0; j < m; j++) {
            mine[j] = (uint8_t)(h[j] + laps);
            theirs[j] = (uint8_t)(h[m + j] + laps);
        }
        mine[i] = (uint8_t)laps;
        /* The rest from the next hole on, round the cycle (own holes
         * 0..m-1, the store m, the other's m+1..2m) to e = i + rest (less
         * than i + len: back to his holes below i at most), a stretch at
         * a time (a branch a seed was a tenth of the build). */
        unsigned e = i + rest, stored = laps, to_mine;
        unsigned own_end = e < m ? e : m - 1;
        for (unsigned j = i + 1; j <= own_end; j++)
            mine[j]++;
        to_mine = own_end - i;
        if (e >= m) {
            stored++;
            if (e > m) {
                unsigned his_end = e - m - 1 < m ? e - m - 1 : m - 1;
                for (unsigned j = 0; j <= his_end; j++)
                    theirs[j]++;
            }
            if (e >= len) {
                for (unsigned j = 0; j <= e - len; j++)
                    mine[j]++;
                to_mine += e - len + 1;
            }
        }
        /* (the seeds not stored are on the board: his are the rest) */
        unsigned own_left = own - seeds + laps * m + to_mine, his_left = n - stored - own_left;
        if (last < m && mine[last] == 1) {
            unsigned facing = m - 1 - last;
            if (always || theirs[facing] > 0) {
                stored += 1u + theirs[facing];
                own_left -= 1;
                his_left -= theirs[facing];
                mine[last] = theirs[facing] = 0;
            }
        }
        if (own_left == 0 || his_left == 0) {
            int v = (int)stored + (int)own_left - (int)his_left;   /* the game ends */
            if (v > best)
                best = v;
            continue;
        }
        unsigned left = own_left + his_left;
        if (left == n) {
            assert(!same && stored == 0);
            uint64_t r = rank_of(tb, c, n);
            if (here)
                PREFETCH(&here[r]);
            out->kid[nkids++] = r;
            continue;
        }
        out->cell[nread] = &tb->layer[left][rank_of(tb, c, left)];
        PREFETCH(out->cell[nread]);
        out->gain[nread] = (int8_t)stored;
        out->again[nread++] = (uint8_t)same;
    }
    out->best = best;
    out->nread = nread;
    out->nkids = nkids;
}

struct kids_seen {
    unsigned n;
    uint64_t rank[TB_MAX_HOLES / 2];
};

static void note_kid(void *ctx, uint64_t child, const uint8_t *counts, int hole)
{
    struct kids_seen *k = ctx;
    (void)counts, (void)hole;
    assert(k->n < TB_MAX_HOLES / 2);
    k->rank[k->n++] = child;
}

static int exits(const pmn_tablebase *tb, const pmn_rules *r, const uint8_t *h, unsigned n,
                 void (*inner)(void *ctx, uint64_t child, const uint8_t *counts, int hole),
                 void *ctx, int *low, int *best_hole, int values);

long tablebase_kalah_agrees(const pmn_tablebase *tb)
{
    if (!tb->kalah)
        return 0;
    long compared = 0;
    uint8_t h[TB_MAX_HOLES];
    for (unsigned n = 0; n <= tb->seeds; n++)
        for (uint64_t i = 0; i < tb->size[n]; i++) {
            struct sown a;
            struct kids_seen b = { 0 };
            unrank(tb, i, n, h);
            kalah_sow(tb, h, n, NULL, &a);
            int va = sown_best(&a);
            int vb = exits(tb, &tb->rules, h, n, note_kid, &b, NULL, NULL, 1);
            /* (the same moves, in the same order: the holes' own) */
            if (va != vb || a.nkids != b.n || memcmp(a.kid, b.rank, a.nkids * sizeof a.kid[0]) != 0)
                return -1;
            compared++;
        }
    return compared;
}

/* South's final margin where the game ended (e, o) at p: 0 where it is
 * drawn or the rules count no seeds. */
static int end_margin(const pmn_rules *r, pmn_ending e, pmn_outcome o, const pmn_position *p)
{
    unsigned long seeds[2];
    return o == PMN_DRAWN || !pmn_final_seeds(r, e, p, seeds)
         ? 0 : (int)((long)seeds[0] - (long)seeds[1]);
}

/* What the move that made q from a position of the layer of n seeds (the
 * side to move South, as position_of() lays it; rep its report) is worth
 * to its mover, where it leaves the layer or ends the game: 1, and *v
 * (the U node's, with own seeds) and *vlow (the L node's).  Where it stays
 * in the layer: 0, and c the counts of where it leads.  Without `values`
 * the layers below are not read (*v and *vlow mean nothing). */
static int move_exit(const pmn_tablebase *tb, const pmn_rules *r, unsigned n,
                     const pmn_position *q, const pmn_move_report *rep, uint8_t *c, int *v,
                     int *vlow, int values)
{
    if (rep->ending != PMN_END_NONE) {
        *v = *vlow = end_margin(r, rep->ending, rep->outcome, q);
        return 1;
    }
    unsigned left = counts_of(r, q, c);
    int gain = (int)q->captured[0] - (int)q->captured[1];
    if (left == n) {
        assert(q->to_move == 1 && gain == 0);
        return 0;
    }
    if (!values)
        return 1;
    int hi, lo;
    cell_values(tb, left, &tb->layer[left][rank_of(tb, c, left)], &hi, &lo);
    if (q->to_move == 0) {   /* the same side moves again: the same bound */
        *v = gain + hi;
        *vlow = gain + lo;
    } else {                 /* the opponent's: his other bound */
        *v = gain - lo;
        *vlow = gain - hi;
    }
    return 1;
}

/* The value of p where the game ends as it stands: 1 and *v, else 0. */
static int ended(const pmn_rules *r, const pmn_position *p, int *v)
{
    pmn_outcome o;
    pmn_ending e = pmn_position_ending(r, p, &o);
    if (e == PMN_END_NONE)
        return 0;
    *v = end_margin(r, e, o, p);
    return 1;
}

/* The best final margin still to be made by the side to move of the
 * position with counts h (n seeds), from its moves that leave the layer
 * or end the game (lower layers read from tb); the moves that stay are
 * handed to `inner` with the rank of where they lead and the hole moved
 * from.  Returns the value, or INT8_MIN when no move leaves the layer;
 * *best_hole (if not NULL) gets the hole of the best (0 where there is
 * none).  With two values a position (own seeds), that is the U node's
 * (the lower layers' L read where the turn passes, U where it does not),
 * and *low (if not NULL) gets the L node's -- and then *best_hole its
 * hole, the one the files keep (the winner's where U = L).  Without `values`, the layers
 * below are not read: only the moves handed to `inner` are wanted, and
 * the value returned means nothing. */
static int exits(const pmn_tablebase *tb, const pmn_rules *r, const uint8_t *h, unsigned n,
                 void (*inner)(void *ctx, uint64_t child, const uint8_t *counts, int hole),
                 void *ctx, int *low, int *best_hole, int values)
{
    pmn_position p;
    int best = INT8_MIN, best_low = INT8_MIN, v, vlow;
    if (best_hole)
        *best_hole = 0;
    position_of(r, h, &p);
    if (ended(r, &p, &v)) {
        if (low)
            *low = v;
        return v;
    }
    int holes[PMN_MAX_SIDE_PITS];
    int nm = pmn_legal_moves(r, &p, holes);
    for (int i = 0; i < nm; i++) {
        pmn_position q = p;
        pmn_move_report rep;
        uint8_t c[TB_MAX_HOLES];
        pmn_play(r, &q, holes[i], &rep);
        if (!move_exit(tb, r, n, &q, &rep, c, &v, &vlow, values)) {
            inner(ctx, rank_of(tb, c, n), c, holes[i]);
            continue;
        }
        if (!values)
            continue;   /* (the moves in the layer alone are wanted) */
        if (v > best) {
            best = v;
            if (best_hole && !tb->own)
                *best_hole = holes[i];
        }
        if (vlow > best_low) {
            best_low = vlow;
            if (best_hole && tb->own)
                *best_hole = holes[i];
        }
    }
    if (low)
        *low = best_low;
    return best;
}

/* ---- building a layer ----------------------------------------------------- */

/* A layer's body: a byte a position, then with own seeds the table of
 * what its codes stand for (OWN_TABLE). */
static uint64_t body_bytes(const pmn_tablebase *tb, unsigned n)
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
     * solve_graph() takes those of its value without a scan of the layer */
    uint32_t *by_exit;
    uint64_t exit_at[2 * TB_MAX_SEEDS + 2];
    unsigned threads;          /* for the passes and the large generations of
                                  solve_graph() */
    /* Coded layers: the hole the winner of each position plays to keep
     * its value (pass 1: the best exit's; solve_graph(): the move to the
     * node that made it a winner, a ply nearer the way out), and in pred[]
     * beside each predecessor the hole it moves from (PRED_HOLE). */
    uint8_t *hole;
    /* solve_own() with a history: the own seeds of each rank, for its
     * side to move, which a TERMINAL node (a position of before) is worth
     * to its seats' South; NULL in a build. */
    const int8_t *own_of;
};

/* A predecessor list's entry: the rank, and above it the hole (coded
 * layers). */
#define PRED_HOLE 29
#define PRED_RANK ((UINT32_C(1) << PRED_HOLE) - 1)

/* A pass's shares: each thread's ranks, and the first not taken yet. */
struct shares {
    pthread_mutex_t lock;
    unsigned n;
    uint64_t next[16], end[16];   /* share i: [next[i], end[i]) not taken yet */
};

struct worker {
    struct layer *L;
    struct shares *shares;
    unsigned own;              /* its share; the caller's own thread is 0, and
                                  tells the progress */
    uint64_t here;
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
 * solve_graph(), steps 0 .. n + 2; `within` how far the step is. */
static void layer_progress(const struct layer *L, double step, double within)
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
    } else {
        uint32_t at = __atomic_fetch_add(&L->cursor[child], 1, __ATOMIC_RELAXED);
        L->pred[at] = (uint32_t)w->here | (L->hole ? (uint32_t)hole << PRED_HOLE : 0);
    }
}

static void *work(void *arg)
{
    struct worker *w = arg;
    struct layer *L = w->L;
    uint8_t h[TB_MAX_HOLES];
    uint64_t from, to;
    while (next_chunk(w->shares, w->own, &from, &to)) {
        /* The caller's thread tells the progress of all, by its share. */
        const struct shares *s = w->shares;
        if (w->own == 0 && from && from < L->size / s->n)
            layer_progress(L, L->pass - 1, (double)from * s->n / (double)L->size);
        unrank(L->tb, from, L->n, h);
        for (w->here = from; w->here < to; w->here++) {
            int low, hole;
            /* (the second pass lists the moves in the layer: the values
             * out of it, read from the layers below, are the first's) */
            int e = exits(L->tb, L->r, h, L->n, inner_move, w, &low, &hole, L->pass == 1);
            if (L->pass == 1) {
                L->exit[w->here] = (int8_t)e;
                if (L->hole)
                    L->hole[w->here] = (uint8_t)hole;
                if (L->exit_low)
                    L->exit_low[w->here] = (int8_t)low;
            }
            if (w->here + 1 < to)
                successor(h, L->tb->k);
        }
    }
    return NULL;
}

/* fn(args + i * size) for each i < n (at most 16), each on a thread of
 * its own, the first on the caller's; one whose thread cannot start runs
 * on the caller's after the others. */
static void on_threads(void *(*fn)(void *), void *args, size_t size, unsigned n)
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

/* Every position of the layer through work(), on `threads` threads. */
static int run_pass(struct layer *L, int pass, unsigned threads)
{
    struct worker w[16];
    unsigned nt = threads < 1 ? 1 : threads > 16 ? 16 : threads;
    struct shares s = { PTHREAD_MUTEX_INITIALIZER, nt, { 0 }, { 0 } };
    L->pass = pass;
    for (unsigned i = 0; i < nt; i++) {
        s.next[i] = L->size * i / nt;
        s.end[i] = L->size * (i + 1) / nt;
        w[i] = (struct worker){ L, &s, i, 0 };
    }
    on_threads(work, w, sizeof *w, nt);   /* (a thread's share taken by the others) */
    return 0;
}

enum { UNKNOWN = 0, AT_LEAST = 1, AT_MOST = 2,
       TERMINAL = 3 };   /* a node that ends the game, worth 0: never valued */

/* What solve_graph() and solve_own() hand each thread of a generation:
 * the level's arrays, and the nodes of the generation it spreads from. */
struct spread {
    const struct layer *L;
    unsigned sides;
    uint8_t *state, *open;
    uint32_t *queue;
    int8_t *value;
    int v;                     /* the level: v (solve_graph), t (solve_own) */
    int own;                   /* solve_own()'s rule, not solve_graph()'s */
    uint64_t from, to;         /* the generation's part, in queue (or the
                                  nodes a scan looks at) */
    uint64_t *tail;            /* where the next generation grows */
    int shared;                /* other threads beside: updates are atomic */
};

/* Room for this many nodes a thread finds before it appends them to the
 * queue in one step (one atomic add a batch, not a node). */
#define SPREAD_BATCH 1024

struct found {
    unsigned n;
    uint32_t x[SPREAD_BATCH];
};

static void found_flush(struct spread *s, struct found *f)
{
    uint64_t at = __atomic_fetch_add(s->tail, f->n, __ATOMIC_RELAXED);
    memcpy(&s->queue[at], f->x, f->n * sizeof *f->x);
    f->n = 0;
}

/* p valued: appended to the queue, at once alone, in batches beside
 * other threads. */
static void found_add(struct spread *s, struct found *f, uint32_t p)
{
    if (!s->shared) {
        s->queue[(*s->tail)++] = p;
        return;
    }
    f->x[f->n++] = p;
    if (f->n == SPREAD_BATCH)
        found_flush(s, f);
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

/* A winner's hole found by the spread: the lowest of his moves to the
 * generation before his -- the same whatever thread claimed him, so that
 * the files are the same on any number of threads (the claimer's own
 * move would not be).  While the generation is made, its winners hold
 * HOLE_PENDING, then the lowest such hole with HOLE_NEW set, cleared
 * when the generation is whole (spread_level()). */
#define HOLE_NEW 0x80
#define HOLE_PENDING 0xFF

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
 * solve_graph(): a predecessor of a node worth v to its mover (AT_LEAST)
 * has one move fewer that might lead below v, and is worth -v once none
 * is left and its best exit is no better; one of a node worth -v is worth
 * v.  solve_own(): North to move takes a move to a node of the level
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
            found_add(s, &f, (uint32_t)p);
        }
    }
    if (f.n)
        found_flush(s, &f);
    return NULL;
}

/* The holes of the generation that queue[from, to) made (spread_from()):
 * each move from a winner of it to one of these nodes that made him one
 * -- to a loser (AT_MOST, solve_graph()), to South (solve_own()) --
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

/* solve_own()'s seeds of level t among the nodes [from, to): North to
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
                found_add(s, &f, (uint32_t)i);
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
            found_add(s, &f, (uint32_t)i);
        }
    }
    if (f.n)
        found_flush(s, &f);
    return NULL;
}

/* A piece of work smaller than this is done by one thread: starting
 * threads would cost more than they save. */
#define SPREAD_SHARED_MIN 4096

/* fn over [from, to) -- queue entries or nodes -- cut among L->threads
 * threads where it is large. */
static void spread_run(struct spread *base, void *(*fn)(void *), uint64_t from, uint64_t to,
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
    on_threads(fn, s, sizeof *s, nt);
}

/* The generations of the level, one after another (each a ply deeper
 * than the one before, as a queue taken in order would give them).
 * Which thread values a node does not matter: solve_graph() values a
 * node -v in the generation where its last move known to lead to v or
 * more is found, v in the one where its first move to a node worth -v
 * is, whatever the order within; solve_own() likewise. */
static void spread_level(struct spread *base, uint64_t head, uint64_t *tail)
{
    while (head < *tail) {
        uint64_t end = *tail;
        spread_run(base, spread_from, head, end, tail);
        if (base->L->hole) {
            spread_run(base, spread_holes, head, end, tail);
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
static void solve_graph(const struct layer *L, unsigned sides, uint8_t *state, uint8_t *open,
                        uint32_t *queue, int8_t *value)
{
    uint64_t M = L->size, nodes = sides * M;
    memset(value, 0, nodes);
    uint64_t head = 0, tail = 0;
    int n = (int)L->n;
    for (int v = n; v >= 1; v--) {
        if (sides == 1 && nodes > (1u << 20))
            layer_progress(L, 2 + (L->n - (unsigned)v), 0);
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
        spread_level(&level, head, &tail);
        head = tail;
    }
    /* The rest: both sides can keep the game in the layer (a repetition,
     * worth 0), or an exit worth 0 is the best. */
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
static void solve_own(const struct layer *L, uint8_t *state, uint8_t *open, uint32_t *queue,
                      int8_t *w)
{
    uint64_t M = L->size, nodes = 2 * M, head = 0, tail = 0;
    int n = (int)L->n;
    memset(w, 0, nodes);
    for (int t = -n + 1; t <= n; t++) {
        if (M > (1u << 20))
            layer_progress(L, 2 + (double)(t + n - 1) / 2, 0);
        struct spread level = { L, 2, state, open, queue, w, t, 1, 0, 0, NULL, 0 };
        spread_run(&level, scan_own, 0, nodes, &tail);
        spread_level(&level, head, &tail);
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

/* Own seeds: the kind of the position of rank i, from solve_own()'s w[]
 * (U: South to move; L: North to move, his view) and L's holes. */
static uint32_t kind_at(const struct layer *L, const int8_t *w, uint64_t i)
{
    int u = w[i], l = -w[L->size + i];
    assert(l <= u);
    /* (a value the search with the path found holds no hole: UINT8_MAX) */
    int hole = u == l && u > 0 && L->hole[i] != UINT8_MAX ? L->hole[i] : -1;
    return own_kind(L->n, L->tb->k / 2, u, l, hole);
}

/* Own seeds: the layer of n seeds solved (solve_own()), its positions
 * made codes in value[] and its table (OWN_TABLE) after them, as the file
 * holds them: the kinds of (U, L, hole) the layer has, in the order of
 * own_kind(), a code each -- few, since the values have the parity of
 * the seeds, U and L are mostly near each other, and a hole is held only
 * where they meet above 0 (Oware's layer of 12 seeds has 87 kinds).  -1
 * when memory runs out, -2 when the layer has more than 256 kinds. */
/* ---- own seeds: values with the path --------------------------------------
 *
 * Under own seeds a position's value as a new game (just arisen by a
 * capture: no position before it can come again) is defined, but not by
 * any retrograde rule: the game ends at its first repeated position, with
 * that position's own seeds, and which positions have been played is part
 * of the state.  solve_own()'s bounds U and L hold it, and meet for most
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

/* A position's budget: a search of more positions, or of a longer path
 * (each ply a frame of the stack), leaves its bounds.  A build searches
 * each position of a layer with a small budget first, then those left
 * with this one, on one thread in the order of the ranks (so that the
 * files are the same on any number of threads), while the layer has spent
 * less than CYCLE_LAYER_BUDGET in all: a position is mostly found within thousands of positions or not in
 * millions (Oware's layer of 6 seeds: 1,512 of 1,528 not found with 2^20
 * or 2^23 each), and a layer's hard positions would otherwise take hours. */
uint64_t tablebase_cycle_budget = UINT64_C(1) << 22;
#define CYCLE_FIRST_BUDGET (UINT64_C(1) << 12)
#define CYCLE_LAYER_BUDGET (UINT64_C(1) << 28)
#define CYCLE_DEPTH 20000

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
static int cycle_both(struct cycle_search *s, uint32_t r, int alpha, int beta, int v[2])
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
    if (cycle_both(s, r, g->lo[r] - 1, g->hi[r] + 1, v) != 0)
        return -1;
    assert(v[0] >= g->lo[r] && v[1] <= g->hi[r] && v[0] <= v[1]);
    *lo = v[0];
    *hi = v[1];
    return 0;
}

struct cycle_worker {
    struct cycle_search s;
    const uint32_t *todo;      /* the ranks to search */
    uint64_t ntodo, *next;     /* the next to take (shared) */
    uint64_t *spent, limit;    /* positions searched by all (shared), and where
                                  to stop taking more */
    int8_t *w;                 /* solve_own()'s w[], narrowed where found */
    uint8_t *hole;             /* a searched position's hole: UINT8_MAX */
    uint64_t found;
};

static void *cycle_work(void *arg)
{
    struct cycle_worker *cw = arg;
    const struct cycle_graph *g = cw->s.g;
    for (;;) {
        uint64_t i = __atomic_fetch_add(cw->next, 1, __ATOMIC_RELAXED);
        if (i >= cw->ntodo || __atomic_load_n(cw->spent, __ATOMIC_RELAXED) > cw->limit)
            break;
        uint32_t r = cw->todo[i];
        int lo, hi;
        if (cw->w[r] == -cw->w[g->size + r])
            continue;   /* (found by the first round) */
        int rc = cycle_root(&cw->s, r, &lo, &hi);
        __atomic_fetch_add(cw->spent, cw->s.nodes, __ATOMIC_RELAXED);
        if (rc != 0)
            continue;
        /* (each rank is one worker's: these writes race with no other) */
        cw->w[r] = (int8_t)hi;
        cw->w[g->size + r] = (int8_t)-lo;
        cw->hole[r] = UINT8_MAX;
        cw->found++;
    }
    return NULL;
}

/* The own seeds of each position of L's layer, for its side to move. */
static void own_seeds_of(const struct layer *L, int8_t *own)
{
    uint8_t h[TB_MAX_HOLES];
    unsigned k = L->tb->k, half = k / 2;
    if (L->size == 0)
        return;
    unrank(L->tb, 0, L->n, h);
    for (uint64_t i = 0; i < L->size; i++) {
        int d = 0;
        for (unsigned j = 0; j < half; j++)
            d += (int)h[j] - (int)h[half + j];
        own[i] = (int8_t)d;
        if (i + 1 < L->size)
            successor(h, k);
    }
}

static void cycle_graph_free(struct cycle_graph *g)
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
 * predecessors), its own seeds, and its bounds from solve_own()'s w[].
 * 0, or -1 when memory runs out. */
static int cycle_graph_make(const struct layer *L, const int8_t *w, struct cycle_graph *g)
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
        cycle_graph_free(g);
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
 * solve_own()'s U holds where North forces play out of the layer; where
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
 * for the other side comes from the seats mirrored, as solve_own()'s
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

/* w[] (solve_own()'s, South's view of each node) lowered to the Büchi
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

/* The positions of L's layer whose bounds solve_own() left apart (w[]),
 * searched with the path (on L->threads threads); those found get their
 * value and the hole UINT8_MAX (none held: kind_at()).  0; -1 when memory
 * runs out (the bounds then stand). */
static int cycle_solve(struct layer *L, int8_t *w)
{
    uint64_t M = L->size, open = 0;
    for (uint64_t i = 0; i < M; i++)
        open += w[i] != -w[M + i];
    if (open == 0)
        return 0;
    struct cycle_graph g;
    if (cycle_graph_make(L, w, &g) != 0)
        return -1;
    if (own_recurrence(L, &g, w) == 0) {
        open = 0;
        for (uint64_t i = 0; i < M; i++) {
            g.hi[i] = w[i];
            g.lo[i] = (int8_t)-w[M + i];
            open += w[i] != -w[M + i];
        }
    }
    if (open == 0) {
        cycle_graph_free(&g);
        return 0;
    }
    uint32_t *todo = malloc(open * sizeof *todo);
    unsigned threads = L->threads;
    struct cycle_worker cw[16];
    memset(cw, 0, sizeof cw);
    int rc = todo ? 0 : -1;
    if (rc != 0) {
        cycle_graph_free(&g);
        return -1;
    }
    for (unsigned t = 0; t < threads && rc == 0; t++)
        if (!(cw[t].s.on_path = calloc(2 * M, 1)))
            rc = -1;
    if (rc == 0) {
        uint64_t n = 0, next = 0, spent = 0;
        for (uint64_t i = 0; i < M; i++)
            if (g.hi[i] != g.lo[i])
                todo[n++] = (uint32_t)i;
        /* Two rounds: every position with a small budget, then those left
         * with the whole while the layer's budget lasts. */
        for (int round = 0; round < 2; round++) {
            next = 0;
            unsigned on = round == 0 ? threads : 1;
            for (unsigned t = 0; t < on; t++) {
                cw[t].s.g = &g;
                cw[t].s.budget = round == 0 && tablebase_cycle_budget > CYCLE_FIRST_BUDGET
                               ? CYCLE_FIRST_BUDGET : tablebase_cycle_budget;
                cw[t].todo = todo;
                cw[t].ntodo = n;
                cw[t].next = &next;
                cw[t].spent = &spent;
                cw[t].limit = round == 0 ? UINT64_MAX : spent + CYCLE_LAYER_BUDGET;
                cw[t].w = w;
                cw[t].hole = L->hole;
            }
            on_threads(cycle_work, cw, sizeof *cw, on);
        }
    }
    for (unsigned t = 0; t < threads; t++)
        free(cw[t].s.on_path);
    free(todo);
    cycle_graph_free(&g);
    return rc;
}

static int propagate_own(struct layer *L, int8_t *value)
{
    uint64_t M = L->size;
    unsigned n = L->n, holes = L->tb->k / 2;
    uint32_t kinds = own_kind(n, holes, (int)n, (int)n, (int)holes - 1) + 1;
    uint8_t *state = calloc(2 * M, 1), *open = malloc(2 * M);
    uint32_t *queue = malloc(2 * M * sizeof *queue);
    int8_t *w = malloc(2 * M);
    int16_t *code = malloc(kinds * sizeof *code);
    int rc = state && open && queue && w && code ? 0 : -1;
    if (rc == 0) {
        memcpy(open, L->open, M);
        memcpy(open + M, L->open, M);
        solve_own(L, state, open, queue, w);
        cycle_solve(L, w);   /* (where memory runs out, the bounds stand) */
        /* The kinds the layer has, numbered in order. */
        for (uint32_t k = 0; k < kinds; k++)
            code[k] = -1;
        for (uint64_t i = 0; i < M; i++)
            code[kind_at(L, w, i)] = 0;
        int8_t *table = value + M;
        unsigned used = 0;
        memset(table, INT8_MIN, 2 * 256);
        memset(table + 2 * 256, -1, 256);
        for (uint32_t k = 0; k < kinds && rc == 0; k++) {
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
    }
    free(state);
    free(open);
    free(queue);
    free(w);
    free(code);
    return rc;
}

/* The layer's values (and its winners' holes, L->hole).  -1 when memory
 * runs out (nothing valued). */
static int propagate(struct layer *L, int8_t *value)
{
    uint8_t *state = calloc(L->size, 1);
    uint32_t *queue = malloc(L->size * sizeof *queue);
    int ok = state && queue;
    if (ok)
        solve_graph(L, 1, state, L->open, queue, value);
    free(state);
    free(queue);
    return ok ? 0 : -1;
}

static void layer_free(struct layer *L)
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
static int layer_graph(const pmn_tablebase *tb, unsigned n, unsigned threads, struct layer *L,
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
    run_pass(L, 1, threads);
    /* The positions by exit (counting sort: in each, the ranks' order). */
    int n2 = (int)n;
    L->by_exit = malloc((L->size ? L->size : 1) * sizeof *L->by_exit);
    if (!L->by_exit)
        goto nomem;
    memset(L->exit_at, 0, sizeof L->exit_at);
    for (uint64_t i = 0; i < L->size; i++)
        if (L->exit[i] != INT8_MIN)
            L->exit_at[L->exit[i] + n2 + 1]++;
    for (int e = 0; e <= 2 * n2; e++)
        L->exit_at[e + 1] += L->exit_at[e];
    uint64_t at[2 * TB_MAX_SEEDS + 1];
    memcpy(at, L->exit_at, sizeof at);
    for (uint64_t i = 0; i < L->size; i++)
        if (L->exit[i] != INT8_MIN)
            L->by_exit[at[L->exit[i] + n2]++] = (uint32_t)i;
    uint64_t edges = 0;
    for (uint64_t i = 0; i < L->size; i++) {
        edges += L->cursor[i];
        L->cursor[i] = (uint32_t)(edges - L->cursor[i]);   /* where its list starts */
    }
    if (edges >= UINT32_MAX) {
        layer_free(L);
        return util_fail(err, PMN_ERR_RANGE, 0, "the layer of %u seeds has too many moves "
                         "(%llu) for this format", n, (unsigned long long)edges);
    }
    L->pred = malloc((edges ? edges : 1) * sizeof *L->pred);
    if (!L->pred)
        goto nomem;
    run_pass(L, 2, threads);   /* each cursor ends where the next list starts */
    return 0;
nomem:
    layer_free(L);
    return util_fail(err, PMN_ERR_NOMEM, 0, "out of memory for the layer of %u seeds "
                     "(%llu positions)", n, (unsigned long long)tb->size[n]);
}

/* ---- a layer of rules where no position repeats ------------------------- */

/* Where positions cannot repeat (Kalah: a move that stays in the layer
 * only carries the mover's seeds towards his store), the moves within a
 * layer form no cycle, and each position is valued once, after the
 * positions its moves lead to: a depth-first walk, each frame a position
 * whose moves are sown (struct sown) and whose moves in the layer are
 * walked first.  No predecessor lists, no levels, no depths (a line that
 * keeps the value ends without them): kalah_sow() a position where the
 * rules sow as Kalah, else exits().  Returns 0; -1 when memory runs out,
 * or -2 where the walk meets a position it is inside (the rules repeat
 * after all: the caller builds the layer as a graph). */
#define WALKING (INT8_MIN + 1)   /* a value no position has: on the walk's path */

struct frame {
    uint64_t rank;
    int expanded;
    uint8_t h[TB_MAX_HOLES];   /* the counts of rank (carried: unrank() cost a sixth) */
    struct sown s;
};

/* exits()'s kids into a frame's sown, their values asked for. */
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
        kalah_sow(tb, f->h, n, here, &f->s);
        return;
    }
    struct collect cc = { &f->s, here, tb->k };
    f->s.nkids = f->s.nread = 0;
    f->s.best = exits(tb, &tb->rules, f->h, n, collect_kid, &cc, NULL, NULL, 1);
}

/* The roots of the walk, the positions in rank order, sown ahead: the
 * ranks [r, next) are in the ring's slots (r the root walked, next <=
 * r + WALK_AHEAD), sown unless valued before (once valued, a position
 * stays so).  (Sowing 16 or 32 ahead, or one more before each frame the
 * walk expands, gained nothing: farm-bench, Kalah's six holes to 16
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
        successor(g->at, tb->k);
}

static int walk_layer(const pmn_tablebase *tb, unsigned n, int8_t *value)
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
                f->s.best = sown_best(&f->s);
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
                layer_progress(&progress, 0, (double)done / (double)size * (n + 2));
        }
    }
#undef FRAME
    free(st);
    free(g);
    return 0;
}

/* Are the layers of the rules b (those the databases are built under)
 * built by walk_layer()?  Where no position repeats, and one value a
 * position. */
static int walked(const pmn_rules *b)
{
    return rules_acyclic(b) && pmn_tablebase_values(b) == 1;
}

/* Do the layers of the rules b hold a code a position (code_of())?  Where
 * positions repeat, and one value a position. */
static int coded(const pmn_rules *b)
{
    return !rules_acyclic(b) && pmn_tablebase_values(b) == 1;
}

static int build_layer(pmn_tablebase *tb, unsigned n, unsigned threads, int8_t **out,
                       pmn_error *err)
{
    struct layer L;
    /* The codes (and own seeds' table), in one block as in the file. */
    uint64_t size = tb->size[n];
    int8_t *value = calloc(body_bytes(tb, n), 1);   /* the padding written too */
    if (!value)
        return util_fail(err, PMN_ERR_NOMEM, 0, "out of memory for the layer of %u seeds "
                         "(%llu positions)", n, (unsigned long long)size);
    if (walked(&tb->rules)) {
        assert(!tb->own && !tb->coded);   /* (any line that keeps a value ends) */
        int rc = walk_layer(tb, n, value);
        if (rc == 0) {
            *out = value;
            return 0;
        }
        if (rc == -1) {
            free(value);
            return util_fail(err, PMN_ERR_NOMEM, 0, "out of memory for the layer of %u "
                             "seeds (%llu positions)", n, (unsigned long long)size);
        }
        assert(!"rules_acyclic() rules whose layer has a cycle");
        memset(value, 0, body_bytes(tb, n));   /* built as a graph, below */
    }
    if (layer_graph(tb, n, threads, &L, err) != 0) {
        free(value);
        return -1;
    }
    /* Own seeds: the codes and their table as the file holds them.  Else
     * the values solved, and each made a code with its winner's hole. */
    int rc;
    if (tb->own) {
        rc = propagate_own(&L, value);
        if (rc == 0) {   /* its table read as an open reads it (sound: made here) */
            int sound = own_table_read(tb, n, value) == 0;
            assert(sound);
            (void)sound;
        }
    } else {
        assert(tb->coded);
        rc = propagate(&L, value);
        for (uint64_t i = 0; rc == 0 && i < size; i++)
            value[i] = (int8_t)code_of(tb, n, value[i], value[i] > 0 ? L.hole[i] : -1);
    }
    layer_free(&L);
    if (rc == -2) {
        free(value);
        return util_fail(err, PMN_ERR_RANGE, 0, "the layer of %u seeds has more than 256 "
                         "kinds of bounds and moves, more than a byte a position holds: the "
                         "layers below it are kept", n);
    }
    if (rc != 0) {
        /* a layer of zeros would be written as if valued */
        free(value);
        return util_fail(err, PMN_ERR_NOMEM, 0, "out of memory for the layer of %u seeds "
                         "(%llu positions)", n, (unsigned long long)size);
    }
    *out = value;
    return 0;
}

/* ---- a layer with a history ------------------------------------------------ */

/* The databases value a position as a new game.  With positions of before
 * that may come again (since the last capture), a repetition of one of
 * them ends the game and the value may change.  Where the seeds left go
 * uncounted (worth 0 of the seeds in play), the layer is solved again as
 * a graph whose nodes are its positions with the side to move (the two
 * seats apart: a position of before is one of them, not its mirror), the
 * positions of before terminal, worth 0, and the rest solved as the files'
 * layers are (solve_graph()).  Under own seeds a repetition is worth the
 * seeds on each side, and a position is searched with the path (the
 * positions of before on it: cycle_value()), its exits read from the
 * layers below, its bounds from the layer solved again (solve_own()). */
struct tablebase_history {
    const pmn_tablebase *tb;
    unsigned n;
    uint64_t size;
    struct layer L;            /* the layer's graph, built once */
    int8_t *value;             /* [side * size + rank], for the side to move
                                  (own seeds: solve_own()'s w[]) */
    uint8_t *state, *open;
    uint32_t *queue;
    /* Own seeds: */
    int8_t *value_b;           /* solve_own()'s w[] with the seats mirrored */
    struct cycle_graph g;
    struct cycle_search s;
    const pmn_position *ends;  /* the positions of before (the caller's) */
    size_t nends;
};

void tablebase_history_free(struct tablebase_history *h)
{
    if (h) {
        layer_free(&h->L);
        cycle_graph_free(&h->g);   /* (all NULL but under own seeds; tb not read:
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
    if (counts_of(&h->tb->rules, p, c) != h->n)
        return -1;
    return (int64_t)((uint64_t)p->to_move * h->size + rank_of(h->tb, c, h->n));
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
        || layer_graph(tb, n, 1, &h->L, &err) != 0) {
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
        solve_own(&h->L, h->state, h->open, h->queue, h->value);
        h->s.on_path = calloc(M2 ? M2 : 1, 1);
        h->value_b = malloc(M2 ? M2 : 1);
        if (!h->s.on_path || !h->value_b || cycle_graph_make(&h->L, h->value, &h->g) != 0) {
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
            memset(h->state, UNKNOWN, 2 * M);
            memcpy(h->open, h->L.open, M);
            memcpy(h->open + M, h->L.open, M);
            for (size_t i = 0; i < nends; i++) {
                int64_t x = history_node(h, &ends[i]);
                if (x >= 0)
                    h->state[m ? ((uint64_t)x + M) % (2 * M) : (uint64_t)x] = TERMINAL;
            }
            solve_own(&h->L, h->state, h->open, h->queue, w[m]);
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
    memset(h->state, UNKNOWN, 2 * M);
    memcpy(h->open, h->L.open, M);
    memcpy(h->open + M, h->L.open, M);
    for (size_t i = 0; i < nends; i++) {
        int64_t x = history_node(h, &ends[i]);
        if (x >= 0)
            h->state[x] = TERMINAL;   /* worth 0: solve_graph leaves it so */
    }
    solve_graph(&h->L, 2, h->state, h->open, h->queue, h->value);
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
    int rc = cycle_both(&h->s, (uint32_t)(node % h->size), -(int)h->n - 1, (int)h->n + 1,
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

/* ---- files ------------------------------------------------------------------ */

static uint64_t fnv(const void *data, size_t n, uint64_t h)
{
    const unsigned char *s = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001B3ULL;
    return h;
}

#define FNV_START 0xCBF29CE484222325ULL

static void layer_path(const pmn_tablebase *tb, const char *dir, unsigned n, char *buf,
                       size_t size)
{
    uint64_t h = fnv(tb->spec, strlen(tb->spec), FNV_START);
    snprintf(buf, size, "%s/pmn-%016llx-%02u.tb", dir, (unsigned long long)h, n);
}

static void put32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *b)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static uint64_t get64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

/* The header of a layer of databases whose spec is `spec`: 256 bytes
 * where the spec (with its NUL) fits in the 192 after the fixed fields,
 * else as many blocks of 256 as hold it whole -- the spec is compared
 * whole at the open, never a prefix (a rule file's own name lists every
 * option: two such files that differed past the 191st character shared
 * their databases). */
static unsigned spec_header(const char *spec)
{
    size_t need = 64 + strlen(spec) + 1;
    return need <= TB_HEADER ? TB_HEADER : (unsigned)((need + 255) / 256 * 256);
}

static void header(const pmn_tablebase *tb, unsigned n, const int8_t *v, unsigned char *h)
{
    memset(h, 0, tb->header);
    memcpy(h, TB_MAGIC, 8);
    put32(h + 8, TB_VERSION);
    put32(h + 12, tb->header);
    put32(h + 16, tb->k / 2);
    put32(h + 20, n);
    put64(h + 24, tb->size[n]);
    put64(h + 32, fnv(v, body_bytes(tb, n), FNV_START));
    memcpy(h + 64, tb->spec, strlen(tb->spec));
}

static int write_layer(const pmn_tablebase *tb, const char *dir, unsigned n, const int8_t *v,
                       pmn_error *err)
{
    char path[4096], tmp[4200];
    unsigned char h[TB_HEADER_MAX];
    assert(tb->header <= sizeof h);
    layer_path(tb, dir, n, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    header(tb, n, v, h);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return util_fail(err, PMN_ERR_RANGE, 0, "cannot write %s: %s", tmp, strerror(errno));
    int ok = fwrite(h, 1, tb->header, f) == tb->header
          && fwrite(v, 1, body_bytes(tb, n), f) == body_bytes(tb, n);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return util_fail(err, PMN_ERR_RANGE, 0, "cannot write %s: %s", path, strerror(e));
    }
    return 0;
}

/* Is every position's value (or pair of bounds) of the layer of n seeds,
 * at v, one it can have (cell_sound())?  NULL, or why not.  Every reader
 * (probe, line, info's counts by value) relies on it: a margin beyond that
 * is a wrong answer, and info's table has a slot a margin. */
static const char *values_unsound(const pmn_tablebase *tb, const int8_t *v, unsigned n)
{
    for (uint64_t i = 0; i < tb->size[n]; i++)
        if (!cell_sound(tb, n, &v[i]))
            return !tb->coded && !tb->own && v[i] <= (int)n && v[i] >= -(int)n
                 ? "a margin of the other parity than its seeds, which no position can "
                   "have where every seed ends in a store (forged or corrupt)"
                 : "a value larger than the seeds in play (forged or corrupt)";
    return NULL;
}

/* Is the body of the layer of n seeds (header h, mapped) what its header's
 * checksum says, and is every value one its seeds can make?  NULL, or why
 * not.  It reads the whole layer: a build does it for every layer it
 * reads, pmn_tablebase_verify on demand, a probe at its first value of
 * the layer (layer_sound()). */
static const char *body_unsound(const pmn_tablebase *tb, unsigned n, const unsigned char *h)
{
    if (get64(h + 32) != fnv(h + tb->header, body_bytes(tb, n), FNV_START))
        return "a checksum that does not match its values (corrupt)";
    return values_unsound(tb, (const int8_t *)(h + tb->header), n);
}

/* Map the layer of n seeds: 1 done, 0 no such file, -1 a file that is not
 * a sound layer of these rules (*err says why), -2 a layer of another
 * format version (*err says so: a build makes it again).  The header and
 * the size are checked; the body too (body_unsound()) where `verify` is
 * set. */
static int map_layer(pmn_tablebase *tb, const char *dir, unsigned n, int verify,
                     pmn_error *err)
{
    char path[4096];
    layer_path(tb, dir, n, path, sizeof path);
    /* Not blocking: a FIFO in a layer's place would hang the reader. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fd < 0 && errno == ENOENT && lstat(path, &st) == 0)
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: a link to nothing (the layer it "
                         "named is gone)", path);
    if (fd < 0 && errno == ENOENT)
        return 0;   /* no such layer: the databases end below it */
    if (fd < 0)
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: cannot open it: %s", path, strerror(errno));
    size_t want = tb->header + (size_t)body_bytes(tb, n);
    if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        close(fd);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: not a regular file (a %s)", path,
                         S_ISDIR(st.st_mode) ? "directory" : S_ISFIFO(st.st_mode) ? "FIFO"
                         : "device or socket");
    }
    /* The header before the size, which it sets: a file of another
     * version, or of other rules, is refused as such, not as cut short. */
    unsigned char h[TB_HEADER_MAX];
    const char *why = NULL;
    char spec[TB_SPEC + 1] = "";
    int other = 0;
    if (pread(fd, h, TB_HEADER, 0) == (ssize_t)TB_HEADER) {
        /* The spec whole, however long (spec_header()): a header of
         * another size than these rules' is of other rules, or damaged. */
        unsigned size = get32(h + 12);
        if (size <= TB_HEADER || size > sizeof h || size % 256 != 0
            || pread(fd, h + TB_HEADER, size - TB_HEADER, TB_HEADER)
                   != (ssize_t)(size - TB_HEADER))
            size = TB_HEADER;
        /* A header may have room for more than the longest spec (its size
         * in blocks of 256): what is past TB_SPEC is no spec's, and a
         * damaged one may hold no NUL (fuzz_tablebase, 2026-11-29: 1216
         * bytes copied into spec[1025]). */
        size_t room = size - 64 < TB_SPEC ? size - 64 : TB_SPEC;
        memcpy(spec, h + 64, room);
        spec[room] = 0;
        int magic = memcmp(h, TB_MAGIC, 8) == 0;
        other = magic && strcmp(spec, tb->spec) != 0;
        uint32_t version = magic ? get32(h + 8) : TB_VERSION;
        if (version != TB_VERSION && (version != TB_VERSION_KEPT || tb->own)) {
            close(fd);
            util_fail(err, PMN_ERR_SYNTAX, 0, "%s: format version %u, which this pmn does "
                      "not read (it reads version %u): 'pmn tablebase build' makes it again",
                      path, (unsigned)get32(h + 8), TB_VERSION);
            return -2;
        }
        if (!magic)
            why = "not a pmn database";
        else if (other)
            why = "built under other rules";
        else if (get32(h + 12) != tb->header || get32(h + 16) != tb->k / 2
                 || get32(h + 20) != n || get64(h + 24) != tb->size[n])
            why = "a header that does not fit its rules";
    }
    if (!why && (fstat(fd, &st) != 0 || (uint64_t)st.st_size != want)) {
        close(fd);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: %llu bytes, not the %llu of a layer of "
                         "%u seeds (truncated?)", path, (unsigned long long)st.st_size,
                         (unsigned long long)want, n);
    }
    if (why) {
        close(fd);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: %s%s%s", path, why, other ? ": " : "",
                         other ? spec : "");
    }
    void *base = mmap(NULL, want, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED)
        return util_fail(err, PMN_ERR_NOMEM, 0, "%s: cannot map it: %s", path, strerror(errno));
    /* (the table first: the body's codes are read by it) */
    if (tb->own && own_table_read(tb, n, (const int8_t *)base + tb->header) != 0) {
        munmap(base, want);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: a table of codes no position can have "
                         "(forged or corrupt)", path);
    }
    if (verify && (why = body_unsound(tb, n, base)) != NULL) {
        munmap(base, want);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: %s", path, why);
    }
    tb->base[n] = base;
    tb->mapped[n] = want;
    tb->layer[n] = (const int8_t *)base + tb->header;
    return 1;
}

/* ---- the databases ------------------------------------------------------------ */

/* The spec that names the databases of r: r's, with the seeds a hole held
 * at the start set to one number for all (the file's comment says why). */
static void tb_spec(const pmn_rules *r, char *buf, size_t size)
{
    pmn_rules c = *r;
    c.seeds = 4;
    size_t n = pmn_rules_format(&c, buf, size);
    assert(n < size);   /* whole: a cut spec names other rules' files too */
    (void)n;
}

static pmn_tablebase *tb_new(const pmn_rules *r, pmn_error *err)
{
    if (pmn_tablebase_check_rules(r, err) != 0)
        return NULL;
    pmn_tablebase *tb = calloc(1, sizeof *tb);
    if (!tb) {
        util_fail(err, PMN_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    pmn_tablebase_built_rules(r, &tb->rules);   /* under a majority, majority=no's */
    tb_spec(&tb->rules, tb->spec, sizeof tb->spec);
    tb->header = spec_header(tb->spec);
    pthread_mutex_init(&tb->check_lock, NULL);
    tb->k = 2 * r->pits;
    tb->own = pmn_tablebase_values(&tb->rules) == 2;
    tb->coded = coded(&tb->rules);
    codes_init(tb);
    tb->kalah = engine_sows_as_kalah(&tb->rules) && pmn_tablebase_values(&tb->rules) == 1;
    index_init(tb);
    for (unsigned n = 0; n <= TB_MAX_SEEDS; n++)
        tb->size[n] = ways(n, tb->k);
    return tb;
}

void pmn_tablebase_close(pmn_tablebase *tb)
{
    if (!tb)
        return;
    pthread_mutex_destroy(&tb->check_lock);
    for (unsigned n = 0; n <= TB_MAX_SEEDS; n++) {
        if (tb->mapped[n])
            munmap(tb->base[n], tb->mapped[n]);
        else
            free(tb->base[n]);
    }
    free(tb);
}

uint64_t pmn_tablebase_positions(const pmn_rules *r, unsigned seeds)
{
    return 2 * r->pits <= TB_MAX_HOLES && seeds <= TB_MAX_SEEDS ? ways(seeds, 2 * r->pits) : 0;
}

unsigned pmn_tablebase_values(const pmn_rules *r)
{
    pmn_rules b;
    pmn_tablebase_built_rules(r, &b);
    return !rules_acyclic(&b) && b.repetition == PMN_REPETITION_OWN_SIDE ? 2 : 1;
}

unsigned pmn_tablebase_max_seeds(const pmn_rules *r)
{
    pmn_rules b;
    pmn_tablebase_built_rules(r, &b);
    unsigned most = 255 / (b.pits + 1);   /* code_top() within a byte */
    return coded(&b) && most < PMN_TABLEBASE_MAX_SEEDS ? most : PMN_TABLEBASE_MAX_SEEDS;
}

double pmn_tablebase_build_bytes(const pmn_rules *r, unsigned seeds, double *disk)
{
    pmn_rules b;
    double total = 0, largest = 0, values = pmn_tablebase_values(r);
    pmn_tablebase_built_rules(r, &b);
    for (unsigned n = 0; n <= seeds; n++) {
        double p = (double)pmn_tablebase_positions(r, n);
        total += p;
        largest = p > largest ? p : largest;
    }
    /* A layer built by the walk (walk_layer: no position repeats) holds a
     * byte a position and needs no more than its own values; one built as
     * a graph needs its graph and solve besides: 39 bytes a position (the
     * predecessor lists the most; the positions by exit, 4).  It holds a
     * code a position (1 byte, the values made codes in place), and the
     * winners' holes while it is built (1 more); with own seeds, the same,
     * and 14 more while built (both seats apart: a state, a count, a value
     * and a queue entry a seat). */
    *disk = total;
    if (walked(&b))
        return total;
    return (2 + 39 + 14 * (values - 1)) * largest + (total - largest);
}

static void layer_stats(const pmn_tablebase *tb, unsigned n, pmn_tablebase_layer *s)
{
    memset(s, 0, sizeof *s);
    s->seeds = n;
    s->positions = tb->size[n];
    /* A cell is its byte: the bytes counted, then each read once. */
    uint64_t count[256] = { 0 };
    const uint8_t *b = (const uint8_t *)tb->layer[n];
    for (uint64_t i = 0; i < tb->size[n]; i++)
        count[b[i]]++;
    for (unsigned v = 0; v < 256; v++) {
        const int8_t c = (int8_t)(uint8_t)v;
        int hi, lo;
        if (!count[v] || !cell_sound(tb, n, &c))
            continue;   /* not counted: pmn_tablebase_verify finds it */
        cell_values(tb, n, &c, &hi, &lo);
        if (hi == lo)
            s->by_value[hi + PMN_TABLEBASE_MAX_SEEDS] += count[v];
        else
            s->bounded += count[v];
    }
}

static int build_layers(pmn_tablebase *tb, const char *dir, unsigned seeds, unsigned threads,
                        pmn_tablebase_fn fn, void *ctx, pmn_error *err);

/* More seeds than the databases of r can hold: -1 (and *err). */
static int seeds_refused(const pmn_rules *r, unsigned seeds, pmn_error *err)
{
    unsigned most = pmn_tablebase_max_seeds(r);
    if (seeds > most)
        return util_fail(err, PMN_ERR_RANGE, 0, "at most %u seeds in play%s", most,
                         most < PMN_TABLEBASE_MAX_SEEDS ? " for a game whose positions can "
                         "repeat (a byte holds a value and a hole)" : "");
    return 0;
}

int pmn_tablebase_build(const pmn_rules *r, unsigned seeds, const char *dir, unsigned threads,
                        pmn_tablebase_fn fn, void *ctx, pmn_error *err)
{
    if (seeds_refused(r, seeds, err))
        return -1;
    pmn_tablebase *tb = tb_new(r, err);
    if (!tb)
        return -1;
    tb->progress = fn;
    tb->progress_ctx = ctx;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        pmn_tablebase_close(tb);
        return util_fail(err, PMN_ERR_RANGE, 0, "cannot make %s: %s", dir, strerror(errno));
    }
    /* One build in a folder at a time: two would write the same .part
     * file.  The lock is the folder's own (flock, released at exit however
     * the build ends), so that no lock file is left behind. */
    int lock = open(dir, O_RDONLY | O_DIRECTORY);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (lock >= 0)
            close(lock);
        pmn_tablebase_close(tb);
        return util_fail(err, PMN_ERR_RANGE, 0, "cannot write %s: %s", dir,
                         e == EWOULDBLOCK ? "another pmn is building databases there (one "
                         "build a folder at a time)" : strerror(e));
    }
    int rc = build_layers(tb, dir, seeds, threads, fn, ctx, err);
    close(lock);   /* (the lock with it) */
    pmn_tablebase_close(tb);
    return rc;
}

/* pmn_tablebase_build()'s layers, into dir (locked); or, dir NULL,
 * pmn_tablebase_make()'s, in memory alone. */
static int build_layers(pmn_tablebase *tb, const char *dir, unsigned seeds, unsigned threads,
                        pmn_tablebase_fn fn, void *ctx, pmn_error *err)
{
    for (unsigned n = 0; n <= seeds; n++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int rc = dir ? map_layer(tb, dir, n, 1, err) : 0;   /* a build reads every value */
        int loaded = rc == 1;
        if (rc == -2)
            rc = 0;   /* of another format: made again, and written over it */
        if (rc < 0)
            return -1;
        if (!loaded) {
            int8_t *v = NULL;
            if (build_layer(tb, n, threads, &v, err) != 0)
                return -1;
            tb->base[n] = v;   /* (malloc'd: mapped[n] 0) */
            tb->layer[n] = v;
            if (dir && write_layer(tb, dir, n, v, err) != 0)
                return -1;
        }
        tb->checked[n] = LAYER_SOUND;   /* read whole by map_layer(), or built here */
        tb->seeds = n;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (fn) {
            pmn_tablebase_layer s;
            layer_stats(tb, n, &s);
            s.loaded = loaded;
            s.done = 1;
            s.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
            fn(ctx, &s);
        }
    }
    return 0;
}

pmn_tablebase *pmn_tablebase_make(const pmn_rules *r, unsigned seeds, unsigned threads,
                                  pmn_error *err)
{
    if (seeds_refused(r, seeds, err))
        return NULL;
    pmn_tablebase *tb = tb_new(r, err);
    if (tb && build_layers(tb, NULL, seeds, threads, NULL, NULL, err) != 0) {
        pmn_tablebase_close(tb);
        tb = NULL;
    }
    return tb;
}

/* The largest layer pmn_tablebase_make_for() makes: its 6 seeds on six
 * holes hold 12,376 positions, 7 seeds 31,824, 8 seeds 75,582. */
#define SMALL_LAYER 50000

pmn_tablebase *pmn_tablebase_make_for(const pmn_rules *r, const pmn_position *p,
                                      unsigned threads)
{
    if (pmn_tablebase_check_rules(r, NULL) != 0 || pmn_tablebase_values(r) != 2)
        return NULL;
    unsigned in_play = pmn_position_seeds(r, p, PMN_SOUTH) + pmn_position_seeds(r, p, PMN_NORTH),
             n = 0;
    while (n < in_play && n < pmn_tablebase_max_seeds(r)
           && pmn_tablebase_positions(r, n + 1) <= SMALL_LAYER)
        n++;
    return pmn_tablebase_make(r, n, threads ? threads : 1, NULL);
}

pmn_tablebase *pmn_tablebase_open(const pmn_rules *r, const char *dir, pmn_error *err)
{
    pmn_tablebase *tb = tb_new(r, err);
    if (!tb)
        return NULL;
    unsigned n = 0;
    for (; n <= PMN_TABLEBASE_MAX_SEEDS; n++) {
        int rc = map_layer(tb, dir, n, 0, err);
        if (rc < 0) {
            pmn_tablebase_close(tb);
            return NULL;
        }
        if (rc == 0)
            break;
    }
    if (n == 0) {
        char path[4096];
        layer_path(tb, dir, 0, path, sizeof path);
        pmn_tablebase_close(tb);
        util_fail(err, PMN_ERR_UNKNOWN, 0, "no database of these rules in %s (%s missing; "
                  "pmn tablebase build makes it)", dir, path);
        return NULL;
    }
    /* A build writes the layers in order, so that a layer missing below
     * others is one removed since: the layers above it would go unused
     * without a word (or be taken for the end of the databases). */
    for (unsigned m = n + 1; m <= PMN_TABLEBASE_MAX_SEEDS; m++) {
        char path[4096], gap[4096];
        struct stat st;
        layer_path(tb, dir, m, path, sizeof path);
        if (lstat(path, &st) != 0)
            continue;
        layer_path(tb, dir, n, gap, sizeof gap);
        pmn_tablebase_close(tb);
        util_fail(err, PMN_ERR_SYNTAX, 0, "%s: missing, though the layer of %u seeds (%s) is "
                  "there: the databases have a gap ('pmn tablebase build --seeds %u' makes "
                  "the missing layers again)", gap, m, path, m);
        return NULL;
    }
    tb->seeds = n - 1;
    snprintf(tb->dir, sizeof tb->dir, "%s", dir);
    return tb;
}

int pmn_tablebase_verify(const pmn_tablebase *tb, pmn_error *err)
{
    for (unsigned n = 0; n <= tb->seeds; n++) {
        const char *why;
        if (!tb->mapped[n])
            continue;   /* built here, not read */
        if ((why = body_unsound(tb, n, tb->base[n]))) {
            char path[sizeof tb->dir + 64];
            layer_path(tb, tb->dir, n, path, sizeof path);
            return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: %s", path, why);
        }
    }
    return 0;
}

unsigned pmn_tablebase_seeds(const pmn_tablebase *tb)
{
    return tb->seeds;
}

int pmn_tablebase_layer_stats(const pmn_tablebase *tb, unsigned seeds, pmn_tablebase_layer *s)
{
    if (seeds > tb->seeds)
        return -1;
    layer_stats(tb, seeds, s);
    return 0;
}

/* Can the value(s) at c be those of a position of n seeds?  An open reads
 * no layer whole (body_unsound()): a value a corrupt or forged file holds
 * past its seeds is never taken -- the position is not held. */
static int cell_sound(const pmn_tablebase *tb, unsigned n, const int8_t *c)
{
    if (tb->coded)
        return tb->value_of[n][(uint8_t)c[0]] != INT8_MIN;
    if (tb->own)
        return tb->own_hi[n][(uint8_t)c[0]] != INT8_MIN;
    /* Where Kalah's sowing serves (kalah_sow()), every seed in play ends
     * in a store, so that the margin has the parity of the seeds: a draw
     * of 3 seeds, say, is a damaged file's, not a value. */
    return c[0] <= (int)n && c[0] >= -(int)n && (!tb->kalah || ((c[0] + (int)n) & 1) == 0);
}

static void mark_damaged(const pmn_tablebase *tb)
{
    __atomic_store_n(&((pmn_tablebase *)tb)->damaged, 1, __ATOMIC_RELAXED);
}

/* Has this process read the layer of n seeds whole and found it sound
 * (body_unsound())?  It reads it now if not, once, whichever thread asks
 * first (the others wait for it): a layer found damaged is marked so, and
 * tb too, and no value of it is taken. */
static int layer_sound(const pmn_tablebase *tb, unsigned n)
{
    pmn_tablebase *w = (pmn_tablebase *)tb;   /* (the check's state alone) */
    pthread_mutex_lock(&w->check_lock);
    if (w->checked[n] == LAYER_UNREAD)
        w->checked[n] = !tb->mapped[n] || !body_unsound(tb, n, tb->base[n]) ? LAYER_SOUND
                                                                           : LAYER_DAMAGED;
    int sound = w->checked[n] == LAYER_SOUND;
    pthread_mutex_unlock(&w->check_lock);
    if (!sound)
        mark_damaged(tb);
    return sound;
}

/* cell_sound(), a probe's, in a layer read whole (layer_sound()): one that
 * is not marks tb damaged (the flag is the one thing a probe writes but
 * for the layers' checks; any thread may, all write the same). */
static int cell_checked(const pmn_tablebase *tb, unsigned n, const int8_t *c)
{
    if (__builtin_expect(__atomic_load_n(&tb->checked[n], __ATOMIC_ACQUIRE) != LAYER_SOUND, 0)
        && !layer_sound(tb, n))
        return 0;
    if (cell_sound(tb, n, c))
        return 1;
    mark_damaged(tb);
    return 0;
}

const int *tablebase_damaged_flag(const pmn_tablebase *tb)
{
    return &tb->damaged;
}

int pmn_tablebase_damaged(const pmn_tablebase *tb)
{
    return __atomic_load_n(&tb->damaged, __ATOMIC_RELAXED);
}

/* Where tb keeps p's value(s), sound (cell_checked()): the layer *n and
 * the index *i of its code; NULL if tb
 * does not hold p or holds no value it can have. */
static const int8_t *cell_at(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                             unsigned *n)
{
    uint8_t h[TB_MAX_HOLES];
    if (r->pits != tb->k / 2)
        return NULL;
    return tablebase_at(tb, r->pits, h, counts_of(r, p, h), n);
}

static const int8_t *cell_of(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                             unsigned *n)
{
    const int8_t *c = cell_at(tb, r, p, n);
    return c && cell_checked(tb, *n, c) ? c : NULL;
}

int tablebase_probe(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p, int *v)
{
    unsigned n;
    const int8_t *c = cell_of(tb, r, p, &n);
    int hi, lo;
    if (!c)
        return 0;
    cell_values(tb, n, c, &hi, &lo);
    if (hi != lo)
        return 0;   /* bounds (own seeds): no one value */
    *v = hi;
    return 1;
}

int tablebase_probe_bounds(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                           int *lo, int *hi)
{
    unsigned n;
    const int8_t *c = tablebase_locate(tb, r, p, &n);
    return c && tablebase_cell_bounds(tb, c, n, lo, hi);
}

int tablebase_own_seeds(const pmn_tablebase *tb)
{
    return tb->own;
}

int tablebase_cell_bounds(const pmn_tablebase *tb, const int8_t *cell, unsigned layer, int *lo,
                          int *hi)
{
    if (!cell_checked(tb, layer, cell))
        return 0;
    cell_values(tb, layer, cell, hi, lo);
    return 1;
}

const int8_t *tablebase_at(const pmn_tablebase *tb, unsigned pits, const uint8_t *h, unsigned n,
                           unsigned *layer)
{
    if (pits != tb->k / 2 || n > tb->seeds)
        return NULL;
    *layer = n;
    return &tb->layer[n][rank_of(tb, h, n)];
}

const int8_t *tablebase_locate(const pmn_tablebase *tb, const pmn_rules *r,
                               const pmn_position *p, unsigned *layer)
{
    return cell_at(tb, r, p, layer);
}

int tablebase_move_value(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                         const pmn_position *c, const pmn_move_report *rep, long *v)
{
    int me = p->to_move, cv;
    if (rep->ending != PMN_END_NONE) {
        unsigned long seeds[2];
        *v = rep->outcome == PMN_DRAWN || rep->outcome == PMN_ONGOING
          || !pmn_final_seeds(r, rep->ending, c, seeds) ? 0 : (long)seeds[me] - (long)seeds[!me];
        return 1;
    }
    if (!tablebase_probe(tb, r, c, &cv))
        return 0;
    long cd = (long)c->captured[me] - (long)c->captured[!me];
    *v = c->to_move == me ? cd + cv : cd - cv;
    return 1;
}

/* The hole the winner of p plays, which the databases hold (coded
 * layers, own seeds), or -1. */
static int stored_move(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p)
{
    unsigned n;
    const int8_t *c = tb->coded || tb->own ? cell_of(tb, r, p, &n) : NULL;
    return c ? code_hole(tb, n, (uint8_t)c[0]) : -1;
}

/* Own seeds: the line of best play, each ply's moves valued with the
 * path since the last capture (a value the search with the path found has
 * no move held for it): at each ply a move that keeps the value, out of
 * the layer where one does, to the end of the game, the first repetition,
 * `max` moves, or a move whose value is not found. */
/* A line's next position: pick, reached from q by a move whose report is
 * rep, becomes q; v (the value for q's side to move) turns with the side
 * to move, and the positions seen since the last capture start again
 * after one.  0 where the line ends there: the game's end, or, where
 * positions repeat, a repetition of one of seen[0..nseen) (the rules end
 * the game). */
static int line_step(const pmn_rules *r, int repeats, const pmn_position *seen,
                     unsigned *nseen, pmn_position *q, const pmn_position *pick,
                     const pmn_move_report *rep, long *v)
{
    if (rep->ending != PMN_END_NONE)
        return 0;
    if (pick->to_move != q->to_move)
        *v = -*v;
    if (pmn_irreversible(rep))
        *nseen = 0;
    *q = *pick;
    for (unsigned j = 0; j < *nseen && repeats; j++)
        if (pmn_position_equal(r, &seen[j], q))
            return 0;
    return 1;
}

#define OWN_LINE_PROBE (UINT64_C(1) << 16)   /* positions a probe's search */
#define OWN_LINE_ALL (UINT64_C(1) << 21)     /* and the line's in all */

static unsigned own_line(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                         long v, int *line, unsigned max, uint64_t *played)
{
    /* (A line is asked for often -- the depth search's at each iteration
     * whose line reaches the databases -- and is worth no more than a
     * value: its searches are held to small budgets, and it ends where
     * one passes them.  Without them, annotate took 105 s for
     * samples/oware/selfplay-2.pmn with databases to 10 seeds, 21 s
     * without databases.) */
    pmn_position seen[PMN_MAX_PV + 1], q = *p;
    unsigned n = 0, nseen = 0;
    struct tablebase_history *h = NULL;
    unsigned h_layer = 0;
    while (n < max) {
        int holes[PMN_MAX_SIDE_PITS], chosen = -1, out = 0, solved = 0;
        int nm = pmn_legal_moves(r, &q, holes);
        pmn_position pick;
        pmn_move_report pick_rep;
        uint8_t c[TB_MAX_HOLES];
        assert(nseen <= PMN_MAX_PV && max <= PMN_MAX_PV);   /* (tablebase_line's max) */
        seen[nseen++] = q;
        for (int j = 0; j < nm; j++) {
            pmn_position k = q;
            pmn_move_report rep;
            long mv;
            int cv;
            pmn_play(r, &k, holes[j], &rep);
            if (played)
                (*played)++;
            int leaves = rep.ending != PMN_END_NONE || pmn_irreversible(&rep);
            if (leaves) {
                if (!tablebase_move_value(tb, r, &q, &k, &rep, &mv))
                    continue;
            } else {
                /* The layer solved again once a ply: the ends are the same
                 * for each of q's moves. */
                if (!solved) {
                    unsigned layer = counts_of(r, &k, c);
                    if (!h || h_layer != layer) {
                        tablebase_history_free(h);
                        h = tablebase_history_new(tb, layer, UINT64_MAX);
                        h_layer = layer;
                        if (!h)
                            break;
                        tablebase_history_limit(h, OWN_LINE_PROBE);
                    }
                    tablebase_history_solve(h, seen, nseen);
                    solved = 1;
                }
                if (tablebase_history_searched(h) > OWN_LINE_ALL
                    || tablebase_history_probe(h, &k, &cv) != 1)
                    continue;
                long cd = (long)k.captured[q.to_move] - (long)k.captured[!q.to_move];
                mv = k.to_move == q.to_move ? cd + cv : cd - cv;
            }
            if (mv != v || (chosen >= 0 && out))
                continue;
            chosen = holes[j];
            out = leaves;
            pick = k;
            pick_rep = rep;
        }
        if (chosen < 0)
            break;
        line[n++] = chosen;
        if (!line_step(r, 1, seen, &nseen, &q, &pick, &pick_rep, &v))
            break;
    }
    tablebase_history_free(h);
    return n;
}

unsigned tablebase_line(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                        int *line, unsigned max, uint64_t *played)
{
    pmn_position seen[PMN_MAX_PV + 1], q = *p, pick;
    pmn_move_report pick_rep;
    int pv;
    unsigned n = 0, nseen = 0;
    if (!tablebase_probe(tb, r, p, &pv))
        return 0;
    if (max > PMN_MAX_PV)
        max = PMN_MAX_PV;
    int acyclic = rules_acyclic(r);
    long v = (long)p->captured[p->to_move] - (long)p->captured[!p->to_move] + pv;
    if (tb->own)
        return own_line(tb, r, p, v, line, max, played);
    while (n < max) {
        int holes[PMN_MAX_SIDE_PITS];
        int nm = pmn_legal_moves(r, &q, holes), chosen = -1;
        long best_rank = 0;
        long here = v - ((long)q.captured[q.to_move] - (long)q.captured[!q.to_move]);
        int keep = stored_move(tb, r, &q);   /* coded layers, own seeds: the winner's */
        assert(nseen <= PMN_MAX_PV);
        seen[nseen++] = q;
        for (int j = 0; j < nm; j++) {
            pmn_position c = q;
            pmn_move_report rep;
            long mv;
            pmn_play(r, &c, holes[j], &rep);
            if (played)
                (*played)++;
            if (!tablebase_move_value(tb, r, &q, &c, &rep, &mv) || mv != v)
                continue;
            /* Which move of the value: the winner's out of the layer, or
             * the one the layer holds for him (nearer the way out); the
             * loser's one that stays in it (the slower). */
            long rank;
            int cv;
            if (rep.ending != PMN_END_NONE || pmn_irreversible(&rep)
                || !tablebase_probe(tb, r, &c, &cv))
                rank = here > 0 || tb->own ? 1L << 20 : 0;
            else if (tb->coded || tb->own)
                rank = here > 0 ? (holes[j] == keep ? 1 : -1) : 1;
            else
                rank = 0;   /* no position repeats: any move that keeps the value ends */
            if (chosen < 0 || rank > best_rank) {
                chosen = holes[j];
                best_rank = rank;
                pick = c;
                pick_rep = rep;
            }
        }
        if (chosen < 0)
            break;
        line[n++] = chosen;
        if (!line_step(r, !acyclic, seen, &nseen, &q, &pick, &pick_rep, &v))
            break;
    }
    return n;
}

int pmn_tablebase_probe(const pmn_tablebase *tb, const pmn_position *p, int *margin)
{
    int v;
    if (!tablebase_probe(tb, &tb->rules, p, &v))
        return 0;
    *margin = v;
    return 1;
}

int pmn_tablebase_probe_bounds(const pmn_tablebase *tb, const pmn_position *p, int *low,
                               int *high)
{
    return tablebase_probe_bounds(tb, &tb->rules, p, low, high);
}

int tablebase_same_rules(const pmn_tablebase *tb, const pmn_rules *r)
{
    char spec[TB_SPEC];
    pmn_rules built;
    pmn_tablebase_built_rules(r, &built);
    tb_spec(&built, spec, sizeof spec);
    return strcmp(spec, tb->spec) == 0;
}
