/* duplicates.c - pmn duplicates: the games of archives that are the same
 * game (same rules, start and moves, whatever their tags say), and games
 * that are the start of another.
 *
 * A game is known by a hash of its rules and start, extended ply by ply
 * (game_hash_ply), so that the hash of a game's first k plies is the hash
 * of a game of those k plies.  The first reading keeps each game's hash and
 * length (memory: an entry per game) and finds the games before each that
 * it continues; the second walks each game's prefixes against the hashes of
 * all the games, which finds those after it -- so that when a game is
 * written, whatever continues it is known -- and writes the report or the
 * games asked for.  Standard input, read twice, is kept in a
 * temporary file.
 *
 * A hash may be shared by games that differ: before two games are taken
 * as the same, or one as the start of another, their identities
 * (game_identity: rules, start and plies as bytes) are compared.  The
 * second reading keeps, for as long as a comparison waits for it, the
 * identity of a first copy that has repeats (until its last repeat is
 * read) and the first plies of a game that another is the start of (until
 * that one is read); games that share a hash but differ are taken apart,
 * never as the same (a repeat missed where three share a hash, two of them
 * the same, is the price: 2^-64 a pair). */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "progress.h"
#include "records.h"
#include "archive.h"
#include "criteria.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct entry {
    uint64_t hash;
    pmn_at line;
    const char *file;
    unsigned long number;
    long first;               /* the first game of its hash (itself if none before) */
    long next;                /* the next game of its hash, -1: none; the first copy's
                                 `last` is the last so far */
    long last;
    long longer;              /* a game that this one is the start of (said as
                                 that game's first copy); -1: none (kept by the
                                 first copy of a game) */
    unsigned plies;
    int quick;                /* the quick pass proved it (first reading) */
    int kept_self;            /* in kept: its identity, for its repeats; -1: none */
    int kept_start;           /* in kept: the first plies of `longer`, for it; -1 */
};

/* An identity kept for a comparison to come. */
struct kept {
    unsigned char *id;        /* NULL: a free place */
    size_t len;
};

enum { REPORT, DROP, REPEATS };

struct dups {
    struct archive a;         /* first: archive_file is given the context */
    const struct criteria *c;
    int pass;                 /* 1, 2 */
    int mode, prefixes;
    struct entry *e;
    size_t n, cap, at;        /* entries; the game of pass 2 */
    uint64_t *slot;           /* entries by hash (slot_of): a probe reads an
                                 entry only where the slot agrees */
    size_t nslots;
    uint64_t *filter;         /* a Bloom filter of the hashes in slot: 8 bits a
                                 slot, two set a hash */
    struct game_output out;
    unsigned long repeats, starts, groups;
    unsigned long apart;      /* games that shared a hash with another but differ */
    struct kept *kept;
    size_t nkept, kept_cap;
    size_t kept_free;         /* the first free place of kept (each holds the
                                 next in its len), NO_KEPT: none */
    unsigned char *id;        /* the game being read's identity */
    size_t id_cap, id_len;
    uint64_t mask;            /* of the hashes: all bits but in tests */
    char start[1024];         /* the start text of the game read (full path) */
    char quick_text[1024];    /* that of the quick pass's games, and its hash */
    size_t quick_text_len;
    uint64_t quick_start;
    int quick_start_known;
    int failed;
};

/* The filter's two bits of h, in one word: a test reads one place of
 * memory (the word's index *w, the bits' mask *m). */
static void filter_bits(const struct dups *d, uint64_t h, size_t *w, uint64_t *m)
{
    size_t words = d->nslots / 8;   /* 8 bits a slot: a power of two */
    *w = (size_t)(h >> 20) & (words - 1);
    *m = 1ULL << (h >> 42 & 63) | 1ULL << (h >> 52 & 63);
}

static void filter_add(struct dups *d, uint64_t h)
{
    size_t w;
    uint64_t m;
    filter_bits(d, h, &w, &m);
    d->filter[w] |= m;
}

