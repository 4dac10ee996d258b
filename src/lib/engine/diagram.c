/* diagram.c - the board drawn as text, as the players see it. */
#include "pmn.h"
#include "../base/util.h"

#include <stdio.h>

/* How the holes are named: a notation, letters of the other case. */
struct names {
    const pmn_rules *r;
    pmn_notation n;
    int swap_case;
};

/* One row, left to right as seen from South: holes first, first+step, ...;
 * names (their names) or counts. */
static void row(textbuf *o, const pmn_position *p, unsigned w, const char *label,
                int side, int first, int step, unsigned cell, const struct names *names,
                const char *tail)
{
    textbuf_add(o, "%-6s", label);
    for (unsigned i = 0; i < w; i++) {
        int h = first + step * (int)i;
        if (names) {
            char name[16];
            pmn_hole_name_cased(names->r, names->n, names->swap_case, side, h, name,
                                sizeof name);
            textbuf_add(o, "%*s", (int)cell, name);
        } else {
            textbuf_add(o, "%*u", (int)cell, p->pit[side][h]);
        }
    }
    textbuf_add(o, "%s\n", tail);
}

/* Two rows: North's holes run right to left seen from South, his store
 * (if the game has stores) on the left, South's on the right. */
static void two_rows(textbuf *o, const pmn_rules *r, const pmn_position *p, unsigned cell,
                     const struct names *nm)
{
    int last = (int)r->pits - 1;
    row(o, p, r->pits, "", PMN_NORTH, last, -1, cell, nm, "");
    row(o, p, r->pits, "North", PMN_NORTH, last, -1, cell, NULL, "");
    if (r->stores)
        textbuf_add(o, "%-6s%-*u%u\n", "", (int)(cell * r->pits), p->captured[PMN_NORTH],
            p->captured[PMN_SOUTH]);
    row(o, p, r->pits, "South", PMN_SOUTH, 0, +1, cell, NULL, "");
    row(o, p, r->pits, "", PMN_SOUTH, 0, +1, cell, nm, "");
}

size_t pmn_board_format(const pmn_rules *r, const pmn_position *p, char *buf,
                        size_t size)
{
    return pmn_board_format_as(r, p, PMN_NOTATION_LETTERS, 0, buf, size);
}

size_t pmn_board_format_as(const pmn_rules *r, const pmn_position *p, pmn_notation n,
                           int swap_case, char *buf, size_t size)
{
    const struct names nm = { r, n, swap_case };
    textbuf o;
    textbuf_init(&o, buf, size);
    unsigned w = r->holes_per_row, cell = 3, big = 0;
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < r->pits; i++)
            if (p->pit[s][i] > big)
                big = p->pit[s][i];
    for (unsigned d = 100; big >= d && cell < 6; d *= 10)
        cell++;
    if (r->cycle == PMN_CYCLE_BOTH_SIDES) {
        two_rows(&o, r, p, cell, &nm);
        return o.n;
    }
    int back = (int)w - 1, front = (int)w, last = 2 * (int)w - 1;
    /* North's letters run right to left seen from South. */
    row(&o, p, w, "", PMN_NORTH, back, -1, cell, &nm, "");
    row(&o, p, w, "North", PMN_NORTH, back, -1, cell, NULL, "   back");
    row(&o, p, w, "", PMN_NORTH, front, +1, cell, NULL, "   front");
    row(&o, p, w, "", PMN_NORTH, front, +1, cell, &nm, "");
    row(&o, p, w, "", PMN_SOUTH, last, -1, cell, &nm, "");
    row(&o, p, w, "South", PMN_SOUTH, last, -1, cell, NULL, "   front");
    row(&o, p, w, "", PMN_SOUTH, 0, +1, cell, NULL, "   back");
    row(&o, p, w, "", PMN_SOUTH, 0, +1, cell, &nm, "");
    return o.n;
}
