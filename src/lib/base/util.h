/* util.h - helpers shared by libpmn's modules; not part of the public API. */
#ifndef PMN_UTIL_H
#define PMN_UTIL_H

#include "pmn.h"

/* perft through pmn_legal_moves and pmn_play alone, without the fast path
 * of pmn_perft: what tests compare that path with. */
uint64_t perft_general(const pmn_rules *r, const pmn_position *p, unsigned depth);

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PMN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PMN_PRINTF(f, a)
#endif

/* Fill *err (if not NULL) and return -1, so that callers can write
 * `return util_fail(err, ...)`. */
int util_fail(pmn_error *err, int code, size_t column, const char *fmt, ...)
    PMN_PRINTF(4, 5);

/* Report diagnostic `code` (its severity comes from the table) through fn. */
void diag_report(pmn_diag_fn fn, void *ctx, pmn_diag_code code, pmn_at line, pmn_at col,
                 const char *fmt, ...) PMN_PRINTF(6, 7);

/* Text built up in a caller's buffer of `size` bytes, as snprintf does it:
 * what does not fit is cut, the buffer stays NUL-terminated (if size > 0),
 * and n counts every byte asked for, so that the caller can return it. */
typedef struct textbuf {
    char *buf;
    size_t size, n;
} textbuf;

void textbuf_init(textbuf *t, char *buf, size_t size);
void textbuf_add(textbuf *t, const char *fmt, ...) PMN_PRINTF(2, 3);

/* Length of the valid UTF-8 sequence that starts at s (1 to 4 bytes; no
 * overlong form, surrogate or code point past U+10FFFF), or 0. */
int util_utf8_length(const unsigned char *s);

/* Text pasted from web pages holds spaces that are not ASCII: the length
 * of the one that starts at s (before end), or 0.  They are U+00A0, U+1680,
 * U+2000-U+200B, U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF (the
 * byte-order mark). */
size_t util_unicode_space(const char *s, const char *end);
/* The code point of the UTF-8 sequence at s, which util_utf8_length took. */
unsigned long util_utf8_decode(const unsigned char *s, int len);

/* A tag pair on its line, its value's '"' and '\\' escaped: PMN's and OGN's. */
void writer_tag(FILE *f, const char *name, const char *value);

/* Allocation that reports failure by returning NULL, like malloc; strdup of
 * n bytes. */
char *util_strndup(const char *s, size_t n);
/* The decimal digits of v, written at the end of buf[0..PMN_DIGITS) with
 * their NUL, without printf (writers call it for every move); returns
 * where they begin. */
#define PMN_DIGITS 24
char *util_digits(char buf[PMN_DIGITS], unsigned long long v);

/* Room for `need` bytes in the buffer *buf of *cap bytes: grown to twice
 * (from `first`) until it holds them.  0, or -1 when memory runs out (the
 * buffer left as it was). */
int util_reserve(char **buf, size_t *cap, size_t need, size_t first);

/* The Game tag that names the rule set r, as the sample games write it
 * ("Hawalis" for hawalis): setup.c's, for every writer. */
void setup_game_name(const pmn_rules *r, char *buf, size_t size);
/* The Game tag of the rule set a record without one is played by. */
void setup_default_game(char *buf, size_t size);

/* Can no position of these rules come twice in a game (stores, one lap a
 * sowing round both rows, no captures that leave seeds to sow again)?
 * Then a value never depends on the moves before (rules.c; the search,
 * the solver and the databases ask it). */
int rules_acyclic(const pmn_rules *r);

/* ---- what the searches share (search.c, solve.c) ---- */

/* A 64-bit finaliser (a variant of MurmurHash3's): every bit of h moves
 * about half the bits of the result. */
static inline uint64_t pmn_mix64(uint64_t h)
{
    h ^= h >> 31;
    h *= 0x7fb5d329728ea185ULL;
    h ^= h >> 27;
    h *= 0x81dadef4bc2dd44dULL;
    return h ^ (h >> 33);
}

/* Did a move leave the board for good: a capture, or seeds stored?  No
 * position before it can come again. */
static inline int pmn_irreversible(const pmn_move_report *rep)
{
    return rep->captured || rep->given || rep->stored;
}

/* A search's budget as it runs: the positions played, and the limits. */
struct search_budget {
    uint64_t nodes, max_nodes;
    double deadline;          /* on util_now()'s clock; 0: none */
    int (*stop)(void *ctx);   /* the caller's stop, or NULL */
    void *stop_ctx;
    const int *damaged;       /* the databases' damage flag (tablebase_damaged_flag()),
                                 or NULL: a search stops once they are found damaged
                                 rather than go on without them */
    int stopped;
};

/* Seconds on a monotonic clock. */
double util_now(void);
/* Is the budget spent (the clock and the caller asked every 1024 nodes)?
 * Once it is, it stays spent.  Inline: the search and the solver ask it at
 * every node. */
static inline int search_budget_spent(struct search_budget *b)
{
    if (b->stopped)
        return 1;
    if (b->max_nodes && b->nodes >= b->max_nodes)
        b->stopped = 1;
    else if ((b->nodes & 1023) == 0
             && ((b->deadline > 0 && util_now() >= b->deadline)
                 || (b->damaged && __atomic_load_n(b->damaged, __ATOMIC_RELAXED))
                 || (b->stop && b->stop(b->stop_ctx))))
        b->stopped = 1;
    return b->stopped;
}

#endif
