/* play.c - the engine interface (play.h): the packed engine of the relay
 * family where it fits, the general engine elsewhere. */
#include "play.h"
#include "../base/util.h"

#include <assert.h>
#include <string.h>

void engine_init(struct engine *e, const pmn_rules *r, const pmn_position *p)
{
    e->r = r;
    e->packed = 0;
    e->kalah = engine_sows_as_kalah(r);
#ifdef PMN_RELAY
    e->packed = relay_fits(r, p, &e->f);
#else
    (void)p;
#endif
}

int engine_sows_as_kalah(const pmn_rules *r)
{
    return r->rows == 1 && r->min_lift <= 1 && r->stores && !r->skip_origin
        && r->feed == PMN_FEED_NO && !r->majority && r->either_empty
        && r->cycle == PMN_CYCLE_BOTH_SIDES && r->laps == PMN_LAPS_SINGLE
        && (r->capture == PMN_CAPTURE_OPPOSITE || r->capture == PMN_CAPTURE_OPPOSITE_ALWAYS)
        && r->extra == PMN_EXTRA_STORE && r->grand_slam == PMN_GRAND_SLAM_ALLOWED
        && r->goal == PMN_GOAL_MOST_SEEDS && r->last_seeds == PMN_LAST_PLAY_ON;
}

/* A move of rules that sow as Kalah (engine_sows_as_kalah()), on the
 * position itself: pmn_play's position and report (test_engine compares
 * them), or -1 where pmn_play must answer (an illegal move).  The cycle
 * of a sowing is the mover's holes 0..m-1, his store m, the other's holes
 * m+1..2m; a sowing of s seeds goes s / (2m + 1) whole laps, each a seed
 * in every hole of the cycle (the hole sown from too), then the rest from
 * the next hole on. */
static int kalah_play(const pmn_rules *r, pmn_position *p, int hole, pmn_move_report *rep)
{
    const unsigned m = r->pits, len = 2 * m + 1;
    int side = p->to_move;
    uint16_t *own = p->pit[side], *opp = p->pit[!side];
    if ((unsigned)hole >= m || own[hole] == 0)
        return -1;
    /* (most sowings go less than a lap: no division for them) */
    unsigned seeds = own[hole], laps = seeds < len ? 0 : seeds / len;
    unsigned rest = seeds - laps * len, last = (unsigned)hole + rest, stored = laps;
    if (last >= len)
        last -= len;
    own[hole] = 0;
    if (laps)
        for (unsigned j = 0; j < m; j++) {
            own[j] = (uint16_t)(own[j] + laps);
            opp[j] = (uint16_t)(opp[j] + laps);
        }
    for (unsigned j = 0, at = (unsigned)hole + 1; j < rest; j++, at++) {
        if (at == len)
            at = 0;
        if (at < m)
            own[at]++;
        else if (at == m)
            stored++;
        else
            opp[at - m - 1]++;
    }
    unsigned taken = 0;
    if (last < m && own[last] == 1) {
        unsigned facing = m - 1 - last;
        if (opp[facing] > 0 || r->capture == PMN_CAPTURE_OPPOSITE_ALWAYS) {
            taken = 1u + opp[facing];
            own[last] = opp[facing] = 0;
        }
    }
    *rep = (pmn_move_report){
        .side = side,
        .hole = hole,
        .laps = 1,
        .stored = stored,
        .captured = taken,
        .end_side = last <= m ? side : !side,
        .end_hole = last < m ? (int)last : last == m ? -1 : (int)(last - m - 1),
        .extra = last == m,
    };
    p->captured[side] += taken + stored;
    if (taken)
        p->last_capturer = (uint8_t)(side + 1);
    p->to_move = (uint8_t)(rep->extra ? side : !side);
    unsigned long on[2] = { 0, 0 };
    for (unsigned j = 0; j < m; j++) {
        on[0] += p->pit[0][j];
        on[1] += p->pit[1][j];
    }
    if (on[0] == 0 || on[1] == 0) {   /* over: each side takes his own */
        unsigned long a = p->captured[0] + on[0], b = p->captured[1] + on[1];
        rep->ending = PMN_END_NO_SEEDS;
        rep->outcome = a > b ? PMN_SOUTH_WINS : a < b ? PMN_NORTH_WINS : PMN_DRAWN;
    }
    return 0;
}

