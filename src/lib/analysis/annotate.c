/* annotate.c - a record's main line judged by the analysis engine, its
 * judgements, comments and variations added to the record. */
#include "pmn.h"
#include "judge.h"
#include "../records/record.h"
#include "solve.h"
#include "../base/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENGINE_LINE "engine line"
#define SUMMARY "pmn summary: "
#define MAX_LINE_PLIES 12

/* ---- what an earlier run added ------------------------------------------- */

/* Does comment c begin with these words?  A comment read back may have
 * its words on several lines. */
static int begins(const char *c, const char *words)
{
    while (*words) {
        if (*words == ' ') {
            if (!isspace((unsigned char)*c))
                return 0;
            while (isspace((unsigned char)*c))
                c++;
            words++;
        } else if (*c++ != *words++) {
            return 0;
        }
    }
    return 1;
}

static int has_words(const char *c, const char *words)
{
    for (; *c; c++)
        if (begins(c, words))
            return 1;
    return 0;
}

static const char *const mark_words[] = { "", "Only move", "Inaccuracy", "Mistake", "Blunder" };

/* Our judgement sentences (and those of earlier versions); those after
 * "engine: " went with a judgement that was the record's own, and leave it. */
static int judged_by_us(const char *c)
{
    for (int m = PMN_MARK_INACCURACY; m <= PMN_MARK_BLUNDER; m++)
        if (begins(c, mark_words[m]) && has_words(c, " was best"))
            return 1;
    return begins(c, "Only move: ")
        || (begins(c, "best ") && has_words(c, "; played ")) || begins(c, "only move");
}

static int is_ours(const char *c)
{
    while (isspace((unsigned char)*c))
        c++;
    return judged_by_us(c) || (begins(c, "engine: ") && judged_by_us(c + 8))
        || begins(c, "[%eval ")
        || (begins(c, "value ") && has_words(c, ", after ")) || begins(c, "from here ")
        || begins(c, SUMMARY);
}

static void strip_move(pmn_move *m)
{
    size_t k = 0;
    int judged = 0;
    for (size_t i = 0; i < m->ncomments; i++) {
        if (is_ours(m->comments[i])) {
            judged |= judged_by_us(m->comments[i]);
            free(m->comments[i]);
        } else {
            m->comments[k++] = m->comments[i];
        }
    }
    m->ncomments = k;
    if (judged)
        m->judgement[0] = '\0';
    k = 0;
    for (size_t v = 0; v < m->nvariations; v++) {
        pmn_line *l = &m->variations[v];
        if (l->nlead && begins(l->lead[0], ENGINE_LINE))
            record_line_free(l);
        else
            m->variations[k++] = *l;
    }
    m->nvariations = k;
}

/* ---- the engine's line as a variation ------------------------------------ */

/* The engine's line from a sowing's position, as a whole turn: a
 * variation of the turn's first sowing m (replayed from before the turn,
 * turn_start), the sowings played before the judged one (turn[0..nturn))
 * first, so that a better later sowing reads back as a legal line that
 * opens with the turn, never with a '-'. */
static int add_line(pmn_move *m, const pmn_rules *r, const pmn_position *turn_start,
                    const int *turn, size_t nturn, const pmn_analysis *a, int claims)
{
    pmn_line *l = record_move_add_variation(m);
    if (!l || record_line_add_lead(l, ENGINE_LINE, strlen(ENGINE_LINE)) < 0)
        return PMN_ERR_NOMEM;
    pmn_position q = *turn_start;
    int prev = -1;
    for (size_t i = 0; i < nturn + a->npv && i < nturn + MAX_LINE_PLIES; i++) {
        pmn_move_report rep;
        int hole = i < nturn ? turn[i] : a->pv[i - nturn];
        pmn_move *v = record_line_add_move(l);
        if (!v)
            return PMN_ERR_NOMEM;
        v->notation = m->notation;
        v->side = q.to_move;
        v->hole = hole;
        v->joined = prev == q.to_move;
        pmn_hole_name(r, m->notation, v->side, v->hole, v->text, sizeof v->text);
        prev = q.to_move;
        if (pmn_play(r, &q, hole, &rep) != 0)
            break;
        if (claims && rep.captured) {   /* as the record writes them */
            v->claim = (int)rep.captured;
            v->claim_style = '+';
        }
        if (rep.ending != PMN_END_NONE)
            break;
        if (rep.passed)
            prev = -1;
    }
    return 0;
}

/* The values a record carried before (a self-play record's, another
 * program's): pmn's replaces them, so that a move shows one. */
