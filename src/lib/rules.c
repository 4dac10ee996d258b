/* rules.c - rule sets as data, and the "name,key=value" specification. */
#include "pmn.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* A built-in rule set is only a filled-in pmn_rules. */
static const pmn_rules builtin[] = {
    {
        .name = "hawalis",
        .rows = 2, .holes_per_row = 7, .pits = 14, .seeds = 2, .min_lift = 2,
        .cycle = PMN_CYCLE_OWN_ROWS, .laps = PMN_LAPS_RELAY,
        .singleton = PMN_SINGLETON_INTO_EMPTY,
        .capture = PMN_CAPTURE_FRONT_AND_BACK,
        .endless = PMN_ENDLESS_DRAW,
        .no_move = PMN_NO_MOVE_LOSES,
    },
};

/* One rule option: its key, and its values in enum order. */
struct option_def {
    const char *key;
    size_t field;                 /* offset of an enum field in pmn_rules */
    const char *values[4];
};

static const struct option_def options[] = {
    { "capture", offsetof(pmn_rules, capture), { "front-and-back", "front", NULL } },
    { "endless", offsetof(pmn_rules, endless), { "draw", "lose", NULL } },
};

const char *pmn_rules_options_help(void)
{
    return "  capture=front-and-back|front   what a capture takes (default front-and-back)\n"
           "  endless=draw|lose              an endless move draws, or loses for its maker\n";
}

static const pmn_rules *find_builtin(const char *name, size_t len)
{
    for (size_t i = 0; i < COUNT(builtin); i++)
        if (strlen(builtin[i].name) == len && strncmp(builtin[i].name, name, len) == 0)
            return &builtin[i];
    return NULL;
}

static const struct option_def *find_option(const char *key, size_t len)
{
    for (size_t i = 0; i < COUNT(options); i++)
        if (strlen(options[i].key) == len && strncmp(options[i].key, key, len) == 0)
            return &options[i];
    return NULL;
}

/* option -> KEY '=' VALUE */
static int apply_option(pmn_rules *r, const char *spec, const char *tok,
                        size_t len, pmn_error *err)
{
    const char *eq = memchr(tok, '=', len);
    size_t col = (size_t)(tok - spec) + 1;
    const struct option_def *o = find_option(tok, (size_t)(eq - tok));
    if (!o)
        return pmn_fail(err, PMN_ERR_UNKNOWN, col, "unknown rule option '%.*s' (options: capture, endless)",
                        (int)(eq - tok), tok);
    const char *val = eq + 1;
    size_t vlen = len - (size_t)(val - tok);
    for (int i = 0; o->values[i]; i++) {
        if (strlen(o->values[i]) == vlen && strncmp(o->values[i], val, vlen) == 0) {
            *(int *)((char *)r + o->field) = i;
            return 0;
        }
    }
    char choices[64] = "";
    for (int i = 0; o->values[i]; i++) {
        if (i) strcat(choices, ", ");
        strcat(choices, o->values[i]);
    }
    return pmn_fail(err, PMN_ERR_UNKNOWN, (size_t)(val - spec) + 1,
                    "unknown value '%.*s' for rule option %s (values: %s)",
                    (int)vlen, val, o->key, choices);
}

/* spec -> [NAME] {',' option}  |  option {',' option} */
static int parse_spec(pmn_rules *r, const char *spec, int may_name, pmn_error *err)
{
    const char *tok = spec;
    for (int first = 1;; first = 0) {
        size_t len = strcspn(tok, ",");
        size_t col = (size_t)(tok - spec) + 1;
        if (len == 0)
            return pmn_fail(err, PMN_ERR_SYNTAX, col, "empty item in rule specification");
        if (memchr(tok, '=', len)) {
            if (apply_option(r, spec, tok, len, err) < 0)
                return -1;
        } else if (first && may_name) {
            const pmn_rules *b = find_builtin(tok, len);
            if (!b)
                return pmn_fail(err, PMN_ERR_UNKNOWN, col, "unknown rule set '%.*s' (known: hawalis)",
                                (int)len, tok);
            *r = *b;
        } else {
            return pmn_fail(err, PMN_ERR_SYNTAX, col,
                            "'%.*s' is not an option of the form KEY=VALUE", (int)len, tok);
        }
        if (tok[len] == '\0')
            return 0;
        tok += len + 1;
    }
}

int pmn_rules_init(pmn_rules *r, const char *spec, pmn_error *err)
{
    *r = builtin[0];
    if (spec == NULL || *spec == '\0')
        return 0;
    return parse_spec(r, spec, 1, err);
}

int pmn_rules_apply(pmn_rules *r, const char *spec, pmn_error *err)
{
    return parse_spec(r, spec, 1, err);
}

size_t pmn_rules_format(const pmn_rules *r, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "%s", r->name);
    for (size_t i = 0; i < COUNT(options); i++) {
        int v = *(const int *)((const char *)r + options[i].field);
        n += (size_t)snprintf(buf + (n < size ? n : size), n < size ? size - n : 0,
                              ",%s=%s", options[i].key, options[i].values[v]);
    }
    return n;
}
