/* test_engine.c - the Hawalis rules engine against the spec and the sample games. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmn.h"
#include "lib/engine/play.h"
#include "lib/base/util.h"
#include "engine.h"
#include "games.h"
#include "light.h"

/* Play "i4 L6 d ..." from the opening; check every claimed capture (and that
 * unclaimed moves capture nothing); returns the report of the last ply. */
static pmn_move_report replay(const pmn_rules *r, const char *plies, pmn_position *p,
                              unsigned *nplies)
{
    pmn_move_report rep = { 0 };
    pmn_position_start(r, p);
    *nplies = 0;
    for (const char *s = plies; *s;) {
        int side, hole;
        if (*s == ' ') { s++; continue; }
        assert_int_equal(pmn_hole_from_letter(r, *s, &side, &hole), 0);
        assert_int_equal(side, p->to_move);
        char letter = *s++;
        unsigned claimed = (unsigned)strtoul(s, (char **)&s, 10);
        int rc = pmn_play(r, p, hole, &rep);
        if (rc != 0)
            fail_msg("ply %u (%c): illegal: %s", *nplies + 1, letter,
                     pmn_legality_string((pmn_legality)rc));
        ++*nplies;
        if (rep.captured != claimed)
            fail_msg("ply %u (%c): captured %u, the record says %u", *nplies, letter,
                     rep.captured, claimed);
        if (rep.ending != PMN_END_NONE)
            assert_int_equal(*s, '\0');   /* the game ends with its last ply */
    }
    return rep;
}

static void worked_example(void **state)
{
    (void)state;
    pmn_rules r = rules_with("hawalis");
    pmn_position p;
    pmn_move_report rep;
    pmn_position_start(&r, &p);
    assert_int_equal(pmn_play(&r, &p, 'i' - 'a', &rep), 0);
    assert_int_equal(rep.captured, 4);
    assert_int_equal(rep.laps, 5);
    assert_int_equal(rep.end_hole, 'i' - 'a');
    assert_int_equal(rep.ending, PMN_END_NONE);
    /* i=1 ended it; M and B were taken; South still has all 28 seeds. */
    assert_int_equal(p.pit[PMN_SOUTH]['i' - 'a'], 1);
    assert_int_equal(p.pit[PMN_NORTH]['M' - 'A'], 0);
    assert_int_equal(p.pit[PMN_NORTH]['B' - 'A'], 0);
    assert_int_equal(pmn_position_seeds(&r, &p, PMN_SOUTH), 28);
    assert_int_equal(pmn_position_seeds(&r, &p, PMN_NORTH), 24);
    assert_int_equal(p.captured[PMN_SOUTH], 4);
    assert_int_equal(p.to_move, PMN_NORTH);
    char buf[128];
    pmn_position_format(&r, &p, buf, sizeof buf);
    assert_string_equal(buf, "3,3,0,3,3,0,3,3,1,3,0,3,3,0/2,0,2,2,2,2,2,2,2,2,2,2,0,2 N");
}

static void sample_game_1(void **state)
{
    (void)state;
    pmn_rules r = rules_with(NULL);
    pmn_position p;
    unsigned n;
    pmn_move_report rep = replay(&r, game1, &p, &n);
    assert_int_equal(n, 110);
    /* North's K (+1) on move 55 takes South's last seed. */
    assert_int_equal(rep.side, PMN_NORTH);
    assert_int_equal(rep.ending, PMN_END_NO_SEEDS);
    assert_int_equal(rep.outcome, PMN_NORTH_WINS);
    assert_int_equal(p.captured[PMN_SOUTH], 27);
    assert_int_equal(p.captured[PMN_NORTH], 28);
    assert_int_equal(pmn_position_seeds(&r, &p, PMN_SOUTH), 0);
    assert_int_equal(pmn_position_seeds(&r, &p, PMN_NORTH), 1);
}