/* May h be a game's hash?  Most prefixes of games are no game: the filter
 * (2 MB for a million games, in the processor's cache) says so without
 * the table's two reads from memory, which cost 90% of a walk. */
static int filter_may(const struct dups *d, uint64_t h)
{
    size_t w;
    uint64_t m;
    filter_bits(d, h, &w, &m);
    return (d->filter[w] & m) == m;
}

/* The slot of entry k: its index + 1 in bits 0-31 (0: a free slot), bit
 * 32 set once it is the start of another game, its plies in bits 33-40
 * (255: as many or more), the high 23 bits of its hash above.  Most
 * prefixes of games that reach the table are those of the short games
 * every game begins as: the slot says at once that they are not, or are
 * already known as, the start of another, without reading the entry. */
#define SLOT_LONGER (1ULL << 32)
static uint64_t slot_of(const struct entry *e, size_t k)
{
    assert(k < 0xFFFFFFFF);
    uint64_t plies = e->plies < 255 ? e->plies : 255;
    return (e->hash >> 41 << 41) | plies << 33 | (e->longer >= 0 ? SLOT_LONGER : 0)
         | (uint64_t)(k + 1);
}

static size_t slot_index(uint64_t slot)
{
    return (size_t)(slot & 0xFFFFFFFF) - 1;
}

static long find(const struct dups *d, uint64_t h)
{
    for (size_t i = (size_t)(h >> 7) & (d->nslots - 1); d->slot[i]; i = (i + 1) & (d->nslots - 1))
        if (d->slot[i] >> 41 == h >> 41 && d->e[slot_index(d->slot[i])].hash == h)
            return (long)slot_index(d->slot[i]);
    return -1;
}

/* The game of hash h and `plies` plies not yet known as the start of
 * another, or -1; *at its slot. */
static long find_start(const struct dups *d, uint64_t h, size_t plies, size_t *at)
{
    uint64_t want = (plies < 255 ? plies : 255) << 33;
    for (size_t i = (size_t)(h >> 7) & (d->nslots - 1); d->slot[i]; i = (i + 1) & (d->nslots - 1)) {
        uint64_t s = d->slot[i];
        /* Another game's slot, or this game's, known already or of another
         * length: nothing to look at (no other holds this hash). */
        if (s >> 41 != h >> 41 || (s & (SLOT_LONGER | 255ULL << 33)) != want)
            continue;
        const struct entry *e = &d->e[slot_index(s)];
        if (e->hash == h && e->plies == plies && e->longer < 0) {
            *at = i;
            return (long)slot_index(s);
        }
    }
    return -1;
}

static int grow_table(struct dups *d)
{
    size_t ns = d->nslots ? 2 * d->nslots : 1024;
    uint64_t *slot = calloc(ns, sizeof *slot);
    uint64_t *filter = calloc(ns / 8, sizeof *filter);   /* 8 bits a slot */
    if (!slot || !filter) {
        free(slot);
        free(filter);
        return -1;
    }
    free(d->slot);
    free(d->filter);
    d->slot = slot;
    d->filter = filter;
    d->nslots = ns;
    for (size_t k = 0; k < d->n; k++) {
        if (d->e[k].first != (long)k)
            continue;
        size_t i = (size_t)(d->e[k].hash >> 7) & (ns - 1);
        while (slot[i])
            i = (i + 1) & (ns - 1);
        slot[i] = slot_of(&d->e[k], k);
        filter_add(d, d->e[k].hash);
    }
    return 0;
}

#define NO_KEPT ((size_t)-1)

/* Keep a copy of b[0..len) for a comparison to come: its place in d->kept,
 * or -1 when memory runs out (d->failed then set). */
static int keep_bytes(struct dups *d, const unsigned char *b, size_t len)
{
    unsigned char *copy = malloc(len ? len : 1);
    size_t i;
    if (!copy || (d->kept_free == NO_KEPT && d->nkept >= INT_MAX))
        goto nomem;
    if (d->kept_free != NO_KEPT) {
        i = d->kept_free;
        d->kept_free = d->kept[i].len;   /* a free place holds the next one */
    } else {
        struct kept *k = grown(d->kept, &d->kept_cap, d->nkept, sizeof *k, 64);
        if (!k)
            goto nomem;
        d->kept = k;
        i = d->nkept++;
    }
    memcpy(copy, b, len);
    d->kept[i].id = copy;
    d->kept[i].len = len;
    return (int)i;
nomem:
    free(copy);
    d->failed = 1;
    return -1;
}

