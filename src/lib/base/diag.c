/* diag.c - the table of diagnostics: every code pmn reports, once. */
#include "pmn.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- a game's diagnostics in file order ---------------------------------- */

static int before(const pmn_diag *x, const pmn_diag *y)
{
    pmn_at lx = x->line ? x->line : ~0ull, ly = y->line ? y->line : ~0ull;
    return lx != ly ? lx < ly : x->col < y->col;
}

/* Merge sort, which keeps ties as found; tmp holds n. */
static void sort_stable(pmn_diag *d, pmn_diag *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2, i = 0, j = h, k = 0;
    sort_stable(d, tmp, h);
    sort_stable(d + h, tmp, n - h);
    while (i < h && j < n)
        tmp[k++] = before(&d[j], &d[i]) ? d[j++] : d[i++];
    while (i < h)
        tmp[k++] = d[i++];
    memcpy(d, tmp, k * sizeof *d);   /* d[j..n) is in place already */
}

/* Is d[i] said already, or better, by another of its line?  Compared with
 * up to 64 of them. */
static int redundant(const pmn_diag *d, size_t n, size_t i)
{
    size_t from = i, to = i + 1;
    while (from > 0 && i - from < 64 && d[from - 1].line == d[i].line)
        from--;
    while (to < n && to - i < 64 && d[to].line == d[i].line)
        to++;
    for (size_t j = from; j < to; j++) {
        if (j < i && d[j].code == d[i].code && d[j].col == d[i].col
            && strcmp(d[j].message, d[i].message) == 0)
            return 1;
        if (d[i].code == PMN_E307 && (d[j].code == PMN_E305 || d[j].code == PMN_E306))
            return 1;
    }
    return 0;
}

size_t pmn_diags_in_file_order(pmn_diag *d, size_t n)
{
    if (n < 2)
        return n;
    pmn_diag *tmp = malloc(n * sizeof *tmp);
    if (tmp) {
        sort_stable(d, tmp, n);
        free(tmp);
    } else {
        /* Out of memory: an insertion sort, slow but in place. */
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && before(&d[j], &d[j - 1]); j--) {
                pmn_diag t = d[j];
                d[j] = d[j - 1];
                d[j - 1] = t;
            }
    }
    /* Drop the redundant ones, judged on the sorted list as a whole, in a
     * second pass: a dropped one must still hide its later repeats. */
    unsigned char *drop = calloc(n, 1);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (drop)
            drop[i] = (unsigned char)redundant(d, n, i);
    for (size_t i = 0; i < n; i++)
        if (!drop || !drop[i]) {
            if (kept != i)
                d[kept] = d[i];
            kept++;
        }
    free(drop);
    return kept;
}

/* ---- did you mean --------------------------------------------------------- */

/* The edits (insert, delete, replace, swap two neighbours) from a to b,
 * up to 3. */
static int distance(const char *a, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    if (m > 40 || n > 40 || (m > n ? m - n : n - m) > 2)
        return 3;
    int d[41][41];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[m][n] < 3 ? d[m][n] : 3;
}

const char *pmn_did_you_mean(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    int best_d = strlen(word) > 3 ? 3 : 2;   /* short words: one edit */
    for (size_t i = 0; i < n; i++) {
        int d = distance(word, names[i]);
        if (strlen(word) >= 3 && strncmp(names[i], word, strlen(word)) == 0)
            d = 1;   /* the start of one */
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}
