/* fuzz_decode.c - libFuzzer target: any bytes as a file of games is read
 * through pmn_text_input (decode.c): UTF-16 with and without its mark,
 * odd lengths, lone surrogates, Windows-1252, NUL bytes, a character cut
 * by the read buffer's edge.  What comes out is valid UTF-8, unless it is
 * the input untouched (XML, which libxml2 decodes); and reading it a byte
 * at a time gives exactly what reading it in bulk gives.  Build and run:
 * sh fuzz/run.sh. */
#define _GNU_SOURCE
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

/* Is s[0..n) UTF-8: no stray continuation, no overlong form, no
 * surrogate, nothing past U+10FFFF, no sequence cut short? */
static int valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
                   : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (!len || i + len > n)
            return 0;
        unsigned long cp = len == 1 ? c : c & (0x7F >> len);
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += len;
    }
    return 1;
}

/* The decoded text of data, read in bulk (whole) or a byte at a time. */
static unsigned char *decoded(const uint8_t *data, size_t size, int bulk, size_t *len)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return NULL;
    FILE *s = pmn_text_input(f, 1, ignore, NULL);
    if (!s) {
        fclose(f);
        return NULL;
    }
    size_t cap = 4 * size + 64, n = 0;
    unsigned char *out = malloc(cap);
    if (bulk) {
        size_t got;
        while (out && n < cap && (got = fread(out + n, 1, cap - n, s)) > 0)
            n += got;
    } else {
        int c;
        while (out && n < cap && (c = fgetc(s)) != EOF)
            out[n++] = (unsigned char)c;
    }
    /* No input of n bytes means more than 3n + 3 bytes of UTF-8 (a byte
     * of Windows-1252 becomes at most three; UTF-16's two bytes, at most
     * three; a replacement character three). */
    if (out && n >= cap)
        abort();
    fclose(s);
    *len = n;
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t a_len = 0, b_len = 0;
    unsigned char *a = decoded(data, size, 1, &a_len);
    unsigned char *b = decoded(data, size, 0, &b_len);
    if (a && b) {
        if (a_len != b_len || memcmp(a, b, a_len) != 0)
            abort();   /* byte by byte and in bulk disagree */
        if (!valid_utf8(a, a_len) && !(a_len == size && memcmp(a, data, size) == 0))
            abort();   /* neither UTF-8 nor the input passed through */
    }
    free(a);
    free(b);
    return 0;
}