/* pmn_sowing_laps sows as pmn_play does: as many laps, ending where the
 * move ends, each lap lifting the hole the last one ended in with the
 * seeds it holds, seeds neither made nor lost; what the last lap leaves is
 * the board after the move but for the captures of its last seed (seeds
 * only leave holes, for the mover).  An endless move goes on past any
 * number of laps; an illegal one is refused. */
static void laps_sow_as_play_does(void **state)
{
    (void)state;
    static const char *const sets[] = {
        "hawalis", "hawalis,capture=front", "hawalis,min-lift=1", "hawalis,holes=5,seeds=3",
        "kalah", "kalah(6,3)", "oware", "awale", "anywoli",
    };
    static pmn_lap laps[4096];
    unsigned long seed = 777;
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        pmn_rules r = rules_with(sets[k]);
        for (int trial = 0; trial < 300; trial++) {
            pmn_position p = random_position(&r, 1 + (unsigned)trial % 40, &seed);
            unsigned total = pmn_position_seeds(&r, &p, 0) + pmn_position_seeds(&r, &p, 1)
                           + p.captured[0] + p.captured[1];
            for (unsigned i = 0; i < r.pits; i++) {
                pmn_position after = p;
                pmn_move_report rep;
                size_t n;
                int side = p.to_move;
                int played = pmn_play(&r, &after, (int)i, &rep);
                int rc = pmn_sowing_laps(&r, &p, (int)i, laps, 4096, &n);
                if (played != 0) {
                    assert_int_equal(rc, -1);
                    assert_int_equal(n, 0);
                    continue;
                }
                if (rep.ending == PMN_END_ENDLESS) {
                    assert_int_equal(rc, 1);
                    assert_int_equal(n, 4096);
                    continue;
                }
                assert_int_equal(rc, 0);
                assert_int_equal(n, rep.laps);
                assert_int_equal(laps[0].side, side);
                assert_int_equal(laps[0].hole, (int)i);
                assert_int_equal(laps[0].seeds, p.pit[side][i]);
                for (size_t l = 0; l < n; l++) {
                    const pmn_position *b = &laps[l].board;
                    assert_int_equal(pmn_position_seeds(&r, b, 0) + pmn_position_seeds(&r, b, 1)
                                     + b->captured[0] + b->captured[1], total);
                    if (l + 1 < n) {
                        assert_int_equal(laps[l + 1].side, laps[l].end_side);
                        assert_int_equal(laps[l + 1].hole, laps[l].end_hole);
                        assert_int_equal(laps[l + 1].seeds,
                                         b->pit[laps[l].end_side][laps[l].end_hole]);
                    }
                }
                const pmn_lap *last = &laps[n - 1];
                assert_int_equal(last->end_side, rep.end_side);
                assert_int_equal(last->end_hole, rep.end_hole);
                unsigned taken = 0;
                for (int s = 0; s < 2; s++)
                    for (unsigned h = 0; h < r.pits; h++) {
                        assert_true(last->board.pit[s][h] >= after.pit[s][h]);
                        taken += last->board.pit[s][h] - after.pit[s][h];
                    }
                assert_int_equal(last->board.captured[side] + taken, after.captured[side]);
                assert_int_equal(last->board.captured[!side], after.captured[!side]);
            }
        }
    }
}

/* Anywoli's fours taken on the way are said, hole by hole, by owner. */
static void laps_name_the_fours(void **state)
{
    (void)state;
    pmn_rules r = rules_with("anywoli");
    pmn_position p;
    pmn_error err;
    pmn_lap laps[64];
    size_t n;
    /* South sows 3 from hole 0: holes 1 and 2 (South's) and 3 reach 4 on the
     * way and the last seed, so hole 3's four is South's by the last seed. */
    memset(&p, 0, sizeof p);
    assert_int_equal(pmn_position_parse(&r, "3,3,3,3,1,1,1,1,1,1,1,1/"
                                        "2,2,2,2,2,2,2,2,2,2,2,2 S", &p, &err), 0);
    assert_int_equal(pmn_sowing_laps(&r, &p, 0, laps, 64, &n), 0);
    assert_int_equal(n, 1);
    assert_int_equal(laps[0].fours[PMN_SOUTH], 0xeu);
    assert_int_equal(laps[0].fours[PMN_NORTH], 0);
    assert_int_equal(laps[0].end_side, PMN_SOUTH);
    assert_int_equal(laps[0].end_hole, 3);
    assert_int_equal(laps[0].board.captured[PMN_SOUTH], 12);
}

