/* io.c - where a command reads and writes: its inputs, its output, and the
 * diagnostics it prints, counted for the exit status. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

FILE *open_output(const char *name)
{
    FILE *f = name ? fopen(name, "w") : stdout;
    if (!f)
        perror(name);
    return f;
}

int close_output(FILE *f, const char *name, int failed, int status)
{
    if (fflush(f) != 0 || ferror(f))
        failed = 1;
    if (name && fclose(f) != 0)
        failed = 1;
    if (failed) {
        perror(name ? name : "standard output");
        return EXIT_FATAL;
    }
    return status;
}

void print_diag(void *sink, const pmn_diag *d)
{
    struct diag_sink *s = sink;
    char code[8];
    s->count[d->severity]++;
    if (d->severity == PMN_NOTE && !s->show_notes)
        return;
    pmn_diag_code_name(d->code, code);
    if (d->line && d->col)
        fprintf(stderr, "%s:%u:%u: ", s->file, d->line, d->col);
    else if (d->line)
        fprintf(stderr, "%s:%u: ", s->file, d->line);
    else
        fprintf(stderr, "%s: ", s->file);
    fprintf(stderr, "%s[%s]: %s\n", pmn_severity_string(d->severity), code, d->message);
}

void report(struct diag_sink *s, pmn_diag_code code, unsigned line, unsigned col,
            const char *fmt, ...)
{
    pmn_diag d;
    char msg[sizeof d.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pmn_diag_make(&d, code, line, col, "%s", msg);
    print_diag(s, &d);
}

int exit_status(const struct diag_sink *s)
{
    if (s->count[PMN_FATAL])
        return EXIT_FATAL;
    if (s->count[PMN_ERROR])
        return EXIT_ERRORS;
    if (s->count[PMN_WARNING])
        return EXIT_WARNINGS;
    return EXIT_CLEAN;
}

FILE *open_input(const char *name, struct diag_sink *s)
{
    if (strcmp(name, "-") == 0) {
        s->file = "<stdin>";
        return stdin;
    }
    s->file = name;
    FILE *f = fopen(name, "r");
    if (!f) {
        report(s, PMN_F001, 0, 0, "cannot open: %s", strerror(errno));
    }
    return f;
}

void close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

void each_input(char **names, int n, struct diag_sink *s,
                void (*fn)(FILE *f, struct diag_sink *s, void *ctx), void *ctx)
{
    char *stdin_only[] = { "-" };
    if (n == 0) {
        names = stdin_only;
        n = 1;
    }
    for (int i = 0; i < n; i++) {
        FILE *f = open_input(names[i], s);
        if (f) {
            fn(f, s, ctx);
            close_input(f);
        }
    }
}

