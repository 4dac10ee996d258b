/* fuzz_check.c - libFuzzer target: read, check, replay and write back any
 * bytes as PMN.
 * Build and run: sh fuzz/run.sh (needs clang). */
#include <stdint.h>
#include <stdio.h>

#include "pmn.h"

static void ignore(void *ctx, const pmn_diag *d)
{
    (void)ctx;
    (void)d;
}

static void visit(void *ctx, const pmn_move *m, unsigned ply, int depth,
                  const pmn_move_report *rep, const pmn_position *after)
{
    char buf[2048];
    (void)m;
    (void)ply;
    (void)depth;
    (void)rep;
    pmn_board_format(ctx, after, buf, sizeof buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    pmn_reader *rd = pmn_reader_new(f, ignore, NULL);
    pmn_record rec;
    while (rd && pmn_reader_next(rd, &rec) > 0) {
        pmn_rules rules;
        pmn_check_result res;
        pmn_rules_init(&rules, NULL, NULL);
        if (pmn_record_rules(&rec, &rules, ignore, NULL) == 0) {
            pmn_check_record_visit(&rec, &rules, ignore, NULL, visit, &rules, &res);
            pmn_record_resolve_sides(&rec, &rules);
        }
        if (sink) {
            pmn_write_options o;
            pmn_write_options_init(&o);
            o.notation = (pmn_notation)(size % 3);
            pmn_write_record(sink, &rec, &o);
        }
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
    fclose(f);
    return 0;
}