static void sample_game_2_endless(void **state)
{
    (void)state;
    pmn_rules r = rules_with(NULL);
    pmn_position p;
    unsigned n;
    pmn_move_report rep = replay(&r, game2, &p, &n);
    assert_int_equal(n, 26);
    assert_int_equal(rep.side, PMN_NORTH);
    assert_int_equal(rep.hole, 'A' - 'A');
    assert_int_equal(rep.ending, PMN_END_ENDLESS);
    assert_int_equal(rep.loop_lap, 77);
    assert_int_equal(rep.rotated_lap, 11);
    assert_true(rep.loop_from < rep.loop_lap);
    assert_true(rep.rotated_from < rep.rotated_lap);
    assert_int_equal(rep.end_hole, -1);
    assert_int_equal(rep.outcome, PMN_DRAWN);
    /* An endless move leaves the board as it was, North still to move. */
    assert_int_equal(p.to_move, PMN_NORTH);
    assert_int_equal(pmn_position_seeds(&r, &p, PMN_SOUTH) + pmn_position_seeds(&r, &p, PMN_NORTH)
                     + p.captured[0] + p.captured[1], 56);
}

static void endless_mover_loses(void **state)
{
    (void)state;
    pmn_rules r = rules_with("hawalis,endless=lose");
    pmn_position p;
    unsigned n;
    pmn_move_report rep = replay(&r, game2, &p, &n);
    assert_int_equal(rep.ending, PMN_END_ENDLESS);
    assert_int_equal(rep.outcome, PMN_SOUTH_WINS);   /* North made it */
}

/* An independent sower, one seed at a time, that keeps every lap's state and
 * finds the first repeats by comparing each lap with all earlier ones. */
struct lapstate { unsigned pit[14], at, hand; };

static int naive_same(const struct lapstate *x, const struct lapstate *y, int turned)
{
    if (x->hand != y->hand || (!turned && x->at != y->at))
        return 0;
    for (unsigned i = 0; i < 14; i++)
        if (x->pit[(x->at + i) % 14] != y->pit[(y->at + i) % 14])
            return 0;
    return 1;
}

/* Returns 1 if the sowing from `hole` proves endless within `max` laps, with
 * the first exact and turned repeats; 0 if it ends, with its laps. */
static int naive_sow(const pmn_position *p, int hole, unsigned max, uint64_t *laps,
                     uint64_t *exact, uint64_t *turned)
{
    struct lapstate *seen = calloc(max, sizeof *seen), s;
    int found = 0;
    *exact = *turned = 0;
    for (unsigned i = 0; i < 14; i++)
        s.pit[i] = p->pit[p->to_move][i];
    s.at = (unsigned)hole;
    s.hand = s.pit[hole];
    s.pit[hole] = 0;
    for (unsigned lap = 0; lap < max; lap++) {
        for (unsigned j = 0; j < lap; j++) {
            if (!*turned && naive_same(&s, &seen[j], 1))
                *turned = lap;
            if (!*exact && naive_same(&s, &seen[j], 0))
                *exact = lap;
        }
        if (*exact) { found = 1; break; }
        seen[lap] = s;
        while (s.hand) {
            s.at = (s.at + 1) % 14;
            s.pit[s.at]++;
            s.hand--;
        }
        if (s.pit[s.at] == 1) {
            *laps = lap + 1;
            break;
        }
        s.hand = s.pit[s.at];
        s.pit[s.at] = 0;
    }
    free(seen);
    return found;
}

