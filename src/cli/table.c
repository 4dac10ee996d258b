/* table.c - the tables of pmn stats, written as aligned text, CSV or JSON
 * Lines: a report is a table of cells, made once and written in any form. */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int table_init(struct table *t, const char *name, const char *const *head, unsigned numeric)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    t->head = head;
    while (head[t->ncols])
        t->ncols++;
    t->numeric = numeric;
    return 0;
}

void table_free(struct table *t)
{
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cell[i]);
    free(t->cell);
    memset(t, 0, sizeof *t);
}

/* Add a cell to the last row (a row is ncols cells). */
int table_cell(struct table *t, const char *fmt, ...)
{
    if (t->failed)
        return -1;
    char **cells = grown(t->cell, &t->cap, t->ncells, sizeof *cells, 64);
    if (!cells) {
        t->failed = 1;
        return -1;
    }
    t->cell = cells;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s) {
        t->failed = 1;
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->cell[t->ncells++] = s;
    return 0;
}

/* Characters on a terminal: UTF-8 continuation bytes take no column. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(FILE *f, size_t n)
{
    while (n--)
        fputc(' ', f);
}

static void write_text(FILE *f, const struct table *t)
{
    size_t nrows = t->ncells / t->ncols, *w = calloc(t->ncols, sizeof *w);
    if (!w)
        return;
    for (size_t c = 0; c < t->ncols; c++)
        w[c] = width(t->head[c]);
    /* The widths of the cells as written: escaped, a control character or
     * a byte that is not UTF-8 taking the columns of its escape. */
    for (size_t i = 0; i < t->ncells; i++) {
        char buf[512];
        size_t n = width(escaped(t->cell[i], buf, sizeof buf));
        if (n > w[i % t->ncols])
            w[i % t->ncols] = n;
    }
    for (size_t r = 0; r <= nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            char buf[512];
            const char *s = r == 0 ? t->head[c] : escaped(t->cell[(r - 1) * t->ncols + c], buf,
                                                          sizeof buf);
            size_t ws = width(s), gap = ws < w[c] ? w[c] - ws : 0, last = c + 1 == t->ncols;
            if (t->numeric >> c & 1)
                pad(f, gap);
            fputs(s, f);
            if (!last && !(t->numeric >> c & 1))
                pad(f, gap);
            if (!last)
                fputs("  ", f);
        }
        fputc('\n', f);
    }
    free(w);
}

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_csv(FILE *f, const struct table *t)
{
    for (size_t i = t->no_header ? t->ncols : 0; i < t->ncols + t->ncells; i++) {
        csv_field(f, i < t->ncols ? t->head[i] : t->cell[i - t->ncols]);
        fputs((i + 1) % t->ncols ? "," : "\r\n", f);
    }
}

static void write_jsonl(FILE *f, const struct table *t)
{
    for (size_t r = 0; r < t->ncells / t->ncols; r++) {
        fputs("{\"report\":", f);
        json_string(f, t->name);
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = t->cell[r * t->ncols + c];
            double v;
            fputc(',', f);
            json_string(f, t->head[c]);
            fputc(':', f);
            const char *num = s + (*s == '+');   /* "+27", a change: 27 in JSON */
            if ((t->numeric >> c & 1) && *num != '+' && is_decimal(num, &v))
                fputs(num, f);
            else if (!*s)
                fputs("null", f);
            else
                json_string(f, s);
        }
        fputs("}\n", f);
    }
}

void table_write(FILE *f, const struct table *t, int format, const char *title)
{
    switch (format) {
    case TABLE_TEXT:
        fprintf(f, "%s\n\n", title);
        write_text(f, t);
        break;
    case TABLE_CSV:
        write_csv(f, t);
        break;
    default:
        write_jsonl(f, t);
        break;
    }
}
