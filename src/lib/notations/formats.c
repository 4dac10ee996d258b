/* formats.c - other programs' and pages' game notations, read into
 * records and written from them: OGN (Aualé), PlayStrategy's PGN, the
 * Mancala World Oware nomenclature and the Awari notation.  What they
 * share is here; how each writes a move, and its name, title, extension
 * and default game, is its descriptor's (format.h, format_NAME.c), and
 * this file's table of them is the one list of notations.
 *
 * All four are PGN-like: tags, numbered moves, {comments}, (variations),
 * judgements, a result.  They differ in how a move is written, and the
 * tags are mapped onto pmn's the same way for each: Variant is the Game tag
 * ("Oware Abapa", Aualé's name, is Oware), FEN the SetUp and Position tags
 * (pmn_position_parse reads every FEN; written in pmn's form where the
 * rules are known), P1 and P2 (PlayStrategy's) South and North, a score
 * result ("25-20", OGN's) the result it gives, with the score kept in a
 * Score tag.  A move keeps its text as written, with the side and hole it
 * names and what it claims: its capture, the hole its last seed fell in
 * (PlayStrategy, Mancala World), the seeds it sowed (Awari); the replay
 * checks each.
 *
 *   OGN            D d+2          South A-F, North a-f; +N its capture
 *   PlayStrategy   d1e2 c2a1      from and to: a1-f1 South's row, a2-f2
 *                                 North's, files from South's left
 *   Mancala World  64 53 (20)     start and end hole, 1-6 from each
 *                                 player's left; (N) the mover's total
 *   Awari          D4 d5 x 2      as OGN, with the seeds sown; x N its
 *                                 capture */
#include "format.h"
#include "../records/record.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_DEPTH 100

struct pmn_format_reader {
    pmn_format format;
    const pmn_setup_options *setup;
    FILE *f;
    pmn_diag_fn fn;
    void *ctx;
    char *text;               /* the game's lines */
    size_t len, cap;
    char *ahead;              /* a line read that begins the next game */
    size_t ahead_cap;
    long ahead_len;
    pmn_at lines;             /* lines read */
    pmn_at ahead_line;
    int failed;               /* a fatal error was said: nothing more is read */
    char buf[65536];          /* the input, read ahead of the lines */
    size_t bpos, blen;
};

/* The notations, in pmn_format's order: one table, whence every list of
 * them. */
static const struct format_desc *const descs[] = {
    &format_ogn_desc, &format_playstrategy_desc, &format_mancala_world_desc,
    &format_awari_desc,
};

const struct format_desc *format_find(pmn_format f)
{
    assert(COUNT(descs) == PMN_FORMAT_COUNT);
    return descs[(unsigned)f < COUNT(descs) ? f : 0];
}

const char *pmn_format_name(pmn_format f)
{
    return format_find(f)->name;
}

const char *pmn_format_title(pmn_format f)
{
    return format_find(f)->title;
}

const char *pmn_format_extension(pmn_format f)
{
    return format_find(f)->extension;
}

int pmn_format_from_name(const char *name, pmn_format *f)
{
    for (unsigned i = 0; i < COUNT(descs); i++)
        if (strcmp(name, descs[i]->name) == 0) {
            *f = (pmn_format)i;
            return 0;
        }
    return -1;
}

pmn_format_reader *pmn_format_reader_new(FILE *f, pmn_format format, pmn_diag_fn fn,
                                         void *ctx)
{
    pmn_format_reader *rd = calloc(1, sizeof *rd);
    if (rd) {
        rd->format = format;
        rd->f = f;
        rd->fn = fn;
        rd->ctx = ctx;
        rd->ahead_len = -1;
    }
    return rd;
}

void pmn_format_reader_set_setup(pmn_format_reader *rd, const pmn_setup_options *o)
{
    rd->setup = o;
}

void pmn_format_reader_free(pmn_format_reader *rd)
{
    if (!rd)
        return;
    free(rd->text);
    free(rd->ahead);
    free(rd);
}

static int add_text(pmn_format_reader *rd, const char *s, size_t n)
{
    if (util_reserve(&rd->text, &rd->cap, rd->len + n + 1, 4096) < 0)
        return -1;
    memcpy(rd->text + rd->len, s, n);
    rd->len += n;
    rd->text[rd->len] = '\0';
    return 0;
}

/* A line of the game, a NUL byte (which would end its text) kept as
 * U+FFFD and said, as the PMN reader does. */
static int add_line(pmn_format_reader *rd, const char *s, size_t n)
{
    const char *nul;
    while ((nul = memchr(s, '\0', n)) != NULL) {
        size_t k = (size_t)(nul - s);
        diag_report(rd->fn, rd->ctx, PMN_W130, rd->ahead_line, (unsigned)k + 1,
                    "a NUL byte, kept as U+FFFD");
        if (add_text(rd, s, k) < 0 || add_text(rd, "\xef\xbf\xbd", 3) < 0)
            return -1;
        s += k + 1;
        n -= k + 1;
    }
    return add_text(rd, s, n);
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    return s;
}

/* ---- the parts of a game ---------------------------------------------- */

static void blanks(struct cursor *c)
{
    while (c->s < c->end && isspace((unsigned char)*c->s))
        fmt_advance(c, 1);
}

/* tag -> '[' NAME '"' value '"' ']', value with \" and \\ escaped */
static void tag(struct cursor *c, pmn_record *rec)
{
    pmn_at line = c->line, col = c->col;
    const char *p = c->s + 1, *name;
    while (p < c->end && (*p == ' ' || *p == '\t'))
        p++;
    name = p;
    while (p < c->end && (isalnum((unsigned char)*p) || *p == '_'))
        p++;
    size_t nlen = (size_t)(p - name);
    while (p < c->end && (*p == ' ' || *p == '\t'))
        p++;
    if (!nlen || p >= c->end || *p != '"') {
        diag_report(c->fn, c->ctx, PMN_E105, line, col, "a malformed tag pair: a name and a "
                    "quoted value in brackets are expected");
        while (c->s < c->end && *c->s != '\n')
            fmt_advance(c, 1);
        return;
    }
    const char *v = ++p;
    char *value = malloc((size_t)(c->end - v) + 1);
    size_t n = 0;
    if (!value) {
        fmt_nomem(c);
        return;
    }
    while (p < c->end && *p != '"' && *p != '\n') {
        if (*p == '\\' && p + 1 < c->end && (p[1] == '"' || p[1] == '\\'))
            p++;
        value[n++] = *p++;
    }
    const char *close = p < c->end && *p == '"' ? p + 1 : NULL;
    while (close && close < c->end && (*close == ' ' || *close == '\t'))
        close++;
    if (!close || close >= c->end || *close != ']') {
        diag_report(c->fn, c->ctx, PMN_E105, line, col, "a malformed tag pair: its value or "
                    "its ']' is missing");
        free(value);
        while (c->s < c->end && *c->s != '\n')
            fmt_advance(c, 1);
        return;
    }
    value[n] = '\0';
    pmn_at value_col = col + (unsigned)(v - c->s);
    if (record_add_tag(rec, name, nlen, value, n, line, col, value_col) < 0)
        fmt_nomem(c);
    free(value);
    fmt_advance(c, (size_t)(close + 1 - c->s));
}