static void endless_proof_matches_naive_search(void **state)
{
    (void)state;
    pmn_rules r = rules_with(NULL);
    unsigned long seed = 12345, endless = 0, checked = 0, turned_first = 0, ended = 0;
    /* Endless moves are rare, and most common with 12 to 40 seeds. */
    for (int trial = 0; trial < light(20000); trial++) {
        pmn_position p;
        memset(&p, 0, sizeof p);
        unsigned seeds = 12 + (unsigned)trial % 29;
        for (unsigned i = 0; i < seeds; i++) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            p.pit[PMN_SOUTH][(seed >> 33) % 14]++;
        }
        p.pit[PMN_NORTH][0] = 1;
        for (int hole = 0; hole < 14; hole++) {
            pmn_position q = p;
            pmn_move_report rep;
            uint64_t laps = 0, exact, turned;
            if (pmn_move_legality(&r, &q, hole) != PMN_LEGAL)
                continue;
            assert_int_equal(pmn_play(&r, &q, hole, &rep), 0);
            int naive = naive_sow(&p, hole, 2000, &laps, &exact, &turned);
            if (rep.ending == PMN_END_ENDLESS) {
                endless++;
                if (!naive)
                    continue;   /* a longer loop than the naive search holds */
                checked++;
                assert_int_equal(rep.loop_lap, exact);
                assert_int_equal(rep.rotated_lap, turned);
                turned_first += turned < exact;
            } else {
                ended++;
                assert_int_equal(naive, 0);
                assert_int_equal(rep.laps, laps);
            }
        }
    }
    /* Both kinds of move were met, or the test proved nothing. */
    assert_true(endless >= checked);
    if (whole_sample()) {
        assert_true(checked >= 30);
        assert_true(turned_first >= 5);
        assert_true(ended > 100000);
    }
}

static void singleton_only_when_no_double(void **state)
{
    (void)state;
    pmn_rules r = rules_with(NULL);
    /* South: a=1, c=2: the single seed of a may not move. */
    pmn_position p = position(&r, "1,0,2,0,0,0,0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S");
    pmn_position before = p;
    pmn_move_report rep;
    assert_int_equal(pmn_move_legality(&r, &p, 0), PMN_ILLEGAL_SINGLETON);
    assert_int_equal(pmn_play(&r, &p, 0, &rep), PMN_ILLEGAL_SINGLETON);
    assert_memory_equal(&p, &before, sizeof p);
    assert_int_equal(pmn_move_legality(&r, &p, 2), PMN_LEGAL);
    assert_int_equal(pmn_move_legality(&r, &p, 1), PMN_ILLEGAL_EMPTY);
    assert_int_equal(pmn_move_legality(&r, &p, 14), PMN_ILLEGAL_NO_SUCH_HOLE);
    assert_int_equal(pmn_move_legality(&r, &p, -1), PMN_ILLEGAL_NO_SUCH_HOLE);
}

static void singleton_into_empty_only(void **state)
{
    (void)state;
    pmn_rules r = rules_with(NULL);
    /* Only single seeds: a -> b is refused (b occupied), b -> c is played. */
    pmn_position p = position(&r, "1,1,0,0,0,0,0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S");
    pmn_move_report rep;
    int moves[PMN_MAX_SIDE_PITS];
    assert_int_equal(pmn_move_legality(&r, &p, 0), PMN_ILLEGAL_SINGLETON_OCCUPIED);
    assert_int_equal(pmn_legal_moves(&r, &p, moves), 1);
    assert_int_equal(moves[0], 1);
    assert_int_equal(pmn_play(&r, &p, 1, &rep), 0);
    assert_int_equal(rep.laps, 1);
    assert_int_equal(rep.end_hole, 2);
    assert_int_equal(p.pit[PMN_SOUTH][1], 0);
    assert_int_equal(p.pit[PMN_SOUTH][2], 1);
    /* The last hole n sows round to a. */
    p = position(&r, "0,0,0,0,0,0,0,0,0,0,0,0,0,1/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S");
    assert_int_equal(pmn_play(&r, &p, 13, &rep), 0);
    assert_int_equal(rep.end_hole, 0);
    assert_int_equal(p.pit[PMN_SOUTH][0], 1);
}

