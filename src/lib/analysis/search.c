/* search.c - the analysis engine: iterative deepening principal variation
 * search with a transposition table, under any rule set the engine plays.
 *
 * Scores.  A position's score is from the view of its side to move, and
 * orders values by outcome, then seed margin, then plies:
 *     win    WIN + margin * MARGIN_UNIT + (PLY_SPAN - plies)
 *     loss   the negation of a win: -WIN + margin * MARGIN_UNIT - PLY_SPAN + plies
 *     draw   margin * MARGIN_UNIT (margin 0 but where a lot decides the last seeds)
 * and a heuristic lies strictly between losses and wins.  Inside a search,
 * plies count from the root, so that scores pass up the tree unchanged (but
 * for the sign where the other side moves); the transposition table keeps
 * them counted from the position itself.
 *
 * Exactness.  Every score returned carries a flag: 1 when the bound it
 * gives (fail-soft: an upper bound at or below alpha, a lower bound at or
 * above beta, the value between) is true of the game, because every leaf
 * that decided it was the end of the game or a proved bound.  A cut-off is
 * as exact as the move that made it; any other result as exact as all the
 * moves searched.  The table keeps the flag, and an exact entry serves at
 * any depth.
 *
 * Repetitions.  The positions since the last capture on the path (and the
 * game's before the root) are kept; a repeated one ends the game as the
 * rules say.  A result that saw such an ending depends on the path, and is
 * not stored in the table.
 *
 * Endgame databases.  Below the root, a position the databases hold is
 * not searched: its value is theirs, exact, wherever it is the game's --
 * where no position before it can come again (a capture came between, or
 * the rules make every position new).  The databases know the margin and
 * not the plies: such a win or loss is scored as one of TB_PLIES plies or
 * more, after every win the search saw to its end with the same margin,
 * and pmn_value_of_score reads it back as a value from the databases. */
#include "pmn.h"
#include "../engine/play.h"
#include "solve.h"
#include "tablebase.h"
#include "tree.h"
#include "judge.h"
#include "../base/util.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define WIN (1 << 29)
#define DECIDED (1 << 28)
#define MARGIN_UNIT 4096
#define PLY_SPAN 4095
#define INF (WIN + (1 << 30) - 1)

#define MAX_PLY 400
#define TB_PLIES 2048         /* plies counted for a win from the databases */
#define TB_RESULT_PLIES 3072  /* the same, the databases giving the result alone */
#define MAX_MARGIN ((DECIDED - 1) / MARGIN_UNIT)

/* ---- the transposition table ------------------------------------------ */

enum { BOUND_LOWER = 1, BOUND_UPPER = 2, BOUND_EXACT = 3, EXACT_VALUE = 4 };

struct entry {
    uint64_t key;
    int32_t score;            /* counted from the position itself */
    uint8_t depth;            /* of the search that found it */
    uint8_t flags;            /* bound, and EXACT_VALUE */
    int8_t best;              /* the best hole, or -1 */
    uint8_t generation;
};

#define BUCKET 4

struct pmn_searcher {
    pmn_rules rules;
    struct entry *table;
    size_t nbuckets;          /* a power of two */
    uint8_t generation;
    int seed_bounds;          /* the final margin lies within the captured
                                 difference, give or take the seeds on the board */
    int history_score[2][PMN_MAX_SIDE_PITS];
    size_t bytes;             /* the table's size, and the margin solver's */
    struct solve_table *solver;   /* made at the first solve that takes it */
    const pmn_tablebase *tb;
    int acyclic;              /* no position can come twice (rules_acyclic) */
    int used;                 /* searched since made or cleared */
    tree_ply *children;       /* of each ply of a search (tree_kids_new) */
};

/* ---- one search ------------------------------------------------------- */

struct search {
    pmn_searcher *s;
    const pmn_rules *r;
    struct engine eng;        /* chosen for the root */
    struct search_budget b;
    struct line ln;           /* from the root */
    const pmn_tablebase *tb;  /* the databases that answer, or NULL (--distance:
                                 they do not count plies) */
    int result_only;          /* they give results, not margins (a majority) */
    tree_ply *children;
    int pv[MAX_PLY + 1][MAX_PLY + 1];
    unsigned npv[MAX_PLY + 1];
};

