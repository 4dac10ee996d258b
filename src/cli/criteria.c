/* criteria.c - which games of an archive a command takes (select, and the
 * commands that take the same options: duplicates, split, stats): game
 * numbers, tags exact or by PCRE2 pattern, players, dates, results, rule
 * sets, how a game ended, its length, its moves and positions, and what
 * checking it found.  A game is taken when every criterion holds (or none,
 * with --invert). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "cli.h"
#include "options.h"
#include "io.h"
#include "archive.h"
#include "criteria.h"

#include <assert.h>
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <strings.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

enum kind {
    K_GAMES, K_TAG, K_WINNER, K_DATE, K_RULE_SET, K_ENDING, K_MOVES, K_OPENING,
    K_CONTAINS, K_POSITION, K_CLEAN, K_ERRORS, K_CODE
};

/* How a tag's value is compared with the criterion's. */
enum op { OP_EQ, OP_NE, OP_MATCH, OP_NOMATCH, OP_LT, OP_LE, OP_GT, OP_GE, OP_NAME };

/* The ways a game ends, as --ending names them (bits). */
static const char *const endings[] = {
    "no-seeds", "no-move", "endless", "repetition", "majority", "last-seeds", "resigned",
    "unfinished", NULL
};

/* A pattern that backtracks without end is cut short (matches()). */
#define MATCH_LIMIT 100000u
#define MATCH_HEAP 20000u
#define MAX_PLIES 64

struct criterion {
    enum kind kind;
    const char *text;         /* as given, for messages */
    const char *tags[2];      /* K_TAG: the tag (a player: South and North) */
    char *name;               /* --tag: its name, which tags[0] points to */
    enum op op;
    char *value;
    pcre2_code *re;
    pcre2_match_context *mc;  /* with re: the limits of a match (matches()) */
    struct ranges ranges;     /* K_GAMES, K_MOVES */
    unsigned bits;            /* K_ENDING */
    int winner;               /* K_WINNER: a pmn_outcome, or -1: the player `value` */
    char *from, *to;          /* K_DATE */
    char plies[MAX_PLIES][4]; /* K_OPENING, K_CONTAINS: letters */
    unsigned nplies;
    int codes[32];            /* K_CODE */
    unsigned ncodes;
};

static int bad(const char *cmd, const char *option, const char *arg, const char *why)
{
    char buf[256];
    return usage_error(cmd, "--%s '%s': %s", option, escaped(arg, buf, sizeof buf), why);
}

static struct criterion *add(struct criteria *c, const char *cmd, enum kind k,
                             const char *text)
{
    if (c->n == MAX_CRITERIA) {
        usage_error(cmd, "more than %d criteria", MAX_CRITERIA);
        return NULL;
    }
    struct criterion *cr = calloc(1, sizeof *cr);
    if (!cr) {
        usage_error(cmd, "out of memory");
        return NULL;
    }
    cr->kind = k;
    cr->text = text;
    c->list[c->n++] = cr;
    return cr;
}

/* ranges -> range {',' range};  range -> N | N '-' [N] | '-' N */
int ranges_parse(struct ranges *r, const char *s)
{
    r->n = 0;
    while (*s) {
        char *end;
        unsigned long lo = 0, hi = (unsigned long)-1;
        if (r->n == MAX_RANGES)
            return -1;
        if (*s >= '0' && *s <= '9') {
            lo = strtoul(s, &end, 10);
            s = end;
            if (*s != '-')
                hi = lo;
        } else if (*s != '-') {
            return -1;
        }
        if (*s == '-') {
            s++;
            if (*s >= '0' && *s <= '9') {
                hi = strtoul(s, &end, 10);
                s = end;
            } else if (lo == 0) {
                return -1;   /* "-" alone */
            }
        }
        if (lo > hi || (*s && *s != ','))
            return -1;
        r->lo[r->n] = lo;
        r->hi[r->n++] = hi;
        if (*s == ',' && !*++s)
            return -1;
    }
    return r->n ? 0 : -1;
}

int ranges_has(const struct ranges *r, unsigned long v)
{
    for (unsigned i = 0; i < r->n; i++)
        if (v >= r->lo[i] && v <= r->hi[i])
            return 1;
    return 0;
}

int ranges_past(const struct ranges *r, unsigned long v)
{
    for (unsigned i = 0; i < r->n; i++)
        if (v <= r->hi[i])
            return 0;
    return 1;
}

