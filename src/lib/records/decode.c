/* decode.c - text as pmn reads it: UTF-8, whatever encoding the file was
 * saved in.  Windows Notepad's "Unicode" is UTF-16, with or without a
 * byte-order mark; old pages and programs write names in Latin-1 or
 * Windows-1252.  Both are read as the text they are, and said once a file
 * with a note (N133), so that a name reaches PMN, XML and back with every
 * character it had.  XML is passed through as it is: libxml2 reads the
 * encoding its declaration names.
 *
 * The stream is a stdio stream of its own (fopencookie) over the file's,
 * so that every reader -- PMN's, the other programs' formats' -- reads the
 * decoded text without knowing it was decoded, one chunk at a time: memory
 * stays bounded whatever the file's size. */
#define _GNU_SOURCE
#include "pmn.h"
#include "../base/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 65536

enum mode { UTF8, UTF16LE, UTF16BE, RAW };

struct decoder {
    FILE *f;
    int own;                  /* fclose f at the end */
    enum mode mode;
    int started;              /* the first chunk was looked at */
    long skip;                /* the byte-order mark's bytes, dropped */
    int latin;                /* bytes read as Windows-1252: the first one */
    pmn_at latin_line;
    int bom;                  /* UTF-16's byte-order mark was there */
    pmn_diag_fn fn;
    void *ctx;
    pmn_at line;              /* decoded lines so far, for the note */
    long long pos;            /* decoded bytes handed out */
    long start;               /* f's offset at the start, or -1 */
    unsigned char in[CHUNK + 4];
    size_t in_len;            /* raw bytes held, incomplete sequences */
    /* A pipe's first chunk, kept until a second is read, so that the
     * stream can go back to its start (a format's sniffing) as a file's
     * does: the bytes of in after the byte-order mark, and whether the
     * pipe ended within them. */
    unsigned char head[CHUNK + 4];
    size_t head_len;
    int head_eof, past_head;
    int held;                 /* in holds the head again, not yet decoded */
    unsigned char out[3 * CHUNK + 8];
    const unsigned char *src; /* what is handed out: in itself where it is
                                 UTF-8 already (no copy), else out */
    size_t out_len, out_pos;
    size_t used;              /* bytes of in that src stands for */
    int eof;
    int binary;               /* no text (F004): nothing is handed out */
};

/* Windows-1252's 0x80-0x9F; the rest of the bytes above 0x9F are
 * Latin-1's, the code points of their values.  Bytes Windows-1252 leaves
 * undefined are read as Latin-1 reads them (C1 controls). */
static const unsigned short cp1252[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

static size_t put_utf8(unsigned char *o, unsigned long c)
{
    if (c < 0x80) {
        o[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (unsigned char)(0xC0 | c >> 6);
        o[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (unsigned char)(0xE0 | c >> 12);
        o[1] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        o[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | c >> 18);
    o[1] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
    o[2] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
    o[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

/* The length of the well-formed UTF-8 sequence at s (n bytes held): 1-4;
 * 0 if it is not one; -1 if it may be, but runs past the bytes held. */
static int utf8_length(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    int len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
            : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n)
            return -1;
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    }
    /* Overlong three- and four-byte forms, surrogates, past U+10FFFF. */
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0)
        || (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))
        return 0;
    return len;
}

/* The bytes before the first at or above 0x80, a word at a time. */
static size_t ascii_run(const unsigned char *s, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ULL)
            break;
    }
    while (i < n && s[i] < 0x80)
        i++;
    return i;
}

/* How far the bytes at s are well-formed UTF-8: to the end, to a byte
 * that is not, or to a sequence that runs past them (*cut). */
static size_t utf8_prefix(const unsigned char *s, size_t n, int *cut)
{
    size_t i = 0;
    *cut = 0;
    while (i < n) {
        i += ascii_run(s + i, n - i);
        if (i == n)
            break;
        int len = utf8_length(s + i, n - i);
        if (len <= 0) {
            *cut = len < 0;
            break;
        }
        i += (size_t)len;
    }
    return i;
}

