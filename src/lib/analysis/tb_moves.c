/* tb_moves.c - the databases' values of one position: its moves played
 * on the counts, those that leave the layer valued from the layers below
 * (tb_exits(), and Kalah's sowing on the counts, tb_kalah_sow()). */
#include "tb.h"

/* tb_exits() of rules that sow as Kalah (engine_sows_as_kalah()), played on the
 * counts, into *out: no position is made, no move report, and a lap of the
 * board is added at once.  The value of each kid in `here` (the layer
 * being built), if not NULL, is asked for too.  It must give what tb_exits()
 * gives through pmn_play: test_tablebase holds the two to the same values
 * and kids on every position of the small layers (tablebase_kalah_agrees()). */
void tb_kalah_sow(const pmn_tablebase *tb, const uint8_t *h, unsigned n,
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
            uint64_t r = tb_rank_of(tb, c, n);
            if (here)
                PREFETCH(&here[r]);
            out->kid[nkids++] = r;
            continue;
        }
        out->cell[nread] = &tb->layer[left][tb_rank_of(tb, c, left)];
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
            tb_unrank(tb, i, n, h);
            tb_kalah_sow(tb, h, n, NULL, &a);
            int va = tb_sown_best(&a);
            int vb = tb_exits(tb, &tb->rules, h, n, note_kid, &b, NULL, NULL, 1);
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
 * side to move South, as tb_position_of() lays it; rep its report) is worth
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
    unsigned left = tb_counts_of(r, q, c);
    int gain = (int)q->captured[0] - (int)q->captured[1];
    if (left == n) {
        assert(q->to_move == 1 && gain == 0);
        return 0;
    }
    if (!values)
        return 1;
    int hi, lo;
    tb_cell_values(tb, left, &tb->layer[left][tb_rank_of(tb, c, left)], &hi, &lo);
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
int tb_exits(const pmn_tablebase *tb, const pmn_rules *r, const uint8_t *h, unsigned n,
                 void (*inner)(void *ctx, uint64_t child, const uint8_t *counts, int hole),
                 void *ctx, int *low, int *best_hole, int values)
{
    pmn_position p;
    int best = INT8_MIN, best_low = INT8_MIN, v, vlow;
    if (best_hole)
        *best_hole = 0;
    tb_position_of(r, h, &p);
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
            inner(ctx, tb_rank_of(tb, c, n), c, holes[i]);
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