static void singleton_captures(void **state)
{
    (void)state;
    pmn_rules r = rules_with(NULL);
    /* South's single seed h -> i, facing M (3), behind it B (4). */
    pmn_position p = position(&r, "0,0,0,0,0,0,0,1,0,0,0,0,0,0/0,4,0,0,0,0,0,0,0,0,0,0,3,0 S");
    pmn_move_report rep;
    assert_int_equal(pmn_play(&r, &p, 7, &rep), 0);
    assert_int_equal(rep.captured, 7);
    assert_int_equal(rep.ending, PMN_END_NO_SEEDS);
    assert_int_equal(rep.outcome, PMN_SOUTH_WINS);
}

static void capture_front_only(void **state)
{
    (void)state;
    pmn_rules r = rules_with("capture=front");
    pmn_position p;
    pmn_move_report rep;
    pmn_position_start(&r, &p);
    assert_int_equal(pmn_play(&r, &p, 'i' - 'a', &rep), 0);
    assert_int_equal(rep.captured, 2);                  /* M only, not B */
    assert_int_equal(p.pit[PMN_NORTH]['B' - 'A'], 2);
    assert_int_equal(p.pit[PMN_NORTH]['M' - 'A'], 0);
}

static void capture_needs_facing_seeds(void **state)
{
    (void)state;
    pmn_rules r = rules_with(NULL);
    /* h -> i ends in the front row, but M is empty: B stays, nothing taken. */
    pmn_position p = position(&r, "0,0,0,0,0,0,0,1,0,0,0,0,0,0/0,4,0,0,0,0,0,2,0,0,0,0,0,0 S");
    pmn_move_report rep;
    assert_int_equal(pmn_play(&r, &p, 7, &rep), 0);
    assert_int_equal(rep.captured, 0);
    assert_int_equal(p.pit[PMN_NORTH][1], 4);
    /* Ending in the back row never captures. */
    p = position(&r, "1,0,0,0,0,0,0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S");
    assert_int_equal(pmn_play(&r, &p, 0, &rep), 0);
    assert_int_equal(rep.captured, 0);
    /* The back hole is taken even when empty: only the facing hole must hold seeds. */
    p = position(&r, "0,0,0,0,0,0,0,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0,0,0,0,3,1 S");
    assert_int_equal(pmn_play(&r, &p, 7, &rep), 0);
    assert_int_equal(rep.captured, 3);
    assert_int_equal(rep.ending, PMN_END_NONE);
}

static void no_legal_move_loses(void **state)
{
    (void)state;
    pmn_rules r = rules_with(NULL);
    /* South a (2) -> b, c: North is left with a single seed in each hole. */
    pmn_position p = position(&r, "2,0,0,0,0,0,0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1,1,1,1,1,1,1 S");
    pmn_move_report rep;
    pmn_outcome o;
    assert_int_equal(pmn_play(&r, &p, 0, &rep), 0);
    assert_int_equal(rep.captured, 0);
    assert_int_equal(rep.ending, PMN_END_NO_MOVE);
    assert_int_equal(rep.outcome, PMN_SOUTH_WINS);
    assert_int_equal(pmn_position_ending(&r, &p, &o), PMN_END_NO_MOVE);
    assert_int_equal(o, PMN_SOUTH_WINS);
}

