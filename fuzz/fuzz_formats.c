/* fuzz_formats.c - libFuzzer target for other programs' notations, both
 * ways; the first byte chooses the notation (its value mod 4: OGN,
 * PlayStrategy, Mancala World, Awari) and the direction:
 *   below 4: the bytes read in that notation, each game replayed and
 *     written in it, must read back and write the same bytes again;
 *   4 and up: the bytes read as PMN, written as canonical PMN, then in the
 *     notation, and read back, must give the same canonical PMN -- unless
 *     the record has errors, or the writer said (W132) what the notation
 *     cannot hold.
 * What pmn writes, pmn reads as written (and nothing crashes on the way).
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

/* Counts what a writer says it cannot hold, and the errors of a record
 * read and replayed: what they make of a game is written as near as it can
 * be, not promised back. */
static void lost(void *ctx, const pmn_diag *d)
{
    if (d->code == PMN_W132 || d->severity >= PMN_ERROR)
        ++*(int *)ctx;
}

/* Read text[0..size) as PMN and write its games as canonical PMN (to_format
 * < 0) or in that notation into *out; *lossy counts W132. */
static size_t pmn_to(int to_format, const char *text, size_t size, char **out, int *lossy)
{
    size_t len = 0;
    *out = NULL;
    FILE *f = fmemopen((void *)text, size ? size : 1, "r");
    FILE *o = open_memstream(out, &len);
    if (!f || !o)
        abort();
    pmn_reader *rd = size ? pmn_reader_new(f, lost, lossy) : NULL;
    pmn_write_options wo;
    pmn_write_options_init(&wo);
    pmn_record rec;
    int games = 0;
    while (rd && pmn_reader_next(rd, &rec) > 0) {
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, lost, lossy);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, lost, lossy);
        if (replay) {
            if (games++)
                fputc('\n', o);
            if (to_format < 0) {
                pmn_record_check_score(&rec, replay, 1, ignore, NULL);   /* as convert */
                pmn_write_record(o, &rec, replay, &wo);
            }
            else
                pmn_write_format(o, (pmn_format)to_format, &rec, replay, lost, lossy);
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
    fclose(f);
    fclose(o);
    return len;
}

/* Read text[0..size) in format and write its games as canonical PMN. */
static size_t format_to_pmn(pmn_format format, const char *text, size_t size, char **out)
{
    size_t len = 0;
    *out = NULL;
    FILE *f = fmemopen((void *)text, size ? size : 1, "r");
    FILE *o = open_memstream(out, &len);
    if (!f || !o)
        abort();
    pmn_format_reader *rd = pmn_format_reader_new(f, format, ignore, NULL);
    pmn_write_options wo;
    pmn_write_options_init(&wo);
    pmn_record rec;
    int games = 0;
    while (rd && size && pmn_format_reader_next(rd, &rec) > 0) {
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, ignore, NULL);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, ignore, NULL);
        if (replay) {
            if (games++)
                fputc('\n', o);
            pmn_record_check_score(&rec, replay, 1, ignore, NULL);   /* as convert */
            pmn_write_record(o, &rec, replay, &wo);
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_format_reader_free(rd);
    fclose(f);
    fclose(o);
    return len;
}

/* PMN -> canonical PMN -> format -> PMN: the same canonical PMN, unless
 * the format was said not to hold it all. */
static void from_pmn(pmn_format format, const char *text, size_t size)
{
    char *canon, *written, *back;
    int lossy = 0;
    size_t n0 = pmn_to(-1, text, size, &canon, &lossy);
    size_t n1 = pmn_to((int)format, canon, n0, &written, &lossy);
    size_t n2 = format_to_pmn(format, written, n1, &back);
    if (!lossy && (n0 != n2 || memcmp(canon, back, n0) != 0)) {
        fprintf(stderr, "PMN -> %s -> PMN changed the game:\n--- canonical\n%.*s\n--- written"
                "\n%.*s\n--- read back\n%.*s\n", pmn_format_name(format), (int)n0, canon,
                (int)n1, written, (int)n2, back);
        abort();
    }
    free(canon);
    free(written);
    free(back);
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
    if (data[0] % 8 >= 4) {
        from_pmn(format, (const char *)data + 1, size - 1);
        return 0;
    }
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
