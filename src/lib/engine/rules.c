/* rules.c - rule sets as data: options, the "name,key=value" specification,
 * and which combinations of mechanisms the engine can play. */
#include "pmn.h"
#include "rulespec.h"
#include "../base/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One rule option: its key, and either its values in enum order or, for a
 * number, its range. */
struct option_def {
    const char *key;
    size_t field;                 /* offset of an int-sized field in pmn_rules */
    const char *values[10];       /* NULL-terminated; none: a number */
    unsigned min, max;
    const char *help;
};

#define YES_NO { "no", "yes", NULL }

static const struct option_def options[] = {
    { "rows", offsetof(pmn_rules, rows), { NULL }, 1, 2,
      "rows each player owns" },
    { "holes", offsetof(pmn_rules, holes_per_row), { NULL }, 1, PMN_MAX_SIDE_PITS,
      "holes in a row" },
    { "seeds", offsetof(pmn_rules, seeds), { NULL }, 0, PMN_MAX_SEEDS,
      "seeds in each hole at the start" },
    { "min-lift", offsetof(pmn_rules, min_lift), { NULL }, 1, 1000,
      "fewer seeds move only when no hole holds as many" },
    { "cycle", offsetof(pmn_rules, cycle), { "own-rows", "both-sides", NULL }, 0, 0,
      "the holes a sowing goes round" },
    { "laps", offsetof(pmn_rules, laps), { "relay", "single", NULL }, 0, 0,
      "a last seed in an occupied hole is lifted again (relay), or not" },
    { "stores", offsetof(pmn_rules, stores), YES_NO, 0, 0,
      "the mover sows into his own store" },
    { "skip-origin", offsetof(pmn_rules, skip_origin), YES_NO, 0, 0,
      "a lap of the board passes over the hole emptied" },
    { "singleton", offsetof(pmn_rules, singleton), { "into-empty", NULL }, 0, 0,
      "where a hole below min-lift may sow" },
    { "capture", offsetof(pmn_rules, capture),
      { "front-and-back", "front", "opposite", "opposite-always", "two-three", "fours",
        "none", "one-two-three", NULL }, 0, 0, "what a capture takes" },
    { "extra", offsetof(pmn_rules, extra), { "none", "store", "capture", NULL }, 0, 0,
      "what earns another sowing in the same turn" },
    { "feed", offsetof(pmn_rules, feed), { "no", "yes", "if-possible", NULL }, 0, 0,
      "an opponent without seeds must be given some (if-possible: where no move\n"
      "      gives him any, any move is played)" },
    { "grand-slam", offsetof(pmn_rules, grand_slam),
      { "allowed", "refused", "no-capture", "last-resort", NULL }, 0, 0,
      "a capture of all the opponent's seeds" },
    { "goal", offsetof(pmn_rules, goal), { "immobilise", "most-seeds", NULL }, 0, 0,
      "who wins" },
    { "majority", offsetof(pmn_rules, majority), YES_NO, 0, 0,
      "more than half of all seeds wins at once" },
    { "no-move", offsetof(pmn_rules, no_move), { "loses", "pass", "collect", NULL }, 0, 0,
      "a player to move who cannot" },
    { "either-empty", offsetof(pmn_rules, either_empty), YES_NO, 0, 0,
      "the game ends when either side's holes are empty" },
    { "last-seeds", offsetof(pmn_rules, last_seeds),
      { "play-on", "lottery", "previous-capturer", "first-three", NULL }, 0, 0,
      "who gets the last four seeds" },
    { "majority-sweep", offsetof(pmn_rules, majority_sweep), YES_NO, 0, 0,
      "a majority win sends the seeds left at once to the side they lie on" },
    { "repetition", offsetof(pmn_rules, repetition),
      { "draw", "uncounted", "own-side", "plays-on", NULL }, 0, 0,
      "a repeated position ends the game (or plays on)" },
    { "repetition-one-side", offsetof(pmn_rules, one_side_plays_on),
      { "ends", "plays-on", NULL }, 0, 0,
      "a repetition with every seed on one side ends the game as others do, or plays on" },
    { "endless", offsetof(pmn_rules, endless), { "draw", "lose", NULL }, 0, 0,
      "an endless move draws, or loses for its maker" },
};

