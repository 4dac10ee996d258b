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

/* Draw the board after every ply replayed, variations too, as pmn replay
 * would: the replay's tree must match the record's. */
static void visit(const pmn_rules *r, const pmn_line *l, const pmn_played_line *pl)
{
    char buf[2048];
    for (size_t i = 0; i < l->nmoves; i++) {
        if (pl->moves[i].replayed)
            pmn_board_format(r, &pl->moves[i].after, buf, sizeof buf);
        for (size_t v = 0; v < l->moves[i].nvariations; v++)
            visit(r, &l->moves[i].variations[v], &pl->moves[i].variations[v]);
    }
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
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, ignore, NULL);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, ignore, NULL);
        if (replay)
            visit(&setup.rules, &rec.main, pmn_replay_main(replay));
        if (sink && replay) {
            pmn_write_options o;
            pmn_write_options_init(&o);
            o.notation = (pmn_notation)(size % 3);
            pmn_write_record(sink, &rec, replay, &o);
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
    fclose(f);
    return 0;
}