/* Everything the value depends on, for the table. */
static uint64_t full_hash(const pmn_position *p, uint64_t board_key)
{
    uint64_t h = board_key;
    h = pmn_mix64(h ^ ((uint64_t)p->captured[0] << 32 | p->captured[1]));
    return pmn_mix64(h ^ ((uint64_t)p->last_capturer << 8 | p->first_three));
}

static int32_t clamp_margin(long m)
{
    return (int32_t)(m > MAX_MARGIN ? MAX_MARGIN : m < -MAX_MARGIN ? -MAX_MARGIN : m);
}

static int32_t win_score(long margin, unsigned plies)
{
    return WIN + clamp_margin(margin) * MARGIN_UNIT + (PLY_SPAN - (int32_t)plies);
}

/* The score of a game that ended with a move by `mover` at the ply `plies`
 * from the root, for the mover. */
static int32_t end_score(const pmn_rules *r, pmn_ending e, pmn_outcome o,
                         const pmn_position *end, int mover, unsigned plies)
{
    unsigned long seeds[2];
    long margin = 0;
    if (pmn_final_seeds(r, e, end, seeds) && o != PMN_DRAWN)
        margin = (long)seeds[mover] - (long)seeds[!mover];
    if (plies > PLY_SPAN)
        plies = PLY_SPAN;
    if (o == PMN_DRAWN || o == PMN_ONGOING)
        return clamp_margin(margin) * MARGIN_UNIT;
    int winner = o == PMN_SOUTH_WINS ? PMN_SOUTH : PMN_NORTH;
    return winner == mover ? win_score(margin, plies) : -win_score(-margin, plies);
}

/* The heuristic: the captured difference where seeds score, the seeds on
 * each side otherwise. */
static int32_t estimate(const pmn_rules *r, const pmn_position *p)
{
    int me = p->to_move;
    long d = r->goal == PMN_GOAL_MOST_SEEDS
           ? (long)p->captured[me] - (long)p->captured[!me]
           : (long)pmn_position_seeds(r, p, me) - (long)pmn_position_seeds(r, p, !me);
    return clamp_margin(d) * MARGIN_UNIT;
}

/* Root-counted plies to and from the table's own count. */
static int32_t to_table(int32_t v, int ply)
{
    return v >= DECIDED ? v + ply : v <= -DECIDED ? v - ply : v;
}

static int32_t from_table(int32_t v, int ply)
{
    return v >= DECIDED ? v - ply : v <= -DECIDED ? v + ply : v;
}

static struct entry *probe(pmn_searcher *s, uint64_t key)
{
    struct entry *b = &s->table[(key & (s->nbuckets - 1)) * BUCKET];
    for (int i = 0; i < BUCKET; i++)
        if (b[i].key == key && b[i].flags)
            return &b[i];
    return NULL;
}

static void store(pmn_searcher *s, uint64_t key, int32_t score, int depth, int bound,
                  int exact, int best)
{
    struct entry *b = &s->table[(key & (s->nbuckets - 1)) * BUCKET], *victim = &b[0];
    int worst = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        if (b[i].key == key || !b[i].flags) {
            victim = &b[i];
            break;
        }
        /* Keep exact values and deep searches of this generation. */
        int keep = (b[i].flags & EXACT_VALUE ? 512 : b[i].depth)
                 + (b[i].generation == s->generation ? 1024 : 0);
        if (keep < worst) {
            worst = keep;
            victim = &b[i];
        }
    }
    if (victim->key == key && victim->flags && !exact && (victim->flags & EXACT_VALUE))
        return;   /* a proved value is never replaced by a guess */
    victim->key = key;
    victim->score = score;
    victim->depth = (uint8_t)(depth > 255 ? 255 : depth);
    victim->flags = (uint8_t)(bound | (exact ? EXACT_VALUE : 0));
    victim->best = (int8_t)best;
    victim->generation = s->generation;
}

/* The bounds of the final margin: what is captured, give or take every
 * seed still on the board. */
