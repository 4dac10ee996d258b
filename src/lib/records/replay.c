/* replay.c - a record replayed against the rules engine once, what is wrong
 * with it said, and what the engine found kept beside each move.  Turns and
 * move numbers are counted here and nowhere else. */
#define _GNU_SOURCE   /* strcasestr */
#include "pmn.h"
#include "record.h"
#include "../base/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pmn_replay {
    pmn_setup setup;
    pmn_played_line main;
    pmn_check_result res;
};

struct replayer {
    const pmn_rules *rules;
    pmn_diag_fn fn;
    void *ctx;
    int errors;
    int start_side;
    int nomem;
    int said_unjoined;        /* W218 once a game */
    int writes_claims;        /* the record writes captures: W206 for those it omits */
    int said_totals;          /* the hint at --running-totals, once a game */
};

/* Where a line stands after the move before it. */
struct at {
    int live;                 /* the engine follows the line: g holds its position */
    int started;              /* a move came before */
    unsigned ply, turn;       /* of the next ply, of the move before */
    int side;                 /* who made the move before */
    int earned;               /* its last ply earned another */
    int passed;               /* after it, the opponent passed */
};

static void say(struct replayer *c, pmn_diag_code code, pmn_at line, pmn_at col,
                const char *fmt, ...) PMN_PRINTF(5, 6);

static void say(struct replayer *c, pmn_diag_code code, pmn_at line, pmn_at col,
                const char *fmt, ...)
{
    const pmn_diag_info *d = pmn_diag_lookup((int)code);
    char msg[sizeof ((pmn_diag *)0)->message];
    va_list ap;
    if (d && d->severity >= PMN_ERROR)
        c->errors++;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_report(c->fn, c->ctx, code, line, col, "%s", msg);
}

/* A diagnostic about move m: its message opens with the move in words,
 * "South's move 5 (j): ", formatted only when there is something to say. */
static void say_move(struct replayer *c, pmn_diag_code code, pmn_at line, pmn_at col,
                     const pmn_move *m, const pmn_played *pl, const char *fmt, ...)
    PMN_PRINTF(7, 8);

