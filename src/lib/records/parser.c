/* parser.c - PMN text to records, by recursive descent over the tokens of
 * lexer.c.  grammar/pmn.ebnf is the grammar; each parsing function opens
 * with the rule it parses. */
#include "pmn.h"
#include "lexer.h"
#include "parser.h"
#include "record.h"
#include "heading.h"
#include "../base/util.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void advance(struct parser *p)
{
    lexer_next(&p->lx, &p->tok);
}

/* At most 40 characters of the offending text, to quote in a message. */
static const char *quoted(const char *text, size_t len, char buf[64])
{
    /* A NUL byte (kept in the text as read) as the other control
     * characters are written in messages (pmn_text_escape), not an end. */
    size_t n = 0, shown = len > 40 ? 40 : len;
    for (size_t i = 0; i < shown && n + 8 < 64; i++) {
        if (text[i])
            buf[n++] = text[i];
        else
            n += (size_t)snprintf(buf + n, 64 - n, "\\x00");
    }
    snprintf(buf + n, 64 - n, "%s", len > shown ? "..." : "");
    return buf;
}

static void report(struct parser *p, pmn_diag_code code, pmn_at line, pmn_at col,
                   const char *fmt, const char *arg, size_t len)
{
    char msg[64];
    diag_report(p->fn, p->ctx, code, line, col, fmt, quoted(arg, len, msg));
}

static int nomem(struct parser *p)
{
    p->nomem = 1;
    return -1;
}

/* The text between two offsets with surrounding space trimmed. */
static void trimmed(const char *text, size_t *off, size_t *len)
{
    while (*len && isspace((unsigned char)text[*off])) {
        ++*off;
        --*len;
    }
    while (*len && isspace((unsigned char)text[*off + *len - 1]))
        --*len;
}

/* A limit of the game is reached: said once, and the rest of the game's
 * movetext is skipped (parse_line). */
static void over_limit(struct parser *p, const char *what, int limit)
{
    if (!p->over)
        diag_report(p->fn, p->ctx, PMN_E124, p->tok.line, p->tok.col,
                    "more than %d %s in one game, pmn's limit: the rest of the game is skipped",
                    limit, what);
    p->over = 1;
}

/* Skip to the end of the game: the next tags, a result, or the end. */
static void skip_rest(struct parser *p)
{
    while (p->tok.type != T_EOF && p->tok.type != T_TAG && p->tok.type != T_BAD_TAG
           && p->tok.type != T_RESULT)
        advance(p);
}

/* The text of a {comment}: \} is '}' and \\ is '\'; a backslash before
 * anything else is itself.  Returns the length, written into out. */
static size_t unescaped(const char *s, size_t len, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\\' && i + 1 < len && (s[i + 1] == '}' || s[i + 1] == '\\'))
            i++;
        out[n++] = s[i];
    }
    return n;
}

/* Text cannot hold a NUL byte (a record's strings end at one): each in
 * s[0..len) is said and becomes U+FFFD.  out has room for 3 * len bytes;
 * returns the length written. */
static size_t without_nul(struct parser *p, const char *s, size_t len, char *out,
                          const char *where)
{
    size_t n = 0;
    int said = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\0') {
            out[n++] = s[i];
            continue;
        }
        if (!said++)
            diag_report(p->fn, p->ctx, PMN_W130, p->tok.line, p->tok.col,
                        "a NUL byte in %s, which text cannot hold: kept as U+FFFD", where);
        memcpy(out + n, "\xEF\xBF\xBD", 3);
        n += 3;
    }
    return n;
}

/* Keep the comment at text[off..off+len); braces: it was written in {}. */
static int add_comment(struct parser *p, pmn_line *line, pmn_move *last,
                       size_t off, size_t len, int braces)
{
    trimmed(p->lx.text, &off, &len);
    if (len > PMN_MAX_COMMENT) {
        diag_report(p->fn, p->ctx, PMN_E124, p->tok.line, p->tok.col,
                    "a comment of %zu bytes, more than pmn's limit of %u: its first %u are "
                    "kept", len, PMN_MAX_COMMENT, PMN_MAX_COMMENT);
        len = PMN_MAX_COMMENT;
        while (len > 0 && ((unsigned char)p->lx.text[off + len] & 0xC0) == 0x80)
            len--;   /* not inside a character */
    }
    const char *text = p->lx.text + off;
    char *copy = NULL;
    int nul = memchr(text, '\0', len) != NULL;
    if ((braces && memchr(text, '\\', len)) || nul) {
        if (!(copy = malloc(3 * len + 1)))
            return nomem(p);
        size_t n = braces ? unescaped(text, len, copy) : (memcpy(copy, text, len), len);
        if (nul) {
            char *clean = malloc(3 * n + 1);
            if (!clean) {
                free(copy);
                return nomem(p);
            }
            n = without_nul(p, copy, n, clean, "a comment");
            free(copy);
            copy = clean;
        }
        len = n;
        text = copy;
    }
    int rc = last ? record_move_add_comment(last, text, len)
                  : record_line_add_lead(line, text, len);
    free(copy);
    return rc < 0 ? nomem(p) : 0;
}

/* tag -> '[' NAME '"' VALUE '"' ']' */
static const char *result_of_text(struct parser *p, const char *s, size_t len, pmn_at line,
                                  pmn_at col);

static int parse_tag(struct parser *p, pmn_record *rec)
{
    const char *v = p->lx.text + p->tok.b.off;
    char *value = malloc(3 * p->tok.b.len + 1);
    size_t n = 0;
    if (!value)
        return nomem(p);
    /* Undo the escapes \" and \\ of the value. */
    for (size_t i = 0; i < p->tok.b.len; i++) {
        if (v[i] == '\\' && i + 1 < p->tok.b.len)
            i++;
        value[n++] = v[i];
    }
    if (memchr(value, '\0', n)) {
        char where[64], *clean = malloc(3 * n + 1);
        if (!clean) {
            free(value);
            return nomem(p);
        }
        snprintf(where, sizeof where, "the value of tag %.*s", (int)p->tok.a.len,
                 p->lx.text + p->tok.a.off);
        n = without_nul(p, value, n, clean, where);
        free(value);
        value = clean;
    }
    /* Tag names and the text before a value are ASCII: bytes are columns. */
    pmn_at value_col = p->tok.col + (unsigned)(p->tok.b.off - p->tok.off);
    if (p->lx.text[p->tok.b.off - 1] != '"' && !p->said_curly) {
        p->said_curly = 1;
        diag_report(p->fn, p->ctx, PMN_N126, p->tok.line, value_col - 1,
                    "curly quotes around the value of tag %.*s, read as '\"' (first here)",
                    (int)p->tok.a.len, p->lx.text + p->tok.a.off);
    }
    if (p->tok.a.len == 6 && memcmp(p->lx.text + p->tok.a.off, "Result", 6) == 0
        && lexer_is_result(value, n)) {
        const char *r = result_of_text(p, value, n, p->tok.line, value_col);
        n = strlen(r);
        assert(n <= 3 * p->tok.b.len);   /* value holds that much: "½-½" is 5 */
        memcpy(value, r, n);
    }
    int rc = record_add_tag(rec, p->lx.text + p->tok.a.off, p->tok.a.len, value, n,
                            p->tok.line, p->tok.col, value_col);
    free(value);
    if (rc < 0)
        return nomem(p);
    advance(p);
    return 0;
}

