/* game.c - a game: a position with the history a repetition needs. */
#include "pmn.h"
#include "play.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

/* Only the positions since the last capture are kept: a capture (or a seed
 * sown into a store) takes seeds off the board for good, so no earlier
 * position can come back. */
struct pmn_game {
    pmn_rules rules;
    struct engine eng;        /* plays under rules: made again for a clone */
    pmn_position pos;
    pmn_position *seen;
    struct mark {
        uint64_t hash;        /* engine_key of seen[i], scanned before comparing it */
        unsigned ply;         /* plies played when it was seen */
    } *mark;
    size_t nseen, cap;
    unsigned plies;
    pmn_ending ending;
    pmn_outcome outcome;
};

/* Keep the current position, whose hash is h. */
static int remember(pmn_game *g, uint64_t h)
{
    if (g->nseen == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        pmn_position *seen = realloc(g->seen, cap * sizeof *seen);
        if (!seen)
            return -1;
        g->seen = seen;
        struct mark *mark = realloc(g->mark, cap * sizeof *mark);
        if (!mark)
            return -1;
        g->mark = mark;
        g->cap = cap;
    }
    g->seen[g->nseen] = g->pos;
    g->mark[g->nseen].hash = h;
    g->mark[g->nseen++].ply = g->plies;
    return 0;
}

/* The earlier ply after which the position (hash h) was the same, or -1. */
static long seen_before(const pmn_game *g, uint64_t h)
{
    for (size_t i = 0; i < g->nseen; i++)
        if (g->mark[i].hash == h && pmn_position_equal(&g->rules, &g->seen[i], &g->pos))
            return (long)g->mark[i].ply;
    return -1;
}

pmn_game *pmn_game_new(const pmn_rules *r, const pmn_position *start)
{
    pmn_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->rules = *r;
    g->pos = *start;
    engine_init(&g->eng, &g->rules, start);
    g->ending = pmn_position_ending(r, start, &g->outcome);
    if (remember(g, engine_key(r, start)) < 0) {
        pmn_game_free(g);
        return NULL;
    }
    return g;
}

pmn_game *pmn_game_clone(const pmn_game *g)
{
    pmn_game *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *g;
    engine_init(&c->eng, &c->rules, &c->pos);
    c->seen = malloc(g->cap * sizeof *c->seen);
    c->mark = malloc(g->cap * sizeof *c->mark);
    if (!c->seen || !c->mark) {
        pmn_game_free(c);
        return NULL;
    }
    memcpy(c->seen, g->seen, g->nseen * sizeof *c->seen);
    memcpy(c->mark, g->mark, g->nseen * sizeof *c->mark);
    return c;
}

void pmn_game_free(pmn_game *g)
{
    if (!g)
        return;
    free(g->seen);
    free(g->mark);
    free(g);
}

int pmn_game_play(pmn_game *g, int hole, pmn_move_report *rep)
{
    if (g->ending != PMN_END_NONE)
        return -1;
    uint64_t h;
    int rc = engine_play(&g->eng, &g->pos, hole, rep, &h);
    if (rc != 0)
        return rc;
    g->plies++;
    if (rep->ending == PMN_END_NONE) {
        long before = -1;
        if (pmn_irreversible(rep))
            g->nseen = 0;
        else if ((before = seen_before(g, h)) >= 0 && pmn_repetition_ends(&g->rules, &g->pos)) {
            rep->ending = PMN_END_REPETITION;
            rep->outcome = pmn_repetition_outcome(&g->rules, &g->pos);
            rep->repeats_ply = (unsigned)before;
        }
        if (rep->ending == PMN_END_NONE && remember(g, h) < 0)
            return PMN_ERR_NOMEM;
    }
    g->ending = rep->ending;
    g->outcome = rep->outcome;
    return 0;
}

const pmn_position *pmn_game_position(const pmn_game *g) { return &g->pos; }
pmn_outcome pmn_game_outcome(const pmn_game *g) { return g->outcome; }
pmn_ending pmn_game_ending(const pmn_game *g) { return g->ending; }
unsigned pmn_game_plies(const pmn_game *g) { return g->plies; }
