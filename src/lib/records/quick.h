/* quick.h - a game proved clean in one pass over its text (quick.c);
 * internal to libpmn: the reader uses it for pmn_reader_next_checked. */
#ifndef PMN_QUICK_H
#define PMN_QUICK_H

#include "../engine/relay.h"

#define SEEN_BITS 9
/* A game of more plies is left to the full path. */
#define QUICK_MAX_PLIES 50000
#define SEEN_SLOTS (1u << SEEN_BITS)

struct quick {
    int usable;               /* the games are set up as Hawalis by default */
    pmn_rules rules;
#ifdef PMN_RELAY
    struct relay f;           /* keeps a pointer to rules: q must not move */
    holeset south, north;     /* the start */
    /* The positions since the last capture, by hash (quick.c). */
    unsigned round, nseen;
    struct { uint64_t key; unsigned round; } seen[SEEN_SLOTS];
#endif
    /* The holes of the last game proved (ply i South's when i is even), and
     * their number (0 if the last game was not proved). */
    unsigned char holes[QUICK_MAX_PLIES];
    size_t nholes;
    /* NULL, or QUICK_MAX_PLIES + 1 places (the reader's, kept past
     * quick_init): pmn_position_key of each position of the last game
     * proved, from its start; nkeys of them (0: none kept). */
    uint64_t *keys;
    size_t nkeys;
};

/* Get q ready for games set up with o (NULL: none).  Returns 1 if the
 * quick path can take them, else 0 (the full path reads every game). */
int quick_init(struct quick *q, const pmn_setup_options *o);

/* Is text[0..len), one chunk of the reader, a single game that the full
 * path would read, replay and check without a word?  Then 1, *facts what
 * its replay proves, q->holes its plies and (where q->keys is given) the
 * keys of its positions; else 0.  text[len] must be
 * '\0'.  proved: the text is one this proved before, read again for its
 * plies alone (q->holes), not replayed (*facts left as it is); then 1 if
 * it still reads as a game of that shape. */
int quick_read(struct quick *q, const char *text, size_t len, int proved,
               pmn_game_facts *facts);

#endif
