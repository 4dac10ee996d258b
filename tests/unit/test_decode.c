/* test_decode.c - text as pmn reads it (decode.c, pmn_text_input): every
 * encoding a file of games may come in is handed on as the UTF-8 it
 * means, and said once (N133) with where it was first seen; what is no
 * text at all is refused whole (F004); XML passes untouched.  Each case
 * is read both in one piece and across the decoder's chunk boundary (64
 * KiB), where a sequence may be cut in two. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <sys/wait.h>
#include <unistd.h>

#include "read.h"

/* The decoder's chunk (decode.c's CHUNK): input longer than this is read
 * in several, and a sequence may straddle two. */
#define CHUNK 65536

struct decoded {
    char *text;               /* what the stream gave, NUL added */
    size_t len;
    struct diags ds;          /* what it said when closed */
};

/* Read the n bytes of in through pmn_text_input, whole. */
static void decode_bytes(const void *in, size_t n, struct decoded *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fmemopen((void *)in, n, "r");
    assert_non_null(f);
    FILE *s = pmn_text_input(f, 1, collect, &out->ds);
    assert_non_null(s);
    size_t cap = 4 * n + 2048;   /* a byte can become three; a read is 1000 */
    out->text = malloc(cap);
    assert_non_null(out->text);
    size_t got;
    /* Small reads, so that the stream hands its text out in pieces. */
    while ((got = fread(out->text + out->len, 1, 1000, s)) > 0) {
        out->len += got;
        assert_true(out->len + 1000 < cap);   /* no more than it can mean */
    }
    assert_false(ferror(s));
    assert_int_equal(fclose(s), 0);
    out->text[out->len] = '\0';
}

/* The one note or fatal said, with its code, line and words. */
static void said_once(const struct decoded *d, int code, pmn_at line, const char *words)
{
    assert_int_equal(d->ds.n, 1);
    assert_int_equal(d->ds.d[0].code, code);
    assert_int_equal(d->ds.d[0].line, line);
    if (!strstr(d->ds.d[0].message, words))
        fail_msg("'%s' does not say '%s'", d->ds.d[0].message, words);
}

/* in[0..n) comes out as it went in, and nothing is said of it. */
static void unchanged(const void *in, size_t n)
{
    struct decoded d;
    decode_bytes(in, n, &d);
    assert_int_equal(d.len, n);
    assert_memory_equal(d.text, in, n);
    assert_int_equal(d.ds.n, 0);
    free(d.text);
}

/* UTF-16 of the ASCII and BMP text t (UTF-8 in, two bytes a character
 * out, big- or little-endian), with a byte-order mark when bom. */
static size_t utf16(const char *t, int big, int bom, unsigned char *out)
{
    size_t o = 0;
    if (bom) {
        out[o++] = big ? 0xFE : 0xFF;
        out[o++] = big ? 0xFF : 0xFE;
    }
    for (const unsigned char *p = (const unsigned char *)t; *p;) {
        unsigned long c;
        if (*p < 0x80)
            c = *p++;
        else if ((*p & 0xE0) == 0xC0)
            c = (unsigned long)(p[0] & 0x1F) << 6 | (p[1] & 0x3F), p += 2;
        else
            c = (unsigned long)(p[0] & 0x0F) << 12 | (unsigned long)(p[1] & 0x3F) << 6
                | (p[2] & 0x3F), p += 3;
        out[o++] = (unsigned char)(big ? c >> 8 : c & 0xFF);
        out[o++] = (unsigned char)(big ? c & 0xFF : c >> 8);
    }
    return o;
}

static const char GAME[] = "[Event \"Z\xC3\xA9 \xE2\x82\xAC\"]\n[South \"Jos\xC3\xA9\"]\n\n1. i *\n";

static void utf8_passes_unchanged(void **state)
{
    (void)state;
    struct decoded d;
    decode_bytes(GAME, strlen(GAME), &d);
    assert_string_equal(d.text, GAME);
    assert_int_equal(d.ds.n, 0);   /* nothing to say of UTF-8 */
    free(d.text);
    /* A UTF-8 byte-order mark is no part of the text's words: the reader
     * passes over it; the decoder leaves it (it is UTF-8). */
    char bom[64] = "\xEF\xBB\xBF";
    strcat(bom, "1. i *\n");
    decode_bytes(bom, strlen(bom), &d);
    assert_string_equal(d.text, bom);
    assert_int_equal(d.ds.n, 0);
    free(d.text);
}

