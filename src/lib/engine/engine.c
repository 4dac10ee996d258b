/* engine.c - legal moves and playing a move: sowing, captures, the end of
 * the game, and the proof that an endless move never ends. */
#include "pmn.h"
#include "front.h"
#include "../base/util.h"

#include <stdio.h>
#include <string.h>

/* The sowing state at a lap boundary: the holes of the cycle, the hole
 * reached, the seeds in hand.  Hawalis sowing never leaves the mover's own
 * holes; a two-row game's cycle is the whole board, from the mover's first
 * hole: his holes at 0..m-1, his store (if sown) at m, then the opponent's.
 * What the sowing depends on is all here. */
struct sow {
    uint16_t pit[2 * PMN_MAX_SIDE_PITS + 1];
    unsigned n;         /* holes in the cycle */
    unsigned m;         /* the mover's holes are 0..m-1 */
    unsigned store;     /* the mover's store, or n */
    unsigned skip;      /* the hole a lap passes over, or n */
    unsigned at;        /* the hole the seeds in hand were lifted from */
    uint32_t hand;
    int relay;          /* a last seed in an occupied hole is lifted again */
    int fours;          /* a hole reaching four is taken at once */
    int plain;          /* neither store, skip nor fours: whole turns at once */
    uint32_t took[2];   /* seeds taken on the way: by the mover, by the other */
    int last_four;      /* the last seed made four: the mover took them */
    int last_taker;     /* who took last on the way: 0 mover, 1 other, -1 none */
    uint8_t *fours_at;  /* NULL, or a flag a hole: a four was taken there */
};

/* Sow the seeds in hand from the hole after `at`.  Returns 1 if the last seed
 * fell into an occupied hole, which is lifted for a new lap; 0 if the move
 * ends there (s->at is the hole, s->hand 0). */
