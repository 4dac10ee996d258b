/* fuzz_quick.c - libFuzzer target: the reader's quick pass against the full
 * path.  Any bytes are read both ways in step; a game the quick pass counts
 * must be one on which the parser, setup and replay say nothing, with the
 * same moves, and whose tags pmn_reader_game_tags gives as the parser
 * reads them, else the target aborts.  Build and run: sh fuzz/run.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmn.h"

static void count(void *ctx, const pmn_diag *d)
{
    (void)d;
    ++*(int *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *fa = fmemopen((void *)data, size, "r"), *fb = fmemopen((void *)data, size, "r");
    int na = 0, nb = 0;
    pmn_reader *a = fa ? pmn_reader_new(fa, count, &na) : NULL;
    pmn_reader *b = fb ? pmn_reader_new(fb, count, &nb) : NULL;
    while (a && b) {
        pmn_record ra, rb;
        pmn_game_facts facts = { 0 };
        nb = 0;
        int rca = pmn_reader_next_checked(a, &ra, &facts), rcb = pmn_reader_next(b, &rb);
        if ((rca > 0) != (rcb > 0))
            abort();   /* the two readers must see the same games */
        if (rcb > 0) {
            pmn_setup s;
            pmn_setup_record(&rb, NULL, &s, count, &nb);
            pmn_replay *r = pmn_replay_new(&rb, &s, count, &nb);
            const pmn_check_result *res = r ? pmn_replay_result(r) : NULL;
            if (rca == 2 && (nb != 0 || !r || res->written != facts.moves
                             || res->ending != facts.ending || res->outcome != facts.outcome
                             || res->captured[0] != facts.captured[0]
                             || res->captured[1] != facts.captured[1]))
                abort();   /* counted clean, but it is not, or not as the replay is */
            if (rca == 2) {
                const pmn_tag *tags;
                size_t n;
                if (pmn_reader_game_tags(a, &tags, &n) != 1 || n != rb.ntags)
                    abort();   /* the tags of a proved game, not as the parser's */
                for (size_t i = 0; i < n; i++)
                    if (strcmp(tags[i].name, rb.tags[i].name) != 0
                        || strcmp(tags[i].value, rb.tags[i].value) != 0
                        || tags[i].line != rb.tags[i].line || tags[i].col != rb.tags[i].col
                        || tags[i].value_col != rb.tags[i].value_col)
                        abort();
            }
            pmn_replay_free(r);
        }
        pmn_record_free(&ra);
        pmn_record_free(&rb);
        if (rcb <= 0)
            break;
    }
    pmn_reader_free(a);
    pmn_reader_free(b);
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return 0;
}
