/* tb_file.c - the databases' files: a layer's header and body, written
 * whole and renamed (tb_write_layer()), mapped and checked
 * (tb_map_layer()), and the table that ends an own-seeds layer
 * (tb_own_table_read()).  tablebase.c's comment gives the format. */
#include "tb.h"

/* Own seeds: the table of the layer of n seeds, at the end of its body
 * v, read into tb->own_*[n].  0; -1 when an entry is one no position can
 * have (bounds past the seeds, L above U, a hole where there is no
 * winner, or none where there is): a corrupt or forged file. */
int tb_own_table_read(pmn_tablebase *tb, unsigned n, const int8_t *v)
{
    const int8_t *t = v + tb->size[n];
    int most = (int)n, holes = (int)(tb->k / 2);
    for (unsigned c = 0; c < 256; c++) {
        int u = t[c], l = t[256 + c], h = t[512 + c];
        int unused = u == INT8_MIN && l == INT8_MIN && h == -1;
        int winner = u == l && u > 0;
        /* (a winner without a hole: his value found by the search with the
         * path, tb_cycle_solve(), whose moves no one hole keeps) */
        if (!unused && (u > most || l < -most || l > u || h < -1 || h >= holes
                        || (h >= 0 && !winner)))
            return -1;
        tb->own_hi[n][c] = (int8_t)u;
        tb->own_lo[n][c] = (int8_t)l;
        tb->own_hole[n][c] = (int8_t)h;
    }
    return 0;
}

/* Can the value(s) at c be those of a position of n seeds?  An open reads
 * no layer whole (tb_body_unsound()): a value a corrupt or forged file holds
 * past its seeds is never taken -- the position is not held. */
int tb_cell_sound(const pmn_tablebase *tb, unsigned n, const int8_t *c)
{
    if (tb->coded)
        return tb->value_of[n][(uint8_t)c[0]] != INT8_MIN;
    if (tb->own)
        return tb->own_hi[n][(uint8_t)c[0]] != INT8_MIN;
    /* Where Kalah's sowing serves (tb_kalah_sow()), every seed in play ends
     * in a store, so that the margin has the parity of the seeds: a draw
     * of 3 seeds, say, is a damaged file's, not a value. */
    return c[0] <= (int)n && c[0] >= -(int)n && (!tb->kalah || ((c[0] + (int)n) & 1) == 0);
}

/* ---- files ------------------------------------------------------------------ */

static uint64_t fnv(const void *data, size_t n, uint64_t h)
{
    const unsigned char *s = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001B3ULL;
    return h;
}

#define FNV_START 0xCBF29CE484222325ULL

void tb_layer_path(const pmn_tablebase *tb, const char *dir, unsigned n, char *buf,
                       size_t size)
{
    uint64_t h = fnv(tb->spec, strlen(tb->spec), FNV_START);
    snprintf(buf, size, "%s/pmn-%016llx-%02u.tb", dir, (unsigned long long)h, n);
}

static void put32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *b)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static uint64_t get64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

/* The header of a layer of databases whose spec is `spec`: 256 bytes
 * where the spec (with its NUL) fits in the 192 after the fixed fields,
 * else as many blocks of 256 as hold it whole -- the spec is compared
 * whole at the open, never a prefix (a rule file's own name lists every
 * option: two such files that differed past the 191st character shared
 * their databases). */
unsigned tb_spec_header(const char *spec)
{
    size_t need = 64 + strlen(spec) + 1;
    return need <= TB_HEADER ? TB_HEADER : (unsigned)((need + 255) / 256 * 256);
}

void tb_layer_header(const pmn_tablebase *tb, unsigned n, uint64_t checksum, unsigned char *h)
{
    memset(h, 0, tb->header);
    memcpy(h, TB_MAGIC, 8);
    put32(h + 8, TB_VERSION);
    put32(h + 12, tb->header);
    put32(h + 16, tb->k / 2);
    put32(h + 20, n);
    put64(h + 24, tb->size[n]);
    put64(h + 32, checksum);
    memcpy(h + 64, tb->spec, strlen(tb->spec));
}

uint64_t tb_checksum(const void *data, size_t n, uint64_t h)
{
    return fnv(data, n, h);
}

static void header(const pmn_tablebase *tb, unsigned n, const int8_t *v, unsigned char *h)
{
    tb_layer_header(tb, n, fnv(v, tb_body_bytes(tb, n), FNV_START), h);
}

int tb_write_layer(const pmn_tablebase *tb, const char *dir, unsigned n, const int8_t *v,
                       pmn_error *err)
{
    char path[4096], tmp[4200];
    unsigned char h[TB_HEADER_MAX];
    assert(tb->header <= sizeof h);
    tb_layer_path(tb, dir, n, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    header(tb, n, v, h);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return util_fail(err, PMN_ERR_RANGE, 0, "cannot write %s: %s", tmp, strerror(errno));
    int ok = fwrite(h, 1, tb->header, f) == tb->header
          && fwrite(v, 1, tb_body_bytes(tb, n), f) == tb_body_bytes(tb, n);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return util_fail(err, PMN_ERR_RANGE, 0, "cannot write %s: %s", path, strerror(e));
    }
    return 0;
}

/* Is every position's value (or pair of bounds) of the layer of n seeds,
 * at v, one it can have (tb_cell_sound())?  NULL, or why not.  Every reader
 * (probe, line, info's counts by value) relies on it: a margin beyond that
 * is a wrong answer, and info's table has a slot a margin. */