static int *field(pmn_rules *r, const struct option_def *o)
{
    return (int *)((char *)r + o->field);
}

static int value_of(const pmn_rules *r, const struct option_def *o)
{
    return *(const int *)((const char *)r + o->field);
}

/* Every option's default: what a rule set leaves unsaid. */
void rules_defaults(pmn_rules *r)
{
    memset(r, 0, sizeof *r);
    r->rows = 1;
    r->holes_per_row = 6;
    r->seeds = 4;
    r->min_lift = 1;
    r->cycle = PMN_CYCLE_BOTH_SIDES;
    r->laps = PMN_LAPS_SINGLE;
    r->capture = PMN_CAPTURE_NONE;
    r->goal = PMN_GOAL_MOST_SEEDS;
    r->no_move = PMN_NO_MOVE_COLLECT;
    r->pits = r->rows * r->holes_per_row;
}

size_t pmn_rules_options_help(char *buf, size_t size)
{
    textbuf t;
    textbuf_init(&t, buf, size);
    for (size_t i = 0; i < COUNT(options); i++) {
        const struct option_def *o = &options[i];
        textbuf_add(&t, "  %s=", o->key);
        if (!o->values[0])
            textbuf_add(&t, "%u..%u", o->min, o->max);
        for (int v = 0; o->values[v]; v++)
            textbuf_add(&t, "%s%s", v ? "|" : "", o->values[v]);
        textbuf_add(&t, "\n      %s\n", o->help);
    }
    return t.n;
}

static const struct option_def *find_option(const char *key, size_t len)
{
    for (size_t i = 0; i < COUNT(options); i++)
        if (strlen(options[i].key) == len && strncmp(options[i].key, key, len) == 0)
            return &options[i];
    return NULL;
}

int pmn_rules_set(pmn_rules *r, const char *key, size_t klen, const char *val, size_t vlen,
                  pmn_error *err)
{
    const struct option_def *o = find_option(key, klen);
    if (!o) {
        /* The one it is likely a slip for, else the list of them all. */
        const char *keys[COUNT(options)];
        char word[64], all[512];
        textbuf t;
        for (size_t i = 0; i < COUNT(options); i++)
            keys[i] = options[i].key;
        snprintf(word, sizeof word, "%.*s", (int)klen, key);
        const char *guess = pmn_did_you_mean(word, keys, COUNT(options));
        if (guess)
            return util_fail(err, PMN_ERR_UNKNOWN, 1, "unknown rule option '%s'; did you mean "
                             "'%s'?", word, guess);
        textbuf_init(&t, all, sizeof all);
        for (size_t i = 0; i < COUNT(options); i++)
            textbuf_add(&t, "%s%s", i ? ", " : "", options[i].key);
        return util_fail(err, PMN_ERR_UNKNOWN, 1, "unknown rule option '%s' (the options: %s; "
                         "pmn rules options says what each does)", word, all);
    }
    if (!o->values[0]) {
        char *end;
        char num[16];
        size_t digits = 0;
        while (digits < vlen && val[digits] >= '0' && val[digits] <= '9')
            digits++;
        if (vlen == 0 || digits < vlen)
            return util_fail(err, PMN_ERR_SYNTAX, 1, "rule option %s takes a number, not '%.*s'",
                             o->key, (int)vlen, val);
        if (vlen >= sizeof num)
            return util_fail(err, PMN_ERR_RANGE, 1, "rule option %s is %.*s, outside %u..%u",
                             o->key, (int)vlen, val, o->min, o->max);
        memcpy(num, val, vlen);
        num[vlen] = '\0';
        unsigned long v = strtoul(num, &end, 10);
        if (v < o->min || v > o->max)
            return util_fail(err, PMN_ERR_RANGE, 1, "rule option %s is %lu, outside %u..%u",
                             o->key, v, o->min, o->max);
        *field(r, o) = (int)v;
        r->pits = r->rows * r->holes_per_row;
        return 0;
    }
    for (int i = 0; o->values[i]; i++) {
        if (strlen(o->values[i]) == vlen && strncmp(o->values[i], val, vlen) == 0) {
            *field(r, o) = i;
            return 0;
        }
    }
    char choices[128] = "";
    for (int i = 0; o->values[i]; i++) {
        if (i) strcat(choices, ", ");
        strcat(choices, o->values[i]);
    }
    return util_fail(err, PMN_ERR_UNKNOWN, 1,
                     "unknown value '%.*s' for rule option %s (values: %s)",
                     (int)vlen, val, o->key, choices);
}