static void seed_bounds(const struct search *x, const pmn_position *p, int ply, int32_t *lo,
                        int32_t *hi)
{
    int me = p->to_move;
    long diff = (long)p->captured[me] - (long)p->captured[!me];
    long board = (long)pmn_position_seeds(x->r, p, 0) + (long)pmn_position_seeds(x->r, p, 1);
    long top = diff + board, bottom = diff - board;
    unsigned quick = (unsigned)ply + 1;
    *hi = top > 0 ? win_score(top, quick) : top == 0 ? 0 : -win_score(-top, PLY_SPAN);
    *lo = bottom > 0 ? win_score(bottom, PLY_SPAN) : bottom == 0 ? 0
        : -win_score(-bottom, quick);
}

/* The databases' value of p at `ply` (> 0), where they hold it and it is
 * the game's: 1 with *score, for p's side to move. */
static int tb_score(const struct search *x, const pmn_position *p, int ply, int32_t *score)
{
    int v;
    assert(ply > 0);
    if (!x->tb || !(x->s->acyclic || x->ln.since[ply] == (unsigned)ply)
        || !tablebase_probe(x->tb, x->r, p, &v))
        return 0;
    int me = p->to_move;
    long m = (long)p->captured[me] - (long)p->captured[!me] + v;
    unsigned plies = TB_PLIES + (unsigned)ply;
    if (x->result_only) {
        /* The margin of the game that plays every seed out, whose sign
         * alone is this game's (its result: tablebase_outcome_only). */
        m = (m > 0) - (m < 0);
        plies = TB_RESULT_PLIES + (unsigned)ply;
    }
    *score = m > 0 ? win_score(m, plies) : m < 0 ? -win_score(-m, plies) : 0;
    return 1;
}

/* The children of p, played into out[] and ranked in ranked[] best-looking
 * first: the table's move, then what the move gains at once, then the
 * moves that made cut-offs before. */
static int children(struct search *x, const pmn_position *p, int tt_best, struct kid *out,
                    struct kid **ranked)
{
    int holes[PMN_MAX_SIDE_PITS];
    int n = engine_moves(&x->eng, p, holes);
    int me = p->to_move;
    for (int i = 0; i < n; i++) {
        struct kid *c = &out[i];
        kid_play(&x->eng, p, holes[i], 1, c);
        x->b.nodes++;
        long gain = (long)c->rep.captured + (long)c->rep.stored - (long)c->rep.given;
        c->order = (int)(gain * 64) + (c->rep.extra ? 256 : 0)
                 + x->s->history_score[me][holes[i]] / 8;
        if (c->rep.ending != PMN_END_NONE)
            c->order += 1 << 20;
        if (holes[i] == tt_best)
            c->order += 1 << 24;
    }
    /* Insertion of pointers, stable (as qsort is not): a dozen children at
     * most, and qsort's calls cost 5% of a search; a kid, a position and
     * its report, is too much to move. */
    for (int i = 0; i < n; i++) {
        struct kid *c = &out[i];
        int j = i;
        for (; j > 0 && ranked[j - 1]->order < c->order; j--)
            ranked[j] = ranked[j - 1];
        ranked[j] = c;
    }
    return n;
}

static int32_t search(struct search *x, const pmn_position *p, int depth, int ply,
                      int32_t alpha, int32_t beta, int *exact, int *path_bound);

/* The score, for the mover at `ply`, of the child c; *exact and *path_bound
 * as for search. */
static int32_t child_score(struct search *x, const pmn_position *p, struct kid *c,
                           int depth, int ply, int32_t alpha, int32_t beta, int *exact,
                           int *path_bound)
{
    int me = p->to_move;
    *exact = 1;
    *path_bound = 0;
    if (c->rep.ending != PMN_END_NONE)
        return end_score(x->r, c->rep.ending, c->rep.outcome, &c->pos, me, (unsigned)ply + 1);
    if (kid_repeats(&x->ln, ply, c)) {
        *path_bound = 1;
        return end_score(x->r, PMN_END_REPETITION, pmn_repetition_outcome(x->r, &c->pos),
                         &c->pos, me, (unsigned)ply + 1);
    }
    line_enter(&x->ln, ply, c);
    if (c->pos.to_move == me)
        return search(x, &c->pos, depth - 1, ply + 1, alpha, beta, exact, path_bound);
    return -search(x, &c->pos, depth - 1, ply + 1, -beta, -alpha, exact, path_bound);
}

