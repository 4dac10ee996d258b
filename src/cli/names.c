/* names.c - names to numbers, in the order first met: the players and
 * events of pmn stats, the files of pmn split, in a hash table each. */
#include "cli.h"
#include "names.h"

#include <stdlib.h>
#include <string.h>

unsigned name_hash(const char *s)
{
    unsigned h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h;
}

long name_find(const struct names *t, const char *name)
{
    unsigned h0 = name_hash(name);
    if (!t->nslots)
        return -1;
    for (size_t h = h0 & (t->nslots - 1); t->slot[h]; h = (h + 1) & (t->nslots - 1))
        if (t->hash[t->slot[h] - 1] == h0 && strcmp(t->name[t->slot[h] - 1], name) == 0)
            return (long)t->slot[h] - 1;
    return -1;
}

long name_id_hashed(struct names *t, const char *name, unsigned h0)
{
    if (2 * (t->n + 1) > t->nslots) {
        size_t ns = t->nslots ? 2 * t->nslots : 64, *slot = calloc(ns, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t i = 0; i < t->n; i++) {
            size_t h = t->hash[i] & (ns - 1);
            while (slot[h])
                h = (h + 1) & (ns - 1);
            slot[h] = i + 1;
        }
        free(t->slot);
        t->slot = slot;
        t->nslots = ns;
    }
    size_t h = h0 & (t->nslots - 1);
    for (; t->slot[h]; h = (h + 1) & (t->nslots - 1))
        if (t->hash[t->slot[h] - 1] == h0 && strcmp(t->name[t->slot[h] - 1], name) == 0)
            return (long)t->slot[h] - 1;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        const char **nm = realloc(t->name, cap * sizeof *nm);
        if (nm)
            t->name = nm;
        unsigned *hs = nm ? realloc(t->hash, cap * sizeof *hs) : NULL;
        if (!hs)
            return -1;
        t->hash = hs;
        t->cap = cap;
    }
    t->hash[t->n] = h0;
    t->name[t->n] = name;   /* the caller's: it outlives the table */
    t->slot[h] = ++t->n;
    return (long)t->n - 1;
}

long name_id(struct names *t, const char *name)
{
    return name_id_hashed(t, name, name_hash(name));
}

void names_free(struct names *t)
{
    free(t->hash);
    free(t->name);
    free(t->slot);
}