static void strip_evals(pmn_move *m)
{
    size_t k = 0;
    for (size_t i = 0; i < m->ncomments; i++) {
        const char *c = m->comments[i];
        while (isspace((unsigned char)*c))
            c++;
        /* A comment that is a value alone: "[%eval X]", spaces around it. */
        const char *close = begins(c, "[%eval ") ? strchr(c, ']') : NULL;
        if (close && close[1 + strspn(close + 1, " \t\n")] == '\0')
            free(m->comments[i]);
        else
            m->comments[k++] = m->comments[i];
    }
    m->ncomments = k;
}

/* ---- judging the main line ----------------------------------------------- */

const char *pmn_mark_symbol(pmn_mark m)
{
    static const char *const symbols[] = { "", "!", "?!", "?", "??" };
    return m >= PMN_MARK_NONE && m <= PMN_MARK_BLUNDER ? symbols[m] : "";
}

void pmn_annotation_free(pmn_annotation *a)
{
    if (a) {
        free(a->plies);
        a->plies = NULL;
        a->nplies = 0;
    }
}

static const pmn_move_value *value_of(const pmn_analysis *a, int hole)
{
    for (int i = 0; i < a->nmoves; i++)
        if (a->moves[i].hole == hole)
            return &a->moves[i];
    return NULL;
}

/* Lichess's accuracy of a move from the drop of the mover's winning
 * chances, in percent: 100 for no drop, about 50 for a drop of 15. */
static double accuracy_of(double drop)
{
    double a = 103.1668 * exp(-0.04354 * 100 * drop) - 3.1669;
    return a < 0 ? 0 : a > 100 ? 100 : a;
}

/* The last iterations of a position's search: a drop is judged by the
 * smallest of them, so that a mark does not hang on one depth.  Three, not
 * two: on the Mancala World sample games, marks at 1M and 4M positions
 * then agree on 92.6% of plies (91.2% with two; both counted by a script
 * over pmn annotate --format json); with ESTIMATE_SEEDS and proofs taken
 * as they stand, 96.3% (five kept: the same). */
#define KEPT 3

/* Seeds an estimated drop must pass to be marked (judge()). */
#define ESTIMATE_SEEDS 2

struct iterations {
    pmn_analysis kept[KEPT];  /* the last KEPT, the latest at count - 1 (mod KEPT) */
    int count;
};

static void keep_iteration(void *ctx, const pmn_analysis *a)
{
    struct iterations *it = ctx;
    if (a->nmoves == 0)
        return;
    it->kept[it->count++ % KEPT] = *a;
}

/* Is v proved to the end of the game (exact, or a win or loss found to
 * the end), rather than an estimate? */
static int proved(const pmn_value *v)
{
    return v->exact || v->plies;
}

/* The model's expected score of v's margin, proved or not; of the margin
 * solver's bounds where it stopped, the lower (low) or the upper.  Where
 * seeds do not score (Hawalis), a proved value's margin is no estimate of
 * anything: its result's score. */
static double as_estimate(const pmn_model *m, const pmn_value *v, unsigned in_play, int low)
{
    if (!v->has_margin)   /* seeds do not score: a proof says no more than its result */
        return pmn_expected_score(m, v, in_play);
    int margin = v->solved && !v->exact ? (low ? v->lower : v->upper) : v->margin;
    return pmn_model_expected(m, margin, in_play);
}

/* The drop of expected score from the best move's value to the played
 * one's, like with like: two proved values, or two estimates, by their
 * expected scores; a proved value beside an estimate (or bounds), by
 * what the model makes of their margins, the best at its least and the
 * played at its most -- a proved win's 1 beside an estimate's 0.7 is no
 * drop that the move made, and a proved loss by 4 beside an estimate of
 * -4 loses nothing. */
static double drop_between(const pmn_model *m, const pmn_value *best, const pmn_value *played,
                           unsigned in_play)
{
    double d;
    int bounds = (best->solved && !best->exact) || (played->solved && !played->exact);
    if (!bounds && proved(best) == proved(played))
        d = pmn_expected_score(m, best, in_play) - pmn_expected_score(m, played, in_play);
    else
        d = as_estimate(m, best, in_play, 1) - as_estimate(m, played, in_play, 0);
    return d > 0 ? d : 0;
}

/* v from the other side's view. */
static pmn_value other_view(const pmn_value *v)
{
    pmn_value o = *v;
    o.score = -v->score;
    o.outcome = -v->outcome;
    o.margin = -v->margin;
    o.lower = -v->upper;
    o.upper = -v->lower;
    return o;
}

/* The drop of expected score of playing `hole` in analysis a. */
static double drop_in(const pmn_analysis *a, int hole, const pmn_model *m, unsigned in_play)
{
    const pmn_move_value *played = value_of(a, hole);
    if (!played || a->nmoves == 0)
        return -1;
    return drop_between(m, &a->moves[0].value, &played->value, in_play);
}

/* The mark of a move that loses `classes` of result (win, draw, loss). */
static pmn_mark mark_of_classes(int classes)
{
    return classes >= 2 ? PMN_MARK_BLUNDER : classes == 1 ? PMN_MARK_MISTAKE : PMN_MARK_NONE;
}

