/* format_parts.c - the small parts the other programs' notations share
 * (format.h): a cursor moved through a game's text, counts and letters read
 * at it, new moves; and, writing, what a notation cannot hold and where a
 * move's last seed fell.  Below formats.c and the notations' files, which
 * use it; it uses neither. */
#include "format.h"
#include "../records/record.h"

#include <ctype.h>
#include <string.h>

void fmt_advance(struct cursor *c, size_t n)
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

void fmt_nomem(struct cursor *c)
{
    if (!c->nomem)
        diag_report(c->fn, c->ctx, PMN_F002, c->line, c->col, "out of memory");
    c->nomem = 1;
}

/* A count after the cursor's digits: capped where no game goes. */
int fmt_count(struct cursor *c)
{
    unsigned long v = 0;
    while (c->s < c->end && isdigit((unsigned char)*c->s)) {
        v = v < 1000000 ? 10 * v + (unsigned long)(*c->s - '0') : v;
        fmt_advance(c, 1);
    }
    return v > 65535 ? 65535 : (int)v;
}

int fmt_digits_at(const struct cursor *c, size_t k)
{
    return c->s + k < c->end && isdigit((unsigned char)c->s[k]);
}

/* The text of the move from `from` to the cursor, as written. */
void fmt_move_text(pmn_move *m, const char *from, const char *to)
{
    size_t n = (size_t)(to - from) < sizeof m->text - 1 ? (size_t)(to - from)
                                                         : sizeof m->text - 1;
    memcpy(m->text, from, n);
    m->text[n] = '\0';
}

pmn_move *fmt_new_move(struct cursor *c, pmn_line *line)
{
    pmn_move *m = record_line_add_move(line);
    if (!m) {
        fmt_nomem(c);
        return NULL;
    }
    m->line = c->line;
    m->col = c->col;
    return m;
}

pmn_move *fmt_letter_move(struct cursor *c, pmn_line *line)
{
    pmn_move *m = fmt_new_move(c, line);
    if (!m)
        return NULL;
    unsigned char ch = (unsigned char)*c->s;
    m->notation = PMN_NOTATION_LETTERS;
    m->side = isupper(ch) ? PMN_SOUTH : PMN_NORTH;
    m->hole = tolower(ch) - 'a';
    fmt_advance(c, 1);
    return m;
}

/* A count of one to `most` digits at s[k], no leading zero: its length, or
 * 0. */
size_t fmt_short_count(const struct cursor *c, size_t k, size_t most)
{
    size_t n = 0;
    while (fmt_digits_at(c, k + n))
        n++;
    return n >= 1 && n <= most && c->s[k] != '0' ? n : 0;
}

void fmt_cannot_hold(struct out *o, int kind, pmn_at line, pmn_at col, const char *what,
                     const char *how)
{
    if (o->said[kind]++)
        return;
    diag_report(o->fn, o->ctx, PMN_W132, line, col, "%s, which %s cannot hold: %s", what,
                o->title, how);
}

/* Where the last seed fell, side and hole: the replay's, else the record's
 * claim; 0, or -1 where neither says (or it fell into a store). */
int fmt_end_of(const pmn_move *m, const pmn_played *pl, int *side, int *hole)
{
    if (pl && pl->replayed && pl->report.end_hole >= 0) {
        *side = pl->report.end_side;
        *hole = pl->report.end_hole;
        return 0;
    }
    if (!(pl && pl->replayed) && m->claim_end >= 0 && m->claim_end < PMN_MAX_SIDE_PITS
        && m->claim_end_side >= 0) {
        *side = m->claim_end_side;
        *hole = m->claim_end;
        return 0;
    }
    return -1;
}