/* The tags that pmn names otherwise: Variant is the Game tag, FEN the
 * SetUp and Position tags, P1 and P2 South and North, a score the result
 * it gives and a Score tag. */
static int score_of(const char *s, unsigned long *south, unsigned long *north)
{
    char *end;
    if (!isdigit((unsigned char)*s) || strcmp(s, "1-0") == 0 || strcmp(s, "0-1") == 0)
        return -1;   /* results, as every PGN writes them */
    *south = strtoul(s, &end, 10);
    if (*end != '-' || !isdigit((unsigned char)end[1]))
        return -1;
    *north = strtoul(end + 1, &end, 10);
    return *end ? -1 : 0;
}

static const char *result_of_score(unsigned long south, unsigned long north)
{
    return south > north ? "1-0" : south < north ? "0-1" : "1/2-1/2";
}

static void map_tags(struct cursor *c, pmn_record *rec)
{
    static const char *const renamed[][2] = { { "P1", "South" }, { "P2", "North" } };
    size_t n = rec->ntags;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        pmn_tag t = rec->tags[i];
        if (strcmp(t.name, "Variant") == 0) {
            /* The Game tag, where it stands: with a Game tag besides, the
             * game's first, which a writer writes as the Variant. */
            char *name = util_strndup("Game", 4);
            int auale = strcmp(t.value, AUALE_OWARE) == 0;
            char *value = auale ? util_strndup(format_ogn_desc.game, strlen(format_ogn_desc.game))
                                : NULL;
            if (!name || (auale && !value)) {
                free(name);
                free(value);
                rc = -1;
            } else {
                free(rec->tags[i].name);
                rec->tags[i].name = name;
                if (value) {
                    free(rec->tags[i].value);
                    rec->tags[i].value = value;
                }
            }
            continue;   /* t's strings are gone: nothing else to map */
        } else if (strcmp(t.name, "FEN") == 0) {
            if (!pmn_record_find_tag(rec, "SetUp"))   /* one written stays */
                rc |= record_set_tag(rec, "SetUp", "1", &t);
            /* As written: pmn reads every FEN; put in pmn's form once the
             * rules are known (canonical_position). */
            rc |= record_set_tag(rec, "Position", t.value, &rec->tags[i]);
        } else if (strcmp(t.name, "Result") == 0
                   && pmn_record_find_tag(rec, "Result") == &rec->tags[i]) {
            /* The game's result (a second one is a tag as written). */
            unsigned long s, no;
            if (score_of(t.value, &s, &no) == 0) {
                /* A Score tag of the record's own stays as it is. */
                if (!pmn_record_tag(rec, "Score"))
                    rc |= record_set_tag(rec, "Score", t.value, &t);
                rc |= record_set_tag(rec, "Result", result_of_score(s, no), &t);
            }
        }
        for (size_t k = 0; k < COUNT(renamed); k++)
            if (strcmp(t.name, renamed[k][0]) == 0 && !pmn_record_tag(rec, renamed[k][1]))
                rc |= record_set_tag(rec, renamed[k][1], rec->tags[i].value,
                                     &rec->tags[i]);
    }
    /* Now pmn's own: not kept twice. */
    record_drop_tags(rec, "Variant");
    record_drop_tags(rec, "FEN");
    for (size_t k = 0; k < COUNT(renamed); k++)
        if (pmn_record_tag(rec, renamed[k][1]))
            record_drop_tags(rec, renamed[k][0]);
    /* The rules the notation's games are played by when their tags do
     * not say (its descriptor's). */
    const char *game = format_find(c->format)->game;
    if (game && !pmn_record_tag(rec, "Game")) {
        pmn_tag at = { NULL, NULL, rec->line, rec->col, rec->col };
        rc |= record_set_tag(rec, "Game", game, &at);
    }
    if (rc < 0)
        fmt_nomem(c);
}

/* A Position read from a FEN in pmn's form, where the rules are known (a
 * position they cannot hold stays as written, for the set-up to report). */
static void canonical_position(struct cursor *c, pmn_record *rec, const pmn_setup *setup)
{
    const pmn_tag *t = pmn_record_find_tag(rec, "Position");
    pmn_position p;
    char buf[PMN_MAX_SIDE_PITS * 2 * 7 + 32];
    if (!t || setup->status == PMN_SETUP_UNKNOWN_RULES
        || pmn_position_parse(&setup->rules, t->value, &p, NULL) < 0)
        return;
    pmn_position_format(&setup->rules, &p, buf, sizeof buf);
    if (record_set_tag(rec, "Position", buf, t) < 0)
        fmt_nomem(c);
}

/* ---- movetext ---------------------------------------------------------- */

/* Text that is none of the format's: the word it is in, said once and
 * skipped (up to a blank, a comment or a variation). */
static void unreadable(struct cursor *c, const char *what)
{
    size_t n = 1;
    while (c->s + n < c->end && !isspace((unsigned char)c->s[n]) && !strchr("{}()", c->s[n]))
        n++;
    size_t shown = n;
    if (shown > 24) {   /* cut at a character's start */
        shown = 24;
        while (shown && ((unsigned char)c->s[shown] & 0xc0) == 0x80)
            shown--;
    }
    diag_report(c->fn, c->ctx, PMN_E101, c->line, c->col, "'%.*s%s' %s: skipped", (int)shown,
                c->s, shown < n ? "..." : "", what);
    fmt_advance(c, n);
}