/* Judge the move j of the main line from its position's analysis; shown,
 * if not NULL, the value the move before it left (its mover's view, as
 * the record shows it), which the drop judged by estimates is also taken
 * from. */
static void judge(pmn_annotated_ply *j, const pmn_analysis *a, const struct iterations *it,
                  const pmn_value *shown, const pmn_model *model, unsigned in_play,
                  double threshold, int opening)
{
    const pmn_move_value *played = value_of(a, j->hole);
    const pmn_move_value *best = &a->moves[0];
    j->best = best->hole;
    j->best_value = best->value;
    j->played = played->value;
    /* The value after the move: its plies counted from there. */
    pmn_value after = played->value;
    if (after.plies)
        after.plies--;
    pmn_value_eval(&after, j->mover, j->eval, sizeof j->eval);
    j->expected_best = pmn_expected_score(model, &best->value, in_play);
    j->expected_played = pmn_expected_score(model, &played->value, in_play);
    j->loss = drop_in(a, j->hole, model, in_play);
    j->seeds_lost = best->value.margin > played->value.margin
                  ? best->value.margin - played->value.margin : 0;
    j->accuracy = accuracy_of(j->loss);
    j->depth = a->depth;
    memcpy(j->pv, a->pv, a->npv * sizeof a->pv[0]);
    j->npv = a->npv;
    if (best->value.exact && played->value.exact) {
        /* The result alone: a move that keeps it is never marked. */
        j->mark = mark_of_classes(best->value.outcome - played->value.outcome);
        if (played->hole == best->hole && a->nmoves > 1) {
            int only = 1;
            for (int i = 1; i < a->nmoves; i++)
                only &= a->moves[i].value.exact
                     && a->moves[i].value.outcome < best->value.outcome;
            if (only)
                j->mark = PMN_MARK_ONLY;
        }
        return;
    }
    double loss = j->loss;
    /* (A proof stands at any depth: a drop it makes is not lessened by
     * the estimates of the iterations before it found it.) */
    for (int back = 2; back <= KEPT && it->count >= back && !proved(&best->value)
                       && !proved(&played->value); back++) {
        double earlier = drop_in(&it->kept[(it->count - back) % KEPT], j->hole, model, in_play);
        if (earlier >= 0 && earlier < loss)
            loss = earlier;
    }
    /* An estimate is good to about a seed: between budgets four times
     * apart, 90% of the played moves' estimates on the Mancala World
     * sample games moved by at most one (61 plies).  A drop between two
     * estimates is worth a mark only past what ESTIMATE_SEEDS make, or
     * the mark hangs on the budget. */
    if (!proved(&best->value))
        loss -= pmn_model_expected(model, best->value.margin, in_play)
              - pmn_model_expected(model, best->value.margin - ESTIMATE_SEEDS, in_play);
    /* A move that leaves its mover as well off as the record showed him
     * before it is not marked on an estimate's word: the two values the
     * reader sees beside it (-5 and -5) are the search's too, one ply
     * apart, and a search that now thinks better of the position than it
     * did has not seen the move throw anything away. */
    if (shown) {
        double d = drop_between(model, shown, &played->value, in_play);
        if (d < loss)
            loss = d;
    }
    if (opening)
        return;   /* estimates do not judge the opening */
    j->mark = loss >= 3 * threshold ? PMN_MARK_BLUNDER
            : loss >= 2 * threshold ? PMN_MARK_MISTAKE
            : loss >= threshold ? PMN_MARK_INACCURACY : PMN_MARK_NONE;
    /* Beside a proved result, an estimate's mark goes no further than the
     * results would take it with the estimate at its best for the move:
     * a proved draw beside an estimated win is at most a mistake, as a
     * proved win is (marked '??' at 1M positions and '?' at 4M, where the
     * win was proved, on the Mancala World sample games), and a proved win
     * played is no mark at all. */
    pmn_mark most = proved(&played->value) ? mark_of_classes(1 - played->value.outcome)
                  : proved(&best->value) ? mark_of_classes(best->value.outcome + 1)
                  : PMN_MARK_BLUNDER;
    if (j->mark > most)
        j->mark = most;
}

pmn_mark annotate_mark(const pmn_analysis *a, int hole, int mover, const pmn_value *shown,
                       const pmn_model *model, unsigned in_play, double threshold, int opening)
{
    pmn_annotated_ply j = { .hole = hole, .mover = mover };
    struct iterations it = { .count = 0 };
    if (!value_of(a, hole))
        return PMN_MARK_NONE;
    judge(&j, a, &it, shown, model, in_play, threshold, opening);
    return j.mark;
}

/* The turn a sowing is part of: its first sowing in the record, the
 * position before it, and the holes sown before the judged one. */