/* Is this game written as a list of plies, "4/2/3/7-9-5/...", as the
 * Anywoli source writes one?  Such a list numbers no moves and needs no ';':
 * look ahead of the first move for a '/' outside parentheses. */
static int ply_list_ahead(struct parser *p)
{
    if (p->ply_list)
        return 1;
    struct lexer probe = p->lx;
    struct token t;
    int depth = 0;
    for (int i = 0; i < 256; i++) {
        lexer_next(&probe, &t);
        if (t.type == T_LPAREN)
            depth++;
        else if (t.type == T_RPAREN && depth > 0)
            depth--;
        else if (depth == 0 && t.type == T_SLASH)
            return p->ply_list = 1;
        else if (t.type == T_EOF || t.type == T_RESULT || t.type == T_TAG
                 || (depth == 0 && (t.type == T_HOLE || t.type == T_HOLE_NUMBER
                                    || t.type == T_HOLE_COORD || t.type == T_NUMBER
                                    || t.type == T_SEMI)))
            return 0;
    }
    return 0;
}

static void game_starts(struct parser *p, const struct token *t);
static int keep_prose(struct parser *p, pmn_move *last, const struct token *t);

/* A line of prose after the moves at t, kept as the last move's comment:
 * 1 where moves go on after it (a number, a result), 0 where it ends the
 * game, -1 when memory runs out. */
static int prose_after_moves(struct parser *p, pmn_move *last, const struct token *t)
{
    if (keep_prose(p, last, t) < 0)
        return -1;
    if (p->tok.type != T_NUMBER && p->tok.type != T_RESULT) {
        p->split = "the text after it ends the game";
        return 0;
    }
    return 1;
}

/* move -> LETTER | NUMBER | COORDINATE ; its annotations are parsed by
 * parse_line.  `side` is the side to move by turns, which numbers need. */
static pmn_move *parse_move(struct parser *p, pmn_line *line, const struct token *number,
                            int side)
{
    const struct token *t = &p->tok;
    if (p->moves >= PMN_MAX_GAME_MOVES) {
        over_limit(p, "moves", PMN_MAX_GAME_MOVES);
        return NULL;
    }
    pmn_move *m = record_line_add_move(line);
    if (!m) {
        nomem(p);
        return NULL;
    }
    const char *s = p->lx.text + t->off;
    memcpy(m->text, s, t->len < sizeof m->text - 1 ? t->len : sizeof m->text - 1);
    m->line = t->line;
    m->col = t->col;
    if (t->type == T_HOLE) {
        m->notation = PMN_NOTATION_LETTERS;
        m->side = isupper((unsigned char)s[0]) ? PMN_NORTH : PMN_SOUTH;
        m->hole = tolower((unsigned char)s[0]) - 'a';
    } else if (t->type == T_HOLE_NUMBER) {
        m->notation = PMN_NOTATION_NUMBERS;
        m->side = side;
        if (pmn_hole_from_number(&p->rules, t->value, &m->hole) < 0)
            m->hole = -1;
    } else {
        m->notation = PMN_NOTATION_COORDINATES;
        if (pmn_hole_from_coordinates(&p->rules, s[0] - 'a', s[1] - '1', &m->side, &m->hole) < 0) {
            m->side = side;
            m->hole = -1;
        }
    }
    if (p->notation < 0)
        p->notation = (int)m->notation;
    else if (p->notation != (int)m->notation)
        diag_report(p->fn, p->ctx, PMN_E119, t->line, t->col,
                    "'%s' is in the %s notation, but this game's moves are in %s", m->text,
                    pmn_notation_name(m->notation), pmn_notation_name((pmn_notation)p->notation));
    m->joined = p->join;
    p->join = 0;
    if (number) {
        char q[64];
        if (number->value > 0xFFFFFF)
            diag_report(p->fn, p->ctx, PMN_E125, number->line, number->col,
                        "move number %s is out of range (at most %u): read as %u",
                        quoted(p->lx.text + number->off, number->len, q), 0xFFFFFFu, 0xFFFFFFu);
        m->number = number->value > 0xFFFFFF ? 0xFFFFFF : (unsigned)number->value;
        m->number_dots = (unsigned char)number->dots;
    } else if (!p->said_number && !p->headed && !m->joined
               && (side == PMN_SOUTH || line->nmoves == 1)
               && !ply_list_ahead(p)) {
        p->said_number = 1;
        diag_report(p->fn, p->ctx, PMN_W120, t->line, t->col,
                    "move numbers are missing (first before '%s')", m->text);
    }
    if (p->in_junk && p->stip_len && line == &p->rec->main && line->nlead == 0
        && record_line_add_lead(line, p->lx.text + p->stip_off, p->stip_len) < 0) {
        nomem(p);
        return NULL;
    }
    game_starts(p, t);
    p->moves++;
    p->in_junk = 0;
    advance(p);
    return m;
}

static int annotate(struct parser *p, pmn_move *m)
{
    const struct token *t = &p->tok;
    const char *what = t->type == T_CAPTURE ? "capture count"
                     : t->type == T_JUDGEMENT ? "judgement" : "NAG";
    if (!m) {
        diag_report(p->fn, p->ctx, PMN_E106, t->line, t->col, "the %s '%.*s' follows no move",
                    what, (int)t->len, p->lx.text + t->off);
    } else if (t->type == T_CAPTURE) {
        if (m->claim >= 0)
            diag_report(p->fn, p->ctx, PMN_E106, t->line, t->col,
                        "a second capture count for move %s", m->text);
        else {
            char q[64];
            if (t->value > 65535)
                diag_report(p->fn, p->ctx, PMN_E125, t->line, t->col,
                            "the capture count '%s' of move %s is out of range (at most "
                            "65535 seeds): read as 65535", quoted(p->lx.text + t->off, t->len, q),
                            m->text);
            m->claim = t->value > 65535 ? 65535 : (int)t->value;
            if (t->b.len && !p->said_mark) {
                p->said_mark = 1;
                diag_report(p->fn, p->ctx, PMN_N126, t->line, t->col,
                            "'%.*s' read as the capture count (%c%lu) of move %s; the footnote "
                            "mark '%.*s' is kept apart, for a footnote line to take up (first "
                            "here)", (int)t->len,
                            p->lx.text + t->off, t->style, t->value, m->text, (int)t->b.len,
                            p->lx.text + t->b.off);
            }
            m->claim_style = t->style;
            m->claim_line = t->line;
            m->claim_col = t->col;
        }
    } else if (t->type == T_JUDGEMENT) {
        if (m->judgement[0])
            diag_report(p->fn, p->ctx, PMN_E106, t->line, t->col,
                        "a second judgement for move %s", m->text);
        else
            memcpy(m->judgement, p->lx.text + t->off, t->len);
    } else if (t->value > 255) {
        char q[64];
        diag_report(p->fn, p->ctx, PMN_E125, t->line, t->col,
                    "NAG '%s' of move %s is out of range ($0 to $255): not kept",
                    quoted(p->lx.text + t->off, t->len, q), m->text);
    } else if (m->nnags < PMN_MAX_NAGS) {
        m->nags[m->nnags++] = (unsigned)t->value;
    } else {
        diag_report(p->fn, p->ctx, PMN_E106, t->line, t->col, "more than %d NAGs for move %s",
                    PMN_MAX_NAGS, m->text);
    }
    advance(p);
    return 0;
}

