/* engine.c - legal moves and playing a move: sowing, captures, the end of
 * the game, and the proof that an endless move never ends. */
#include "pmn.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* The sowing state at a lap boundary: the mover's holes, the hole reached,
 * the seeds in hand.  Sowing never touches the opponent's holes, so this is
 * all a move's future depends on. */
struct sow {
    uint16_t pit[PMN_MAX_SIDE_PITS];
    unsigned n;       /* holes in the cycle */
    unsigned at;      /* the hole the seeds in hand were lifted from */
    uint32_t hand;
};

/* Sow the seeds in hand from the hole after `at`.  Returns 1 if the last seed
 * fell into an occupied hole, which is lifted for a new lap; 0 if it fell into
 * an empty hole, where the move ends (s->at is that hole, s->hand 0). */
static int sow_lap(struct sow *s)
{
    uint32_t h = s->hand;
    unsigned a = s->at;
    uint32_t rounds = (h - 1) / s->n;   /* whole turns, keeping 1..n seeds */
    if (rounds) {
        for (unsigned i = 0; i < s->n; i++)
            s->pit[i] = (uint16_t)(s->pit[i] + rounds);
        h -= rounds * s->n;
    }
    while (h--) {
        if (++a == s->n)
            a = 0;
        s->pit[a]++;
    }
    s->at = a;
    if (s->pit[a] > 1) {
        s->hand = s->pit[a];
        s->pit[a] = 0;
        return 1;
    }
    s->hand = 0;
    return 0;
}

/* The same state turned around the cycle: equal seen from the hole reached.
 * Sowing treats every hole of the cycle alike, so a turned repeat is a proof
 * too. */
static int same_turned(const struct sow *x, const struct sow *y)
{
    if (x->hand != y->hand)
        return 0;
    for (unsigned i = 0, a = x->at, b = y->at; i < x->n; i++) {
        if (x->pit[a] != y->pit[b])
            return 0;
        if (++a == x->n) a = 0;
        if (++b == y->n) b = 0;
    }
    return 1;
}

/* Brent's cycle detection on the laps that follow *lap0, with two states of
 * memory whatever the number of seeds.  Returns 1 and the period once a lap
 * repeats turned, or 0 if the sowing ends, with its last state in *end;
 * *laps counts the sowings seen. */
static int find_period(const struct sow *lap0, uint64_t *period, uint64_t *laps,
                       struct sow *end)
{
    struct sow saved = *lap0, *s = end;
    *s = *lap0;
    uint64_t power = 1, lam = 1;
    *laps = 1;
    while (sow_lap(s)) {
        ++*laps;
        if (same_turned(s, &saved)) {
            *period = lam;
            return 1;
        }
        if (power == lam) {
            saved = *s;
            power *= 2;
            lam = 0;
        }
        lam++;
    }
    return 0;
}

/* The first lap equal to an earlier one turned, and that earlier lap (mu):
 * walk two states `period` laps apart from lap 0 until they meet.  Leaves
 * *a at lap mu and *b at lap mu + period. */
static uint64_t first_turned_repeat(const struct sow *lap0, uint64_t period,
                                    struct sow *a, struct sow *b)
{
    uint64_t mu = 0;
    *a = *b = *lap0;
    for (uint64_t i = 0; i < period; i++)
        sow_lap(b);
    while (!same_turned(a, b)) {
        sow_lap(a);
        sow_lap(b);
        mu++;
    }
    return mu;
}

