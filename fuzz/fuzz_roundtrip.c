/* fuzz_roundtrip.c - libFuzzer target: canonical means canonical.  Any bytes
 * read as PMN and written canonically must read back to the same bytes when
 * converted again (pmn convert's promise, pmn(5) "Canonical form").
 * Build and run: sh fuzz/run.sh (needs clang). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmn.h"

static void ignore(void *ctx, const pmn_diag *d)
{
    (void)ctx;
    (void)d;
}

/* Convert text[0..size) as pmn convert does; the output in *out (malloc'd). */
static size_t convert(const char *text, size_t size, char **out)
{
    size_t len = 0;
    *out = NULL;
    FILE *f = fmemopen((void *)text, size, "r");
    FILE *o = open_memstream(out, &len);
    if (!f || !o)
        abort();
    pmn_reader *rd = pmn_reader_new(f, ignore, NULL);
    pmn_record rec;
    int games = 0;
    while (rd && pmn_reader_next(rd, &rec) > 0) {
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, ignore, NULL);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, ignore, NULL);
        if (replay) {
            pmn_write_options opt;
            pmn_write_options_init(&opt);
            if (games++)
                fputc('\n', o);
            pmn_write_record(o, &rec, replay, &opt);
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
    fclose(f);
    fclose(o);
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *once, *twice;
    size_t n1 = convert((const char *)data, size, &once);
    size_t n2 = convert(once, n1, &twice);
    if (n1 != n2 || memcmp(once, twice, n1) != 0) {
        fprintf(stderr, "converting again changed the output:\n--- once\n%.*s\n--- twice\n%.*s\n",
                (int)n1, once, (int)n2, twice);
        abort();
    }
    free(once);
    free(twice);
    return 0;
}