/* A result as a page may print it (1–0, ½-½; lexer_is_result) is the
 * result it means, in the movetext and in the Result tag alike. */
static const char *result_of_text(struct parser *p, const char *s, size_t len, pmn_at line,
                                  pmn_at col)
{
    const char *r = s[0] == '*' ? "*" : s[0] == '0' ? "0-1"
                  : s[0] != '1' || (len > 1 && s[1] == '/') ? "1/2-1/2" : "1-0";
    if ((strlen(r) != len || memcmp(r, s, len) != 0) && !p->said_dash) {
        p->said_dash = 1;
        diag_report(p->fn, p->ctx, PMN_N126, line, col, "'%.*s' read as the result %s",
                    (int)len, s, r);
    }
    return r;
}

static const char *result_meant(struct parser *p, const struct token *t)
{
    return result_of_text(p, p->lx.text + t->off, t->len, t->line, t->col);
}

static int parse_line(struct parser *p, pmn_line *line, int depth, int side);

/* Where the line that holds offset off ends (its '\n' or the text's end). */
static size_t line_end(const struct parser *p, size_t off)
{
    const char *nl = memchr(p->lx.text + off, '\n', p->lx.len - off);
    return nl ? (size_t)(nl - p->lx.text) : p->lx.len;
}

/* The end of the text of the line that off is on, its trailing spaces
 * and carriage return left out. */
static size_t text_end(const struct parser *p, size_t off)
{
    size_t end = line_end(p, off);
    while (end > off && (p->lx.text[end - 1] == '\r' || p->lx.text[end - 1] == ' '))
        end--;
    return end;
}

/* Does the token begin its line (blanks before it)? */
static int begins_line(const struct parser *p, const struct token *t)
{
    for (size_t i = t->off; i > 0; i--) {
        char c = p->lx.text[i - 1];
        if (c == '\n')
            return 1;
        if (c != ' ' && c != '\t' && c != '\r' && !((unsigned char)c & 0x80))
            return 0;
    }
    return 1;
}

/* Is there a blank line (or only spaces) just before t's line? */
static int after_blank_line(const struct parser *p, const struct token *t)
{
    size_t i = t->off;
    while (i > 0 && p->lx.text[i - 1] != '\n')
        i--;
    if (i == 0)
        return 0;
    i--;   /* the line before ends here */
    while (i > 0 && (p->lx.text[i - 1] == ' ' || p->lx.text[i - 1] == '\t'
                     || p->lx.text[i - 1] == '\r'))
        i--;
    return i == 0 || p->lx.text[i - 1] == '\n';
}

/* The run of skipped lines, said once: where it starts, how many lines,
 * the first's text. */
static void said_junk(struct parser *p)
{
    if (!p->junk_lines)
        return;
    if (p->junk_lines == 1)
        diag_report(p->fn, p->ctx, PMN_N117, p->junk_line, p->junk_col,
                    "a line outside any game is skipped: '%s'", p->junk_text);
    else
        diag_report(p->fn, p->ctx, PMN_N117, p->junk_line, p->junk_col,
                    "%u lines outside any game are skipped (lines %u to %u; the first: '%s')",
                    p->junk_lines, (unsigned)p->junk_line, (unsigned)p->junk_last,
                    p->junk_text);
    p->junk_lines = 0;
}

/* A game read after skipped text starts where its first heading, lead
 * comment or move stands, not at the text: its diagnostics say so. */
static void game_starts(struct parser *p, const struct token *t)
{
    pmn_record *rec = p->rec;
    if (!p->started && p->junk_lines) {
        rec->line = t->line;
        rec->col = t->col;
    }
    p->started = 1;
}

/* The game a page names, taken as the Game tag of a record that has
 * none (its rules then read the moves), said once; --rules still wins. */
static int take_page_game(struct parser *p, pmn_at line, pmn_at col)
{
    if (!p->page_game[0] || pmn_record_find_tag(p->rec, "Game")
        || pmn_record_find_tag(p->rec, "Rules"))
        return 0;
    if (record_add_tag(p->rec, "Game", 4, p->page_game, strlen(p->page_game), line, col,
                       col) < 0)
        return nomem(p);
    if (!p->said_page_game) {
        p->said_page_game = 1;
        diag_report(p->fn, p->ctx, PMN_N127, line, col, "the page's title names %s: its "
                    "games are read under its rules, as the tag Game \"%s\"", p->page_game,
                    p->page_game);
    }
    pmn_setup setup;
    pmn_setup_record(p->rec, p->setup, &setup, NULL, NULL);
    p->rules = setup.rules;
    return 0;
}

/* Does the skipped line at t open with the name of a game pmn knows (a
 * page's title, "Anywoli → Italian.")?  The first such names the page's. */
static void page_game(struct parser *p, const struct token *t, size_t end)
{
    char word[16];
    size_t n = 0;
    const char *s = p->lx.text + t->off;
    pmn_rules r;
    if (p->page_game[0])
        return;
    while (n < sizeof word - 1 && t->off + n < end && isalpha((unsigned char)s[n])) {
        word[n] = (char)tolower((unsigned char)s[n]);
        n++;
    }
    word[n] = '\0';
    if (n < 4 || (t->off + n < end && isalnum((unsigned char)s[n]))
        || pmn_rules_builtin(word, &r) != 0)
        return;
    memcpy(p->page_game, s, n);
    p->page_game[n] = '\0';
    take_page_game(p, t->line, t->col);
}

/* A line of text before a game's first move (a heading, a page's prose)
 * is no part of it: the line is skipped, numbers and all, and counted in
 * its run, said once when the run ends. */
static void skip_junk(struct parser *p, const struct token *t)
{
    size_t end = line_end(p, t->off);
    if (!p->junk_lines) {
        char quoted[64];
        size_t n = text_end(p, t->off) - t->off, k = 0;
        const char *s = p->lx.text + t->off;
        /* Whole characters only, and an ellipsis where it is cut. */
        size_t room = sizeof quoted - 4;
        if (n > room) {
            n = room;
            while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
                n--;
        }
        for (size_t i = 0; i < n; i++)
            quoted[k++] = (unsigned char)s[i] < 0x20 ? ' ' : s[i];
        if (n < end - t->off && s[n] != '\r' && s[n] != ' ')
            memcpy(quoted + k, "...", 3), k += 3;
        quoted[k] = '\0';
        pmn_text_escape(quoted, p->junk_text, sizeof p->junk_text);
        p->junk_line = t->line;
        p->junk_col = t->col;
    }
    p->junk_lines++;
    p->junk_last = t->line;
    page_game(p, t, end);
    lexer_skip_to(&p->lx, end);
}

/* A problem's stipulation on a line of its own before the moves ("South to
 * play and win!"): the moves' lead comment, not text to skip. */
static int stipulation(const struct parser *p, const struct token *t)
{
    static const char *const words[] = { "to play and win", "to move wins", "to move and win",
                                         "to play wins" };
    size_t end = line_end(p, t->off);
    char line[128];
    size_t n = end - t->off < sizeof line - 1 ? end - t->off : sizeof line - 1;
    memcpy(line, p->lx.text + t->off, n);
    line[n] = '\0';
    if (strncmp(line, "South", 5) != 0 && strncmp(line, "North", 5) != 0)
        return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(line, words[i]))
            return 1;
    return 0;
}

