/* play.h - the one engine interface of everything that plays, internal to
 * libpmn: legal moves, a move played, the key of a position for
 * repetitions, and the path of keys since the last capture.
 *
 * Who uses it: the depth search (search.c), the margin solver (solve.c),
 * the games the replay plays (game.c), perft (perft.c), and check's quick
 * pass (quick.c: its key; it sows with the packed engine's parts over the
 * text).  An engine is chosen once per rule set and start: the packed
 * engine of the relay family (relay.h) where the rules and the seeds fit
 * it (Hawalis and its variants), the general engine (engine.c,
 * pmn_play) everywhere else and for what the packed one gives up on (a
 * sowing still going after a few hundred laps, which the general engine
 * proves endless or sows to its end).  Rules that sow as Kalah does
 * (engine_sows_as_kalah: Kalah under either capture, on any board) are
 * played on the position itself, a lap of the board added at once,
 * without the general engine's sowing state.  Each gives the same position
 * and move report as pmn_play, bit for bit: test_engine compares them on
 * random positions of every rule set it takes.  So `pmn perft` counts with
 * the very sowing that `pmn analyse` searches with.
 *
 * An endless move's proof, which the replay reports, comes from the
 * general engine either way: the packed one hands such a sowing over.
 * The databases (tablebase.c) keep pmn_play: the packed engine never takes
 * their rules (seeds scored).
 *
 * Keys.  A position's repetition key is one function of its holes (the
 * side to move's, then the other's) and of who moves, whichever engine
 * holds it: engine_key for a pmn_position, relay_key for packed holes;
 * they are equal on every position both can hold.  The holes enter it
 * linearly, as bytes of two 64-bit words a side, so that the packed engine
 * computes it with four multiplications.  On holes of fewer than 256
 * seeds (and 16 holes a side at most) two positions that differ in one
 * word only (the first or last eight holes of one side) never share a
 * key, and others but for a chance of about 2^-64.  A position with a
 * hole of more seeds, or more than 16 holes a side, is keyed by a chain of
 * mixes instead. */
#ifndef PMN_PLAY_H
#define PMN_PLAY_H

#include "pmn.h"
#include "relay.h"

#include <stddef.h>
#include <stdint.h>

struct engine {
    const pmn_rules *r;
    int packed;               /* the relay family's packed engine serves */
    int kalah;                /* engine_sows_as_kalah(r): Kalah's own sowing serves */
#ifdef PMN_RELAY
    struct relay f;
#endif
};

/* Choose the engine for the rules r (kept, not copied: they must outlive
 * e) and the positions that follow from p: the packed one needs every
 * seed of the board in one byte-wide hole, and the relay family never adds
 * seeds to a board. */
void engine_init(struct engine *e, const pmn_rules *r, const pmn_position *p);

/* Do the rules r sow, capture and end as Kalah does, whatever the board:
 * one lap round both sides through the mover's store, a last seed there
 * earning another sowing, a last seed in an own empty hole taking it and
 * the facing hole (opposite: if that has seeds; opposite-always: even when
 * not), the game over when either side is empty, each taking his own?
 * The engine then plays them on the position itself, and the databases'
 * builder on the counts (tablebase.c's kalah_sow). */
int engine_sows_as_kalah(const pmn_rules *r);

/* The legal holes of the side to move, in sowing order; their number. */
int engine_moves(const struct engine *e, const pmn_position *p, int moves[PMN_MAX_SIDE_PITS]);

/* Play `hole` on *p as pmn_play does, with the same report; returns what
 * pmn_play returns (0, or the illegality, leaving *p alone).  With key
 * (not NULL), *key is the repetition key of the position after the move,
 * engine_key's: the packed engine makes it from the holes it holds, without
 * reading the position again.  Whether the move left the board for good
 * (no position before it can come again) is pmn_irreversible(rep). */
int engine_play(const struct engine *e, pmn_position *p, int hole, pmn_move_report *rep,
                uint64_t *key);

/* ---- keys and repetitions ---- */

static inline uint64_t key_of_words(uint64_t mine0, uint64_t mine1, uint64_t theirs0,
                                    uint64_t theirs1, int mover)
{
    return mine0 * 0x9E3779B97F4A7C15ULL + mine1 * 0xC2B2AE3D27D4EB4FULL
         + theirs0 * 0x165667B19E3779F9ULL + theirs1 * 0x27D4EB2F165667C5ULL
         + (uint64_t)(mover + 1) * 0xD6E8FEB86659FD93ULL;
}

/* The repetition key of p under r; and of its holes with `me` to move
 * (the same board with either side to move: pmn_position_key). */
uint64_t engine_key(const pmn_rules *r, const pmn_position *p);
uint64_t engine_key_as(const pmn_rules *r, const pmn_position *p, int me);

#ifdef PMN_RELAY
/* The same key of packed holes: `mine` the side to move's, which is mover. */
static inline uint64_t relay_key(holeset mine, holeset theirs, int mover)
{
    return key_of_words((uint64_t)mine, (uint64_t)(mine >> 64), (uint64_t)theirs,
                        (uint64_t)(theirs >> 64), mover);
}
#endif

/* Has the key h come before on a search's path: among path[since..ply]
 * (the keys since the last capture, `since` the first of them), or, where
 * no capture came since the root (since == 0), among the game's keys
 * before the root? */
static inline int path_repeats(const uint64_t *path, unsigned since, int ply,
                               const uint64_t *before, size_t nbefore, uint64_t h)
{
    for (int i = (int)since; i <= ply; i++)
        if (path[i] == h)
            return 1;
    if (since == 0)
        for (size_t i = 0; i < nbefore; i++)
            if (before[i] == h)
                return 1;
    return 0;
}

#endif
