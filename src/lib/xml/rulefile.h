/* rulefile.h - the built-in rule files; internal to libpmn. */
#ifndef PMN_RULEFILE_H
#define PMN_RULEFILE_H

#include <stddef.h>

#include "pmn.h"

/* rulefiles.c, made by make from rules/NAME.xml and grammar/rules.rng. */
struct builtin_rule_text {
    const char *name, *text;
};
extern const struct builtin_rule_text rulefile_builtin[];
extern const size_t rulefile_builtin_count;

/* Have the built-in rule files been read (for the tests: the engine must
 * not need them)? */
int rulefile_loaded(void);

#endif