struct turn {
    pmn_move *first;
    const pmn_position *start;
    int holes[PMN_MAX_PV];
    size_t n;
};

/* The judgement into the record: the symbol (unless the record has its
 * own), the sentence, the engine's line. */
static int write_judgement(pmn_move *m, const pmn_annotated_ply *j, const pmn_rules *r,
                           const struct turn *t, const pmn_annotate_options *o,
                           const pmn_analysis *a, int claims)
{
    char text[256], bname[16];
    const char *engine = m->judgement[0] ? "engine: " : "";
    if (j->mark == PMN_MARK_NONE)
        return 0;
    if (!m->judgement[0])
        snprintf(m->judgement, sizeof m->judgement, "%s", pmn_mark_symbol(j->mark));
    if (j->mark == PMN_MARK_ONLY) {
        snprintf(text, sizeof text, "%sOnly move: every other loses %s", engine,
                 j->best_value.outcome > 0 ? "the win" : "the draw");
        return record_move_add_comment(m, text, strlen(text)) < 0 ? PMN_ERR_NOMEM : 0;
    }
    pmn_hole_name(r, o->notation, j->mover, j->best, bname, sizeof bname);
    const char *thrown = "";
    if (j->best_value.exact && j->played.exact)
        thrown = j->best_value.outcome > 0
               ? (j->played.outcome < 0 ? " The win is thrown away: a loss."
                                        : " The win is thrown away: a draw.")
               : " The draw is thrown away: a loss.";
    snprintf(text, sizeof text, "%s%s: %s was best.%s", engine, mark_words[j->mark], bname,
             thrown);
    if (record_move_add_comment(m, text, strlen(text)) < 0
        || add_line(t->first, r, t->start, t->holes, t->n, a, claims) < 0)
        return PMN_ERR_NOMEM;
    return 0;
}

static int add_comment_text(pmn_move *m, const char *text)
{
    return record_move_add_comment(m, text, strlen(text)) < 0 ? PMN_ERR_NOMEM : 0;
}

/* South's view of a position's value: +1 South wins, -1 North, 0 draw or
 * not known; 2 where it is not exact. */
static int south_view(const pmn_value *v, int side)
{
    if (!v->exact)
        return 2;
    return side == PMN_SOUTH ? v->outcome : -v->outcome;
}

/* Who moves before ply i of the main line. */
static int to_move_before(const pmn_played_line *line, const pmn_setup *setup, size_t i)
{
    return i ? line->moves[i - 1].after.to_move : setup->start.to_move;
}

static void plural(char *buf, size_t size, unsigned n, const char *one, const char *many)
{
    snprintf(buf, size, "%u %s", n, n == 1 ? one : many);
}

/* Does the game end with this ply (its replay, pl, says so), won where no
 * seeds count (Hawalis)?  The result says it; no value is written.  (The
 * value alone does not tell: a result the databases or the solver proved
 * without a margin -- under a majority -- counts no plies either, and the
 * blunder that threw a game away then lost its value.) */
static int game_over(const pmn_annotated_ply *j, const pmn_played *pl)
{
    return pl->report.ending != PMN_END_NONE && pl->report.outcome != PMN_DRAWN
        && !j->played.has_margin;
}

/* A ply that ends a game scored by seeds is worth what the board gives,
 * exactly ("=-7"), whatever the search valued it at: a result proved
 * without a margin (from the databases under a majority) is written so
 * too.  0 where the rules count no seeds. */
static int final_eval(const pmn_rules *r, const pmn_played *pl, char *buf, size_t size)
{
    unsigned long seeds[2];
    if (pl->report.ending == PMN_END_NONE
        || !pmn_final_seeds(r, pl->report.ending, &pl->after, seeds))
        return 0;
    long m = (long)seeds[PMN_SOUTH] - (long)seeds[PMN_NORTH];
    snprintf(buf, size, m ? "=%+ld" : "=0", m);
    return 1;
}

/* Exact first: a position whose every move the margin solver proves
 * within o->proof_nodes positions is judged by exact values (the opening
 * too), the search judging only the rest.  One thread and a count of
 * positions: the same proofs on every machine.  1 proved (into a), 0 not,
 * PMN_ERR_NOMEM. */
static int prove(pmn_searcher *s, const pmn_rules *r, const pmn_position *p,
                 const pmn_position *history, size_t nhistory, const pmn_annotate_options *o,
                 pmn_analysis *a)
{
    if (!o->proof_nodes || o->limits.solve || !solve_applies(r))
        return 0;
    pmn_search_limits l = o->limits;
    l.solve = 1;
    l.distance = 0;
    l.all_moves = 1;
    l.depth = 0;
    l.seconds = 0;
    l.nodes = o->proof_nodes;
    l.threads = 1;
    if (pmn_analyse(s, p, history, nhistory, &l, NULL, NULL, a) < 0)
        return PMN_ERR_NOMEM;
    if (a->stopped || !a->value.exact || a->nmoves == 0)
        return 0;
    for (int i = 0; i < a->nmoves; i++)
        if (!a->moves[i].value.exact)
            return 0;
    return 1;
}

