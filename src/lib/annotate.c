/* annotate.c - a record's main line judged by the analysis engine, its
 * judgements, comments and variations added to the record. */
#include "pmn.h"
#include "record.h"
#include "util.h"

#include <ctype.h>
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

/* Our judgement comments; those after "engine: " went with a judgement
 * that was the record's own, and leave it. */
static int judged_by_us(const char *c)
{
    return (begins(c, "best ") && has_words(c, "; played ")) || begins(c, "only move");
}

static int is_ours(const char *c)
{
    return judged_by_us(c) || (begins(c, "engine: ") && judged_by_us(c + 8))
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
            pmn_line_free(l);
        else
            m->variations[k++] = *l;
    }
    m->nvariations = k;
}

/* ---- values in a few words ---------------------------------------------- */

static void short_value(const pmn_value *v, char *buf, size_t size)
{
    if (v->has_margin)
        snprintf(buf, size, "%+d", v->margin);
    else if (v->exact && v->outcome > 0)
        snprintf(buf, size, "wins in %u", v->plies);
    else if (v->exact && v->outcome < 0)
        snprintf(buf, size, "loses in %u", v->plies);
    else if (v->exact)
        snprintf(buf, size, "draw");
    else
        snprintf(buf, size, "%+d on the board", v->margin);
}

/* ---- the engine's line as a variation ------------------------------------ */