static void update_pv(struct search *x, int ply, int hole)
{
    x->pv[ply][0] = hole;
    unsigned n = x->npv[ply + 1];
    if (n > MAX_PLY - (unsigned)ply - 1)
        n = MAX_PLY - (unsigned)ply - 1;
    memcpy(&x->pv[ply][1], x->pv[ply + 1], n * sizeof x->pv[0][0]);
    x->npv[ply] = n + 1;
}

/* Principal variation search of p (not ended), `depth` plies deep, in the
 * window (alpha, beta).  Fail-soft; *exact as the file's comment says;
 * *path_bound: the result saw a repetition, and holds on this path only. */
static int32_t search(struct search *x, const pmn_position *p, int depth, int ply,
                      int32_t alpha, int32_t beta, int *exact, int *path_bound)
{
    *exact = 1;
    *path_bound = 0;
    x->npv[ply] = 0;
    if (search_budget_spent(&x->b)) {
        *exact = 0;
        return 0;
    }
    int32_t lo, hi;
    if (ply > 0 && tb_score(x, p, ply, &lo))
        return lo;
    if (x->s->seed_bounds) {
        seed_bounds(x, p, ply, &lo, &hi);
    } else {
        /* Distance: nothing is better than a win at the next ply, nor
         * worse than a loss there. */
        hi = win_score(x->r->goal == PMN_GOAL_MOST_SEEDS ? MAX_MARGIN : 0, (unsigned)ply + 1);
        lo = -hi;
    }
    if (hi <= alpha)
        return hi;
    if (lo >= beta)
        return lo;
    uint64_t key = full_hash(p, x->ln.path[ply]);   /* p's key, set by its parent */
    struct entry *e = probe(x->s, key);
    int tt_best = -1;
    if (e) {
        int32_t v = from_table(e->score, ply);
        int bound = e->flags & BOUND_EXACT, proved = (e->flags & EXACT_VALUE) != 0;
        tt_best = e->best;
        /* Never at the root, which must name its best move and line: a
         * searcher that searched this position before (an engine asked
         * again, annotate meeting a position it solved) would answer
         * with a value and no move. */
        if (ply > 0 && (proved || e->depth >= depth)) {
            if (bound == BOUND_EXACT || (bound == BOUND_LOWER && v >= beta)
                || (bound == BOUND_UPPER && v <= alpha)) {
                *exact = proved;
                return v;
            }
        }
    }
    if (depth <= 0 || ply >= MAX_PLY) {
        *exact = 0;
        return estimate(x->r, p);
    }
    struct kid *kids[PMN_MAX_SIDE_PITS];
    int n = children(x, p, tt_best, x->children[ply], kids);
    int32_t best = -INF, a = alpha;
    int best_hole = -1, all_exact = 1, cut_exact = 0, dependent = 0;
    for (int i = 0; i < n; i++) {
        int ex, pb;
        int32_t v;
        if (i == 0) {
            v = child_score(x, p, kids[i], depth, ply, a, beta, &ex, &pb);
        } else {
            v = child_score(x, p, kids[i], depth, ply, a, a + 1, &ex, &pb);
            if (v > a && v < beta && !x->b.stopped)
                v = child_score(x, p, kids[i], depth, ply, a, beta, &ex, &pb);
        }
        if (x->b.stopped) {
            *exact = 0;
            return best > -INF ? best : 0;
        }
        dependent |= pb;
        all_exact &= ex;
        if (v > best) {
            best = v;
            best_hole = kids[i]->hole;
            if (v > a) {
                a = v;
                update_pv(x, ply, kids[i]->hole);
            }
        }
        if (v >= beta) {
            cut_exact = ex;
            x->s->history_score[p->to_move][kids[i]->hole] += depth * depth;
            break;
        }
    }
    *exact = best >= beta ? cut_exact : all_exact;
    *path_bound = dependent;
    if (!dependent) {
        int bound = best >= beta ? BOUND_LOWER : best > alpha ? BOUND_EXACT : BOUND_UPPER;
        store(x->s, key, to_table(best, ply), depth, bound, *exact, best_hole);
    }
    return best;
}

/* ---- the searcher ------------------------------------------------------ */

