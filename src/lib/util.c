/* util.c - helpers shared by libpmn's modules. */
#include "util.h"
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pmn_version(void)
{
    return PACKAGE_VERSION;
}

int pmn_fail(pmn_error *err, int code, size_t column, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        err->column = column;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void pmn_text_init(pmn_text *t, char *buf, size_t size)
{
    t->buf = buf;
    t->size = size;
    t->n = 0;
    if (size)
        buf[0] = '\0';
}

void pmn_text_add(pmn_text *t, const char *fmt, ...)
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

char *pmn_strndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}