/* The '}' that closes the comment opened before s: not one written "\}"
 * (pmn's writers escape it so); NULL if there is none before end. */
static const char *comment_close(const char *s, const char *end)
{
    for (const char *p = s; (p = memchr(p, '}', (size_t)(end - p))) != NULL; p++)
        if (p == s || p[-1] != '\\')
            return p;
    return NULL;
}

/* comment -> '{' { CHAR | "\}" } '}' */
static int comment(struct cursor *c, pmn_line *line, pmn_move *last)
{
    pmn_at l = c->line, col = c->col;
    const char *close = comment_close(c->s + 1, c->end);
    if (!close) {
        diag_report(c->fn, c->ctx, PMN_E102, l, col, "a comment '{' that is never closed");
        close = c->end;
    }
    const char *text = c->s + 1;
    size_t n = (size_t)(close - text);
    while (n && isspace((unsigned char)*text))
        text++, n--;
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    char *plain = malloc(n + 1);
    size_t k = 0;
    if (!plain) {
        fmt_nomem(c);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!(text[i] == '\\' && i + 1 < n && text[i + 1] == '}'))
            plain[k++] = text[i];
    if ((last ? record_move_add_comment(last, plain, k) : record_line_add_lead(line, plain, k)) < 0)
        fmt_nomem(c);
    free(plain);
    fmt_advance(c, (size_t)(close - c->s) + (close < c->end));
    return 0;
}

/* number -> count '.' {'.'}: move numbers, not kept (pmn numbers the moves
 * itself); "N..." says North plays next, "N." South; *n is N. */
static int number_ahead(struct cursor *c, int *side, unsigned long *n)
{
    size_t k = 0;
    unsigned long v = 0;
    while (fmt_digits_at(c, k)) {
        v = v < 100000000 ? 10 * v + (unsigned long)(c->s[k] - '0') : v;
        k++;
    }
    if (c->s + k >= c->end || c->s[k] != '.')
        return 0;
    *n = v;
    size_t dots = 0;
    while (c->s + k + dots < c->end && c->s[k + dots] == '.')
        dots++;
    *side = dots >= 3 ? PMN_NORTH : PMN_SOUTH;
    fmt_advance(c, k + dots);
    return 1;
}

/* Is a result here ("1-0", "0-1", "1/2-1/2"), where a digit may also begin
 * a move? */
static int result_ahead(const struct cursor *c)
{
    static const char *const results[] = { "1-0", "0-1", "1/2-1/2" };
    for (size_t i = 0; i < COUNT(results); i++) {
        size_t n = strlen(results[i]);
        if ((size_t)(c->end - c->s) >= n && strncmp(c->s, results[i], n) == 0)
            return 1;   /* never a move: no hole is 0, nor "1/2" */
    }
    return 0;
}

/* A final score ("25-21") where a Mancala World move could stand: two
 * counts the first of which names no hole. */
static int score_ahead(const struct cursor *c)
{
    size_t k = 0;
    unsigned long v = 0;
    while (fmt_digits_at(c, k) && k < 6)
        v = 10 * v + (unsigned long)(c->s[k++] - '0');
    return k && c->s + k < c->end && c->s[k] == '-' && fmt_digits_at(c, k + 1)
        && v > c->rules->pits;
}

/* result -> "1-0" | "0-1" | "1/2-1/2" | count '-' count (a score) */
static void result(struct cursor *c, pmn_record *rec, int depth)
{
    const char *p = c->s;
    while (p < c->end && isdigit((unsigned char)*p))
        p++;
    const char *q = p;
    if (q < c->end && *q == '/' && c->end - c->s >= 7 && strncmp(c->s, "1/2-1/2", 7) == 0)
        q = c->s + 7;
    else if (q < c->end && *q == '-') {
        q++;
        while (q < c->end && isdigit((unsigned char)*q))
            q++;
    }
    if (q == p) {
        /* Digits that are none of these: said whole, and skipped. */
        int n = (int)(p - c->s);
        diag_report(c->fn, c->ctx, PMN_E101, c->line, c->col, "'%.*s%s' is no move, number or "
                    "result of %s: skipped", n > 12 ? 12 : n, c->s, n > 12 ? "..." : "",
                    pmn_format_title(c->format));
        fmt_advance(c, (size_t)n);
        return;
    }
    if (depth > 0) {
        diag_report(c->fn, c->ctx, PMN_E107, c->line, c->col, "a result inside a variation");
        fmt_advance(c, (size_t)(q - c->s));
        return;
    }
    char score[32];
    size_t n = (size_t)(q - c->s) < sizeof score - 1 ? (size_t)(q - c->s) : sizeof score - 1;
    memcpy(score, c->s, n);
    score[n] = '\0';
    unsigned long s, no;
    int is_score = score_of(score, &s, &no) == 0;
    const char *r = is_score ? result_of_score(s, no) : score;
    /* The score kept, as a Result tag's is (checked: E221). */
    pmn_tag at = { NULL, NULL, c->line, c->col, c->col };
    if (is_score && !pmn_record_tag(rec, "Score")
        && record_set_tag(rec, "Score", score, &at) < 0)
        fmt_nomem(c);
    size_t rn = strlen(r) < sizeof rec->result - 1 ? strlen(r) : sizeof rec->result - 1;
    memcpy(rec->result, r, rn);
    rec->result[rn] = '\0';
    rec->result_line = c->line;
    rec->result_col = c->col;
    fmt_advance(c, (size_t)(q - c->s));
}

/* Is the cursor at "(N)", a Mancala World total, rather than a variation? */
static int total_at(const struct cursor *c)
{
    const char *p = c->s + 1;
    while (p < c->end && *p == ' ')
        p++;
    if (p >= c->end || !isdigit((unsigned char)*p))
        return 0;
    while (p < c->end && isdigit((unsigned char)*p))
        p++;
    while (p < c->end && *p == ' ')
        p++;
    return p < c->end && *p == ')';
}

/* total -> '(' count ')': the mover's captures so far (Mancala World) */
static void total(struct cursor *c, pmn_move *last)
{
    if (!last) {
        diag_report(c->fn, c->ctx, PMN_E106, c->line, c->col, "a total that follows no move");
    } else {
        last->claim_line = c->line;
        last->claim_col = c->col;
    }
    fmt_advance(c, 1);
    blanks(c);
    int v = fmt_count(c);
    if (last)
        last->claim = v;   /* a running total, made counts when the game is read */
    blanks(c);
    fmt_advance(c, 1);
}

