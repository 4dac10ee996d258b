/* perft.c - counting move sequences: the engine's self-test and benchmark. */
#include "pmn.h"
#include "util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* perft by pmn_legal_moves and the general engine, for every rule set. */
uint64_t pmn_perft_general(const pmn_rules *r, const pmn_position *p, unsigned depth)
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
        pmn_play_general(r, &q, moves[i], &rep);
        if (rep.ending == PMN_END_NONE)
            total += pmn_perft_general(r, &q, depth - 1);
    }
    return total;
}

/* The fast path for the family of Hawalis: relay laps round the mover's own
 * holes, no store, captures of the facing front (and back) hole, no extra
 * turn, and a game lost by the side left without a move.  There the counts
 * depend on the holes alone, which fit in bytes: a side's holes are one
 * 128-bit number, a lap adds a row of a table to it, the holes that lift are
 * found for all of them at once, and where the moves of the last level but
 * one end is kept (struct sown).  A move still sowing after LAP_LIMIT laps
 * goes to the general engine, which proves it endless or sows it to its end.
 * test_perft compares the two paths on random positions.  Without 128-bit
 * numbers (a compiler other than GCC or Clang) every count takes the
 * general path.  perft 8 from the opening: 0.45 s by the general engine,
 * 0.07 s here. */
#if defined(__SIZEOF_INT128__)
#define RELAY_FAST 1
#define LAP_LIMIT 4096

typedef unsigned __int128 holes;

static const uint64_t HIGH = 0x8080808080808080ull, BYTES = 0x0101010101010101ull;

struct relay {
    const pmn_rules *r;
    unsigned n, w;            /* holes a side, holes a row */
    int capture, back;        /* a front capture; and the hole behind it */
    uint64_t lifts;           /* each byte 0x80 - min_lift: the high bit where a hole lifts */
    holes ones;               /* 1 in each byte of a hole */
    holes facing[16];         /* [end]: the hole a sowing ending there takes, if any */
    holes taken[16];          /* [end]: the holes it empties then */
    holes span[16][32];       /* [a][h]: 1 in the bytes of the h holes after a */
    uint8_t end[16][32];      /* [a][h]: the hole h after a */
};

static int relay_fits(const pmn_rules *r, const pmn_position *p, struct relay *f)
{
    if (r->cycle != PMN_CYCLE_OWN_ROWS || r->laps != PMN_LAPS_RELAY || r->stores
        || r->skip_origin || r->extra != PMN_EXTRA_NONE || r->goal != PMN_GOAL_IMMOBILISE
        || r->feed || r->grand_slam == PMN_GRAND_SLAM_REFUSED || r->pits > 16
        || r->min_lift < 1 || r->min_lift > 0x80
        || (r->capture != PMN_CAPTURE_FRONT_AND_BACK && r->capture != PMN_CAPTURE_FRONT_ONLY
            && r->capture != PMN_CAPTURE_NONE))
        return 0;
    /* No byte may carry into the next: at most 127 seeds on the board. */
    if (pmn_position_seeds(r, p, 0) + pmn_position_seeds(r, p, 1) > 127)
        return 0;
    f->r = r;
    f->n = r->pits;
    f->w = r->holes_per_row;
    f->capture = r->capture != PMN_CAPTURE_NONE;
    f->back = r->capture == PMN_CAPTURE_FRONT_AND_BACK;
    f->lifts = (0x80u - r->min_lift) * BYTES;
    f->ones = 0;
    for (unsigned i = 0; i < f->n; i++)
        f->ones |= (holes)1 << (8 * i);
    for (unsigned end = 0; end < 16; end++) {
        f->facing[end] = f->taken[end] = 0;
        if (!f->capture || end < f->w || end >= f->n)
            continue;
        unsigned facing = 3 * f->w - 1 - end;
        f->facing[end] = f->taken[end] = (holes)0xFF << (8 * facing);
        if (f->back)
            f->taken[end] |= (holes)0xFF << (8 * (2 * f->w - 1 - facing));
    }
    memset(f->span, 0, sizeof f->span);
    memset(f->end, 0, sizeof f->end);
    for (unsigned a = 0; a < f->n; a++)
        for (unsigned h = 1; h <= f->n; h++) {
            unsigned i = (a + h) % f->n;
            f->span[a][h] = f->span[a][h - 1] | (holes)1 << (8 * i);
            f->end[a][h] = (uint8_t)i;
        }
    return 1;
}

static unsigned hole_of(holes x, unsigned i)
{
    return (unsigned)(x >> (8 * i)) & 0xFF;
}

static holes pack(const struct relay *f, const uint16_t *pit)
{
    holes x = 0;
    for (unsigned i = 0; i < f->n; i++)
        x |= (holes)pit[i] << (8 * i);
    return x;
}

/* The high bit of each byte of a hole of min_lift seeds or more. */
static uint64_t lifting(const struct relay *f, uint64_t word)
{
    return (word + f->lifts) & HIGH;
}

/* How many bytes of x have their high bit set, and no other bit. */
static unsigned high_bits(uint64_t x)
{
    return (unsigned)(((x >> 7) * BYTES) >> 56);
}

/* Single seeds (below min_lift) that may move, as bits: into an empty next
 * hole, when no hole lifts. */