static void drop_kept(struct dups *d, int *at)
{
    if (*at < 0)
        return;
    free(d->kept[*at].id);
    d->kept[*at].id = NULL;
    d->kept[*at].len = d->kept_free;
    d->kept_free = (size_t)*at;
    *at = -1;
}

/* Is the identity kept at k that of the game read (d->id)? */
static int same_as_read(const struct dups *d, int k)
{
    return k >= 0 && d->kept[k].len == d->id_len && memcmp(d->kept[k].id, d->id, d->id_len) == 0;
}

/* The game's start text (game_start_text) and its length: the same for
 * every game of the quick pass (Hawalis from its opening), so formatted
 * once for them all, with its hash. */
static const char *start_of(struct dups *d, const struct game *g, size_t *n)
{
    if (g->replay) {
        *n = game_start_text(g, d->start);
        return d->start;
    }
    if (!d->quick_start_known) {
        d->quick_text_len = game_start_text(g, d->quick_text);
        d->quick_start = game_hash_start(d->quick_text, d->quick_text_len);
        d->quick_start_known = 1;
    }
    *n = d->quick_text_len;
    return d->quick_text;
}

static uint64_t start_hash(struct dups *d, const struct game *g)
{
    size_t n;
    const char *text = start_of(d, g, &n);
    return g->replay ? game_hash_start(text, n) : d->quick_start;
}

/* game_identity of g's first `plies` plies into d->id. */
static int identity_of(struct dups *d, const struct game *g, size_t plies)
{
    size_t n;
    const char *text = start_of(d, g, &n);
    return game_identity(g, text, n, plies, &d->id, &d->id_cap, &d->id_len);
}

/* Which games this one continues: each prefix that is the whole of a game
 * (in the first reading the games before it, in the second those after);
 * the prefix's identity is kept for when that game is read again.  The
 * hash of the whole game, the last of its prefixes'. */
static uint64_t find_starts(struct dups *d, const struct game *g, size_t me)
{
    enum { BATCH = 64 };
    uint64_t h = start_hash(d, g), hs[BATCH];
    size_t all = game_plies(g);
    /* The prefixes' hashes a batch at a time, their words of the filter
     * fetched meanwhile: the filter of a large archive is out of cache,
     * and a prefix's test waits on memory otherwise. */
    for (size_t base = 0; base < all; base += BATCH) {
        size_t n = all - base < BATCH ? all - base : BATCH;
        for (size_t k = 0; k < n; k++) {
            size_t w;
            uint64_t m;
            h = game_hash_ply(h, game_ply_code(g, base + k));
            hs[k] = h & d->mask;
            filter_bits(d, hs[k], &w, &m);
            __builtin_prefetch(&d->filter[w]);
        }
        for (size_t k = 0; k < n; k++) {
            size_t i = base + k, at;
            if (i + 1 == all || !filter_may(d, hs[k]))
                continue;
            long f = find_start(d, hs[k], i + 1, &at);
            if (f < 0 || (d->pass == 2 && f <= (long)me))
                continue;
            if (identity_of(d, g, i + 1) < 0) {
                d->failed = 1;
                return h & d->mask;
            }
            if ((d->e[f].kept_start = keep_bytes(d, d->id, d->id_len)) < 0)
                return h & d->mask;
            d->e[f].longer = (long)me;   /* said as the first copy of me's */
            d->slot[at] |= SLOT_LONGER;
        }
    }
    return h & d->mask;
}

/* me, a repeat, differs from the first game of its hash: taken apart. */
static void take_apart(struct dups *d, long me)
{
    struct entry *f = &d->e[d->e[me].first];
    long p = d->e[me].first;
    while (d->e[p].next != me)
        p = d->e[p].next;
    d->e[p].next = d->e[me].next;
    if (f->last == me)
        f->last = p;
    d->e[me].first = d->e[me].last = me;
    d->e[me].next = -1;
    d->apart++;
}

