/* duplicates.c - pmn duplicates: the games of archives that are the same
 * game (same rules, start and moves, whatever their tags say), and games
 * that are the start of another.
 *
 * A game is known by a hash of its rules and start, extended ply by ply
 * (game_hash_ply), so that the hash of a game's first k plies is the hash
 * of a game of those k plies.  The reading keeps each game's hash, its
 * plies (a byte each) and its start (each start text once: most games
 * share one), and finds the games before each that it continues; then a
 * walk of the games kept, in memory, tries each game's prefixes against
 * the hashes of all of them, which finds those after it.  The report
 * needs no second reading; --drop and --repeats read the input again to
 * write the games (standard input, read twice, is kept in a temporary
 * file).
 *
 * A hash may be shared by games that differ: before two games are taken
 * as the same, or one as the start of another, their starts and plies
 * are compared.  Games that share a hash but differ are taken apart,
 * never as the same (a repeat missed where three share a hash, two of
 * them the same, is the price: 2^-64 a pair). */
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
                                 that game's first copy), kept by the first copy
                                 of a game; NOT_LOOKED: none found, MET: none,
                                 after a game whose hash met its own */
    unsigned plies;
    int quick;                /* the quick pass proved it (first reading) */
    int apart;                /* its hash is another game's: in no chain or slot */
    unsigned start;           /* its start text, in dups.starts */
    size_t codes;             /* its plies: from here in dups.codes */
};

enum { NOT_LOOKED = -1, MET = -2 };

/* A start text (game_start_text): rules and start position. */
struct start {
    char *text;
    size_t len;
    uint64_t hash;            /* game_hash_start */
};

/* A game as the walks take it: its start and its plies. */
struct walk {
    const struct start *start;
    const unsigned char *codes;   /* a byte a ply (code_byte) */
    size_t plies;
};

enum { REPORT, DROP, REPEATS };

struct dups {
    struct archive a;         /* first: archive_file is given the context */
    const struct criteria *c;
    int pass;                 /* 1: the first reading; 2: the games written */
    int mode, prefixes;
    struct entry *e;
    size_t n, cap, at;        /* entries; the game of the second reading */
    uint64_t *slot;           /* entries by hash (slot_of): a probe reads an
                                 entry only where the slot agrees */
    size_t nslots;
    uint64_t *filter;         /* a Bloom filter of the hashes in slot: 8 bits a
                                 slot, two set a hash */
    struct game_output out;
    unsigned long repeats, starts, groups;
    unsigned long apart;      /* games that shared a hash with another but differ */
    unsigned char *codes;     /* every game's plies, one after another */
    size_t ncodes, codes_cap;
    struct start *texts;      /* the games' start texts, each once ... */
    size_t ntexts, texts_cap;
    unsigned *text_slot;      /* ... by hash: their numbers + 1, 0: free */
    size_t text_nslots;
    uint64_t mask;            /* of the hashes: all bits but in tests */
    char start[1024];         /* the start text of the game read (full path) */
    long quick_start;         /* the number of the quick pass's games' start text */
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
    return (e->hash >> 41 << 41) | plies << 33 | (e->longer != NOT_LOOKED ? SLOT_LONGER : 0)
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
        if (e->hash == h && e->plies == plies && e->longer == NOT_LOOKED) {
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
        if (d->e[k].first != (long)k || d->e[k].apart)
            continue;
        size_t i = (size_t)(d->e[k].hash >> 7) & (ns - 1);
        while (slot[i])
            i = (i + 1) & (ns - 1);
        slot[i] = slot_of(&d->e[k], k);
        filter_add(d, d->e[k].hash);
    }
    return 0;
}

/* A ply's code (game_ply_code: side * 64 + hole + 1, and whether it
 * continues a move) as a byte, and back. */
_Static_assert(PMN_MAX_SIDE_PITS < 63, "a hole and its side in 7 bits");
static unsigned char code_byte(unsigned code)
{
    assert((code & 0xFF) < 128 && code >> 8 <= 1);
    return (unsigned char)((code & 0x7F) | (code >> 8) << 7);
}

static unsigned code_of(const struct walk *w, size_t i)
{
    return (unsigned)(w->codes[i] & 0x7F) | (unsigned)(w->codes[i] >> 7) << 8;
}

/* The number of start text t[0..n) (hash h), kept if new; -1 when memory
 * runs out. */
