/* relay.h - the packed engine of the relay family, internal to libpmn:
 * relay laps round the mover's own holes, no store, captures of the facing
 * front (and back) hole, no extra turn, and a game lost by the side left
 * without a move (Hawalis and its variants).  A side's holes are the bytes
 * of one 128-bit number; a lap adds a row of a table to it, and the holes
 * that lift are found for all of them at once.  It serves through the
 * engine interface (play.h), and perft.c and quick.c use its parts as
 * well; tests compare it with the general engine on random positions.
 * Without 128-bit numbers (a compiler other than GCC or Clang) PMN_RELAY
 * is not defined and the general engine does everything. */
#ifndef PMN_RELAY_H
#define PMN_RELAY_H

#include "pmn.h"

#include <stdint.h>
#include <string.h>

/* The first n (at most 16) holes of pit, which has 16 or more, as the bytes
 * of two words (holes 0-7, then 8-15), where each holds fewer than 256
 * seeds: then 1, else 0.  The packed engine's holes and the repetition key
 * (play.h) are made of them. */
static inline int pit_words(const uint16_t *pit, unsigned n, uint64_t w[2])
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t q[4], wide = 0;
    memcpy(q, pit, sizeof q);
    for (unsigned k = 0; k < 4; k++) {
        unsigned have = n > 4 * k ? n - 4 * k : 0;   /* holes of this word in play */
        if (have < 4)
            q[k] &= have ? (1ULL << (16 * have)) - 1 : 0;
        wide |= q[k];
        /* c0 0 c1 0 c2 0 c3 0 -> c0 c1 c2 c3 0 0 0 0 */
        uint64_t x = (q[k] | q[k] >> 8) & 0x0000FFFF0000FFFFULL;
        q[k] = (x | x >> 16) & 0xFFFFFFFFULL;
    }
    w[0] = q[0] | q[1] << 32;
    w[1] = q[2] | q[3] << 32;
    return (wide & 0xFF00FF00FF00FF00ULL) == 0;
#else
    int fits = 1;
    w[0] = w[1] = 0;
    for (unsigned i = 0; i < n; i++) {
        fits &= pit[i] < 256;
        w[i / 8] |= (uint64_t)(pit[i] & 0xFF) << (8 * (i % 8));
    }
    return fits;
#endif
}

/* The one lap limit of the relay family's fast sowing (the packed engine
 * here, which play.c, check's quick pass and perft use): a
 * sowing still going after this many laps is handed to the general engine,
 * which proves it endless or sows it to its end.  Past it, an endless move
 * would cost the fast path laps for nothing; the sowings of real games end
 * within a few dozen. */
#define RELAY_LAP_LIMIT 256

#if defined(__SIZEOF_INT128__)
#define PMN_RELAY 1

typedef unsigned __int128 holeset;   /* a side's holes, a byte each */

static const uint64_t HIGH = 0x8080808080808080ull, BYTES = 0x0101010101010101ull;

struct relay {
    const pmn_rules *r;
    unsigned n, w;            /* holes a side, holes a row */
    int capture, back;        /* a front capture; and the hole behind it */
    uint64_t lifts;           /* each byte 0x80 - min_lift: the high bit where a hole lifts */
    holeset ones;             /* 1 in each byte of a hole */
    holeset facing[16];       /* [end]: the hole a sowing ending there takes, if any */
    holeset taken[16];        /* [end]: the holes it empties then */
    holeset span[16][32];     /* [a][h]: 1 in the bytes of the h holes after a */
    uint8_t end[16][32];      /* [a][h]: the hole h after a */
};

/* Do the rules r, from position p, belong to the family?  If so, fill f
 * (which keeps r). */
int relay_fits(const pmn_rules *r, const pmn_position *p, struct relay *f);

static inline unsigned hole_of(holeset x, unsigned i)
{
    return (unsigned)(x >> (8 * i)) & 0xFF;
}

static inline holeset pack(const struct relay *f, const uint16_t *pit)
{
    uint64_t w[2];
    pit_words(pit, f->n, w);   /* the family holds at most 127 seeds */
    return (holeset)w[1] << 64 | w[0];
}

/* The holes x into pit (16 or more), zero past the family's. */
static inline void unpack(holeset x, uint16_t *pit)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t q[4];
    for (unsigned k = 0; k < 4; k++) {
        /* c0 c1 c2 c3 -> c0 0 c1 0 c2 0 c3 0 */
        uint64_t y = (uint64_t)(x >> (32 * k)) & 0xFFFFFFFFULL;
        y = (y | y << 16) & 0x0000FFFF0000FFFFULL;
        q[k] = (y | y << 8) & 0x00FF00FF00FF00FFULL;
    }
    memcpy(pit, q, sizeof q);
#else
    for (unsigned i = 0; i < 16; i++)
        pit[i] = (uint16_t)hole_of(x, i);
#endif
}

/* The high bit of each byte of a hole of min_lift seeds or more. */
static inline uint64_t lifting(const struct relay *f, uint64_t word)
{
    return (word + f->lifts) & HIGH;
}