/* A heading above a game that names its players and a date: its tags. */
static int problem_heading(const char *s, size_t n);
static int moves_after(const struct parser *p, size_t end);

static int read_heading(struct parser *p, const struct token *t)
{
    struct heading h;
    size_t end = line_end(p, t->off), len = text_end(p, t->off) - t->off;
    if (problem_heading(p->lx.text + t->off, len) && !pmn_record_find_tag(p->rec, "Event")
        && moves_after(p, end)) {
        /* "Problem 2": the problem's name, its Event. */
        if (record_add_tag(p->rec, "Event", 5, p->lx.text + t->off, len, t->line, t->col,
                           t->col) < 0)
            return nomem(p);
        diag_report(p->fn, p->ctx, PMN_N127, t->line, t->col,
                    "the heading read as the tag Event \"%.*s\"", (int)len,
                    p->lx.text + t->off);
        p->headed = 1;
        game_starts(p, t);
        lexer_skip_to(&p->lx, end);
        advance(p);
        return 1;
    }
    if (heading_parse(p->lx.text + t->off, len, &h) < 0)
        return 0;
    const char *tags[][2] = { { "South", h.south }, { "North", h.north }, { "Date", h.date },
                              { "SouthCountry", h.south_country },
                              { "NorthCountry", h.north_country } };
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
        if (tags[i][1][0] && !pmn_record_find_tag(p->rec, tags[i][0])
            && record_add_tag(p->rec, tags[i][0], strlen(tags[i][0]), tags[i][1],
                              strlen(tags[i][1]), t->line, t->col, t->col) < 0)
            return nomem(p);
    diag_report(p->fn, p->ctx, PMN_N127, t->line, t->col,
                "the heading read as the tags South \"%s\", North \"%s\", Date \"%s\"",
                h.south, h.north, h.date);
    p->headed = 1;
    game_starts(p, t);
    lexer_skip_to(&p->lx, end);
    advance(p);
    return 1;
}

/* A line of prose: it opens with two words, one of three letters or more
 * ("The board ...", "A shifted ..."), which no line of moves does. */
static int prose_ahead(const struct parser *p, const struct token *t)
{
    struct lexer probe = p->lx;
    struct token second;
    lexer_next(&probe, &second);
    if (second.line != t->line || second.type != T_WORD)
        return 0;
    if (t->type == T_WORD)
        return t->len >= 3 || second.len >= 3;
    return t->type == T_HOLE && isupper((unsigned char)p->lx.text[t->off]) && second.len >= 3;
}

/* Does the line after offset end go on with prose: does it open with a
 * word, or a letter and a word ("a draw")? */
static int prose_goes_on(const struct parser *p, size_t end)
{
    struct lexer probe = p->lx;
    struct token first, second;
    lexer_skip_to(&probe, end);
    lexer_next(&probe, &first);
    lexer_next(&probe, &second);
    if (first.type == T_WORD)
        return 1;
    return first.type == T_HOLE && second.type == T_WORD && second.line == first.line;
}

/* Prose after the moves of a game pasted from a page (what the page says of
 * the game) is kept as a comment of the last move: its lines up to a blank
 * line or one that does not open with words. */
static int keep_prose(struct parser *p, pmn_move *last, const struct token *t)
{
    size_t end = line_end(p, t->off);
    while (end < p->lx.len) {
        size_t i = end + 1;
        while (i < p->lx.len && (p->lx.text[i] == ' ' || p->lx.text[i] == '\t'
                                 || p->lx.text[i] == '\r'))
            i++;
        if (i >= p->lx.len || p->lx.text[i] == '\n' || !prose_goes_on(p, i))
            break;
        end = line_end(p, i);
    }
    diag_report(p->fn, p->ctx, PMN_N128, t->line, t->col,
                "text after the moves of move %s, kept as its comment", last->text);
    if (add_comment(p, NULL, last, t->off, end - t->off, 0) < 0)
        return -1;
    lexer_skip_to(&p->lx, end);
    advance(p);
    return 0;
}

/* Where a run of words that are no moves ends, from the word t: words
 * (numbers that name no hole among them), and the letters, numbers, marks
 * and ';' between two of them ("and South wins by 52 : 44 points."), up to
 * a blank line.  Returns the offset just past its last word. */
static size_t prose_run(const struct parser *p, const struct token *t)
{
    struct lexer probe = p->lx;
    struct token u;
    size_t end = t->off + t->len;
    pmn_at line = t->line;
    for (int between = 0;;) {
        lexer_next(&probe, &u);
        if (u.line > line + 1)
            break;   /* a blank line between */
        if (u.type == T_WORD || (u.type == T_HOLE_NUMBER && u.value > p->rules.pits)) {
            end = u.off + u.len;   /* a number that names no hole: a year, a page */
            between = 0;
        } else if ((u.type == T_HOLE || u.type == T_HOLE_NUMBER || u.type == T_JUDGEMENT
                    || u.type == T_SEMI || u.type == T_SLASH) && ++between <= 3) {
            /* on, if a word follows */
        } else {
            break;
        }
        line = u.line;
    }
    return end;
}

/* Words that join a move to the moves after it, as pages print their
 * variations ("3? is followed by 11/12/..."): the offset after them, or 0. */
static size_t connective(const struct parser *p, const struct token *t)
{
    static const char *const phrases[] = { "is followed by ", "followed by ", "and then ",
                                           "then " };
    const char *s = p->lx.text + t->off;
    size_t left = p->lx.len - t->off;
    for (size_t i = 0; i < sizeof phrases / sizeof phrases[0]; i++) {
        size_t n = strlen(phrases[i]);
        if (left > n && strncmp(s, phrases[i], n) == 0)
            return t->off + n - 1;
    }
    return 0;
}

static size_t closing_words(const struct parser *p, const struct token *t);

/* A '-' with words after it on its line that close the moves: the words'
 * dash, not one that joins two sowings. */
static int dash_before_words(const struct parser *p, const struct token *t)
{
    struct lexer probe = p->lx;
    struct token u;
    lexer_next(&probe, &u);
    return u.type == T_WORD && u.line == t->line && closing_words(p, &u);
}

/* Do the words at t close the moves: two or more on the line of the last
 * move, running to its end (a full stop at most after them), with nothing
 * of the game after them -- a blank line, the end, a result, a heading?
 * Where they do, the offset where they end; else 0. */
static size_t closing_words(const struct parser *p, const struct token *t)
{
    size_t end = prose_run(p, t);
    if (end == t->off + t->len)
        return 0;   /* one word: a slip, not a sentence */
    size_t i = end;
    while (i < p->lx.len && (p->lx.text[i] == ' ' || p->lx.text[i] == '\t'
                             || p->lx.text[i] == '\r' || p->lx.text[i] == '.'
                             || p->lx.text[i] == ')'))
        i++;
    if (i < p->lx.len && p->lx.text[i] != '\n')
        return 0;   /* more on the line: words among the moves */
    struct lexer probe = p->lx;
    struct token u;
    lexer_skip_to(&probe, end);
    lexer_next(&probe, &u);
    pmn_at line = t->line;   /* of the words' end */
    for (size_t k = t->off; k < i; k++)
        line += p->lx.text[k] == '\n';
    return u.type == T_EOF || u.type == T_RESULT || u.type == T_TAG
        || u.type == T_RPAREN || u.line > line + 1 || u.type == T_WORD ? end : 0;
}