/* line -> { number | move {judgement | nag} | total | comment | '(' line ')'
 *         | result };  side: who plays the line's first move, by turns */
/* A variation nested past MAX_DEPTH, from its '(' on: passed over to its
 * ')' without recursion (a file of nested parentheses must not exhaust
 * the stack), its comments read as comments.  Returns 0, or -1 if the
 * input ends first. */
static int skip_variation(struct cursor *c)
{
    size_t open = 0;
    while (c->s < c->end) {
        char ch = *c->s;
        if (ch == '{') {
            const char *close = comment_close(c->s + 1, c->end);
            fmt_advance(c, close ? (size_t)(close - c->s) + 1 : (size_t)(c->end - c->s));
            continue;
        }
        fmt_advance(c, 1);
        if (ch == '(')
            open++;
        else if (ch == ')' && --open == 0)
            return 0;
    }
    return -1;
}

/* A limit of the game is reached (E124): said once; what is past it is
 * read and left out, as the PMN reader leaves it. */
static void over_limit(struct cursor *c, const char *what, int limit)
{
    if (!c->over++)
        diag_report(c->fn, c->ctx, PMN_E124, c->line, c->col,
                    "more than %d %s in one game, pmn's limit: the rest are left out", limit,
                    what);
}

static void movetext(struct cursor *c, pmn_line *line, pmn_record *rec, int depth, int side);

/* variation -> '(' movetext ')', at c (a '('), after the move `last` (NULL:
 * none) of a line `depth` deep whose side to move is `side`: read into a
 * variation of last, or read and dropped (no move before it); past a
 * limit, passed over as PMN's reader does. */
static void variation(struct cursor *c, pmn_move *last, pmn_record *rec, int depth, int side)
{
    pmn_at l = c->line, col = c->col;
    if (!last)
        diag_report(c->fn, c->ctx, PMN_E106, l, col, "a variation that follows no move");
    if (depth >= MAX_DEPTH || c->variations >= PMN_MAX_GAME_VARIATIONS) {
        if (depth >= MAX_DEPTH)
            diag_report(c->fn, c->ctx, PMN_E115, l, col,
                        "variations nested more than %d deep: this one is skipped", MAX_DEPTH);
        else
            over_limit(c, "variations", PMN_MAX_GAME_VARIATIONS);
        if (skip_variation(c) < 0)
            diag_report(c->fn, c->ctx, PMN_E103, l, col, "a '(' that is never closed");
        return;
    }
    c->variations++;
    pmn_line *v = last ? record_move_add_variation(last) : NULL;
    pmn_line scratch = { 0 };
    if (last && !v)
        fmt_nomem(c);
    fmt_advance(c, 1);
    /* Its first move replaces the last: the same side plays it. */
    movetext(c, v ? v : &scratch, rec, depth + 1, !side);
    record_line_free(&scratch);
    if (c->s < c->end && *c->s == ')')
        fmt_advance(c, 1);
    else
        diag_report(c->fn, c->ctx, PMN_E103, l, col, "a '(' that is never closed");
}

static void movetext(struct cursor *c, pmn_line *line, pmn_record *rec, int depth, int side)
{
    pmn_move *last = NULL;
    /* The number of the last move's turn, and a number written since: the
     * number of the last move's turn again, for its side, says another
     * sowing of that turn (as pmn's writers write a turn of several
     * sowings in these notations, which have no '-'). */
    unsigned long turn = 0, written = 0;
    int numbered = 0, last_side = -1;   /* last's: adding a move moves last */
    for (;;) {
        blanks(c);
        if (c->s >= c->end || c->nomem)
            break;
        unsigned char ch = (unsigned char)*c->s;
        if (ch == ')') {
            if (depth > 0)
                return;
            diag_report(c->fn, c->ctx, PMN_E104, c->line, c->col, "a ')' with no '(' to close");
            fmt_advance(c, 1);
        } else if (ch == '(' && c->format == PMN_FORMAT_MANCALA_WORLD && total_at(c)) {
            total(c, last);
        } else if (ch == '(') {
            variation(c, last, rec, depth, side);
        } else if (ch == '{') {
            comment(c, line, last);
        } else if (isdigit(ch) && number_ahead(c, &side, &written)) {
            numbered = 1;
            continue;
        } else if (isdigit(ch) && c->format != PMN_FORMAT_MANCALA_WORLD) {
            result(c, rec, depth);
        } else if (isdigit(ch) && (result_ahead(c) || score_ahead(c)
                                   || !format_find(c->format)->move_at(c))) {
            result(c, rec, depth);
        } else if (ch == '*' && depth == 0) {
            snprintf(rec->result, sizeof rec->result, "*");
            rec->result_line = c->line;
            rec->result_col = c->col;
            fmt_advance(c, 1);
        } else if (c->moves >= PMN_MAX_GAME_MOVES && format_find(c->format)->move_at(c)) {
            pmn_line scratch = { 0 };   /* read, and left out */
            over_limit(c, "moves", PMN_MAX_GAME_MOVES);
            format_find(c->format)->read_move(c, &scratch, side);
            record_line_free(&scratch);
            side = !side;
        } else if (format_find(c->format)->move_at(c)) {
            c->moves++;
            pmn_move *m = format_find(c->format)->read_move(c, line, side);
            if (!m)
                return;
            m->joined = numbered && last_side >= 0 && written == turn && last_side == m->side;
            turn = numbered ? written
                 : last_side == PMN_NORTH && m->side == PMN_SOUTH ? turn + 1 : turn;
            numbered = 0;
            last_side = m->side;
            side = !side;
            last = m;
        } else if ((ch == '!' || ch == '?') && last) {
            size_t n = c->s + 1 < c->end && (c->s[1] == '!' || c->s[1] == '?') ? 2 : 1;
            memcpy(last->judgement, c->s, n);
            last->judgement[n] = '\0';
            fmt_advance(c, n);
        } else if (ch == '$' && last && fmt_digits_at(c, 1)) {
            fmt_advance(c, 1);
            int v = fmt_count(c);
            if (last->nnags < PMN_MAX_NAGS)
                last->nags[last->nnags++] = v > 255 ? 255 : (unsigned)v;
        } else {
            char what[64];
            snprintf(what, sizeof what, "is not %s", pmn_format_title(c->format));
            unreadable(c, what);
        }
    }
}

