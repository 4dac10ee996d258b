/* util.c - helpers shared by libpmn's modules. */
#include "util.h"
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *pmn_version(void)
{
    return PACKAGE_VERSION;
}

int util_fail(pmn_error *err, int code, size_t column, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        err->column = column;
        char raw[sizeof err->message];
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        pmn_text_escape(raw, err->message, sizeof err->message);
    }
    return -1;
}

int util_utf8_length(const unsigned char *s)
{
    int len = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
            : (s[0] & 0xF0) == 0xE0 ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    for (int i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((len == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0)))
        || (len == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))))
        return 0;
    return len;
}

size_t util_unicode_space(const char *s, const char *end)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = (size_t)(end - s);
    if (n >= 2 && u[0] == 0xC2 && u[1] == 0xA0)
        return 2;
    if (n < 3 || u[0] < 0xE1)
        return 0;
    if ((u[0] == 0xE1 && u[1] == 0x9A && u[2] == 0x80)
        || (u[0] == 0xE2 && u[1] == 0x80 && ((u[2] >= 0x80 && u[2] <= 0x8B) || u[2] == 0xA8
                                              || u[2] == 0xA9 || u[2] == 0xAF))
        || (u[0] == 0xE2 && u[1] == 0x81 && u[2] == 0x9F)
        || (u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80)
        || (u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF))
        return 3;
    return 0;
}

unsigned long util_utf8_decode(const unsigned char *s, int len)
{
    static const unsigned char lead[] = { 0, 0x7F, 0x1F, 0x0F, 0x07 };
    unsigned long c = s[0] & lead[len];
    for (int i = 1; i < len; i++)
        c = c << 6 | (s[i] & 0x3F);
    return c;
}

size_t pmn_text_escape(const char *text, char *buf, size_t size)
{
    const unsigned char *s = (const unsigned char *)text;
    textbuf t;
    textbuf_init(&t, buf, size);
    const unsigned char *run = s;   /* characters that need no escape, not yet added */
    while (*s) {
        int len = util_utf8_length(s);
        int c0 = len == 0 || *s < 0x20 || *s == 0x7F;
        int c1 = len == 2 && s[0] == 0xC2 && s[1] < 0xA0;   /* C1 controls */
        if (!c0 && !c1) {
            s += len;
            continue;
        }
        textbuf_add(&t, "%.*s", (int)(s - run), (const char *)run);
        if (c0)
            textbuf_add(&t, "\\x%02x", *s);
        else
            textbuf_add(&t, "\\u%04x", s[1]);
        s += c0 ? 1 : 2;
        run = s;
    }
    textbuf_add(&t, "%.*s", (int)(s - run), (const char *)run);
    return t.n;
}

void textbuf_init(textbuf *t, char *buf, size_t size)
{
    t->buf = buf;
    t->size = size;
    t->n = 0;
    if (size)
        buf[0] = '\0';
}

void textbuf_add(textbuf *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    /* Past the end (or with no buffer) it only counts. */
    int k = t->n < t->size ? vsnprintf(t->buf + t->n, t->size - t->n, fmt, ap)
                           : vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        t->n += (size_t)k;
}

char *util_strndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *util_digits(char buf[PMN_DIGITS], unsigned long long v)
{
    char *d = buf + PMN_DIGITS;
    *--d = '\0';
    do
        *--d = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    return d;
}

int util_reserve(char **buf, size_t *cap, size_t need, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : first;
    while (c < need)
        c *= 2;
    char *t = realloc(*buf, c);
    if (!t)
        return -1;
    *buf = t;
    *cap = c;
    return 0;
}

/* ---- time and budgets (the search's and the solver's) ---------------------- */

double util_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int pmn_parse_uint(const char *s, unsigned long max, unsigned long *v)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (*end || errno || n > max)
        return -1;
    *v = n;
    return 0;
}
