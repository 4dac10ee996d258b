/* play.c - the engine interface (play.h): the packed engine of the relay
 * family where it fits, the general engine elsewhere. */
#include "play.h"
#include "util.h"

#include <assert.h>
#include <string.h>

void engine_init(struct engine *e, const pmn_rules *r, const pmn_position *p)
{
    e->r = r;
    e->packed = 0;
#ifdef PMN_RELAY
    e->packed = relay_fits(r, p, &e->f);
#else
    (void)p;
#endif
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
    return pmn_legal_moves(e->r, p, moves);
}

int engine_play(const struct engine *e, pmn_position *p, int hole, pmn_move_report *rep,
                uint64_t *key)
{
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
    int me = p->to_move;
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