/* Before game me of the second reading is written or counted: compare it
 * with what its hash made it the same as, or the start of, and keep its
 * identity if repeats of it are still to be read.  0, or -1 when memory
 * runs out. */
static int verify(struct dups *d, const struct game *g, size_t me)
{
    struct entry *e = &d->e[me];
    int repeat = e->first != (long)me;
    if (!repeat && e->next < 0 && e->kept_start < 0)
        return 0;   /* nothing to compare: most games */
    if (identity_of(d, g, (size_t)-1) < 0)
        return d->failed = 1, -1;
    if (repeat) {
        struct entry *f = &d->e[e->first];
        if (!same_as_read(d, f->kept_self))
            take_apart(d, (long)me);
        if (f->last <= (long)me)
            drop_kept(d, &f->kept_self);   /* its last repeat is read */
    } else if (e->next >= 0 && (e->kept_self = keep_bytes(d, d->id, d->id_len)) < 0) {
        return -1;
    }
    if (e->kept_start >= 0) {
        if (!same_as_read(d, e->kept_start)) {
            e->longer = -1;   /* not the start of that game: their hashes met */
            d->apart++;
        }
        drop_kept(d, &e->kept_start);
    }
    return 0;
}

static int first_pass(struct dups *d, struct game *g)
{
    struct entry *entries = grown(d->e, &d->cap, d->n, sizeof *entries, 1024);
    if (!entries)
        return -1;
    d->e = entries;
    if (d->n + 1 >= 0xFFFFFFFF || (2 * (d->n + 1) > d->nslots && grow_table(d) < 0))
        return -1;   /* the slots' 32 bits of index: 4 billion games */
    struct entry *e = &d->e[d->n];
    e->plies = (unsigned)game_plies(g);
    e->line = g->line;
    e->file = g->file;
    e->number = g->number;
    e->longer = -1;
    e->kept_self = e->kept_start = -1;
    e->quick = g->rec == NULL;
    /* The games before it that it continues, and its hash. */
    e->hash = find_starts(d, g, d->n);
    long f = find(d, e->hash);
    e->first = f >= 0 ? f : (long)d->n;
    e->next = -1;
    e->last = (long)d->n;
    if (f >= 0) {   /* a repeat: at the end of its first copy's chain */
        d->e[d->e[f].last].next = (long)d->n;
        d->e[f].last = (long)d->n;
    } else {
        size_t i = (size_t)(e->hash >> 7) & (d->nslots - 1);
        while (d->slot[i])
            i = (i + 1) & (d->nslots - 1);
        d->slot[i] = slot_of(e, d->n);
        filter_add(d, e->hash);
    }
    d->n++;
    return 0;
}

static int each_game(struct archive *a, struct game *g)
{
    struct dups *d = (struct dups *)a;
    if (!criteria_match(d->c, g))
        return 0;
    if (d->pass == 1)
        return first_pass(d, g) < 0 ? (d->failed = 1, -1) : 0;
    size_t me = d->at++;
    if (me >= d->n)
        return 1;   /* the input changed between the readings */
    if (d->mode == REPORT)
        return 0;
    const struct entry *e = &d->e[me];
    int repeat = e->first != (long)me || (d->prefixes && d->e[e->first].longer >= 0);
    if ((d->mode == DROP) != repeat && output_game(&d->out, g) < 0)
        return 1;
    return 0;
}

/* Pass 2: each game's prefixes against every game, before it is written. */
static int walk_game(struct archive *a, struct game *g)
{
    struct dups *d = (struct dups *)a;
    if (!criteria_match(d->c, g))
        return 0;
    size_t me = d->at;
    if (me < d->n) {
        /* Compared first, so that what it continues is said of the game
         * it is the same as. */
        if (verify(d, g, me) < 0)
            return -1;
        find_starts(d, g, me);
        if (d->failed)
            return -1;
    }
    return each_game(a, g);
}

