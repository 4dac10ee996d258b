/* util.c - helpers shared by libpmn's modules. */
#include "util.h"
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

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
