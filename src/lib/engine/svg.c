/* svg.c - the board drawn as SVG 1.1: for pages, books and printers.
 *
 * The layout is the text diagram's (diagram.c), as the players see the
 * board from South's side: four rows for the games of the relay family,
 * North's back row on top; two rows with the stores at the ends for the
 * others.  A hole is a circle with its seeds drawn as dots (up to
 * MAX_DOTS; past that, its count written in it), its count under it and
 * its name in the chosen notation over it.  The hole the last ply lifted
 * and the hole of its last seed are marked by outlines that differ in
 * width and dash as well as in colour, and named in words under the board,
 * so that neither colour nor sight alone carries them. */
#include "pmn.h"
#include "../base/util.h"

#include <string.h>

#define CELL 64               /* a hole's square, in user units (px) */
#define LEFT 72               /* the side names' column */
#define TOP 40                /* the title line */
#define MAX_DOTS 12

void pmn_svg_options_init(pmn_svg_options *o)
{
    memset(o, 0, sizeof *o);
    o->notation = PMN_NOTATION_LETTERS;
    o->lifted_side = o->end_side = -1;
    o->lifted_hole = o->end_hole = -1;
    o->html = 0;
}

/* Text with XML's five special characters escaped. */
static void add_escaped(textbuf *t, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': textbuf_add(t, "&lt;"); break;
        case '>': textbuf_add(t, "&gt;"); break;
        case '&': textbuf_add(t, "&amp;"); break;
        case '"': textbuf_add(t, "&quot;"); break;
        case '\'': textbuf_add(t, "&apos;"); break;
        default:
            /* XML 1.0 holds no control character but tab and newlines */
            if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
                textbuf_add(t, "%c", *s);
        }
    }
}

/* Where the dots of n seeds go in a hole: rows of four, centred. */
static void dots(textbuf *t, double cx, double cy, unsigned n)
{
    unsigned rows = (n + 3) / 4;
    for (unsigned i = 0; i < n; i++) {
        unsigned row = i / 4, in_row = row + 1 < rows ? 4 : n - 4 * row, col = i % 4;
        double x = cx + (col - (in_row - 1) / 2.0) * 10;
        double y = cy + (row - (rows - 1) / 2.0) * 10;
        textbuf_add(t, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" class=\"seed\"/>", x, y);
    }
}

static void hole(textbuf *t, const pmn_rules *r, const pmn_position *p,
                 const pmn_svg_options *o, int side, int h, double x, double y)
{
    char name[16];
    unsigned n = p->pit[side][h];
    int lifted = side == o->lifted_side && h == o->lifted_hole;
    int last = side == o->end_side && h == o->end_hole;
    pmn_hole_name(r, o->notation, side, h, name, sizeof name);
    double cx = x + CELL / 2.0, cy = y + 34;
    textbuf_add(t, "<g class=\"hole %s\"", side == PMN_SOUTH ? "south" : "north");
    if (o->html)
        textbuf_add(t, " data-side=\"%d\" data-hole=\"%d\" data-seeds=\"%u\"", side, h, n);
    textbuf_add(t, ">");
    textbuf_add(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"name\">%s</text>", cx, y + 11, name);
    textbuf_add(t, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"21\" class=\"pit%s%s\"/>", cx, cy,
                lifted ? " lifted" : "", last ? " last" : "");
    if (o->html)
        textbuf_add(t, "<g class=\"seeds\" data-x=\"%.1f\" data-y=\"%.1f\">", cx, cy);
    if (n <= MAX_DOTS)
        dots(t, cx, cy, n);
    else
        textbuf_add(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"many\">%u</text>", cx, cy + 5, n);
    if (o->html)
        textbuf_add(t, "</g>");
    textbuf_add(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"count\">%u</text></g>\n", cx, y + 70, n);
}

/* A row of holes, left to right as seen from South: first, first+step, ... */
static void row(textbuf *t, const pmn_rules *r, const pmn_position *p,
                const pmn_svg_options *o, int side, int first, int step, unsigned w, double x,
                double y)
{
    for (unsigned i = 0; i < w; i++)
        hole(t, r, p, o, side, first + step * (int)i, x + i * CELL, y);
}