static const char game_ranges_why[] = "expected game numbers and ranges, such as 12 or 3-7,20-";

int game_ranges(struct ranges *r, const char *cmd, const char *arg)
{
    return ranges_parse(r, arg) == 0 ? 0 : bad(cmd, "game", arg, game_ranges_why);
}

int game_turn(struct diag_sink *s, const struct ranges *games, unsigned long next)
{
    if (games && ranges_past(games, next))
        return -1;
    s->mute = games && !ranges_has(games, next);
    return !s->mute;
}

int source_next_asked(struct source *src, struct diag_sink *s, const struct ranges *games,
                      unsigned long *n, pmn_record *rec)
{
    int asked, rc = 0;
    while ((asked = game_turn(s, games, *n + 1)) >= 0 && (rc = source_next(src, rec)) > 0) {
        ++*n;
        if (asked)
            return 1;
        pmn_record_free(rec);
    }
    s->mute = 0;
    return asked < 0 ? 0 : rc;
}

static int compile(struct criterion *cr, const char *cmd, const char *option, const char *pattern)
{
    int code;
    PCRE2_SIZE at;
    cr->re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &code, &at,
                           NULL);
    if (cr->re) {
        if (!(cr->mc = pcre2_match_context_create(NULL)))
            return usage_error(cmd, "out of memory");
        pcre2_set_match_limit(cr->mc, MATCH_LIMIT);
        pcre2_set_heap_limit(cr->mc, MATCH_HEAP);
        return 0;
    }
    char why[256], msg[300];
    pcre2_get_error_message(code, (PCRE2_UCHAR *)why, sizeof why);
    snprintf(msg, sizeof msg, "bad pattern at offset %lu: %s", (unsigned long)at, why);
    return bad(cmd, option, pattern, msg);
}

/* A value of a shorthand: a name as people type it (OP_NAME), with a
 * leading '=' exact, with a leading '~' a pattern. */
static int value_of(struct criterion *cr, const char *cmd, const char *option, const char *arg)
{
    if (arg[0] == '~') {
        cr->op = OP_MATCH;
        return compile(cr, cmd, option, arg + 1);
    }
    cr->op = arg[0] == '=' ? OP_EQ : OP_NAME;
    cr->value = strdup(arg + (arg[0] == '='));
    return cr->value ? 0 : usage_error(cmd, "out of memory");
}

/* name -> the value's start, or a word's in it, in any case: "Gering" and
 * "ralf" find "Ralf Gering", "khamis said" finds "Khamis Said", as
 * pgn-extract's tag files match the start of a name (and a surname too). */
static int name_matches(const char *v, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = v; *s; s++)
        if ((s == v || !isalnum((unsigned char)s[-1])) && strncasecmp(s, name, n) == 0)
            return 1;
    return 0;
}

/* tag -> NAME OP VALUE;  OP -> '=' | '!=' | '~' | '!~' | '<' | '<=' | '>' | '>=' */
static int parse_tag(struct criterion *cr, const char *cmd, const char *arg)
{
    size_t n = 0;
    while ((arg[n] >= 'A' && arg[n] <= 'Z') || (arg[n] >= 'a' && arg[n] <= 'z')
           || (arg[n] >= '0' && arg[n] <= '9') || arg[n] == '_')
        n++;
    static const struct { const char *s; enum op op; } ops[] = {
        { "!=", OP_NE }, { "!~", OP_NOMATCH }, { "<=", OP_LE }, { ">=", OP_GE },
        { "=", OP_EQ }, { "~", OP_MATCH }, { "<", OP_LT }, { ">", OP_GT },
    };
    const char *s = arg + n;
    size_t k = 0;
    while (k < sizeof ops / sizeof ops[0] && strncmp(s, ops[k].s, strlen(ops[k].s)) != 0)
        k++;
    if (n == 0 || k == sizeof ops / sizeof ops[0])
        return bad(cmd, "tag", arg, "expected NAME=VALUE, NAME~PATTERN, NAME!=VALUE, "
                   "NAME!~PATTERN, or NAME<VALUE (<=, >, >=)");
    if (!(cr->name = strndup(arg, n)))
        return usage_error(cmd, "out of memory");
    cr->tags[0] = cr->name;
    cr->op = ops[k].op;
    s += strlen(ops[k].s);
    if (cr->op == OP_MATCH || cr->op == OP_NOMATCH)
        return compile(cr, cmd, "tag", s);
    cr->value = strdup(s);
    return cr->value ? 0 : usage_error(cmd, "out of memory");
}

