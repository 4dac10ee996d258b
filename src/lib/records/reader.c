/* reader.c - games one at a time from a stream, in bounded memory.
 *
 * The stream is cut into chunks of whole lines: a chunk ends where a line
 * opens with '[' after some movetext (outside a {comment}), since that is
 * where the tags of the next game begin.  The parser then reads the games
 * of a chunk (usually one; more when bare movetext games end with results).
 * A chunk of games without tags that has grown past LONG_CHUNK also ends at
 * a blank line after a line whose last token is a result, outside comments
 * and variations: an archive of a million tagless games is read a piece at
 * a time, not whole (and not refused as one game of 64 MiB). */
#include "pmn.h"
#include "parser.h"
#include "quick.h"
#include "../base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A game's text larger than this is refused: no real record comes near it,
 * and a file that is not PMN must not take all memory. */
#define MAX_CHUNK PMN_MAX_GAME_TEXT

/* Past this, a chunk also ends after a result (above).  Why not always: a
 * page pasted by hand may put a result where its words go on with the game
 * ("... North resigned 0-1", prose the parser reads as such); no such page
 * comes near this size, and a machine-written archive of tagless games does
 * end each with its result. */
#define LONG_CHUNK (256u << 10)

/* Problems reported while reading one game, at most: a file that is not
 * PMN at all must not bury the terminal. */
#define MAX_GAME_DIAGS 50

struct pmn_reader {
    FILE *f;
    pmn_diag_fn fn;
    void *ctx;
    unsigned game_diags;      /* reported while reading the current game */
    char *chunk;
    size_t len, cap;
    pmn_at chunk_line;        /* the file line where the chunk begins */
    pmn_at line;              /* lines read from the file */
    /* A line read ahead, which opens the next chunk: it stays in the chunk's
     * buffer at next_off, after the chunk's NUL, which took its first byte. */
    size_t next_off;
    ssize_t next_len;         /* -1: none */
    char next_first;
    int parsing;              /* the parser is inside the current chunk */
    size_t in_pos, in_len;    /* the input block: in[in_pos..in_len) unread */
    int in_eof;
    char in[1 << 16];
    int failed;
    struct parser p;
    size_t game_off, game_len;   /* the text of the game returned last */
    pmn_at game_line;
    int (*keep)(void *ctx, const char *text, size_t len);   /* pmn_reader_set_filter */
    void *keep_ctx;
    int quick_ready;          /* quick has been set up for p.setup */
    /* For pmn_reader_next_checked: made at its first call (68 KB, which a
     * reader of one game's text, as an index's lookup makes, need not
     * clear); keys, pmn_reader_keep_keys's, given to it. */
    struct quick *quick;
    uint64_t *keys;
    int in_filter;            /* keep() is asked about the chunk */
    int proved;               /* the game returned last was proved clean (2) */
    pmn_tag *tags;            /* pmn_reader_game_tags' */
    size_t tagscap;
    char *tagtext;
    size_t tagtextcap;
};

/* The parser reports through here: past MAX_GAME_DIAGS, one E123 says
 * the rest of the game's problems are not shown. */
static void capped(void *arg, const pmn_diag *d)
{
    pmn_reader *rd = arg;
    if (!rd->fn)
        return;
    if (++rd->game_diags < MAX_GAME_DIAGS) {
        rd->fn(rd->ctx, d);
    } else if (rd->game_diags == MAX_GAME_DIAGS) {
        pmn_diag more;
        pmn_diag_make(&more, PMN_E123, d->line, d->col,
                      "more than %d problems in this game: the rest are not shown",
                      MAX_GAME_DIAGS - 1);
        rd->fn(rd->ctx, &more);
    }
}

pmn_reader *pmn_reader_new(FILE *f, pmn_diag_fn fn, void *ctx)
{
    pmn_reader *rd = calloc(1, sizeof *rd);
    if (!rd)
        return NULL;
    rd->f = f;
    rd->fn = fn;
    rd->ctx = ctx;
    rd->next_len = -1;
    rd->p.fn = capped;
    rd->p.ctx = rd;
    return rd;
}