static void count_lines(struct decoder *d, const unsigned char *s, size_t n)
{
    for (const unsigned char *p = s, *end = s + n; (p = memchr(p, '\n', (size_t)(end - p)));
         p++)
        d->line++;
}

/* XML, which libxml2 decodes itself: "<?xml" first, in UTF-8 (a BOM
 * before it or not) or in UTF-16. */
static int is_xml(const unsigned char *s, size_t n)
{
    static const char decl[] = "<?xml";
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        s += 3, n -= 3;
    if (n >= 5 && memcmp(s, decl, 5) == 0)
        return 1;
    size_t k = n >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF));
    for (int lo = 0; lo < 2; lo++) {
        size_t i;
        for (i = 0; i < 5 && 2 * k + 2 * i + 1 < n; i++)
            if (s[2 * k + 2 * i + !lo] != 0 || s[2 * k + 2 * i + lo] != (unsigned char)decl[i])
                break;
        if (i == 5)
            return 1;
    }
    return 0;
}

/* The encoding of the first chunk: a byte-order mark says UTF-16; without
 * one, text whose every other byte is NUL is UTF-16 too (ASCII in it). */
static enum mode detect(struct decoder *d)
{
    const unsigned char *s = d->in;
    size_t n = d->in_len;
    if (is_xml(s, n))
        return RAW;
    if (n >= 2 && s[0] == 0xFF && s[1] == 0xFE)
        return UTF16LE;
    if (n >= 2 && s[0] == 0xFE && s[1] == 0xFF)
        return UTF16BE;
    size_t nul[2] = { 0, 0 }, look = n < 1024 ? n & ~(size_t)1 : 1024;
    for (size_t i = 0; i < look; i++)
        nul[i & 1] += s[i] == 0;
    if (look >= 4 && nul[1] * 10 >= look / 2 * 9 && nul[0] * 10 < look / 2)
        return UTF16LE;
    if (look >= 4 && nul[0] * 10 >= look / 2 * 9 && nul[1] * 10 < look / 2)
        return UTF16BE;
    return UTF8;
}

/* Is the first chunk no text at all: a program, an image, an archive?  Its
 * magic number says so, or NUL and control bytes among its first 4 KiB
 * that no text has (a stray NUL in a comment is W130's, not this). */
static const char *binary_kind(const unsigned char *s, size_t n)
{
    static const struct { const char *magic; size_t len; const char *kind; } magics[] = {
        { "\x7f" "ELF", 4, "a program (ELF)" }, { "MZ", 2, "a program (Windows)" },
        { "PK\x03\x04", 4, "a ZIP archive" }, { "\x1f\x8b", 2, "a gzip archive" },
        { "\x89PNG", 4, "a PNG image" }, { "\xff\xd8\xff", 3, "a JPEG image" },
        { "GIF8", 4, "a GIF image" }, { "%PDF", 4, "a PDF document" },
        { "BZh", 3, "a bzip2 archive" }, { "\xfd" "7zXZ", 5, "an xz archive" },
        { "SQLite format 3", 15, "an SQLite database" },
    };
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (n >= magics[i].len && memcmp(s, magics[i].magic, magics[i].len) == 0
            && (magics[i].len > 2 || n < 64 || memchr(s, 0, n < 4096 ? n : 4096)))
            return magics[i].kind;
    size_t look = n < 4096 ? n : 4096, nul = 0, control = 0;
    for (size_t i = 0; i < look; i++) {
        nul += s[i] == 0;
        control += s[i] < 0x20 && s[i] != '\n' && s[i] != '\r' && s[i] != '\t'
                && s[i] != '\f' && s[i] != 0x1b;
    }
    return nul >= 4 && control * 20 >= look ? "binary data (NUL and control bytes)" : NULL;
}

static const char *mode_name(enum mode m, int bom)
{
    return m == UTF16LE ? (bom ? "UTF-16 (little-endian): its byte-order mark says so"
                               : "UTF-16 (little-endian): every other byte is 0")
                        : (bom ? "UTF-16 (big-endian): its byte-order mark says so"
                               : "UTF-16 (big-endian): every other byte is 0");
}