/* moves -> { [NUMBER '.' ['..']] LETTER } with blanks, ';', ',' or '-'
 * between: the plies of a line, in the letter notation. */
static int parse_plies(struct criterion *cr, const char *cmd, const char *option,
                       const char *arg)
{
    const char *s = arg;
    for (;;) {
        while (*s == ' ' || *s == ';' || *s == ',' || *s == '-' || *s == '\t')
            s++;
        if (!*s)
            break;
        const char *t = s;
        while (*s >= '0' && *s <= '9')
            s++;
        if (s > t) {   /* a move number */
            if (*s != '.')
                return bad(cmd, option, arg, "expected holes in the letter notation "
                           "(a-n, A-N for Hawalis), with or without move numbers");
            while (*s == '.')
                s++;
            continue;
        }
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))
            || (s[1] && !strchr(" ;,-\t", s[1])))
            return bad(cmd, option, arg, "expected holes in the letter notation "
                       "(a-n, A-N for Hawalis), with or without move numbers");
        if (cr->nplies == MAX_PLIES)
            return bad(cmd, option, arg, "more than 64 plies");
        cr->plies[cr->nplies][0] = *s++;
        cr->plies[cr->nplies++][1] = '\0';
    }
    return cr->nplies ? 0 : bad(cmd, option, arg, "no moves given");
}

/* A position string must read under some rule set pmn knows. */
static int check_position(const char *cmd, const char *arg)
{
    char names[256];
    pmn_rules_builtin_names(names, sizeof names);
    pmn_error first = { 0 };
    for (char *name = strtok(names, ", "); name; name = strtok(NULL, ", ")) {
        pmn_rules r;
        pmn_position p;
        pmn_error err;
        if (pmn_rules_builtin(name, &r) < 0)
            continue;
        if (pmn_position_parse(&r, arg, &p, &err) == 0)
            return 0;
        if (!first.message[0])
            first = err;
    }
    return usage_error_at(cmd, "--reaches", arg, &first);
}

static int parse_codes(struct criterion *cr, const char *cmd, const char *arg)
{
    const char *s = arg;
    while (*s) {
        char *end;
        if (strchr("EWNFewnf", *s) && s[1])
            s++;
        long v = strtol(s, &end, 10);
        if (end == s || v <= 0 || v >= MAX_DIAG_CODE || !pmn_diag_lookup((int)v)
            || (*end && *end != ',') || cr->ncodes == 32)
            return bad(cmd, "code", arg, "expected diagnostic codes such as E205,W118 "
                       "(pmn check --list-codes)");
        cr->codes[cr->ncodes++] = (int)v;
        s = *end ? end + 1 : end;
    }
    return cr->ncodes ? 0 : bad(cmd, "code", arg, "no code given");
}

static int parse_endings(struct criterion *cr, const char *cmd, const char *arg)
{
    const char *s = arg;
    while (*s) {
        size_t n = strcspn(s, ",");
        unsigned k = 0;
        while (endings[k] && (strlen(endings[k]) != n || strncmp(endings[k], s, n) != 0))
            k++;
        if (!endings[k])
            return bad(cmd, "ending", arg, "expected no-seeds, no-move, endless, repetition, "
                       "majority, last-seeds, resigned or unfinished");
        cr->bits |= 1u << k;
        s += n + (s[n] == ',');
    }
    return cr->bits ? 0 : bad(cmd, "ending", arg, "no ending given");
}

static int parse_date(struct criterion *cr, const char *cmd, const char *arg)
{
    const char *dots = strstr(arg, "..");
    size_t n = dots ? (size_t)(dots - arg) : strlen(arg);
    cr->from = strndup(arg, n);
    cr->to = strdup(dots ? dots + 2 : arg);
    if (!cr->from || !cr->to)
        return usage_error(cmd, "out of memory");
    for (const char *s = arg; *s; s++)
        if (!((*s >= '0' && *s <= '9') || *s == '.'))
            return bad(cmd, "date", arg, "expected YYYY[.MM[.DD]], or FROM..TO with either "
                       "left out");
    if (!cr->from[0] && !cr->to[0])
        return bad(cmd, "date", arg, "no date given");
    /* Compared on the characters both bounds give: 2026..2025 holds no
     * date, which is a slip, not a criterion. */
    size_t a = strlen(cr->from), b = strlen(cr->to);
    if (a && b && strncmp(cr->from, cr->to, a < b ? a : b) > 0)
        return bad(cmd, "date", arg, "FROM is after TO: no date is in that range");
    return 0;
}

