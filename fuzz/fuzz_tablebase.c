/* fuzz_tablebase.c - libFuzzer target: endgame database files that are not
 * what they claim, of three kinds of layer: Awale's (awale,majority=no),
 * Kalah's plain layers (kalah, every seed ending in a store: a margin of
 * the parity of the seeds) and Oware's own-seeds layers (oware,majority=no:
 * bounds, the 768-byte table, the stored holes of a line).  At start, each
 * kind's databases to 4 seeds are built in a scratch folder.  Each input is
 * a layer file: its first byte says which layer it stands for (0-4, its low
 * three bits modulo 5), whether the layers above it are left out (bit 3)
 * and of which kind (bits 4-5 modulo 3), the rest is the file.  The folder
 * so made is opened, verified, every layer's statistics read, and every
 * position of every layer it holds probed: each value, and each bound,
 * must be one the position allows (no more than its seeds in play either
 * way, the low bound at most the high, Kalah's of the seeds' parity); a
 * folder that cannot be used must be refused with a message, never read;
 * a folder that verify passes must give no probe that finds it damaged,
 * and one it fails, a message.  Seeds: each kind's fresh layers, and the
 * 2026-11-27 reproducers remade at the current format (fuzz/run.sh).
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
#define KINDS 3

static const char *const specs[KINDS] = { "awale,majority=no", "kalah", "oware,majority=no" };

struct kind {
    pmn_rules rules;
    char built[256];
    char names[SEEDS + 1][300];   /* each layer's file name */
};

static struct kind kinds[KINDS];
static char scratch[256];
static int ready;

static void setup_kind(struct kind *k, const char *spec)
{
    pmn_error err;
    if (pmn_rules_init(&k->rules, spec, &err) != 0)
        abort();
    char tmpl[] = "/tmp/pmn-fuzz-tb-XXXXXX";
    if (!mkdtemp(tmpl))
        abort();
    snprintf(k->built, sizeof k->built, "%s", tmpl);
    if (pmn_tablebase_build(&k->rules, SEEDS, k->built, 1, NULL, NULL, &err) != 0)
        abort();
    DIR *d = opendir(k->built);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        unsigned layer;
        if (n > 6 && strcmp(e->d_name + n - 3, ".tb") == 0
            && sscanf(e->d_name + n - 5, "%2u", &layer) == 1 && layer <= SEEDS)
            snprintf(k->names[layer], sizeof k->names[layer], "%s", e->d_name);
    }
    if (d)
        closedir(d);
    for (int i = 0; i <= SEEDS; i++)
        if (!k->names[i][0])
            abort();
}

static void setup(void)
{
    char tmpl[] = "/tmp/pmn-fuzz-tb-XXXXXX";
    if (!mkdtemp(tmpl))
        abort();
    snprintf(scratch, sizeof scratch, "%s", tmpl);
    for (int i = 0; i < KINDS; i++)
        setup_kind(&kinds[i], specs[i]);
    ready = 1;
}

/* Every way to lay n seeds in the holes from `from` on, probed. */
static void probe_all(const pmn_tablebase *tb, pmn_position *p, int from, unsigned n,
                      unsigned all, int kalah)
{
    if (from == 2 * HOLES - 1) {
        p->pit[from / HOLES][from % HOLES] = (uint16_t)n;
        int v, low, high;
        if (pmn_tablebase_probe(tb, p, &v) && (v > (int)all || v < -(int)all))
            abort();   /* a margin the seeds in play cannot make */
        if (pmn_tablebase_probe(tb, p, &v) && kalah && (unsigned)(v + (int)all) % 2)
            abort();   /* every seed ends in a store: the margin has their parity */
        if (pmn_tablebase_probe_bounds(tb, p, &low, &high)
            && (low > high || high > (int)all || low < -(int)all))
            abort();   /* bounds that hold no value */
        return;
    }
    for (unsigned k = 0; k <= n; k++) {
        p->pit[from / HOLES][from % HOLES] = (uint16_t)k;
        probe_all(tb, p, from + 1, n - k, all, kalah);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        setup();
    if (size < 1)
        return 0;
    unsigned layer = (data[0] & 7) % (SEEDS + 1), drop = data[0] & 8;
    const struct kind *k = &kinds[(data[0] >> 4) % KINDS];
    char path[600], from[600];
    /* The scratch folder holds one kind's files at a time. */
    DIR *d = opendir(scratch);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", scratch, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    for (unsigned i = 0; i <= SEEDS; i++) {
        if (i == layer || (drop && i > layer))
            continue;
        snprintf(path, sizeof path, "%s/%s", scratch, k->names[i]);
        snprintf(from, sizeof from, "%s/%s", k->built, k->names[i]);
        if (symlink(from, path) != 0)
            abort();
    }
    snprintf(path, sizeof path, "%s/%s", scratch, k->names[layer]);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f) != 0)
        abort();
    pmn_error err;
    memset(&err, 0, sizeof err);
    pmn_tablebase *tb = pmn_tablebase_open(&k->rules, scratch, &err);
    if (!tb) {
        if (!err.message[0])
            abort();   /* refused without a word */
        return 0;
    }
    memset(&err, 0, sizeof err);
    int sound = pmn_tablebase_verify(tb, &err) == 0;
    if (!sound && !err.message[0])
        abort();   /* failed without a word */
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
            probe_all(tb, &p, 0, n, n, k == &kinds[1]);
        }
    }
    if (sound && pmn_tablebase_damaged(tb))
        abort();   /* verify passed what a probe found damaged */
    pmn_tablebase_close(tb);
    return 0;
}