static long start_id(struct dups *d, const char *t, size_t n, uint64_t h)
{
    if (2 * (d->ntexts + 1) > d->text_nslots) {
        size_t ns = d->text_nslots ? 2 * d->text_nslots : 64;
        unsigned *slot = calloc(ns, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t k = 0; k < d->ntexts; k++) {
            size_t i = (size_t)d->texts[k].hash & (ns - 1);
            while (slot[i])
                i = (i + 1) & (ns - 1);
            slot[i] = (unsigned)k + 1;
        }
        free(d->text_slot);
        d->text_slot = slot;
        d->text_nslots = ns;
    }
    size_t i = (size_t)h & (d->text_nslots - 1);
    for (; d->text_slot[i]; i = (i + 1) & (d->text_nslots - 1)) {
        const struct start *s = &d->texts[d->text_slot[i] - 1];
        if (s->hash == h && s->len == n && memcmp(s->text, t, n) == 0)
            return (long)d->text_slot[i] - 1;
    }
    struct start *starts = grown(d->texts, &d->texts_cap, d->ntexts, sizeof *starts, 16);
    char *text = malloc(n ? n : 1);
    if (!starts || !text || d->ntexts >= UINT_MAX - 1) {
        free(text);
        if (starts)
            d->texts = starts;
        return -1;
    }
    d->texts = starts;
    memcpy(text, t, n);
    d->texts[d->ntexts] = (struct start){ text, n, h };
    d->text_slot[i] = (unsigned)d->ntexts + 1;
    return (long)d->ntexts++;
}

/* The game's start text (game_start_text): the same for every game of the
 * quick pass (Hawalis from its opening), so made once for them all, with
 * its hash.  Its number in d->starts, or -1 when memory runs out. */
static long start_of(struct dups *d, const struct game *g)
{
    if (g->replay) {
        size_t n = game_start_text(g, d->start);
        return start_id(d, d->start, n, game_hash_start(d->start, n));
    }
    if (!d->quick_start_known) {
        char text[1024];
        size_t n = game_start_text(g, text);
        if ((d->quick_start = start_id(d, text, n, game_hash_start(text, n))) < 0)
            return -1;
        d->quick_start_known = 1;
    }
    return d->quick_start;
}

static struct walk walk_of(const struct dups *d, size_t k)
{
    const struct entry *e = &d->e[k];
    return (struct walk){ &d->texts[e->start], d->codes + e->codes, e->plies };
}

/* Is game k the first `plies` plies of w (all of them: the same game)? */
static int same_start(const struct dups *d, size_t k, const struct walk *w, size_t plies)
{
    const struct entry *e = &d->e[k];
    return &d->texts[e->start] == w->start && e->plies == plies && plies <= w->plies
        && memcmp(d->codes + e->codes, w->codes, plies) == 0;
}

/* Which games w (game me) continues: each prefix that is the whole of a
 * game -- in the reading, the games before it; in the walk, those after
 * it.  The hash of the whole game, the last of its prefixes'. */
static uint64_t find_starts(struct dups *d, const struct walk *w, size_t me)
{
    enum { BATCH = 64 };
    uint64_t h = w->start->hash, hs[BATCH];
    size_t all = w->plies;
    /* The prefixes' hashes a batch at a time, their words of the filter
     * fetched meanwhile: the filter of a large archive is out of cache,
     * and a prefix's test waits on memory otherwise. */
    for (size_t base = 0; base < all; base += BATCH) {
        size_t n = all - base < BATCH ? all - base : BATCH;
        for (size_t k = 0; k < n; k++) {
            size_t wd;
            uint64_t m;
            h = game_hash_ply(h, code_of(w, base + k));
            hs[k] = h & d->mask;
            filter_bits(d, hs[k], &wd, &m);
            __builtin_prefetch(&d->filter[wd]);
        }
        for (size_t k = 0; k < n; k++) {
            size_t i = base + k, at;
            if (i + 1 == all || !filter_may(d, hs[k]))
                continue;
            long f = find_start(d, hs[k], i + 1, &at);
            if (f < 0 || (d->pass == 2 && f <= (long)me))
                continue;
            /* Either way it is not looked for again: a game whose hash
             * met another's is the start of none (the price above). */
            d->slot[at] |= SLOT_LONGER;
            if (same_start(d, (size_t)f, w, i + 1)) {
                d->e[f].longer = (long)me;   /* said as the first copy of me's */
            } else {
                d->e[f].longer = MET;
                d->apart++;
            }
        }
    }
    return h & d->mask;
}

