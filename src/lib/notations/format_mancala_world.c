/* format_mancala_world.c - the Mancala World Oware nomenclature: a move is
 * the mover's hole and the hole its last seed falls in, each numbered 1-6
 * from its owner's left ("64"; "12-3" past 9), and "(N)" after it the
 * mover's captures so far.  Its moves do not say whose they are: they go by
 * turns, and by the numbers written. */
#include "format.h"

#include <ctype.h>

/* Is a start alone written at c in the form with '-' ("12-", past 9: its
 * last hole not known), run digits long?  The '-' ends the token. */
static int start_alone(const struct cursor *c, size_t run)
{
    const char *after = c->s + run + 1;
    return run >= 1 && run <= 3 && c->s + run < c->end && c->s[run] == '-'
        && (after >= c->end || !isalnum((unsigned char)*after));
}

/* One or two digits, two counts of at most three digits joined by '-', or
 * a count and '-' alone; move numbers ("N.") are read before. */
static int move_at(const struct cursor *c)
{
    size_t a = 0, b = 0;
    if (!isdigit((unsigned char)*c->s))
        return 0;
    while (fmt_digits_at(c, a))
        a++;
    if (c->s + a < c->end && c->s[a] == '-')
        while (fmt_digits_at(c, a + 1 + b))
            b++;
    return b ? a <= 3 && b <= 3 : a <= 2 || start_alone(c, a);
}

/* mw_move -> DIGIT [DIGIT] | count '-' count | count '-': the mover's
 * hole and the hole the last seed falls in, on either side, each numbered
 * 1-6 from its owner's left (holes past 9 take the form with '-'); a
 * start alone, where the last hole is not known (an endless move), is a
 * digit, or past 9 a count and '-' ("12-": "12" would read as 1 and 2). */
static pmn_move *read_move(struct cursor *c, pmn_line *line, int side)
{
    const char *from = c->s;
    size_t run = 0;
    while (fmt_digits_at(c, run))
        run++;
    pmn_move *m = fmt_new_move(c, line);
    if (!m)
        return NULL;
    m->notation = PMN_NOTATION_NUMBERS;
    m->side = side;
    int start, end = -1;
    int dashed = c->s + run < c->end && c->s[run] == '-' && fmt_digits_at(c, run + 1);
    if (!dashed && start_alone(c, run)) {
        start = fmt_count(c);
        fmt_advance(c, 1);   /* the '-' */
    } else if (run <= 2 && !dashed) {
        start = *c->s - '0';
        fmt_advance(c, 1);
        if (run == 2) {
            m->claim_end_line = c->line;
            m->claim_end_col = c->col;
            end = *c->s - '0';
            fmt_advance(c, 1);
        }
    } else {
        start = fmt_count(c);
        if (dashed) {
            fmt_advance(c, 1);
            m->claim_end_line = c->line;
            m->claim_end_col = c->col;
            end = fmt_count(c);
        }
    }
    m->hole = start >= 1 && start <= (int)c->rules->pits ? start - 1 : -1;
    m->claim_end = end < 0 ? -1 : end >= 1 && end <= (int)c->rules->pits ? end - 1 : 99;
    fmt_move_text(m, from, c->s);
    return m;
}

static void write_move(struct out *o, const pmn_move *m, const pmn_played *pl, int side,
                       const pmn_position *before, int *total, textbuf *t)
{
    int big = o->r->pits > 9, es, eh;
    (void)side, (void)before, (void)total;
    if (big)
        fmt_cannot_hold(o, LOST_BIG, m->line, m->col, "holes numbered past 9",
                        "written with '-' between start and end (12-3)");
    textbuf_add(t, "%d", m->hole + 1);
    if (fmt_end_of(m, pl, &es, &eh) == 0) {
        textbuf_add(t, "%s%d", big ? "-" : "", eh + 1);
    } else {
        fmt_cannot_hold(o, LOST_END, m->line, m->col, "a move whose last seed's hole is not "
                        "known (a store, or not replayed)", "written with its start alone");
        /* "12" would read as start 1 and end 2: past 9, "12-" */
        if (m->hole + 1 > 9)
            textbuf_add(t, "-");
    }
}

/* The record's claims as running totals, which the reader makes counts
 * again; a capture it leaves unsaid stays so. */
static void write_after(struct out *o, const pmn_move *m, const pmn_played *pl, int side,
                        int *total, textbuf *t)
{
    (void)o;
    if (m->claim < 0)
        return;
    int mover = pl ? pl->mover : side;
    total[mover] = m->claim > 65535 - total[mover] ? 65535 : total[mover] + m->claim;
    textbuf_add(t, " (%d)", total[mover]);
}

const struct format_desc format_mancala_world_desc = {
    PMN_FORMAT_MANCALA_WORLD, "mancala-world", "the Mancala World Oware nomenclature", NULL,
    "Oware", move_at, read_move, write_move, write_after,
};
