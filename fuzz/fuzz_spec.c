/* fuzz_spec.c - libFuzzer target: any bytes as a rule specification (the
 * --rules option and the Rules tag), then as a position string under the
 * rules it gives (or Hawalis): numbers out of range must be refused, never
 * wrapped; a position read must format and read back to itself.
 * Build and run: sh fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The first line is the specification, the rest the position. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *position = strchr(text, '\n');
    if (position)
        *position++ = '\0';
    pmn_rules r;
    pmn_error err;
    if (pmn_rules_init(&r, text, &err) < 0 || pmn_rules_check(&r, &err) < 0)
        pmn_rules_init(&r, "hawalis", NULL);
    char buf[1024], again[1024];
    pmn_rules_format(&r, buf, sizeof buf);
    pmn_rules back;
    if (pmn_rules_init(&back, buf, &err) < 0 || memcmp(&back, &r, sizeof r) != 0)
        abort();   /* the formatted form must read back to the same rules */
    pmn_position p, q;
    if (position && pmn_position_parse(&r, position, &p, &err) == 0) {
        pmn_position_format(&r, &p, buf, sizeof buf);
        if (pmn_position_parse(&r, buf, &q, &err) != 0)
            abort();
        pmn_position_format(&r, &q, again, sizeof again);
        if (strcmp(buf, again) != 0)
            abort();
    }
    free(text);
    return 0;
}
