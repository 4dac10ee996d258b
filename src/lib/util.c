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

char *pmn_strndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}
