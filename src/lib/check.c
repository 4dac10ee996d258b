/* check.c - replay a record against the rules engine and say what is wrong. */
#include "pmn.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct checker {
    const pmn_rules *rules;
    pmn_diag_fn fn;
    void *ctx;
    int errors;
    int start_side;
    pmn_visit_fn visit;
    void *vctx;
    int said_unjoined;        /* W218 once a game */
    int writes_claims;        /* the record writes captures: W206 for those it omits */
};

static void say(struct checker *c, int code, unsigned line, unsigned col,
                const char *fmt, ...) PMN_PRINTF(5, 6);

static void say(struct checker *c, int code, unsigned line, unsigned col,
                const char *fmt, ...)
{
    const pmn_diag_info *d = pmn_diag_lookup(code);
    char msg[sizeof ((pmn_diag *)0)->message];
    va_list ap;
    if (d && d->severity >= PMN_ERROR)
        c->errors++;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pmn_report(c->fn, c->ctx, code, line, col, "%s", msg);
}

/* A diagnostic about move m, of the turn-th turn: its message opens with
 * the move in words, "South's move 5 (j): ", formatted only when there is
 * something to say. */
static void say_move(struct checker *c, int code, unsigned line, unsigned col,
                     const pmn_move *m, unsigned ply, int side, const char *fmt, ...)
    PMN_PRINTF(8, 9);

