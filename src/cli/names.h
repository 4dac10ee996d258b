/* names.h - names to numbers (names.c). */
#ifndef PMN_CLI_NAMES_H
#define PMN_CLI_NAMES_H

#include "cli.h"

/* Names to numbers, in the order first met.  The table keeps the callers'
 * strings, which must outlive it. */
struct names {
    const char **name;        /* by number */
    unsigned *hash;           /* of each name */
    size_t n, cap;
    size_t *slot;             /* hash table of numbers + 1; 0: free */
    size_t nslots;
};
unsigned name_hash(const char *s);
/* The number of name, added if new (t->n grows); -1 out of memory.
 * name_id_hashed: with its name_hash already made. */
long name_id(struct names *t, const char *name);
long name_id_hashed(struct names *t, const char *name, unsigned hash);
/* The number of name, or -1 if it is not there. */
long name_find(const struct names *t, const char *name);
void names_free(struct names *t);

#endif
