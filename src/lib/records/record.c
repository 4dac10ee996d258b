/* record.c - the record model: games as written. */
#include "pmn.h"
#include "record.h"
#include "../base/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void pmn_record_init(pmn_record *rec)
{
    memset(rec, 0, sizeof *rec);
}

static void free_strings(char **s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

static void move_free(pmn_move *m)
{
    free_strings(m->comments, m->ncomments);
    for (size_t i = 0; i < m->nvariations; i++)
        record_line_free(&m->variations[i]);
    free(m->variations);
}

void record_line_free(pmn_line *l)
{
    for (size_t i = 0; i < l->nmoves; i++)
        move_free(&l->moves[i]);
    free(l->moves);
    free_strings(l->lead, l->nlead);
    memset(l, 0, sizeof *l);
}

void pmn_record_free(pmn_record *rec)
{
    for (size_t i = 0; i < rec->ntags; i++) {
        free(rec->tags[i].name);
        free(rec->tags[i].value);
    }
    free(rec->tags);
    record_line_free(&rec->main);
    memset(rec, 0, sizeof *rec);
}

const pmn_tag *pmn_record_find_tag(const pmn_record *rec, const char *name)
{
    for (size_t i = 0; i < rec->ntags; i++)
        if (strcmp(rec->tags[i].name, name) == 0)
            return &rec->tags[i];
    return NULL;
}

const char *pmn_record_tag(const pmn_record *rec, const char *name)
{
    const pmn_tag *t = pmn_record_find_tag(rec, name);
    return t ? t->value : NULL;
}

/* Grow *array (of *n elements of `size` bytes) by one zeroed element.  The
 * capacity is kept implicit, the next power of two from n: the array is
 * reallocated only when n reaches one, so that growing costs linear time. */
static void *push(void **array, size_t *n, size_t size)
{
    if (*n == 0 || (*n & (*n - 1)) == 0) {
        size_t cap = *n ? 2 * *n : 1;
        if (cap > SIZE_MAX / size)
            return NULL;
        char *a = realloc(*array, cap * size);
        if (!a)
            return NULL;
        *array = a;
    }
    char *a = *array;
    memset(a + *n * size, 0, size);
    return a + (*n)++ * size;
}

static int push_string(char ***array, size_t *n, const char *text, size_t len)
{
    char *s = util_strndup(text, len);
    if (!s)
        return -1;
    char **slot = push((void **)array, n, sizeof *slot);
    if (!slot) {
        free(s);
        return -1;
    }
    *slot = s;
    return 0;
}

int record_add_tag(pmn_record *rec, const char *name, size_t nlen,
                   const char *value, size_t vlen, pmn_at line, pmn_at col,
                   pmn_at value_col)
{
    char *n = util_strndup(name, nlen), *v = util_strndup(value, vlen);
    pmn_tag *t = n && v ? push((void **)&rec->tags, &rec->ntags, sizeof *t) : NULL;
    if (!t) {
        free(n);
        free(v);
        return -1;
    }
    t->name = n;
    t->value = v;
    t->line = line;
    t->col = col;
    t->value_col = value_col;
    return 0;
}

pmn_move *record_line_add_move(pmn_line *l)
{
    /* Lines grow by doubling: games run to hundreds of moves, but most
     * variations hold a few. */
    if (l->nmoves == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 2;
        pmn_move *m = realloc(l->moves, cap * sizeof *m);
        if (!m)
            return NULL;
        l->moves = m;
        l->cap = cap;
    }
    pmn_move *m = &l->moves[l->nmoves++];
    memset(m, 0, sizeof *m);
    m->claim = m->claim_total = m->claim_sown = m->claim_end = -1;
    m->side = m->hole = m->claim_end_side = -1;
    return m;
}

int record_line_add_lead(pmn_line *l, const char *text, size_t len)
{
    return push_string(&l->lead, &l->nlead, text, len);
}

int record_move_add_comment(pmn_move *m, const char *text, size_t len)
{
    return push_string(&m->comments, &m->ncomments, text, len);
}

pmn_line *record_move_add_variation(pmn_move *m)
{
    return push((void **)&m->variations, &m->nvariations, sizeof(pmn_line));
}

int record_set_tag(pmn_record *rec, const char *name, const char *value,
                   const pmn_tag *at)
{
    for (size_t i = 0; i < rec->ntags; i++)
        if (strcmp(rec->tags[i].name, name) == 0) {
            char *v = util_strndup(value, strlen(value));
            if (!v)
                return -1;
            free(rec->tags[i].value);
            rec->tags[i].value = v;
            return 0;
        }
    /* at may point into rec->tags, which adding moves: read it first. */
    pmn_at line = at ? at->line : 0, col = at ? at->col : 0, vcol = at ? at->value_col : 0;
    return record_add_tag(rec, name, strlen(name), value, strlen(value), line, col, vcol);
}

void record_drop_tags(pmn_record *rec, const char *name)
{
    size_t k = 0;
    for (size_t i = 0; i < rec->ntags; i++) {
        if (strcmp(rec->tags[i].name, name) == 0) {
            free(rec->tags[i].name);
            free(rec->tags[i].value);
        } else {
            rec->tags[k++] = rec->tags[i];
        }
    }
    rec->ntags = k;
}

/* Totals run on along a line; a variation starts from the totals before
 * the move it replaces. */
static void totals_to_counts(pmn_line *l, const unsigned start[2], pmn_diag_fn fn, void *ctx)
{
    unsigned total[2] = { start[0], start[1] };
    for (size_t i = 0; i < l->nmoves; i++) {
        pmn_move *m = &l->moves[i];
        for (size_t v = 0; v < m->nvariations; v++)
            totals_to_counts(&m->variations[v], total, fn, ctx);
        if (m->claim < 0 || m->side < 0)
            continue;
        if ((unsigned)m->claim < total[m->side]) {
            diag_report(fn, ctx, PMN_E116, m->claim_line, m->claim_col,
                        "move %s: a running total of %d after %u: the total is dropped",
                        m->text, m->claim, total[m->side]);
            m->claim = -1;
            continue;
        }
        unsigned t = (unsigned)m->claim;
        m->claim_total = m->claim;
        m->claim = (int)(t - total[m->side]);
        total[m->side] = t;
    }
}

void pmn_record_totals_to_counts(pmn_record *rec, pmn_diag_fn fn, void *ctx)
{
    static const unsigned zero[2] = { 0, 0 };
    totals_to_counts(&rec->main, zero, fn, ctx);
}

int record_number_side(const pmn_move *m)
{
    return !m->number ? -1 : m->number_dots == 3 ? PMN_NORTH : PMN_SOUTH;
}

int record_slip_of_case(const pmn_move *m, int to_move)
{
    if (m->notation != PMN_NOTATION_LETTERS || m->side < 0 || m->side == to_move)
        return 0;
    return !m->number || record_number_side(m) == to_move;
}