/* A result the closing words state ("and North wins", "South wins by 52 :
 * 44 points", "a draw"), taken as the game's where it writes none, for the
 * replay to hold to how the game ended. */
static void stated_result(struct parser *p, const struct token *t, size_t to)
{
    size_t from = t->off;
    char words[160];
    size_t n = to - from < sizeof words - 1 ? to - from : sizeof words - 1;
    const char *result = NULL;
    for (size_t i = 0; i < n; i++)
        words[i] = (char)tolower((unsigned char)p->lx.text[from + i]);
    words[n] = '\0';
    if (p->rec->result[0])
        return;
    if (strstr(words, "south wins") || strstr(words, "south won"))
        result = "1-0";
    else if (strstr(words, "north wins") || strstr(words, "north won"))
        result = "0-1";
    else if (strstr(words, "a draw") || strstr(words, "drawn"))
        result = "1/2-1/2";
    if (result) {
        strcpy(p->rec->result, result);
        p->rec->result_line = t->line;
        p->rec->result_col = t->col;
    }
}

/* A problem's heading, as a page prints its problems and their solutions
 * one after the other: "Problem 2", "Endgame Problem 3" alone on a line. */
static int problem_heading(const char *s, size_t n)
{
    static const char *const words[] = { "Endgame Problem ", "Problem " };
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t k = strlen(words[i]);
        if (n > k && strncasecmp(s, words[i], k) == 0
            && strspn(s + k, "0123456789") == n - k)
            return 1;
    }
    return 0;
}

/* Do moves come next after offset end, blank lines apart (a problem's
 * solution under its heading, not the problem's text)? */
static int moves_after(const struct parser *p, size_t end)
{
    struct lexer probe = p->lx;
    struct token a, b;
    probe.parens = NULL;
    probe.nparens = 0;
    lexer_skip_to(&probe, end);
    lexer_next(&probe, &a);
    lexer_next(&probe, &b);
    return a.type == T_NUMBER || a.type == T_HOLE_NUMBER || a.type == T_HOLE_COORD
        || (a.type == T_HOLE && (b.type == T_HOLE || b.type == T_CAPTURE || b.type == T_SEMI
                                 || b.type == T_JUDGEMENT));
}

/* In the main line, after some moves: does a new game begin at t, as when
 * games are pasted from a page one after the other without results?  It
 * does at a heading, and at a move 1 after later moves. */
static const char *new_game_at(struct parser *p, const struct token *t)
{
    if (t->type == T_NUMBER && t->value == 1 && p->main_number > 1 && begins_line(p, t))
        return "a new game begins here, at move 1";
    if (t->type == T_WORD && begins_line(p, t)) {
        struct heading h;
        size_t end = line_end(p, t->off);
        if (heading_parse(p->lx.text + t->off, end - t->off, &h) == 0)
            return "a new game begins here, at its heading";
        if (problem_heading(p->lx.text + t->off, end - t->off) && moves_after(p, end))
            return "a new problem begins here, at its heading";
    }
    return NULL;
}

/* A '-' with no move after it before the line ends. */
static void dangling_join(struct parser *p)
{
    if (p->join)
        diag_report(p->fn, p->ctx, PMN_E101, p->join_tok.line, p->join_tok.col,
                    "a '-' that joins no two sowings of a turn");
    p->join = 0;
}

/* Deeper variations are skipped whole: recursion must not exhaust the
 * stack on hostile input, and no real record comes near this.  At 100, a
 * game's XML (two elements a level) stays within libxml2's limit of 256. */
#define MAX_DEPTH 100

/* "(4)" after a move of letters or coordinates: no variation is a lone
 * number there, so it is a capture count that lacks its '+'. */
static int bare_count(struct parser *p, pmn_move *last)
{
    if (!last || last->claim >= 0 || last->notation == PMN_NOTATION_NUMBERS)
        return 0;
    struct lexer probe = p->lx;
    struct token n, close;
    lexer_next(&probe, &n);
    lexer_next(&probe, &close);
    if (n.type != T_HOLE_NUMBER || close.type != T_RPAREN || n.value > 65535)
        return 0;
    struct token open = p->tok;
    diag_report(p->fn, p->ctx, PMN_W129, open.line, open.col,
                "'(%lu)' after move %s read as its capture count (+%lu): did you mean (+%lu)?",
                n.value, last->text, n.value, n.value);
    last->claim = (int)n.value;
    last->claim_style = '+';
    last->claim_line = open.line;
    last->claim_col = open.col;
    p->lx = probe;
    advance(p);
    return 1;
}

/* variation -> '(' line ')'   |   comment -> '(' free text ')' */
/* A footnote mark of move m of the main line, for the footnote line that
 * gives its variation ("a) 2? (x3) 4 ..."): a lower-case letter. */
static void add_mark(struct parser *p, const pmn_line *line, const pmn_move *m, char mark)
{
    if (!islower((unsigned char)mark)
        || p->nmarks == (int)(sizeof p->marks / sizeof p->marks[0]))
        return;
    p->marks[p->nmarks].mark = mark;
    p->marks[p->nmarks].move = (size_t)(m - line->moves);
    p->nmarks++;
}

static long mark_move(const struct parser *p, char mark)
{
    for (int i = p->nmarks - 1; i >= 0; i--)
        if (p->marks[i].mark == mark)
            return (long)p->marks[i].move;
    return -1;
}

/* markref -> '(' LETTER ')': after a move of the numbers notation, a mark
 * that a footnote line takes up ("4!(a)"), not a variation of the move
 * named a.  Read past (with its mark kept); 1 if it was one. */
static int footnote_mark(struct parser *p, const pmn_line *line, pmn_move *last)
{
    struct lexer probe = p->lx;
    struct token a, b;
    probe.parens = NULL;
    probe.nparens = 0;
    lexer_next(&probe, &a);
    lexer_next(&probe, &b);
    if (p->notation != PMN_NOTATION_NUMBERS || a.type != T_HOLE || b.type != T_RPAREN
        || !islower((unsigned char)p->lx.text[a.off]))
        return 0;
    add_mark(p, line, last, p->lx.text[a.off]);
    lexer_skip_to(&p->lx, b.off + 1);
    advance(p);
    return 1;
}

/* footnote -> ( LETTER ')' | '(' LETTER ')' ) line, up to the end of its
 * line: the variation that the mark of that letter, after a move of the
 * main line, points to ("a) 2? (x3) 4 (x1); ... and North wins.",
 * "(a) 3? is followed by 11/12/..."), read as that move's variation.
 * Returns 1 if t opens one (read), 0 if not, -1 out of memory. */