static enum kind kind_of(int key)
{
    switch (key) {
    case KEY_GAME: return K_GAMES;
    case KEY_DATE: return K_DATE;
    case KEY_WINNER: return K_WINNER;
    case KEY_RULE_SET: return K_RULE_SET;
    case KEY_ENDING: return K_ENDING;
    case KEY_MOVES: return K_MOVES;
    case KEY_OPENING: return K_OPENING;
    case KEY_CONTAINS: return K_CONTAINS;
    case KEY_POSITION: return K_POSITION;
    case KEY_CLEAN: return K_CLEAN;
    case KEY_ERRORS: return K_ERRORS;
    case KEY_CODE: return K_CODE;
    default: return K_TAG;   /* tag, player, south, north, event, result */
    }
}

/* One criterion of key: 0, or the usage error's exit status (a bad value
 * is named). */
static int criteria_option(struct criteria *c, const char *cmd, int key, const char *arg)
{
    struct criterion *cr;
    switch (key) {
    case KEY_INVERT: c->invert = 1; return 0;
    case KEY_ANY_SIDE: c->any_side = 1; return 0;
    case KEY_IGNORE_CAPTURED: c->ignore_captured = 1; return 0;
    case KEY_VARIATIONS: c->variations = 1; return 0;
    case KEY_CRITERIA: return criteria_file(c, cmd, arg);
    case KEY_GAME: case KEY_TAG: case KEY_PLAYER: case KEY_SOUTH: case KEY_NORTH:
    case KEY_EVENT: case KEY_DATE: case KEY_RESULT: case KEY_WINNER: case KEY_RULE_SET:
    case KEY_ENDING: case KEY_MOVES: case KEY_OPENING: case KEY_CONTAINS: case KEY_POSITION:
    case KEY_CLEAN: case KEY_ERRORS: case KEY_CODE:
        break;
    default:
        assert(!"a criterion's key");
        return EXIT_USAGE;
    }
    if (!(cr = add(c, cmd, kind_of(key), arg)))
        return EXIT_USAGE;
    switch (key) {
    case KEY_GAME: return game_ranges(&cr->ranges, cmd, arg);
    case KEY_MOVES:
        return ranges_parse(&cr->ranges, arg) == 0 ? 0
             : bad(cmd, "moves", arg, "expected a number of moves or a range, such as 40-60");
    case KEY_TAG: return parse_tag(cr, cmd, arg);
    case KEY_PLAYER:
        cr->tags[1] = "North";
        /* fall through */
    case KEY_SOUTH:
        cr->tags[0] = "South";
        return value_of(cr, cmd, key == KEY_PLAYER ? "player" : "south", arg);
    case KEY_NORTH: cr->tags[0] = "North"; return value_of(cr, cmd, "north", arg);
    case KEY_EVENT: cr->tags[0] = "Event"; return value_of(cr, cmd, "event", arg);
    case KEY_RESULT:
        cr->tags[0] = "Result";
        if (!strcmp(arg, "1-0") || !strcmp(arg, "0-1") || !strcmp(arg, "1/2-1/2")
            || !strcmp(arg, "*")) {
            cr->op = OP_EQ;
            return (cr->value = strdup(arg)) ? 0 : usage_error(cmd, "out of memory");
        }
        return bad(cmd, "result", arg, "expected 1-0, 0-1, 1/2-1/2 or *");
    case KEY_WINNER:
        cr->winner = !strcmp(arg, "south") ? PMN_SOUTH_WINS : !strcmp(arg, "north")
                   ? PMN_NORTH_WINS : !strcmp(arg, "draw") ? PMN_DRAWN : -1;
        if (cr->winner < 0 && !arg[0])
            return bad(cmd, "winner", arg, "expected south, north, draw or a player");
        return cr->winner < 0 ? value_of(cr, cmd, "winner", arg) : 0;
    case KEY_DATE: return parse_date(cr, cmd, arg);
    case KEY_RULE_SET:
        if (!(cr->value = strdup(arg)))
            return usage_error(cmd, "out of memory");
        return 0;
    case KEY_ENDING: return parse_endings(cr, cmd, arg);
    case KEY_OPENING: return parse_plies(cr, cmd, "opening", arg);
    case KEY_CONTAINS: return parse_plies(cr, cmd, "contains", arg);
    case KEY_POSITION: return check_position(cmd, arg);
    case KEY_CODE: return parse_codes(cr, cmd, arg);
    default: return 0;   /* KEY_CLEAN, KEY_ERRORS */
    }
}

