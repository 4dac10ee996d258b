/* rulespec.h - the built-in rule sets as rule specifications; internal to
 * libpmn.  The engine's tier reads these, never XML: rulespecs.c is made by
 * make from the options of rules/NAME.xml, and test_rules holds each equal
 * to what its rule file says. */
#ifndef PMN_RULESPEC_H
#define PMN_RULESPEC_H

#include <stddef.h>

#include "pmn.h"

struct builtin_rule_spec {
    const char *name, *options;   /* "kalah", "rows=1,holes=6,..." */
};
extern const struct builtin_rule_spec rulespec_builtin[];
extern const size_t rulespec_builtin_count;

/* What a rule set leaves unsaid (rules.c). */
void rules_defaults(pmn_rules *r);

#endif