static const char *values_unsound(const pmn_tablebase *tb, const int8_t *v, unsigned n)
{
    for (uint64_t i = 0; i < tb->size[n]; i++)
        if (!tb_cell_sound(tb, n, &v[i]))
            return !tb->coded && !tb->own && v[i] <= (int)n && v[i] >= -(int)n
                 ? "a margin of the other parity than its seeds, which no position can "
                   "have where every seed ends in a store (forged or corrupt)"
                 : "a value larger than the seeds in play (forged or corrupt)";
    return NULL;
}

/* Is the body of the layer of n seeds (header h, mapped) what its header's
 * checksum says, and is every value one its seeds can make?  NULL, or why
 * not.  It reads the whole layer: a build does it for every layer it
 * reads, pmn_tablebase_verify on demand, a probe at its first value of
 * the layer (tb_layer_sound()). */
const char *tb_body_unsound(const pmn_tablebase *tb, unsigned n, const unsigned char *h)
{
    if (get64(h + 32) != fnv(h + tb->header, tb_body_bytes(tb, n), FNV_START))
        return "a checksum that does not match its values (corrupt)";
    return values_unsound(tb, (const int8_t *)(h + tb->header), n);
}

/* Map the layer of n seeds: 1 done, 0 no such file, -1 a file that is not
 * a sound layer of these rules (*err says why), -2 a layer of another
 * format version (*err says so: a build makes it again).  The header and
 * the size are checked; the body too (tb_body_unsound()) where `verify` is
 * set. */
int tb_map_layer(pmn_tablebase *tb, const char *dir, unsigned n, int verify,
                     pmn_error *err)
{
    char path[4096];
    tb_layer_path(tb, dir, n, path, sizeof path);
    /* Not blocking: a FIFO in a layer's place would hang the reader. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fd < 0 && errno == ENOENT && lstat(path, &st) == 0)
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: a link to nothing (the layer it "
                         "named is gone)", path);
    if (fd < 0 && errno == ENOENT)
        return 0;   /* no such layer: the databases end below it */
    if (fd < 0)
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: cannot open it: %s", path, strerror(errno));
    size_t want = tb->header + (size_t)tb_body_bytes(tb, n);
    if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        close(fd);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: not a regular file (a %s)", path,
                         S_ISDIR(st.st_mode) ? "directory" : S_ISFIFO(st.st_mode) ? "FIFO"
                         : "device or socket");
    }
    /* The header before the size, which it sets: a file of another
     * version, or of other rules, is refused as such, not as cut short. */
    unsigned char h[TB_HEADER_MAX];
    const char *why = NULL;
    char spec[TB_SPEC + 1] = "";
    int other = 0;
    if (pread(fd, h, TB_HEADER, 0) == (ssize_t)TB_HEADER) {
        /* The spec whole, however long (tb_spec_header()): a header of
         * another size than these rules' is of other rules, or damaged. */
        unsigned size = get32(h + 12);
        if (size <= TB_HEADER || size > sizeof h || size % 256 != 0
            || pread(fd, h + TB_HEADER, size - TB_HEADER, TB_HEADER)
                   != (ssize_t)(size - TB_HEADER))
            size = TB_HEADER;
        /* A header may have room for more than the longest spec (its size
         * in blocks of 256): what is past TB_SPEC is no spec's, and a
         * damaged one may hold no NUL (fuzz_tablebase, 2026-11-29: 1216
         * bytes copied into spec[1025]). */
        size_t room = size - 64 < TB_SPEC ? size - 64 : TB_SPEC;
        memcpy(spec, h + 64, room);
        spec[room] = 0;
        int magic = memcmp(h, TB_MAGIC, 8) == 0;
        other = magic && strcmp(spec, tb->spec) != 0;
        uint32_t version = magic ? get32(h + 8) : TB_VERSION;
        if (version != TB_VERSION && (version != TB_VERSION_KEPT || tb->own)) {
            close(fd);
            util_fail(err, PMN_ERR_SYNTAX, 0, "%s: format version %u, which this pmn does "
                      "not read (it reads version %u): 'pmn tablebase build' makes it again",
                      path, (unsigned)get32(h + 8), TB_VERSION);
            return -2;
        }
        if (!magic)
            why = "not a pmn database";
        else if (other)
            why = "built under other rules";
        else if (get32(h + 12) != tb->header || get32(h + 16) != tb->k / 2
                 || get32(h + 20) != n || get64(h + 24) != tb->size[n])
            why = "a header that does not fit its rules";
    }
    if (!why && (fstat(fd, &st) != 0 || (uint64_t)st.st_size != want)) {
        close(fd);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: %llu bytes, not the %llu of a layer of "
                         "%u seeds (truncated?)", path, (unsigned long long)st.st_size,
                         (unsigned long long)want, n);
    }
    if (why) {
        close(fd);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: %s%s%s", path, why, other ? ": " : "",
                         other ? spec : "");
    }
    void *base = mmap(NULL, want, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED)
        return util_fail(err, PMN_ERR_NOMEM, 0, "%s: cannot map it: %s", path, strerror(errno));
    /* (the table first: the body's codes are read by it) */
    if (tb->own && tb_own_table_read(tb, n, (const int8_t *)base + tb->header) != 0) {
        munmap(base, want);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: a table of codes no position can have "
                         "(forged or corrupt)", path);
    }
    if (verify && (why = tb_body_unsound(tb, n, base)) != NULL) {
        munmap(base, want);
        return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: %s", path, why);
    }
    tb->base[n] = base;
    tb->mapped[n] = want;
    tb->layer[n] = (const int8_t *)base + tb->header;
    return 1;
}