static int sow_lap(struct sow *s)
{
    uint32_t h = s->hand;
    unsigned a = s->at;
    if (s->plain) {
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
    } else {
        while (h) {
            if (++a == s->n)
                a = 0;
            if (a == s->skip)
                continue;
            s->pit[a]++;
            h--;
            if (s->fours && s->pit[a] == 4 && a != s->store) {
                s->pit[a] = 0;
                /* Four made by the last seed go to the mover and end the move;
                 * any other four, to the owner of the hole. */
                int taker = h == 0 ? 0 : a >= s->m;
                s->took[taker] += 4;
                s->last_taker = taker;
                if (s->fours_at)
                    s->fours_at[a] = 1;
                if (h == 0) {
                    s->last_four = 1;
                    s->at = a;
                    s->hand = 0;
                    return 0;
                }
            }
        }
    }
    s->at = a;
    if (s->relay && a != s->store && s->pit[a] > 1) {
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

/* The cycle of a move from `hole`, with its seeds lifted: lap 0. */
static void load(const pmn_rules *r, const pmn_position *p, int side, int hole,
                 struct sow *s)
{
    unsigned m = r->pits, other = m;
    s->m = m;
    memcpy(s->pit, p->pit[side], m * sizeof s->pit[0]);
    if (r->cycle == PMN_CYCLE_OWN_ROWS) {
        s->n = m;
    } else {
        if (r->stores)
            s->pit[other++] = 0;
        memcpy(s->pit + other, p->pit[!side], m * sizeof s->pit[0]);
        s->n = other + m;
    }
    s->store = r->stores ? m : s->n;
    s->skip = r->skip_origin ? (unsigned)hole : s->n;
    s->relay = r->laps == PMN_LAPS_RELAY;
    s->fours = r->capture == PMN_CAPTURE_FOURS;
    s->plain = !s->fours && s->skip == s->n && s->store == s->n;
    s->took[0] = s->took[1] = 0;
    s->last_four = 0;
    s->last_taker = -1;
    s->fours_at = NULL;
    s->at = (unsigned)hole;
    s->hand = s->pit[hole];
    s->pit[hole] = 0;
}

/* The cycle back onto the board; where the last seed fell. */
static void unload(const pmn_rules *r, const struct sow *s, int side, pmn_position *p,
                   pmn_move_report *rep)
{
    unsigned m = r->pits, other = m + (s->store < s->n);
    memcpy(p->pit[side], s->pit, m * sizeof s->pit[0]);
    if (r->cycle == PMN_CYCLE_BOTH_SIDES)
        memcpy(p->pit[!side], s->pit + other, m * sizeof s->pit[0]);
    rep->stored = s->store < s->n ? s->pit[s->store] : 0;
    rep->end_side = s->at < m || s->at == s->store ? side : !side;
    rep->end_hole = s->at == s->store ? -1 : s->at < m ? (int)s->at : (int)(s->at - other);
}

/* Hawalis: a last seed in an empty front hole takes the facing front hole,
 * if it is not empty, and (by rule) the back hole behind that. */
static unsigned capture_front(const pmn_rules *r, uint16_t *opp, unsigned end)
{
    unsigned w = r->holes_per_row;
    if (end < w)
        return 0;
    unsigned facing = front_facing(w, end);
    unsigned behind = back_of(w, facing);
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

/* Kalah: a last seed in an own hole that was empty takes itself and the
 * facing hole (if that has seeds, unless capture=opposite-always). */
static unsigned capture_opposite(const pmn_rules *r, uint16_t *own, uint16_t *opp,
                                 unsigned end)
{
    unsigned facing = r->pits - 1 - end;
    if (own[end] != 1 || (opp[facing] == 0 && r->capture == PMN_CAPTURE_OPPOSITE))
        return 0;
    unsigned taken = own[end] + opp[facing];
    own[end] = opp[facing] = 0;
    return taken;
}

/* Oware: a last seed making 2 or 3 in an opponent's hole takes it and the
 * unbroken run of 2s and 3s before it on his side.  Taking all his seeds is
 * a grand slam: flagged, and not taken unless the rules allow it. */
static unsigned capture_two_three(const pmn_rules *r, uint16_t *opp, unsigned end,
                                  int *grand_slam, int take_slam)
{
    unsigned taken = 0, all = 0, least = r->capture == PMN_CAPTURE_ONE_TWO_THREE ? 1 : 2;
    int first = (int)end;
    while (first >= 0 && opp[first] >= least && opp[first] <= 3)
        taken += opp[first--];
    for (unsigned i = 0; i < r->pits; i++)
        all += opp[i];
    if (taken && taken == all && r->grand_slam != PMN_GRAND_SLAM_ALLOWED && !take_slam) {
        *grand_slam = 1;
        return 0;
    }
    for (int i = first + 1; i <= (int)end; i++)
        opp[i] = 0;
    return taken;
}

/* Sow a legal move and make its captures, on *p; the side to move and the
 * end of the game are pmn_play's.  Returns 1 (leaving *p alone, and
 * *lap0 and *period for the proof) if the sowing never ends. */
static int sow_move(const pmn_rules *r, pmn_position *p, int hole, pmn_move_report *rep,
                    struct sow *lap0, uint64_t *period, unsigned *last_capture, int take_slam)
{
    int side = p->to_move;
    struct sow s;
    load(r, p, side, hole, lap0);
    if (r->laps == PMN_LAPS_RELAY) {
        if (find_period(lap0, period, &rep->laps, &s))
            return 1;
    } else {
        s = *lap0;
        sow_lap(&s);
        rep->laps = 1;
    }
    unload(r, &s, side, p, rep);

    unsigned taken = 0;
    uint16_t *own = p->pit[side], *opp = p->pit[!side];
    if (rep->end_hole >= 0) {
        unsigned end = (unsigned)rep->end_hole;
        switch (r->capture) {
        case PMN_CAPTURE_FRONT_AND_BACK:
        case PMN_CAPTURE_FRONT_ONLY:
            taken = capture_front(r, opp, end);
            break;
        case PMN_CAPTURE_OPPOSITE:
        case PMN_CAPTURE_OPPOSITE_ALWAYS:
            if (rep->end_side == side)
                taken = capture_opposite(r, own, opp, end);
            break;
        case PMN_CAPTURE_TWO_THREE:
        case PMN_CAPTURE_ONE_TWO_THREE:
            if (rep->end_side != side)
                taken = capture_two_three(r, opp, end, &rep->grand_slam, take_slam);
            break;
        default:
            break;
        }
    }
    *last_capture = taken + (s.last_four ? 4 : 0);
    rep->captured = taken + s.took[0];
    rep->given = s.took[1];
    p->captured[side] += rep->captured + rep->stored;
    p->captured[!side] += rep->given;
    if (taken)
        p->last_capturer = (uint8_t)(side + 1);
    else if (s.last_taker >= 0)
        p->last_capturer = (uint8_t)((s.last_taker ? !side : side) + 1);
    if (s.last_four && !p->first_three)
        p->first_three = (uint8_t)(side + 1);
    return 0;
}

/* Could a move here capture all the opponent's seeds, which the rules
 * refuse?  Not where a hole of his holds four or more: a single lap only
 * adds seeds to his holes, and 2s and 3s alone are taken. */
static int refused_slam_possible(const pmn_rules *r, const pmn_position *p)
{
    if (r->grand_slam != PMN_GRAND_SLAM_REFUSED && r->grand_slam != PMN_GRAND_SLAM_LAST_RESORT)
        return 0;
    if ((r->capture != PMN_CAPTURE_TWO_THREE && r->capture != PMN_CAPTURE_ONE_TWO_THREE)
        || r->laps != PMN_LAPS_SINGLE)
        return 1;
    const uint16_t *opp = p->pit[!p->to_move];
    for (unsigned i = 0; i < r->pits; i++)
        if (opp[i] >= 4)
            return 0;
    return 1;
}

static int some_move_feeds(const pmn_rules *r, const pmn_position *p);

/* The opponent of the side to move has no seeds, and must be fed: always
 * (feed=yes), or where some move can (feed=if-possible). */
static int starving(const pmn_rules *r, const pmn_position *p)
{
    return r->feed && pmn_position_seeds(r, p, !p->to_move) == 0
        && (r->feed == PMN_FEED_YES || some_move_feeds(r, p));
}

/* Must a move here be sown to be judged (feeding, a refused grand slam)? */
static int looks_ahead(const pmn_rules *r, const pmn_position *p, int starve)
{
    return starve || refused_slam_possible(r, p);
}

/* The verdict of the rules that look ahead on a move of `side`, sown: its
 * report and the position after it. */
static pmn_legality judged(const pmn_rules *r, int starve, int side,
                           const pmn_move_report *rep, const pmn_position *after)
{
    if (rep->grand_slam && (r->grand_slam == PMN_GRAND_SLAM_REFUSED
                            || r->grand_slam == PMN_GRAND_SLAM_LAST_RESORT))
        return PMN_ILLEGAL_GRAND_SLAM;
    if (starve && pmn_position_seeds(r, after, !side) == 0)
        return PMN_ILLEGAL_NOT_FEEDING;
    return PMN_LEGAL;
}

/* The move sown on a copy q of p, its report in rep: 1 if it is endless. */
static int sown_copy(const pmn_rules *r, const pmn_position *p, int hole, pmn_position *q,
                     pmn_move_report *rep)
{
    struct sow lap0;
    uint64_t period;
    unsigned last;
    *q = *p;
    memset(rep, 0, sizeof *rep);
    return sow_move(r, q, hole, rep, &lap0, &period, &last, 0);
}

/* Sow the move on a copy of p to judge it (an endless one is legal). */
static pmn_legality sown_legality(const pmn_rules *r, const pmn_position *p, int hole,
                                  int starve)
{
    pmn_position q;
    pmn_move_report rep;
    if (sown_copy(r, p, hole, &q, &rep))
        return PMN_LEGAL;
    return judged(r, starve, p->to_move, &rep, &q);
}

static pmn_legality hole_legality(const pmn_rules *r, const pmn_position *p, int hole);

/* Does some move of the side to move give the starved opponent seeds?
 * Each sown on a copy (feed=if-possible asks it, only where he has none). */
static int some_move_feeds(const pmn_rules *r, const pmn_position *p)
{
    for (unsigned i = 0; i < r->pits; i++) {
        if (p->pit[p->to_move][i] < r->min_lift)
            continue;
        pmn_position q;
        pmn_move_report rep;
        if (sown_copy(r, p, (int)i, &q, &rep) || pmn_position_seeds(r, &q, !p->to_move) > 0)
            return 1;
    }
    return 0;
}

/* grand-slam=last-resort: is a move other than `hole` legal, not a grand
 * slam?  Then a grand slam from `hole` is refused; else it is played. */
static int other_move_legal(const pmn_rules *r, const pmn_position *p, int hole, int starve)
{
    for (unsigned i = 0; i < r->pits; i++)
        if ((int)i != hole && hole_legality(r, p, (int)i) == PMN_LEGAL
            && sown_legality(r, p, (int)i, starve) == PMN_LEGAL)
            return 1;
    return 0;
}

/* What makes a hole unplayable before it is sown: none, empty, a single seed
 * where the rules refuse it. */
static pmn_legality hole_legality(const pmn_rules *r, const pmn_position *p, int hole)
{
    const uint16_t *pit = p->pit[p->to_move];
    if (hole < 0 || (unsigned)hole >= r->pits)
        return PMN_ILLEGAL_NO_SUCH_HOLE;
    if (pit[hole] == 0)
        return PMN_ILLEGAL_EMPTY;
    if (pit[hole] < r->min_lift) {
        for (unsigned i = 0; i < r->pits; i++)
            if (pit[i] >= r->min_lift)
                return PMN_ILLEGAL_SINGLETON;
        if (pit[((unsigned)hole + 1) % r->pits] != 0)
            return PMN_ILLEGAL_SINGLETON_OCCUPIED;
    }
    return PMN_LEGAL;
}

pmn_legality pmn_move_legality(const pmn_rules *r, const pmn_position *p, int hole)
{
    pmn_legality l = hole_legality(r, p, hole);
    if (l != PMN_LEGAL)
        return l;
    int starve = starving(r, p);
    if (!looks_ahead(r, p, starve))
        return PMN_LEGAL;
    l = sown_legality(r, p, hole, starve);
    if (l == PMN_ILLEGAL_GRAND_SLAM && r->grand_slam == PMN_GRAND_SLAM_LAST_RESORT
        && !other_move_legal(r, p, hole, starve))
        return PMN_LEGAL;
    return l;
}

/* pmn_move_legality for every hole at once: what does not depend on the
 * hole (is there a hole to lift?  do the rules look ahead here?) is found
 * once, not once a hole; move generation is half of perft's time. */
int pmn_legal_moves(const pmn_rules *r, const pmn_position *p,
                    int moves[PMN_MAX_SIDE_PITS])
{
    const uint16_t *pit = p->pit[p->to_move];
    unsigned pits = r->pits, min = r->min_lift;
    int lift = 0, n = 0;
    for (unsigned i = 0; i < pits && !lift; i++)
        lift = pit[i] >= min;
    int starve = starving(r, p), ahead = looks_ahead(r, p, starve);
    int slams[PMN_MAX_SIDE_PITS], nslams = 0;
    for (unsigned i = 0; i < pits; i++) {
        if (pit[i] == 0)
            continue;
        if (pit[i] < min && (lift || pit[(i + 1) % pits] != 0))
            continue;   /* a single seed: only when nothing lifts, into an empty hole */
        if (ahead) {
            pmn_legality l = sown_legality(r, p, (int)i, starve);
            if (l == PMN_ILLEGAL_GRAND_SLAM)
                slams[nslams++] = (int)i;
            if (l != PMN_LEGAL)
                continue;
        }
        moves[n++] = (int)i;
    }
    if (n == 0 && r->grand_slam == PMN_GRAND_SLAM_LAST_RESORT)
        for (int i = 0; i < nslams; i++)   /* nothing else: the grand slams are played */
            moves[n++] = slams[i];
    return n;
}

static pmn_outcome win_for(int side)
{
    return side == PMN_SOUTH ? PMN_SOUTH_WINS : PMN_NORTH_WINS;
}

/* Cheaper than pmn_legal_moves: any hole of min_lift seeds is a move (when
 * nothing looks ahead), and only without one do single seeds count. */
static int has_legal_move(const pmn_rules *r, const pmn_position *p)
{
    const uint16_t *pit = p->pit[p->to_move];
    int simple = !r->feed && r->grand_slam != PMN_GRAND_SLAM_REFUSED
              && r->grand_slam != PMN_GRAND_SLAM_LAST_RESORT;
    for (unsigned i = 0; i < r->pits; i++)
        if (pit[i] >= r->min_lift && (simple || pmn_move_legality(r, p, (int)i) == PMN_LEGAL))
            return 1;
    for (unsigned i = 0; i < r->pits; i++)
        if (pit[i] && pit[i] < r->min_lift && pmn_move_legality(r, p, (int)i) == PMN_LEGAL)
            return 1;
    return 0;
}

static int other_can_move(const pmn_rules *r, const pmn_position *p)
{
    pmn_position q = *p;
    q.to_move = (uint8_t)!p->to_move;
    return has_legal_move(r, &q);
}

/* Who has more seeds: captured, and (with `board`) those on his side. */
static pmn_outcome by_seeds(const pmn_rules *r, const pmn_position *p, int board)
{
    unsigned long a = p->captured[0], b = p->captured[1];
    if (board) {
        a += pmn_position_seeds(r, p, PMN_SOUTH);
        b += pmn_position_seeds(r, p, PMN_NORTH);
    }
    return a > b ? PMN_SOUTH_WINS : a < b ? PMN_NORTH_WINS : PMN_DRAWN;
}

/* Who the last seeds go to under rule last-seeds: a side, or -1 (a lot). */
static int last_seeds_owner(const pmn_rules *r, const pmn_position *p)
{
    int who = r->last_seeds == PMN_LAST_PREVIOUS ? p->last_capturer
            : r->last_seeds == PMN_LAST_FIRST_THREE ? p->first_three : 0;
    return who - 1;
}

/* *must_pass: the game goes on, but the side to move cannot (no-move=pass). */
static pmn_ending seeds_game_ending(const pmn_rules *r, const pmn_position *p,
                                    pmn_outcome *outcome, int *must_pass)
{
    unsigned on[2] = { pmn_position_seeds(r, p, 0), pmn_position_seeds(r, p, 1) };
    unsigned long board = on[0] + on[1];
    unsigned long total = board + p->captured[0] + p->captured[1];
    for (int s = 0; r->majority && s < 2; s++)
        if (2ul * p->captured[s] > total) {
            *outcome = win_for(s);
            return PMN_END_MAJORITY;
        }
    if (r->last_seeds != PMN_LAST_PLAY_ON && board > 0 && board <= 4) {
        int who = last_seeds_owner(r, p);
        unsigned long a = p->captured[0], b = p->captured[1];
        if (who >= 0) {
            pmn_position q = *p;
            q.captured[who] += (uint32_t)board;
            *outcome = by_seeds(r, &q, 0);
        } else {   /* a lot decides, unless the seeds cannot change the winner */
            *outcome = a > b + board ? PMN_SOUTH_WINS : b > a + board ? PMN_NORTH_WINS
                     : PMN_ONGOING;
        }
        return PMN_END_LAST_SEEDS;
    }
    if (r->either_empty && (on[0] == 0 || on[1] == 0)) {
        *outcome = by_seeds(r, p, 1);
        return PMN_END_NO_SEEDS;
    }
    if (has_legal_move(r, p))
        return PMN_END_NONE;
    if (r->no_move == PMN_NO_MOVE_PASS && other_can_move(r, p)) {
        *must_pass = 1;
        return PMN_END_NONE;
    }
    *outcome = by_seeds(r, p, r->no_move == PMN_NO_MOVE_COLLECT);
    return on[p->to_move] ? PMN_END_NO_MOVE : PMN_END_NO_SEEDS;
}

static pmn_ending ending_of(const pmn_rules *r, const pmn_position *p, pmn_outcome *outcome,
                            int *must_pass)
{
    pmn_ending e = PMN_END_NONE;
    pmn_outcome o = PMN_ONGOING;
    *must_pass = 0;
    if (r->goal == PMN_GOAL_MOST_SEEDS) {
        e = seeds_game_ending(r, p, &o, must_pass);
    } else if (!has_legal_move(r, p)) {
        /* Asked first: after almost every ply the first hole that lifts
         * answers it. */
        e = pmn_position_seeds(r, p, p->to_move) == 0 ? PMN_END_NO_SEEDS : PMN_END_NO_MOVE;
        o = win_for(!p->to_move);
    }
    if (outcome)
        *outcome = o;
    return e;
}

pmn_ending pmn_position_ending(const pmn_rules *r, const pmn_position *p,
                               pmn_outcome *outcome)
{
    int must_pass;
    return ending_of(r, p, outcome, &must_pass);
}

int pmn_repetition_ends(const pmn_rules *r, const pmn_position *p)
{
    if (r->repetition == PMN_REPETITION_PLAYS_ON)
        return 0;
    return !r->one_side_plays_on
        || (pmn_position_seeds(r, p, PMN_SOUTH) && pmn_position_seeds(r, p, PMN_NORTH));
}

pmn_outcome pmn_repetition_outcome(const pmn_rules *r, const pmn_position *p)
{
    switch (r->repetition) {
    case PMN_REPETITION_UNCOUNTED: return by_seeds(r, p, 0);
    /* A cycle that plays on is valued by the search as the seeds lie:
     * what either side can be sure to keep of them. */
    case PMN_REPETITION_OWN_SIDE:
    case PMN_REPETITION_PLAYS_ON: return by_seeds(r, p, 1);
    default: return PMN_DRAWN;
    }
}

int pmn_play(const pmn_rules *r, pmn_position *p, int hole, pmn_move_report *rep)
{
    pmn_legality l = hole_legality(r, p, hole);
    if (l != PMN_LEGAL)
        return (int)l;

    int side = p->to_move;
    struct sow lap0;
    uint64_t period;
    unsigned last_capture;
    memset(rep, 0, sizeof *rep);
    rep->side = side;
    rep->hole = hole;

    /* Where the rules look ahead (feeding, a refused grand slam), the move
     * is sown once, on a copy, and refused or kept as pmn_move_legality
     * would judge it: sowing it to judge it and again to play it cost Awale
     * a third of its time. */
    int starve = starving(r, p), ahead = looks_ahead(r, p, starve);
    pmn_position copy, *sown = p;
    if (ahead) {
        copy = *p;
        sown = &copy;
    }
    if (sow_move(r, sown, hole, rep, &lap0, &period, &last_capture, 0)) {
        prove_endless(&lap0, period, rep);
        rep->laps = 0;
        rep->end_side = side;
        rep->end_hole = -1;
        rep->ending = PMN_END_ENDLESS;
        rep->outcome = r->endless == PMN_ENDLESS_DRAW ? PMN_DRAWN : win_for(!side);
        return 0;
    }
    if (ahead) {
        l = judged(r, starve, side, rep, sown);
        if (l == PMN_ILLEGAL_GRAND_SLAM && r->grand_slam == PMN_GRAND_SLAM_LAST_RESORT
            && !other_move_legal(r, p, hole, starve)) {
            /* The last resort: sown again, its capture made. */
            copy = *p;
            memset(rep, 0, sizeof *rep);
            rep->side = side;
            rep->hole = hole;
            sow_move(r, &copy, hole, rep, &lap0, &period, &last_capture, 1);
            l = PMN_LEGAL;
        }
        if (l != PMN_LEGAL)
            return (int)l;
        *p = copy;
    }
    rep->extra = (r->extra == PMN_EXTRA_STORE && rep->end_hole < 0)
              || (r->extra == PMN_EXTRA_CAPTURE && last_capture > 0);
    p->to_move = (uint8_t)(rep->extra ? side : !side);
    int must_pass;
    rep->ending = ending_of(r, p, &rep->outcome, &must_pass);
    if (rep->ending == PMN_END_MAJORITY && r->majority_sweep) {
        /* The seeds left are taken with the winning move (OpenSpiel). */
        for (int s = 0; s < 2; s++) {
            p->captured[s] += pmn_position_seeds(r, p, s);
            memset(p->pit[s], 0, sizeof p->pit[s]);
        }
    }
    if (must_pass) {
        p->to_move = (uint8_t)!p->to_move;
        rep->passed = 1;
    }
    return 0;
}


/* A cycle index as a side and a hole (hole -1: the mover's store). */
static void cycle_hole(const pmn_rules *r, const struct sow *s, int side, unsigned a,
                       int *at_side, int *at_hole)
{
    unsigned m = r->pits, other = m + (s->store < s->n);
    *at_side = a < m || a == s->store ? side : !side;
    *at_hole = a == s->store ? -1 : a < m ? (int)a : (int)(a - other);
}

/* The sowing state as a board: the seeds in hand back in the hole they are
 * lifted from, the seeds taken on the way with their takers. */
static void lap_board(const pmn_rules *r, const pmn_position *p, const struct sow *s,
                      int side, pmn_lap *lap)
{
    pmn_move_report rep;
    struct sow shown = *s;
    if (shown.hand)
        shown.pit[shown.at] = (uint16_t)(shown.pit[shown.at] + shown.hand);
    lap->board = *p;
    unload(r, &shown, side, &lap->board, &rep);
    lap->board.captured[side] += rep.stored + s->took[0];
    lap->board.captured[!side] += s->took[1];
}

int pmn_sowing_laps(const pmn_rules *r, const pmn_position *p, int hole, pmn_lap *laps,
                    size_t max, size_t *n)
{
    *n = 0;
    if (pmn_move_legality(r, p, hole) != PMN_LEGAL)
        return -1;
    int side = p->to_move;
    struct sow s;
    uint8_t fours_at[2 * PMN_MAX_SIDE_PITS + 1];
    load(r, p, side, hole, &s);
    s.fours_at = fours_at;
    for (;;) {
        if (*n == max)
            return 1;
        pmn_lap *lap = &laps[(*n)++];
        memset(fours_at, 0, sizeof fours_at);
        cycle_hole(r, &s, side, s.at, &lap->side, &lap->hole);
        lap->seeds = s.hand;
        int more = sow_lap(&s);
        cycle_hole(r, &s, side, s.at, &lap->end_side, &lap->end_hole);
        lap->fours[0] = lap->fours[1] = 0;
        for (unsigned a = 0; a < s.n; a++) {
            int fs, fh;
            if (!fours_at[a])
                continue;
            cycle_hole(r, &s, side, a, &fs, &fh);
            if (fh >= 0)
                lap->fours[fs] |= 1u << fh;
        }
        lap_board(r, p, &s, side, lap);
        if (!more || r->laps != PMN_LAPS_RELAY)
            return 0;
    }
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
    case PMN_ILLEGAL_NOT_FEEDING:
        return "the opponent has no seeds, and the move gives him none";
    case PMN_ILLEGAL_GRAND_SLAM:
        return "it would capture all the opponent's seeds (a grand slam)";
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
    case PMN_END_MAJORITY: return "more than half the seeds captured";
    case PMN_END_LAST_SEEDS: return "only the last seeds left";
    }
    return "unknown";
}

void pmn_ending_explain(const pmn_rules *r, pmn_ending e, const pmn_position *end,
                        char *buf, size_t size)
{
    int who = end->to_move;
    size_t n = 0;
    unsigned on[2] = { pmn_position_seeds(r, end, 0), pmn_position_seeds(r, end, 1) };
    if (e == PMN_END_NO_SEEDS && r->either_empty)
        n = (size_t)snprintf(buf, size, "%s's holes are empty",
                             pmn_side_name(on[PMN_SOUTH] ? PMN_NORTH : PMN_SOUTH));
    else if (e == PMN_END_NO_SEEDS)
        n = (size_t)snprintf(buf, size, "%s has no seeds left", pmn_side_name(who));
    else if (e == PMN_END_NO_MOVE)
        n = (size_t)snprintf(buf, size, "%s has no legal move", pmn_side_name(who));
    else if (e == PMN_END_MAJORITY)
        n = (size_t)snprintf(buf, size, "%s has captured more than half the seeds",
                             pmn_side_name(end->captured[1] > end->captured[0]));
    else if (e == PMN_END_LAST_SEEDS && last_seeds_owner(r, end) >= 0)
        n = (size_t)snprintf(buf, size, "the last %u seeds go to %s", on[0] + on[1],
                             pmn_side_name(last_seeds_owner(r, end)));
    else if (e == PMN_END_LAST_SEEDS)
        n = (size_t)snprintf(buf, size, "the last %u seeds are drawn by lot", on[0] + on[1]);
    else
        n = (size_t)snprintf(buf, size, "%s", pmn_ending_string(e));
    unsigned long seeds[2];
    if (pmn_final_seeds(r, e, end, seeds) && n < size)
        snprintf(buf + n, size - n, "; seeds %lu-%lu", seeds[0], seeds[1]);
}

int pmn_final_seeds(const pmn_rules *r, pmn_ending e, const pmn_position *end,
                    unsigned long seeds[2])
{
    if (r->goal != PMN_GOAL_MOST_SEEDS || e == PMN_END_ENDLESS || e == PMN_END_NONE)
        return 0;
    unsigned on[2] = { pmn_position_seeds(r, end, 0), pmn_position_seeds(r, end, 1) };
    int board = e == PMN_END_NO_SEEDS || e == PMN_END_NO_MOVE
              ? r->no_move == PMN_NO_MOVE_COLLECT || r->either_empty
              : e == PMN_END_REPETITION && r->repetition == PMN_REPETITION_OWN_SIDE;
    seeds[0] = end->captured[0] + (board ? on[0] : 0);
    seeds[1] = end->captured[1] + (board ? on[1] : 0);
    int who = e == PMN_END_LAST_SEEDS ? last_seeds_owner(r, end) : -1;
    if (who >= 0)
        seeds[who] += on[0] + on[1];
    return 1;
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
