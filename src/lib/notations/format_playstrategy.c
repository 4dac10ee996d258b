/* format_playstrategy.c - the PGN that PlayStrategy exports for Oware
 * (.pgn): a move is the square sown and the square its last seed falls in
 * ("d1e2"), a1-f1 South's row and a2-f2 North's, files from South's left;
 * it writes no captures (the replay gives them back). */
#include "format.h"

#include <ctype.h>

/* A PlayStrategy move's shape: a square, or two, a square being a letter
 * and a rank of one or two digits; then no letter or digit. */
static int move_at(const struct cursor *c)
{
    size_t k = 0, n;
    if (!islower((unsigned char)*c->s))
        return 0;
    for (int sq = 0; sq < 2; sq++) {
        if (c->s + k >= c->end || !islower((unsigned char)c->s[k]))
            return sq == 1;
        if (!(n = fmt_short_count(c, k + 1, 2)))
            return 0;
        k += 1 + n;
    }
    return c->s + k >= c->end || !isalnum((unsigned char)c->s[k]);
}

/* A hole in PlayStrategy's squares: a file a-f from South's left, rank 1
 * South's row, 2 North's. */
static int square(struct cursor *c, int *side, int *hole)
{
    if (c->s + 1 >= c->end || !islower((unsigned char)c->s[0]) || !fmt_digits_at(c, 1))
        return -1;
    int file = c->s[0] - 'a';
    fmt_advance(c, 1);
    int rank = fmt_count(c) - 1;
    if (pmn_hole_from_coordinates(c->rules, file, rank, side, hole) < 0) {
        *side = -1;   /* no hole: whose move it is goes by turns */
        *hole = -1;
    }
    return 0;
}

/* ps_move -> square [square]: the hole sown and the hole its last seed
 * falls in. */
static pmn_move *read_move(struct cursor *c, pmn_line *line, int side)
{
    const char *from = c->s;
    pmn_move *m = fmt_new_move(c, line);
    (void)side;   /* the square's rank says it */
    if (!m)
        return NULL;
    m->notation = PMN_NOTATION_COORDINATES;
    square(c, &m->side, &m->hole);
    if (c->s < c->end && islower((unsigned char)*c->s) && fmt_digits_at(c, 1)) {
        m->claim_end_line = c->line;
        m->claim_end_col = c->col;
        square(c, &m->claim_end_side, &m->claim_end);
        if (m->claim_end < 0)
            m->claim_end = 99;   /* no hole: never where a seed falls */
    }
    fmt_move_text(m, from, c->s);
    return m;
}

static void write_move(struct out *o, const pmn_move *m, const pmn_played *pl, int side,
                       const pmn_position *before, int *total, textbuf *t)
{
    char a[8], b[8];
    int es, eh;
    (void)before, (void)total;
    pmn_hole_name(o->r, PMN_NOTATION_COORDINATES, side, m->hole, a, sizeof a);
    if (fmt_end_of(m, pl, &es, &eh) == 0) {
        pmn_hole_name(o->r, PMN_NOTATION_COORDINATES, es, eh, b, sizeof b);
        textbuf_add(t, "%s%s", a, b);
    } else {
        textbuf_add(t, "%s", a);
        fmt_cannot_hold(o, LOST_END, m->line, m->col, "a move whose last seed's hole is not "
                        "known (a store, or not replayed)", "written with its first square "
                        "alone");
    }
    if (m->claim >= 0)
        fmt_cannot_hold(o, LOST_CLAIMS, m->claim_line, m->claim_col, "capture counts",
                        "left out (the replay gives them back)");
}

const struct format_desc format_playstrategy_desc = {
    PMN_FORMAT_PLAYSTRATEGY, "playstrategy", "PlayStrategy's PGN", ".pgn", "Oware",
    move_at, read_move, write_move, NULL,
};