/* ---- reading a stream -------------------------------------------------- */

/* What next_line returns but a length. */
enum { LINE_END = -1, LINE_TOO_LONG = -2, LINE_NOMEM = -3 };

/* The next line into rd->ahead, if it has at most `room` bytes: its
 * length; LINE_END at the end; LINE_TOO_LONG if it is longer (a game past
 * PMN_MAX_GAME_TEXT, whose text is never held whole: getline would hold a
 * line of any length); LINE_NOMEM. */
static long next_line(pmn_format_reader *rd, size_t room)
{
    size_t n = 0;
    for (;;) {
        if (rd->bpos == rd->blen) {
            rd->bpos = 0;
            rd->blen = fread(rd->buf, 1, sizeof rd->buf, rd->f);
            if (rd->blen == 0)
                break;
        }
        const char *s = rd->buf + rd->bpos, *nl = memchr(s, '\n', rd->blen - rd->bpos);
        size_t take = nl ? (size_t)(nl - s) + 1 : rd->blen - rd->bpos;
        if (n + take > room)
            return LINE_TOO_LONG;
        if (util_reserve(&rd->ahead, &rd->ahead_cap, n + take + 1, 256) < 0)
            return LINE_NOMEM;
        memcpy(rd->ahead + n, s, take);
        n += take;
        rd->bpos += take;
        if (nl)
            break;
    }
    if (n == 0)
        return LINE_END;
    rd->ahead[n] = '\0';
    rd->lines++;
    rd->ahead_line = rd->lines;
    return (long)n;
}

/* Say why reading stops (F001 for LINE_TOO_LONG, F002 for LINE_NOMEM),
 * and read nothing more. */
static int give_up(pmn_format_reader *rd, long why)
{
    rd->failed = 1;
    if (why == LINE_TOO_LONG)
        diag_report(rd->fn, rd->ctx, PMN_F001, rd->lines + 1, 0,
                    "a game of more than %zu MiB: is this %s?", PMN_MAX_GAME_TEXT >> 20,
                    pmn_format_title(rd->format));
    else
        diag_report(rd->fn, rd->ctx, PMN_F002, rd->lines + 1, 0, "out of memory");
    return -1;
}

int pmn_format_reader_next(pmn_format_reader *rd, pmn_record *rec)
{
    pmn_record_init(rec);
    rd->len = 0;
    if (rd->failed)
        return -1;
    if (rd->ahead_len < 0)
        rd->ahead_len = next_line(rd, PMN_MAX_GAME_TEXT);
    /* Blank lines before the game. */
    while (rd->ahead_len >= 0 && *skip_blanks(rd->ahead) == '\0')
        rd->ahead_len = next_line(rd, PMN_MAX_GAME_TEXT);
    if (rd->ahead_len < LINE_END)
        return give_up(rd, rd->ahead_len);
    if (rd->ahead_len == LINE_END) {
        if (ferror(rd->f)) {
            diag_report(rd->fn, rd->ctx, PMN_F001, rd->lines, 0, "read error");
            return -1;
        }
        return 0;
    }
    pmn_at first = rd->ahead_line;
    int moves = 0, tags = 0, ended = 0, in_comment = 0;
    /* A game: its lines up to one that opens a tag after its moves, or
     * after the blank line that ends its tags (a game without moves) --
     * not inside a comment, which may hold a '[' at a line's start. */
    while (rd->ahead_len >= 0) {
        const char *s = skip_blanks(rd->ahead);
        if (*s == '[' && !in_comment && (moves || ended))
            break;
        int text = in_comment || (*s && *s != '[');
        if (text)
            moves = 1;
        else if (*s == '[')
            tags = 1;
        else if (tags)
            ended = 1;
        for (long i = 0; text && i < rd->ahead_len; i++)
            if (in_comment ? rd->ahead[i] == '}' && (i == 0 || rd->ahead[i - 1] != '\\')
                           : rd->ahead[i] == '{')
                in_comment = !in_comment;
        if (add_line(rd, rd->ahead, (size_t)rd->ahead_len) < 0)
            return give_up(rd, LINE_NOMEM);
        /* The game's text and the next line stay within the limit (a NUL
         * kept as three bytes may take it a little past). */
        rd->ahead_len = next_line(rd, rd->len < PMN_MAX_GAME_TEXT ? PMN_MAX_GAME_TEXT - rd->len
                                                                  : 0);
        if (rd->ahead_len < LINE_END)
            return give_up(rd, rd->ahead_len);
    }
    struct cursor c = { rd->text, rd->text + rd->len, first, 1, rd->fn, rd->ctx, 0,
                        rd->format, NULL, 0, 0, 0 };
    rec->line = first;
    rec->col = 1;
    for (;;) {
        blanks(&c);
        if (c.s >= c.end || *c.s != '[')
            break;
        tag(&c, rec);
    }
    map_tags(&c, rec);
    /* The rules name the holes of squares and numbers (Oware's where the
     * tags name none pmn knows: the replay says so); the start, who moves
     * first.  Said by the replay, not here. */
    pmn_setup setup;
    pmn_rules oware;
    pmn_setup_record(rec, rd->setup, &setup, NULL, NULL);
    c.rules = &setup.rules;
    if (setup.status == PMN_SETUP_UNKNOWN_RULES) {
        pmn_rules_init(&oware, "oware", NULL);
        c.rules = &oware;
    }
    canonical_position(&c, rec, &setup);
    movetext(&c, &rec->main, rec, 0,
             setup.status == PMN_SETUP_READY ? setup.start.to_move : PMN_SOUTH);
    if (rd->format == PMN_FORMAT_MANCALA_WORLD)
        pmn_record_totals_to_counts(rec, rd->fn, rd->ctx);
    if (c.nomem) {
        pmn_record_free(rec);
        return -1;
    }
    return 1;
}

/* ---- writing ------------------------------------------------------------ */

/* A word, lines cut before 80 columns as Aualé cuts them. */
static void word(struct out *o, const char *w)
{
    size_t n = strlen(w);
    if (o->col && o->col + 1 + n >= 80) {
        fputc('\n', o->f);
        o->col = 0;
    }
    if (o->col) {
        fputc(' ', o->f);
        o->col++;
    }
    fputs(w, o->f);
    o->col += (unsigned)n;
}

