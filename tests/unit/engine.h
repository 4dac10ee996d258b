/* engine.h - rules and positions from their text for the engine's tests,
 * failing the test with the reason when the text is refused.  Include after
 * cmocka.h and pmn.h. */
#ifndef PMN_TEST_ENGINE_H
#define PMN_TEST_ENGINE_H

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

#endif
