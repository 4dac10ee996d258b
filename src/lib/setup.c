/* setup.c - a record set up for replay: its rules and its start, worked
 * out here and nowhere else. */
#include "pmn.h"
#include "util.h"

#include <ctype.h>
#include <string.h>

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
        if (strchr(name, '=') || pmn_rules_apply(r, name, &err) < 0) {
            char known[256];
            pmn_rules_builtin_names(known, sizeof known);
            pmn_report(fn, ctx, PMN_E108, game->line, game->col,
                       "the Game tag names '%s', which pmn does not know (known: %s)",
                       game->value, known);
            return -1;
        }
    }
    if (spec && pmn_rules_apply(r, spec->value, &err) < 0) {
        pmn_report(fn, ctx, PMN_E109, spec->line, spec->col, "Rules tag \"%s\", column %zu: %s",
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
            pmn_report(fn, ctx, PMN_E405, rec->line, rec->col,
                       "the rules option '%s' cannot apply to this game's rules (%s): %s",
                       o->specs[i], r->name, err.message);
            return PMN_SETUP_UNKNOWN_RULES;
        }
    }
    return PMN_SETUP_READY;
}

/* The Position tag, or the opening position; a record that says it starts
 * from a set-up position it does not give ([SetUp "1"] without a Position,
 * or [Position "?"]), as problems whose diagrams are lost do, is noted. */
static pmn_setup_status setup_start(const pmn_record *rec, const pmn_rules *r,
                                    pmn_position *p, pmn_diag_fn fn, void *ctx)
{
    const pmn_tag *t = pmn_record_find_tag(rec, "Position");
    const pmn_tag *setup = pmn_record_find_tag(rec, "SetUp");
    pmn_error err;
    pmn_position_start(r, p);
    if ((!t && setup && strcmp(setup->value, "1") == 0) || (t && strcmp(t->value, "?") == 0)) {
        const pmn_tag *at = t ? t : setup;
        pmn_report(fn, ctx, PMN_N215, at->line, at->col,
                   "the game starts from a set-up position that the record does not give: "
                   "its moves cannot be verified");
        return PMN_SETUP_NO_START;
    }
    if (!t)
        return PMN_SETUP_READY;
    if (pmn_position_parse(r, t->value, p, &err) < 0) {
        pmn_report(fn, ctx, PMN_E114, t->line, t->value_col + (unsigned)err.column - 1,
                   "Position tag: %s", err.message);
        pmn_position_start(r, p);
        return PMN_SETUP_BAD_START;
    }
    return PMN_SETUP_READY;
}

int pmn_setup_record(const pmn_record *rec, const pmn_setup_options *o, pmn_setup *s,
                     pmn_diag_fn fn, void *ctx)
{
    s->status = setup_rules(rec, o, &s->rules, fn, ctx);
    if (s->status != PMN_SETUP_READY) {
        /* Unknown rules: Hawalis names the holes when the record is written. */
        pmn_rules_init(&s->rules, NULL, NULL);
        pmn_position_start(&s->rules, &s->start);
        return (int)s->status;
    }
    s->status = setup_start(rec, &s->rules, &s->start, fn, ctx);
    return (int)s->status;
}

unsigned pmn_move_number(int start_side, unsigned turn)
{
    return (turn + (unsigned)(start_side == PMN_NORTH)) / 2 + 1;
}
