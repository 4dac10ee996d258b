/* fuzz_roundtrip.c - libFuzzer target: canonical means canonical.  Any bytes
 * read as PMN and written canonically must read back to the same bytes when
 * converted again (pmn convert's promise, pmn(5) "Canonical form"), in
 * every notation and capture style: the first byte chooses them (its value
 * mod 3: letters, numbers, coordinates; its value / 3 mod 2: (+N), (xN)),
 * and the rest is the record.
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

/* Convert text[0..size) as pmn convert does, with the options o; the
 * output in *out (malloc'd). */
static size_t convert(const char *text, size_t size, const pmn_write_options *o, char **out)
{
    size_t len = 0;
    *out = NULL;
    FILE *f = fmemopen((void *)text, size, "r");
    FILE *w = open_memstream(out, &len);
    if (!f || !w)
        abort();
    pmn_reader *rd = pmn_reader_new(f, ignore, NULL);
    pmn_record rec;
    int games = 0;
    while (rd && pmn_reader_next(rd, &rec) > 0) {
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, ignore, NULL);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, ignore, NULL);
        if (replay) {
            if (games++)
                fputc('\n', w);
            pmn_write_record(w, &rec, replay, o);
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
    fclose(f);
    fclose(w);
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *once, *twice;
    pmn_write_options o;
    pmn_write_options_init(&o);
    if (size == 0)
        return 0;
    o.notation = data[0] % 3 == 0 ? PMN_NOTATION_LETTERS
               : data[0] % 3 == 1 ? PMN_NOTATION_NUMBERS : PMN_NOTATION_COORDINATES;
    o.capture_style = data[0] / 3 % 2 ? 'x' : '+';
    size_t n1 = convert((const char *)data + 1, size - 1, &o, &once);
    size_t n2 = convert(once, n1, &o, &twice);
    if (n1 != n2 || memcmp(once, twice, n1) != 0) {
        fprintf(stderr, "converting again changed the output:\n--- once\n%.*s\n--- twice\n%.*s\n",
                (int)n1, once, (int)n2, twice);
        abort();
    }
    free(once);
    free(twice);
    return 0;
}