static int add_line(pmn_move *m, const pmn_rules *r, const pmn_position *before,
                    const pmn_analysis *a, int claims)
{
    pmn_line *l = pmn_move_add_variation(m);
    if (!l || pmn_line_add_lead(l, ENGINE_LINE, strlen(ENGINE_LINE)) < 0)
        return PMN_ERR_NOMEM;
    pmn_position q = *before;
    int prev = -1;
    for (unsigned i = 0; i < a->npv && i < MAX_LINE_PLIES; i++) {
        pmn_move_report rep;
        pmn_move *v = pmn_line_add_move(l);
        if (!v)
            return PMN_ERR_NOMEM;
        v->notation = m->notation;
        v->side = q.to_move;
        v->hole = a->pv[i];
        v->joined = prev == q.to_move;
        pmn_hole_name(r, m->notation, v->side, v->hole, v->text, sizeof v->text);
        prev = q.to_move;
        if (pmn_play(r, &q, a->pv[i], &rep) != 0)
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

/* ---- judging the main line ----------------------------------------------- */

struct side_tally {
    unsigned moves, mistakes, blunders;
    long loss;                /* seeds lost against the best, summed */
};

static const pmn_move_value *value_of(const pmn_analysis *a, int hole)
{
    for (int i = 0; i < a->nmoves; i++)
        if (a->moves[i].hole == hole)
            return &a->moves[i];
    return NULL;
}

/* How much worse the played move is than the best: classes thrown away
 * (exact values only), and seeds. */
static void loss_of(const pmn_value *best, const pmn_value *played, int *classes, long *seeds)
{
    *classes = best->exact && played->exact ? best->outcome - played->outcome : 0;
    *seeds = best->margin - played->margin;
    if (*seeds < 0)
        *seeds = 0;
}

static int judge(pmn_move *m, const pmn_rules *r, const pmn_position *before, int mover,
                 const pmn_analysis *a, const pmn_annotate_options *o, int claims,
                 struct side_tally *t)
{
    const pmn_move_value *played = value_of(a, m->hole);
    const pmn_move_value *best = &a->moves[0];
    char text[200], bv[48], pv[48], bname[16], pname[16];
    int classes;
    long seeds;
    if (!played || a->nmoves == 0)
        return 0;
    t->moves++;
    /* Every move: the position's value before it, and what it leaves. */
    short_value(&a->value, bv, sizeof bv);
    short_value(&played->value, pv, sizeof pv);
    snprintf(text, sizeof text, "value %s, after %s", bv, pv);
    if (pmn_move_add_comment(m, text, strlen(text)) < 0)
        return PMN_ERR_NOMEM;
    loss_of(&best->value, &played->value, &classes, &seeds);
    t->loss += seeds;
    const char *mark = NULL;
    if (classes >= 2 || (o->threshold && seeds >= 2 * (long)o->threshold))
        mark = "??";
    else if (classes >= 1 || (o->threshold && seeds >= (long)o->threshold))
        mark = "?";
    if (mark) {
        t->blunders += mark[1] == '?';
        t->mistakes += mark[1] != '?';
        short_value(&best->value, bv, sizeof bv);
        short_value(&played->value, pv, sizeof pv);
        pmn_hole_name(r, o->notation, mover, best->hole, bname, sizeof bname);
        pmn_hole_name(r, o->notation, mover, m->hole, pname, sizeof pname);
        snprintf(text, sizeof text, "%sbest %s, %s; played %s, %s",
                 m->judgement[0] ? "engine: " : "", bname, bv, pname, pv);
        if (!m->judgement[0])
            memcpy(m->judgement, mark, strlen(mark) + 1);
        if (pmn_move_add_comment(m, text, strlen(text)) < 0 || add_line(m, r, before, a, claims) < 0)
            return PMN_ERR_NOMEM;
        return 0;
    }
    /* The only move that keeps the result, where every other loses it. */
    if (played->hole == best->hole && best->value.exact && a->nmoves > 1) {
        int only = 1;
        for (int i = 1; i < a->nmoves; i++)
            only &= a->moves[i].value.exact && a->moves[i].value.outcome < best->value.outcome;
        if (only) {
            const char *keeps = best->value.outcome > 0 ? "the win" : "the draw";
            snprintf(text, sizeof text, "%sonly move: every other loses %s",
                     m->judgement[0] ? "engine: " : "", keeps);
            if (!m->judgement[0])
                memcpy(m->judgement, "!", 2);
            if (pmn_move_add_comment(m, text, strlen(text)) < 0)
                return PMN_ERR_NOMEM;
        }
    }
    return 0;
}

static int add_comment_text(pmn_move *m, const char *text)
{
    return pmn_move_add_comment(m, text, strlen(text)) < 0 ? PMN_ERR_NOMEM : 0;
}

static int set_annotator(pmn_record *rec, const char *value)
{
    return pmn_record_set_tag(rec, "Annotator", value, NULL) < 0 ? PMN_ERR_NOMEM : 0;
}

/* South's view of a position's value: +1 South wins, -1 North, 0 draw or
 * not known; 2 where it is not exact. */
static int south_view(const pmn_value *v, int side)
{
    if (!v->exact)
        return 2;
    return side == PMN_SOUTH ? v->outcome : -v->outcome;
}

int pmn_annotate_record(pmn_record *rec, const pmn_setup *setup, pmn_searcher *s,
                        const pmn_annotate_options *o)
{
    const char *annotator = pmn_record_tag(rec, "Annotator");
    if (annotator && strncmp(annotator, "pmn", 3) == 0)
        for (size_t i = 0; i < rec->main.nmoves; i++)
            strip_move(&rec->main.moves[i]);
    if (set_annotator(rec, o->annotator) < 0)
        return PMN_ERR_NOMEM;
    if (setup->status != PMN_SETUP_READY)
        return 0;
    pmn_replay *replay = pmn_replay_new(rec, setup, NULL, NULL);
    if (!replay)
        return PMN_ERR_NOMEM;
    const pmn_played_line *line = pmn_replay_main(replay);
    const pmn_check_result *res = pmn_replay_result(replay);
    const pmn_rules *r = &setup->rules;
    size_t n = 0;
    while (n < line->nmoves && line->moves[n].replayed)
        n++;
    int *view = calloc(n + 1, sizeof *view);
    unsigned *plies = calloc(n + 1, sizeof *plies);
    pmn_position *history = malloc((n + 1) * sizeof *history);
    struct side_tally tally[2];
    int rc = view && plies && history ? 0 : PMN_ERR_NOMEM;
    memset(tally, 0, sizeof tally);
    size_t since = 0;
    int claims = 0;
    for (size_t i = 0; i < rec->main.nmoves; i++)
        claims |= rec->main.moves[i].claim >= 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const pmn_position *before = i ? &line->moves[i - 1].after : &setup->start;
        pmn_analysis a;
        history[i] = *before;
        pmn_search_limits l = o->limits;
        l.all_moves = 1;
        if (pmn_analyse(s, before, history + since, i - since, &l, NULL, NULL, &a) < 0) {
            rc = PMN_ERR_NOMEM;
            break;
        }
        view[i] = south_view(&a.value, before->to_move);
        plies[i] = a.value.plies;
        rc = judge(&rec->main.moves[i], r, before, line->moves[i].mover, &a, o, claims,
                   &tally[line->moves[i].mover]);
        const pmn_move_report *rep = &line->moves[i].report;
        if (rep->captured || rep->given || rep->stored)
            since = i + 1;
    }
    /* The end: who won, as the board says. */
    int final = res->outcome == PMN_SOUTH_WINS ? 1 : res->outcome == PMN_NORTH_WINS ? -1 : 0;
    if (rc == 0 && n > 0 && final != 0 && !res->stopped && res->ending != PMN_END_NONE) {
        size_t d = n;
        while (d > 0 && view[d - 1] == final)
            d--;
        if (d < n) {
            char text[128];
            if (plies[d])
                snprintf(text, sizeof text, "from here %s wins by force in %u plies",
                         pmn_side_name(final > 0 ? PMN_SOUTH : PMN_NORTH), plies[d]);
            else   /* the margin solver's values count no plies */
                snprintf(text, sizeof text, "from here %s wins by force",
                         pmn_side_name(final > 0 ? PMN_SOUTH : PMN_NORTH));
            /* On the move after which it was decided; the first, if before it. */
            rc = add_comment_text(&rec->main.moves[d ? d - 1 : 0], text);
        }
    }
    for (int side = 0; rc == 0 && n > 0 && side < 2; side++) {
        char text[200];
        const struct side_tally *t = &tally[side];
        if (!t->moves)
            continue;
        snprintf(text, sizeof text, SUMMARY "%s, %u move%s: %u mistake%s, %u blunder%s, "
                 "average loss %.1f seeds", pmn_side_name(side), t->moves,
                 t->moves == 1 ? "" : "s", t->mistakes, t->mistakes == 1 ? "" : "s",
                 t->blunders, t->blunders == 1 ? "" : "s", (double)t->loss / t->moves);
        rc = add_comment_text(&rec->main.moves[n - 1], text);
    }
    free(view);
    free(plies);
    free(history);
    pmn_replay_free(replay);
    return rc;
}
