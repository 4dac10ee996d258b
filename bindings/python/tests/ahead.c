/* ahead.c - the package's reading ahead (pmn/_helpers.c) driven from C,
 * for ThreadSanitizer (tests/python.sh builds it with -fsanitize=thread:
 * a Python interpreter cannot load a sanitized module).  Each FILE is read
 * whole three ways: records freed as taken (while the workers run: handed
 * back to them); records kept until the read is over (freed at once), the
 * first batch asked for late (the threads ahead of the first call: one
 * checker's first game was once dropped so); and a read stopped after its
 * first batch (the threads stopped mid-input).  Prints each file's games;
 * exits 1 if the first two disagree. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include "pmn.h"
#define PMNPY_VERSION PACKAGE_VERSION
#include "../pmn/_helpers.c"

/* (Python's side of the module: no Python here.) */
static ssize_t pmnpy_read(void *cookie, char *buf, size_t size)
{
    (void)cookie, (void)buf, (void)size;
    return -1;
}

static void pmnpy_diag(void *ctx, const pmn_diag *d)
{
    (void)ctx, (void)d;
}

/* The games of path, records freed as taken (keep 0), kept to the end
 * (1), or the read stopped after a batch (2); -1: not opened. */
static long read_all(const char *path, int keep)
{
    FILE *f = pmnpy_open(path);
    if (!f)
        return -1;
    pmnpy_ahead *a = pmnpy_ahead_new(f, PMN_SOURCE_AUTO, path);
    if (!a)
        return -1;
    if (keep == 1)
        usleep(100000);
    long games = 0;
    size_t kept = 0, cap = 0;
    pmnpy_game **held = NULL;
    for (int more = 1; more;) {
        pmnpy_batch *b = pmnpy_ahead_next(a);
        for (int64_t i = 0; i < b->n; i++) {
            int64_t rc = b->heads[PMNPY_HEAD * i + PMNPY_RC];
            if (rc <= 0) {
                more = 0;
                break;
            }
            games += rc != 3;
            pmnpy_game *g = rc == 1 ? pmnpy_batch_take(b, i) : NULL;
            if (g && keep == 1) {
                if (kept == cap) {
                    cap = cap ? 2 * cap : 64;
                    pmnpy_game **more_held = realloc(held, cap * sizeof *held);
                    assert(more_held);
                    held = more_held;
                }
                held[kept++] = g;
            } else {
                pmnpy_game_free(g);
            }
        }
        if (keep == 2)
            break;
    }
    pmnpy_ahead_free(a);
    for (size_t i = 0; i < kept; i++)
        pmnpy_game_free(held[i]);
    free(held);
    return games;
}

int main(int argc, char **argv)
{
    int status = 0;
    (void)pmnpy_game_read, (void)pmnpy_reading, (void)pmnpy_memory, (void)pmnpy_close;
    (void)pmnpy_free, (void)pmnpy_built, (void)pmnpy_diag;
    for (int i = 1; i < argc; i++) {
        long freed = read_all(argv[i], 0), kept = read_all(argv[i], 1);
        read_all(argv[i], 2);
        printf("%s: %ld games\n", argv[i], freed);
        if (freed != kept) {
            printf("%s: %ld games with their records kept\n", argv[i], kept);
            status = 1;
        }
    }
    return status;
}
