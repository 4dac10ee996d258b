/* lexer.c - PMN text to tokens, with one anchored PCRE2 pattern. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "lexer.h"
#include "../base/util.h"

#include <pthread.h>
#include <limits.h>
#include <stdlib.h>

/* Spaces that are not ASCII (util_unicode_space): text pasted from web pages
 * holds them, and they separate tokens as spaces do. */
#define USP "\\xC2\\xA0|\\xE1\\x9A\\x80|\\xE2\\x80[\\x80-\\x8B\\xA8\\xA9\\xAF]|\\xE2\\x81\\x9F" \
            "|\\xE3\\x80\\x80|\\xEF\\xBB\\xBF"
#define BLANK "(?:[ \\t]|" USP ")"
/* The token ends here: what follows is a space or one of these characters. */
#define ENDS(chars) "(?!(?!" USP ")[^\\s" chars "])"
/* Dashes a page may print in a result: U+2010-U+2015 and the minus U+2212. */
#define DASH "(?:\\xE2\\x80[\\x90-\\x95]|\\xE2\\x88\\x92)"
#define HALF "\\xC2\\xBD"
/* Curly quotes around a tag's value: U+201C, U+201D, U+201E. */
#define CURLY "\\xE2\\x80[\\x9C\\x9D\\x9E]"
/* A footnote mark that a page prints beside a capture count: a letter,
 * digits or stars inside the parentheses, a dagger, or superscript digits. */
#define DAGGER "\\xE2\\x80[\\xA0\\xA1]"
#define SUPERSCRIPT "(?:\\xC2[\\xB2\\xB3\\xB9]|\\xE2\\x81[\\xB0\\xB4-\\xB9])+"

/* One alternative per token; the first group that matched names the token.
 * The pattern is anchored at the lexer's position.  In a {comment}, a
 * backslash escapes the character after it (the writer writes '}' and a
 * backslash before one as \} and \\). */
static const char pattern[] =
    "((?:\\s++|" USP ")++)"                                       /* 1 space */
    "|\\[" BLANK "*([A-Za-z0-9_]+)" BLANK "++"                    /* 2 tag name */
      "(?|\"([^\"\\\\\\n]*+(?:\\\\.[^\"\\\\\\n]*+)*+)\""            /* 3 value */
      "|" CURLY "((?:[^\"\\\\\\n\\xE2]++|(?!" CURLY ")\\xE2|\\\\.)*+)(?:" CURLY "|\"))"
      BLANK "*+\\]"
    "|(\\[[^\\]\\n]*+\\]?)"                                      /* 4 bad tag */
    "|\\{([^}\\\\]*+(?:\\\\[\\s\\S][^}\\\\]*+)*+)\\}"               /* 5 comment */
    "|(\\{[^}\\\\]*+(?:\\\\[\\s\\S][^}\\\\]*+)*+\\\\?)"             /* 6 open comment */
    "|(1-0|0-1|1/2-1/2|\\*|1" DASH "0|0" DASH "1|" HALF "(?:-|" DASH ")" HALF
      "|1/2" DASH "1/2)" ENDS("(){};")                            /* 7 result */
    "|([0-9]+)[ \\t]*(\\.\\.\\.|\\.)"                            /* 8,9 number */
    "|\\(" BLANK "*([+x])" BLANK "*([0-9]+)"                     /* 10,11 capture */
      "(?:" BLANK "*([a-z]|[0-9]+|\\*{1,3}|" DAGGER "|" SUPERSCRIPT "))?" /* 12 mark */
      BLANK "*\\)(" DAGGER "|" SUPERSCRIPT ")?"                  /* 13 mark after */
    "|(!!|\\?\\?|!\\?|\\?!|!|\\?)"                               /* 14 judgement */
    "|\\$([0-9]+)"                                               /* 15 NAG */
    "|([A-Za-z])" ENDS("(){};!?$/-")                             /* 16 hole */
    "|(;)|(\\()|(\\))"                                           /* 17-19 */
    "|([0-9]+)" ENDS("(){};!?$/-")                               /* 20 hole number */
    "|([a-z][0-9])" ENDS("(){};!?$/-")                           /* 21 coordinate */
    "|(-)|(/)"                                                   /* 22 join, 23 slash */
    "|((?:[^\\s(){}\\[\\];/\\-\\xC2\\xE1-\\xE3\\xEF]++"              /* 24 word */
      "|(?!" USP ")[\\xC2\\xE1-\\xE3\\xEF])++)";

