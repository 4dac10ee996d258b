/* setup.c - a record set up for replay: its rules and its start, worked
 * out here and nowhere else. */
#include "pmn.h"
#include "../base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The Game tag names a built-in set, in any case; the Rules tag gives
 * options over it.  Returns 0, or -1 (reported) if they name no rules. */
static int tag_rules(const pmn_record *rec, pmn_rules *r, pmn_diag_fn fn, void *ctx)
{
    const pmn_tag *game = pmn_record_find_tag(rec, "Game");
    const pmn_tag *spec = pmn_record_find_tag(rec, "Rules");
    pmn_error err;
    if (game) {
        char name[32];
        size_t n = 0;
        /* In any case, and with the accents of the games' French names
         * (Awalé) dropped. */
        for (const char *c = game->value; *c && n < sizeof name - 1; c++) {
            if ((unsigned char)c[0] == 0xC3 && c[1] && strchr("\xA8\xA9\xAA\x88\x89\x8A", c[1])) {
                name[n++] = 'e';
                c++;
            } else {
                name[n++] = (char)tolower((unsigned char)*c);
            }
        }
        name[n] = '\0';
        /* A name, not options nor another program's reading. */
        if (strchr(name, '=') || strchr(name, ',') || pmn_rules_reading_named(name, n)
            || pmn_rules_apply(r, name, &err) < 0) {
            char known[256];
            pmn_rules_builtin_names(known, sizeof known);
            diag_report(fn, ctx, PMN_E108, game->line, game->col,
                        "the Game tag names '%s', which pmn does not know (known: %s)",
                        game->value, known);
            return -1;
        }
    }
    if (spec && pmn_rules_apply(r, spec->value, &err) < 0) {
        diag_report(fn, ctx, PMN_E109, spec->line, spec->col, "Rules tag \"%s\", column %zu: %s",
                    spec->value, err.column, err.message);
        return -1;
    }
    return 0;
}

static pmn_setup_status setup_rules(const pmn_record *rec, const pmn_setup_options *o,
                                    pmn_rules *r, pmn_diag_fn fn, void *ctx)
{
    pmn_error err;
    pmn_rules_init(r, NULL, NULL);
    if (o && o->rules)
        *r = *o->rules;
    else if (tag_rules(rec, r, fn, ctx) < 0)
        return PMN_SETUP_UNKNOWN_RULES;
    for (size_t i = 0; o && i < o->nspecs; i++) {
        if (pmn_rules_apply(r, o->specs[i], &err) < 0) {
            diag_report(fn, ctx, PMN_E405, rec->line, rec->col,
                        "the rules option '%s' cannot apply to this game's rules (%s): %s",
                        o->specs[i], r->name, err.message);
            return PMN_SETUP_UNKNOWN_RULES;
        }
    }
    return PMN_SETUP_READY;
}

/* The position o gives a game of this Event: the one keyed by it ("Problem
 * 2=POSITION", the key in any case, spaces around it dropped), else the
 * one for every game; NULL if none. */
static const char *position_for_event(const pmn_setup_options *o, const char *event)
{
    for (size_t i = 0; event && i < o->npositions; i++) {
        const char *k = o->positions[i], *eq = strchr(k, '=');
        if (!eq)
            continue;
        while (*k == ' ')
            k++;
        size_t n = (size_t)(eq - k);
        while (n && k[n - 1] == ' ')
            n--;
        const char *e = event;
        while (*e == ' ')
            e++;
        size_t m = strlen(e);
        while (m && e[m - 1] == ' ')
            m--;
        if (n == m && strncasecmp(k, e, n) == 0)
            return eq + 1 + strspn(eq + 1, " ");
    }
    return o->position;
}

/* The Position tag, or the opening position; a record that says it starts
 * from a set-up position it does not give ([SetUp "1"] without a Position,
 * or [Position "?"]), as problems whose diagrams are lost do, is noted. */