static int footnote(struct parser *p, pmn_line *line, const struct token *t)
{
    struct lexer probe = p->lx;
    struct token a, b;
    probe.parens = NULL;
    probe.nparens = 0;
    size_t letter;
    if (t->type == T_HOLE) {
        letter = t->off;
        lexer_next(&probe, &b);
    } else if (t->type == T_LPAREN) {
        lexer_next(&probe, &a);
        lexer_next(&probe, &b);
        if (a.type != T_HOLE)
            return 0;
        letter = a.off;
    } else {
        return 0;
    }
    long at = mark_move(p, p->lx.text[letter]);
    if (b.type != T_RPAREN || b.line != t->line || at < 0 || (size_t)at >= line->nmoves)
        return 0;
    pmn_line *var = record_move_add_variation(&line->moves[at]);
    if (!var)
        return nomem(p);
    int side = line->moves[at].side;
    size_t outer = p->stop;
    lexer_skip_to(&p->lx, b.off + 1);
    advance(p);
    p->stop = line_end(p, b.off);
    p->variations++;
    int rc = parse_line(p, var, 1, side);
    p->stop = outer;
    dangling_join(p);
    return rc < 0 ? -1 : 1;
}

static int is_hole(const struct token *t)
{
    return t->type == T_HOLE || t->type == T_HOLE_NUMBER || t->type == T_HOLE_COORD;
}

/* Free text in parentheses that opens as a variation does (a move number,
 * then two moves or more before the first word that is none of the
 * notation's, "(1. b L; 2. c xyz)"): the offset of that word, which the
 * variation is read up to; 0 for text that is a comment ("(a good move)"). */
static size_t readable_up_to(const struct lexer *lx)
{
    struct lexer probe = *lx;
    struct token t;
    int holes = 0, depth = 0, first = 1;
    probe.parens = NULL;
    probe.nparens = 0;
    for (;; first = 0) {
        lexer_next(&probe, &t);
        if (t.type == T_EOF || (t.type == T_RPAREN && depth == 0))
            return 0;
        if (t.type == T_LPAREN || t.type == T_RPAREN) {
            depth += t.type == T_LPAREN ? 1 : -1;
        } else if (depth == 0 && first && t.type != T_NUMBER) {
            return 0;
        } else if (depth == 0 && t.type == T_WORD) {
            return holes >= 2 ? t.off : 0;
        } else if (depth == 0) {
            holes += is_hole(&t);
        }
    }
}

/* A variation after a later sowing of a turn that does not open with '-'
 * is an alternative to the whole turn, as a variation after a move is in
 * PGN ("3. a-c (3. b-d ...)"): moved from last, where it was read, to the
 * turn's first sowing, from whose position it is replayed.  One opening
 * with '-' stays: it replaces the sowing before it. */
static void to_turn(pmn_line *line, pmn_move *last)
{
    size_t k = (size_t)(last - line->moves);
    assert(k < line->nmoves && last->nvariations > 0);
    while (k > 0 && line->moves[k].joined)
        k--;
    pmn_move *first = &line->moves[k];
    if (first == last)
        return;
    pmn_line *to = record_move_add_variation(first);
    if (!to)
        return;   /* (out of memory: it stays where it was read) */
    *to = last->variations[--last->nvariations];
}

static int parse_paren(struct parser *p, pmn_line *line, pmn_move **last, int depth)
{
    struct token open = p->tok;
    if (bare_count(p, *last))
        return 0;
    if (depth == 0 && *last && footnote_mark(p, line, *last))
        return 0;
    size_t end, stop = 0;
    int closed;
    int comment = lexer_paren_is_comment(&p->lx, &end, &closed);
    if (comment && *last && (stop = readable_up_to(&p->lx)) != 0)
        comment = 0;
    if (!comment && depth + 1 > MAX_DEPTH) {
        diag_report(p->fn, p->ctx, PMN_E115, open.line, open.col,
                    "variations nested more than %d deep: this one is skipped", MAX_DEPTH);
        lexer_skip_to(&p->lx, end);
        advance(p);
        return 0;
    }
    if (comment) {
        size_t off = open.off + 1, len = end - off - (size_t)closed;
        if (!closed) {
            p->unclosed = 1;
            diag_report(p->fn, p->ctx, PMN_E103, open.line, open.col,
                        "this '(' is never closed: the text after it is kept as a comment");
        }
        if (add_comment(p, line, *last, off, len, 0) < 0)
            return -1;
        lexer_skip_to(&p->lx, end);
        advance(p);
        return 0;
    }
    if (p->variations >= PMN_MAX_GAME_VARIATIONS) {
        over_limit(p, "variations", PMN_MAX_GAME_VARIATIONS);
        return 0;
    }
    p->variations++;
    pmn_line scratch = { 0 };
    pmn_line *var = *last ? record_move_add_variation(*last) : &scratch;
    if (!var)
        return nomem(p);
    if (!*last)
        diag_report(p->fn, p->ctx, PMN_E106, open.line, open.col,
                    "a variation follows no move: it is read but not kept");
    advance(p);
    /* A variation replaces the move before it: the same side moves first. */
    size_t outer = p->stop;
    p->stop = stop;
    int rc = parse_line(p, var, depth + 1, *last ? (*last)->side : PMN_SOUTH);
    p->stop = outer;
    dangling_join(p);
    if (rc == 0 && !p->over && stop && p->tok.off == stop) {
        /* The rest, from the word on, kept as a comment and said. */
        struct token w = p->tok;
        size_t len = end - stop - (size_t)closed;
        report(p, PMN_E101, w.line, w.col, "cannot read '%s' in a variation: the variation "
               "is read up to it, and the rest kept as a comment", p->lx.text + w.off, w.len);
        pmn_move *at = var->nmoves ? &var->moves[var->nmoves - 1] : NULL;
        if (add_comment(p, var, at, stop, len, 0) < 0)
            return -1;
        if (!closed) {
            p->unclosed = 1;
            diag_report(p->fn, p->ctx, PMN_E103, open.line, open.col, "this '(' is never closed");
        }
        lexer_skip_to(&p->lx, end);
        advance(p);
    } else if (rc == 0 && !p->over) {
        if (p->tok.type == T_RPAREN) {
            advance(p);
        } else {
            p->unclosed = 1;
            diag_report(p->fn, p->ctx, PMN_E103, open.line, open.col, "this '(' is never closed");
        }
    }
    record_line_free(&scratch);
    if (*last && (*last)->joined && var->nmoves && !var->moves[0].joined)
        to_turn(line, *last);
    return rc;
}

/* A move or a move number that follows a full move must have a ';' before
 * it, as the sample games write them. */
static void need_semi(struct parser *p, int *semi, const struct token *t)
{
    if (*semi && !p->said_semi && !p->ply_list) {
        p->said_semi = 1;
        diag_report(p->fn, p->ctx, PMN_W121, t->line, t->col,
                    "a ';' is missing between full moves (first here)");
    }
    *semi = 0;
}

/* Can the rules give a player two moves running: a sowing earned, or a
 * pass of the opponent? */
static int again_possible(const struct parser *p)
{
    return p->rules.extra != PMN_EXTRA_NONE || p->rules.no_move == PMN_NO_MOVE_PASS;
}

/* What a line's moves carry from one token to the next. */
struct line_state {
    pmn_move *last;            /* the last move read */
    struct token number;       /* a move number read, for the move after it */
    int have_number;
    int semi;                  /* a full move ended: a ';' is due */
    int mover;                 /* whose turn the last move was */
    int side;                  /* whose move the next is, by turns */
    int agreed;                /* the last move's case agreed with its turn */
};

/* turn -> move {annotation} { '-' move {annotation} }: a move of the line
 * at the token t (a hole), and whose turn it is.  1 to read on, 0 at the
 * end of the line, -1 when memory runs out. */