/* The second reading takes again the plies of a game the quick pass
 * proved in the first, without replaying it (its facts unknown): where
 * neither the criteria (games are matched to their entries by their
 * order) nor the output (list, jsonl) need what the replay proves. */
static int proved(struct archive *a)
{
    struct dups *d = (struct dups *)a;
    return d->pass == 2 && d->c->n == 0 && (d->mode == REPORT || d->out.format == OUT_VERBATIM)
        && d->at < d->n && d->e[d->at].quick;
}

static void say(FILE *f, const struct entry *e)
{
    fprintf(f, "%s:%llu: game %lu", e->file, e->line, e->number);
}

static void write_report(struct dups *d, FILE *f)
{
    for (size_t k = 0; k < d->n; k++) {
        const struct entry *e = &d->e[k];
        if (e->first == (long)k) {
            int more = 0;
            /* The chain of repeats: linear in the games, however many. */
            for (long j = e->next; j >= 0; j = d->e[j].next) {
                if (!more++) {
                    say(f, e);
                    fprintf(f, " (%u plies) is repeated by ", e->plies);
                } else {
                    fputs(", ", f);
                }
                say(f, &d->e[j]);
            }
            if (more) {
                fputc('\n', f);
                d->groups++;
                d->repeats += (unsigned long)more;
            }
        }
        if (e->longer >= 0 && e->first == (long)k) {
            say(f, e);
            fprintf(f, " (%u plies) is the start of ", e->plies);
            const struct entry *l = &d->e[d->e[e->longer].first];
            say(f, l);
            fprintf(f, " (%u plies)\n", l->plies);
        }
        d->starts += d->e[e->first].longer >= 0;
    }
    if (d->apart)
        fprintf(f, "%lu game%s shared a hash with another but differ: not taken as the same\n",
                d->apart, d->apart == 1 ? "" : "s");
    fprintf(f, "%zu game%s: %lu repeated (%lu repeat%s), %lu the start of another\n", d->n,
            d->n == 1 ? "" : "s", d->groups, d->repeats, d->repeats == 1 ? "" : "s", d->starts);
}

/* Standard input is read twice: if it cannot be sought back to its start,
 * it is copied to a temporary file first.  Returns 0, or -1 (reported). */
static int rewindable_stdin(struct diag_sink *s)
{
    if (fseek(stdin, 0, SEEK_CUR) == 0)
        return 0;
    /* In $TMPDIR, as users of a small /tmp expect (tmpfile() takes /tmp
     * whatever it says), and unlinked at once: nothing is left behind. */
    const char *dir = getenv("TMPDIR");
    char path[4096];
    FILE *t = NULL;
    if (snprintf(path, sizeof path, "%s/pmn-duplicates.XXXXXX", dir && *dir ? dir : "/tmp")
        < (int)sizeof path) {
        int fd = mkstemp(path);
        if (fd >= 0) {
            unlink(path);
            if (!(t = fdopen(fd, "w+")))
                close(fd);
        }
    }
    char buf[1 << 16];
    size_t n;
    if (!t) {
        report(s, PMN_F003, 0, 0, "cannot make a temporary file for standard input in %s: %s",
               dir && *dir ? dir : "/tmp", strerror(errno));
        return -1;
    }
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        if (fwrite(buf, 1, n, t) != n)
            break;
    if (ferror(stdin) || ferror(t) || fflush(t) != 0 || dup2(fileno(t), 0) < 0) {
        report(s, PMN_F003, 0, 0, "cannot keep standard input in a temporary file: %s",
               strerror(errno ? errno : EIO));
        fclose(t);
        return -1;
    }
    fclose(t);
    clearerr(stdin);
    return fseek(stdin, 0, SEEK_SET) == 0 ? 0 : -1;
}