static void strings(void **state)
{
    (void)state;
    assert_string_equal(pmn_outcome_string(PMN_SOUTH_WINS), "1-0");
    assert_string_equal(pmn_outcome_string(PMN_NORTH_WINS), "0-1");
    assert_string_equal(pmn_outcome_string(PMN_DRAWN), "1/2-1/2");
    assert_string_equal(pmn_outcome_string(PMN_ONGOING), "*");
    assert_string_equal(pmn_ending_string(PMN_END_ENDLESS), "endless move");
    assert_string_equal(pmn_legality_string(PMN_ILLEGAL_EMPTY), "the hole is empty");
}

/* pmn_legal_moves finds once what pmn_move_legality finds for each hole,
 * and pmn_play judges as it does: all agree on random positions of every
 * built-in rule set, sparse ones (single seeds, starving opponents, grand
 * slams) included. */
static void legal_moves_agree_with_legality(void **state)
{
    (void)state;
    static const char *const sets[] = { "hawalis", "kalah", "oware", "awale", "anywoli",
                                        "hawalis,min-lift=3", "kalah(4,3)",
                                        "awale,grand-slam=allowed", "oware,feed=no",
                                        "awale,grand-slam=last-resort,majority=no" };
    unsigned long seed = 12345;
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        pmn_rules r;
        pmn_error err;
        assert_int_equal(pmn_rules_init(&r, sets[k], &err), 0);
        for (int trial = 0; trial < light(20000); trial++) {
            pmn_position p;
            memset(&p, 0, sizeof p);
            unsigned max = (unsigned)(trial % 4 == 0 ? 2 : trial % 4 == 1 ? 4 : 9);
            for (int side = 0; side < 2; side++)
                for (unsigned i = 0; i < r.pits; i++) {
                    seed = seed * 6364136223846793005UL + 1442695040888963407UL;
                    unsigned v = (unsigned)(seed >> 33) % (max + 1);
                    p.pit[side][i] = (uint16_t)((seed >> 20) % 3 == 0 ? 0 : v);
                }
            p.to_move = (uint8_t)(trial & 1);
            int moves[PMN_MAX_SIDE_PITS], n = pmn_legal_moves(&r, &p, moves), k2 = 0;
            /* pmn_play judges a move as pmn_move_legality does (it sows
             * the moves it must look ahead at once), and leaves an illegal
             * one's position as it was. */
            for (unsigned i = 0; i < r.pits; i++) {
                pmn_position q = p;
                pmn_move_report rep;
                int rc = pmn_play(&r, &q, (int)i, &rep);
                assert_int_equal(rc, (int)pmn_move_legality(&r, &p, (int)i));
                if (rc != 0)
                    assert_memory_equal(&q, &p, sizeof p);
            }
            for (unsigned i = 0; i < r.pits; i++)
                if (pmn_move_legality(&r, &p, (int)i) == PMN_LEGAL) {
                    assert_true(k2 < n);
                    assert_int_equal(moves[k2], (int)i);
                    k2++;
                }
            assert_int_equal(k2, n);
        }
    }
}

/* The engine interface (play.h) plays as the general engine, bit for bit:
 * the packed engine where the rules and seeds fit it (the relay family up
 * to 127 seeds), Kalah's own sowing for rules that sow as Kalah (both
 * captures, boards where a sowing laps the board many times), the general
 * one elsewhere, on every hole of random
 * positions (illegal and endless moves included, which the packed engine
 * hands to the general one); the same legal moves; and one repetition key,
 * whichever engine holds the position. */
