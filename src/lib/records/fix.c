/* fix.c - the fixes of a record that are certain, for convert --fix: each
 * is made only where the replay proves it, and each is said (N131). */
#include "pmn.h"
#include "record.h"
#include "../base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The main-line move the replay stopped at (NULL: none), in *to_move whose
 * turn it was there, and in *plies the plies it replayed (-1 when memory
 * runs out). */
static pmn_move *stopped_at(pmn_record *rec, const pmn_setup *s, long *plies, int *to_move)
{
    pmn_replay *r = pmn_replay_new(rec, s, NULL, NULL);
    pmn_move *m = NULL;
    *plies = -1;
    if (!r)
        return NULL;
    const pmn_played_line *pl = pmn_replay_main(r);
    for (size_t i = 0; i < pl->nmoves && !m; i++)
        if (!pl->moves[i].replayed && pmn_replay_result(r)->stopped) {
            m = &rec->main.moves[i];
            /* The move is numbered as written once refused: the turn is
             * the position's before it. */
            *to_move = i ? pl->moves[i - 1].after.to_move
                         : pmn_replay_result(r)->start.to_move;
        }
    *plies = pmn_replay_result(r)->plies;
    pmn_replay_free(r);
    return m;
}

/* A letter of the wrong case (a hole of the side not to move, or one that
 * cannot be played) is fixed when its other case is a move the engine plays,
 * capturing what the record says, its number (if written) agrees, and the
 * replay then goes past the move after it too.  Why the move after: a move
 * left out makes every letter after it "a slip", each fix one ply further
 * (eight fixes, a different game, on a record that lost one move). */
static int fix_case(pmn_record *rec, const pmn_setup *s, pmn_move *m, long before,
                    int to_move, pmn_diag_fn fn, void *ctx)
{
    if (!record_slip_of_case(m, to_move) || !isalpha((unsigned char)m->text[0]) || m->text[1])
        return 0;
    pmn_move was = *m;
    m->text[0] = (char)(isupper((unsigned char)m->text[0]) ? tolower((unsigned char)m->text[0])
                                                          : toupper((unsigned char)m->text[0]));
    m->side = !m->side;
    pmn_replay *r = pmn_replay_new(rec, s, NULL, NULL);
    int better = 0;
    if (r) {
        const pmn_played_line *pl = pmn_replay_main(r);
        size_t i = (size_t)(m - rec->main.moves);
        int last = i + 1 == pl->nmoves;
        better = pl->moves[i].replayed && (last || pl->moves[i + 1].replayed)
              && (long)pmn_replay_result(r)->plies > before
              && (m->claim < 0 || (unsigned)m->claim == pl->moves[i].report.captured);
        pmn_replay_free(r);
    }
    if (!better) {
        *m = was;
        return r ? 0 : -1;
    }
    diag_report(fn, ctx, PMN_N131, m->line, m->col, "fixed: move '%s' written '%s', a slip of case",
                was.text, m->text);
    return 1;
}

/* The captures of the main line that the record leaves out, written, as
 * the replay r of it found them: every one, in a record that writes some
 * and in one that writes none (a format that left them out, a bare list
 * of plies). */
static int fix_claims(pmn_record *rec, const pmn_replay *r, pmn_diag_fn fn, void *ctx)
{
    const pmn_played_line *pl = pmn_replay_main(r);
    int fixed = 0;
    for (size_t i = 0; i < pl->nmoves; i++) {
        pmn_move *m = &rec->main.moves[i];
        if (!pl->moves[i].replayed || m->claim >= 0 || !pl->moves[i].report.captured)
            continue;
        m->claim = (int)pl->moves[i].report.captured;
        m->claim_style = '+';
        diag_report(fn, ctx, PMN_N131, m->line, m->col,
                    "fixed: move '%s' captures %d, which the record did not write", m->text,
                    m->claim);
        fixed++;
    }
    return fixed;
}

/* Where the game ended on the board (the replay r says), the result it
 * proves. */
static int fix_result(pmn_record *rec, const pmn_replay *r, pmn_diag_fn fn, void *ctx)
{
    const pmn_check_result *res = pmn_replay_result(r);
    int ended = pmn_replay_complete(r) && res->ending != PMN_END_NONE
             && res->outcome != PMN_ONGOING;
    const char *proved = pmn_outcome_string(res->outcome);
    if (!ended)
        return 0;
    pmn_tag *tag = (pmn_tag *)pmn_record_find_tag(rec, "Result");
    char said[64];
    snprintf(said, sizeof said, "%s", tag ? tag->value : rec->result);
    if (strcmp(said, proved) == 0 && (!rec->result[0] || strcmp(rec->result, proved) == 0))
        return 0;
    /* A Result tag in its place (tag stays valid), else a new one. */
    if (record_set_tag(rec, "Result", proved, NULL) < 0)
        return -1;
    strcpy(rec->result, proved);
    diag_report(fn, ctx, PMN_N131, tag ? tag->line : rec->line, tag ? tag->col : rec->col,
                "fixed: the result %s, which the board proves (the record said %s)", proved,
                said[0] ? said : "none");
    return 1;
}

int pmn_record_fix(pmn_record *rec, const pmn_setup *s, pmn_diag_fn fn, void *ctx)
{
    int fixed = 0;
    if (s->status != PMN_SETUP_READY)
        return 0;
    /* Each fix lets the replay go further; at most one a move. */
    for (size_t tries = 0; tries < rec->main.nmoves; tries++) {
        long plies;
        int to_move = -1;
        pmn_move *m = stopped_at(rec, s, &plies, &to_move);
        int rc = plies < 0 ? -1 : m ? fix_case(rec, s, m, plies, to_move, fn, ctx) : 0;
        if (rc < 0)
            return PMN_ERR_NOMEM;
        if (rc == 0)
            break;
        fixed++;
    }
    /* Writing claims changes no move: one replay serves claims and result. */
    pmn_replay *r = pmn_replay_new(rec, s, NULL, NULL);
    if (!r)
        return PMN_ERR_NOMEM;
    int claims = fix_claims(rec, r, fn, ctx);
    int result = fix_result(rec, r, fn, ctx);
    pmn_replay_free(r);
    if (result < 0)
        return PMN_ERR_NOMEM;
    return fixed + claims + result;
}
