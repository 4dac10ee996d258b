/* diag.c - the table of diagnostics: every code pmn reports, once. */
#include "pmn.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>

#define ROW(letter, number, severity, summary) { number, PMN_##severity, summary },
static const pmn_diag_info table[] = { PMN_DIAGNOSTICS(ROW) };
#undef ROW

const pmn_diag_info *pmn_diag_table(size_t *n)
{
    *n = COUNT(table);
    return table;
}

const pmn_diag_info *pmn_diag_lookup(int code)
{
    for (size_t i = 0; i < COUNT(table); i++)
        if (table[i].code == code)
            return &table[i];
    return NULL;
}

const char *pmn_severity_string(pmn_severity s)
{
    static const char *const name[] = { "note", "warning", "error", "fatal" };
    return (unsigned)s < COUNT(name) ? name[s] : "error";
}

void pmn_diag_code_name(int code, char buf[8])
{
    static const char letter[] = "NWEF";
    const pmn_diag_info *d = pmn_diag_lookup(code);
    snprintf(buf, 8, "%c%03d", d ? letter[d->severity] : 'E', code);
}

static void make(pmn_diag *d, int code, pmn_at line, pmn_at col, const char *fmt,
                 va_list ap)
{
    const pmn_diag_info *info = pmn_diag_lookup(code);
    d->code = code;
    d->severity = info ? info->severity : PMN_ERROR;
    d->line = line;
    d->col = col;
    char raw[sizeof d->message];
    vsnprintf(raw, sizeof raw, fmt, ap);
    pmn_text_escape(raw, d->message, sizeof d->message);
}

void pmn_diag_make(pmn_diag *d, pmn_diag_code code, pmn_at line, pmn_at col,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    make(d, (int)code, line, col, fmt, ap);
    va_end(ap);
}

void diag_report(pmn_diag_fn fn, void *ctx, pmn_diag_code code, pmn_at line, pmn_at col,
                 const char *fmt, ...)
{
    pmn_diag d;
    va_list ap;
    if (!fn)
        return;
    va_start(ap, fmt);
    make(&d, (int)code, line, col, fmt, ap);
    va_end(ap);
    fn(ctx, &d);
}
