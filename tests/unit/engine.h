/* engine.h - rules and positions from their text for the engine's tests,
 * failing the test with the reason when the text is refused.  Include after
 * cmocka.h and pmn.h. */
#ifndef PMN_TEST_ENGINE_H
#define PMN_TEST_ENGINE_H

#include <string.h>

static inline pmn_rules rules_with(const char *spec)
{
    pmn_rules r;
    pmn_error err;
    if (pmn_rules_init(&r, spec, &err) < 0)
        fail_msg("rules '%s': %s", spec ? spec : "", err.message);
    return r;
}

static inline pmn_position position(const pmn_rules *r, const char *text)
{
    pmn_position p;
    pmn_error err;
    if (pmn_position_parse(r, text, &p, &err) < 0)
        fail_msg("position '%s': column %zu: %s", text, err.column, err.message);
    return p;
}

/* The next number of a test's random sequence, below n: an LCG, the same
 * on every machine. */
static inline unsigned random_below(unsigned long *seed, unsigned n)
{
    *seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
    return (unsigned)((*seed >> 33) % n);
}

/* `seeds` seeds scattered at random over both sides' holes, and a side to
 * move drawn too. */
static inline pmn_position random_position(const pmn_rules *r, unsigned seeds,
                                           unsigned long *seed)
{
    pmn_position p;
    memset(&p, 0, sizeof p);
    for (unsigned k = 0; k < seeds; k++)
        p.pit[random_below(seed, 2)][random_below(seed, r->pits)]++;
    p.to_move = (uint8_t)random_below(seed, 2);
    return p;
}

#endif