static int first_pass(struct dups *d, struct game *g)
{
    struct entry *entries = grown(d->e, &d->cap, d->n, sizeof *entries, 1024);
    if (!entries)
        return -1;
    d->e = entries;
    if (d->n + 1 >= 0xFFFFFFFF || (2 * (d->n + 1) > d->nslots && grow_table(d) < 0))
        return -1;   /* the slots' 32 bits of index: 4 billion games */
    size_t plies = game_plies(g);
    long start = start_of(d, g);
    unsigned char *codes = grown(d->codes, &d->codes_cap, d->ncodes + plies, 1, 1 << 16);
    if (start < 0 || !codes || plies >= UINT_MAX)
        return -1;
    d->codes = codes;
    for (size_t i = 0; i < plies; i++)
        codes[d->ncodes + i] = code_byte(game_ply_code(g, i));
    struct entry *e = &d->e[d->n];
    e->plies = (unsigned)plies;
    e->line = g->line;
    e->file = g->file;
    e->number = g->number;
    e->longer = NOT_LOOKED;
    e->quick = g->rec == NULL;
    e->apart = 0;
    e->start = (unsigned)start;
    e->codes = d->ncodes;
    d->ncodes += plies;
    /* The games before it that it continues, and its hash. */
    struct walk w = walk_of(d, d->n);
    e->hash = find_starts(d, &w, d->n);
    long f = find(d, e->hash);
    e->first = (long)d->n;
    e->next = -1;
    e->last = (long)d->n;
    if (f >= 0 && same_start(d, (size_t)f, &w, plies)) {
        /* A repeat: at the end of its first copy's chain. */
        e->first = f;
        d->e[d->e[f].last].next = (long)d->n;
        d->e[f].last = (long)d->n;
    } else if (f >= 0) {
        e->apart = 1;   /* its hash met another game's: taken apart */
        d->apart++;
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

/* After the reading, in memory: each game's prefixes against every game,
 * which finds the games after it that it continues. */
static void walk_games(struct dups *d)
{
    d->pass = 2;
    for (size_t me = 0; me < d->n; me++) {
        struct walk w = walk_of(d, me);
        find_starts(d, &w, me);
    }
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
    const struct entry *e = &d->e[me];
    int repeat = e->first != (long)me || (d->prefixes && d->e[e->first].longer >= 0);
    if ((d->mode == DROP) != repeat && output_game(&d->out, g) < 0)
        return 1;
    return 0;
}

/* The second reading takes again the plies of a game the quick pass
 * proved in the first, without replaying it (its facts unknown): where
 * neither the criteria (games are matched to their entries by their
 * order) nor the output (list, jsonl) need what the replay proves. */
static int proved(struct archive *a)
{
    struct dups *d = (struct dups *)a;
    return d->pass == 2 && d->c->n == 0 && d->out.format == OUT_VERBATIM && d->at < d->n
        && d->e[d->at].quick;
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
    /* The report needs one reading; the games written, a second. */
    if (d->mode == REPORT || !reads_stdin || rewindable_stdin(&c->sink) == 0) {
        d->pass = 1;
        d->a.game = each_game;
        each_input(c->files, c->nfiles, &c->sink, archive_file, d);
        if (!d->failed)
            walk_games(d);
        if (d->mode == REPORT && !d->failed)
            write_report(d, c->out.f);
    }
    if (d->mode != REPORT && !d->failed && d->pass == 2) {
        /* The second reading says nothing the first has not said. */
        FILE *quiet_err = fopen("/dev/null", "w");
        struct diag_sink again = { .file = "-", .err = quiet_err };
        if (reads_stdin)
            fseek(stdin, 0, SEEK_SET);
        d->a.proved = proved;
        if (output_begin(&d->out) < 0)
            d->out.failed = 1;
        if (quiet_err)
            each_input(c->files, c->nfiles, &again, archive_file, d);
        else
            report(&c->sink, PMN_F003, 0, 0, "cannot open /dev/null: %s", strerror(errno));
        if (quiet_err)
            fclose(quiet_err);
        output_end(&d->out);
    }
    if (d->failed)
        report(&c->sink, PMN_F002, 0, 0, "out of memory");
    for (size_t i = 0; i < d->ntexts; i++)
        free(d->texts[i].text);
    free(d->texts);
    free(d->text_slot);
    free(d->codes);
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
    "continues; --drop and --repeats write games instead, reading the input\n"
    "twice (standard input is kept in a temporary file).  Memory holds an\n"
    "entry per game and its plies, a byte each.",
    options,
    "Exit status: 0, or as pmn check's for the problems of the games read;\n"
    "64 a wrong command line.",
    sizeof(struct dups), CMD_OUTPUT | CMD_PROGRESS, init, NULL, run,
};