/* Like with like (judge()): where one of the best and the played move is
 * proved and the other only estimated, the one estimated is searched on
 * its own, with the position's budget, for a proof that puts the two side
 * by side.  Among the moves of a whole position's search an estimate is
 * shallower than alone: on the Mancala World sample games at 4M positions,
 * a move estimated -14 beside a forced win was marked ?? for throwing the
 * win away where, searched alone, it wins in 22 plies (1.2M positions).
 * A proof may reorder the moves, and the best then be another estimate:
 * LIKE_TRIES searches at most.  1: a proof changed a; 0: none;
 * PMN_ERR_NOMEM. */
#define LIKE_TRIES 2

static void move_into_place(pmn_analysis *a, int i)
{
    pmn_move_value m = a->moves[i];
    while (i > 0 && a->moves[i - 1].value.score < m.value.score) {
        a->moves[i] = a->moves[i - 1];
        i--;
    }
    while (i + 1 < a->nmoves && a->moves[i + 1].value.score > m.value.score) {
        a->moves[i] = a->moves[i + 1];
        i++;
    }
    a->moves[i] = m;
}

int annotate_prove_alike(pmn_searcher *s, const pmn_rules *r, const pmn_position *before,
                         const pmn_position *history, size_t nhistory,
                         const pmn_search_limits *l, int hole, pmn_analysis *a)
{
    int changed = 0, best_hole = a->moves[0].hole;
    for (int t = 0; t < LIKE_TRIES && a->nmoves > 1; t++) {
        const pmn_move_value *played = value_of(a, hole);
        const pmn_move_value *best = &a->moves[0];
        if (!played || played == best || proved(&best->value) == proved(&played->value))
            break;
        int i = (int)((proved(&best->value) ? played : best) - a->moves);
        pmn_position q = *before;
        pmn_move_report rep;
        if (pmn_play(r, &q, a->moves[i].hole, &rep) != 0 || rep.ending != PMN_END_NONE)
            break;
        pmn_search_limits alone = *l;
        alone.all_moves = 0;
        pmn_analysis b;
        /* (history ends with before itself: the caller's history[nhistory].) */
        if (pmn_analyse(s, &q, history, pmn_irreversible(&rep) ? 0 : nhistory + 1, &alone,
                        NULL, NULL, &b) < 0)
            return PMN_ERR_NOMEM;
        if (!proved(&b.value))
            break;
        pmn_value_of_move(r, &b.value, q.to_move == before->to_move, &a->moves[i].value);
        if (b.npv + 1 <= PMN_MAX_PV && a->moves[i].value.score >= a->moves[0].value.score) {
            /* The new best's line: its move, then its search's. */
            a->pv[0] = a->moves[i].hole;
            memcpy(a->pv + 1, b.pv, b.npv * sizeof b.pv[0]);
            a->npv = b.npv + 1;
            best_hole = a->moves[i].hole;
        }
        move_into_place(a, i);
        changed = 1;
    }
    if (!changed)
        return 0;
    if (a->moves[0].hole != best_hole) {
        /* A best whose line no search gave: its move alone. */
        a->pv[0] = a->moves[0].hole;
        a->npv = 1;
    }
    int exact = 1;
    for (int i = 0; i < a->nmoves; i++)
        exact &= a->moves[i].value.exact;
    a->best = a->moves[0].hole;
    a->value = a->moves[0].value;
    a->value.exact &= exact;
    return 1;
}

/* One annotation under way: the record, its replay's main line and what
 * the plies carry from one to the next. */
struct run {
    pmn_record *rec;
    const pmn_setup *setup;
    pmn_searcher *s;
    const pmn_annotate_options *o;
    const pmn_rules *r;
    const pmn_model *model;
    const pmn_played_line *line;
    size_t n;                  /* the plies replayed */
    pmn_position *history;     /* the positions before each ply */
    size_t since;              /* the first since the last capture */
    struct iterations *it;     /* the last iterations of the ply's search */
    unsigned failed_at;        /* seeds in play at the last failed proof */
    double start;
    int claims;                /* the record writes captures: the engine's lines too */
};

/* The analysis of the position before ply i (into a): proved where the
 * solver proves it within its budget, else searched, the best and the
 * played move then put like with like.  1 proved, 0 searched,
 * PMN_ERR_NOMEM. */
