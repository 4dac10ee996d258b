/* table.h - tables of reports (table.c). */
#ifndef PMN_CLI_TABLE_H
#define PMN_CLI_TABLE_H

#include "cli.h"

enum { TABLE_TEXT, TABLE_CSV, TABLE_JSONL };
struct table {
    const char *name;         /* the report's, in JSON Lines */
    const char *const *head;  /* the columns' names, NULL-terminated */
    size_t ncols;
    unsigned numeric;         /* bit c: column c holds numbers (right-aligned) */
    char **cell;              /* row after row */
    size_t ncells, cap;
    int failed;               /* out of memory */
    int no_header;            /* CSV: rows under another table's header */
};
int table_init(struct table *t, const char *name, const char *const *head, unsigned numeric);
/* The next cell, rows filled left to right; -1 out of memory (t->failed). */
int table_cell(struct table *t, const char *fmt, ...) CLI_PRINTF(2, 3);
/* As aligned text under a title, CSV (a header line first), or JSON Lines
 * (an object a row, with "report"). */
void table_write(FILE *f, const struct table *t, int format, const char *title);
void table_free(struct table *t);

#endif