static pmn_setup_status setup_start(const pmn_record *rec, const pmn_setup_options *o,
                                    pmn_rules *r, pmn_position *p, int *given_start,
                                    pmn_diag_fn fn, void *ctx)
{
    const pmn_tag *t = pmn_record_find_tag(rec, "Position");
    const pmn_tag *setup = pmn_record_find_tag(rec, "SetUp");
    pmn_error err;
    pmn_position_start(r, p);
    const char *given = o ? position_for_event(o, pmn_record_tag(rec, "Event")) : NULL;
    if ((!t || strcmp(t->value, "?") == 0) && given) {
        /* --position: the start the record leaves out. */
        if (pmn_position_parse_sized(r, given, p, &err) < 0) {
            diag_report(fn, ctx, PMN_E114, rec->line, rec->col, "the position given (%s), "
                        "column %zu: %s", given, err.column, err.message);
            pmn_position_start(r, p);
            return PMN_SETUP_BAD_START;
        }
        *given_start = 1;
        return PMN_SETUP_READY;
    }
    if ((!t && setup && strcmp(setup->value, "1") == 0) || (t && strcmp(t->value, "?") == 0)) {
        const pmn_tag *at = t ? t : setup;
        diag_report(fn, ctx, PMN_N215, at->line, at->col,
                    "the game starts from a set-up position that the record does not give: "
                    "its moves cannot be verified");
        return PMN_SETUP_NO_START;
    }
    if (!t)
        return PMN_SETUP_READY;
    /* A KGP literal states its holes: no Rules tag needs to. */
    if (pmn_position_parse_sized(r, t->value, p, &err) < 0) {
        diag_report(fn, ctx, PMN_E114, t->line, t->value_col + (unsigned)err.column - 1,
                    "Position tag: %s", err.message);
        pmn_position_start(r, p);
        return PMN_SETUP_BAD_START;
    }
    return PMN_SETUP_READY;
}

int pmn_setup_record(const pmn_record *rec, const pmn_setup_options *o, pmn_setup *s,
                     pmn_diag_fn fn, void *ctx)
{
    s->given = 0;
    s->assumed = !(o && (o->rules || o->nspecs)) && !pmn_record_find_tag(rec, "Game")
              && !pmn_record_find_tag(rec, "Rules");
    s->status = setup_rules(rec, o, &s->rules, fn, ctx);
    if (s->status != PMN_SETUP_READY) {
        /* Unknown rules: Hawalis names the holes when the record is written. */
        pmn_rules_init(&s->rules, NULL, NULL);
        pmn_position_start(&s->rules, &s->start);
        return (int)s->status;
    }
    s->status = setup_start(rec, o, &s->rules, &s->start, &s->given, fn, ctx);
    return (int)s->status;
}

int pmn_setup_tags(const pmn_record *rec, const pmn_setup *s, char *game, size_t gsize,
                   char *rules, size_t rsize, char *position, size_t psize)
{
    const pmn_tag *t = pmn_record_find_tag(rec, "Position");
    pmn_setup own;
    pmn_rules base;
    char a[512], b[512];
    int changed = 0;
    *game = *rules = *position = '\0';
    if (t)
        snprintf(position, psize, "%s", t->value);
    if (s->status == PMN_SETUP_UNKNOWN_RULES)
        return 0;
    pmn_setup_record(rec, NULL, &own, NULL, NULL);
    pmn_rules_format(&s->rules, a, sizeof a);
    pmn_rules_format(&own.rules, b, sizeof b);
    if ((own.status == PMN_SETUP_UNKNOWN_RULES || strcmp(a, b) != 0)
        && pmn_rules_builtin(s->rules.name, &base) == 0) {
        setup_game_name(&s->rules, game, gsize);
        const char *comma = strchr(a, ',');
        snprintf(rules, rsize, "%s", comma ? comma + 1 : "");
        changed = 1;
    }
    pmn_position opening;
    pmn_position_start(&s->rules, &opening);
    /* A foreign form (KGP, Aualé's, PlayStrategy's) stays as written. */
    if (s->status == PMN_SETUP_READY && (t ? pmn_position_form_of(t->value) == PMN_POSITION_PMN
                                           : memcmp(&opening, &s->start, sizeof opening) != 0))
        pmn_position_format(&s->rules, &s->start, position, psize);
    return changed;
}

int pmn_move_numbered(const pmn_played *pl, const pmn_played *before, int interrupted,
                      int joins)
{
    if (pl->continues)
        return !joins;
    return pl->mover == PMN_SOUTH || interrupted || !before || before->mover == pl->mover
        || before->number != pl->number;
}

unsigned pmn_move_number(int start_side, unsigned turn)
{
    return (turn + (unsigned)(start_side == PMN_NORTH)) / 2 + 1;
}

void setup_game_name(const pmn_rules *r, char *buf, size_t size)
{
    snprintf(buf, size, "%c%s", r->name[0] - 'a' + 'A', r->name + 1);
}

void setup_default_game(char *buf, size_t size)
{
    pmn_rules r;
    pmn_rules_init(&r, NULL, NULL);
    setup_game_name(&r, buf, size);
}