/* option -> KEY '=' VALUE */
static int apply_option(pmn_rules *r, const char *spec, const char *tok,
                        size_t len, pmn_error *err)
{
    const char *eq = memchr(tok, '=', len);
    const char *val = eq + 1;
    if (pmn_rules_set(r, tok, (size_t)(eq - tok), val, len - (size_t)(val - tok), err) == 0)
        return 0;
    if (err)   /* say where in the specification */
        err->column = (size_t)((err->code == PMN_ERR_UNKNOWN && !find_option(tok, (size_t)(eq - tok))
                                ? tok : val) - spec) + 1;
    return -1;
}

static int parse_spec(pmn_rules *r, const char *spec, int may_name, pmn_error *err);

/* ---- other programs' readings ------------------------------------------ */

/* How other programs play the games pmn knows, where they differ from the
 * rule sets' own texts: each reading a few options, applied over whatever
 * game a record names (their records hold the game: Oware or Kalah). */
static const pmn_reading readings[] = {
    { "openspiel", "majority-sweep=yes", "OpenSpiel (DeepMind's open_spiel)",
      "OpenSpiel's oware and mancala games: however the game ends, the seeds left on "
      "the board go to the side they lie on, even when a side has passed half of the "
      "seeds: they are taken at once, with the winning move (oware.cc). Its Kalah is "
      "pmn's kalah." },
    { "playstrategy", "repetition-one-side=plays-on", "PlayStrategy (playstrategy.org)",
      "PlayStrategy's Oware (the Aalina engine's Abapa): a repeated position ends the "
      "game, each side taking the seeds on its side, but not when every seed lies on "
      "one side: then the game plays on (strategygames, its issue 509)." },
    { "ludii", "repetition=plays-on", "Ludii",
      "Ludii's Oware: a repeated position does not end the game; a cycle ends only by "
      "the players' agreement, which the record gives as its result." },
    { "vying", "feed=if-possible", "vying (the Ruby games library)",
      "vying's Oware (oware.rb): a player must give a starved opponent seeds where some "
      "move does, and where none does plays any move; the game ends when the player to "
      "move has no seeds, or on a repeated position, each side taking its own (with "
      "majority=no: no 25-seed win). Its Kalah is pmn's kalah." },
};

const pmn_reading *pmn_rules_reading(size_t i)
{
    return i < COUNT(readings) ? &readings[i] : NULL;
}

const pmn_reading *pmn_rules_reading_named(const char *name, size_t len)
{
    for (size_t i = 0; i < COUNT(readings); i++)
        if (strlen(readings[i].name) == len && strncmp(readings[i].name, name, len) == 0)
            return &readings[i];
    return NULL;
}

/* sized -> NAME '(' HOLES ',' SEEDS ')' {',' option}: Kalah(6,4), as the
 * literature names the sizes of a game. */
static int parse_sized(pmn_rules *r, const char *spec, size_t len, pmn_error *err)
{
    char name[32], holes[24], seeds[24];
    int used = 0;
    if (len >= sizeof name)
        return util_fail(err, PMN_ERR_UNKNOWN, 1, "unknown rule set '%.*s'", (int)len, spec);
    memcpy(name, spec, len);
    name[len] = '\0';
    /* As digits, so that the options' own range checks see any number. */
    if (sscanf(spec + len, "(%23[0-9],%23[0-9])%n", holes, seeds, &used) != 2 || used == 0
        || (spec[len + (size_t)used] != '\0' && spec[len + (size_t)used] != ','))
        return util_fail(err, PMN_ERR_SYNTAX, len + 1, "expected (HOLES,SEEDS) after '%s'", name);
    char sized[96];
    snprintf(sized, sizeof sized, "%s,holes=%s,seeds=%s", name, holes, seeds);
    if (parse_spec(r, sized, 1, err) < 0) {
        if (err)
            err->column = err->column > len ? len + 1 : err->column;
        return -1;
    }
    const char *rest = spec + len + (size_t)used;
    return *rest ? parse_spec(r, rest + 1, 0, err) : 0;
}