static void engine_interface_plays_as_the_general_engine(void **state)
{
    (void)state;
    static const char *const sets[] = {
        "hawalis", "hawalis,capture=front", "hawalis,capture=none", "hawalis,min-lift=1",
        "hawalis,holes=8", "hawalis,endless=lose", "hawalis,holes=5,seeds=3",
        "kalah", "oware", "awale", "anywoli", "kalah,capture=opposite-always", "kalah(4,3)",
        "kalah,holes=2,capture=opposite-always", "kalah,holes=1", "kalah,holes=9",
    };
    unsigned long seed = 777;
    int packed_seen = 0, general_seen = 0, kalah_seen = 0;
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        pmn_rules r = rules_with(sets[k]);
        for (int trial = 0; trial < light(500); trial++) {
            pmn_position p = random_position(&r, 1 + (unsigned)trial % 100, &seed);
            struct engine e;
            engine_init(&e, &r, &p);
            *(e.packed ? &packed_seen : e.kalah ? &kalah_seen : &general_seen) += 1;
            int a[PMN_MAX_SIDE_PITS], b[PMN_MAX_SIDE_PITS];
            int n = engine_moves(&e, &p, a);
            assert_int_equal(n, pmn_legal_moves(&r, &p, b));
            assert_memory_equal(a, b, (size_t)n * sizeof a[0]);
#ifdef PMN_RELAY
            if (e.packed)
                assert_true(engine_key(&r, &p)
                            == relay_key(pack(&e.f, p.pit[p.to_move]),
                                         pack(&e.f, p.pit[!p.to_move]), p.to_move));
#endif
            for (unsigned i = 0; i < r.pits; i++) {
                pmn_position fast = p, general = p;
                pmn_move_report x, y;
                memset(&x, 0, sizeof x);
                memset(&y, 0, sizeof y);
                uint64_t key = 0;
                int rc = engine_play(&e, &fast, (int)i, &x, &key);
                assert_int_equal(rc, pmn_play(&r, &general, (int)i, &y));
                assert_memory_equal(&fast, &general, sizeof fast);
                assert_memory_equal(&x, &y, sizeof x);
                if (rc == 0)
                    assert_true(key == engine_key(&r, &general));
            }
        }
    }
    assert_true((packed_seen > 1000 && general_seen > 1000 && kalah_seen > 1000)
                || !whole_sample());
}

struct keyed {
    uint64_t key;
    pmn_position p;
};

static int cmp_key(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return memcmp(&x->p, &y->p, sizeof x->p);
}

/* The repetition key tells positions apart: no two of 100,000 random
 * positions of different holes or mover share one, under rules of 6, 16
 * and 20 holes a side, holes of more than 255 seeds included (keyed by the
 * mixing path). */
static void repetition_keys_differ(void **state)
{
    (void)state;
    static const char *const sets[] = { "kalah", "hawalis", "hawalis,holes=10" };
    unsigned long seed = 99;
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
        pmn_rules r = rules_with(sets[k]);
        enum { N = 100000 };
        struct keyed *v = malloc(N * sizeof *v);
        assert_non_null(v);
        for (int i = 0; i < N; i++) {
            v[i].p = random_position(&r, 1 + (unsigned)i % 90, &seed);
            if (i % 1000 == 0)
                v[i].p.pit[0][0] = (uint16_t)(256 + i / 1000);
            v[i].key = engine_key(&r, &v[i].p);
        }
        qsort(v, N, sizeof *v, cmp_key);
        /* Sorted by key, then position: equal keys must be equal positions. */
        for (int i = 1; i < N; i++)
            if (v[i].key == v[i - 1].key)
                assert_memory_equal(&v[i].p, &v[i - 1].p, sizeof v[i].p);
        free(v);
    }
}


/* grand-slam=last-resort (the Awari databases' reading): a grand slam is
 * refused while another move is legal, and played, taking the seeds, when
 * every legal move is one. */