static void utf16_with_and_without_mark(void **state)
{
    (void)state;
    static const struct { int big, bom; const char *says; } cases[] = {
        { 0, 1, "UTF-16 (little-endian): its byte-order mark says so" },
        { 1, 1, "UTF-16 (big-endian): its byte-order mark says so" },
        { 0, 0, "UTF-16 (little-endian): every other byte is 0" },
        { 1, 0, "UTF-16 (big-endian): every other byte is 0" },
    };
    unsigned char in[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = utf16(GAME, cases[i].big, cases[i].bom, in);
        struct decoded d;
        decode_bytes(in, n, &d);
        assert_string_equal(d.text, GAME);   /* the mark dropped */
        said_once(&d, 133, 0, cases[i].says);
        free(d.text);
    }
}

static void utf16_odd_length_and_surrogates(void **state)
{
    (void)state;
    struct decoded d;
    /* A byte left over at the end: one replacement character. */
    unsigned char odd[64];
    size_t n = utf16("1. i *\n", 0, 1, odd);
    odd[n++] = 'x';
    decode_bytes(odd, n, &d);
    assert_string_equal(d.text, "1. i *\n\xEF\xBF\xBD");
    free(d.text);
    /* A pair: U+1F600 as four UTF-8 bytes. */
    const unsigned char pair[] = { 0xFF, 0xFE, '{', 0, 0x3D, 0xD8, 0x00, 0xDE, '}', 0 };
    decode_bytes(pair, sizeof pair, &d);
    assert_string_equal(d.text, "{\xF0\x9F\x98\x80}");
    free(d.text);
    /* A high surrogate with no low one after it, and a low one alone:
     * each a replacement character, the character after it kept. */
    const unsigned char lone[] = { 0xFF, 0xFE, 0x3D, 0xD8, 'a', 0, 0x00, 0xDE, 'b', 0 };
    decode_bytes(lone, sizeof lone, &d);
    assert_string_equal(d.text, "\xEF\xBF\xBD" "a" "\xEF\xBF\xBD" "b");
    free(d.text);
    /* A high surrogate as the very last character. */
    const unsigned char last[] = { 0xFE, 0xFF, 0, 'a', 0xD8, 0x3D };
    decode_bytes(last, sizeof last, &d);
    assert_string_equal(d.text, "a\xEF\xBF\xBD");
    free(d.text);
}

static void windows_1252_where_not_utf8(void **state)
{
    (void)state;
    /* Two lines of UTF-8, then a name in Latin-1 and a euro sign of
     * Windows-1252 (0x80) on line 3: each the character it is, said once,
     * at the first such byte. */
    const char in[] = "[Event \"Z\xC3\xA9\"]\n[Site \"x\"]\n[South \"Jos\xE9 \x80\"]\n";
    struct decoded d;
    decode_bytes(in, strlen(in), &d);
    assert_string_equal(d.text,
                        "[Event \"Z\xC3\xA9\"]\n[Site \"x\"]\n[South \"Jos\xC3\xA9 \xE2\x82\xAC\"]\n");
    said_once(&d, 133, 3, "the byte 0xE9 is not UTF-8");
    assert_non_null(strstr(d.ds.d[0].message, "Windows-1252"));
    free(d.text);
    /* A UTF-8 sequence cut short by a byte that cannot go on with it. */
    const char cut[] = "a\xC3(b\n";
    decode_bytes(cut, strlen(cut), &d);
    assert_string_equal(d.text, "a\xC3\x83(b\n");
    said_once(&d, 133, 1, "0xC3");
    free(d.text);
}

static void nul_bytes_pass_to_the_reader(void **state)
{
    (void)state;
    /* A stray NUL in text is the reader's to report (W130), not binary. */
    const char in[] = "1. i {a\0b} *\n";
    unchanged(in, sizeof in - 1);
}

static void binary_is_refused_whole(void **state)
{
    (void)state;
    unsigned char elf[200] = { 0x7F, 'E', 'L', 'F', 2, 1, 1 };
    struct decoded d;
    decode_bytes(elf, sizeof elf, &d);
    assert_int_equal(d.len, 0);
    said_once(&d, 4, 0, "a program (ELF)");
    free(d.text);
    /* NUL and control bytes with no magic number. */
    unsigned char junk[512];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i % 7 == 0 ? 0 : i % 5 == 0 ? 3 : 'a');
    decode_bytes(junk, sizeof junk, &d);
    assert_int_equal(d.len, 0);
    said_once(&d, 4, 0, "binary data");
    free(d.text);
}