/* spec -> [NAME | sized] {',' option}  |  option {',' option} */
static int parse_spec(pmn_rules *r, const char *spec, int may_name, pmn_error *err)
{
    const char *tok = spec;
    for (int first = 1;; first = 0) {
        size_t len = strcspn(tok, first ? ",(" : ",");
        size_t col = (size_t)(tok - spec) + 1;
        if (first && may_name && tok[len] == '(')
            return parse_sized(r, spec, len, err);
        if (len == 0)
            return util_fail(err, PMN_ERR_SYNTAX, col, "empty item in rule specification");
        const pmn_reading *reading = NULL;
        if (memchr(tok, '=', len)) {
            if (apply_option(r, spec, tok, len, err) < 0)
                return -1;
        } else if ((reading = pmn_rules_reading_named(tok, len)) != NULL) {
            if (parse_spec(r, reading->options, 0, err) < 0) {
                if (err)
                    err->column = col;
                return -1;
            }
        } else if (first && may_name) {
            char name[32] = "";
            if (len < sizeof name) {
                memcpy(name, tok, len);
                name[len] = '\0';
            }
            if (len >= sizeof name || pmn_rules_builtin(name, r) < 0) {
                char known[256];
                const char *names[32];
                size_t n = 0;
                for (; n < rulespec_builtin_count && n < 32; n++)
                    names[n] = rulespec_builtin[n].name;
                const char *guess = len < sizeof name ? pmn_did_you_mean(name, names, n) : NULL;
                pmn_rules_builtin_names(known, sizeof known);
                if (guess)
                    return util_fail(err, PMN_ERR_UNKNOWN, col, "unknown rule set '%.*s'; did "
                                     "you mean '%s'? (known: %s)", (int)len, tok, guess, known);
                return util_fail(err, PMN_ERR_UNKNOWN, col, "unknown rule set '%.*s' (known: %s)",
                                 (int)len, tok, known);
            }
        } else {
            char names[128];
            textbuf t;
            textbuf_init(&t, names, sizeof names);
            for (size_t i = 0; i < COUNT(readings); i++)
                textbuf_add(&t, "%s%s", i ? ", " : "", readings[i].name);
            return util_fail(err, PMN_ERR_SYNTAX, col,
                             "'%.*s' is not an option of the form KEY=VALUE, nor a program's "
                             "reading (%s)", (int)len, tok, names);
        }
        if (tok[len] == '\0')
            break;
        tok += len + 1;
    }
    return pmn_rules_check(r, err);
}

int pmn_rules_init(pmn_rules *r, const char *spec, pmn_error *err)
{
    if (pmn_rules_builtin("hawalis", r) < 0)
        return util_fail(err, PMN_ERR_UNKNOWN, 0, "the built-in rule set hawalis is broken");
    if (spec == NULL || *spec == '\0')
        return 0;
    return parse_spec(r, spec, 1, err);
}

int pmn_rules_apply(pmn_rules *r, const char *spec, pmn_error *err)
{
    pmn_rules save = *r;
    if (parse_spec(r, spec, 1, err) < 0) {
        *r = save;
        return -1;
    }
    return 0;
}

int rules_acyclic(const pmn_rules *r)
{
    return r->stores && r->cycle == PMN_CYCLE_BOTH_SIDES && r->laps == PMN_LAPS_SINGLE
        && r->capture != PMN_CAPTURE_FOURS;
}

/* The name, then each option that differs from the built-in set of that
 * name (every option, if there is none). */
size_t pmn_rules_format(const pmn_rules *r, char *buf, size_t size)
{
    pmn_rules base;
    int known = pmn_rules_builtin(r->name, &base) == 0;
    textbuf t;
    textbuf_init(&t, buf, size);
    textbuf_add(&t, "%s", r->name);
    for (size_t i = 0; i < COUNT(options); i++) {
        int v = value_of(r, &options[i]);
        if (known && v == value_of(&base, &options[i]))
            continue;
        if (options[i].values[0])
            textbuf_add(&t, ",%s=%s", options[i].key, options[i].values[v]);
        else
            textbuf_add(&t, ",%s=%d", options[i].key, v);
    }
    return t.n;
}

