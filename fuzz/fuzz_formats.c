/* fuzz_formats.c - libFuzzer target: any bytes read in one of the other
 * programs' notations (the first byte chooses: OGN, PlayStrategy, Mancala
 * World, Awari), each game replayed and written in it, must read back and
 * write the same bytes again: what pmn writes, pmn reads as written (and
 * nothing crashes on the way).
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

/* Read text[0..size) in format and write its games in it into *out. */
static size_t rewrite(pmn_format format, const char *text, size_t size, char **out)
{
    size_t len = 0;
    *out = NULL;
    FILE *f = fmemopen((void *)text, size ? size : 1, "r");
    FILE *o = open_memstream(out, &len);
    if (!f || !o)
        abort();
    pmn_format_reader *rd = pmn_format_reader_new(f, format, ignore, NULL);
    pmn_record rec;
    int games = 0;
    while (rd && size && pmn_format_reader_next(rd, &rec) > 0) {
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, ignore, NULL);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, ignore, NULL);
        if (replay) {
            if (games++)
                fputc('\n', o);
            pmn_write_format(o, format, &rec, replay, ignore, NULL);
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_format_reader_free(rd);
    fclose(f);
    fclose(o);
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *once, *twice;
    if (!size)
        return 0;
    pmn_format format = (pmn_format)(data[0] % 4);
    size_t n1 = rewrite(format, (const char *)data + 1, size - 1, &once);
    size_t n2 = rewrite(format, once, n1, &twice);
    if (n1 != n2 || memcmp(once, twice, n1) != 0) {
        fprintf(stderr, "writing again changed the output:\n--- once\n%.*s\n--- twice\n%.*s\n",
                (int)n1, once, (int)n2, twice);
        abort();
    }
    free(once);
    free(twice);
    return 0;
}