static int analyse_ply(struct run *u, size_t i, const pmn_position *before, pmn_analysis *a)
{
    const pmn_annotate_options *o = u->o;
    pmn_search_limits l = o->limits;
    l.all_moves = 1;
    if (o->game_seconds > 0) {
        double left = o->game_seconds - (util_now() - u->start);
        l.seconds = left / (double)(u->n - i);
        if (l.seconds < 0.001)
            l.seconds = 0.001;
    }
    if (o->progress)
        o->progress(o->progress_ctx, i, u->n, util_now() - u->start);
    u->it->count = 0;
    const pmn_position *history = u->history + u->since;
    size_t nhistory = i - u->since;
    /* A proof that failed with n seeds in play is tried again only when
     * four fewer are: positions of as many seeds are about as hard, and
     * a failed proof costs its whole budget (an opening of Kalah(6,4)
     * or Oware would pay it every ply: annotate took 1.4 times as long
     * on samples/oware/selfplay-2.pmn, 1.1 times with this).  Where the
     * databases hold the layer, every ply tries: their answer is cheap,
     * and one failed above them says nothing of it. */
    unsigned in_play = pmn_position_seeds(u->r, before, PMN_SOUTH)
                     + pmn_position_seeds(u->r, before, PMN_NORTH);
    int tried = in_play + 4 <= u->failed_at
             || (int)in_play <= searcher_tablebase_seeds(u->s);   /* (the databases' answer) */
    int exact = tried ? prove(u->s, u->r, before, history, nhistory, o, a) : 0;
    if (tried && exact == 0)
        u->failed_at = in_play;   /* (where prove() does not apply, it answers 0 at once) */
    if (exact)
        return exact;
    if (pmn_analyse(u->s, before, history, nhistory, &l, keep_iteration, u->it, a) < 0)
        return PMN_ERR_NOMEM;
    int hole = u->rec->main.moves[i].hole;
    if (value_of(a, hole)
        && annotate_prove_alike(u->s, u->r, before, history, nhistory, &l, hole, a) < 0)
        return PMN_ERR_NOMEM;
    return 0;
}

/* The judged ply j (ply i of the main line, its position's analysis a)
 * written into the record: its value, its mark and the engine's line. */
static int write_ply(struct run *u, size_t i, const pmn_annotated_ply *j, const pmn_analysis *a)
{
    const pmn_played_line *line = u->line;
    pmn_move *m = &u->rec->main.moves[i];
    char text[48];
    /* The value once a turn, after its last sowing (pmn(1)); a sowing
     * judged before it gets its mark and sentence. */
    int turn_goes_on = i + 1 < u->n && line->moves[i + 1].continues;
    char final[16];
    int scored = final_eval(u->r, &line->moves[i], final, sizeof final);
    snprintf(text, sizeof text, "[%%eval %s]", scored ? final : j->eval);
    /* The turn: back to its first sowing. */
    struct turn t;
    size_t first = i;
    while (first > 0 && line->moves[first].continues && i - first + 1 < PMN_MAX_PV)
        first--;
    t.first = &u->rec->main.moves[first];
    t.start = first ? &line->moves[first - 1].after : &u->setup->start;
    t.n = i - first;
    for (size_t k = first; k < i; k++)
        t.holes[k - first] = u->rec->main.moves[k].hole;
    strip_evals(m);
    if (!turn_goes_on && (scored || !game_over(j, &line->moves[i]))) {
        int rc = add_comment_text(m, text);
        if (rc < 0)
            return rc;
    }
    return write_judgement(m, j, u->r, &t, u->o, a, u->claims);
}

/* The end: who won, as the board says, said on the move after which it
 * was decided -- from the first of the positions that stay exactly won
 * for the winner (values[i]: the position before ply i, its side to
 * move's view). */
static int write_decided(struct run *u, const pmn_check_result *res, const pmn_value *values,
                         pmn_annotation *an)
{
    size_t n = u->n;
    int final = res->outcome == PMN_SOUTH_WINS ? 1 : res->outcome == PMN_NORTH_WINS ? -1 : 0;
    if (n == 0 || final == 0 || res->stopped || res->ending == PMN_END_NONE)
        return 0;
    size_t d = n;
    while (d > 0 && south_view(&values[d - 1], to_move_before(u->line, u->setup, d - 1)) == final)
        d--;
    if (d == n)
        return 0;
    char text[128];
    int winner = final > 0 ? PMN_SOUTH : PMN_NORTH;
    const pmn_value *v = &values[d];
    int mover_wins = to_move_before(u->line, u->setup, d) == winner;
    an->decided = (long)d - 1;
    an->winner = winner;
    /* The winner's view. */
    an->decided_value = mover_wins ? *v : other_view(v);
    int margin = an->decided_value.margin;
    if (v->has_margin && v->solved)
        snprintf(text, sizeof text, "from here %s wins by %d seed%s with best play",
                 pmn_side_name(winner), margin, margin == 1 ? "" : "s");
    else if (v->plies)
        snprintf(text, sizeof text, "from here %s wins by force in %u pl%s",
                 pmn_side_name(winner), v->plies, v->plies == 1 ? "y" : "ies");
    else
        snprintf(text, sizeof text, "from here %s wins by force", pmn_side_name(winner));
    /* On the move after which it was decided; the first, if before it. */
    return add_comment_text(&u->rec->main.moves[d ? d - 1 : 0], text);
}