int pmn_rules_value_name(const pmn_rules *r, const char *key, char *buf, size_t size)
{
    const struct option_def *o = find_option(key, strlen(key));
    if (!o)
        return -1;
    int v = value_of(r, o);
    textbuf t;
    textbuf_init(&t, buf, size);
    if (o->values[0])
        textbuf_add(&t, "%s", o->values[v]);
    else
        textbuf_add(&t, "%d", v);
    return (int)t.n;
}

/* The word of an option that takes words (its values are static). */
static const char *word_of(const pmn_rules *r, const char *key)
{
    const struct option_def *o = find_option(key, strlen(key));
    return o->values[value_of(r, o)];
}

/* Which combinations the engine plays: each mechanism assumes a board. */
int pmn_rules_check(const pmn_rules *r, pmn_error *err)
{
    int two_row = r->cycle == PMN_CYCLE_BOTH_SIDES;
    int hawalis_capture = r->capture == PMN_CAPTURE_FRONT_AND_BACK
                       || r->capture == PMN_CAPTURE_FRONT_ONLY;
    if (r->rows * r->holes_per_row > PMN_MAX_SIDE_PITS)
        return util_fail(err, PMN_ERR_RANGE, 0, "%u rows of %u holes: more than %d holes a side",
                         r->rows, r->holes_per_row, PMN_MAX_SIDE_PITS);
    if (2ul * r->rows * r->holes_per_row * r->seeds > PMN_MAX_SEEDS)
        return util_fail(err, PMN_ERR_RANGE, 0, "more than %u seeds in all", PMN_MAX_SEEDS);
    if (r->holes_per_row < 2 && r->rows != 1)
        return util_fail(err, PMN_ERR_RANGE, 0, "rows of one hole need rows=1");
    if (two_row && r->rows != 1)
        return util_fail(err, PMN_ERR_RANGE, 0, "cycle=both-sides needs rows=1");
    if (!two_row && r->rows != 2)
        return util_fail(err, PMN_ERR_RANGE, 0, "cycle=own-rows needs rows=2");
    if (hawalis_capture && two_row)
        return util_fail(err, PMN_ERR_RANGE, 0, "capture=%s needs cycle=own-rows",
                         word_of(r, "capture"));
    if (!hawalis_capture && r->capture != PMN_CAPTURE_NONE && !two_row)
        return util_fail(err, PMN_ERR_RANGE, 0, "capture=%s needs cycle=both-sides",
                         word_of(r, "capture"));
    if (r->stores && !two_row)
        return util_fail(err, PMN_ERR_RANGE, 0, "stores=yes needs cycle=both-sides");
    if (r->laps == PMN_LAPS_RELAY && (r->stores || r->skip_origin))
        return util_fail(err, PMN_ERR_RANGE, 0, "laps=relay cannot go with %s",
                         r->stores ? "stores=yes" : "skip-origin=yes");
    if (r->min_lift > 1 && two_row)
        return util_fail(err, PMN_ERR_RANGE, 0, "min-lift above 1 needs cycle=own-rows");
    /* feed=if-possible takes relay laps: where no move feeds (Hawalis's own
     * rows never do) it asks nothing, so that the vying reading applies
     * over every game. */
    if ((r->feed == PMN_FEED_YES || r->grand_slam == PMN_GRAND_SLAM_REFUSED
         || r->grand_slam == PMN_GRAND_SLAM_LAST_RESORT) && r->laps == PMN_LAPS_RELAY)
        return util_fail(err, PMN_ERR_RANGE, 0, "%s needs laps=single",
                         r->feed == PMN_FEED_YES ? "feed=yes"
                         : r->grand_slam == PMN_GRAND_SLAM_REFUSED ? "grand-slam=refused"
                                                                   : "grand-slam=last-resort");
    if (r->extra == PMN_EXTRA_STORE && !r->stores)
        return util_fail(err, PMN_ERR_RANGE, 0, "extra=store needs stores=yes");
    if (r->last_seeds != PMN_LAST_PLAY_ON && r->capture != PMN_CAPTURE_FOURS)
        return util_fail(err, PMN_ERR_RANGE, 0, "last-seeds=%s needs capture=fours",
                         word_of(r, "last-seeds"));
    if (r->goal == PMN_GOAL_IMMOBILISE && r->no_move != PMN_NO_MOVE_LOSES)
        return util_fail(err, PMN_ERR_RANGE, 0, "goal=immobilise needs no-move=loses");
    if (r->goal == PMN_GOAL_MOST_SEEDS && r->no_move == PMN_NO_MOVE_LOSES)
        return util_fail(err, PMN_ERR_RANGE, 0, "no-move=loses needs goal=immobilise");
    return 0;
}

