/* ogn.c - OGN, the Oware Game Notation that Aualé saves: read into
 * records and written from them.
 *
 * An OGN game is PGN-like: tags (Variant first: "Oware Abapa"), a FEN tag
 * for a set-up start (every house's count, South's A-F then North's a-f,
 * the two stores, S or N: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S), then moves with
 * numbers ("1."), each a letter -- South's houses upper case, North's lower
 * case, the reverse of PMN's letters -- with "+N" for the seeds it
 * captured, {comments}, (variations), and a result that is the final score
 * ("25-20").  Mapped onto pmn's record: Variant is the Game tag, FEN the
 * SetUp and Position tags, the score the result it gives (South more: 1-0)
 * with the score kept in a Score tag; moves keep their OGN letter as
 * written, with the side and hole it names. */
#include "pmn.h"
#include "record.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 100

struct pmn_ogn_reader {
    FILE *f;
    pmn_diag_fn fn;
    void *ctx;
    char *text;               /* the game's lines */
    size_t len, cap;
    char *ahead;              /* a line read that begins the next game */
    size_t ahead_cap;
    long ahead_len;
    unsigned lines;           /* lines read */
    unsigned ahead_line;
};

/* Where the parser is in a game's text. */
struct cursor {
    const char *s, *end;
    unsigned line, col;
    pmn_diag_fn fn;
    void *ctx;
    int nomem;
};

pmn_ogn_reader *pmn_ogn_reader_new(FILE *f, pmn_diag_fn fn, void *ctx)
{
    pmn_ogn_reader *rd = calloc(1, sizeof *rd);
    if (rd) {
        rd->f = f;
        rd->fn = fn;
        rd->ctx = ctx;
        rd->ahead_len = -1;
    }
    return rd;
}

void pmn_ogn_reader_free(pmn_ogn_reader *rd)
{
    if (!rd)
        return;
    free(rd->text);
    free(rd->ahead);
    free(rd);
}

static int add_text(pmn_ogn_reader *rd, const char *s, size_t n)
{
    if (rd->len + n + 1 > rd->cap) {
        size_t cap = rd->cap ? rd->cap : 4096;
        while (cap < rd->len + n + 1)
            cap *= 2;
        char *t = realloc(rd->text, cap);
        if (!t)
            return -1;
        rd->text = t;
        rd->cap = cap;
    }
    memcpy(rd->text + rd->len, s, n);
    rd->len += n;
    rd->text[rd->len] = '\0';
    return 0;
}

/* A line of the game, a NUL byte (which would end its text) kept as
 * U+FFFD and said, as the PMN reader does. */