/* Compiled once a process, by whichever thread comes first, and shared:
 * a compiled pattern is read-only (each lexer has its own match data).
 * Repetitions are possessive and take runs, not characters, so that a
 * megabyte comment or tag is one match within PCRE2's limits. */
static pcre2_code *code;
static pthread_once_t code_once = PTHREAD_ONCE_INIT;

static void compile_pattern(void)
{
    int err;
    PCRE2_SIZE where;
    code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_ANCHORED,
                         &err, &where, NULL);
    if (code)
        pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);   /* optional: speed */
}

static pcre2_code *compiled(void)
{
    pthread_once(&code_once, compile_pattern);
    return code;
}

int lexer_is_result(const char *s, size_t len)
{
    pcre2_code *c = compiled();
    pcre2_match_data *md = c ? pcre2_match_data_create_from_pattern(c, NULL) : NULL;
    int rc = md ? pcre2_match(c, (PCRE2_SPTR)s, len, 0, 0, md, NULL) : -1;
    int is = 0;
    if (rc > 7) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        is = ov[14] == 0 && ov[15] == len;   /* the result group, all of it */
    }
    pcre2_match_data_free(md);
    return is;
}

int lexer_init(struct lexer *lx, const char *text, size_t len, pmn_at line)
{
    lx->text = text;
    lx->len = len;
    lx->pos = 0;
    lx->line = line;
    lx->col = 1;
    lx->quick = 1;
    lx->parens = NULL;
    lx->nparens = lx->parens_cap = 0;
    lx->uspace_line = lx->uspace_col = 0;
    lx->uspace = 0;
    lx->match = compiled() ? pcre2_match_data_create_from_pattern(code, NULL) : NULL;
    return lx->match ? 0 : -1;
}

void lexer_free(struct lexer *lx)
{
    pcre2_match_data_free(lx->match);
    lx->match = NULL;
    free(lx->parens);
    lx->parens = NULL;
    lx->nparens = lx->parens_cap = 0;
}

void lexer_skip_to(struct lexer *lx, size_t off)
{
    for (; lx->pos < off && lx->pos < lx->len; lx->pos++) {
        unsigned char c = (unsigned char)lx->text[lx->pos];
        if (c == '\n') {
            lx->line++;
            lx->col = 1;
        } else if ((c & 0xC0) != 0x80) {   /* columns count characters */
            lx->col++;
        }
    }
}

static const enum token_type type_of_group[] = {
    T_EOF, T_EOF, T_TAG, T_TAG, T_BAD_TAG, T_COMMENT, T_OPEN_COMMENT, T_RESULT,
    T_NUMBER, T_NUMBER, T_CAPTURE, T_CAPTURE, T_CAPTURE, T_CAPTURE, T_JUDGEMENT, T_NAG,
    T_HOLE, T_SEMI, T_LPAREN, T_RPAREN, T_HOLE_NUMBER, T_HOLE_COORD, T_JOIN, T_SLASH,
    T_WORD,
};

static struct span group(PCRE2_SIZE *ov, int g)
{
    struct span s = { ov[2 * g], ov[2 * g + 1] - ov[2 * g] };
    return s;
}

/* The value of the digits of group g: strtoul would read past the end of
 * the text, which need not end with a NUL.  Saturates at ULONG_MAX, which
 * every caller's range check then refuses. */
static unsigned long number(const struct lexer *lx, PCRE2_SIZE *ov, int g)
{
    unsigned long v = 0;
    for (size_t i = ov[2 * g]; i < ov[2 * g + 1]; i++) {
        unsigned d = (unsigned)(lx->text[i] - '0');
        v = v > (ULONG_MAX - d) / 10 ? ULONG_MAX : 10 * v + d;
    }
    return v;
}

static int is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static size_t unicode_space(const struct lexer *lx, size_t i)
{
    return (unsigned char)lx->text[i] >= 0xC2 ? util_unicode_space(lx->text + i,
                                                                   lx->text + lx->len) : 0;
}