static void say_move(struct checker *c, int code, unsigned line, unsigned col,
                     const pmn_move *m, unsigned turn, int side, const char *fmt, ...)
{
    char msg[sizeof ((pmn_diag *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    say(c, code, line, col, "%s's move %u (%s): %s", pmn_side_name(side),
        (turn + (unsigned)c->start_side) / 2 + 1, m->text, msg);
}

static int legality_code(int rc)
{
    switch (rc) {
    case PMN_ILLEGAL_EMPTY: return 201;
    case PMN_ILLEGAL_SINGLETON: return 202;
    case PMN_ILLEGAL_SINGLETON_OCCUPIED: return 203;
    case PMN_ILLEGAL_NOT_FEEDING: return 214;
    case PMN_ILLEGAL_GRAND_SLAM: return 216;
    default: return 110;
    }
}

static void check_number(struct checker *c, const pmn_move *m, unsigned turn, int side)
{
    unsigned expected = (turn + (unsigned)c->start_side) / 2 + 1;
    if (!m->number)
        return;
    if (m->number != expected || (m->number_dots == 3) != (side == PMN_NORTH))
        say_move(c, 111, m->line, m->col, m, turn, side,
                 "move number %u%s where %u%s was expected", m->number,
                 m->number_dots == 3 ? "..." : ".", expected, side == PMN_NORTH ? "..." : ".");
}

/* A move joined by '-' must continue a turn that earned another sowing;
 * one that is not joined ought not to.  Returns 0 if the line may go on. */
static int check_turn(struct checker *c, const pmn_move *m, unsigned turn, int side,
                      int earned)
{
    if (m->joined && !earned) {
        say_move(c, 217, m->line, m->col, m, turn, m->side,
                 "a sowing joined by '-', but the sowing before it earned no other: "
                 "the turn has passed to %s", pmn_side_name(side));
        return -1;
    }
    return 0;
}

static void check_unjoined(struct checker *c, const pmn_move *m, unsigned turn, int side,
                           int earned)
{
    if (!m->joined && earned && !c->said_unjoined) {
        c->said_unjoined = 1;
        say_move(c, 218, m->line, m->col, m, turn, side,
                 "another sowing of the same turn, written as a move of its own "
                 "(join the sowings of a turn with '-'; first here)");
    }
}

/* Play one move of a line on g; returns 0 if the line may go on.  `earned`:
 * the sowing before it earned another for the same player. */
static int check_move(struct checker *c, pmn_game *g, const pmn_move *m, unsigned turn,
                      int earned, pmn_move_report *rep)
{
    const pmn_position *p = pmn_game_position(g);
    int side = p->to_move;
    /* A number names a hole of the player to move, whoever that is after
     * an extra sowing or a pass. */
    int named_side = m->notation == PMN_NOTATION_NUMBERS ? side : m->side;

    if (pmn_game_ending(g) != PMN_END_NONE) {
        say_move(c, 207, m->line, m->col, m, turn, side, "the game has already ended%s",
                 pmn_game_ending(g) == PMN_END_ENDLESS ? " with an endless move" : "");
        return -1;
    }
    if (!m->joined)
        check_number(c, m, turn, side);
    if (m->hole < 0 || (unsigned)m->hole >= c->rules->pits) {
        if (m->notation == PMN_NOTATION_NUMBERS)
            say_move(c, 110, m->line, m->col, m, turn, side, "'%s' names no hole of %s (1-%u)",
                     m->text, c->rules->name, c->rules->pits);
        else if (m->notation == PMN_NOTATION_COORDINATES)
            say_move(c, 110, m->line, m->col, m, turn, side, "'%s' names no hole of %s (a1-%c%u)",
                     m->text, c->rules->name, 'a' + c->rules->holes_per_row - 1,
                     2 * c->rules->rows);
        else
            say_move(c, 110, m->line, m->col, m, turn, side, "'%s' names no hole of %s (a-%c, A-%c)",
                     m->text, c->rules->name, 'a' + c->rules->pits - 1, 'A' + c->rules->pits - 1);
        return -1;
    }
    if (check_turn(c, m, turn, side, earned) < 0)
        return -1;
    if (named_side != side) {
        say_move(c, 204, m->line, m->col, m, turn, side, "it is %s's turn, but %s is a hole of %s",
                 pmn_side_name(side), m->text, pmn_side_name(m->side));
        return -1;
    }
    check_unjoined(c, m, turn, side, earned);
    int rc = pmn_game_play(g, m->hole, rep);
    if (rc > 0) {
        if (rc == PMN_ILLEGAL_NOT_FEEDING || rc == PMN_ILLEGAL_GRAND_SLAM)
            say_move(c, legality_code(rc), m->line, m->col, m, turn, side, "illegal: %s",
                     pmn_legality_string((pmn_legality)rc));
        else
            say_move(c, legality_code(rc), m->line, m->col, m, turn, side,
                     "illegal: %s (hole %s holds %u)", pmn_legality_string((pmn_legality)rc),
                     m->text, p->pit[side][m->hole]);
        return -1;
    }
    if (m->claim >= 0 && (unsigned)m->claim != rep->captured) {
        say_move(c, 205, m->claim_line, m->claim_col, m, turn, side,
                 "the record says %d seed%s captured, the move captures %u", m->claim,
                 m->claim == 1 ? "" : "s", rep->captured);
    } else if (m->claim < 0 && rep->captured && c->writes_claims) {
        say_move(c, 206, m->line, m->col, m, turn, side,
                 "it captures %u seed%s, which the record does not write", rep->captured,
                 rep->captured == 1 ? "" : "s");
    }
    if (rep->ending == PMN_END_ENDLESS) {
        say_move(c, 211, m->line, m->col, m, turn, side,
                 "endless move: the sowing state of lap %llu repeats that of lap %llu, "
                 "and turned, lap %llu repeats lap %llu; %s (%s)",
                 (unsigned long long)rep->loop_lap, (unsigned long long)rep->loop_from,
                 (unsigned long long)rep->rotated_lap, (unsigned long long)rep->rotated_from,
                 rep->outcome == PMN_DRAWN ? "the game is drawn"
                 : rep->outcome == PMN_SOUTH_WINS ? "South wins" : "North wins",
                 pmn_outcome_string(rep->outcome));
    } else if (rep->ending == PMN_END_REPETITION) {
        char how[128], when[32] = "at the start";
        pmn_ending_explain(c->rules, rep->ending, pmn_game_position(g), how, sizeof how);
        const char *seeds = strchr(how, ';');   /* "; seeds 25-20" in games won by seeds */
        if (rep->repeats_ply)
            snprintf(when, sizeof when, "after ply %u", rep->repeats_ply);
        say_move(c, 212, m->line, m->col, m, turn, side,
                 "the position after it repeats the one %s: %s%s (%s)", when,
                 rep->outcome == PMN_DRAWN ? "the game is drawn"
                 : rep->outcome == PMN_SOUTH_WINS ? "South wins" : "North wins",
                 seeds ? seeds : "", pmn_outcome_string(rep->outcome));
    }
    return 0;
}

/* Where a line begins: its ply (sowings before it), its turn, and whether
 * the sowing before it earned another. */
struct at {
    unsigned ply, turn;
    int earned;
    int passed;               /* the opponent passed after it: a turn */
};

static int check_line(struct checker *c, pmn_game *g, const pmn_line *line, struct at at,
                      int depth, pmn_check_result *res);

/* Each variation replaces move m: replay it from the position before m,
 * `before`, which this takes (the last variation plays on it itself). */
static void check_variations(struct checker *c, pmn_game *before, const pmn_move *m,
                             struct at at, int depth)
{
    for (size_t v = 0; v < m->nvariations; v++) {
        pmn_game *branch = v + 1 < m->nvariations ? pmn_game_clone(before) : before;
        if (!branch) {
            pmn_report(c->fn, c->ctx, 2, m->line, m->col, "out of memory");
            c->errors++;
            break;
        }
        check_line(c, branch, &m->variations[v], at, depth + 1, NULL);
        if (branch != before)
            pmn_game_free(branch);
    }
    pmn_game_free(before);
}

static int check_line(struct checker *c, pmn_game *g, const pmn_line *line, struct at at,
                      int depth, pmn_check_result *res)
{
    int main_line = depth == 0;
    for (size_t i = 0; i < line->nmoves; i++) {
        const pmn_move *m = &line->moves[i];
        pmn_move_report rep;
        if (i > 0 && !m->joined)
            at.turn += 1 + (unsigned)at.passed;
        /* The position before m, for its variations (a failed copy is
         * reported by check_variations). */
        pmn_game *before = m->nvariations ? pmn_game_clone(g) : NULL;
        int rc = check_move(c, g, m, at.turn, at.earned, &rep);
        if (rc == 0 && main_line) {
            res->plies++;
            res->last = rep;
        }
        if (rc == 0 && c->visit)
            c->visit(c->vctx, m, at.ply, depth, &rep, pmn_game_position(g));
        if (m->nvariations)
            check_variations(c, before, m, at, depth);
        if (rc < 0) {
            if (main_line)
                res->unchecked = (unsigned)(line->nmoves - i - 1);
            return -1;
        }
        at.ply++;
        at.earned = rep.extra;
        at.passed = rep.passed;
    }
    return 0;
}

static void check_result(struct checker *c, const pmn_record *rec, const pmn_game *g,
                         const pmn_check_result *res)
{
    const pmn_tag *tag = pmn_record_find_tag(rec, "Result");
    const char *claimed = NULL;
    unsigned line = rec->result_line, col = rec->result_col;

    if (tag && pmn_outcome_parse(tag->value, NULL) < 0) {
        say(c, 208, tag->line, tag->col,
            "the Result tag '%s' is not a result (1-0, 0-1, 1/2-1/2 or *)", tag->value);
        return;
    }
    if (tag && rec->result[0] && strcmp(tag->value, rec->result) != 0)
        say(c, 209, rec->result_line, rec->result_col,
            "the moves end with the result %s, but the Result tag says %s", rec->result,
            tag->value);
    if (tag) {
        claimed = tag->value;
        line = tag->line;
        col = tag->col;
    } else if (rec->result[0]) {
        claimed = rec->result;
    }
    if (res->unchecked || (rec->main.nmoves && !res->plies))
        return;   /* the replay stopped at an error: the end is not known */
    pmn_ending e = pmn_game_ending(g);
    const char *proved = pmn_outcome_string(pmn_game_outcome(g));
    if (e != PMN_END_NONE && pmn_game_outcome(g) == PMN_ONGOING) {
        /* Ended, but a lot outside the record decides. */
        if (claimed && strcmp(claimed, "*") != 0)
            say(c, 213, line, col, "the last seeds are drawn by lot: the result %s is taken "
                "as given", claimed);
        return;
    }
    if (e != PMN_END_NONE) {
        char how[128];
        pmn_ending_explain(c->rules, e, pmn_game_position(g), how, sizeof how);
        if (!claimed || strcmp(claimed, "*") == 0)
            say(c, 210, line ? line : rec->line, line ? col : rec->col,
                "the game ended (%s: %s), but no result is given", proved, how);
        else if (strcmp(claimed, proved) != 0)
            say(c, 208, line, col, "the result says %s, but the game ended %s: %s", claimed,
                proved, how);
    } else if (claimed && strcmp(claimed, "*") != 0) {
        say(c, 213, line, col,
            "the record stops before the game ends: the result %s is taken as given", claimed);
    }
}

/* Does a line (or a variation in it) write a capture count?  A record that
 * writes none, as a bare list of plies, is not told of each capture. */
static int line_claims(const pmn_line *l)
{
    for (size_t i = 0; i < l->nmoves; i++) {
        if (l->moves[i].claim >= 0)
            return 1;
        for (size_t v = 0; v < l->moves[i].nvariations; v++)
            if (line_claims(&l->moves[i].variations[v]))
                return 1;
    }
    return 0;
}

int pmn_check_record(const pmn_record *rec, const pmn_rules *rules, pmn_diag_fn fn,
                     void *ctx, pmn_check_result *res)
{
    return pmn_check_record_visit(rec, rules, fn, ctx, NULL, NULL, res);
}

int pmn_check_record_visit(const pmn_record *rec, const pmn_rules *rules,
                           pmn_diag_fn fn, void *ctx, pmn_visit_fn visit,
                           void *vctx, pmn_check_result *res)
{
    struct checker c = { rules, fn, ctx, 0, PMN_SOUTH, visit, vctx, 0, line_claims(&rec->main) };
    pmn_position start;
    memset(res, 0, sizeof *res);
    int known = pmn_record_start(rec, rules, &start, fn, ctx);
    res->start = start;
    res->start_status = known;
    if (known != 0) {
        res->unchecked = (unsigned)rec->main.nmoves;
        return known < 0 ? 1 : 0;
    }
    c.start_side = start.to_move;
    pmn_game *g = pmn_game_new(rules, &start);
    if (!g) {
        pmn_report(fn, ctx, 2, rec->line, rec->col, "out of memory");
        return 1;
    }
    if (rec->main.nmoves == 0)
        pmn_report(fn, ctx, 112, rec->line, rec->col, "a game without moves");
    struct at at = { 0, 0, 0, 0 };
    check_line(&c, g, &rec->main, at, 0, res);
    check_result(&c, rec, g, res);
    res->ending = pmn_game_ending(g);
    res->outcome = pmn_game_outcome(g);
    res->end = *pmn_game_position(g);
    memcpy(res->captured, res->end.captured, sizeof res->captured);
    pmn_game_free(g);
    return c.errors;
}

/* The visitor of pmn_record_resolve_sides: the record is the caller's to
 * change, so the const of the visit may go. */
static void take_side(void *ctx, const pmn_move *m, unsigned ply, int depth,
                      const pmn_move_report *rep, const pmn_position *after)
{
    (void)ctx;
    (void)ply;
    (void)depth;
    (void)after;
    if (m->notation == PMN_NOTATION_NUMBERS)
        ((pmn_move *)m)->side = rep->side;
}

void pmn_record_resolve_sides(pmn_record *rec, const pmn_rules *rules)
{
    pmn_check_result res;
    pmn_check_record_visit(rec, rules, NULL, NULL, take_side, NULL, &res);
}
