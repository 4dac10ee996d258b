/* fuzz_import.c - libFuzzer target: read any bytes as an XML archive, with
 * and without validation, and write what it holds as PMN.
 * Build and run: sh fuzz/run.sh (needs clang). */
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
    for (int validate = 0; validate < 2; validate++) {
        FILE *in = fmemopen((void *)data, size, "r");
        FILE *out = fopen("/dev/null", "w");
        pmn_write_options o;
        pmn_record rec;
        if (!in || !out) {
            if (in)
                fclose(in);
            if (out)
                fclose(out);
            return 0;
        }
        pmn_write_options_init(&o);
        pmn_xml_reader *x = pmn_xml_reader_new(in, "fuzz.xml", validate, ignore, NULL);
        while (x && pmn_xml_reader_next(x, &rec) > 0) {
            pmn_write_record(out, &rec, NULL, &o);
            pmn_record_free(&rec);
        }
        pmn_xml_reader_free(x);
        fclose(in);
        fclose(out);
    }
    return 0;
}