void pmn_reader_set_setup(pmn_reader *rd, const pmn_setup_options *o)
{
    rd->p.setup = o;
    rd->quick_ready = 0;
}

void pmn_reader_free(pmn_reader *rd)
{
    if (!rd)
        return;
    lexer_free(&rd->p.lx);
    free(rd->chunk);
    free(rd->tags);
    free(rd->tagtext);
    free(rd->quick);
    free(rd->keys);
    free(rd);
}

pmn_at pmn_reader_line(const pmn_reader *rd)
{
    return rd->line;
}

void pmn_reader_set_lines_before(pmn_reader *rd, pmn_at lines)
{
    rd->line = lines;
}

/* Refill the input block; 0 at the end of the input, -1 on a read error. */
static int refill(pmn_reader *rd)
{
    rd->in_pos = 0;
    rd->in_len = rd->in_eof ? 0 : fread(rd->in, 1, sizeof rd->in, rd->f);
    if (rd->in_len < sizeof rd->in) {
        rd->in_eof = 1;
        if (ferror(rd->f))
            return -1;
    }
    return rd->in_len > 0;
}

/* The next line, with its '\n', read into the chunk's buffer after the
 * chunk (at rd->chunk + rd->len, followed by a NUL): its length, 0 at the
 * end of the input, -1 on a read error, -2 if it is longer than limit (it
 * is then not read whole: a line is limited while it is read, not after),
 * -3 when memory runs out.  NUL bytes are kept.  The input is read in
 * blocks, each line found in them with memchr, and copied once. */
static ssize_t read_line(pmn_reader *rd, size_t limit)
{
    size_t n = 0;
    for (;;) {
        if (rd->in_pos == rd->in_len) {
            int rc = refill(rd);
            if (rc < 0)
                return -1;
            if (rc == 0)
                break;
        }
        const char *start = rd->in + rd->in_pos;
        size_t avail = rd->in_len - rd->in_pos;
        const char *nl = memchr(start, '\n', avail);
        size_t take = nl ? (size_t)(nl - start) + 1 : avail;
        if (n + take > limit)
            return -2;
        if (util_reserve(&rd->chunk, &rd->cap, rd->len + n + take + 1, 4096) < 0)
            return -3;
        memcpy(rd->chunk + rd->len + n, start, take);
        n += take;
        rd->in_pos += take;
        if (nl)
            break;
    }
    if (rd->chunk)
        rd->chunk[rd->len + n] = '\0';
    return (ssize_t)n;
}

static const char *skip_blanks(const char *s, size_t n)
{
    const char *end = s + n;
    for (;;) {
        size_t u;
        if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v')
            s++;
        else if ((unsigned char)*s < 0xC2)
            return s;   /* ASCII, most often: no space of Unicode */
        else if ((u = util_unicode_space(s, end)) > 0)
            s += u;
        else
            return s;
    }
}

static int fatal(pmn_reader *rd, int code, const char *what)
{
    rd->failed = 1;
    diag_report(rd->fn, rd->ctx, code, rd->line, 0, "%s", what);
    return -1;
}

/* Does the line s..e (outside comments, its variations closed) end with a
 * result token?  The token is what follows the last blank or bracket. */
static int ends_with_result(const char *s, const char *e)
{
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        e--;
    const char *t = e;
    while (t > s && !strchr(" \t(){};", t[-1]))
        t--;
    return t < e && lexer_is_result(t, (size_t)(e - t));
}