static const struct cli_option options[] = {
    { "drop", 2100, NULL, "write the games, each only once (its first copy)",
      FLAG_AT(struct dups, mode), NULL, DROP },
    { "repeats", 2101, NULL, "write only the games --drop leaves out",
      FLAG_AT(struct dups, mode), NULL, REPEATS },
    { "prefixes", 2102, NULL, "with --drop, leave out too a game that is the\n"
      "start of another; with --repeats, write it", FLAG_AT(struct dups, prefixes), NULL, 0 },
    OPT_OUTPUT_FORMAT,
    OPT_CRITERIA,
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_OUTPUT,
    OPT_QUIET_PROGRESS,
    OPT_STRICT,
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct dups *d = ctx;
    (void)c;
    d->kept_free = NO_KEPT;
    /* All of each hash; PMN_TEST_HASH_BITS=N keeps N bits, so that the
     * tests make games share hashes and see them taken apart. */
    const char *bits = getenv("PMN_TEST_HASH_BITS");
    d->mask = bits && atoi(bits) > 0 && atoi(bits) < 64 ? (1ULL << atoi(bits)) - 1 : ~0ULL;
}

static int run(struct common *c, void *ctx)
{
    struct dups *d = ctx;
    int reads_stdin = c->nfiles == 0;
    for (int i = 0; i < c->nfiles; i++)
        reads_stdin |= strcmp(c->files[i], "-") == 0;
    d->a.ro = &c->ro;
    d->a.from = c->from;
    d->out.wo = c->wo;
    d->out.format = c->out_format;
    /* Games the quick pass proves clean are known by their plies; the
     * full path reads the others, and every game written canonically. */
    d->a.need_moves = d->mode != REPORT && OUTPUT_NEEDS_RECORD(d->out.format);
    d->a.no_tags = !criteria_need_tags(&c->criteria)
                && (d->mode == REPORT || d->out.format == OUT_VERBATIM);
    d->c = &c->criteria;
    d->out.f = c->out.f;
    if (!reads_stdin || rewindable_stdin(&c->sink) == 0) {
        d->pass = 1;
        d->a.game = each_game;
        each_input(c->files, c->nfiles, &c->sink, archive_file, d);
        /* The second reading says nothing the first has not said. */
        FILE *quiet_err = fopen("/dev/null", "w");
        struct diag_sink again = { .file = "-", .err = quiet_err };
        if (reads_stdin)
            fseek(stdin, 0, SEEK_SET);
        d->pass = 2;
        d->a.game = walk_game;
        d->a.proved = proved;
        if (d->mode != REPORT && output_begin(&d->out) < 0)
            d->out.failed = 1;
        if (quiet_err && !d->failed)
            each_input(c->files, c->nfiles, &again, archive_file, d);
        else if (!d->failed)
            report(&c->sink, PMN_F003, 0, 0, "cannot open /dev/null: %s", strerror(errno));
        if (quiet_err)
            fclose(quiet_err);
        if (d->mode != REPORT)
            output_end(&d->out);
        else if (!d->failed)
            write_report(d, c->out.f);
    }
    if (d->failed)
        report(&c->sink, PMN_F002, 0, 0, "out of memory");
    for (size_t i = 0; i < d->nkept; i++)
        free(d->kept[i].id);
    free(d->kept);
    free(d->id);
    free(d->e);
    free(d->slot);
    free(d->filter);
    c->failed = d->out.failed;
    return job_status(&c->sink, c->strict);
}

const struct command duplicates_command = {
    "duplicates", "find the games of archives that are the same game",
    "[OPTIONS] [FILE...]",
    "Find the games of PMN files or XML archives (standard input if none, or -)\n"
    "that are the same game -- the same rules, start and moves, whatever their\n"
    "tags say -- and the games that are the start of another (a game left\n"
    "unfinished, or cut short, and the whole of it).  The report gives each\n"
    "game that is repeated with its repeats, and each game that another\n"
    "continues; --drop and --repeats write games instead.  The input is read\n"
    "twice (standard input is kept in a temporary file); memory holds an\n"
    "entry per game.",
    options,
    "Exit status: 0, or as pmn check's for the problems of the games read;\n"
    "64 a wrong command line.",
    sizeof(struct dups), CMD_OUTPUT | CMD_PROGRESS, init, NULL, run,
};
