/* game.c - a game: a position with the history a repetition needs. */
#include "pmn.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Only the positions since the last capture are kept: a capture (or a seed
 * sown into a store) takes seeds off the board for good, so no earlier
 * position can come back. */
struct pmn_game {
    pmn_rules rules;
    pmn_position pos;
    pmn_position *seen;
    struct mark {
        uint64_t hash;        /* of seen[i], scanned before comparing it */
        unsigned ply;         /* plies played when it was seen */
    } *mark;
    size_t nseen, cap;
    unsigned plies;
    pmn_ending ending;
    pmn_outcome outcome;
};

/* Odd random multipliers, one a hole (South's 32, then North's). */
static const uint64_t hole_key[2 * PMN_MAX_SIDE_PITS] = {
    0x51C9BC701E7EA419ULL, 0xF38B2FFC80A4DF5BULL, 0xA5AEC7978306D03BULL,
    0xF3F49249DC28FF91ULL, 0xE255ACCB1A466885ULL, 0xE512148239292D23ULL,
    0x9F19950499DD251DULL, 0x6BAD6BE28E7AA6E9ULL, 0x9293DE8FC88B2875ULL,
    0xD7A7A3CC8C3D5F17ULL, 0xC6CD75E9BB049A79ULL, 0x7DABE929C4A334BFULL,
    0xC5E818FAC0433CBDULL, 0x70EB9A0A96263AE7ULL, 0x00A61F933D6C51E3ULL,
    0x14AA4E719D3C7DEDULL, 0x498893101C593AF5ULL, 0x1919E93AD11745ADULL,
    0x02F0EE99731C9453ULL, 0xE4163207D0944997ULL, 0x7D836E77AF67D461ULL,
    0x5071950EADEC6F11ULL, 0x65B00A2D35D14881ULL, 0x59001AC9406329BDULL,
    0xFFB88309FADB8909ULL, 0x5B4C8012EDE7BD0DULL, 0x60581CCACE1D62E1ULL,
    0xBEF7E268FFE976ABULL, 0xA341738C837A7935ULL, 0xB91DDDD91389B373ULL,
    0x16F4488157241955ULL, 0x89BE9C1C8EB5140FULL, 0x49A047DC4AC87FC1ULL,
    0x24114258751B4C83ULL, 0xA51149BBE060A725ULL, 0xB766FF10B437BDB5ULL,
    0x4F1A8A1D93D20471ULL, 0xD9090B8906555097ULL, 0x5E6C9992B5FB12E1ULL,
    0x7608D9425D111A9DULL, 0x173714726C167229ULL, 0xE41686CD66160227ULL,
    0x8DF05F2595F19A51ULL, 0xDE0279E17F9AC099ULL, 0x6CE9DA661DCF884DULL,
    0xCD73DE0081A0BA05ULL, 0xDDE3A361C0099EBBULL, 0xE01C683E99A46DF1ULL,
    0x65ED0DE47DB4304DULL, 0x864FA3F3EAB06E9BULL, 0xD82FB0F1423674A7ULL,
    0x90624FE36B82E6C9ULL, 0xFB759E0FED1D9D17ULL, 0x8350A73F7AAC319FULL,
    0xCE1FD3D9849ACFB5ULL, 0x93550840067F0CFDULL, 0xC40D31B5397A7623ULL,
    0xD1711CBD2106119FULL, 0xF675299B0C83E787ULL, 0x85F184E0B464C555ULL,
    0xABA4C70EE306F0C5ULL, 0xB7A1774F1A42721FULL, 0x6DEDC86A9F4FB02BULL,
    0x2475263C78549015ULL
};

/* A hash of the holes and the side to move, to skip most comparisons: a sum
 * of products, whose multiplications do not wait on each other as those of
 * FNV's chain do. */
static uint64_t position_hash(const pmn_rules *r, const pmn_position *p)
{
    uint64_t h = p->to_move ? 0x9E3779B97F4A7C15ULL : 0;
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < r->pits; i++)
            h += p->pit[s][i] * hole_key[s * PMN_MAX_SIDE_PITS + i];
    return h ^ h >> 31;
}

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
    g->ending = pmn_position_ending(r, start, &g->outcome);
    if (remember(g, position_hash(r, start)) < 0) {
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
    int rc = pmn_play(&g->rules, &g->pos, hole, rep);
    if (rc != 0)
        return rc;
    g->plies++;
    if (rep->ending == PMN_END_NONE) {
        uint64_t h = position_hash(&g->rules, &g->pos);
        long before = -1;
        if (rep->captured || rep->given || rep->stored)
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