pmn_searcher *pmn_searcher_new(const pmn_rules *r, size_t hash_mb)
{
    pmn_searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->rules = *r;
    size_t bytes = (hash_mb ? hash_mb : 1) << 20, n = 1;
    while (2 * n * BUCKET * sizeof(struct entry) <= bytes)
        n *= 2;
    s->nbuckets = n;
    s->bytes = bytes;
    s->table = calloc(n * BUCKET, sizeof *s->table);
    if (!s->table) {
        free(s);
        return NULL;
    }
    s->seed_bounds = r->goal == PMN_GOAL_MOST_SEEDS && r->laps == PMN_LAPS_SINGLE
                  && (r->stores || r->repetition != PMN_REPETITION_DRAW);
    s->acyclic = rules_acyclic(r);
    return s;
}

void pmn_searcher_free(pmn_searcher *s)
{
    if (!s)
        return;
    free(s->table);
    free(s->children);
    solve_table_free(s->solver);
    free(s);
}

int searcher_tablebase_seeds(const pmn_searcher *s)
{
    return s->tb ? (int)pmn_tablebase_seeds(s->tb) : -1;
}

int pmn_searcher_use_tablebase(pmn_searcher *s, const pmn_tablebase *tb)
{
    if (tb && !tablebase_same_rules(tb, &s->rules))
        return -1;
    if (tb != s->tb && s->used)
        pmn_searcher_clear(s);   /* what was searched without them is worth less */
    s->tb = tb;
    if (s->solver)
        solve_table_use(s->solver, tb);
    return 0;
}

void pmn_searcher_clear(pmn_searcher *s)
{
    memset(s->table, 0, s->nbuckets * BUCKET * sizeof *s->table);
    memset(s->history_score, 0, sizeof s->history_score);
    s->used = 0;
    if (s->solver)
        solve_table_clear(s->solver);
}

/* ---- values ------------------------------------------------------------ */

void pmn_value_of_score(const pmn_rules *r, int32_t score, int exact, pmn_value *v)
{
    memset(v, 0, sizeof *v);
    v->score = score;
    v->exact = exact;
    v->has_margin = r->goal == PMN_GOAL_MOST_SEEDS;
    if (score >= DECIDED) {
        int32_t rem = score - WIN;
        v->outcome = 1;
        v->margin = (int)(rem >> 12);
        v->plies = (unsigned)(PLY_SPAN - (rem & (MARGIN_UNIT - 1)));
    } else if (score <= -DECIDED) {
        int32_t rem = score + WIN + PLY_SPAN;
        v->outcome = -1;
        v->margin = (int)(rem >> 12);
        v->plies = (unsigned)(rem & (MARGIN_UNIT - 1));
    } else {
        v->margin = (int)(score / MARGIN_UNIT);
        v->outcome = !exact ? (score > 0) - (score < 0) : 0;
    }
    if ((score >= DECIDED || score <= -DECIDED) && v->plies >= TB_PLIES) {
        /* Decided by the databases, which do not count the plies (nor,
         * giving the result alone, the margin). */
        if (v->plies >= TB_RESULT_PLIES)
            v->has_margin = 0;
        v->plies = 0;
        v->tablebase = 1;
    }
}

void pmn_value_of_move(const pmn_rules *r, const pmn_value *after, int same_side, pmn_value *v)
{
    int32_t s = same_side ? after->score : -after->score;
    /* A win or loss one ply further away (the plies are the score's low bits). */
    if (s >= DECIDED)
        s--;
    else if (s <= -DECIDED)
        s++;
    if (!after->solved) {
        pmn_value_of_score(r, s, after->exact, v);
        return;
    }
    /* The margin solver's: margins and bounds, no plies. */
    *v = *after;
    v->score = s;
    if (!same_side) {
        v->outcome = -after->outcome;
        v->margin = -after->margin;
        v->lower = -after->upper;
        v->upper = -after->lower;
    }
}