/* How many bytes of x have their high bit set, and no other bit. */
static inline unsigned high_bits(uint64_t x)
{
    return (unsigned)(((x >> 7) * BYTES) >> 56);
}

/* The high bit of each byte of word that is not zero. */
static inline uint64_t nonzero(uint64_t word)
{
    return (((word & ~HIGH) + ~HIGH) | word) & HIGH;
}

/* The high bit of each hole whose single seed (below min_lift) may move:
 * one into an empty next hole, when no hole lifts. */
static inline holeset single_bytes(const struct relay *f, holeset x)
{
    holeset next = x >> 8 | (x & 0xFF) << (8 * (f->n - 1));
    uint64_t lo = nonzero((uint64_t)x) & ~nonzero((uint64_t)next);
    uint64_t hi = nonzero((uint64_t)(x >> 64)) & ~nonzero((uint64_t)(next >> 64));
    return (holeset)hi << 64 | lo;
}

/* Those holes as bits. */
static inline uint32_t singles(const struct relay *f, holeset x)
{
    holeset b = single_bytes(f, x);
    uint32_t set = 0;
    for (uint64_t lo = (uint64_t)b; lo; lo &= lo - 1)
        set |= 1u << (__builtin_ctzll(lo) / 8);
    for (uint64_t hi = (uint64_t)(b >> 64); hi; hi &= hi - 1)
        set |= 1u << (8 + __builtin_ctzll(hi) / 8);
    return set;
}

/* The holes of the side to move that may be lifted, as bits. */
static inline uint32_t legal_set(const struct relay *f, holeset x)
{
    uint64_t lo = lifting(f, (uint64_t)x), hi = lifting(f, (uint64_t)(x >> 64));
    uint32_t set = 0;
    for (; lo; lo &= lo - 1)
        set |= 1u << (__builtin_ctzll(lo) / 8);
    for (; hi; hi &= hi - 1)
        set |= 1u << (8 + __builtin_ctzll(hi) / 8);
    return set ? set : singles(f, x);
}

static inline unsigned legal_count(const struct relay *f, holeset x)
{
    unsigned c = high_bits(lifting(f, (uint64_t)x)) + high_bits(lifting(f, (uint64_t)(x >> 64)));
    if (c)
        return c;
    holeset b = single_bytes(f, x);
    return high_bits((uint64_t)b) + high_bits((uint64_t)(b >> 64));
}

/* The high bit of each hole that the side to move, holding x, may lift:
 * none if it has no move. */
static inline holeset legal_bytes(const struct relay *f, holeset x)
{
    uint64_t lo = lifting(f, (uint64_t)x), hi = lifting(f, (uint64_t)(x >> 64));
    return lo | hi ? (holeset)hi << 64 | lo : single_bytes(f, x);
}

/* Sow from hole a of the side to move, relaying.  Returns the hole where
 * the sowing ends, with *laps (unless NULL) the lifts made, the first
 * included; or -1 if it has not ended after `limit` laps.  The holes stay
 * in two 64-bit registers. */
static inline int relay_sow(const struct relay *f, holeset *mine, unsigned a, unsigned limit,
                            unsigned *laps)
{
    unsigned n = f->n;
    uint64_t lo = (uint64_t)*mine, hi = (uint64_t)(*mine >> 64);
    for (unsigned lap = 0;; lap++) {
        uint64_t word = a < 8 ? lo : hi;
        unsigned at = 8 * (a & 7), h = (unsigned)(word >> at) & 0xFF;
        if (lap && h == 1) {
            if (laps)
                *laps = lap;
            break;
        }
        if (lap == limit)
            return -1;
        uint64_t lifted = (uint64_t)h << at;
        lo -= a < 8 ? lifted : 0;
        hi -= a < 8 ? 0 : lifted;
        if (h > n) {   /* whole turns, keeping 1..n seeds */
            uint64_t rounds = (h - 1) / n;
            lo += rounds * (uint64_t)f->ones;
            hi += rounds * (uint64_t)(f->ones >> 64);
            h -= (unsigned)rounds * n;
        }
        lo += (uint64_t)f->span[a][h];
        hi += (uint64_t)(f->span[a][h] >> 64);
        a = f->end[a][h];
    }
    *mine = (holeset)hi << 64 | lo;
    return (int)a;
}

/* The opponent's holes after a sowing that ended at `end`. */
static inline holeset captured(const struct relay *f, holeset theirs, unsigned end)
{
    return theirs & f->facing[end] ? theirs & ~f->taken[end] : theirs;
}

/* The seeds in the holes x: each half's bytes summed by one product (the
 * family holds at most 127 seeds, so no sum carries out of its byte). */
static inline unsigned seeds_of(holeset x)
{
    return (unsigned)(((uint64_t)x * BYTES) >> 56) + (unsigned)(((uint64_t)(x >> 64) * BYTES) >> 56);
}

#endif
#endif