/* Read the next chunk; returns 1, 0 at the end of the input, -1 on error. */
static int load_chunk(pmn_reader *rd)
{
    int in_comment = 0, movetext = 0, depth = 0, result_ends = 0;
    rd->len = 0;
    if (rd->next_len >= 0) {
        rd->chunk_line = rd->line;
        rd->chunk[rd->next_off] = rd->next_first;
        memmove(rd->chunk, rd->chunk + rd->next_off, (size_t)rd->next_len + 1);
        rd->len = (size_t)rd->next_len;
        rd->next_len = -1;
    }
    for (;;) {
        errno = 0;
        ssize_t n = read_line(rd, MAX_CHUNK - rd->len);
        if (n == -2)
            return fatal(rd, 1, "a game of more than 64 MiB: is this a PMN file?");
        if (n == -3)
            return fatal(rd, 2, "out of memory");
        if (n <= 0) {
            if (n < 0) {
                char why[200];
                snprintf(why, sizeof why, "cannot read: %s", strerror(errno ? errno : EIO));
                return fatal(rd, 1, why);
            }
            break;
        }
        rd->line++;
        char *text = rd->chunk + rd->len;
        const char *s = skip_blanks(text, (size_t)n);
        int blank = *s == '\n' || *s == '\0';
        if (rd->len == 0 && blank)
            continue;
        if (blank && result_ends && rd->len >= LONG_CHUNK)
            break;   /* this blank line is the next chunk's: left out */
        if (rd->len == 0)
            rd->chunk_line = rd->line;
        int tag_line = *s == '[' && !in_comment;
        if (tag_line && movetext) {
            rd->next_off = rd->len;   /* the next game's first tag */
            rd->next_len = n;
            rd->next_first = *text;
            *text = '\0';
            break;
        }
        rd->len += (size_t)n;
        if (tag_line)
            continue;
        /* Up to a NUL, as the lexer reads: the comments, and the depth of
         * variations outside them. */
        const char *e = s + strlen(s);
        for (const char *c = s; c < e; c++) {
            if (in_comment && *c == '\\' && c + 1 < e)
                c++;   /* an escape: \} does not close the comment */
            else if (in_comment)
                in_comment = *c != '}';
            else if (*c == '{')
                in_comment = 1;
            else if (*c == '(')
                depth++;
            else if (*c == ')' && depth > 0)
                depth--;
        }
        if (!blank) {
            movetext = 1;
            /* Asked only of a long chunk: the lexer's pattern a line. */
            result_ends = rd->len >= LONG_CHUNK && !in_comment && depth == 0
                       && ends_with_result(s, e);
        }
    }
    return rd->len > 0;
}

int pmn_reader_next_text(pmn_reader *rd, const char **text, size_t *len, pmn_at *line)
{
    if (rd->failed)
        return -1;
    int rc = load_chunk(rd);
    if (rc <= 0)
        return rc;
    *text = rd->chunk;
    *len = rd->len;
    *line = rd->chunk_line;
    return 1;
}

int pmn_reader_next_part(pmn_reader *rd, size_t size, char **buf, size_t *cap, size_t *len,
                         pmn_at *first_line)
{
    const char *text;
    size_t n;
    pmn_at line, next = 0;   /* the line just after the part's text */
    *len = 0;
    while (*len < size) {
        int rc = pmn_reader_next_text(rd, &text, &n, &line);
        if (rc <= 0)
            return rc;
        if (*len == 0)
            *first_line = next = line;
        size_t blanks = line > next ? (size_t)(line - next) : 0;
        if (*len + blanks + n > *cap) {
            size_t want = *cap ? *cap : size + size / 2;
            while (want < *len + blanks + n)
                want *= 2;
            char *t = realloc(*buf, want);
            if (!t)
                return fatal(rd, 2, "out of memory (a part of the input)");
            *buf = t;
            *cap = want;
        }
        memset(*buf + *len, '\n', blanks);
        memcpy(*buf + *len + blanks, text, n);
        *len += blanks + n;
        next = line;
        for (const char *c = text; (c = memchr(c, '\n', (size_t)(text + n - c))) != NULL; c++)
            next++;
    }
    return 1;
}

/* Lex the chunk just loaded. */
static int start_chunk(pmn_reader *rd)
{
    lexer_free(&rd->p.lx);
    if (lexer_init(&rd->p.lx, rd->chunk, rd->len, rd->chunk_line) < 0)
        return fatal(rd, 2, "out of memory (compiling the lexer's pattern)");
    lexer_next(&rd->p.lx, &rd->p.tok);
    rd->parsing = 1;
    return 0;
}

/* Has the parser read all of its chunk? */
static int chunk_done(const pmn_reader *rd)
{
    return !rd->parsing || rd->p.tok.type == T_EOF;
}