/* Each side's summary, on the last ply. */
static int write_summaries(struct run *u, const pmn_annotation *an)
{
    for (int side = 0; u->n > 0 && side < 2; side++) {
        char text[256], a[32], b[32], c[32];
        const pmn_annotation_side *t = &an->side[side];
        if (!t->moves)
            continue;
        plural(a, sizeof a, t->inaccuracies, "inaccuracy", "inaccuracies");
        plural(b, sizeof b, t->mistakes, "mistake", "mistakes");
        plural(c, sizeof c, t->blunders, "blunder", "blunders");
        char sowings[48] = "";
        if (t->sowings != t->moves)
            snprintf(sowings, sizeof sowings, " (%u sowings judged)", t->sowings);
        snprintf(text, sizeof text, SUMMARY "%s, %u move%s%s: %s, %s, %s, average loss %.1f "
                 "seeds, accuracy %.0f%%", pmn_side_name(side), t->moves,
                 t->moves == 1 ? "" : "s", sowings, a, b, c, t->average_loss, t->accuracy);
        int rc = add_comment_text(&u->rec->main.moves[u->n - 1], text);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int pmn_annotate_record(pmn_record *rec, const pmn_setup *setup, pmn_searcher *s,
                        const pmn_annotate_options *o, pmn_annotation *out)
{
    const char *annotator = pmn_record_tag(rec, "Annotator");
    pmn_annotation none, *an = out ? out : &none;
    memset(an, 0, sizeof *an);
    an->decided = -2;
    if (annotator && strncmp(annotator, "pmn", 3) == 0)
        for (size_t i = 0; i < rec->main.nmoves; i++)
            strip_move(&rec->main.moves[i]);
    if (record_set_tag(rec, "Annotator", o->annotator, NULL) < 0)
        return PMN_ERR_NOMEM;
    if (setup->status != PMN_SETUP_READY)
        return 0;
    pmn_replay *replay = pmn_replay_new(rec, setup, NULL, NULL);
    if (!replay)
        return PMN_ERR_NOMEM;
    struct run u = { .rec = rec, .setup = setup, .s = s, .o = o, .r = &setup->rules,
                     .line = pmn_replay_main(replay), .failed_at = UINT_MAX,
                     .start = util_now() };
    u.model = pmn_model_for(u.r);
    double threshold = o->threshold > 0 ? o->threshold : 0.05;
    while (u.n < u.line->nmoves && u.line->moves[u.n].replayed)
        u.n++;
    for (size_t i = 0; i < rec->main.nmoves; i++)
        u.claims |= rec->main.moves[i].claim >= 0;
    pmn_value *values = calloc(u.n + 1, sizeof *values);
    u.history = malloc((u.n + 1) * sizeof *u.history);
    u.it = malloc(sizeof *u.it);
    an->plies = calloc(u.n + 1, sizeof *an->plies);
    an->model = u.model;
    int rc = values && u.history && an->plies && u.it ? 0 : PMN_ERR_NOMEM;
    double sum_accuracy[2] = { 0, 0 }, sum_loss[2] = { 0, 0 };
    for (size_t i = 0; rc == 0 && i < u.n; i++) {
        const pmn_played *pl = &u.line->moves[i];
        const pmn_position *before = i ? &u.line->moves[i - 1].after : &setup->start;
        pmn_annotated_ply *j = &an->plies[an->nplies];
        pmn_analysis a;
        u.history[i] = *before;
        if (analyse_ply(&u, i, before, &a) < 0) {
            rc = PMN_ERR_NOMEM;
            break;
        }
        j->ply = i;
        j->before = *before;
        j->mover = pl->mover;
        j->hole = rec->main.moves[i].hole;
        values[i] = a.value;
        if (pmn_irreversible(&pl->report))
            u.since = i + 1;
        if (!value_of(&a, j->hole))
            continue;   /* a pass, or a move the engine does not list */
        unsigned in_play = pmn_position_seeds(u.r, before, PMN_SOUTH)
                         + pmn_position_seeds(u.r, before, PMN_NORTH);
        /* The value the record shows before the move: the last one's,
         * the mover's view. */
        const pmn_annotated_ply *last = an->nplies ? j - 1 : NULL;
        pmn_value shown, *before_move = NULL;
        if (last && last->ply + 1 == i) {
            shown = last->mover == j->mover ? last->played : other_view(&last->played);
            before_move = &shown;
        }
        judge(j, &a, u.it, before_move, u.model, in_play, threshold, i < o->opening);
        an->nplies++;
        if ((rc = write_ply(&u, i, j, &a)) < 0)
            break;
        pmn_annotation_side *sd = &an->side[j->mover];
        sd->moves += !pl->continues;
        sd->sowings++;
        sd->inaccuracies += j->mark == PMN_MARK_INACCURACY;
        sd->mistakes += j->mark == PMN_MARK_MISTAKE;
        sd->blunders += j->mark == PMN_MARK_BLUNDER;
        sum_loss[j->mover] += j->seeds_lost;
        sum_accuracy[j->mover] += j->accuracy;
    }
    for (int side = 0; side < 2; side++)
        if (an->side[side].sowings) {
            an->side[side].average_loss = sum_loss[side] / an->side[side].sowings;
            an->side[side].accuracy = sum_accuracy[side] / an->side[side].sowings;
        }
    if (rc == 0)
        rc = write_decided(&u, pmn_replay_result(replay), values, an);
    if (rc == 0)
        rc = write_summaries(&u, an);
    free(values);
    free(u.history);
    free(u.it);
    if (!out || rc < 0)
        pmn_annotation_free(an);
    pmn_replay_free(replay);
    return rc;
}

/* ---- a problem's solution against the engine ----------------------------- */

static void problem_report(pmn_diag_fn fn, void *ctx, pmn_diag_code code, const pmn_move *m,
                           const char *fmt, ...) PMN_PRINTF(5, 6);
static void problem_report(pmn_diag_fn fn, void *ctx, pmn_diag_code code, const pmn_move *m,
                           const char *fmt, ...)
{
    char msg[sizeof ((pmn_diag *)0)->message];
    pmn_diag d;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pmn_diag_make(&d, code, m->line, m->col, "%s", msg);
    if (fn)
        fn(ctx, &d);
}

int pmn_problem_check(const pmn_record *rec, const pmn_replay *replay, pmn_searcher *s,
                      uint64_t nodes, pmn_diag_fn fn, void *ctx)
{
    const pmn_setup *setup = pmn_replay_setup(replay);
    const pmn_played_line *line = pmn_replay_main(replay);
    const pmn_rules *r = &setup->rules;
    pmn_position pos = setup->start;
    pmn_search_limits l = { 0 };
    l.solve = 1;
    l.all_moves = 1;
    l.nodes = nodes;
    size_t n = 0, since = 0;
    while (n < line->nmoves && line->moves[n].replayed)
        n++;
    pmn_position *history = malloc((n + 1) * sizeof *history);
    if (!history)
        return PMN_ERR_NOMEM;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const pmn_move *m = &rec->main.moves[i];
        const pmn_played *pl = &line->moves[i];
        pmn_analysis a;
        char played_v[128], best_v[128], best[16], others[128] = "";
        history[i] = pos;
        if (pmn_analyse(s, &pos, history + since, i - since, &l, NULL, NULL, &a) < 0) {
            rc = PMN_ERR_NOMEM;
            break;
        }
        if (a.stopped && !a.value.exact) {
            rc = (int)i + 1;   /* not solved within the budget: the rest is not judged */
            break;
        }
        if (!a.nmoves)
            break;
        const pmn_move_value *mine = NULL;
        for (int k = 0; k < a.nmoves; k++)
            if (a.moves[k].hole == m->hole)
                mine = &a.moves[k];
        pos = pl->after;
        if (pmn_irreversible(&pl->report))
            since = i + 1;
        if (!mine || !a.moves[0].value.exact)
            continue;
        pmn_hole_name(r, m->notation, pl->side, a.moves[0].hole, best, sizeof best);
        pmn_value_describe(&a.moves[0].value, pl->mover, best_v, sizeof best_v);
        pmn_value_describe(&mine->value, pl->mover, played_v, sizeof played_v);
        if (mine->value.score < a.moves[0].value.score) {
            problem_report(fn, ctx, PMN_W219, m,
                           "%s's move %u (%s): not best play: after it %s; %s is best: %s",
                           pmn_side_name(pl->mover), pl->number, m->text, played_v, best,
                           best_v);
            continue;
        }
        /* Duals matter to the side that wins: another way to the same end. */
        if (mine->value.outcome <= 0)
            continue;
        for (int k = 0; k < a.nmoves; k++) {
            char name[16];
            if (a.moves[k].hole == m->hole || a.moves[k].value.score != mine->value.score)
                continue;
            pmn_hole_name(r, m->notation, pl->side, a.moves[k].hole, name, sizeof name);
            snprintf(others + strlen(others), sizeof others - strlen(others), "%s%s",
                     others[0] ? ", " : "", name);
        }
        if (others[0])
            problem_report(fn, ctx, PMN_N220, m, "%s's move %u (%s): a dual: %s %s as good (%s)",
                           pmn_side_name(pl->mover), pl->number, m->text, others,
                           strchr(others, ',') ? "are" : "is", played_v);
    }
    free(history);
    return rc;
}
