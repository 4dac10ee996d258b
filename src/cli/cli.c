/* cli.c - what every module of the command line uses and none other
 * provides (cli.h): the user's text escaped, usage errors, a growing array.
 * It uses no other module of src/cli. */
#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>

const char *escaped(const char *text, char *buf, size_t size)
{
    pmn_text_escape(text, buf, size);
    return buf;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
    char raw[1024], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    fprintf(stderr, "pmn %s: error: %s\nTry 'pmn %s --help'.\n", cmd,
            escaped(raw, msg, sizeof msg), cmd);
    return EXIT_USAGE;
}

int usage_error_at(const char *cmd, const char *option, const char *text,
                   const pmn_error *err)
{
    char safe[1024];
    escaped(text, safe, sizeof safe);
    if (!err->column) {   /* about the whole text, not a place in it */
        fprintf(stderr, "pmn %s: error: %s %s: %s\n", cmd, option, safe, err->message);
        return EXIT_USAGE;
    }
    fprintf(stderr, "pmn %s: error: %s, column %zu: %s\n", cmd, option, err->column,
            err->message);
    fprintf(stderr, "  %s\n  %*s^\n", safe, (int)(err->column - 1), "");
    return EXIT_USAGE;
}

void *grown(void *p, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? 2 * *cap : first;
    while (c <= n)
        c *= 2;
    void *q = realloc(p, c * size);
    if (q)
        *cap = c;
    return q;
}