static unsigned gcd(unsigned x, unsigned y)
{
    while (y) {
        unsigned t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* The exact repeat follows from the turned one without sowing further.
 * Sowing commutes with turning the cycle, so if lap mu + p is lap mu turned
 * by d holes, lap mu + j*p is lap mu turned by j*d, and the same state
 * exactly when j*d is a whole number of turns (the hole reached is part of
 * the state).  No lap before mu can repeat exactly, or it would repeat turned;
 * so the exact loop starts at mu too, with period p * n / gcd(d, n). */
static void prove_endless(const struct sow *lap0, uint64_t turned_period,
                          pmn_move_report *rep)
{
    struct sow a, b;
    uint64_t mu = first_turned_repeat(lap0, turned_period, &a, &b);
    unsigned d = (b.at + lap0->n - a.at) % lap0->n;
    rep->rotated_from = mu;
    rep->rotated_lap = mu + turned_period;
    rep->loop_from = mu;
    rep->loop_lap = mu + turned_period * (lap0->n / gcd(d, lap0->n));
}

pmn_legality pmn_move_legality(const pmn_rules *r, const pmn_position *p, int hole)
{
    const uint16_t *pit = p->pit[p->to_move];
    if (hole < 0 || (unsigned)hole >= r->pits)
        return PMN_ILLEGAL_NO_SUCH_HOLE;
    if (pit[hole] == 0)
        return PMN_ILLEGAL_EMPTY;
    if (pit[hole] >= r->min_lift)
        return PMN_LEGAL;
    for (unsigned i = 0; i < r->pits; i++)
        if (pit[i] >= r->min_lift)
            return PMN_ILLEGAL_SINGLETON;
    if (pit[((unsigned)hole + 1) % r->pits] != 0)
        return PMN_ILLEGAL_SINGLETON_OCCUPIED;
    return PMN_LEGAL;
}

int pmn_legal_moves(const pmn_rules *r, const pmn_position *p,
                    int moves[PMN_MAX_SIDE_PITS])
{
    int n = 0;
    for (unsigned i = 0; i < r->pits; i++)
        if (pmn_move_legality(r, p, (int)i) == PMN_LEGAL)
            moves[n++] = (int)i;
    return n;
}

/* A last seed in an empty front hole takes the facing front hole, if it is
 * not empty, and (by rule) the back hole behind that. */
static unsigned capture(const pmn_rules *r, uint16_t *opp, unsigned end)
{
    unsigned w = r->holes_per_row;
    if (end < w)
        return 0;
    unsigned facing = 3 * w - 1 - end;
    unsigned behind = 2 * w - 1 - facing;
    if (opp[facing] == 0)
        return 0;
    unsigned taken = opp[facing];
    opp[facing] = 0;
    if (r->capture == PMN_CAPTURE_FRONT_AND_BACK) {
        taken += opp[behind];
        opp[behind] = 0;
    }
    return taken;
}

static pmn_outcome win_for(int side)
{
    return side == PMN_SOUTH ? PMN_SOUTH_WINS : PMN_NORTH_WINS;
}

/* Cheaper than pmn_legal_moves: any hole of min_lift seeds is a move, and
 * only without one do single seeds count. */
static int has_legal_move(const pmn_rules *r, const pmn_position *p)
{
    const uint16_t *pit = p->pit[p->to_move];
    for (unsigned i = 0; i < r->pits; i++)
        if (pit[i] >= r->min_lift)
            return 1;
    for (unsigned i = 0; i < r->pits; i++)
        if (pit[i] && pmn_move_legality(r, p, (int)i) == PMN_LEGAL)
            return 1;
    return 0;
}

pmn_ending pmn_position_ending(const pmn_rules *r, const pmn_position *p,
                               pmn_outcome *outcome)
{
    pmn_ending e = PMN_END_NONE;
    if (pmn_position_seeds(r, p, p->to_move) == 0)
        e = PMN_END_NO_SEEDS;
    else if (r->no_move == PMN_NO_MOVE_LOSES && !has_legal_move(r, p))
        e = PMN_END_NO_MOVE;
    if (outcome)
        *outcome = e == PMN_END_NONE ? PMN_ONGOING : win_for(!p->to_move);
    return e;
}

int pmn_play(const pmn_rules *r, pmn_position *p, int hole, pmn_move_report *rep)
{
    pmn_legality l = pmn_move_legality(r, p, hole);
    if (l != PMN_LEGAL)
        return (int)l;

    int side = p->to_move;
    struct sow lap0, s;
    uint64_t period;
    memset(rep, 0, sizeof *rep);
    rep->side = side;
    rep->hole = hole;

    memcpy(lap0.pit, p->pit[side], r->pits * sizeof lap0.pit[0]);
    lap0.n = r->pits;
    lap0.at = (unsigned)hole;
    lap0.hand = lap0.pit[hole];
    lap0.pit[hole] = 0;

    if (find_period(&lap0, &period, &rep->laps, &s)) {
        prove_endless(&lap0, period, rep);
        rep->laps = 0;
        rep->end_hole = -1;
        rep->ending = PMN_END_ENDLESS;
        rep->outcome = r->endless == PMN_ENDLESS_DRAW ? PMN_DRAWN : win_for(!side);
        return 0;
    }

    memcpy(p->pit[side], s.pit, r->pits * sizeof s.pit[0]);
    rep->end_hole = (int)s.at;
    rep->captured = capture(r, p->pit[!side], s.at);
    p->captured[side] += rep->captured;
    p->to_move = (uint8_t)!side;
    rep->ending = pmn_position_ending(r, p, &rep->outcome);
    return 0;
}

const char *pmn_legality_string(pmn_legality l)
{
    switch (l) {
    case PMN_LEGAL: return "legal";
    case PMN_ILLEGAL_NO_SUCH_HOLE: return "no such hole";
    case PMN_ILLEGAL_EMPTY: return "the hole is empty";
    case PMN_ILLEGAL_SINGLETON:
        return "a single seed may not be moved while a hole holds two or more";
    case PMN_ILLEGAL_SINGLETON_OCCUPIED:
        return "a single seed may not be moved into an occupied hole";
    }
    return "unknown";
}

const char *pmn_ending_string(pmn_ending e)
{
    switch (e) {
    case PMN_END_NONE: return "not ended";
    case PMN_END_NO_SEEDS: return "no seeds left";
    case PMN_END_NO_MOVE: return "no legal move";
    case PMN_END_ENDLESS: return "endless move";
    case PMN_END_REPETITION: return "position repeated";
    }
    return "unknown";
}

void pmn_ending_explain(pmn_ending e, int mover, char *buf, size_t size)
{
    if (e == PMN_END_NO_SEEDS)
        snprintf(buf, size, "%s has no seeds left", pmn_side_name(!mover));
    else if (e == PMN_END_NO_MOVE)
        snprintf(buf, size, "%s has no legal move", pmn_side_name(!mover));
    else
        snprintf(buf, size, "%s", pmn_ending_string(e));
}

const char *pmn_outcome_string(pmn_outcome o)
{
    switch (o) {
    case PMN_ONGOING: return "*";
    case PMN_SOUTH_WINS: return "1-0";
    case PMN_NORTH_WINS: return "0-1";
    case PMN_DRAWN: return "1/2-1/2";
    }
    return "*";
}

int pmn_outcome_parse(const char *s, pmn_outcome *o)
{
    static const pmn_outcome all[] = { PMN_SOUTH_WINS, PMN_NORTH_WINS, PMN_DRAWN, PMN_ONGOING };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(s, pmn_outcome_string(all[i])) == 0) {
            if (o)
                *o = all[i];
            return 0;
        }
    return -1;
}
