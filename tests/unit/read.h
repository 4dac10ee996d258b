/* read.h - read PMN text held in a string, collecting the diagnostics. */
#ifndef PMN_TEST_READ_H
#define PMN_TEST_READ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmn.h"

#define MAX_DIAGS 32

struct diags {
    pmn_diag d[MAX_DIAGS];
    int n;
};

static inline void collect(void *ctx, const pmn_diag *d)
{
    struct diags *ds = ctx;
    if (ds->n < MAX_DIAGS)
        ds->d[ds->n] = *d;
    ds->n++;
}

/* Read up to max games of text into recs; returns how many. */
static inline int read_games(const char *text, pmn_record *recs, int max, struct diags *ds)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    pmn_reader *rd = pmn_reader_new(f, collect, ds);
    int n = 0;
    memset(ds, 0, sizeof *ds);
    while (n < max && pmn_reader_next(rd, &recs[n]) > 0)
        n++;
    pmn_reader_free(rd);
    fclose(f);
    return n;
}

/* A file of the source tree ($top_srcdir), whole; the caller frees it. */
static inline char *slurp(const char *relative)
{
    const char *top = getenv("top_srcdir");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", top ? top : ".", relative);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static inline void free_games(pmn_record *recs, int n)
{
    for (int i = 0; i < n; i++)
        pmn_record_free(&recs[i]);
}

/* Write every game of text; returns a malloc'd string. */
static inline char *convert(const char *text, pmn_notation n, char style)
{
    pmn_record recs[8];
    struct diags ds;
    pmn_write_options o;
    char *out = NULL;
    size_t size = 0;
    int count = read_games(text, recs, 8, &ds);
    FILE *f = open_memstream(&out, &size);
    pmn_write_options_init(&o);
    o.notation = n;
    o.capture_style = style;
    for (int i = 0; i < count; i++) {
        if (i)
            fputc('\n', f);
        if (pmn_write_record(f, &recs[i], NULL, &o) < 0)
            fputs("<write error>", f);
    }
    fclose(f);
    free_games(recs, count);
    return out;
}


#endif