/* A comment; a '}' in it written "\}", as PMN writes it and pmn's
 * readers of every format read it (the formats' own programs have no way
 * to write one). */
static void write_comment(struct out *o, const char *text)
{
    size_t braces = 0, n = strlen(text);
    for (const char *p = text; *p; p++)
        braces += *p == '}';
    char *t = malloc(n + braces + 1), *q = t;
    if (!t)
        return;
    for (const char *p = text; *p; p++) {
        if (*p == '}')
            *q++ = '\\';
        *q++ = *p;
    }
    *q = '\0';
    /* Words apart as the reader trims them: at any space isspace knows. */
    word(o, "{");
    for (char *p = t; *p;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        char *w = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
        if (*w)
            word(o, w);
    }
    word(o, "}");
    free(t);
}

/* The move's hole in the format's syntax, with what the format writes of
 * it, into w. */
static void move_word(struct out *o, const pmn_move *m, const pmn_played *pl, int side,
                      const pmn_position *before, int *total, char *w, size_t size)
{
    const pmn_rules *r = o->r;
    int hole = m->hole;
    textbuf t;
    textbuf_init(&t, w, size);
    if (!o->rules_known)
        fmt_cannot_hold(o, LOST_RULES, m->line, m->col, "a game whose rules pmn does not know",
                        "its moves written as read");
    if (!o->rules_known || hole < 0 || hole >= (int)r->pits || side < 0) {
        if (o->rules_known)
            fmt_cannot_hold(o, LOST_NO_HOLE, m->line, m->col, "a move that names no hole of "
                            "the game", "written as read, which may not read back");
        textbuf_add(&t, "%s%s", m->text, m->judgement);   /* names no hole: as written */
        for (unsigned k = 0; k < m->nnags; k++)
            textbuf_add(&t, " $%u", m->nags[k]);
        return;
    }
    format_find(o->format)->write_move(o, m, pl, side, before, total, &t);
    textbuf_add(&t, "%s", m->judgement);
    for (unsigned k = 0; k < m->nnags; k++)
        textbuf_add(&t, " $%u", m->nags[k]);
    if (format_find(o->format)->write_after)
        format_find(o->format)->write_after(o, m, pl, side, total, &t);
}

/* The walk's visitor.  Moves numbered as PMN numbers them ("N." before
 * South's, "N..." before North's where the line begins again); each in the
 * format's syntax, its judgement and NAGs (which Aualé passes over),
 * comments and variations in parentheses.  A variation starts from the
 * captures written before its move (Mancala World writes the totals). */
struct totals {
    int now[2];               /* written so far in the line */
    int before[2];            /* before its last move */
};

static struct totals *totals_at(struct out *o, unsigned depth)
{
    if (depth >= o->ntotals) {
        if (util_reserve(&o->totals, &o->totals_cap, (depth + 1) * sizeof(struct totals),
                         8 * sizeof(struct totals)) < 0)
            return NULL;
        o->ntotals = depth + 1;
    }
    return &((struct totals *)o->totals)[depth];
}

static int format_line_in(void *ctx, const pmn_walk_line *l)
{
    struct out *o = ctx;
    struct totals *t = totals_at(o, l->depth);
    if (!t)
        return PMN_WALK_ABORT;
    if (!l->depth && !o->movetext)
        return PMN_WALK_PRUNE;
    if (l->depth) {
        word(o, "(");
        const struct totals *up = totals_at(o, l->depth - 1);
        memcpy(t->now, up->before, sizeof t->now);
    } else {
        memset(t->now, 0, sizeof t->now);
    }
    for (size_t c = 0; c < l->line->nlead; c++)
        write_comment(o, l->line->lead[c]);
    return PMN_WALK_CONTINUE;
}

static int format_line_out(void *ctx, const pmn_walk_line *l)
{
    if (l->depth)
        word(ctx, ")");
    return PMN_WALK_CONTINUE;
}

static int format_move_in(void *ctx, pmn_walk_node *n)
{
    struct out *o = ctx;
    const pmn_move *m = n->move;
    const pmn_played *pl = n->played;
    struct totals *t = totals_at(o, n->in->depth);
    char w[96];
    memcpy(t->before, t->now, sizeof t->before);
    /* The numbers as every writer writes them (the walk's): a reader here
     * counts no more than PMN's, and joins the sowings of a turn by its
     * number written again. */
    if (n->numbered) {
        snprintf(w, sizeof w, "%u%s", pl->number, pl->mover == PMN_SOUTH ? "." : "...");
        word(o, w);
    }
    move_word(o, m, pl, pl->side, n->before, t->now, w, sizeof w);
    word(o, w);
    for (size_t c = 0; c < m->ncomments; c++)
        write_comment(o, m->comments[c]);
    return PMN_WALK_CONTINUE;
}