#ifdef PMN_RELAY
/* A move of the relay family, packed: pmn_play's position and report
 * (test_engine compares them), or -1 where the general engine must play
 * it (an illegal move, or a sowing past RELAY_LAP_LIMIT laps). */
static int packed_play(const struct relay *f, pmn_position *p, int hole, pmn_move_report *rep,
                       uint64_t *key)
{
    int side = p->to_move;
    holeset mine = pack(f, p->pit[side]), theirs = pack(f, p->pit[!side]);
    assert(seeds_of(mine) + seeds_of(theirs) <= 127);
    if ((unsigned)hole >= f->n || !(unsigned)(legal_bytes(f, mine) >> (8 * hole + 7) & 1))
        return -1;
    unsigned laps;
    int end = relay_sow(f, &mine, (unsigned)hole, RELAY_LAP_LIMIT, &laps);
    if (end < 0)
        return -1;
    unsigned taken = 0;
    if (theirs & f->facing[end]) {
        taken = seeds_of(theirs & f->taken[end]);
        theirs &= ~f->taken[end];
    }
    memset(rep, 0, sizeof *rep);
    rep->side = side;
    rep->hole = hole;
    rep->laps = laps;
    rep->end_side = side;
    rep->end_hole = end;
    rep->captured = taken;
    unpack(mine, p->pit[side]);
    unpack(theirs, p->pit[!side]);
    p->captured[side] += taken;
    if (taken)
        p->last_capturer = (uint8_t)(side + 1);
    p->to_move = (uint8_t)!side;
    if (key)
        *key = relay_key(theirs, mine, !side);
    /* The family's only end: the side to move has no move, and has lost. */
    if (!legal_bytes(f, theirs)) {
        rep->ending = seeds_of(theirs) ? PMN_END_NO_MOVE : PMN_END_NO_SEEDS;
        rep->outcome = side == PMN_SOUTH ? PMN_SOUTH_WINS : PMN_NORTH_WINS;
    }
    return 0;
}
#endif

int engine_moves(const struct engine *e, const pmn_position *p, int moves[PMN_MAX_SIDE_PITS])
{
#ifdef PMN_RELAY
    if (e->packed) {
        int n = 0;
        for (uint32_t set = legal_set(&e->f, pack(&e->f, p->pit[p->to_move])); set;
             set &= set - 1)
            moves[n++] = __builtin_ctz(set);
        return n;
    }
#endif
    if (e->kalah) {   /* no rule of lifting, feeding or slams: every hole with seeds */
        const uint16_t *pit = p->pit[p->to_move];
        int n = 0;
        for (unsigned i = 0; i < e->r->pits; i++)
            if (pit[i])
                moves[n++] = (int)i;
        return n;
    }
    return pmn_legal_moves(e->r, p, moves);
}

int engine_play(const struct engine *e, pmn_position *p, int hole, pmn_move_report *rep,
                uint64_t *key)
{
    if (e->kalah && kalah_play(e->r, p, hole, rep) == 0) {
        if (key)
            *key = engine_key(e->r, p);
        return 0;
    }
#ifdef PMN_RELAY
    if (e->packed && packed_play(&e->f, p, hole, rep, key) == 0)
        return 0;
#endif
    int rc = pmn_play(e->r, p, hole, rep);
    if (rc == 0 && key)
        *key = engine_key(e->r, p);
    return rc;
}

uint64_t engine_key(const pmn_rules *r, const pmn_position *p)
{
    return engine_key_as(r, p, p->to_move);
}

uint64_t pmn_position_key(const pmn_rules *r, const pmn_position *p, int side)
{
    /* Finalised: an index keeps the top bits of a key (play.h's is linear
     * in the holes, its high bits carried from the low ones). */
    return pmn_mix64(engine_key_as(r, p, side));
}

uint64_t engine_key_as(const pmn_rules *r, const pmn_position *p, int me)
{
    uint64_t mine[2], theirs[2];
    if (r->pits <= 16 && pit_words(p->pit[me], r->pits, mine)
        && pit_words(p->pit[!me], r->pits, theirs))
        return key_of_words(mine[0], mine[1], theirs[0], theirs[1], me);
    /* Past what bytes hold: every hole mixed in. */
    uint64_t h = 0x9E3779B97F4A7C15ULL * (1u + (unsigned)me);
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < r->pits; i++)
            h = pmn_mix64(h ^ ((uint64_t)p->pit[s ? !me : me][i] << 16 | (uint64_t)s << 8 | i));
    return h;
}
