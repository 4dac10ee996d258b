/* walk.c - one walk over a record and its replay, for every writer.
 *
 * The walk owns what every writer needs and none should work out again:
 * the order of lines and moves, the pairing of each move with what the
 * replay made of it, the move numbers a reader needs (pmn_move_numbered),
 * the position each move is played from while the replay followed its
 * path, and a replay where the caller has none.  Depth order (the text's:
 * a variation inside its move) recurses; breadth order (the HTML page's:
 * lines one after another) keeps a queue of the lines met. */
#include "pmn.h"
#include "record.h"
#include "../base/util.h"

#include <assert.h>
#include <stdlib.h>

const char *const record_roster[RECORD_ROSTER] = { "Event", "Site", "Date", "Round", "South",
                                                   "North" };

struct walk {
    const pmn_walker *w;
    void *ctx;
    long nodes, lines;
    /* breadth order: the lines met and not yet walked */
    char *queue;              /* struct pending[nqueue], in cap bytes */
    size_t nqueue, cap;
};

/* A variation waiting its turn (breadth order). */
struct pending {
    pmn_walk_line l;
    const pmn_position *before;   /* into the replay, or the start: stable */
};

static int call_line(struct walk *k, int (*fn)(void *, const pmn_walk_line *),
                     const pmn_walk_line *l)
{
    return fn ? fn(k->ctx, l) : PMN_WALK_CONTINUE;
}

static int walk_line(struct walk *k, pmn_walk_line *l, const pmn_position *before);

/* A move's variations, each from the position its move is played from.
 * Depth order walks them now; breadth order queues them. */
static int walk_variations(struct walk *k, const pmn_walk_node *n)
{
    const pmn_move *m = n->move;
    for (size_t v = 0; v < m->nvariations; v++) {
        pmn_walk_line l = { &m->variations[v], &n->played->variations[v], n->in->depth + 1,
                            0, 0, n->index, n->mark };
        if (k->w->breadth) {
            if (util_reserve(&k->queue, &k->cap, (k->nqueue + 1) * sizeof(struct pending),
                             8 * sizeof(struct pending)) < 0)
                return -1;
            ((struct pending *)k->queue)[k->nqueue++] = (struct pending){ l, n->before };
            continue;
        }
        int rc = walk_line(k, &l, n->before);
        if (rc)
            return rc;
    }
    return 0;
}

/* line -> lead comments, moves: each move paired with its ply, numbered,
 * and given the position it is played from. */
static int walk_line(struct walk *k, pmn_walk_line *l, const pmn_position *before)
{
    const pmn_walker *w = k->w;
    l->index = k->lines++;
    l->first = k->nodes;
    int rc = call_line(k, w->visit_line, l);
    if (rc == PMN_WALK_ABORT)
        return rc;
    int interrupted = 1;       /* by the line's start, a comment or a variation */
    /* Where the writer asks (PMN's text: turn_after), the variations of a turn's first
     * sowing -- alternatives to the whole turn -- come after its last
     * sowing, as a variation after a move in PGN ("3. a-c (3. b-d ...)"),
     * not between its sowings; the reader puts them back (parser.c,
     * to_turn). */
    pmn_walk_node held;
    int holding = 0;
    for (size_t i = 0; rc != PMN_WALK_PRUNE && i < l->line->nmoves; i++) {
        const pmn_move *m = &l->line->moves[i];
        const pmn_played *pl = &l->played->moves[i];
        const pmn_played *prior = i ? pl - 1 : NULL;
        pmn_walk_node n = { m, pl, prior, i + 1 < l->line->nmoves ? pl + 1 : NULL,
                            pl->replayed ? before : NULL, l, k->nodes++, -1,
                            pmn_move_numbered(pl, prior, interrupted, w->joins), 0 };
        assert(!before || !prior || prior->replayed);   /* followed so far */
        if (w->breadth && m->nvariations)
            n.first_variation = (long)k->nqueue + 1;   /* the main line is 0 */
        int mrc = w->visit_move ? w->visit_move(k->ctx, &n) : PMN_WALK_CONTINUE;
        if (mrc == PMN_WALK_ABORT)
            return mrc;
        int turn_goes_on = i + 1 < l->line->nmoves && l->line->moves[i + 1].joined;
        if (mrc != PMN_WALK_PRUNE && w->turn_after && !w->breadth && turn_goes_on && !m->joined
            && m->nvariations) {
            held = n;   /* (its variations after the turn's last sowing) */
            holding = 1;
        } else if (mrc != PMN_WALK_PRUNE && (mrc = walk_variations(k, &n)) != 0) {
            return mrc;
        }
        interrupted = m->ncomments || (m->nvariations && !(holding && held.move == m));
        if (holding && !turn_goes_on) {
            /* (the turn's last sowing: before its leave_move, which may end
             * the full move) */
            holding = 0;
            if ((mrc = walk_variations(k, &held)) != 0)
                return mrc;
            interrupted = 1;
        }
        if (w->leave_move && (mrc = w->leave_move(k->ctx, &n)) == PMN_WALK_ABORT)
            return mrc;
        /* The replay follows a line up to its first ply not played. */
        before = before && pl->replayed ? &pl->after : NULL;
    }
    return call_line(k, w->leave_line, l) == PMN_WALK_ABORT ? PMN_WALK_ABORT : 0;
}

static int walk(struct walk *k, const pmn_record *rec, const pmn_replay *replay)
{
    const pmn_walker *w = k->w;
    const pmn_setup *setup = pmn_replay_setup(replay);
    if (w->visit_game && w->visit_game(k->ctx, rec, replay) == PMN_WALK_ABORT)
        return PMN_WALK_ABORT;
    pmn_walk_line main = { &rec->main, pmn_replay_main(replay), 0, 0, 0, -1, 0 };
    int rc = walk_line(k, &main, setup->status == PMN_SETUP_READY ? &setup->start : NULL);
    /* Breadth order: each line queued walks in its turn, and queues its
     * own variations behind the others. */
    for (size_t q = 0; !rc && q < k->nqueue; q++) {
        struct pending p = ((struct pending *)k->queue)[q];
        rc = walk_line(k, &p.l, p.before);
    }
    if (rc)
        return rc;
    if (w->leave_game && w->leave_game(k->ctx, rec, replay) == PMN_WALK_ABORT)
        return PMN_WALK_ABORT;
    return 0;
}

int pmn_walk(const pmn_record *rec, const pmn_replay *replay, const pmn_walker *w, void *ctx)
{
    pmn_replay *own = NULL;
    if (!replay) {
        pmn_setup s;
        pmn_setup_record(rec, NULL, &s, NULL, NULL);
        if (!(replay = own = pmn_replay_new(rec, &s, NULL, NULL)))
            return -1;
    }
    struct walk k = { w, ctx, 0, 0, NULL, 0, 0 };
    int rc = walk(&k, rec, replay);
    free(k.queue);
    pmn_replay_free(own);
    return rc;
}
