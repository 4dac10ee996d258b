/* selfplay.c - games the engine plays against itself: records with known
 * results, the samples the expected-score model is fitted on (model.c). */
#include "pmn.h"
#include "../records/record.h"
#include "../base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: a stream fixed by its seed on every machine. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A move drawn with odds exp(worth / temperature): a player who errs, the
 * more often the less it costs. */
static int softmax_choice(const pmn_analysis *a, double temperature, uint64_t *state)
{
    pmn_choice c;
    double w[PMN_MAX_SIDE_PITS], sum = 0, top;
    pmn_choice_of(a, -1, &c);
    top = c.worth[0];
    for (int i = 0; i < c.nmoves; i++) {
        double d = (c.worth[i] - top) / temperature;
        w[i] = d < -700 ? 0 : exp(d);
        sum += w[i];
    }
    double u = (double)(next_random(state) >> 11) / 9007199254740992.0 * sum;
    for (int i = 0; i < c.nmoves; i++) {
        if (u < w[i])
            return a->moves[i].hole;
        u -= w[i];
    }
    return a->moves[0].hole;
}

static int add_text_comment(pmn_move *m, const char *text)
{
    return record_move_add_comment(m, text, strlen(text));
}

/* A game of self-play under way: who plays it, and the model's samples it
 * has taken. */
struct selfplay {
    pmn_searcher *s;
    const pmn_rules *r;
    const pmn_selfplay_options *o;
    uint64_t state;           /* the random choices' */
    pmn_model_sample *samples;
    size_t cap, n;
};

/* The move of the side to move in p at `ply` (the positions since the
 * last capture before it: history[0..nhistory)): at random among the
 * legal holes[0..nlegal) in the opening, else the search's, chosen by the
 * softmax of its values where there is a temperature.  *a gets the
 * search's result, *searched whether there was one; a value the search
 * only estimated is kept as a sample for the model.  0, or PMN_ERR_NOMEM. */
static int choose_move(struct selfplay *sp, const pmn_position *p, const pmn_position *history,
                       size_t nhistory, unsigned ply, const int *holes, int nlegal, int *hole,
                       pmn_analysis *a, int *searched)
{
    const pmn_selfplay_options *o = sp->o;
    *searched = 0;
    if (ply < o->random_plies) {
        *hole = holes[next_random(&sp->state) % (unsigned)nlegal];
        return 0;
    }
    pmn_search_limits l = o->limits;
    l.all_moves = o->temperature > 0;
    if (pmn_analyse(sp->s, p, history, nhistory, &l, NULL, NULL, a) < 0)
        return PMN_ERR_NOMEM;
    *hole = a->best >= 0 ? a->best : holes[0];
    if (o->temperature > 0 && a->nmoves > 1)
        *hole = softmax_choice(a, o->temperature, &sp->state);
    *searched = 1;
    if (!a->value.exact && !a->value.plies && sp->n < sp->cap && sp->samples) {
        pmn_model_sample *m = &sp->samples[sp->n++];
        m->value = a->value.margin;
        m->in_play = pmn_position_seeds(sp->r, p, PMN_SOUTH) + pmn_position_seeds(sp->r, p, PMN_NORTH);
        m->score = p->to_move;   /* the side, until the result is known */
    }
    return 0;
}

/* The move `hole` of `mover`, played with report *rep, added to the
 * record's main line: joined to the sowing before it where that earned
 * this one (*prev: the side that sows again, or -1), its capture claimed,
 * and the search's value (where there was one: value) after a turn's last
 * sowing.  0, or PMN_ERR_NOMEM. */
static int record_move(pmn_record *rec, const pmn_rules *r, int mover, int hole,
                       const pmn_move_report *rep, const pmn_value *value, int *prev)
{
    pmn_move *m = record_line_add_move(&rec->main);
    if (!m)
        return PMN_ERR_NOMEM;
    m->notation = PMN_NOTATION_LETTERS;
    m->side = mover;
    m->hole = hole;
    m->joined = *prev == mover;
    pmn_hole_name(r, PMN_NOTATION_LETTERS, mover, hole, m->text, sizeof m->text);
    if (rep->captured) {
        m->claim = (int)rep->captured;
        m->claim_style = '+';
    }
    *prev = rep->extra ? mover : -1;
    if (value && !rep->extra) {   /* the value once a turn, after its last sowing */
        char eval[32], text[64];
        pmn_value_eval(value, mover, eval, sizeof eval);
        snprintf(text, sizeof text, "[%%eval %s]", eval);
        if (add_text_comment(m, text) < 0)
            return PMN_ERR_NOMEM;
    }
    return 0;
}

