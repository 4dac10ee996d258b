/* fuzz_tablebase.c - libFuzzer target: endgame database files that are not
 * what they claim.  At start, the databases of awale,majority=no to 4 seeds
 * are built in a scratch folder.  Each input is a layer file: its first
 * byte says which layer it stands for (0-4, its low bits) and whether the
 * layers above it are left out (bit 3), the rest is the file.  The folder
 * so made is opened, every layer's statistics read, and every position
 * of every layer it holds probed: each value must be one the position
 * allows (no more than its seeds in play either way), and a folder that
 * cannot be used must be refused with a message, never read.  The
 * reproducers of ../shared/reproducers/2026-11-27 (other rules under this
 * name, zeros, forged values with their checksum) are its seeds (fuzz/run.sh).
 * Build and run: sh fuzz/run.sh. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmn.h"

#define SEEDS 4
#define HOLES 6

static pmn_rules rules;
static char built[256], scratch[256];
static char names[SEEDS + 1][300];   /* each layer's file name */

static void setup(void)
{
    pmn_error err;
    if (pmn_rules_init(&rules, "awale,majority=no", &err) != 0)
        abort();
    char tmpl[] = "/tmp/pmn-fuzz-tb-XXXXXX", tmpl2[] = "/tmp/pmn-fuzz-tb-XXXXXX";
    if (!mkdtemp(tmpl) || !mkdtemp(tmpl2))
        abort();
    snprintf(built, sizeof built, "%s", tmpl);
    snprintf(scratch, sizeof scratch, "%s", tmpl2);
    if (pmn_tablebase_build(&rules, SEEDS, built, 1, NULL, NULL, &err) != 0)
        abort();
    DIR *d = opendir(built);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        unsigned layer;
        if (n > 6 && strcmp(e->d_name + n - 3, ".tb") == 0
            && sscanf(e->d_name + n - 5, "%2u", &layer) == 1 && layer <= SEEDS)
            snprintf(names[layer], sizeof names[layer], "%s", e->d_name);
    }
    if (d)
        closedir(d);
    for (int i = 0; i <= SEEDS; i++)
        if (!names[i][0])
            abort();
}

/* Every way to lay n seeds in the holes from `from` on, probed. */
static void probe_all(const pmn_tablebase *tb, pmn_position *p, int from, unsigned n,
                      unsigned all)
{
    if (from == 2 * HOLES - 1) {
        p->pit[from / HOLES][from % HOLES] = (uint16_t)n;
        int v;
        if (pmn_tablebase_probe(tb, p, &v) && (v > (int)all || v < -(int)all))
            abort();   /* a margin the seeds in play cannot make */
        return;
    }
    for (unsigned k = 0; k <= n; k++) {
        p->pit[from / HOLES][from % HOLES] = (uint16_t)k;
        probe_all(tb, p, from + 1, n - k, all);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!built[0])
        setup();
    if (size < 1)
        return 0;
    unsigned layer = data[0] % (SEEDS + 1), drop = data[0] & 8;
    char path[600], from[600];
    for (unsigned i = 0; i <= SEEDS; i++) {
        snprintf(path, sizeof path, "%s/%s", scratch, names[i]);
        unlink(path);
        if (i == layer || (drop && i > layer))
            continue;
        snprintf(from, sizeof from, "%s/%s", built, names[i]);
        if (symlink(from, path) != 0)
            abort();
    }
    snprintf(path, sizeof path, "%s/%s", scratch, names[layer]);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f) != 0)
        abort();
    pmn_error err;
    memset(&err, 0, sizeof err);
    pmn_tablebase *tb = pmn_tablebase_open(&rules, scratch, &err);
    if (!tb) {
        if (!err.message[0])
            abort();   /* refused without a word */
        return 0;
    }
    unsigned held = pmn_tablebase_seeds(tb);
    if (held > SEEDS)
        abort();
    for (unsigned n = 0; n <= held; n++) {
        pmn_tablebase_layer s;
        if (pmn_tablebase_layer_stats(tb, n, &s) != 0)
            abort();
        pmn_position p;
        memset(&p, 0, sizeof p);
        for (int side = 0; side < 2; side++) {
            p.to_move = (uint8_t)side;
            probe_all(tb, &p, 0, n, n);
        }
    }
    pmn_tablebase_close(tb);
    return 0;
}