static void say_move(struct replayer *c, pmn_diag_code code, pmn_at line, pmn_at col,
                     const pmn_move *m, const pmn_played *pl, const char *fmt, ...)
{
    char msg[sizeof ((pmn_diag *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    say(c, code, line, col, "%s's move %u (%s): %s", pmn_side_name(pl->mover), pl->number,
        m->text, msg);
}

static void out_of_memory(struct replayer *c, pmn_at line, pmn_at col)
{
    if (!c->nomem)
        diag_report(c->fn, c->ctx, PMN_F002, line, col, "out of memory");
    c->nomem = 1;
    c->errors++;
}

static pmn_diag_code legality_code(int rc)
{
    switch (rc) {
    case PMN_ILLEGAL_EMPTY: return PMN_E201;
    case PMN_ILLEGAL_SINGLETON: return PMN_E202;
    case PMN_ILLEGAL_SINGLETON_OCCUPIED: return PMN_E203;
    case PMN_ILLEGAL_NOT_FEEDING: return PMN_E214;
    case PMN_ILLEGAL_GRAND_SLAM: return PMN_E216;
    default: return PMN_E110;
    }
}

/* Number the move m, at `at`: whose it is, its turn, and whether it goes
 * on with the move before.  `mover` is the side to move where the engine
 * follows the line, else -1. */
static void number_move(struct replayer *c, const pmn_move *m, const struct at *at, int mover,
                        pmn_played *pl)
{
    pl->ply = at->ply;
    pl->continues = at->started && (m->joined || (at->live && at->earned));
    if (pl->continues)        /* the move it goes on with, earned or not */
        pl->mover = at->side;
    else if (mover >= 0)
        pl->mover = mover;
    else if (m->side >= 0)
        pl->mover = m->side;
    else
        pl->mover = at->started ? !at->side : at->side;
    pl->side = m->notation == PMN_NOTATION_NUMBERS || m->side < 0 ? pl->mover : m->side;
    if (!at->started)
        pl->turn = 0;
    else if (pl->continues)
        pl->turn = at->turn;
    else if (at->live)
        pl->turn = at->turn + 1 + (unsigned)at->passed;
    else   /* two moves running of one side: the other passed between them */
        pl->turn = at->turn + (pl->mover == at->side ? 2 : 1);
    pl->number = pmn_move_number(c->start_side, pl->turn);
}

static void check_number(struct replayer *c, const pmn_move *m, const pmn_played *pl)
{
    if (!m->number || pl->continues)
        return;
    if (m->number != pl->number || record_number_side(m) != pl->mover)
        say_move(c, PMN_W111, m->line, m->col, m, pl,
                 "move number %u%s where %u%s was expected", m->number,
                 m->number_dots == 3 ? "..." : ".", pl->number,
                 pl->mover == PMN_NORTH ? "..." : ".");
}

/* Does the move's letter give South upper case, as OGN's and the Awari
 * notation's do (the other case from PMN's)? */
static int upper_south(const pmn_move *m)
{
    unsigned char t = (unsigned char)m->text[0];
    return m->notation == PMN_NOTATION_LETTERS && isalpha(t) && m->side >= 0
        && (isupper(t) != 0) == (m->side == PMN_SOUTH);
}

/* A hole named as the move names holes. */
static void hole_name(const struct replayer *c, const pmn_move *m, int side, int hole,
                      char *buf, size_t size)
{
    pmn_hole_name(c->rules, m->notation, side, hole, buf, size);
    if (upper_south(m) && isalpha((unsigned char)buf[0]))
        buf[0] = (char)(buf[0] ^ 0x20);
}

/* What to say after an illegal move or a wrong capture: the legal moves
 * in p, and which of them (other than the one played) captures what the
 * record claims.  Empty if there is nothing to add. */
static void hint_moves(const struct replayer *c, const pmn_position *p, const pmn_move *m,
                       int side, int illegal, char *buf, size_t size)
{
    int legal[PMN_MAX_SIDE_PITS], n = pmn_legal_moves(c->rules, p, legal);
    char list[200] = "", capturing[100] = "";
    size_t nl = 0, nc = 0;
    for (int i = 0; i < n; i++) {
        char name[16];
        hole_name(c, m, side, legal[i], name, sizeof name);
        if (nl < sizeof list)
            nl += (size_t)snprintf(list + nl, sizeof list - nl, "%s%s", i ? " " : "", name);
        pmn_position after = *p;
        pmn_move_report rep;
        /* Not the move played itself; but a hole of the other side's letter
         * (a slip of case) is another move. */
        int played = legal[i] == m->hole && m->side == side;
        if (m->claim >= 0 && !played && pmn_play(c->rules, &after, legal[i], &rep) == 0
            && rep.captured == (unsigned)m->claim && nc < sizeof capturing)
            nc += (size_t)snprintf(capturing + nc, sizeof capturing - nc, "%s%s",
                                   nc ? " or " : "", name);
    }
    if (!illegal && !capturing[0]) {
        buf[0] = '\0';
        return;
    }
    textbuf t;
    textbuf_init(&t, buf, size);
    if (illegal)
        textbuf_add(&t, "; the legal moves are %s", n ? list : "none");
    if (capturing[0])
        textbuf_add(&t, "; %s would capture %d, as the record says", capturing, m->claim);
}

static void say_hole_range(struct replayer *c, const pmn_move *m, const pmn_played *pl,
                           const pmn_position *p, int side)
{
    const pmn_rules *r = c->rules;
    char hint[300];
    hint_moves(c, p, m, side, 1, hint, sizeof hint);
    if (m->notation == PMN_NOTATION_NUMBERS)
        say_move(c, PMN_E110, m->line, m->col, m, pl, "'%s' names no hole of %s (1-%u)%s",
                 m->text, r->name, r->pits, hint);
    else if (m->notation == PMN_NOTATION_COORDINATES)
        say_move(c, PMN_E110, m->line, m->col, m, pl, "'%s' names no hole of %s (a1-%c%u)%s",
                 m->text, r->name, 'a' + r->holes_per_row - 1, 2 * r->rows, hint);
    else {   /* in the move's own case: OGN's South is upper case */
        char south = upper_south(m) ? 'A' : 'a', north = (char)(south ^ 0x20);
        say_move(c, PMN_E110, m->line, m->col, m, pl, "'%s' names no hole of %s (%c-%c, %c-%c)%s",
                 m->text, r->name, south, south + (int)r->pits - 1, north,
                 north + (int)r->pits - 1, hint);
    }
}

static void say_claim(struct replayer *c, const pmn_move *m, const pmn_played *pl,
                      const pmn_position *before)
{
    const pmn_move_report *rep = &pl->report;
    if (m->claim >= 0 && (unsigned)m->claim != rep->captured && m->claim_total >= 0) {
        say_move(c, PMN_E205, m->claim_line, m->claim_col, m, pl,
                 "the record's running total %d means %d seed%s captured, the move captures "
                 "%u (a total of %u)", m->claim_total, m->claim, m->claim == 1 ? "" : "s",
                 rep->captured, (unsigned)(m->claim_total - m->claim) + rep->captured);
    } else if (m->claim >= 0 && (unsigned)m->claim != rep->captured) {
        char hint[300] = "";
        hint_moves(c, before, m, pl->side, 0, hint, sizeof hint);
        /* A count equal to all the mover has captured so far is a running
         * total, as some sites write them. */
        int total = (unsigned)m->claim == pl->after.captured[pl->mover] && !c->said_totals;
        c->said_totals |= total;
        say_move(c, PMN_E205, m->claim_line, m->claim_col, m, pl,
                 "the record says %d seed%s captured, the move captures %u%s%s%s%s", m->claim,
                 m->claim == 1 ? "" : "s", rep->captured, hint,
                 total ? "; it is all that " : "", total ? pmn_side_name(pl->mover) : "",
                 total ? " has captured so far: are the counts running totals "
                         "(--running-totals)?" : "");
    }
    else if (m->claim < 0 && rep->captured && c->writes_claims)
        say_move(c, PMN_W206, m->line, m->col, m, pl,
                 "it captures %u seed%s, which the record does not write", rep->captured,
                 rep->captured == 1 ? "" : "s");
}

/* What else a record may say of a move, which other programs write: the
 * hole its last seed fell in, the seeds it sowed. */
static void say_sowing(struct replayer *c, const pmn_move *m, const pmn_played *pl,
                       unsigned held)
{
    const pmn_move_report *rep = &pl->report;
    if (m->claim_end >= 0 && (rep->end_hole != m->claim_end
                              || (m->claim_end_side >= 0 && rep->end_side != m->claim_end_side))) {
        char said[16] = "no hole", fell[32] = "its sowing never ends";
        if (m->claim_end < (int)c->rules->pits)
            hole_name(c, m, m->claim_end_side >= 0 ? m->claim_end_side : rep->end_side,
                      m->claim_end, said, sizeof said);
        if (rep->end_hole >= 0) {
            char h[16];
            hole_name(c, m, rep->end_side, rep->end_hole, h, sizeof h);
            if (m->notation == PMN_NOTATION_NUMBERS)   /* numbers name no side */
                snprintf(fell, sizeof fell, "it falls in %s's %s", pmn_side_name(rep->end_side),
                         h);
            else
                snprintf(fell, sizeof fell, "it falls in %s", h);
        } else if (rep->ending != PMN_END_ENDLESS) {
            snprintf(fell, sizeof fell, "it falls into %s's store", pmn_side_name(rep->end_side));
        }
        say_move(c, PMN_E222, m->claim_end_line, m->claim_end_col, m, pl,
                 "the record says the last seed falls in %s, but %s", said, fell);
    }
    if (m->claim_sown >= 0 && (unsigned)m->claim_sown != held)
        say_move(c, PMN_E223, m->line, m->col, m, pl,
                 "the record says %d seed%s sown, but the hole held %u", m->claim_sown,
                 m->claim_sown == 1 ? "" : "s", held);
}

static const char *who_wins(pmn_outcome o)
{
    return o == PMN_DRAWN ? "the game is drawn" : o == PMN_SOUTH_WINS ? "South wins"
                                                : "North wins";
}

static void say_ending(struct replayer *c, const pmn_move *m, const pmn_played *pl)
{
    const pmn_move_report *rep = &pl->report;
    if (rep->ending == PMN_END_ENDLESS) {
        say_move(c, PMN_N211, m->line, m->col, m, pl,
                 "endless move: the sowing state of lap %llu repeats that of lap %llu, "
                 "and turned, lap %llu repeats lap %llu; %s (%s)",
                 (unsigned long long)rep->loop_lap, (unsigned long long)rep->loop_from,
                 (unsigned long long)rep->rotated_lap, (unsigned long long)rep->rotated_from,
                 who_wins(rep->outcome), pmn_outcome_string(rep->outcome));
    } else if (rep->ending == PMN_END_REPETITION) {
        char how[128], when[32] = "at the start";
        pmn_ending_explain(c->rules, rep->ending, &pl->after, how, sizeof how);
        const char *seeds = strchr(how, ';');   /* "; seeds 25-20" in games won by seeds */
        if (rep->repeats_ply)
            snprintf(when, sizeof when, "after ply %u", rep->repeats_ply);
        say_move(c, PMN_N212, m->line, m->col, m, pl,
                 "the position after it repeats the one %s: %s%s (%s)", when,
                 who_wins(rep->outcome), seeds ? seeds : "", pmn_outcome_string(rep->outcome));
    }
}

/* Play move m on g, which is at `at`, in position *before (kept by the
 * caller: a copy a move would cost the replay time); returns 0 if the line
 * may go on. */
static int play_move(struct replayer *c, pmn_game *g, const pmn_move *m, const struct at *at,
                     pmn_played *pl, const pmn_position *before)
{
    const pmn_position *p = pmn_game_position(g);
    int side = p->to_move;

    if (pmn_game_ending(g) != PMN_END_NONE) {
        char how[128];
        pmn_ending_explain(c->rules, pmn_game_ending(g), p, how, sizeof how);
        say_move(c, PMN_E207, m->line, m->col, m, pl, "the game has already ended (%s: %s)",
                 pmn_outcome_string(pmn_game_outcome(g)), how);
        return -1;
    }
    check_number(c, m, pl);
    if (m->hole < 0 || (unsigned)m->hole >= c->rules->pits) {
        say_hole_range(c, m, pl, p, side);
        return -1;
    }
    if (m->joined && !at->earned) {
        say_move(c, PMN_E217, m->line, m->col, m, pl,
                 "a sowing joined by '-', but the sowing before it earned no other: "
                 "the turn has passed to %s", pmn_side_name(side));
        return -1;
    }
    if (pl->side != side) {
        char hint[300], slip[120] = "";
        int legal[PMN_MAX_SIDE_PITS], n = pmn_legal_moves(c->rules, p, legal);
        hint_moves(c, p, m, side, 1, hint, sizeof hint);
        for (int i = 0; i < n; i++)
            if (legal[i] == m->hole && record_slip_of_case(m, side)) {
                /* The same hole of the side to move: a slip of case, as
                 * pmn convert --fix mends it. */
                char name[16];
                hole_name(c, m, side, m->hole, name, sizeof name);
                snprintf(slip, sizeof slip, "; a slip of case? pmn convert --fix writes %s",
                         name);
            }
        if (!slip[0] && !at->earned && record_number_side(m) == pl->side)
            snprintf(slip, sizeof slip, "; its number (%u%s) says it is %s's too: "
                     "a move left out before it?", m->number, m->number_dots == 3 ? "..." : ".",
                     pmn_side_name(pl->side));
        say_move(c, PMN_E204, m->line, m->col, m, pl, "it is %s's turn, but %s is a hole of "
                 "%s%s%s", pmn_side_name(side), m->text, pmn_side_name(pl->side), hint, slip);
        return -1;
    }
    if (!m->joined && at->earned && !c->said_unjoined) {
        c->said_unjoined = 1;
        say_move(c, PMN_W218, m->line, m->col, m, pl,
                 "another sowing of the same turn, written as a move of its own "
                 "(join the sowings of a turn with '-'; first here)");
    }
    unsigned held = p->pit[side][m->hole];
    int rc = pmn_game_play(g, m->hole, &pl->report);
    if (rc < 0) {
        out_of_memory(c, m->line, m->col);
        return -1;
    }
    if (rc > 0) {
        const char *why = pmn_legality_string((pmn_legality)rc);
        char hint[300];
        hint_moves(c, before, m, side, 1, hint, sizeof hint);
        if (rc == PMN_ILLEGAL_NOT_FEEDING || rc == PMN_ILLEGAL_GRAND_SLAM)
            say_move(c, legality_code(rc), m->line, m->col, m, pl, "illegal: %s%s", why, hint);
        else
            say_move(c, legality_code(rc), m->line, m->col, m, pl,
                     "illegal: %s (hole %s holds %u)%s", why, m->text, held, hint);
        return -1;
    }
    pl->replayed = 1;
    pl->after = *pmn_game_position(g);
    say_claim(c, m, pl, before);
    say_sowing(c, m, pl, held);
    say_ending(c, m, pl);
    return 0;
}

static void replay_line(struct replayer *c, pmn_game *g, const pmn_line *line,
                        pmn_played_line *out, struct at at, pmn_check_result *res);

/* Each variation replaces move m: replay it from the position before m,
 * `before` (NULL where the engine does not follow the line), which this
 * takes (the last variation plays on it itself). */
static void replay_variations(struct replayer *c, pmn_game *before, const pmn_move *m,
                              pmn_played *pl, struct at at)
{
    pl->variations = calloc(m->nvariations, sizeof *pl->variations);
    if (!pl->variations) {
        out_of_memory(c, m->line, m->col);
        pmn_game_free(before);
        return;
    }
    pl->nvariations = m->nvariations;
    for (size_t v = 0; v < m->nvariations; v++) {
        pmn_game *branch = before && v + 1 < m->nvariations ? pmn_game_clone(before) : before;
        struct at from = at;
        if (before && !branch) {
            out_of_memory(c, m->line, m->col);
            from.live = 0;
        }
        replay_line(c, branch, &m->variations[v], &pl->variations[v], from, NULL);
        if (branch != before)
            pmn_game_free(branch);
    }
    pmn_game_free(before);
}

/* Replay a line from `at` on g (NULL or not live: only number its moves). */
static void replay_line(struct replayer *c, pmn_game *g, const pmn_line *line,
                        pmn_played_line *out, struct at at, pmn_check_result *res)
{
    out->nmoves = line->nmoves;
    /* Not zeroed: each field is set below, report and position where the
     * engine played the move (else they are zeroed). */
    out->moves = line->nmoves ? malloc(line->nmoves * sizeof *out->moves) : NULL;
    if (line->nmoves && !out->moves) {
        out->nmoves = 0;
        out_of_memory(c, line->moves[0].line, line->moves[0].col);
        return;
    }
    /* Where the line starts: the position before its first move. */
    pmn_position start;
    if (at.live)
        start = *pmn_game_position(g);
    for (size_t i = 0; i < line->nmoves; i++) {
        const pmn_move *m = &line->moves[i];
        pmn_played *pl = &out->moves[i];
        int mover = at.live ? pmn_game_position(g)->to_move : -1;
        pl->replayed = 0;
        pl->variations = NULL;
        pl->nvariations = 0;
        number_move(c, m, &at, mover, pl);
        /* The position before m, for its variations. */
        pmn_game *before = at.live && m->nvariations ? pmn_game_clone(g) : NULL;
        if (at.live && m->nvariations && !before)
            out_of_memory(c, m->line, m->col);
        struct at variation_at = at;
        variation_at.live = before != NULL;
        /* A live line has replayed every move before this one. */
        const pmn_position *prior = i ? &out->moves[i - 1].after : &start;
        if (at.live && play_move(c, g, m, &at, pl, prior) < 0) {
            /* What the engine refused is numbered as the record sees it. */
            at.live = 0;
            number_move(c, m, &at, -1, pl);
            if (res) {
                res->stopped = 1;
                res->unchecked = (unsigned)(line->nmoves - i - 1);
            }
        }
        if (!pl->replayed) {
            memset(&pl->report, 0, sizeof pl->report);
            memset(&pl->after, 0, sizeof pl->after);
        }
        if (res)
            res->written += !pl->continues;
        if (res && pl->replayed) {
            res->plies++;
            res->moves += !pl->continues;
            res->last = pl->report;
        }
        if (m->nvariations)
            replay_variations(c, before, m, pl, variation_at);
        at.started = 1;
        at.ply++;
        at.turn = pl->turn;
        at.side = pl->mover;
        at.earned = pl->replayed && pl->report.extra;
        at.passed = pl->replayed && pl->report.passed;
    }
}

static void check_result(struct replayer *c, const pmn_record *rec, const pmn_game *g,
                         const pmn_check_result *res)
{
    const pmn_tag *tag = pmn_record_find_tag(rec, "Result");
    const char *claimed = NULL;
    pmn_at line = rec->result_line, col = rec->result_col;

    if (tag && pmn_outcome_parse(tag->value, NULL) < 0) {
        say(c, PMN_E208, tag->line, tag->col,
            "the Result tag '%s' is not a result (1-0, 0-1, 1/2-1/2 or *)", tag->value);
        return;
    }
    if (tag && rec->result[0] && strcmp(tag->value, rec->result) != 0)
        say(c, PMN_E209, rec->result_line, rec->result_col,
            "the moves end with the result %s, but the Result tag says %s", rec->result,
            tag->value);
    if (tag) {
        claimed = tag->value;
        line = tag->line;
        col = tag->col;
    } else if (rec->result[0]) {
        claimed = rec->result;
    }
    if (res->stopped)
        return;   /* the replay stopped at an error: the end is not known */
    pmn_ending e = pmn_game_ending(g);
    const char *proved = pmn_outcome_string(pmn_game_outcome(g));
    if (e != PMN_END_NONE && pmn_game_outcome(g) == PMN_ONGOING) {
        /* Ended, but a lot outside the record decides. */
        if (claimed && strcmp(claimed, "*") != 0)
            say(c, PMN_N213, line, col, "the last seeds are drawn by lot: the result %s is "
                "taken as given", claimed);
        return;
    }
    if (e != PMN_END_NONE) {
        char how[128];
        pmn_ending_explain(c->rules, e, pmn_game_position(g), how, sizeof how);
        /* No result at all is the reader's one warning (W118), which
         * names the fix: not said twice. */
        if (claimed && strcmp(claimed, "*") == 0)
            say(c, PMN_W210, line ? line : rec->line, line ? col : rec->col,
                "the game ended (%s: %s), but the result is given as * (unknown)", proved, how);
        else if (!claimed && !rec->main.nmoves)
            say(c, PMN_W210, rec->line, rec->col, "the game ended (%s: %s), but no result "
                "is given", proved, how);
        else if (claimed && strcmp(claimed, "*") != 0 && strcmp(claimed, proved) != 0)
            say(c, PMN_E208, line, col, "the result says %s, but the game ended %s: %s", claimed,
                proved, how);
    } else if (claimed && strcmp(claimed, "*") != 0) {
        say(c, PMN_N213, line, col,
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

static void free_line(pmn_played_line *l)
{
    for (size_t i = 0; i < l->nmoves; i++) {
        pmn_played *pl = &l->moves[i];
        for (size_t v = 0; v < pl->nvariations; v++)
            free_line(&pl->variations[v]);
        free(pl->variations);
    }
    free(l->moves);
}

/* A Score tag (an OGN record's result, "25-20") is a fact the replay
 * proves or refutes: the final seeds, where the game ended on the board. */
int pmn_record_check_score(pmn_record *rec, const pmn_replay *replay, int drop, pmn_diag_fn fn,
                           void *ctx)
{
    const pmn_tag *t = pmn_record_find_tag(rec, "Score");
    const pmn_setup *setup = pmn_replay_setup(replay);
    const pmn_check_result *res = pmn_replay_result(replay);
    unsigned long seeds[2];
    if (!t || setup->status != PMN_SETUP_READY || res->stopped || res->ending == PMN_END_NONE
        || !pmn_final_seeds(&setup->rules, res->ending, &res->end, seeds))
        return 0;
    char score[64];
    snprintf(score, sizeof score, "%lu-%lu", seeds[0], seeds[1]);
    if (strcmp(score, t->value) != 0) {
        diag_report(fn, ctx, PMN_E221, t->line, t->value_col, "the score written is %.60s, but "
                    "the game ended with the seeds %s", t->value, score);
        return 1;
    }
    if (drop)
        record_drop_tags(rec, "Score");
    return 0;
}

/* Does s hold the words w (one blank between each), any run of blanks
 * between them in s, case apart?  A comment written again is wrapped at
 * its blanks ("to move\nwins"): it must read as the same problem, or the
 * record would be replayed one way as read and another once converted. */
static int has_words(const char *s, const char *w)
{
    for (; *s; s++) {
        const char *a = s, *b = w;
        while (*b) {
            if (*b == ' ') {
                if (!isspace((unsigned char)*a))
                    break;
                while (isspace((unsigned char)*a))
                    a++;
                b++;
            } else if (tolower((unsigned char)*a) == *b) {
                a++, b++;
            } else {
                break;
            }
        }
        if (!*b)
            return 1;
    }
    return 0;
}

/* Does the record read as a problem's solution: "Problem" in its Event, a
 * problem's stipulation in a comment ("South to move wins!")? */
static int problem_text(const char *s)
{
    static const char *const words[] = { "problem", "to move wins", "to play and win",
                                         "to move and win" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (has_words(s, words[i]))
            return 1;
    return 0;
}

static int looks_like_problem(const pmn_record *rec)
{
    const char *event = pmn_record_tag(rec, "Event");
    if (event && problem_text(event))
        return 1;
    for (size_t i = 0; i < rec->main.nlead; i++)
        if (problem_text(rec->main.lead[i]))
            return 1;
    for (size_t i = 0; i < rec->main.nmoves; i++)
        for (size_t k = 0; k < rec->main.moves[i].ncomments; k++)
            if (problem_text(rec->main.moves[i].comments[k]))
                return 1;
    return 0;
}

/* Is rec a problem's solution set up from the opening only because it
 * gives no start (no Position tag, no --position)? */
static int problem_from_opening(const pmn_record *rec, const pmn_setup *s)
{
    pmn_position opening;
    pmn_position_start(&s->rules, &opening);
    return s->status == PMN_SETUP_READY && !pmn_record_find_tag(rec, "Position")
        && memcmp(&opening, &s->start, sizeof opening) == 0 && looks_like_problem(rec);
}

pmn_replay *pmn_replay_new(const pmn_record *rec, const pmn_setup *s, pmn_diag_fn fn,
                           void *ctx)
{
    if (fn && problem_from_opening(rec, s)) {
        /* A problem's solution whose moves are illegal from the opening
         * within a few plies: its start is a diagram that the text does
         * not give.  Said once, with how to give it, and its moves left
         * unverified -- not an error for each move replayed from a start
         * it never had. */
        pmn_replay *trial = pmn_replay_new(rec, s, NULL, NULL);
        unsigned plies = trial ? trial->res.plies : 0;
        int lost = trial && trial->res.stopped && plies <= 6;
        pmn_replay_free(trial);
        if (lost) {
            pmn_setup unset = *s;
            unset.status = PMN_SETUP_NO_START;
            const char *event = pmn_record_tag(rec, "Event");
            char how[160] = "--position";
            if (event && *event && strcmp(event, "?") != 0 && !strchr(event, '\''))
                snprintf(how, sizeof how, "--position '%.100s=POSITION'", event);
            if (s->assumed) {
                /* Nothing named the game, and nothing of it can be checked:
                 * the moves may be another game's (a problem pasted without
                 * its page's title), read as Hawalis's without a word. */
                char game[32], known[256];
                setup_game_name(&s->rules, game, sizeof game);
                pmn_rules_builtin_names(known, sizeof known);
                diag_report(fn, ctx, PMN_W225, rec->line, rec->col, "no Game tag, page title "
                            "or --rules names this game, so it is read as %s's, and its moves "
                            "are illegal from %s's opening after %u pl%s: if it is another "
                            "game's, name it with --rules (known: %s) or a Game tag",
                            game, game, plies, plies == 1 ? "y" : "ies", known);
            }
            diag_report(fn, ctx, PMN_N215, rec->line, rec->col, "the moves are illegal from "
                        "the opening after %u pl%s, and the text is a problem's: it starts "
                        "from a position the record does not give (a diagram); give it in a "
                        "Position tag, or with %s", plies, plies == 1 ? "y" : "ies", how);
            return pmn_replay_new(rec, &unset, fn, ctx);
        }
    }
    pmn_replay *r = calloc(1, sizeof *r);
    if (!r) {
        diag_report(fn, ctx, PMN_F002, rec->line, rec->col, "out of memory");
        return NULL;
    }
    r->setup = *s;
    struct replayer c = { &r->setup.rules, fn, ctx, 0, r->setup.start.to_move, 0, 0,
                          line_claims(&rec->main), 0 };
    pmn_check_result *res = &r->res;
    pmn_game *g = NULL;
    res->start = s->start;
    res->setup = s->status;
    if (s->status == PMN_SETUP_READY && !(g = pmn_game_new(&r->setup.rules, &s->start)))
        out_of_memory(&c, rec->line, rec->col);
    if (g && rec->main.nmoves == 0)
        diag_report(fn, ctx, PMN_W112, rec->line, rec->col, "a game without moves");
    struct at at = { g != NULL, 0, 0, 0, s->start.to_move, 0, 0 };
    replay_line(&c, g, &rec->main, &r->main, at, res);
    if (!g) {
        res->stopped = rec->main.nmoves > 0;
        res->unchecked = (unsigned)rec->main.nmoves;
        res->end = s->start;
    } else {
        check_result(&c, rec, g, res);
        res->ending = pmn_game_ending(g);
        res->outcome = pmn_game_outcome(g);
        res->end = *pmn_game_position(g);
    }
    memcpy(res->captured, res->end.captured, sizeof res->captured);
    res->errors = c.errors + (s->status == PMN_SETUP_UNKNOWN_RULES
                              || s->status == PMN_SETUP_BAD_START);
    pmn_game_free(g);
    if (c.nomem) {
        pmn_replay_free(r);
        return NULL;
    }
    return r;
}

void pmn_replay_free(pmn_replay *r)
{
    if (!r)
        return;
    free_line(&r->main);
    free(r);
}

const pmn_setup *pmn_replay_setup(const pmn_replay *r) { return &r->setup; }
const pmn_played_line *pmn_replay_main(const pmn_replay *r) { return &r->main; }
const pmn_check_result *pmn_replay_result(const pmn_replay *r) { return &r->res; }

int pmn_replay_complete(const pmn_replay *r)
{
    return r->setup.status == PMN_SETUP_READY && !r->res.stopped;
}

int pmn_check_record(const pmn_record *rec, const pmn_setup_options *o, pmn_diag_fn fn,
                     void *ctx, pmn_check_result *res)
{
    pmn_setup s;
    pmn_setup_record(rec, o, &s, fn, ctx);
    pmn_replay *r = pmn_replay_new(rec, &s, fn, ctx);
    if (!r)
        return -1;
    *res = r->res;
    pmn_replay_free(r);
    return res->errors;
}
