/* format_ogn.c - OGN, the Oware Game Notation Aualé saves (.ogn): a move
 * is its hole, South's A-F, North's a-f (the other case from PMN's), and
 * "+N" the seeds it captured; its results are final scores (formats.c). */
#include "format.h"

#include <ctype.h>

static int move_at(const struct cursor *c)
{
    unsigned char ch = (unsigned char)*c->s;
    return isalpha(ch) && ch != 'x';
}

/* ogn_move -> LETTER ['+' count] */
static pmn_move *read_move(struct cursor *c, pmn_line *line, int side)
{
    const char *from = c->s;
    pmn_move *m = fmt_letter_move(c, line);
    (void)side;   /* the letter's case says it */
    if (!m)
        return NULL;
    fmt_move_text(m, from, c->s);
    if (c->s < c->end && *c->s == '+' && fmt_digits_at(c, 1)) {
        m->claim_line = c->line;
        m->claim_col = c->col;
        m->claim_style = '+';
        fmt_advance(c, 1);
        m->claim = fmt_count(c);
    }
    return m;
}

static void write_move(struct out *o, const pmn_move *m, const pmn_played *pl, int side,
                       const pmn_position *before, int *total, textbuf *t)
{
    (void)o, (void)pl, (void)before, (void)total;
    textbuf_add(t, "%c", (side == PMN_SOUTH ? 'A' : 'a') + m->hole);
    if (m->claim >= 0)
        textbuf_add(t, "+%d", m->claim);
}

const struct format_desc format_ogn_desc = {
    PMN_FORMAT_OGN, "ogn", "OGN (Aual\xc3\xa9's Oware Game Notation)", ".ogn", "Oware",
    move_at, read_move, write_move, NULL,
};