size_t pmn_value_describe(const pmn_value *v, int side, char *buf, size_t size)
{
    textbuf t;
    const char *who = pmn_side_name(side);
    textbuf_init(&t, buf, size);
    if (v->solved && !v->exact && v->tablebase) {
        textbuf_add(&t, "%+d seeds for %s by the endgame database (not proved here: a "
                    "repetition of this position could change it)", v->margin, who);
        return t.n;
    }
    if (v->solved && !v->exact) {
        /* The margin solver stopped: what it proved. */
        textbuf_add(&t, "between %+d and %+d seeds for %s (not solved: stopped by a limit)",
                    v->lower, v->upper, who);
        return t.n;
    }
    if (v->exact && v->outcome != 0) {
        if (v->plies || v->solved || v->tablebase)
            textbuf_add(&t, "%s %s", who, v->outcome > 0 ? "wins" : "loses");
        else   /* the game is over */
            textbuf_add(&t, "%s has %s", who, v->outcome > 0 ? "won" : "lost");
        if (v->has_margin && v->margin)
            textbuf_add(&t, " by %d seed%s", abs(v->margin), abs(v->margin) == 1 ? "" : "s");
        if (v->plies)
            textbuf_add(&t, " in %u pl%s", v->plies, v->plies == 1 ? "y" : "ies");
    } else if (v->exact) {
        textbuf_add(&t, "a draw");
        if (v->has_margin && v->margin)
            textbuf_add(&t, " (seeds %+d for %s, the last drawn by lot)", v->margin, who);
    } else if (v->score >= DECIDED || v->score <= -DECIDED) {
        /* A bound: the end is proved, but not that it is the best play. */
        textbuf_add(&t, "%s %s", who, v->score > 0 ? "wins" : "loses");
        if (v->plies)
            textbuf_add(&t, " (found in %u %s; not proved the best line)", v->plies,
                        v->plies == 1 ? "ply" : "plies");
        else
            textbuf_add(&t, " (not proved the best line)");
    } else {
        textbuf_add(&t, "about %+d seed%s for %s%s (heuristic)", v->margin,
                    abs(v->margin) == 1 ? "" : "s", who,
                    v->has_margin ? "" : " on the board");
    }
    if (v->tablebase)
        textbuf_add(&t, " (endgame database)");
    return t.n;
}

size_t pmn_value_eval(const pmn_value *v, int side, char *buf, size_t size)
{
    /* South's view: the value is its side's. */
    int sign = side == PMN_SOUTH ? 1 : -1;
    int margin = sign * v->margin, outcome = sign * v->outcome;
    int decided = v->exact || v->plies;   /* a win or loss seen to the end */
    const char *result = outcome > 0 ? "won" : "lost";
    /* The margin where it is proved; the result and the plies to the end
     * beside it where they are known. */
    if (decided && v->has_margin && (v->exact || !v->plies)) {
        if (outcome && v->plies)
            return (size_t)snprintf(buf, size, "=%+d (%s, %u %s)", margin, result, v->plies,
                                    v->plies == 1 ? "ply" : "plies");
        return (size_t)snprintf(buf, size, margin ? "=%+d" : "=0", margin);
    }
    /* A result without a proved margin: a game that does not count seeds,
     * or a win found and not proved the best. */
    if (decided && outcome)
        return (size_t)snprintf(buf, size, v->plies ? "%s (%u %s)" : "%s", result, v->plies,
                                v->plies == 1 ? "ply" : "plies");
    if (v->exact)
        return (size_t)snprintf(buf, size, "=0");
    return (size_t)snprintf(buf, size, margin ? "%+d" : "0", margin);
}

/* ---- the root ----------------------------------------------------------- */

static int all_exact(const pmn_analysis *a)
{
    for (int i = 0; i < a->nmoves; i++)
        if (!a->moves[i].value.exact)
            return 0;
    return 1;
}

/* The principal variation: the search's own, then the table's best moves
 * as far as they go, every move checked legal; then, where it reaches a
 * position the databases answered for (whose value is the game's), their
 * line of best play. */
static void complete_pv(struct search *x, const pmn_position *root, pmn_analysis *a)
{
    pmn_position q = *root;
    pmn_move_report rep = { 0 };
    uint64_t key = engine_key(x->r, root);   /* q's */
    a->npv = 0;
    for (unsigned i = 0; i < PMN_MAX_PV; i++) {
        int hole = -1;
        if (i < x->npv[0]) {
            hole = x->pv[0][i];
        } else {
            struct entry *e = probe(x->s, full_hash(&q, key));
            hole = e ? e->best : -1;
        }
        pmn_move_report played;
        if (hole < 0 || engine_play(&x->eng, &q, hole, &played, &key) != 0)
            break;
        rep = played;
        a->pv[a->npv++] = hole;
        if (rep.ending != PMN_END_NONE)
            return;
    }
    /* (Under own seeds a line from the databases is a search with the path
     * a ply, at each iteration: it doubled annotate's time on Oware with
     * databases to 10 seeds, and changed no line it wrote.) */
    if (a->npv > 0 && a->npv < PMN_MAX_PV && x->tb && !tablebase_own_seeds(x->tb)
        && (x->s->acyclic || pmn_irreversible(&rep)))
        a->npv += tablebase_line(x->tb, x->r, &q, a->pv + a->npv, PMN_MAX_PV - a->npv, NULL);
}