/* The tags: the roster first, in the names of the format. */
static void write_tags(FILE *f, pmn_format format, const pmn_record *rec, const pmn_rules *r,
                       const pmn_setup *setup, const char *result, int own_score,
                       pmn_diag_fn fn, void *ctx)
{
    const char *game = pmn_record_tag(rec, "Game");
    const char *position = pmn_record_tag(rec, "Position");
    int ps = format == PMN_FORMAT_PLAYSTRATEGY, ogn = format == PMN_FORMAT_OGN;
    int fen = ps || ogn;
    /* Aualé's name of its rules, PlayStrategy's Oware, where the Game tag is
     * the one they read back as; any other Game tag as written. */
    const char *oware = format_find(format)->game;
    const char *variant = game && strcmp(game, oware) != 0 ? game
                        : strcasecmp(r->name, oware) == 0 ? (ogn ? AUALE_OWARE : oware)
                        : game ? game : r->name;
    if (ogn)
        writer_tag(f, "Variant", variant);
    for (size_t i = 0; i < RECORD_ROSTER; i++) {
        const char *v = pmn_record_tag(rec, record_roster[i]);
        const char *name = ps && i == 4 ? "P1" : ps && i == 5 ? "P2" : record_roster[i];
        writer_tag(f, name, v ? v : "?");
    }
    writer_tag(f, "Result", result);
    if (ps)
        writer_tag(f, "Variant", variant);
    /* A record without a Game tag is PMN's default game, Hawalis; read
     * back in a notation whose games are another by default (Mancala
     * World's and Awari's: Oware, Awale), it would be set up as that one,
     * its moves lost.  So the game it was set up as is said. */
    const char *assumed = format_find(format)->game;
    if (!fen && !game && assumed && setup->status != PMN_SETUP_UNKNOWN_RULES
        && strcasecmp(assumed, r->name) != 0) {
        char name[64];
        setup_game_name(r, name, sizeof name);
        writer_tag(f, "Game", name);
    }
    int wrote_fen = fen && position;
    if (fen && position && setup->status != PMN_SETUP_READY) {
        writer_tag(f, "FEN", position);   /* as written: not understood */
    } else if (fen && position) {
        char buf[PMN_MAX_SIDE_PITS * 2 * 12 + 32];
        pmn_position_format_as(r, &setup->start, ogn ? PMN_POSITION_OGN
                                                     : PMN_POSITION_PLAYSTRATEGY,
                               buf, sizeof buf);
        writer_tag(f, "FEN", buf);
        if (ps)
            writer_tag(f, "SetUp", "1");
    }
    int said = 0;
    for (size_t i = 0; i < rec->ntags; i++) {
        const char *n = rec->tags[i].name;
        /* SetUp stays where no FEN says it (a start the record does not
         * give). */
        int first = pmn_record_find_tag(rec, n) == &rec->tags[i];
        int renamed = (fen && (strcmp(n, "Game") == 0 || strcmp(n, "Position") == 0
                               || strcmp(n, "SetUp") == 0))
                   || (ps && (strcmp(n, "South") == 0 || strcmp(n, "North") == 0));
        int skip = (strcmp(n, "Result") == 0 && first) || (strcmp(n, "Score") == 0 && own_score)
                || (fen && first && (strcmp(n, "Game") == 0 || strcmp(n, "Position") == 0
                                     || (strcmp(n, "SetUp") == 0 && wrote_fen
                                         && strcmp(rec->tags[i].value, "1") == 0)));
        /* The roster's first of each, written above; a second is kept,
         * but of a tag the format writes by a name of its own, which would
         * read back as the first. */
        for (size_t k = 0; k < RECORD_ROSTER && !skip; k++)
            skip = strcmp(n, record_roster[k]) == 0 && first;
        if (!skip && !first && renamed) {
            if (!said++)
                diag_report(fn, ctx, PMN_W132, rec->tags[i].line, rec->tags[i].col,
                            "a second %s tag, which %s cannot hold: left out", n,
                            pmn_format_title(format));
            skip = 1;
        }
        /* The names the readers of these notations take for their own
         * (map_tags): a record's tag of that name would read back as one. */
        if (!skip && (strcmp(n, "Variant") == 0 || strcmp(n, "FEN") == 0
                      || strcmp(n, "P1") == 0 || strcmp(n, "P2") == 0)) {
            diag_report(fn, ctx, PMN_W132, rec->tags[i].line, rec->tags[i].col,
                        "a tag %s, which %s reads as its own: left out", n,
                        pmn_format_title(format));
            skip = 1;
        }
        if (!skip)
            writer_tag(f, n, rec->tags[i].value);
    }
}

/* The tags; the moves after a blank line, where there are any or a
 * result to end them. */
static int format_game_in(void *ctx, const pmn_record *rec, const pmn_replay *replay)
{
    struct out *o = ctx;
    (void)replay;
    write_tags(o->f, o->format, rec, o->r, o->setup, o->result, o->own_score, o->fn, o->ctx);
    if (o->movetext)
        fputc('\n', o->f);
    return PMN_WALK_CONTINUE;
}

static int format_game_out(void *ctx, const pmn_record *rec, const pmn_replay *replay)
{
    struct out *o = ctx;
    (void)rec, (void)replay;
    if (o->token)
        word(o, o->token);
    if (o->col)
        fputc('\n', o->f);
    return PMN_WALK_CONTINUE;
}

int pmn_write_format(FILE *f, pmn_format format, const pmn_record *rec,
                     const pmn_replay *replay, pmn_diag_fn fn, void *ctx)
{
    const pmn_setup *setup = pmn_replay_setup(replay);
    const pmn_rules *r = &setup->rules;
    const pmn_check_result *res = pmn_replay_result(replay);
    char result[64];
    unsigned long seeds[2];
    /* The result: OGN's is the score the record writes (an OGN record's,
     * kept as written, right or wrong), else the final score where the
     * board ended the game and the rules count seeds; else the result. */
    const char *written = pmn_record_tag(rec, "Result");
    if (!written)
        written = rec->result[0] ? rec->result : "*";
    const char *score = pmn_record_tag(rec, "Score");
    unsigned long ss, sn;
    pmn_outcome said_outcome;
    int own_score = format == PMN_FORMAT_OGN && score && score_of(score, &ss, &sn) == 0;
    if (own_score)
        snprintf(result, sizeof result, "%s", score);
    else if (format == PMN_FORMAT_OGN && pmn_outcome_parse(written, &said_outcome) == 0
             && said_outcome != PMN_ONGOING && setup->status == PMN_SETUP_READY
             && res->ending != PMN_END_NONE && !res->stopped
             && pmn_final_seeds(r, res->ending, &res->end, seeds)
             /* a score that reads back as the result: not the seeds of a
              * game drawn by a repetition, say */
             && strcmp(result_of_score(seeds[0], seeds[1]),
                       pmn_outcome_string(res->outcome)) == 0
             /* and the result the record says: a wrong one stays as said */
             && said_outcome == res->outcome)
        snprintf(result, sizeof result, "%lu-%lu", seeds[0], seeds[1]);
    else if (pmn_outcome_parse(written, NULL) < 0 && score_of(written, &ss, &sn) == 0) {
        /* A Result tag that is no result but reads as a score: these
         * notations would read it back as the result the score gives. */
        const pmn_tag *t = pmn_record_find_tag(rec, "Result");
        diag_report(fn, ctx, PMN_W132, t ? t->line : rec->line, t ? t->value_col : rec->col,
                    "a result '%s' that is no result, which %s would read as a score: "
                    "written as *", written, pmn_format_title(format));
        snprintf(result, sizeof result, "*");
    } else {
        snprintf(result, sizeof result, "%s", written);
    }
    /* After the moves, a result the reader takes for one (a score, 1-0,
     * 0-1, 1/2-1/2); '*' and anything else stay in the tag alone. */
    unsigned long s, n;
    pmn_outcome oc;
    const char *token_text = result;
    int token = (format == PMN_FORMAT_OGN && score_of(result, &s, &n) == 0)
             || (pmn_outcome_parse(result, &oc) == 0 && oc != PMN_ONGOING);
    if (!token && strcmp(result, "*") != 0 && pmn_outcome_parse(rec->result, &oc) == 0
        && oc != PMN_ONGOING) {
        /* A Result tag that says no result, kept in the tag as written,
         * and a result after the moves: that one after the moves, which
         * the reader takes as the game's, as it took it here. */
        token_text = rec->result;
        token = 1;
    }
    static const pmn_walker format_writer = {
        format_game_in, format_line_in, format_move_in,
        NULL, format_line_out, format_game_out, 0, 0, 0
    };
    struct out o = { f, 0, fn, ctx, format, pmn_format_title(format), r,
                     setup->status != PMN_SETUP_UNKNOWN_RULES, { 0 }, NULL, 0, 0, setup, result,
                     own_score, token ? token_text : NULL,
                     rec->main.nmoves || rec->main.nlead || token };
    int rc = pmn_walk(rec, replay, &format_writer, &o);
    free(o.totals);
    return rc || ferror(f) ? -1 : 0;
}