/* Text that criteria point into, freed with them; NULL if s is, or no
 * room is left. */
static char *kept(struct criteria *c, char *s)
{
    if (s && c->ntexts == c->textcap) {
        size_t cap = c->textcap ? 2 * c->textcap : 16;
        char **t = realloc(c->texts, cap * sizeof *t);
        if (!t) {
            free(s);
            return NULL;
        }
        c->texts = t;
        c->textcap = cap;
    }
    if (s)
        c->texts[c->ntexts++] = s;
    return s;
}

/* The long option of a criterion named in a criteria file. */
static const struct cli_option criteria_options[] = {
    OPT_CRITERIA_AT(criterion_option, 0, 0), OPT_END
};

int criterion_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    return criteria_option(dest, cmd, o->key, arg);
}

int criteria_file(struct criteria *c, const char *cmd, const char *path)
{
    struct diag_sink sink = { .file = path, .show_notes = 1 };
    FILE *f = open_input(path, &sink);
    char *line = NULL;        /* a line whole, however long (a PCRE2 pattern may be) */
    size_t cap = 0;
    unsigned n = 0;
    int rc = 0;
    if (!f)
        return EXIT_USAGE;
    if (c->nfiles == MAX_CRITERIA_FILES) {
        close_input(f);
        return usage_error(cmd, "more than %d criteria files", MAX_CRITERIA_FILES);
    }
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        n++;
        char *s = line, *e = line + strlen(line);
        while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        /* Kept: criteria point into it. */
        char *keep = kept(c, strdup(s));
        if (!keep) {
            rc = usage_error(cmd, "out of memory");
            break;
        }
        char *arg = keep + strcspn(keep, " \t");
        if (*arg)
            *arg++ = '\0';
        while (*arg == ' ' || *arg == '\t')
            arg++;
        /* pgn-extract's tag files: Name "value", or Name OP "value" */
        size_t vlen = strlen(arg);
        if (keep[0] >= 'A' && keep[0] <= 'Z' && vlen >= 2 && arg[vlen - 1] == '"') {
            char *q = strchr(arg, '"');
            char *tag = kept(c, malloc(strlen(keep) + vlen + 3));
            if (!tag) {
                rc = usage_error(cmd, "out of memory");
                break;
            }
            arg[vlen - 1] = '\0';
            *q = '\0';
            char *op = arg;
            while (*op == ' ')
                op++;
            char *ope = op + strlen(op);
            while (ope > op && ope[-1] == ' ')
                *--ope = '\0';
            /* Players and events as pgn-extract matches them, by a name's
             * start; its White and Black are South and North. */
            static const struct { const char *tag; int key; const char *as; } names[] = {
                { "White", KEY_SOUTH, "South" }, { "Black", KEY_NORTH, "North" },
                { "South", KEY_SOUTH, NULL }, { "North", KEY_NORTH, NULL },
                { "Event", KEY_EVENT, NULL },
            };
            size_t k = 0;
            while (k < sizeof names / sizeof names[0] && strcmp(names[k].tag, keep) != 0)
                k++;
            if (k < sizeof names / sizeof names[0] && !*op) {
                if (names[k].as)
                    fprintf(stderr, "pmn %s: note: %s:%u: %s read as %s (pgn-extract's tag "
                            "files name the players White and Black)\n", cmd, path, n, keep,
                            names[k].as);
                rc = criteria_option(c, cmd, names[k].key, q + 1);
                continue;
            }
            sprintf(tag, "%s%s%s", keep, *op ? op : "=", q + 1);
            rc = criteria_option(c, cmd, KEY_TAG, tag);
            continue;
        }
        const struct cli_option *o = NULL;
        for (size_t i = 0; criteria_options[i].name; i++)
            if (strcmp(criteria_options[i].name, keep) == 0)
                o = &criteria_options[i];
        if (!o || o->key == KEY_CRITERIA) {
            rc = usage_error(cmd, "%s:%u: '%s' is not a criterion (a long option of pmn "
                             "select, without its dashes, or Tag \"value\")", path, n, keep);
        } else if (!o->arg != !*arg) {
            rc = usage_error(cmd, "%s:%u: %s %s", path, n, keep,
                             o->arg ? "needs a value" : "takes no value");
        } else {
            rc = criteria_option(c, cmd, o->key, o->arg ? arg : NULL);
        }
    }
    free(line);
    close_input(f);
    c->nfiles++;
    return rc;
}