static void xml_passes_as_it_is(void **state)
{
    (void)state;
    /* libxml2 decodes XML by its declaration: UTF-16 XML stays UTF-16. */
    unsigned char in[256];
    unchanged(in, utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?><games/>", 0, 1, in));
}

/* Text longer than a chunk, with characters cut by the chunk's edge at
 * every offset: it comes out whole whatever byte the edge falls on. */
static void across_the_chunk_boundary(void **state)
{
    (void)state;
    size_t n = CHUNK + 4096;
    char *in = malloc(n + 1);
    assert_non_null(in);
    /* UTF-8: a three-byte euro sign at every offset around the boundary. */
    for (size_t shift = 0; shift < 3; shift++) {
        memset(in, 'a', n);
        for (size_t i = CHUNK - 8 + shift; i + 3 < CHUNK + 8; i += 4)
            memcpy(in + i, "\xE2\x82\xAC", 3);
        for (size_t i = 99; i < n; i += 100)
            in[i] = '\n';
        in[n] = '\0';
        unchanged(in, n);
    }
    /* UTF-16: a surrogate pair straddling the boundary, and the note's
     * words for the whole file once. */
    unsigned char *u = malloc(2 * n + 8);
    assert_non_null(u);
    for (size_t shift = 0; shift < 4; shift += 2) {
        size_t o = 0;
        u[o++] = 0xFF, u[o++] = 0xFE;
        while (o < CHUNK - 2 + shift)
            u[o++] = 'b', u[o++] = 0;
        u[o++] = 0x3D, u[o++] = 0xD8, u[o++] = 0x00, u[o++] = 0xDE;
        while (o < 2 * n)
            u[o++] = '\n', u[o++] = 0;
        struct decoded d;
        decode_bytes(u, o, &d);
        size_t bs = (CHUNK - 4 + shift) / 2;
        for (size_t i = 0; i < bs; i++)
            assert_int_equal(d.text[i], 'b');
        assert_memory_equal(d.text + bs, "\xF0\x9F\x98\x80", 4);
        assert_int_equal(d.len, bs + 4 + (o - (CHUNK - 2 + shift) - 4) / 2);
        said_once(&d, 133, 0, "its byte-order mark says so");
        free(d.text);
    }
    free(u);
    free(in);
}

static void back_to_the_start(void **state)
{
    (void)state;
    /* The formats' sniffing reads the first lines, then from the start
     * again: the same text, the mark dropped again. */
    unsigned char in[256];
    size_t n = utf16(GAME, 0, 1, in);
    FILE *f = fmemopen(in, n, "r");
    struct diags ds = { .n = 0 };
    FILE *s = pmn_text_input(f, 1, collect, &ds);
    char a[256] = "", b[256] = "";
    assert_non_null(fgets(a, sizeof a, s));
    assert_int_equal(ftell(s), (long)strlen(a));
    assert_int_equal(fseek(s, 0, SEEK_SET), 0);
    size_t got = fread(b, 1, sizeof b - 1, s);
    b[got] = '\0';
    assert_string_equal(b, GAME);
    assert_int_equal(strncmp(a, GAME, strlen(a)), 0);
    fclose(s);
    assert_int_equal(ds.n, 1);
}

/* A pipe has no place (ftell fails), but goes back to its start while its
 * first chunk is all that was read of it -- a format's sniffing, as on a
 * file -- and not after: what the reader was handed is never handed again
 * from a place it cannot know. */
static void a_pipe_back_to_its_start(void **state)
{
    (void)state;
    size_t big = 3 * CHUNK;
    char *text = malloc(big + 1);
    assert_non_null(text);
    for (size_t i = 0; i < big; i++)
        text[i] = (char)('a' + i % 26);
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    if (fork() == 0) {
        close(fd[0]);
        ssize_t w = 0;
        for (size_t at = 0; at < big && w >= 0; at += (size_t)w)
            w = write(fd[1], text + at, big - at);
        _exit(0);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    struct diags ds = { .n = 0 };
    FILE *s = pmn_text_input(f, 1, collect, &ds);
    char head[4096];
    assert_int_equal(fread(head, 1, sizeof head, s), sizeof head);
    assert_true(ftell(s) < 0);
    assert_int_equal(fseek(s, 0, SEEK_SET), 0);
    char *all = malloc(big + 1);
    assert_int_equal(fread(all, 1, big + 1, s), big);   /* all of it, from its start */
    assert_memory_equal(all, text, big);
    assert_memory_equal(head, text, sizeof head);
    assert_int_not_equal(fseek(s, 0, SEEK_SET), 0);     /* past its first chunk */
    fclose(s);
    wait(NULL);
    assert_int_equal(ds.n, 0);
    free(all);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(utf8_passes_unchanged),
        cmocka_unit_test(utf16_with_and_without_mark),
        cmocka_unit_test(utf16_odd_length_and_surrogates),
        cmocka_unit_test(windows_1252_where_not_utf8),
        cmocka_unit_test(nul_bytes_pass_to_the_reader),
        cmocka_unit_test(binary_is_refused_whole),
        cmocka_unit_test(xml_passes_as_it_is),
        cmocka_unit_test(across_the_chunk_boundary),
        cmocka_unit_test(back_to_the_start),
        cmocka_unit_test(a_pipe_back_to_its_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