/* ---- which format ------------------------------------------------------- */

/* sniff -> {tag} first_move: the first tag's name, whether P1 is a tag,
 * and the shape of the first move past numbers and comments decide:
 *   d1e2 (two squares) or a P1 tag    PlayStrategy
 *   64 (two digits, 1-9 each)         Mancala World, if no ';' is near
 *   D19 (a letter, then digits)       Awari, if no ';' is near
 *   a Variant or FEN tag first        OGN
 * anything else is PMN's.  A PMN record never has two squares together, a
 * P1 tag, or a Variant or FEN tag first; its numbers and coordinates are
 * followed by ';' after the first full move (the writer puts it there),
 * which the others never write. */
int pmn_format_sniff(const char *text, size_t len, pmn_format *f)
{
    const char *s = text, *end = text + len;
    char first[16] = "", game[32] = "";
    int p1 = 0;
    if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
        s += 3;
    for (;;) {
        while (s < end && isspace((unsigned char)*s))
            s++;
        if (s >= end || *s != '[')
            break;
        const char *name = ++s;
        while (s < end && isalnum((unsigned char)*s))
            s++;
        size_t n = (size_t)(s - name);
        if (!first[0] && n && n < sizeof first) {
            memcpy(first, name, n);
            first[n] = '\0';
        }
        p1 |= n == 2 && memcmp(name, "P1", 2) == 0;
        if (n == 4 && memcmp(name, "Game", 4) == 0) {
            /* [Game "NAME"]: its name, lower case */
            const char *v = s;
            while (v < end && (*v == ' ' || *v == '\t'))
                v++;
            if (v < end && *v == '"') {
                size_t k = 0;
                for (v++; v < end && *v != '"' && k < sizeof game - 1; v++)
                    game[k++] = (char)tolower((unsigned char)*v);
                game[k] = '\0';
            }
        }
        const char *close = memchr(s, '\n', (size_t)(end - s));
        s = close ? close : end;
    }
    /* The first move: past numbers ("1.", "1...") and comments. */
    for (;;) {
        while (s < end && isspace((unsigned char)*s))
            s++;
        if (s < end && *s == '{') {
            const char *close = comment_close(s + 1, end);
            s = close ? close + 1 : end;
            continue;
        }
        const char *d = s;
        while (d < end && isdigit((unsigned char)*d))
            d++;
        if (d > s && d < end && *d == '.') {
            while (d < end && *d == '.')
                d++;
            s = d;
            continue;
        }
        break;
    }
    size_t n = 0;
    while (s + n < end && isalnum((unsigned char)s[n]))
        n++;
    /* PMN puts ';' after the first full move: looked for in the next 80
     * characters that are not in a comment (an annotated move's comments
     * run long: '{[%eval +1]}' after each sowing; the other notations
     * write no ';' outside their comments). */
    int semicolon = 0;
    size_t outside = 0;
    for (const char *p = s, *close; p < end && outside < 80 && !semicolon; p++) {
        if (*p == '{') {
            if (!(close = comment_close(p + 1, end)))
                break;   /* (cut off where the bytes looked at end) */
            p = close;
            continue;
        }
        semicolon = *p == ';';
        outside++;
    }
    int after = s + n >= end || !isalnum((unsigned char)s[n]);
    /* PMN's capture claim after the first move, "(+2)" or "(x2)", past its
     * judgement: no other notation writes one (the Awari notation's is
     * "x 2", OGN's none). */
    const char *c = s + n;
    while (c < end && (*c == '!' || *c == '?'))
        c++;
    while (c < end && (*c == ' ' || *c == '\t'))
        c++;
    int claim = c + 2 < end && *c == '(' && (c[1] == '+' || c[1] == 'x')
             && isdigit((unsigned char)c[2]);
    /* A Game tag naming rules whose board the other notations do not hold
     * (two rows of six holes: Hawalis's four rows are PMN's coordinates,
     * "e2", which read as the Awari notation's "E2"). */
    pmn_rules named;
    int other_board = game[0] && pmn_rules_builtin(game, &named) == 0
                   && (named.rows != 1 || named.holes_per_row != 6);
    if (claim || other_board)
        return 0;
    if (p1 || (n == 4 && after && islower((unsigned char)s[0]) && isdigit((unsigned char)s[1])
               && islower((unsigned char)s[2]) && isdigit((unsigned char)s[3]))) {
        *f = PMN_FORMAT_PLAYSTRATEGY;
        return 1;
    }
    if (!semicolon && n == 2 && s[0] >= '1' && s[0] <= '9' && s[1] >= '1' && s[1] <= '9') {
        *f = PMN_FORMAT_MANCALA_WORLD;
        return 1;
    }
    if (!semicolon && n >= 2 && isalpha((unsigned char)s[0]) && isdigit((unsigned char)s[1])) {
        size_t k = 1;
        while (k < n && isdigit((unsigned char)s[k]))
            k++;
        if (k == n) {
            *f = PMN_FORMAT_AWARI;
            return 1;
        }
    }
    if (strcmp(first, "Variant") == 0 || strcmp(first, "FEN") == 0) {
        *f = PMN_FORMAT_OGN;
        return 1;
    }
    return 0;
}