static int line_move(struct parser *p, pmn_line *line, int depth, struct line_state *st,
                     struct token *t)
{
    /* A sentence that opens with a word that is a hole's letter ("A
     * player wins when ...", "A History of Board-Games"): prose, told
     * from a move by the word after it. */
    if (t->type == T_HOLE && depth == 0 && !st->have_number && !p->join
        && begins_line(p, t) && prose_ahead(p, t)) {
        if (p->in_junk) {
            skip_junk(p, t);
            advance(p);
            return 1;
        }
        if (st->last) {
            int rc = prose_after_moves(p, st->last, t);
            return rc <= 0 ? rc : 1;
        }
    }
    if (p->join && st->have_number) {
        diag_report(p->fn, p->ctx, PMN_E101, p->join_tok.line, p->join_tok.col,
                    "a '-' before a move number: the move after it begins a turn");
        p->join = 0;
    }
    if (!st->have_number && !p->join)
        need_semi(p, &st->semi, t);
    if (p->join && st->last)
        st->side = st->mover;
    else if (st->have_number)   /* "N." before South's move, "N..." North's */
        st->side = st->number.dots == 3 ? PMN_NORTH : PMN_SOUTH;
    if (depth == 0 && st->have_number)
        p->main_number = (unsigned)(st->number.value > 0xFFFFFF ? 0xFFFFFF : st->number.value);
    int numbered = st->have_number, prev_side = st->last ? st->last->side : -1;
    st->last = parse_move(p, line, st->have_number ? &st->number : NULL, st->side);
    st->have_number = 0;
    if (!st->last && p->nomem)
        return -1;
    if (!st->last)
        return 1;   /* over a limit: skipped from here */
    /* Turns are counted by the places moves stand in: a number
     * says whose move it is, and a letter of the same case as the
     * one before is the same player again (a sowing the move before
     * earned, or the opponent passed, where the rules have such
     * turns), unless that one was itself a slip.  So after a slip
     * of case, "1. I l;" or "1. I L;", the ';' and the numbers that
     * follow are where they belong. */
    if (numbered || st->last->joined || st->last->notation == PMN_NOTATION_NUMBERS
        || st->last->side != prev_side || !st->agreed || !again_possible(p))
        st->mover = st->side;
    st->agreed = st->last->side == st->mover;   /* no slip of case in this one */
    st->side = !st->mover;
    st->semi = st->mover == PMN_NORTH;
    return 1;
}

/* Words among or after the moves at the token t: a heading, the text that
 * ends a game, prose after the moves, words that join moves or close a
 * solution, or words read as nothing, kept as a comment.  1 to read on,
 * 0 at the end of the line, -1 when memory runs out. */
static int line_words(struct parser *p, pmn_line *line, int depth, struct line_state *st,
                      struct token *t)
{
    size_t words_end;   /* of words a page puts among or after moves */
    if (p->in_junk && begins_line(p, t)) {
        int rc = read_heading(p, t);
        if (rc < 0)
            return -1;
        if (rc > 0)
            return 1;
    }
    if (depth == 0 && st->last && begins_line(p, t) && after_blank_line(p, t)
        && !prose_ahead(p, t) && !moves_after(p, line_end(p, t->off))) {
        /* A word alone after a blank line below the moves (a page's
         * "Copyright", "References"): the game is over, and the
         * text is the page's. */
        p->split = "the text after it ends the game";
        return 0;
    }
    if (depth == 0 && st->last && begins_line(p, t) && prose_ahead(p, t)) {
        int rc = prose_after_moves(p, st->last, t);
        return rc <= 0 ? rc : 1;
    }
    if (p->in_junk) {
        if (begins_line(p, t) && !p->stip_len && stipulation(p, t)) {
            /* kept for the moves that follow, if any do */
            p->stip_off = t->off;
            p->stip_len = text_end(p, t->off) - t->off;
        }
        skip_junk(p, t);
    } else if (st->last && t->len == 1 && p->lx.text[t->off] == '.') {
        /* The full stop after the last move of a sentence. */
    } else if (st->last && (words_end = connective(p, t)) != 0) {
        /* "3? is followed by 11/12/...": words that join moves, as
         * a page prints a variation; kept where they stand. */
        report(p, PMN_N126, t->line, t->col, "the words '%s' between moves read as "
               "joining them, and kept as a comment", p->lx.text + t->off,
               words_end - t->off);
        if (add_comment(p, line, st->last, t->off, words_end - t->off, 0) < 0)
            return -1;
        lexer_skip_to(&p->lx, words_end);
    } else if (st->last && (words_end = closing_words(p, t)) != 0) {
        /* "... 14 6 (x1) and North wins.": the words a printed
         * solution closes with, kept as the last move's comment. */
        diag_report(p->fn, p->ctx, PMN_N128, t->line, t->col,
                    "text after the moves of move %s, kept as its comment", st->last->text);
        if (add_comment(p, NULL, st->last, t->off, words_end - t->off, 0) < 0)
            return -1;
        if (depth == 0)
            stated_result(p, t, words_end);
        lexer_skip_to(&p->lx, words_end);
    } else {
        /* A word, or a run of them: said once, and kept as a
         * comment where it stands. */
        size_t end = prose_run(p, t);
        struct token w = *t;
        if (end == t->off + t->len)
            report(p, PMN_E101, w.line, w.col, "cannot read '%s': kept as a comment",
                   p->lx.text + w.off, w.len);
        else {
            char words[48];   /* its lines run together */
            size_t n = 0;
            for (size_t i = w.off; i < end && n < sizeof words - 4; i++)
                words[n++] = p->lx.text[i] == '\n' || p->lx.text[i] == '\r'
                           ? ' ' : p->lx.text[i];
            if (n < end - w.off)
                memcpy(words + n, "...", 3), n += 3;
            report(p, PMN_E101, w.line, w.col, "cannot read the words '%s': no moves, "
                   "kept as a comment", words, n);
        }
        if (add_comment(p, line, st->last, w.off, end - w.off, 0) < 0)
            return -1;
        lexer_skip_to(&p->lx, end);
    }
    advance(p);
    return 1;
}

/* line -> { NUMBER | turn | comment | variation | ';' | '/' }
 * One switch over the line's tokens, a few lines a case (a turn's move,
 * line_move(), and words among the moves, line_words(), have their own
 * functions), kept in one piece so that the rule reads as the grammar
 * writes it (grammar/pmn.ebnf). */
