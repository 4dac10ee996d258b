/* parser.h - the PMN parser; internal to libpmn (reader.c drives it). */
#ifndef PMN_PARSER_H
#define PMN_PARSER_H

#include "lexer.h"
#include "pmn.h"
#include "record.h"

struct parser {
    struct lexer lx;
    struct token tok;         /* the lookahead */
    pmn_diag_fn fn;
    void *ctx;
    int nomem;
    const pmn_setup_options *setup;   /* of every game */
    /* Per game: */
    pmn_rules rules;          /* of the setup, for numbers and coordinates */
    int notation;             /* of the first move; -1 before it */
    int moves;                /* moves read, variations' too */
    int variations;           /* variations read */
    int over;                 /* past a limit (E124): the rest is skipped */
    int unclosed;             /* the game ends inside a '{' or '(' */
    int said_number, said_semi, said_extra_semi;   /* warn once a game */
    int said_curly, said_dash, said_mark;          /* N126 once a game */
    int in_junk;              /* before the first move of a game without tags */
    int headed;               /* its tags read from a page's heading (N127) */
    int started;              /* its first heading, lead or move is read */
    size_t stip_off, stip_len;   /* a problem's stipulation skipped before its
                                 moves ("South to play and win!"): their lead
                                 comment, if moves follow */
    int ply_list;             /* moves separated by '/', numbers and ';' unwritten */
    pmn_record *rec;          /* the game being read */
    unsigned main_number;     /* the last move number of the main line */
    const char *split;        /* why the game ended without a result: a new one
                                 begins ("a heading", ...), or NULL */
    int join;                 /* a '-' was read: the next move continues the turn */
    size_t stop;              /* a variation read as far as it goes, or a
                                 footnote's, ends at the token at this offset
                                 or past it; 0: none */
    struct { char mark; size_t move; } marks[8];   /* footnote marks of the
                                 main line: "(x1 a)", "4!(a)", the move's index */
    int nmarks;
    struct token join_tok;
    char page_game[16];       /* the game a page's title names ("Anywoli"), or "" */
    int said_page_game;
    /* The run of lines outside games being skipped, said once (N117) when
     * it ends: how many, the first's place and text. */
    unsigned junk_lines;
    pmn_at junk_line, junk_col, junk_last;
    char junk_text[64];
};


/* Parse one game from the lookahead on: its tags, its movetext and the
 * result that closes it.  Stops before the tags of a following game.
 * Returns 0, or -1 when memory runs out. */
int parser_game(struct parser *p, pmn_record *rec);
/* Nothing but skipped text: no tags, moves, comments or result. */
int parser_game_is_empty(const pmn_record *rec);

#endif