static uint32_t singles(const struct relay *f, holes x)
{
    uint32_t set = 0;
    for (unsigned i = 0; i < f->n; i++)
        if (hole_of(x, i) && hole_of(x, i + 1 == f->n ? 0 : i + 1) == 0)
            set |= 1u << i;
    return set;
}

/* The holes of the side to move that may be lifted, as bits. */
static uint32_t legal_set(const struct relay *f, holes x)
{
    uint64_t lo = lifting(f, (uint64_t)x), hi = lifting(f, (uint64_t)(x >> 64));
    uint32_t set = 0;
    for (; lo; lo &= lo - 1)
        set |= 1u << (__builtin_ctzll(lo) / 8);
    for (; hi; hi &= hi - 1)
        set |= 1u << (8 + __builtin_ctzll(hi) / 8);
    return set ? set : singles(f, x);
}

static unsigned legal_count(const struct relay *f, holes x)
{
    unsigned c = high_bits(lifting(f, (uint64_t)x)) + high_bits(lifting(f, (uint64_t)(x >> 64)));
    return c ? c : (unsigned)__builtin_popcount(singles(f, x));
}

/* Sow from hole a of the side to move, relaying.  Returns the hole where
 * the sowing ends, or -1 if it has not ended after LAP_LIMIT laps.  The
 * holes stay in two 64-bit registers. */
static int relay_sow(const struct relay *f, holes *mine, unsigned a)
{
    unsigned n = f->n;
    uint64_t lo = (uint64_t)*mine, hi = (uint64_t)(*mine >> 64);
    for (unsigned lap = 0;; lap++) {
        uint64_t word = a < 8 ? lo : hi;
        unsigned at = 8 * (a & 7), h = (unsigned)(word >> at) & 0xFF;
        if (lap && h == 1)
            break;
        if (lap == LAP_LIMIT)
            return -1;
        uint64_t lifted = (uint64_t)h << at;
        lo -= a < 8 ? lifted : 0;
        hi -= a < 8 ? 0 : lifted;
        if (h > n) {   /* whole turns, keeping 1..n seeds */
            uint64_t rounds = (h - 1) / n;
            lo += rounds * (uint64_t)f->ones;
            hi += rounds * (uint64_t)(f->ones >> 64);
            h -= (unsigned)rounds * n;
        }
        lo += (uint64_t)f->span[a][h];
        hi += (uint64_t)(f->span[a][h] >> 64);
        a = f->end[a][h];
    }
    *mine = (holes)hi << 64 | lo;
    return (int)a;
}

/* The opponent's holes after a sowing that ended at `end`. */
static holes captured(const struct relay *f, holes theirs, unsigned end)
{
    return theirs & f->facing[end] ? theirs & ~f->taken[end] : theirs;
}

/* Where the moves of the side to move end, kept while its holes are the
 * same: at the last level of moves played, the opponent's move before
 * changed them only if it captured, so most positions there share them
 * with one a little before.  A few are kept, by a hash of the holes. */
#define SOWN_BITS 3

struct sown {
    holes mine;
    int known;
    unsigned n;
    uint8_t hole[16];
    int8_t end[16];           /* -1: the general engine plays it */
};

static uint64_t relay_perft(const struct relay *f, struct sown *memo, holes mine, holes theirs,
                            unsigned depth);

/* A move the fast path gave up on, played by the general engine.  Sides do
 * not matter to the counts: the mover is South. */
static uint64_t general_below(const struct relay *f, struct sown *memo, holes mine,
                              holes theirs, unsigned hole, unsigned depth)
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
static uint64_t last_two(const struct relay *f, struct sown *memo, holes mine, holes theirs)
{
    uint64_t hash = ((uint64_t)mine ^ (uint64_t)(mine >> 64)) * 0x9E3779B97F4A7C15ull;
    memo += hash >> (64 - SOWN_BITS);
    if (!memo->known || memo->mine != mine) {
        memo->mine = mine;
        memo->known = 1;
        memo->n = 0;
        for (uint32_t set = legal_set(f, mine); set; set &= set - 1) {
            unsigned hole = (unsigned)__builtin_ctz(set);
            holes m = mine;
            memo->hole[memo->n] = (uint8_t)hole;
            memo->end[memo->n++] = (int8_t)relay_sow(f, &m, hole);
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
static uint64_t relay_perft(const struct relay *f, struct sown *memo, holes mine, holes theirs,
                            unsigned depth)
{
    if (depth == 1)
        return legal_count(f, mine);
    if (depth == 2)
        return last_two(f, memo, mine, theirs);
    uint64_t total = 0;
    for (uint32_t set = legal_set(f, mine); set; set &= set - 1) {
        unsigned hole = (unsigned)__builtin_ctz(set);
        holes m = mine;
        int end = relay_sow(f, &m, hole);
        total += end < 0 ? general_below(f, memo, mine, theirs, hole, depth - 1)
                         : relay_perft(f, memo, captured(f, theirs, (unsigned)end), m, depth - 1);
    }
    return total;
}
#endif

static uint64_t perft(const pmn_rules *r, const pmn_position *p, unsigned depth)
{
#ifdef RELAY_FAST
    struct relay f;
    struct sown memo[1 << SOWN_BITS] = { 0 };
    if (depth > 0 && relay_fits(r, p, &f))
        return relay_perft(&f, memo, pack(&f, p->pit[p->to_move]),
                           pack(&f, p->pit[!p->to_move]), depth);
#endif
    return pmn_perft_general(r, p, depth);
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