static int add_line(pmn_ogn_reader *rd, const char *s, size_t n)
{
    const char *nul;
    while ((nul = memchr(s, '\0', n)) != NULL) {
        size_t k = (size_t)(nul - s);
        pmn_report(rd->fn, rd->ctx, PMN_W130, rd->ahead_line, (unsigned)k + 1,
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

static void advance(struct cursor *c, size_t n)
{
    for (; n && c->s < c->end; n--, c->s++) {
        if (*c->s == '\n') {
            c->line++;
            c->col = 1;
        } else if (((unsigned char)*c->s & 0xc0) != 0x80) {
            c->col++;   /* columns count characters */
        }
    }
}

static void blanks(struct cursor *c)
{
    while (c->s < c->end && isspace((unsigned char)*c->s))
        advance(c, 1);
}

static void nomem(struct cursor *c)
{
    if (!c->nomem)
        pmn_report(c->fn, c->ctx, PMN_F002, c->line, c->col, "out of memory");
    c->nomem = 1;
}

/* tag -> '[' NAME '"' value '"' ']', value with \" and \\ escaped */
static void tag(struct cursor *c, pmn_record *rec)
{
    unsigned line = c->line, col = c->col;
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
        pmn_report(c->fn, c->ctx, PMN_E105, line, col, "a malformed tag pair: a name and a "
                   "quoted value in brackets are expected");
        while (c->s < c->end && *c->s != '\n')
            advance(c, 1);
        return;
    }
    const char *v = ++p;
    char *value = malloc((size_t)(c->end - v) + 1);
    size_t n = 0;
    if (!value) {
        nomem(c);
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
        pmn_report(c->fn, c->ctx, PMN_E105, line, col, "a malformed tag pair: its value or "
                   "its ']' is missing");
        free(value);
        while (c->s < c->end && *c->s != '\n')
            advance(c, 1);
        return;
    }
    value[n] = '\0';
    unsigned value_col = col + (unsigned)(v - c->s);
    if (pmn_record_add_tag(rec, name, nlen, value, n, line, col, value_col) < 0)
        nomem(c);
    free(value);
    advance(c, (size_t)(close + 1 - c->s));
}

/* The tags that pmn names otherwise: Variant is the Game tag, FEN the
 * SetUp and Position tags, a score the result it gives and a Score tag. */
static int score_of(const char *s, unsigned long *south, unsigned long *north)
{
    char *end;
    if (!isdigit((unsigned char)*s))
        return -1;
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

/* "4-4-...-0-0-S" as a position string "4,4,4,4,4,4/4,4,4,4,4,4 S 0:0"
 * (halves split evenly); NULL if it is not that shape. */
static char *position_of_fen(const char *fen)
{
    unsigned long v[2 * PMN_MAX_SIDE_PITS + 2];
    unsigned n = 0;
    const char *s = fen;
    while (isdigit((unsigned char)*s) && n < COUNT(v)) {
        char *end;
        v[n++] = strtoul(s, &end, 10);
        if (*end != '-')
            return NULL;
        s = end + 1;
    }
    if (n < 4 || n % 2 || (*s != 'S' && *s != 'N') || s[1])
        return NULL;
    unsigned pits = (n - 2) / 2;
    char *out = malloc(n * 12 + 16), *o = out;
    if (!out)
        return NULL;
    for (unsigned i = 0; i < 2 * pits; i++)
        o += sprintf(o, "%lu%c", v[i], i + 1 == pits ? '/' : i + 1 == 2 * pits ? ' ' : ',');
    sprintf(o, "%c %lu:%lu", *s, v[2 * pits], v[2 * pits + 1]);
    return out;
}

static int set_tag(pmn_record *rec, const char *name, const char *value, const pmn_tag *at)
{
    for (size_t i = 0; i < rec->ntags; i++)
        if (strcmp(rec->tags[i].name, name) == 0) {
            char *v = pmn_strndup(value, strlen(value));
            if (!v)
                return -1;
            free(rec->tags[i].value);
            rec->tags[i].value = v;
            return 0;
        }
    return pmn_record_add_tag(rec, name, strlen(name), value, strlen(value), at->line, at->col,
                              at->value_col);
}

static void map_tags(struct cursor *c, pmn_record *rec)
{
    size_t n = rec->ntags;
    for (size_t i = 0; i < n; i++) {
        pmn_tag t = rec->tags[i];
        int rc = 0;
        if (strcmp(t.name, "Variant") == 0) {
            rc = set_tag(rec, "Game", strcmp(t.value, "Oware Abapa") == 0 ? "Oware" : t.value,
                         &t);
        } else if (strcmp(t.name, "FEN") == 0) {
            char *pos = position_of_fen(t.value);
            rc = set_tag(rec, "SetUp", "1", &t);
            /* A malformed FEN stays as written, for the set-up to report. */
            rc |= set_tag(rec, "Position", pos ? pos : t.value, &rec->tags[i]);
            free(pos);
        } else if (strcmp(t.name, "Result") == 0) {
            unsigned long s, no;
            if (score_of(t.value, &s, &no) == 0) {
                /* A Score tag of the record's own stays as it is. */
                if (!pmn_record_tag(rec, "Score"))
                    rc = set_tag(rec, "Score", t.value, &t);
                char *r = pmn_strndup(result_of_score(s, no), strlen(result_of_score(s, no)));
                if (!r)
                    rc = -1;
                else {
                    free(rec->tags[i].value);
                    rec->tags[i].value = r;
                }
            }
        }
        if (rc < 0)
            nomem(c);
    }
    /* Variant and FEN are pmn's Game and Position now: not kept twice. */
    size_t k = 0;
    for (size_t i = 0; i < rec->ntags; i++) {
        if (strcmp(rec->tags[i].name, "Variant") == 0 || strcmp(rec->tags[i].name, "FEN") == 0) {
            free(rec->tags[i].name);
            free(rec->tags[i].value);
        } else {
            rec->tags[k++] = rec->tags[i];
        }
    }
    rec->ntags = k;
}

/* ---- movetext ---------------------------------------------------------- */

static void unreadable(struct cursor *c, const char *what)
{
    size_t n = 1;
    while (c->s + n < c->end && ((unsigned char)c->s[n] & 0xc0) == 0x80)
        n++;
    char text[8] = "";
    memcpy(text, c->s, n < sizeof text ? n : sizeof text - 1);
    pmn_report(c->fn, c->ctx, PMN_E101, c->line, c->col, "'%s' %s: skipped", text, what);
    advance(c, n);
}

static int comment(struct cursor *c, pmn_line *line, pmn_move *last)
{
    unsigned l = c->line, col = c->col;
    const char *close = memchr(c->s, '}', (size_t)(c->end - c->s));
    if (!close) {
        pmn_report(c->fn, c->ctx, PMN_E102, l, col, "a comment '{' that is never closed");
        close = c->end;
    }
    const char *text = c->s + 1;
    size_t n = (size_t)(close - text);
    while (n && isspace((unsigned char)*text))
        text++, n--;
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    if ((last ? pmn_move_add_comment(last, text, n) : pmn_line_add_lead(line, text, n)) < 0)
        nomem(c);
    advance(c, (size_t)(close - c->s) + (close < c->end));
    return 0;
}

/* line -> { number | move ['+' count] {judgement | nag} | comment | '(' line ')' | result } */
static void movetext(struct cursor *c, pmn_line *line, pmn_record *rec, int depth)
{
    pmn_move *last = NULL;
    for (;;) {
        blanks(c);
        if (c->s >= c->end || c->nomem)
            break;
        unsigned char ch = (unsigned char)*c->s;
        if (ch == ')') {
            if (depth > 0)
                return;
            pmn_report(c->fn, c->ctx, PMN_E104, c->line, c->col, "a ')' with no '(' to close");
            advance(c, 1);
        } else if (ch == '(') {
            unsigned l = c->line, col = c->col;
            if (!last) {
                pmn_report(c->fn, c->ctx, PMN_E106, l, col, "a variation that follows no move");
                last = NULL;
            }
            pmn_line *v = last && depth < MAX_DEPTH ? pmn_move_add_variation(last) : NULL;
            pmn_line scratch = { 0 };
            if (last && depth < MAX_DEPTH && !v)
                nomem(c);
            if (depth >= MAX_DEPTH)
                pmn_report(c->fn, c->ctx, PMN_E115, l, col, "variations nested deeper than %d",
                           MAX_DEPTH);
            advance(c, 1);
            movetext(c, v ? v : &scratch, rec, depth + 1);
            pmn_line_free(&scratch);
            if (c->s < c->end && *c->s == ')')
                advance(c, 1);
            else
                pmn_report(c->fn, c->ctx, PMN_E103, l, col, "a '(' that is never closed");
        } else if (ch == '{') {
            comment(c, line, last);
        } else if (isdigit(ch)) {
            const char *p = c->s;
            while (p < c->end && isdigit((unsigned char)*p))
                p++;
            if (p < c->end && *p == '.') {
                while (p < c->end && *p == '.')
                    p++;
                advance(c, (size_t)(p - c->s));   /* move numbers: by turns, not kept */
                continue;
            }
            const char *q = p;
            if (q < c->end && *q == '/' && c->end - q >= 6 && strncmp(c->s, "1/2-1/2", 7) == 0)
                q = c->s + 7;
            else if (q < c->end && *q == '-') {
                q++;
                while (q < c->end && isdigit((unsigned char)*q))
                    q++;
            }
            if (q == p || depth > 0) {
                if (depth > 0 && q != p)
                    pmn_report(c->fn, c->ctx, PMN_E107, c->line, c->col,
                               "a result inside a variation");
                advance(c, (size_t)(q - c->s));
                if (q == p)
                    unreadable(c, "is no move, number or result");
                continue;
            }
            char score[32];
            size_t n = (size_t)(q - c->s) < sizeof score - 1 ? (size_t)(q - c->s) : sizeof score - 1;
            memcpy(score, c->s, n);
            score[n] = '\0';
            unsigned long s, no;
            const char *r = score_of(score, &s, &no) == 0 ? result_of_score(s, no) : score;
            size_t rn = strlen(r) < sizeof rec->result - 1 ? strlen(r) : sizeof rec->result - 1;
            memcpy(rec->result, r, rn);
            rec->result[rn] = '\0';
            rec->result_line = c->line;
            rec->result_col = c->col;
            advance(c, (size_t)(q - c->s));
        } else if (ch == '*' && depth == 0) {
            snprintf(rec->result, sizeof rec->result, "*");
            rec->result_line = c->line;
            rec->result_col = c->col;
            advance(c, 1);
        } else if (isalpha(ch)) {
            pmn_move *m = pmn_line_add_move(line);
            if (!m) {
                nomem(c);
                return;
            }
            m->text[0] = (char)ch;
            m->notation = PMN_NOTATION_LETTERS;
            m->side = isupper(ch) ? PMN_SOUTH : PMN_NORTH;
            m->hole = tolower(ch) - 'a';
            m->claim = -1;
            m->claim_total = -1;
            m->line = c->line;
            m->col = c->col;
            advance(c, 1);
            if (c->s < c->end && *c->s == '+' && c->s + 1 < c->end
                && isdigit((unsigned char)c->s[1])) {
                m->claim_line = c->line;
                m->claim_col = c->col;
                unsigned long v = strtoul(c->s + 1, NULL, 10);
                m->claim = v > 65535 ? 65535 : (int)v;
                m->claim_style = '+';
                advance(c, 1);
                while (c->s < c->end && isdigit((unsigned char)*c->s))
                    advance(c, 1);
            }
            last = m;
        } else if ((ch == '!' || ch == '?') && last) {
            size_t n = c->s + 1 < c->end && (c->s[1] == '!' || c->s[1] == '?') ? 2 : 1;
            memcpy(last->judgement, c->s, n);
            last->judgement[n] = '\0';
            advance(c, n);
        } else if (ch == '$' && last && c->s + 1 < c->end && isdigit((unsigned char)c->s[1])) {
            unsigned long v = strtoul(c->s + 1, NULL, 10);
            if (last->nnags < PMN_MAX_NAGS)
                last->nags[last->nnags++] = v > 255 ? 255 : (unsigned)v;
            advance(c, 1);
            while (c->s < c->end && isdigit((unsigned char)*c->s))
                advance(c, 1);
        } else {
            unreadable(c, "is not OGN");
        }
    }
}

/* ---- reading a stream -------------------------------------------------- */

/* The next line into rd->ahead; its length, or -1 at the end. */
static long next_line(pmn_ogn_reader *rd)
{
    ssize_t n = getline(&rd->ahead, &rd->ahead_cap, rd->f);
    if (n < 0)
        return -1;
    rd->lines++;
    rd->ahead_line = rd->lines;
    return (long)n;
}

int pmn_ogn_reader_next(pmn_ogn_reader *rd, pmn_record *rec)
{
    pmn_record_init(rec);
    rd->len = 0;
    if (rd->ahead_len < 0)
        rd->ahead_len = next_line(rd);
    /* Blank lines before the game. */
    while (rd->ahead_len >= 0 && *skip_blanks(rd->ahead) == '\0')
        rd->ahead_len = next_line(rd);
    if (rd->ahead_len < 0) {
        if (ferror(rd->f)) {
            pmn_report(rd->fn, rd->ctx, PMN_F001, rd->lines, 0, "read error");
            return -1;
        }
        return 0;
    }
    unsigned first = rd->ahead_line;
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
            if (in_comment ? rd->ahead[i] == '}' : rd->ahead[i] == '{')
                in_comment = !in_comment;
        if (add_line(rd, rd->ahead, (size_t)rd->ahead_len) < 0) {
            pmn_report(rd->fn, rd->ctx, PMN_F002, rd->ahead_line, 0, "out of memory");
            return -1;
        }
        rd->ahead_len = next_line(rd);
    }
    struct cursor c = { rd->text, rd->text + rd->len, first, 1, rd->fn, rd->ctx, 0 };
    rec->line = first;
    rec->col = 1;
    for (;;) {
        blanks(&c);
        if (c.s >= c.end || *c.s != '[')
            break;
        tag(&c, rec);
    }
    map_tags(&c, rec);
    movetext(&c, &rec->main, rec, 0);
    if (c.nomem) {
        pmn_record_free(rec);
        return -1;
    }
    return 1;
}

/* ---- writing ------------------------------------------------------------ */

struct out {
    FILE *f;
    unsigned col;
    pmn_diag_fn fn;
    void *ctx;
    int said_joins;
};

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

static void write_comment(struct out *o, const char *text, unsigned line)
{
    char *t = pmn_strndup(text, strlen(text));
    if (!t)
        return;
    int changed = 0;
    for (char *p = t; *p; p++)
        if (*p == '}') {
            *p = ')';
            changed = 1;
        }
    if (changed)
        pmn_report(o->fn, o->ctx, PMN_W132, line, 0,
                   "a '}' inside a comment, which OGN cannot hold, written as ')'");
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

/* Moves numbered as PMN numbers them ("N." before South's, "N..." before
 * North's where the line begins again); each the letter of its hole in
 * OGN's case, its capture as the record writes it, its judgement and NAGs
 * (which Aualé passes over), comments and variations. */
static void write_line(struct out *o, const pmn_rules *r, const pmn_line *line,
                       const pmn_played_line *played)
{
    int number_next = 1;
    for (size_t c = 0; c < line->nlead; c++)
        write_comment(o, line->lead[c], line->nmoves ? line->moves[0].line : 0);
    for (size_t i = 0; i < line->nmoves; i++) {
        const pmn_move *m = &line->moves[i];
        const pmn_played *pl = played && i < played->nmoves ? &played->moves[i] : NULL;
        char w[64];
        int side = pl ? pl->side : m->side, hole = m->hole;
        if (pl && pl->continues && !o->said_joins) {
            pmn_report(o->fn, o->ctx, PMN_W132, m->line, m->col, "a turn of several sowings: "
                       "OGN writes its sowings as moves of their own, without '-'");
            o->said_joins = 1;
        }
        if (pl && !pl->continues && (pl->mover == PMN_SOUTH || number_next)) {
            snprintf(w, sizeof w, "%u%s", pl->number, pl->mover == PMN_SOUTH ? "." : "...");
            word(o, w);
        }
        number_next = 0;
        int claim = m->claim;
        if (hole < 0 || hole >= (int)r->pits || side < 0)
            snprintf(w, sizeof w, "%s", m->text);
        else
            snprintf(w, sizeof w, "%c", (side == PMN_SOUTH ? 'A' : 'a') + hole);
        size_t n = strlen(w);
        if (claim > 0)
            snprintf(w + n, sizeof w - n, "+%d", claim);
        n = strlen(w);
        snprintf(w + n, sizeof w - n, "%s", m->judgement);
        for (unsigned k = 0; k < m->nnags; k++) {
            n = strlen(w);
            snprintf(w + n, sizeof w - n, " $%u", m->nags[k]);
        }
        word(o, w);
        for (size_t c = 0; c < m->ncomments; c++) {
            write_comment(o, m->comments[c], m->line);
            number_next = 1;
        }
        for (size_t v = 0; v < m->nvariations; v++) {
            word(o, "(");
            write_line(o, r, &m->variations[v], pl && v < pl->nvariations ? &pl->variations[v]
                                                                          : NULL);
            word(o, ")");
            number_next = 1;
        }
    }
}

int pmn_write_ogn(FILE *f, const pmn_record *rec, const pmn_replay *replay, pmn_diag_fn fn,
                  void *ctx)
{
    static const char *const roster[] = { "Event", "Site", "Date", "Round", "South", "North" };
    const pmn_setup *setup = pmn_replay_setup(replay);
    const pmn_rules *r = &setup->rules;
    const pmn_check_result *res = pmn_replay_result(replay);
    char result[64];
    unsigned long seeds[2];
    /* The result as OGN writes it: the score the record writes (an OGN
     * record's, kept as written, right or wrong), else the final score
     * where the board ended the game and the rules count seeds, else the
     * result. */
    const char *written = pmn_record_tag(rec, "Result");
    if (!written)
        written = rec->result[0] ? rec->result : "*";
    const char *score = pmn_record_tag(rec, "Score");
    unsigned long ss, sn;
    int own_score = score && score_of(score, &ss, &sn) == 0;
    if (own_score)
        snprintf(result, sizeof result, "%s", score);
    else if (setup->status == PMN_SETUP_READY && res->ending != PMN_END_NONE && !res->stopped
             && pmn_final_seeds(r, res->ending, &res->end, seeds))
        snprintf(result, sizeof result, "%lu-%lu", seeds[0], seeds[1]);
    else
        snprintf(result, sizeof result, "%s", written);
    /* Aualé's name of its rules, where the Game tag is the one it reads
     * back as; any other Game tag as written. */
    const char *game = pmn_record_tag(rec, "Game");
    pmn_write_tag(f, "Variant", game && strcmp(game, "Oware") != 0 ? game
                            : strcmp(r->name, "oware") == 0 ? "Oware Abapa" : game ? game : r->name);
    for (size_t i = 0; i < COUNT(roster); i++) {
        const char *v = pmn_record_tag(rec, roster[i]);
        pmn_write_tag(f, roster[i], v ? v : "?");
    }
    pmn_write_tag(f, "Result", result);
    if (pmn_record_tag(rec, "Position") && setup->status != PMN_SETUP_READY) {
        pmn_write_tag(f, "FEN", pmn_record_tag(rec, "Position"));   /* as written: not understood */
    } else if (pmn_record_tag(rec, "Position")) {
        char fen[PMN_MAX_SIDE_PITS * 2 * 12 + 32], *o = fen;
        const pmn_position *p = &setup->start;
        for (int s = 0; s < 2; s++)
            for (unsigned i = 0; i < r->pits; i++)
                o += sprintf(o, "%u-", p->pit[s][i]);
        sprintf(o, "%u-%u-%c", (unsigned)p->captured[0], (unsigned)p->captured[1],
                p->to_move == PMN_SOUTH ? 'S' : 'N');
        pmn_write_tag(f, "FEN", fen);
    }
    for (size_t i = 0; i < rec->ntags; i++) {
        const char *n = rec->tags[i].name;
        int skip = strcmp(n, "Game") == 0 || strcmp(n, "Result") == 0
                || strcmp(n, "Position") == 0 || strcmp(n, "SetUp") == 0
                || (strcmp(n, "Score") == 0 && own_score);
        for (size_t k = 0; k < COUNT(roster) && !skip; k++)
            skip = strcmp(n, roster[k]) == 0;
        if (!skip)
            pmn_write_tag(f, n, rec->tags[i].value);
    }
    /* After the moves, a result the reader takes for one (a score, 1-0,
     * 0-1, 1/2-1/2); '*' and anything else stay in the tag alone. */
    unsigned long s, n;
    pmn_outcome oc;
    int token = score_of(result, &s, &n) == 0
             || (pmn_outcome_parse(result, &oc) == 0 && oc != PMN_ONGOING);
    if (rec->main.nmoves || rec->main.nlead || token) {
        struct out o = { f, 0, fn, ctx, 0 };
        fputc('\n', f);
        write_line(&o, r, &rec->main, pmn_replay_main(replay));
        if (token)
            word(&o, result);
        if (o.col)
            fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