void criteria_free(struct criteria *c)
{
    for (unsigned i = 0; i < c->n; i++) {
        struct criterion *cr = c->list[i];
        free(cr->name);
        free(cr->value);
        free(cr->from);
        free(cr->to);
        pcre2_code_free(cr->re);
        pcre2_match_context_free(cr->mc);
        free(cr);
    }
    for (size_t i = 0; i < c->ntexts; i++)
        free(c->texts[i]);
    free(c->texts);
    memset(c, 0, sizeof *c);
}

/* ---- matching ------------------------------------------------------------ */

/* A pattern that backtracks without end ('(a+)+!' on a long name) is cut
 * short: at most MATCH_LIMIT steps and MATCH_HEAP kilobytes of backtracking
 * a value, after which the value is taken as not matching and the pattern
 * reported, once, as an error (criteria_gave_up: the command's status). */

static atomic_ulong gave_up;

int job_status(const struct diag_sink *s, int strict)
{
    if (strict || s->count[PMN_FATAL])
        return exit_status(s) > EXIT_ERRORS || !criteria_gave_up() ? exit_status(s) : EXIT_ERRORS;
    return criteria_gave_up() ? EXIT_ERRORS : EXIT_CLEAN;
}

unsigned long criteria_gave_up(void)
{
    return atomic_load(&gave_up);
}

static int matches(const struct criterion *cr, const char *s)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(cr->re, NULL);
    int rc = md ? pcre2_match(cr->re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, cr->mc) : -1;
    pcre2_match_data_free(md);
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT
        || rc == PCRE2_ERROR_DEPTHLIMIT) {
        if (atomic_fetch_add(&gave_up, 1) == 0) {
            char buf[256];
            fprintf(stderr, "pmn: error: the pattern of '%s' gave up on a value of %zu bytes "
                    "(it backtracks without end); such values are taken as not matching\n",
                    escaped(cr->text, buf, sizeof buf), strlen(s));
        }
    }
    return rc >= 0;
}

static int compare_value(const struct criterion *cr, const char *v)
{
    if (cr->op == OP_NE)
        return !v || strcmp(v, cr->value) != 0;
    if (cr->op == OP_NOMATCH)
        return !v || !matches(cr, v);
    if (!v)
        return 0;
    if (cr->op == OP_EQ)
        return strcmp(v, cr->value) == 0;
    if (cr->op == OP_NAME)
        return name_matches(v, cr->value);
    if (cr->op == OP_MATCH)
        return matches(cr, v);
    double a, b;
    int d = is_decimal(v, &a) && is_decimal(cr->value, &b) ? (a > b) - (a < b)
          : strcmp(v, cr->value);
    return cr->op == OP_LT ? d < 0 : cr->op == OP_LE ? d <= 0 : cr->op == OP_GT ? d > 0 : d >= 0;
}

static int tag_holds(const struct criterion *cr, const struct game *g)
{
    const char *v = strcmp(cr->tags[0], "Result") == 0 ? game_result(g) : game_tag(g, cr->tags[0]);
    if (compare_value(cr, v))
        return 1;
    return cr->tags[1] && compare_value(cr, game_tag(g, cr->tags[1]));
}

/* The date, compared on as many characters as the bound gives: a date
 * with unknown parts there ('?') is in no range. */
static int date_holds(const struct criterion *cr, const struct game *g)
{
    const char *d = game_tag(g, "Date");
    if (!d)
        return 0;
    const char *bounds[2] = { cr->from, cr->to };
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(bounds[i]);
        if (!n)
            continue;
        if (strlen(d) < n || memchr(d, '?', n))
            return 0;
        int c = strncmp(d, bounds[i], n);
        if (i == 0 ? c < 0 : c > 0)
            return 0;
    }
    return 1;
}

static pmn_outcome written_outcome(const struct game *g)
{
    pmn_outcome o;
    const char *r = game_result(g);
    return r && pmn_outcome_parse(r, &o) == 0 ? o : PMN_ONGOING;
}