/* Remember the first space that is not ASCII among text[from..to), for the
 * parser's note. */
static void note_unicode_space(struct lexer *lx, size_t from, size_t to)
{
    if (lx->uspace_line)
        return;
    struct lexer at = *lx;
    for (size_t i = from; i < to; i++) {
        size_t n = unicode_space(lx, i);
        if (n) {
            lexer_skip_to(&at, i);
            lx->uspace_line = at.line;
            lx->uspace_col = at.col;
            lx->uspace = util_utf8_decode((const unsigned char *)lx->text + i, (int)n);
            return;
        }
    }
}

/* Where a hole letter may end: what the pattern's (?![^\s(){};!?$]) allows. */
static int ends_letter(const struct lexer *lx, size_t i)
{
    if (i >= lx->len)
        return 1;
    char c = lx->text[i];
    return is_space(c) || c == '(' || c == ')' || c == '{' || c == '}' || c == ';'
        || c == '!' || c == '?' || c == '$' || c == '/' || c == '-' || unicode_space(lx, i);
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static size_t skip_tabs(const struct lexer *lx, size_t i)
{
    while (i < lx->len && (lx->text[i] == ' ' || lx->text[i] == '\t'))
        i++;
    return i;
}

/* The digits at i: their value (saturated) and the offset past them. */
static size_t digits(const struct lexer *lx, size_t i, unsigned long *value)
{
    unsigned long v = 0;
    for (; i < lx->len && is_digit(lx->text[i]); i++) {
        unsigned d = (unsigned)(lx->text[i] - '0');
        v = v > (ULONG_MAX - d) / 10 ? ULONG_MAX : 10 * v + d;
    }
    *value = v;
    return i;
}

/* A move number, "12." or "12...", as the pattern's alternative 8 takes it
 * (no alternative before it matches digits and a dot).  Returns its end, or
 * 0 if it is not one. */
static size_t quick_number(const struct lexer *lx, struct token *t)
{
    size_t i = digits(lx, lx->pos, &t->value), dot = skip_tabs(lx, i);
    if (dot >= lx->len || lx->text[dot] != '.')
        return 0;
    t->dots = dot + 2 < lx->len && lx->text[dot + 1] == '.' && lx->text[dot + 2] == '.' ? 3 : 1;
    return dot + (size_t)t->dots;
}

/* A plain capture count, "(+4)" or "( x 12 )", as alternative 10 takes it;
 * anything more (a footnote mark, a space that is not ASCII) is left to
 * the pattern.  Returns its end, or 0. */
static size_t quick_capture(const struct lexer *lx, struct token *t)
{
    size_t i = skip_tabs(lx, lx->pos + 1);
    if (i >= lx->len || (lx->text[i] != '+' && lx->text[i] != 'x'))
        return 0;
    t->style = lx->text[i];
    i = skip_tabs(lx, i + 1);
    if (i >= lx->len || !is_digit(lx->text[i]))
        return 0;
    i = skip_tabs(lx, digits(lx, i, &t->value));
    if (i >= lx->len || lx->text[i] != ')')
        return 0;
    i++;
    if (i < lx->len && ((unsigned char)lx->text[i] == 0xC2 || (unsigned char)lx->text[i] == 0xE2))
        return 0;   /* perhaps a mark after it */
    t->b.len = 0;
    return i;
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

/* A tag pair with straight quotes and ASCII blanks, as alternative 2 takes
 * it; anything else (curly quotes, other spaces, a malformed pair) is left
 * to the pattern.  Returns its end, or 0. */
static size_t quick_tag(const struct lexer *lx, struct token *t)
{
    size_t i = skip_tabs(lx, lx->pos + 1), name = i;
    while (i < lx->len && is_name_char(lx->text[i]))
        i++;
    if (i == name || i >= lx->len || (lx->text[i] != ' ' && lx->text[i] != '\t'))
        return 0;
    t->a.off = name;
    t->a.len = i - name;
    i = skip_tabs(lx, i);
    if (i >= lx->len || lx->text[i] != '"')
        return 0;
    size_t value = ++i;
    for (;; i++) {
        if (i >= lx->len || lx->text[i] == '\n')
            return 0;
        if (lx->text[i] == '"')
            break;
        if (lx->text[i] == '\\' && (i + 1 >= lx->len || lx->text[++i] == '\n'))
            return 0;
    }
    t->b.off = value;
    t->b.len = i - value;
    i = skip_tabs(lx, i + 1);
    return i < lx->len && lx->text[i] == ']' ? i + 1 : 0;
}

/* Does the '(' at pos open no capture count (alternative 10 cannot match),
 * so that it is a plain '('?  What might begin a space that is not ASCII
 * is left to the pattern. */
static int plain_paren(const struct lexer *lx)
{
    size_t i = skip_tabs(lx, lx->pos + 1);
    if (i >= lx->len)
        return 1;
    unsigned char c = (unsigned char)lx->text[i];
    return c != '+' && c != 'x' && c < 0x80;
}

/* Take the token up to `end`, ASCII on one line (a column a byte). */
static int take_ascii(struct lexer *lx, struct token *t, enum token_type type, size_t end)
{
    t->type = type;
    t->len = end - lx->pos;
    lx->col += (unsigned)t->len;
    lx->pos = end;
    return 1;
}

/* The commonest tokens (spaces, hole letters, move numbers, capture counts,
 * ';', '/', '-' and ')') are taken by hand: each costs the pattern hundreds
 * of instructions, as it tries its alternatives in turn.  Returns 1 if it
 * took a token, 0 to use the pattern.  It must agree with the pattern
 * exactly. */
static int quick_token(struct lexer *lx, struct token *t)
{
    char c = lx->text[lx->pos];
    size_t end;
    if (is_digit(c) && (end = quick_number(lx, t)) > 0)
        return take_ascii(lx, t, T_NUMBER, end);
    if (c == '(' && (end = quick_capture(lx, t)) > 0)
        return take_ascii(lx, t, T_CAPTURE, end);
    if (c == '[' && (end = quick_tag(lx, t)) > 0) {
        t->type = T_TAG;   /* its value may hold characters of several bytes */
        t->len = end - lx->pos;
        lexer_skip_to(lx, end);
        return 1;
    }
    if (c == '!' || c == '?') {
        char d = lx->pos + 1 < lx->len ? lx->text[lx->pos + 1] : 0;
        return take_ascii(lx, t, T_JUDGEMENT, lx->pos + (d == '!' || d == '?' ? 2 : 1));
    }
    enum token_type type;
    if (((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) && ends_letter(lx, lx->pos + 1))
        type = T_HOLE;
    else if (c == ';')
        type = T_SEMI;
    else if (c == '/')
        type = T_SLASH;
    else if (c == '-')
        type = T_JOIN;
    else if (c == ')')
        type = T_RPAREN;
    else if (c == '(' && plain_paren(lx))
        type = T_LPAREN;
    else
        return 0;
    return take_ascii(lx, t, type, lx->pos + 1);
}

void lexer_next(struct lexer *lx, struct token *t)
{
    for (;;) {
        while (lx->quick && lx->pos < lx->len) {
            char c = lx->text[lx->pos];
            if (c == ' ') {   /* the commonest by far */
                lx->pos++;
                lx->col++;
                continue;
            }
            size_t n = is_space(c) ? 1 : unicode_space(lx, lx->pos);
            if (!n)
                break;
            if (n > 1)
                note_unicode_space(lx, lx->pos, lx->pos + n);
            lexer_skip_to(lx, lx->pos + n);
        }
        t->line = lx->line;
        t->col = lx->col;
        t->off = lx->pos;
        t->len = 0;
        if (lx->pos >= lx->len) {
            t->type = T_EOF;
            return;
        }
        if (lx->quick && quick_token(lx, t))
            return;
        int rc = pcre2_match(code, (PCRE2_SPTR)lx->text, lx->len, lx->pos, 0,
                             lx->match, NULL);
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(lx->match);
        int g = 1;
        if (rc < 0) {
            /* Cannot happen (the last alternative takes any other byte but
             * a NUL); a lone byte is then a word. */
            t->type = T_WORD;
            t->len = 1;
            lexer_skip_to(lx, lx->pos + 1);
            return;
        }
        while (g < rc && ov[2 * g] == PCRE2_UNSET)
            g++;
        t->type = type_of_group[g];
        t->len = ov[1] - ov[0];
        switch (g) {
        case 1:
            note_unicode_space(lx, ov[2], ov[3]);
            lexer_skip_to(lx, ov[1]);
            continue;
        case 2:
            t->a = group(ov, 2);
            t->b = group(ov, 3);
            break;
        case 5:
            t->a = group(ov, 5);
            break;
        case 8:
            t->value = number(lx, ov, 8);
            t->dots = (int)(ov[19] - ov[18]);
            break;
        case 10:
            t->style = lx->text[ov[20]];
            t->value = number(lx, ov, 11);
            t->b.len = 0;
            if (rc > 12 && ov[24] != PCRE2_UNSET)
                t->b = group(ov, 12);
            else if (rc > 13 && ov[26] != PCRE2_UNSET)
                t->b = group(ov, 13);
            break;
        case 15:
            t->value = number(lx, ov, 15);
            break;
        case 20:
            t->value = number(lx, ov, 20);
            break;
        default:
            break;
        }
        lexer_skip_to(lx, ov[1]);
        return;
    }
}

/* The parens a probe records, at most: past them a nested '(' is probed
 * anew, which a game's limit on variations makes rare. */
#define MAX_PARENS 65536

static struct paren *record_paren(struct lexer *lx, size_t open)
{
    if (lx->nparens == lx->parens_cap) {
        size_t cap = lx->parens_cap ? 2 * lx->parens_cap : 64;
        struct paren *p = cap <= MAX_PARENS ? realloc(lx->parens, cap * sizeof *p) : NULL;
        if (!p)
            return NULL;
        lx->parens = p;
        lx->parens_cap = cap;
    }
    struct paren *p = &lx->parens[lx->nparens++];
    p->open = open;
    p->end = lx->len;
    p->closed = p->words = 0;
    return p;
}

static const struct paren *recorded(const struct lexer *lx, size_t open)
{
    size_t lo = 0, hi = lx->nparens;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (lx->parens[mid].open < open)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < lx->nparens && lx->parens[lo].open == open ? &lx->parens[lo] : NULL;
}

/* Where a word found at this depth of a probe is marked: the innermost
 * recorded paren, or the probed one itself. */
static int *words_at(struct lexer *lx, const size_t *stack, int depth, int *words)
{
    return depth > 0 ? &lx->parens[stack[depth - 1]].words : words;
}

/* One probe finds the extent of the '(' and of every '(' nested in it, so
 * that the parser's probes of nested ones cost nothing: reading stays
 * linear in the text however deep the parentheses go.  A paren holds words
 * if any paren inside it does. */
int lexer_paren_is_comment(struct lexer *lx, size_t *end, int *closed)
{
    const struct paren *known = recorded(lx, lx->pos - 1);
    if (known) {
        *end = known->end;
        *closed = known->closed;
        return known->words;
    }
    struct lexer probe = *lx;
    struct token t;
    size_t stack[128];          /* indices of open nested parens recorded */
    int depth = 0, words = 0, lost = 0;   /* lost: opens deeper than the stack */
    lx->nparens = 0;
    probe.parens = NULL;        /* the probe records into lx */
    for (;;) {
        lexer_next(&probe, &t);
        if (t.type == T_WORD) {
            *words_at(lx, stack, depth, &words) = 1;
        } else if (t.type == T_LPAREN) {
            struct paren *p = depth < 128 && !lost ? record_paren(lx, t.off) : NULL;
            if (p)
                stack[depth++] = (size_t)(p - lx->parens);
            else
                lost++;
        } else if (t.type == T_RPAREN && lost) {
            lost--;
        } else if ((t.type == T_RPAREN || t.type == T_EOF) && depth > 0) {
            /* A nested one closes, or runs to the end left open. */
            struct paren *p = &lx->parens[stack[--depth]];
            if (t.type == T_RPAREN) {
                p->end = t.off + 1;
                p->closed = 1;
            }
            *words_at(lx, stack, depth, &words) |= p->words;
        } else if (t.type == T_RPAREN || t.type == T_EOF) {
            *end = t.type == T_RPAREN ? t.off + 1 : lx->len;
            *closed = t.type == T_RPAREN;
            return words;
        }
    }
}