/* Decode what in holds, as far as it can: an incomplete sequence at the
 * end waits for the next chunk unless the file has ended.  Text that is
 * UTF-8 already (almost every file) is handed out from in, uncopied. */
static void decode(struct decoder *d)
{
    size_t i = 0, o = 0, n = d->in_len;
    unsigned char *out = d->out;
    d->out_pos = 0;
    if (d->mode == RAW) {
        d->src = d->in;
        d->out_len = d->used = n;
        return;
    }
    if (d->mode == UTF8) {
        int cut;
        size_t v = utf8_prefix(d->in, n, &cut);
        if (!d->latin)
            count_lines(d, d->in, v);   /* for the note's line, till it is made */
        if (v == n || (cut && !d->eof)) {
            d->src = d->in;
            d->out_len = d->used = v;
            return;
        }
        memcpy(out, d->in, v);
        i = o = v;
        while (i < n) {
            if (d->in[i] < 0x80) {
                out[o++] = d->in[i++];
                continue;
            }
            int len = utf8_length(d->in + i, n - i);
            if (len < 0 && !d->eof)
                break;          /* the rest comes with the next chunk */
            if (len > 0) {
                memcpy(out + o, d->in + i, (size_t)len);
                o += (size_t)len;
                i += (size_t)len;
                continue;
            }
            unsigned char b = d->in[i++];
            if (!d->latin) {
                d->latin = b;
                d->latin_line = d->line + 1;
            }
            o += put_utf8(out + o, b < 0xA0 ? cp1252[b - 0x80] : b);
        }
    } else {
        int hi = d->mode == UTF16BE ? 0 : 1;   /* where the high byte is */
        while (i + 1 < n) {
            unsigned long c = (unsigned long)d->in[i + hi] << 8 | d->in[i + !hi];
            size_t used = 2;
            if (c >= 0xD800 && c <= 0xDBFF) {
                if (i + 3 >= n && !d->eof)
                    break;
                unsigned long c2 = i + 3 < n
                    ? (unsigned long)d->in[i + 2 + hi] << 8 | d->in[i + 2 + !hi] : 0;
                if (c2 >= 0xDC00 && c2 <= 0xDFFF) {
                    c = 0x10000 + ((c - 0xD800) << 10) + (c2 - 0xDC00);
                    used = 4;
                } else {
                    c = 0xFFFD;
                }
            } else if (c >= 0xDC00 && c <= 0xDFFF) {
                c = 0xFFFD;
            }
            o += put_utf8(out + o, c);
            i += used;
        }
        if (d->eof && i < n) {   /* an odd byte at the end */
            o += put_utf8(out + o, 0xFFFD);
            i = n;
        }
    }
    d->src = out;
    d->out_len = o;
    d->used = i;
}

