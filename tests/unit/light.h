/* light.h - how many of a test's random trials to run.
 *
 * make check runs every trial.  tests/run-all.sh's valgrind and sanitizer
 * stages set PMN_TEST_LIGHT=1: there the code runs 2 to 50 times slower,
 * and a memory error or a data race shows in a few trials of each kind as
 * it does in all of them, so a tenth of the trials is run (none of a kind
 * of fewer than ten: those whose every trial takes seconds).
 * Each trial is checked as in make check; what is said of a sample as a
 * whole (enough positions compared, some moves marked) is checked only
 * where the whole sample ran. */
#ifndef PMN_TEST_LIGHT_H
#define PMN_TEST_LIGHT_H

#include <stdlib.h>

static inline int whole_sample(void)
{
    const char *env = getenv("PMN_TEST_LIGHT");
    return !env || !*env || *env == '0';
}

static inline int light(int trials)
{
    if (whole_sample())
        return trials;
    return trials / 10;
}

#endif