/* ---- the built-in rule sets -------------------------------------------- */

/* Other names the same rules go by. */
static const struct alias {
    const char *alias, *name;
} aliases[] = {
    { "abapa", "oware" },
    { "kalaha", "kalah" },
};

static const struct builtin_rule_spec *builtin_named(const char *name)
{
    for (size_t i = 0; i < COUNT(aliases); i++)
        if (strcmp(aliases[i].alias, name) == 0)
            name = aliases[i].name;
    for (size_t i = 0; i < rulespec_builtin_count; i++)
        if (strcmp(rulespec_builtin[i].name, name) == 0)
            return &rulespec_builtin[i];
    return NULL;
}

/* Each built-in set, made from its specification once a process (by the
 * first caller, whichever thread that is), then copied. */
#define MAX_BUILTINS 16
static pmn_rules builtin_rules[MAX_BUILTINS];
static int builtin_ok[MAX_BUILTINS];
static pthread_once_t builtins_once = PTHREAD_ONCE_INIT;

static void make_builtins(void)
{
    for (size_t i = 0; i < rulespec_builtin_count && i < MAX_BUILTINS; i++) {
        pmn_rules *r = &builtin_rules[i];
        rules_defaults(r);
        snprintf(r->name, sizeof r->name, "%s", rulespec_builtin[i].name);
        builtin_ok[i] = parse_spec(r, rulespec_builtin[i].options, 0, NULL) == 0;
    }
}

int pmn_rules_builtin(const char *name, pmn_rules *r)
{
    const struct builtin_rule_spec *b = builtin_named(name);
    size_t i = b ? (size_t)(b - rulespec_builtin) : MAX_BUILTINS;
    pthread_once(&builtins_once, make_builtins);
    if (i >= MAX_BUILTINS || !builtin_ok[i])
        return -1;
    *r = builtin_rules[i];
    return 0;
}

size_t pmn_rules_builtin_names(char *buf, size_t size)
{
    textbuf t;
    textbuf_init(&t, buf, size);
    for (size_t i = 0; i < rulespec_builtin_count; i++)
        textbuf_add(&t, "%s%s", i ? ", " : "", rulespec_builtin[i].name);
    return t.n;
}

/* ---- the rules in words ------------------------------------------------ */

static const char *capture_words(const pmn_rules *r)
{
    switch (r->capture) {
    case PMN_CAPTURE_FRONT_AND_BACK:
        return "a last seed in an empty front-row hole takes the facing front hole, if it "
               "has seeds, and the back hole behind it";
    case PMN_CAPTURE_FRONT_ONLY:
        return "a last seed in an empty front-row hole takes the facing front hole, if it "
               "has seeds";
    case PMN_CAPTURE_OPPOSITE:
        return "a last seed in an own empty hole takes itself and the facing hole, if that "
               "has seeds";
    case PMN_CAPTURE_OPPOSITE_ALWAYS:
        return "a last seed in an own empty hole takes itself and the facing hole, even an "
               "empty one";
    case PMN_CAPTURE_TWO_THREE:
        return "a last seed that makes 2 or 3 in an opponent's hole takes it and the unbroken "
               "run of 2s and 3s before it on his side";
    case PMN_CAPTURE_ONE_TWO_THREE:
        return "a last seed that makes 1, 2 or 3 in an opponent's hole takes it and the "
               "unbroken run of 1s, 2s and 3s before it on his side";
    case PMN_CAPTURE_FOURS:
        return "a hole that reaches 4 during the sowing goes at once to its owner; 4 made by "
               "the last seed go to the mover and end the sowing";
    default:
        return "none";
    }
}

