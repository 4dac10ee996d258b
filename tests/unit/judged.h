/* judged.h - annotations held to the truth, for the tests of games whose
 * every position something exact settles (a plain minimax, the databases,
 * the margin solver): every '?' and '??' marks a move that lowers the
 * exact result by one or two steps, no move that keeps the result is
 * marked, and '!' marks only the one move that keeps it.  The truth is the
 * test's: a function that gives the outcome of a move for its mover after
 * the positions since the last capture.  Include after cmocka.h. */
#ifndef PMN_TEST_JUDGED_H
#define PMN_TEST_JUDGED_H

#include <stdlib.h>
#include <string.h>

#include "pmn.h"
#include "lib/records/record.h"
#include "lib/base/util.h"

/* The outcome (1 win, 0 draw, -1 loss) for p's side to move of playing
 * hole in p, after hist[0..nh) (the positions since the last capture). */
typedef int (*judged_truth)(const pmn_rules *r, const pmn_position *hist, int nh,
                            const pmn_position *p, int hole, void *ctx);

struct judged_count {
    unsigned judged;   /* plies whose two values were exact */
    unsigned marked;   /* of those, marked '?' or '??' */
};

/* A game from start, each move drawn at random (seed), into rec (initialised
 * here) for at most max_plies, or until it ends or its side to move cannot
 * move (so that its plies follow one another, no pass between). */
static inline void judged_random_game(const pmn_rules *r, const pmn_position *start,
                                      uint32_t seed, unsigned max_plies, pmn_record *rec)
{
    pmn_position p = *start;
    int prev = -1;
    pmn_record_init(rec);
    for (unsigned ply = 0; ply < max_plies; ply++) {
        pmn_outcome o;
        int holes[PMN_MAX_SIDE_PITS], n = pmn_legal_moves(r, &p, holes), mover = p.to_move;
        if (n == 0 || pmn_position_ending(r, &p, &o) != PMN_END_NONE)
            break;
        seed = seed * 1664525u + 1013904223u;
        int hole = holes[(seed >> 8) % (unsigned)n];
        pmn_move_report rep;
        assert_int_equal(pmn_play(r, &p, hole, &rep), 0);
        pmn_move *m = record_line_add_move(&rec->main);
        assert_non_null(m);
        m->notation = PMN_NOTATION_LETTERS;
        m->side = mover;
        m->hole = hole;
        m->joined = prev == mover;
        pmn_hole_name(r, PMN_NOTATION_LETTERS, mover, hole, m->text, sizeof m->text);
        prev = rep.extra ? mover : -1;
        if (rep.ending != PMN_END_NONE)
            break;
    }
}

/* Hold every ply of an, annotated from start, to the truth where the
 * annotation's values of the best move and the move played are exact (the
 * others have no truth to be held to); solve: the annotation came from a
 * solve, which proves every move's value, so that a move that alone keeps
 * the result must be '!'. */
static inline void judged_check(const pmn_rules *r, const pmn_position *start,
                                const pmn_annotation *an, int solve, judged_truth truth,
                                void *ctx, struct judged_count *count)
{
    pmn_position *hist = malloc((an->nplies + 1) * sizeof *hist);
    int nh = 0;
    assert_non_null(hist);
    for (size_t i = 0; i < an->nplies; i++) {
        const pmn_annotated_ply *j = &an->plies[i];
        /* The plies follow one another from the start (judged_random_game
         * leaves no pass), so the history is the game's. */
        assert_memory_equal(&j->before, i ? &hist[nh] : start, sizeof j->before);
        int holes[PMN_MAX_SIDE_PITS], nm = pmn_legal_moves(r, &j->before, holes);
        int best = -2, others = -2, played = truth(r, hist, nh, &j->before, j->hole, ctx);
        for (int k = 0; k < nm; k++) {
            int o = truth(r, hist, nh, &j->before, holes[k], ctx);
            best = o > best ? o : best;
            if (holes[k] != j->hole)
                others = o > others ? o : others;
        }
        if (j->best_value.exact && j->played.exact) {
            count->judged++;
            /* The values are the truth's. */
            assert_int_equal(j->best_value.outcome, best);
            assert_int_equal(j->played.outcome, played);
            switch (j->mark) {
            case PMN_MARK_BLUNDER:
                assert_int_equal(best - played, 2);
                count->marked++;
                break;
            case PMN_MARK_MISTAKE:
                assert_int_equal(best - played, 1);
                count->marked++;
                break;
            case PMN_MARK_INACCURACY:
                fail_msg("an inaccuracy where the values are exact");
                break;
            case PMN_MARK_ONLY:
                assert_int_equal(played, best);
                assert_true(others < best);
                break;
            case PMN_MARK_NONE:
                assert_int_equal(played, best);   /* keeps the result: never marked */
                assert_false(solve && nm > 1 && others < best);
                break;
            }
        }
        /* The next ply's history: the positions since the last capture. */
        pmn_position q = j->before;
        pmn_move_report rep;
        assert_int_equal(pmn_play(r, &q, j->hole, &rep), 0);
        if (pmn_irreversible(&rep)) {
            nh = 0;
        } else {
            hist[nh++] = j->before;
        }
        hist[nh] = q;   /* where the next ply starts (not yet history) */
    }
    free(hist);
}

#endif
