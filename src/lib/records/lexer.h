/* lexer.h - the tokens of PMN text; internal to libpmn. */
#ifndef PMN_LEXER_H
#define PMN_LEXER_H

#include <stddef.h>

#include "pmn.h"

enum token_type {
    T_EOF,
    T_TAG,          /* [Name "value"]: a = name, b = value (escaped) */
    T_BAD_TAG,      /* a '[' that does not open a well-formed tag pair */
    T_COMMENT,      /* {text}: a = text */
    T_OPEN_COMMENT, /* '{' with no '}' before the end of the game */
    T_RESULT,       /* 1-0 0-1 1/2-1/2 * */
    T_NUMBER,       /* N. or N...: value, dots */
    T_CAPTURE,      /* (+N) or (xN): value, style; b = a footnote mark, if any */
    T_JUDGEMENT,    /* ! ? !! ?? !? ?! */
    T_NAG,          /* $N: value */
    T_HOLE,         /* a single letter */
    T_HOLE_NUMBER,  /* a number without a dot, in the numbers notation: value */
    T_HOLE_COORD,   /* a file letter and a rank digit: a1 .. g4 */
    T_SEMI,         /* ; */
    T_JOIN,         /* - between the sowings of one turn */
    T_SLASH,        /* / between plies, as the Anywoli source lists them */
    T_LPAREN,
    T_RPAREN,
    T_WORD          /* anything else up to a separator */
};

struct span { size_t off, len; };

struct token {
    enum token_type type;
    size_t off, len;          /* the whole token in the text */
    pmn_at line, col;
    struct span a, b;
    unsigned long value;
    int dots;
    char style;
};

/* What lexer_paren_is_comment found of a '(' nested in the one it probed. */
struct paren {
    size_t open, end;
    int closed, words;
};

struct lexer {
    const char *text;
    size_t len, pos;
    pmn_at line, col;         /* of text[pos] */
    void *match;              /* pcre2_match_data */
    int quick;                /* take common tokens by hand (1 after init) */
    struct paren *parens;     /* of the last probe, by offset */
    size_t nparens, parens_cap;
    pmn_at uspace_line, uspace_col;   /* the first space not ASCII: 0 if none */
    unsigned long uspace;               /* ... its code point */
};

/* The lexer reads text[0..len), which starts at `line` of its file. */
int lexer_init(struct lexer *lx, const char *text, size_t len, pmn_at line);
void lexer_free(struct lexer *lx);
/* The next token, whitespace skipped. */
void lexer_next(struct lexer *lx, struct token *t);
/* Is s (len bytes) a result as the movetext reads one: 1-0, 0-1, 1/2-1/2,
 * *, or as a page prints it (1–0, ½-½)? */
int lexer_is_result(const char *s, size_t len);

/* After a T_LPAREN: is the parenthesised text free text (a comment) rather
 * than a variation?  Sets *end to the offset just past its ')' (or the end
 * of the text if it is never closed) and *closed. */
int lexer_paren_is_comment(struct lexer *lx, size_t *end, int *closed);
/* Move to offset `off` (forward only), keeping line and column right. */
void lexer_skip_to(struct lexer *lx, size_t off);

#endif