size_t pmn_rules_describe(const pmn_rules *r, char *buf, size_t size)
{
    textbuf p;
    int two_row = r->cycle == PMN_CYCLE_BOTH_SIDES;
    textbuf_init(&p, buf, size);
    textbuf_add(&p, "Board:    %u rows of %u holes, %u seed%s a hole%s\n", 2 * r->rows,
        r->holes_per_row, r->seeds, r->seeds == 1 ? "" : "s",
        r->stores ? ", and a store for each player" : "");
    textbuf_add(&p, "Sowing:   counterclockwise, %s%s; %s%s%s\n",
        two_row ? "round the whole board" : "round the player's own rows only",
        r->stores ? ", through the mover's own store (never the opponent's)" : "",
        r->laps == PMN_LAPS_RELAY ? "a last seed in an occupied hole is lifted again"
                                  : "one lap",
        r->skip_origin ? "; a lap passes over the hole emptied" : "",
        r->min_lift > 1 ? "; a hole below the lift minimum moves only when no hole has "
                          "as many, and only into an empty hole" : "");
    textbuf_add(&p, "Capture:  %s", capture_words(r));
    if (r->capture == PMN_CAPTURE_TWO_THREE || r->capture == PMN_CAPTURE_ONE_TWO_THREE
        || r->grand_slam != PMN_GRAND_SLAM_ALLOWED)
        textbuf_add(&p, "; a capture of all the opponent's seeds is %s",
            r->grand_slam == PMN_GRAND_SLAM_REFUSED ? "refused"
            : r->grand_slam == PMN_GRAND_SLAM_NO_CAPTURE ? "played but takes nothing"
            : r->grand_slam == PMN_GRAND_SLAM_LAST_RESORT
            ? "refused while another move is legal, and takes them when none is"
            : "allowed");
    textbuf_add(&p, "\nTurn:     %s%s; a player who cannot move %s\n",
        r->extra == PMN_EXTRA_STORE ? "a last seed in the own store earns another sowing"
        : r->extra == PMN_EXTRA_CAPTURE ? "a capture by the last seed earns another sowing"
        : "one sowing a turn",
        r->feed == PMN_FEED_IF_POSSIBLE
        ? "; an opponent without seeds must be given some where a move can, and where none "
          "can, any move is played"
        : r->feed ? "; an opponent without seeds must be given some" : "",
        r->no_move == PMN_NO_MOVE_LOSES ? "loses"
        : r->no_move == PMN_NO_MOVE_PASS ? "passes (the game ends when neither can)"
        : "ends the game, and the seeds left go to the side they lie on");
    textbuf_add(&p, "End:      %s%s%s",
        r->goal == PMN_GOAL_IMMOBILISE ? "who leaves the opponent no move wins"
                                       : "most seeds win",
        !r->majority ? ""
        : r->majority_sweep ? "; more than half of them wins at once, the seeds left going "
                              "to the side they lie on"
        : "; more than half of them wins at once",
        r->either_empty ? "; the game ends when either side's holes are empty, each taking "
                          "the seeds on his side" : "");
    if (r->last_seeds != PMN_LAST_PLAY_ON)
        textbuf_add(&p, "; the last four seeds %s",
            r->last_seeds == PMN_LAST_LOTTERY ? "are drawn by lot"
            : r->last_seeds == PMN_LAST_PREVIOUS ? "go to who captured last"
            : "go to who first captured with a last seed into a hole of three");
    textbuf_add(&p, "; a repeated position %s%s; an endless sowing %s\n",
        r->repetition == PMN_REPETITION_DRAW ? "draws"
        : r->repetition == PMN_REPETITION_UNCOUNTED ? "ends the game, the seeds left uncounted"
        : r->repetition == PMN_REPETITION_PLAYS_ON ? "does not end the game"
        : "ends the game, the seeds left going to the side they lie on",
        r->one_side_plays_on && r->repetition != PMN_REPETITION_PLAYS_ON
        ? ", but not when every seed lies on one side" : "",
        r->endless == PMN_ENDLESS_DRAW ? "draws" : "loses for its maker");
    return p.n;
}
