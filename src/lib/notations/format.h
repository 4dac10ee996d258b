/* format.h - other programs' notations, internal to libpmn: what formats.c
 * (the machinery all four share: tags, comments, variations, numbers,
 * results, the stream, the walk that writes a line) asks of each notation,
 * which a file of its own answers -- format_ogn.c, format_playstrategy.c,
 * format_mancala_world.c, format_awari.c -- and the one table of them
 * (format_find), whence the names, titles and extensions the library
 * and the command line give. */
#ifndef PMN_FORMAT_H
#define PMN_FORMAT_H

#include "pmn.h"
#include "../base/util.h"

/* Where the parser is in a game's text. */
struct cursor {
    const char *s, *end;
    pmn_at line, col;
    pmn_diag_fn fn;
    void *ctx;
    int nomem;
    pmn_format format;
    const pmn_rules *rules;   /* the game's, as its tags set it up */
    unsigned moves, variations;   /* read so far in the game, against its limits */
    int over;                 /* past a limit (E124), said */
};

/* What a notation cannot hold, said once a game each (W132). */
enum { LOST_CLAIMS, LOST_END, LOST_BIG, LOST_SEEDS, LOST_RULES, LOST_NO_HOLE, LOST_KINDS };

/* A game being written. */
struct out {
    FILE *f;
    pmn_at col;
    pmn_diag_fn fn;
    void *ctx;
    pmn_format format;
    const char *title;        /* the notation's, for messages */
    const pmn_rules *r;
    int rules_known;          /* else r names no hole: moves go as read */
    int said[LOST_KINDS];
    /* The walk (formats.c): each side's captures written so far in the
     * line of each depth, and before its last move (where its variations
     * start from); then what the game's tags and its end write. */
    char *totals;             /* struct totals[ntotals], in totals_cap bytes */
    size_t ntotals, totals_cap;
    const pmn_setup *setup;
    const char *result;       /* the Result tag's */
    int own_score;            /* OGN: the record's Score tag is the result */
    const char *token;        /* written after the moves, or NULL */
    int movetext;             /* anything after the tags */
};

/* Aualé's name of Oware (OGN's Variant tag), which PMN calls Oware, the
 * Game of OGN's and PlayStrategy's records whose tags name none. */
#define AUALE_OWARE "Oware Abapa"

/* One notation. */
struct format_desc {
    pmn_format id;
    const char *name;         /* "ogn", as --from and --to take it */
    const char *title;        /* in words, for messages */
    const char *extension;    /* a file name's end that says it (".ogn"), or NULL */
    const char *game;         /* the Game of a record whose tags name none */
    /* Does a move begin at the cursor, in the notation's syntax? */
    int (*move_at)(const struct cursor *c);
    /* Read it into a new move of line (side: whose it is by turns, for a
     * notation whose moves do not say); NULL when memory runs out. */
    pmn_move *(*read_move)(struct cursor *c, pmn_line *line, int side);
    /* The move (of side, on a hole of the rules) written into t, with what
     * the notation writes of it: before, the position it is played from
     * (NULL: not replayed); total, each side's captures written so far. */
    void (*write_move)(struct out *o, const pmn_move *m, const pmn_played *pl, int side,
                       const pmn_position *before, int *total, textbuf *t);
    /* What the notation writes after the move's judgement and NAGs, or NULL. */
    void (*write_after)(struct out *o, const pmn_move *m, const pmn_played *pl, int side,
                        int *total, textbuf *t);
};

extern const struct format_desc format_ogn_desc, format_playstrategy_desc,
    format_mancala_world_desc, format_awari_desc;
const struct format_desc *format_find(pmn_format f);

/* The reading helpers the notations share (format_parts.c, below formats.c
 * and the notations' files). */
void fmt_advance(struct cursor *c, size_t n);
/* Out of memory: said once a game (F002). */
void fmt_nomem(struct cursor *c);
int fmt_count(struct cursor *c);
int fmt_digits_at(const struct cursor *c, size_t k);
size_t fmt_short_count(const struct cursor *c, size_t k, size_t most);
pmn_move *fmt_new_move(struct cursor *c, pmn_line *line);
/* A letter move of OGN and the Awari notation, upper case South's (A-F),
 * lower case North's: the new move, the cursor past the letter. */
pmn_move *fmt_letter_move(struct cursor *c, pmn_line *line);
void fmt_move_text(pmn_move *m, const char *from, const char *to);

/* The writing helpers (format_parts.c). */
void fmt_cannot_hold(struct out *o, int kind, pmn_at line, pmn_at col, const char *what,
                     const char *how);
int fmt_end_of(const pmn_move *m, const pmn_played *pl, int *side, int *hole);

#endif