static ssize_t cookie_read(void *cookie, char *buf, size_t size)
{
    struct decoder *d = cookie;
    if (d->binary)
        return 0;
    while (d->out_pos == d->out_len) {
        /* What was handed out goes; an incomplete sequence stays. */
        memmove(d->in, d->in + d->used, d->in_len - d->used);
        d->in_len -= d->used;
        d->used = 0;
        if (d->eof && d->in_len == 0)
            return 0;
        if (d->held) {
            d->held = 0;   /* the head put back: decoded again first */
        } else if (!d->eof) {
            size_t got = fread(d->in + d->in_len, 1, CHUNK - d->in_len, d->f);
            d->in_len += got;
            d->past_head |= d->started && got > 0;
            if (got == 0) {
                if (ferror(d->f)) {
                    errno = EIO;
                    return -1;
                }
                d->eof = 1;
                d->head_eof |= !d->past_head;
            }
        }
        if (!d->started) {
            d->started = 1;
            d->mode = detect(d);
            const char *kind = d->mode == UTF8 ? binary_kind(d->in, d->in_len) : NULL;
            if (kind) {
                /* Nothing of it is read: no game, no warning a line. */
                diag_report(d->fn, d->ctx, PMN_F004, 0, 0, "not a text file of games: it is "
                            "%s", kind);
                d->in_len = 0;
                d->eof = d->binary = 1;
                return 0;
            }
            int bom = d->in_len >= 2 && (d->in[0] == 0xFF || d->in[0] == 0xFE)
                   && (d->in[1] == 0xFE || d->in[1] == 0xFF);
            if (d->mode == UTF16LE || d->mode == UTF16BE) {
                d->bom = bom;
                if (bom) {
                    memmove(d->in, d->in + 2, d->in_len - 2);
                    d->in_len -= 2;
                    d->skip = 2;
                }
            }
            if (d->start < 0) {
                memcpy(d->head, d->in, d->in_len);
                d->head_len = d->in_len;
                d->head_eof = d->eof;
            }
        }
        decode(d);
        if (d->eof && d->out_len == 0 && d->in_len == 0)
            return 0;
    }
    size_t n = d->out_len - d->out_pos < size ? d->out_len - d->out_pos : size;
    memcpy(buf, d->src + d->out_pos, n);
    d->out_pos += n;
    d->pos += (long long)n;
    return (ssize_t)n;
}

/* Where the text is (ftell), and back to its start (the format's sniffing
 * reads the first lines, then reads them again); no other seek.  A pipe
 * has no place (ftell fails, as on the pipe itself: it is read as a
 * stream), but goes back to its start while its first chunk is all that
 * was read of it, so that its format is found as a file's is. */
static int cookie_seek(void *cookie, off64_t *at, int whence)
{
    struct decoder *d = cookie;
    if (whence == SEEK_CUR && *at == 0) {
        if (d->start < 0) {
            errno = ESPIPE;   /* a pipe stays one */
            return -1;
        }
        *at = d->pos;
        return 0;
    }
    if (whence == SEEK_SET && *at == 0 && d->start < 0 && !d->past_head && !d->binary) {
        memcpy(d->in, d->head, d->head_len);
        d->in_len = d->head_len;
        d->eof = d->head_eof;
        d->held = d->head_len > 0;
        d->out_len = d->out_pos = d->used = 0;
        d->pos = 0;
        d->line = 0;
        return 0;
    }
    if (whence == SEEK_SET && *at == 0 && d->start >= 0
        && fseek(d->f, d->start + (d->started ? d->skip : 0), SEEK_SET) == 0) {
        d->in_len = d->out_len = d->out_pos = d->used = 0;
        d->eof = 0;
        d->pos = 0;
        d->line = 0;
        return 0;
    }
    errno = EINVAL;
    return -1;
}

/* The notes are made when the text has been read, whoever read it first:
 * where a file's games are read by several threads, ahead of its parts,
 * they come at the same place as where one reads them. */
static int cookie_close(void *cookie)
{
    struct decoder *d = cookie;
    if (d->mode == UTF16LE || d->mode == UTF16BE)
        diag_report(d->fn, d->ctx, PMN_N133, 0, 0, "read as %s", mode_name(d->mode, d->bom));
    if (d->latin)
        diag_report(d->fn, d->ctx, PMN_N133, d->latin_line, 0,
                    "read as Windows-1252 (Latin-1): the byte 0x%02X is not UTF-8 (first "
                    "here); each such byte is the character it is there", d->latin);
    int rc = d->own ? fclose(d->f) : 0;
    free(d);
    return rc;
}

FILE *pmn_text_input(FILE *f, int own, pmn_diag_fn fn, void *ctx)
{
    struct decoder *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->f = f;
    d->own = own;
    d->fn = fn;
    d->ctx = ctx;
    d->start = ftell(f);
    cookie_io_functions_t io = { cookie_read, NULL, cookie_seek, cookie_close };
    FILE *s = fopencookie(d, "r", io);
    if (!s)
        free(d);
    else
        setvbuf(s, NULL, _IOFBF, CHUNK);   /* a read a chunk: few calls */
    return s;
}