/* The tags of game `game` (from 0) of self-play under options o, and its
 * result.  0, or PMN_ERR_NOMEM. */
static int selfplay_tags(pmn_record *rec, const pmn_selfplay_options *o, unsigned long game,
                         const char *result)
{
    char player[64], round[32], event[64], random[32];
    if (o->temperature > 0)
        snprintf(player, sizeof player, "pmn %s, depth %u, temperature %g", pmn_version(),
                 o->limits.depth, o->temperature);
    else
        snprintf(player, sizeof player, "pmn %s, depth %u", pmn_version(), o->limits.depth);
    snprintf(round, sizeof round, "%lu", game + 1);
    snprintf(event, sizeof event, "pmn self-play, seed %llu", (unsigned long long)o->seed);
    if (record_set_tag(rec, "Event", event, NULL) < 0
        || record_set_tag(rec, "Site", "?", NULL) < 0
        || record_set_tag(rec, "Date", "????.??.??", NULL) < 0
        || record_set_tag(rec, "Round", round, NULL) < 0
        || record_set_tag(rec, "South", player, NULL) < 0
        || record_set_tag(rec, "North", player, NULL) < 0
        || record_set_tag(rec, "Result", result, NULL) < 0)
        return PMN_ERR_NOMEM;
    snprintf(random, sizeof random, "%u", o->random_plies);
    if (o->random_plies && record_set_tag(rec, "RandomPlies", random, NULL) < 0)
        return PMN_ERR_NOMEM;
    return 0;
}

int pmn_selfplay(pmn_searcher *s, const pmn_rules *r, const pmn_selfplay_options *o,
                 unsigned long game, pmn_record *rec, pmn_model_sample *samples, size_t cap,
                 size_t *nsamples)
{
    unsigned max_plies = o->max_plies ? o->max_plies : 2000;
    struct selfplay sp = { s, r, o, o->seed * 0x100000001B3ULL + game, samples, cap, 0 };
    pmn_position start;
    pmn_position_start(r, &start);
    pmn_game *g = pmn_game_new(r, &start);
    /* The positions since the last capture, for the search's repetitions. */
    pmn_position *history = malloc((max_plies + 1) * sizeof *history);
    size_t since = 0;
    int rc = g && history ? 0 : PMN_ERR_NOMEM;
    int prev = -1;
    pmn_record_init(rec);
    *nsamples = 0;
    /* What earlier games left in the table would change this one's
     * searches: each game is the same whatever was played before it. */
    pmn_searcher_clear(s);
    for (unsigned ply = 0; rc == 0 && ply < max_plies && pmn_game_ending(g) == PMN_END_NONE;
         ply++) {
        const pmn_position *p = pmn_game_position(g);
        int holes[PMN_MAX_SIDE_PITS], hole, mover = p->to_move, searched;
        int nlegal = pmn_legal_moves(r, p, holes);
        pmn_analysis a;
        history[ply] = *p;
        if (nlegal == 0)
            break;   /* a pass the game does not play for us */
        rc = choose_move(&sp, p, history + since, ply - since, ply, holes, nlegal, &hole, &a,
                         &searched);
        pmn_move_report rep;
        if (rc == 0 && pmn_game_play(g, hole, &rep) < 0)
            rc = PMN_ERR_NOMEM;
        if (rc == 0)
            rc = record_move(rec, r, mover, hole, &rep, searched ? &a.value : NULL, &prev);
        if (rc == 0 && pmn_irreversible(&rep))
            since = ply + 1;
    }
    pmn_outcome out = g ? pmn_game_outcome(g) : PMN_ONGOING;
    if (rc == 0 && (!g || pmn_game_ending(g) == PMN_END_NONE))
        out = PMN_ONGOING;   /* stopped at max_plies: no result */
    /* The samples' scores, from the mover's side. */
    for (size_t i = 0; i < sp.n; i++) {
        int side = (int)samples[i].score;
        samples[i].score = out == PMN_DRAWN ? 0.5
                         : (out == PMN_SOUTH_WINS) == (side == PMN_SOUTH) ? 1 : 0;
    }
    *nsamples = out == PMN_ONGOING ? 0 : sp.n;
    const char *result = pmn_outcome_string(out);
    if (rc == 0)
        rc = selfplay_tags(rec, o, game, result);
    snprintf(rec->result, sizeof rec->result, "%s", result);
    pmn_game_free(g);
    free(history);
    return rc;
}
