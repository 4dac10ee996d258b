/* fuzz_rules.c - libFuzzer target: read any bytes as a rule file, and play
 * a few moves under the rules it gives.  Build and run: sh fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>

#include "pmn.h"

static void ignore(void *ctx, const pmn_diag *d)
{
    (void)ctx;
    (void)d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmn_rule_file *f = pmn_rule_file_parse((const char *)data, size, "fuzz", ignore, NULL);
    if (!f)
        return 0;
    const pmn_rules *r = pmn_rule_file_rules(f);
    char buf[4096];
    pmn_rules_describe(r, buf, sizeof buf);
    pmn_rules_format(r, buf, sizeof buf);
    pmn_position p;
    pmn_position_start(r, &p);
    if (r->seeds * r->pits <= 200)   /* relays with many seeds may loop for long */
        pmn_perft(r, &p, 3, NULL, NULL);
    pmn_rule_file_free(f);
    return 0;
}