static int by_value(const void *a, const void *b)
{
    const pmn_move_value *x = a, *y = b;
    return (y->value.score > x->value.score) - (y->value.score < x->value.score);
}

/* One iteration at the root, `depth` plies: every move with a full window
 * (all_moves), or a principal variation search.  Returns 0 if the budget
 * ended it first. */
static int iterate(struct search *x, const pmn_position *root, int depth, int all_moves,
                   pmn_analysis *a)
{
    int32_t best = -INF;
    int exact = 1, best_hole = -1;
    x->ln.path[0] = engine_key(x->r, root);
    x->ln.since[0] = 0;
    if (!all_moves) {
        int pb;
        best = search(x, root, depth, 0, -INF, INF, &exact, &pb);
        if (x->b.stopped)
            return 0;
        best_hole = x->npv[0] ? x->pv[0][0] : -1;
    } else {
        struct kid *kids[PMN_MAX_SIDE_PITS];
        int n = children(x, root, -1, x->children[0], kids);
        for (int i = 0; i < n; i++) {
            int ex, pb;
            int32_t v = child_score(x, root, kids[i], depth, 0, -INF, INF, &ex, &pb);
            if (x->b.stopped)
                return 0;
            a->moves[i].hole = kids[i]->hole;
            pmn_value_of_score(x->r, v, ex, &a->moves[i].value);
            if (v > best) {
                best = v;
                best_hole = kids[i]->hole;
                x->pv[0][0] = kids[i]->hole;
                x->npv[0] = 1;
            }
            exact &= ex;
        }
        a->nmoves = n;
        qsort(a->moves, (size_t)n, sizeof a->moves[0], by_value);
        /* The position's value is its best move's, proved when that move's
         * is and every other move's is proved no better. */
        exact = n > 0 && all_exact(a);
    }
    pmn_value_of_score(x->r, best, exact, &a->value);
    a->best = best_hole;
    a->depth = (unsigned)depth;
    complete_pv(x, root, a);
    return 1;
}

/* Solving deepens three plies at a time: the earlier iterations only order
 * the moves of the last (measured on Kalah(4,4) and (5,3): 2-10 times fewer
 * nodes than one at a time). */
static unsigned next_depth(unsigned d, const pmn_search_limits *l, unsigned max_depth)
{
    unsigned step = l->solve ? 3 : 1;
    if (d < max_depth && d + step > max_depth)
        return max_depth;
    return d + step;
}

/* The side to move at p must pass (rule no-move=pass): the value is the
 * other side's, turned round, and no move is best. */
static int analyse_pass(pmn_searcher *s, const pmn_position *p, const pmn_position *history,
                        size_t nhistory, const pmn_search_limits *l, pmn_progress_fn fn,
                        void *ctx, pmn_analysis *a)
{
    pmn_position q = *p;
    q.to_move = (uint8_t)!p->to_move;
    int rc = pmn_analyse(s, &q, history, nhistory, l, NULL, NULL, a);
    if (rc == 0) {
        pmn_value_of_score(&s->rules, -a->value.score, a->value.exact, &a->value);
        a->best = -1;
        a->npv = 0;
        a->nmoves = 0;
        a->passes = 1;
        if (fn)
            fn(ctx, a);
    }
    return rc;
}

/* Iterative deepening of p (not ended, a move to play) into a: each
 * complete iteration told to fn, the last complete one kept; the first
 * always completes, whatever the limits, so that there is a move to
 * give. */
