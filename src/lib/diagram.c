/* diagram.c - the board drawn as text, as the players see it. */
#include "pmn.h"
#include "util.h"

#include <stdio.h>

/* One row, left to right as seen from South: holes first, first+step, ... */
static void row(pmn_text *o, const pmn_position *p, unsigned w, const char *label,
                int side, int first, int step, unsigned cell, int letters,
                const char *tail)
{
    pmn_text_add(o, "%-6s", label);
    for (unsigned i = 0; i < w; i++) {
        int h = first + step * (int)i;
        if (letters)
            pmn_text_add(o, "%*c", (int)cell, pmn_hole_letter(side, h));
        else
            pmn_text_add(o, "%*u", (int)cell, p->pit[side][h]);
    }
    pmn_text_add(o, "%s\n", tail);
}

/* Two rows: North's holes run right to left seen from South, his store
 * (if the game has stores) on the left, South's on the right. */
static void two_rows(pmn_text *o, const pmn_rules *r, const pmn_position *p, unsigned cell)
{
    int last = (int)r->pits - 1;
    row(o, p, r->pits, "", PMN_NORTH, last, -1, cell, 1, "");
    row(o, p, r->pits, "North", PMN_NORTH, last, -1, cell, 0, "");
    if (r->stores)
        pmn_text_add(o, "%-6s%-*u%u\n", "", (int)(cell * r->pits), p->captured[PMN_NORTH],
            p->captured[PMN_SOUTH]);
    row(o, p, r->pits, "South", PMN_SOUTH, 0, +1, cell, 0, "");
    row(o, p, r->pits, "", PMN_SOUTH, 0, +1, cell, 1, "");
}

size_t pmn_board_format(const pmn_rules *r, const pmn_position *p, char *buf,
                        size_t size)
{
    pmn_text o;
    pmn_text_init(&o, buf, size);
    unsigned w = r->holes_per_row, cell = 3, big = 0;
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < r->pits; i++)
            if (p->pit[s][i] > big)
                big = p->pit[s][i];
    for (unsigned d = 100; big >= d && cell < 6; d *= 10)
        cell++;
    if (r->cycle == PMN_CYCLE_BOTH_SIDES) {
        two_rows(&o, r, p, cell);
        return o.n;
    }
    int back = (int)w - 1, front = (int)w, last = 2 * (int)w - 1;
    /* North's letters run right to left seen from South. */
    row(&o, p, w, "", PMN_NORTH, back, -1, cell, 1, "");
    row(&o, p, w, "North", PMN_NORTH, back, -1, cell, 0, "   back");
    row(&o, p, w, "", PMN_NORTH, front, +1, cell, 0, "   front");
    row(&o, p, w, "", PMN_NORTH, front, +1, cell, 1, "");
    row(&o, p, w, "", PMN_SOUTH, last, -1, cell, 1, "");
    row(&o, p, w, "South", PMN_SOUTH, last, -1, cell, 0, "   front");
    row(&o, p, w, "", PMN_SOUTH, 0, +1, cell, 0, "   back");
    row(&o, p, w, "", PMN_SOUTH, 0, +1, cell, 1, "");
    return o.n;
}
