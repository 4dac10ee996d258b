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

#define PMN_TEXT (-1)   /* PMN, beside the pmn_format notations */

/* Read text[0..size) in from (PMN_TEXT or a notation) and write its games
 * in to into *out, as pmn convert does (a Score tag the replay proves is
 * dropped); *lossy counts what lost() counts. */
static size_t convert(int from, int to, const char *text, size_t size, char **out, int *lossy)
{
    size_t len = 0;
    *out = NULL;
    FILE *f = fmemopen((void *)text, size ? size : 1, "r");
    FILE *o = open_memstream(out, &len);
    if (!f || !o)
        abort();
    pmn_reader *rd = NULL;
    pmn_format_reader *frd = NULL;
    if (size && from == PMN_TEXT)
        rd = pmn_reader_new(f, lost, lossy);
    else if (size)
        frd = pmn_format_reader_new(f, (pmn_format)from, ignore, NULL);
    pmn_write_options wo;
    pmn_write_options_init(&wo);
    pmn_record rec;
    int games = 0;
    while ((rd ? pmn_reader_next(rd, &rec) : frd ? pmn_format_reader_next(frd, &rec) : 0) > 0) {
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, lost, lossy);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, lost, lossy);
        if (replay) {
            if (games++)
                fputc('\n', o);
            if (to == PMN_TEXT) {
                pmn_record_check_score(&rec, replay, 1, ignore, NULL);
                pmn_write_record(o, &rec, replay, &wo);
            } else {
                pmn_write_format(o, (pmn_format)to, &rec, replay, lost, lossy);
            }
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
    pmn_format_reader_free(frd);
    fclose(f);
    fclose(o);
    return len;
}

/* PMN -> canonical PMN -> format -> PMN: the same canonical PMN, unless
 * the record has errors or the format was said not to hold it all. */
static void from_pmn(pmn_format format, const char *text, size_t size)
{
    char *canon, *written, *back;
    int lossy = 0, ignored = 0;
    size_t n0 = convert(PMN_TEXT, PMN_TEXT, text, size, &canon, &lossy);
    size_t n1 = convert(PMN_TEXT, (int)format, canon, n0, &written, &lossy);
    size_t n2 = convert((int)format, PMN_TEXT, written, n1, &back, &ignored);
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
    int ignored = 0;
    size_t n1 = convert((int)format, (int)format, (const char *)data + 1, size - 1, &once,
                        &ignored);
    size_t n2 = convert((int)format, (int)format, once, n1, &twice, &ignored);
    if (n1 != n2 || memcmp(once, twice, n1) != 0) {
        fprintf(stderr, "writing again changed the output:\n--- once\n%.*s\n--- twice\n%.*s\n",
                (int)n1, once, (int)n2, twice);
        abort();
    }
    free(once);
    free(twice);
    return 0;
}