static void deepen(struct search *x, const pmn_position *p, const pmn_search_limits *l,
                   pmn_progress_fn fn, void *ctx, double start, pmn_analysis *a)
{
    unsigned max_depth = l->depth && !l->solve ? l->depth : MAX_PLY;
    pmn_analysis done = *a;
    for (unsigned d = 1; d <= max_depth; d = next_depth(d, l, max_depth)) {
        pmn_analysis next = done;
        uint64_t saved_nodes = x->b.max_nodes;
        double saved_deadline = x->b.deadline;
        int (*saved_stop)(void *) = x->b.stop;
        if (d == 1)
            x->b.max_nodes = 0, x->b.deadline = 0, x->b.stop = NULL;
        int complete = iterate(x, p, (int)d, l->all_moves, &next);
        x->b.max_nodes = saved_nodes;
        x->b.deadline = saved_deadline;
        x->b.stop = saved_stop;
        if (!complete) {
            done.stopped = 1;
            break;
        }
        done = next;
        done.nodes = x->b.nodes;
        done.seconds = util_now() - start;
        if (fn)
            fn(ctx, &done);
        if (done.value.exact)
            break;
        if (!l->solve && !l->depth && !l->nodes && l->seconds <= 0 && !l->stop)
            break;
    }
    *a = done;
}

int pmn_analyse(pmn_searcher *s, const pmn_position *p, const pmn_position *history,
                size_t nhistory, const pmn_search_limits *l, pmn_progress_fn fn, void *ctx,
                pmn_analysis *a)
{
    struct search *x = calloc(1, sizeof *x);
    uint64_t *before = nhistory ? malloc(nhistory * sizeof *before) : NULL;
    double start = util_now();
    memset(a, 0, sizeof *a);
    a->best = -1;
    if (!s->children)
        s->children = tree_kids_new();
    if (x)
        x->children = s->children;
    if (!x || !x->children || (nhistory && !before)) {
        free(x);
        free(before);
        return PMN_ERR_NOMEM;
    }
    x->s = s;
    x->r = &s->rules;
    x->b.max_nodes = l->nodes;
    x->b.deadline = l->seconds > 0 ? start + l->seconds : 0;
    x->b.stop = l->stop;
    x->b.stop_ctx = l->stop_ctx;
    engine_init(&x->eng, x->r, p);
    for (size_t i = 0; i < nhistory; i++)
        before[i] = engine_key(x->r, &history[i]);
    x->ln.before = before;
    x->ln.nbefore = nhistory;
    /* (Databases that give results and not margins, under a majority,
     * score a position they hold as a win or loss by no margin known.) */
    x->tb = l->distance ? NULL : s->tb;
    x->result_only = x->tb && tablebase_outcome_only(x->tb, x->r);
    x->b.damaged = x->tb ? tablebase_damaged_flag(x->tb) : NULL;
    s->generation++;
    s->used = 1;

    pmn_outcome outcome;
    int holes[PMN_MAX_SIDE_PITS];
    a->ending = pmn_position_ending(x->r, p, &outcome);
    if (a->ending == PMN_END_NONE && engine_moves(&x->eng, p, holes) == 0) {
        free(x);
        free(before);
        return analyse_pass(s, p, history, nhistory, l, fn, ctx, a);
    }
    int tbv;
    int held = a->ending == PMN_END_NONE && s->tb && !l->distance
            && (s->acyclic || nhistory == 0) && tablebase_probe(s->tb, x->r, p, &tbv);
    if (a->ending == PMN_END_NONE && (l->solve || held) && !l->distance
        && solve_applies(x->r)) {
        /* The margin solver's (which answers at once from the databases
         * that hold p): made with the searcher's size at its first use. */
        free(x);
        free(before);
        if (!s->solver) {
            if (!(s->solver = solve_table_new(s->bytes)))
                return PMN_ERR_NOMEM;
            solve_table_use(s->solver, s->tb);
        }
        return solve_position(s->solver, &s->rules, p, history, nhistory, l, fn, ctx, a);
    }
    if (a->ending != PMN_END_NONE) {
        /* Nothing to play: the value is the game's end, seen by the side
         * that would move. */
        int32_t v = -end_score(x->r, a->ending, outcome, p, !p->to_move, 0);
        pmn_value_of_score(x->r, v, 1, &a->value);
    } else {
        deepen(x, p, l, fn, ctx, start, a);
    }
    a->nodes = x->b.nodes;
    a->seconds = util_now() - start;
    free(x);
    free(before);
    return 0;
}