static void grand_slam_as_a_last_resort(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_move_report rep;
    int moves[PMN_MAX_SIDE_PITS];
    assert_int_equal(pmn_rules_init(&r, "awale,grand-slam=last-resort", NULL), 0);
    /* f alone: it takes North's only seeds, and is played. */
    assert_int_equal(pmn_position_parse(&r, "0,0,0,0,0,1/1,0,0,0,0,0 S", &p, NULL), 0);
    assert_int_equal(pmn_legal_moves(&r, &p, moves), 1);
    assert_int_equal(moves[0], 5);
    assert_int_equal(pmn_move_legality(&r, &p, 5), PMN_LEGAL);
    assert_int_equal(pmn_play(&r, &p, 5, &rep), 0);
    assert_int_equal(rep.captured, 2);
    assert_false(rep.grand_slam);
    assert_int_not_equal(rep.ending, PMN_END_NONE);
    /* e is another move: f's grand slam is refused. */
    assert_int_equal(pmn_position_parse(&r, "0,0,0,0,1,1/1,0,0,0,0,0 S", &p, NULL), 0);
    assert_int_equal(pmn_legal_moves(&r, &p, moves), 1);
    assert_int_equal(moves[0], 4);
    assert_int_equal(pmn_move_legality(&r, &p, 5), PMN_ILLEGAL_GRAND_SLAM);
    assert_int_equal(pmn_play(&r, &p, 5, &rep), PMN_ILLEGAL_GRAND_SLAM);
    /* Refused outright in the Awale of the manual: no move at all. */
    assert_int_equal(pmn_rules_init(&r, "awale", NULL), 0);
    assert_int_equal(pmn_position_parse(&r, "0,0,0,0,0,1/1,0,0,0,0,0 S", &p, NULL), 0);
    assert_int_equal(pmn_legal_moves(&r, &p, moves), 0);
}

/* The engine looks ahead for a refused grand slam only where one could
 * happen: not when a hole of the opponent holds four or more, which a
 * single lap of 2s and 3s cannot empty.  Proved here on random positions
 * with grand slams allowed: no move there leaves the opponent bare. */
static void no_grand_slam_past_a_four(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_error err;
    assert_int_equal(pmn_rules_init(&r, "awale,grand-slam=allowed", &err), 0);
    unsigned long seed = 777;
    int tried = 0;
    for (int trial = 0; trial < light(200000); trial++) {
        pmn_position p;
        memset(&p, 0, sizeof p);
        int four = 0;
        for (int side = 0; side < 2; side++)
            for (unsigned i = 0; i < r.pits; i++) {
                seed = seed * 6364136223846793005UL + 1442695040888963407UL;
                unsigned v = (unsigned)(seed >> 33) % (side == 0 ? 24 : 5);
                p.pit[side][i] = (uint16_t)((seed >> 17) % 3 == 0 ? 0 : v);
                four |= side == 1 && p.pit[1][i] >= 4;
            }
        if (!four)
            continue;
        int moves[PMN_MAX_SIDE_PITS], n = pmn_legal_moves(&r, &p, moves);
        for (int k = 0; k < n; k++) {
            pmn_position q = p;
            pmn_move_report rep;
            assert_int_equal(pmn_play(&r, &q, moves[k], &rep), 0);
            if (rep.captured)
                tried++;
            assert_true(pmn_position_seeds(&r, &q, PMN_NORTH) > 0);
        }
    }
    assert_true(tried > 1000 || !whole_sample());   /* the positions did capture */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_example),
        cmocka_unit_test(sample_game_1),
        cmocka_unit_test(sample_game_2_endless),
        cmocka_unit_test(endless_mover_loses),
        cmocka_unit_test(endless_proof_matches_naive_search),
        cmocka_unit_test(singleton_only_when_no_double),
        cmocka_unit_test(singleton_into_empty_only),
        cmocka_unit_test(singleton_captures),
        cmocka_unit_test(capture_front_only),
        cmocka_unit_test(capture_needs_facing_seeds),
        cmocka_unit_test(no_legal_move_loses),
        cmocka_unit_test(strings),
        cmocka_unit_test(legal_moves_agree_with_legality),
        cmocka_unit_test(no_grand_slam_past_a_four),
        cmocka_unit_test(grand_slam_as_a_last_resort),
        cmocka_unit_test(engine_interface_plays_as_the_general_engine),
        cmocka_unit_test(repetition_keys_differ),
        cmocka_unit_test(laps_sow_as_play_does),
        cmocka_unit_test(laps_name_the_fours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