static int winner_holds(const struct criterion *cr, const struct game *g)
{
    pmn_outcome o = written_outcome(g);
    if (cr->winner >= 0)
        return (int)o == cr->winner;
    if (o != PMN_SOUTH_WINS && o != PMN_NORTH_WINS)
        return 0;
    const char *who = game_tag(g, o == PMN_SOUTH_WINS ? "South" : "North");
    return compare_value(cr, who);
}

static int ending_holds(const struct criterion *cr, const struct game *g)
{
    unsigned k;
    if (g->state == GAME_ENDED) {
        static const pmn_ending order[] = { PMN_END_NO_SEEDS, PMN_END_NO_MOVE, PMN_END_ENDLESS,
                                            PMN_END_REPETITION, PMN_END_MAJORITY,
                                            PMN_END_LAST_SEEDS };
        for (k = 0; k < 6 && order[k] != g->facts.ending; k++)
            ;
    } else {
        k = written_outcome(g) != PMN_ONGOING ? 6 : 7;   /* resigned, unfinished */
    }
    return cr->bits >> k & 1;
}

/* Does ply i of the main line name the hole of cr->plies[j]? */
static int same_ply(const struct game *g, size_t i, const char *letter)
{
    const pmn_played *pl = &pmn_replay_main(g->replay)->moves[i];
    char name[8];
    pmn_hole_name(&pmn_replay_setup(g->replay)->rules, PMN_NOTATION_LETTERS, pl->side,
                  g->rec->main.moves[i].hole, name, sizeof name);
    return strcmp(name, letter) == 0;
}

static int plies_hold(const struct criterion *cr, const struct game *g)
{
    size_t n = g->rec->main.nmoves;
    size_t last = cr->kind == K_OPENING ? 0 : n < cr->nplies ? 0 : n - cr->nplies;
    for (size_t at = 0; at <= last && at + cr->nplies <= n; at++) {
        unsigned j = 0;
        while (j < cr->nplies && same_ply(g, at + j, cr->plies[j]))
            j++;
        if (j == cr->nplies)
            return 1;
    }
    return 0;
}

int criteria_gives_captured(const char *text)
{
    const char *sp = strchr(text, ' ');
    return sp && strchr(sp + 1, ' ') != NULL;
}

int criteria_same_holes(const pmn_rules *r, const pmn_position *a, const pmn_position *b)
{
    return memcmp(a->pit[0], b->pit[0], sizeof a->pit[0][0] * r->pits) == 0
        && memcmp(a->pit[1], b->pit[1], sizeof a->pit[0][0] * r->pits) == 0;
}

int criteria_same_position(const struct criteria *c, const char *text, const pmn_rules *r,
                           const pmn_position *want, const pmn_position *p)
{
    if (!c->any_side && p->to_move != want->to_move)
        return 0;
    if (criteria_gives_captured(text) && !c->ignore_captured
        && (p->captured[0] != want->captured[0] || p->captured[1] != want->captured[1]))
        return 0;
    return criteria_same_holes(r, want, p);
}

/* --variations: a walk that stops (ABORT) at a ply of a variation that
 * reaches the position. */
struct in_variations {
    const struct criteria *c;
    const char *text;
    const pmn_rules *r;
    const pmn_position *want;
};

static int variation_reaches(void *ctx, pmn_walk_node *n)
{
    struct in_variations *v = ctx;
    if (n->in->depth == 0 || !n->before || !n->played->replayed)
        return PMN_WALK_CONTINUE;
    return criteria_same_position(v->c, v->text, v->r, v->want, &n->played->after)
           ? PMN_WALK_ABORT : PMN_WALK_CONTINUE;
}

/* The string is read under each game's rules (threads share criteria). */
static int position_holds(const struct criteria *c, const struct criterion *cr,
                          const struct game *g)
{
    const pmn_rules *r = &pmn_replay_setup(g->replay)->rules;
    pmn_position want;
    pmn_error err;
    if (g->state >= GAME_UNKNOWN_RULES || pmn_position_parse(r, cr->text, &want, &err) < 0)
        return 0;
    const pmn_played_line *line = pmn_replay_main(g->replay);
    if (criteria_same_position(c, cr->text, r, &want, &pmn_replay_result(g->replay)->start))
        return 1;
    for (size_t i = 0; i < line->nmoves && line->moves[i].replayed; i++)
        if (criteria_same_position(c, cr->text, r, &want, &line->moves[i].after))
            return 1;
    if (!c->variations || !g->rec)
        return 0;
    /* --variations: each ply of each variation the replay played. */
    static const pmn_walker walker = { NULL, NULL, variation_reaches, NULL, NULL, NULL, 0, 1, 0 };
    struct in_variations v = { c, cr->text, r, &want };
    return pmn_walk(g->rec, g->replay, &walker, &v) == PMN_WALK_ABORT;
}