static void store(textbuf *t, const pmn_svg_options *o, int side, unsigned seeds, int last,
                  double x, double y)
{
    textbuf_add(t, "<g class=\"store %s\"", side == PMN_SOUTH ? "south" : "north");
    if (o->html)
        textbuf_add(t, " data-side=\"%d\" data-seeds=\"%u\"", side, seeds);
    textbuf_add(t, "><rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
                "height=\"%d\" rx=\"24\" class=\"pit%s\"/>",
                x + 8, y + 10, CELL - 16, 2 * (CELL + 16) - 20, last ? " last" : "");
    textbuf_add(t, "<text x=\"%.1f\" y=\"%.1f\" class=\"many\">%u</text></g>\n", x + CELL / 2.0,
                y + CELL + 21, seeds);
}

/* The picture's head: the <svg> element of width x height, its title and
 * its text alternative (what the picture shows, in words), its style. */
static void svg_head(textbuf *t, const pmn_rules *r, const pmn_position *p,
                     const pmn_svg_options *o, double width, double height)
{
    char words[256];
    if (!o->html)
        textbuf_add(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    textbuf_add(t, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
                "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                "font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
                width, height, width, height);
    /* The text alternative: what the picture shows, in words. */
    textbuf_add(t, "<title>");
    if (o->title && o->title[0])
        add_escaped(t, o->title);
    else
        textbuf_add(t, "%s: %s to move", r->name, pmn_side_name(p->to_move));
    textbuf_add(t, "</title>\n<desc>");
    pmn_position_format(r, p, words, sizeof words);
    textbuf_add(t, "Position %s (%s). South has %u seeds on the board, North %u; "
                "captured or stored: South %u, North %u.", words, r->name,
                pmn_position_seeds(r, p, PMN_SOUTH), pmn_position_seeds(r, p, PMN_NORTH),
                (unsigned)p->captured[PMN_SOUTH], (unsigned)p->captured[PMN_NORTH]);
    textbuf_add(t, "</desc>\n<style type=\"text/css\">"
                ".pit{fill:#e8d2a6;stroke:#6b4a1e;stroke-width:1.5}"
                ".lifted{stroke:#1f4fbf;stroke-width:4.5}"
                ".last{stroke:#b3261e;stroke-width:3;stroke-dasharray:5 3}"
                ".seed{fill:#3b2a14}"
                ".name{font-size:11px;fill:#555;text-anchor:middle}"
                ".count{font-size:13px;font-weight:bold;text-anchor:middle}"
                ".many{font-size:17px;font-weight:bold;text-anchor:middle}"
                ".side{font-size:15px;font-weight:bold}"
                ".note{font-size:13px}"
                "</style>\n");
}

/* Under the board, from note_y down: who moves, what was captured (where
 * there are no stores to show it), what the last ply did. */
static void svg_notes(textbuf *t, const pmn_rules *r, const pmn_position *p,
                      const pmn_svg_options *o, int stores, double note_y)
{
    textbuf_add(t, "<text x=\"8\" y=\"%.1f\" class=\"note\"><tspan class=\"to-move\">%s"
                " to move</tspan>", note_y, pmn_side_name(p->to_move));
    if (!stores)
        for (int s = 0; s < 2; s++) {
            textbuf_add(t, "%s %s <tspan class=\"captured\"", s ? "," : "; captured:",
                        pmn_side_name(s));
            if (o->html)
                textbuf_add(t, " data-side=\"%d\" data-seeds=\"%u\"", s,
                            (unsigned)p->captured[s]);
            textbuf_add(t, ">%u</tspan>", (unsigned)p->captured[s]);
        }
    if (o->lifted_hole >= 0) {
        char a[16], b[16] = "";
        pmn_hole_name(r, o->notation, o->lifted_side, o->lifted_hole, a, sizeof a);
        if (o->end_side >= 0 && o->end_hole >= 0)
            pmn_hole_name(r, o->notation, o->end_side, o->end_hole, b, sizeof b);
        else if (o->end_side >= 0)
            snprintf(b, sizeof b, "%s's store", pmn_side_name(o->end_side));
        textbuf_add(t, "</text>\n<text x=\"8\" y=\"%.1f\" class=\"note last-ply\">Last ply: "
                    "%s (thick outline)", note_y + 20, a);
        if (b[0])
            textbuf_add(t, "; its last seed in %s (dashed outline)", b);
    } else if (o->html) {
        textbuf_add(t, "</text>\n<text x=\"8\" y=\"%.1f\" class=\"note last-ply\">",
                    note_y + 20);
    }
}

size_t pmn_board_svg(const pmn_rules *r, const pmn_position *p, const pmn_svg_options *o,
                     char *buf, size_t size)
{
    pmn_svg_options defaults;
    textbuf t;
    if (!o) {
        pmn_svg_options_init(&defaults);
        o = &defaults;
    }
    textbuf_init(&t, buf, size);
    int four = r->cycle != PMN_CYCLE_BOTH_SIDES;
    unsigned w = four ? r->holes_per_row : r->pits, rows = four ? 4 : 2;
    int stores = !four && r->stores;
    double board_x = LEFT + (stores ? CELL : 0), row_h = CELL + 16;
    double width = board_x + w * CELL + (stores ? CELL : 0) + 16;
    double height = TOP + rows * row_h + 72;
    svg_head(&t, r, p, o, width, height);
    textbuf_add(&t, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" rx=\"12\" "
                "fill=\"#c9a66b\" stroke=\"#6b4a1e\"/>\n", board_x - 8 - (stores ? CELL : 0),
                TOP - 6, (double)(w * CELL + 16 + (stores ? 2 * CELL : 0)), rows * row_h + 12);
    double y = TOP;
    if (four) {
        int back = (int)w - 1, front = (int)w, last = 2 * (int)w - 1;
        row(&t, r, p, o, PMN_NORTH, back, -1, w, board_x, y);
        row(&t, r, p, o, PMN_NORTH, front, +1, w, board_x, y + row_h);
        row(&t, r, p, o, PMN_SOUTH, last, -1, w, board_x, y + 2 * row_h);
        row(&t, r, p, o, PMN_SOUTH, 0, +1, w, board_x, y + 3 * row_h);
    } else {
        row(&t, r, p, o, PMN_NORTH, (int)w - 1, -1, w, board_x, y);
        row(&t, r, p, o, PMN_SOUTH, 0, +1, w, board_x, y + row_h);
        if (stores) {
            int north_last = o->end_side == PMN_NORTH && o->end_hole < 0 && o->lifted_hole >= 0;
            int south_last = o->end_side == PMN_SOUTH && o->end_hole < 0 && o->lifted_hole >= 0;
            store(&t, o, PMN_NORTH, p->captured[PMN_NORTH], north_last, board_x - CELL, y);
            store(&t, o, PMN_SOUTH, p->captured[PMN_SOUTH], south_last, board_x + w * CELL, y);
        }
    }
    /* The sides: names by their rows, the one to move marked in words. */
    double north_y = y + (four ? row_h : row_h / 2) + 6;
    double south_y = y + (four ? 3 * row_h : row_h * 1.5) + 6;
    for (int s = 0; s < 2; s++)
        textbuf_add(&t, "<text x=\"8\" y=\"%.1f\" class=\"side %s\">%s<tspan class=\"mover\">"
                    "%s</tspan></text>\n", s == PMN_SOUTH ? south_y : north_y,
                    s == PMN_SOUTH ? "south" : "north", pmn_side_name(s),
                    p->to_move == s ? " \xe2\x96\xb6" : "");
    svg_notes(&t, r, p, o, stores, TOP + rows * row_h + 28);
    textbuf_add(&t, "</text>\n</svg>\n");
    return t.n;
}
