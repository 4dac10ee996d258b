/* parser.h - the PMN parser; internal to libpmn (reader.c drives it). */
#ifndef PMN_PARSER_H
#define PMN_PARSER_H

#include "lexer.h"
#include "pmn.h"

struct parser {
    struct lexer lx;
    struct token tok;         /* the lookahead */
    pmn_diag_fn fn;
    void *ctx;
    int nomem;
};

/* Parse one game from the lookahead on: its tags, its movetext and the
 * result that closes it.  Stops before the tags of a following game.
 * Returns 0, or -1 when memory runs out. */
int parser_game(struct parser *p, pmn_record *rec);

#endif
