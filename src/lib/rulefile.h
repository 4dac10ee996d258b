/* rulefile.h - the built-in rule files; internal to libpmn. */
#ifndef PMN_RULEFILE_H
#define PMN_RULEFILE_H

#include <stddef.h>

#include "pmn.h"

/* rulefiles.c, made by make from rules/NAME.xml and grammar/rules.rng. */
struct builtin_rule_text {
    const char *name, *text;
};
extern const struct builtin_rule_text pmn_builtin_rule_text[];
extern const size_t pmn_builtin_rule_count;

/* What a rule file leaves unsaid (rules.c). */
void pmn_rules_defaults(pmn_rules *r);

#endif