/* The game just read ends before `end`, blanks left out. */
static void game_ends(pmn_reader *rd, size_t end)
{
    while (end > rd->game_off && (rd->chunk[end - 1] == ' ' || rd->chunk[end - 1] == '\t'
                                  || rd->chunk[end - 1] == '\n' || rd->chunk[end - 1] == '\r'))
        end--;
    rd->game_len = end - rd->game_off;
}

void pmn_reader_game_text(const pmn_reader *rd, const char **text, size_t *len,
                          pmn_at *line)
{
    *line = rd->game_line;
    *text = rd->chunk ? rd->chunk + rd->game_off : "";
    *len = rd->chunk ? rd->game_len : 0;
}

void pmn_reader_set_filter(pmn_reader *rd, int (*keep)(void *ctx, const char *text, size_t len),
                           void *ctx)
{
    rd->keep = keep;
    rd->keep_ctx = ctx;
}

/* The next chunk the filter keeps. */
static int next_chunk(pmn_reader *rd)
{
    int rc, keep = 1;
    do {
        /* Under a page's title, the parser gives the games its Game tag:
         * their tags as written are not theirs, so no piece is judged by
         * them (select's filter would leave out what the tag selects). */
        if ((rc = load_chunk(rd)) <= 0 || !rd->keep || rd->p.page_game[0])
            break;
        rd->in_filter = 1;
        keep = rd->keep(rd->keep_ctx, rd->chunk, rd->len);
        rd->in_filter = 0;
    } while (!keep);
    return rc;
}

/* tags -> { '[' NAME ' "' VALUE '"]' NEWLINE }, movetext following; NAME
 * letters, digits and '_'; VALUE without '"', '\\', '{' or NUL.  The quick
 * pass took such tags already where trusted. */
int pmn_reader_game_tags(pmn_reader *rd, const pmn_tag **tags, size_t *ntags)
{
    const char *text = rd->in_filter ? rd->chunk : rd->chunk ? rd->chunk + rd->game_off : "";
    size_t len = rd->in_filter ? rd->len : rd->chunk ? rd->game_len : 0;
    pmn_at line = rd->in_filter ? rd->chunk_line : rd->game_line;
    int trusted = !rd->in_filter && rd->proved;
    const char *s = text, *end = text + len;
    size_t n = 0, bytes = 0;
    *tags = NULL;
    *ntags = 0;
    if (!rd->in_filter && !rd->proved)
        return 0;   /* a game the parser read: its record has them */
    for (const char *t = s; t < end && *t == '['; n++) {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        bytes += (size_t)((nl ? nl : end) - t) + 1;
        t = nl ? nl + 1 : end;
        if (t == end || *t == '\0')
            return 0;   /* tags alone: not a game to read this way */
    }
    if (!n)
        return 0;
    if (n > rd->tagscap) {
        pmn_tag *t = realloc(rd->tags, n * sizeof *t);
        if (!t)
            return -1;
        rd->tags = t;
        rd->tagscap = n;
    }
    if (bytes > rd->tagtextcap) {
        char *t = realloc(rd->tagtext, bytes);
        if (!t)
            return -1;
        rd->tagtext = t;
        rd->tagtextcap = bytes;
    }
    char *out = rd->tagtext;
    for (size_t i = 0; i < n; i++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl;
        while (e > s && e[-1] == '\r')
            e--;
        const char *name = s + 1, *sp = name;
        if (trusted) {
            sp = memchr(name, ' ', (size_t)(e - name));
        } else {
            while (sp < e && ((*sp >= 'A' && *sp <= 'Z') || (*sp >= 'a' && *sp <= 'z')
                              || (*sp >= '0' && *sp <= '9') || *sp == '_'))
                sp++;
            if (sp == name || e - sp < 4 || sp[0] != ' ' || sp[1] != '"' || e[-1] != ']'
                || e[-2] != '"')
                return 0;
        }
        const char *value = sp + 2, *close = e - 2;
        for (const char *v = value; !trusted && v < close; v++)
            if (*v == '"' || *v == '\\' || *v == '{' || *v == '\0')
                return 0;
        pmn_tag *tag = &rd->tags[i];
        memset(tag, 0, sizeof *tag);
        tag->line = line + i;
        tag->col = 1;
        tag->value_col = (pmn_at)(value - s) + 1;
        tag->name = out;
        memcpy(out, name, (size_t)(sp - name));
        out += sp - name;
        *out++ = '\0';
        tag->value = out;
        memcpy(out, value, (size_t)(close - value));
        out += close - value;
        *out++ = '\0';
        s = nl + 1;
    }
    *tags = rd->tags;
    *ntags = n;
    return 1;
}