static int holds(const struct criteria *c, const struct criterion *cr, const struct game *g)
{
    switch (cr->kind) {
    case K_GAMES: return ranges_has(&cr->ranges, g->number);
    case K_TAG: return tag_holds(cr, g);
    case K_WINNER: return winner_holds(cr, g);
    case K_DATE: return date_holds(cr, g);
    case K_RULE_SET: return strcmp(g->rules, cr->value) == 0;
    case K_ENDING: return ending_holds(cr, g);
    case K_MOVES: return ranges_has(&cr->ranges, g->facts.moves);
    case K_OPENING: case K_CONTAINS: return plies_hold(cr, g);
    case K_POSITION: return position_holds(c, cr, g);
    case K_CLEAN: return !g->count[PMN_ERROR] && !g->count[PMN_WARNING] && !g->count[PMN_FATAL];
    case K_ERRORS: return g->count[PMN_ERROR] + g->count[PMN_FATAL] > 0;
    case K_CODE:
        for (unsigned i = 0; i < cr->ncodes; i++)
            if (game_has_code(g, cr->codes[i]))
                return 1;
        return 0;
    }
    return 0;
}

int criteria_match(const struct criteria *c, const struct game *g)
{
    for (unsigned i = 0; i < c->n; i++)
        if (!holds(c, c->list[i], g))
            return c->invert;
    return !c->invert;
}

int criteria_from_tags(const struct criteria *c, const char *const *tags, size_t ntags)
{
    for (unsigned i = 0; i < c->n; i++) {
        const struct criterion *cr = c->list[i];
        switch (cr->kind) {
        case K_GAMES: case K_WINNER: case K_DATE: case K_RULE_SET: case K_ENDING: case K_MOVES:
        case K_CLEAN: case K_ERRORS: case K_CODE:
            continue;
        case K_TAG:
            for (int t = 0; t < 2 && cr->tags[t]; t++) {
                size_t k = 0;
                while (k < ntags && strcmp(cr->tags[t], tags[k]) != 0)
                    k++;
                if (k == ntags)
                    return 0;
            }
            continue;
        default:
            return 0;
        }
    }
    return c->n > 0;
}

int criteria_need_moves(const struct criteria *c)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->list[i]->kind == K_OPENING || c->list[i]->kind == K_CONTAINS
            || c->list[i]->kind == K_POSITION)
            return 1;
    return 0;
}

int criteria_tags_only(const struct criteria *c)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->list[i]->kind != K_TAG && c->list[i]->kind != K_WINNER
            && c->list[i]->kind != K_DATE)
            return 0;
    return 1;
}

int criteria_need_tags(const struct criteria *c)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->list[i]->kind == K_TAG || c->list[i]->kind == K_DATE
            || (c->list[i]->kind == K_WINNER && c->list[i]->winner < 0))
            return 1;
    return 0;
}

int criteria_need_numbers(const struct criteria *c)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->list[i]->kind == K_GAMES)
            return 1;
    return 0;
}

/* ---- before reading: a game's tags alone ------------------------------- */

int criteria_rule_out(const struct criteria *c, const struct game *g)
{
    if (c->invert)
        return 0;
    for (unsigned i = 0; i < c->n; i++) {
        const struct criterion *cr = c->list[i];
        /* Only tests that a missing tag fails; the result may be written
         * after the moves instead. */
        if (cr->kind == K_TAG && cr->op != OP_NE && cr->op != OP_NOMATCH
            && strcmp(cr->tags[0], "Result") != 0 && !tag_holds(cr, g))
            return 1;
    }
    return 0;
}

const char *criteria_position(const struct criteria *c)
{
    if (c->invert)
        return NULL;
    for (unsigned i = 0; i < c->n; i++)
        if (c->list[i]->kind == K_POSITION)
            return c->list[i]->text;
    return NULL;
}

unsigned criteria_opening(const struct criteria *c, const char (**plies)[4])
{
    if (c->invert)
        return 0;
    for (unsigned i = 0; i < c->n; i++)
        if (c->list[i]->kind == K_OPENING) {
            *plies = (const char (*)[4])c->list[i]->plies;
            return c->list[i]->nplies;
        }
    return 0;
}
