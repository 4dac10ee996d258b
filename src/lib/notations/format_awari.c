/* format_awari.c - the Awari notation of the Computer Olympiad's programs:
 * a move is its hole as OGN writes it (South's A-F), the seeds it sows
 * ("D4"), and "x N" the seeds it captured.  Its rules refuse a grand
 * slam, as Awale's do. */
#include "format.h"

#include <ctype.h>

static int move_at(const struct cursor *c)
{
    unsigned char ch = (unsigned char)*c->s;
    /* the seeds sown: up to five digits */
    return isalpha(ch) && ch != 'x' && (!fmt_digits_at(c, 1) || fmt_short_count(c, 1, 5));
}

/* awari_move -> LETTER [count] ['x' count]: " x 7" apart or "x7" joined */
static pmn_move *read_move(struct cursor *c, pmn_line *line, int side)
{
    const char *from = c->s;
    pmn_move *m = fmt_letter_move(c, line);
    (void)side;   /* the letter's case says it */
    if (!m)
        return NULL;
    if (fmt_digits_at(c, 0))
        m->claim_sown = fmt_count(c);
    fmt_move_text(m, from, c->s);
    const char *p = c->s;
    while (p < c->end && (*p == ' ' || *p == '\t'))
        p++;
    const char *q = p + 1;
    while (q < c->end && (*q == ' ' || *q == '\t'))
        q++;
    if (p < c->end && *p == 'x' && q < c->end && isdigit((unsigned char)*q)) {
        fmt_advance(c, (size_t)(p - c->s));
        m->claim_line = c->line;
        m->claim_col = c->col;
        m->claim_style = 'x';
        fmt_advance(c, (size_t)(q - c->s));
        m->claim = fmt_count(c);
    }
    return m;
}

static void write_move(struct out *o, const pmn_move *m, const pmn_played *pl, int side,
                       const pmn_position *before, int *total, textbuf *t)
{
    (void)pl, (void)total;
    textbuf_add(t, "%c", (side == PMN_SOUTH ? 'A' : 'a') + m->hole);
    if (before)
        textbuf_add(t, "%u", before->pit[side][m->hole]);
    else if (m->claim_sown >= 0)
        textbuf_add(t, "%d", m->claim_sown);
    else
        fmt_cannot_hold(o, LOST_SEEDS, m->line, m->col, "a move not replayed, whose seeds "
                        "are not known", "written without them");
    /* The record's claims, as it makes them: a capture it leaves unsaid
     * stays so (the replay gives it back). */
    if (m->claim >= 0)
        textbuf_add(t, " x %d", m->claim);
}

const struct format_desc format_awari_desc = {
    PMN_FORMAT_AWARI, "awari", "the Awari notation", NULL, "Awale",
    move_at, read_move, write_move, NULL,
};