int pmn_reader_next(pmn_reader *rd, pmn_record *rec)
{
    pmn_record_init(rec);
    rd->proved = 0;
    if (rd->failed)
        return -1;
    for (;;) {
        while (chunk_done(rd)) {
            int rc = next_chunk(rd);
            if (rc <= 0)
                return rc;
            if (start_chunk(rd) < 0)
                return -1;
        }
        rd->game_diags = 0;
        rd->game_off = rd->p.tok.off;
        rd->game_line = rd->p.tok.line;
        if (parser_game(&rd->p, rec) < 0 || rd->p.nomem) {
            pmn_record_free(rec);
            return fatal(rd, 2, "out of memory");
        }
        if (!parser_game_is_empty(rec)) {
            game_ends(rd, rd->p.tok.type == T_EOF ? rd->len : rd->p.tok.off);
            return 1;
        }
        pmn_record_free(rec);   /* text between games, already reported */
    }
}

size_t pmn_reader_game_holes(const pmn_reader *rd, const unsigned char **holes)
{
    static const unsigned char none[1];
    *holes = rd->quick ? rd->quick->holes : none;
    return rd->quick_ready ? rd->quick->nholes : 0;
}

int pmn_reader_keep_keys(pmn_reader *rd)
{
    if (!rd->keys && !(rd->keys = malloc((QUICK_MAX_PLIES + 1) * sizeof *rd->keys)))
        return PMN_ERR_NOMEM;
    if (rd->quick)
        rd->quick->keys = rd->keys;
    return 0;
}

size_t pmn_reader_game_keys(const pmn_reader *rd, const uint64_t **keys)
{
    *keys = rd->keys;
    return rd->quick_ready ? rd->quick->nkeys : 0;
}

int pmn_reader_next_checked(pmn_reader *rd, pmn_record *rec, pmn_game_facts *facts)
{
    return pmn_reader_next_again(rd, rec, facts, 0);
}

int pmn_reader_next_again(pmn_reader *rd, pmn_record *rec, pmn_game_facts *facts, int proved)
{
    if (!rd->quick_ready) {
        if (!rd->quick && !(rd->quick = malloc(sizeof *rd->quick))) {
            pmn_record_init(rec);
            return fatal(rd, 2, "out of memory");
        }
        quick_init(rd->quick, rd->p.setup);
        rd->quick->keys = rd->keys;
        rd->quick->nkeys = 0;
        rd->quick_ready = 1;
    }
    /* A page whose title named a game gives the games without a Game tag
     * that tag (parser.c, take_page_game()), and its rules: the quick pass,
     * which takes a game's tags as written and the game for Hawalis, is
     * not for them (a title of Hawalis too: the tag would be missing). */
    if (rd->quick->usable && !rd->failed && chunk_done(rd) && !rd->p.page_game[0]) {
        int rc = next_chunk(rd);
        if (rc <= 0) {
            pmn_record_init(rec);
            rd->proved = 0;
            return rc;
        }
        if (quick_read(rd->quick, rd->chunk, rd->len, proved, facts)) {
            pmn_record_init(rec);
            rd->game_off = 0;
            rd->game_line = rd->chunk_line;
            game_ends(rd, rd->len);
            rd->proved = 1;
            return 2;
        }
        if (start_chunk(rd) < 0) {
            pmn_record_init(rec);
            return -1;
        }
    }
    rd->quick->nholes = rd->quick->nkeys = 0;
    return pmn_reader_next(rd, rec);
}