static int parse_line(struct parser *p, pmn_line *line, int depth, int side)
{
    struct line_state st = { .last = NULL, .have_number = 0, .semi = 0, .mover = side,
                             .side = side, .agreed = 1 };
    for (;;) {
        struct token *t = &p->tok;
        if (p->over) {
            skip_rest(p);
            return 0;
        }
        if (depth == 0 && line->nmoves && (t->type == T_WORD || t->type == T_NUMBER)
            && (p->split = new_game_at(p, t)) != NULL)
            return 0;
        if (depth > 0 && p->stop && t->off >= p->stop)
            return 0;   /* where a partly readable variation or a footnote ends */
        if (depth == 0 && line->nmoves && begins_line(p, t)) {
            int rc = footnote(p, line, t);
            if (rc < 0)
                return -1;
            if (rc > 0)
                continue;
        }
        switch (t->type) {
        case T_EOF:
        case T_TAG:
        case T_BAD_TAG:
            return 0;
        case T_RESULT:
            if (depth == 0)
                return 0;
            result_meant(p, t);
            report(p, PMN_E107, t->line, t->col, "a result '%s' inside a variation: ignored",
                   p->lx.text + t->off, t->len);
            advance(p);
            break;
        case T_RPAREN:
            if (depth > 0)
                return 0;
            diag_report(p->fn, p->ctx, PMN_E104, t->line, t->col, "this ')' closes no '('");
            advance(p);
            break;
        case T_NUMBER:
            need_semi(p, &st.semi, t);
            st.number = *t;
            st.have_number = 1;
            advance(p);
            break;
        case T_HOLE:
        case T_HOLE_NUMBER:
        case T_HOLE_COORD: {
            int rc = line_move(p, line, depth, &st, t);
            if (rc <= 0)
                return rc;
            break;
        }
        case T_JOIN:
            /* A variation may open with '-': it replaces a sowing that
             * continued a turn. */
            if (st.last && !p->join && !st.have_number && dash_before_words(p, t)) {
                advance(p);   /* "... 3/11 - and South wins": the words' dash */
                break;
            }
            if (p->join || (!st.last && depth == 0) || st.have_number) {
                diag_report(p->fn, p->ctx, PMN_E101, t->line, t->col,
                            "a '-' that joins no two sowings of a turn");
            } else {
                p->join = 1;
                p->join_tok = *t;
            }
            advance(p);
            break;
        case T_SLASH:
            p->ply_list = 1;
            st.semi = 0;
            advance(p);
            break;
        case T_CAPTURE:
            if (depth == 0 && st.last && !st.have_number && t->b.len == 1)
                add_mark(p, line, st.last, p->lx.text[t->b.off]);
            annotate(p, st.have_number ? NULL : st.last);
            break;
        case T_JUDGEMENT:
        case T_NAG:
            annotate(p, st.have_number ? NULL : st.last);
            break;
        case T_COMMENT:
            if (add_comment(p, line, st.last, t->a.off, t->a.len, 1) < 0)
                return -1;
            advance(p);
            break;
        case T_OPEN_COMMENT:
            p->unclosed = 1;
            diag_report(p->fn, p->ctx, PMN_E102, t->line, t->col,
                        "this '{' is never closed: the text after it is kept as a comment");
            if (add_comment(p, line, st.last, t->off + 1, t->len - 1, 1) < 0)
                return -1;
            advance(p);
            break;
        case T_LPAREN:
            if (parse_paren(p, line, &st.last, depth) < 0)
                return -1;
            break;
        case T_SEMI:
            if (!st.semi && !p->said_extra_semi) {
                p->said_extra_semi = 1;
                diag_report(p->fn, p->ctx, PMN_W122, t->line, t->col,
                            "a ';' that ends no full move (first here)");
            }
            st.semi = 0;
            advance(p);
            break;
        case T_WORD: {
            int rc = line_words(p, line, depth, &st, t);
            if (rc <= 0)
                return rc;
            break;
        }
        }
    }
}

/* Spaces that are not ASCII, which the lexer took as spaces, said once. */
static void said_unicode_space(struct parser *p)
{
    if (!p->lx.uspace_line)
        return;
    if (p->lx.uspace == 0xFEFF)
        diag_report(p->fn, p->ctx, PMN_N126, p->lx.uspace_line, p->lx.uspace_col,
                    "a byte-order mark (U+FEFF), read as a space (first here)");
    else
        diag_report(p->fn, p->ctx, PMN_N126, p->lx.uspace_line, p->lx.uspace_col,
                    "U+%04lX, a space that is not ASCII (as web pages write them), read as a "
                    "space (first here)", p->lx.uspace);
    p->lx.uspace_line = 0;
}

/* game -> { tag } line [ RESULT ] */
int parser_game(struct parser *p, pmn_record *rec)
{
    pmn_record_init(rec);
    rec->line = p->tok.line;
    rec->col = p->tok.col;
    p->notation = -1;
    p->moves = p->variations = p->over = p->unclosed = 0;
    p->said_number = p->said_semi = p->said_extra_semi = 0;
    p->said_curly = p->said_dash = p->said_mark = 0;
    p->nmarks = 0;
    p->stop = 0;
    p->ply_list = p->join = 0;
    p->rec = rec;
    p->main_number = 0;
    p->split = NULL;
    p->headed = p->started = 0;
    p->stip_len = 0;
    while (p->tok.type == T_TAG || p->tok.type == T_BAD_TAG) {
        if (p->tok.type == T_BAD_TAG) {
            report(p, PMN_E105, p->tok.line, p->tok.col,
                   "malformed tag pair '%s' (expected [Name \"value\"])",
                   p->lx.text + p->tok.off, p->tok.len);
            advance(p);
        } else if (parse_tag(p, rec) < 0) {
            return -1;
        }
    }
    /* Text before the first move is a page's, skipped, in a record with no
     * tags or only those that say which game (a pasted page that a user
     * headed with [Game "Anywoli"]). */
    p->in_junk = 1;
    for (size_t i = 0; i < rec->ntags; i++)
        if (strcmp(rec->tags[i].name, "Game") != 0 && strcmp(rec->tags[i].name, "Rules") != 0)
            p->in_junk = 0;
    size_t tags = rec->ntags;
    if (take_page_game(p, rec->line, rec->col) < 0)
        return -1;
    /* The setup gives the rules (for numbers and coordinates) and the side
     * that moves first; what is wrong with it is the replay's to say. */
    pmn_setup setup;
    pmn_setup_record(rec, p->setup, &setup, NULL, NULL);
    p->rules = setup.rules;
    if (parse_line(p, &rec->main, 0, setup.start.to_move) < 0)
        return -1;
    said_junk(p);
    if (tags == 0 && rec->ntags == 1 && rec->main.nmoves == 0 && rec->main.nlead == 0)
        record_drop_tags(rec, "Game");   /* only the page's text: no game */
    dangling_join(p);
    if (p->tok.type == T_RESULT) {
        strcpy(rec->result, result_meant(p, &p->tok));
        rec->result_line = p->tok.line;
        rec->result_col = p->tok.col;
        advance(p);
    } else if (rec->result[0]) {
        /* stated in the words after the moves (stated_result) */
    } else if (p->moves && !p->unclosed && !p->over && p->headed) {
        /* A page prints its games so, under a heading: nothing to mend. */
        diag_report(p->fn, p->ctx, PMN_N134, p->tok.line, p->tok.col,
                    "the moves end without a result, as a page prints them under a heading: "
                    "the replay gives it (pmn convert --fix writes it)");
    } else if (p->moves && !p->unclosed && !p->over) {
        diag_report(p->fn, p->ctx, PMN_W118, p->tok.line, p->tok.col,
                    "the moves end without a result (1-0, 0-1, 1/2-1/2 or *)%s%s; pmn convert "
                    "--fix writes the one the replay proves, where the game ended",
                    p->split ? ": " : "", p->split ? p->split : "");
    }
    said_unicode_space(p);
    return 0;
}

int parser_game_is_empty(const pmn_record *rec)
{
    return rec->ntags == 0 && rec->main.nmoves == 0 && rec->main.nlead == 0
        && rec->result[0] == '\0';
}
