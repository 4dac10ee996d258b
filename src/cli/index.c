/* index.c - pmn index: archives kept in a database beside their games, so
 * that questions about them are answered from it, not by reading them all.
 *
 *   pmn index build DB FILE...   a new index of the games of FILEs
 *   pmn index add DB FILE...     more games into it
 *   pmn index info DB            what it holds
 *   pmn index select DB [CRITERIA]   the games that meet criteria, as select
 *   pmn index explore DB --reaches POSITION   the moves played from a position
 *
 * Every game is read as pmn select reads it (archive.c), and stored
 * (store.c) with its tags, what checking found, its rules, start and plies,
 * its text as read, and the key of every position its main line reaches.
 *
 * The keys of positions, and how an index is read, are lookup.c's. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "progress.h"
#include "records.h"
#include "archive.h"
#include "criteria.h"
#include "store.h"
#include "lookup.h"
#include "explorer.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Positions held before the games they are of are written, with them,
 * in one transaction (a segment of the index; --batch): held as they are
 * written, about 5 bytes each, so that a build of any size takes about 10
 * MB for them; an interrupted build keeps the batches before it, each
 * whole. */
#define BATCH_POSITIONS (2ul << 20)


struct index_request {
    unsigned long top;        /* explore: games listed */
    int count_only;           /* select -c */
    unsigned long batch;      /* build, add: positions a transaction */
};

/* The games an add counts into the explorer's positions one by one, at
 * most (8 bytes each held meanwhile); past them, the positions are made
 * anew from every game, which is then as quick. */
#define MAX_ADDED_IDS (1u << 20)

/* Notes of games held already, said at most: the rest are counted. */
#define MAX_HELD_NOTES 20

/* 128 bits of a game's pieces (the digest of the same game), eight bytes
 * a step in two lanes, each piece's length after it; its bytes read as
 * little-endian words, so that the digest is the same on every machine. */
struct digester {
    uint64_t a, b;
};

static void digest_word(struct digester *d, uint64_t w)
{
    d->a = (d->a ^ w) * 0x9E3779B97F4A7C15ULL;
    d->a ^= d->a >> 29;
    d->b = (d->b + w) * 0xC2B2AE3D27D4EB4FULL;
    d->b ^= d->b >> 32;
}

static void digest_piece(struct digester *d, const void *data, size_t n)
{
    const unsigned char *p = data;
    size_t left = n;
    for (; left >= 8; p += 8, left -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        digest_word(d, w);
    }
    uint64_t w = 0;
    for (size_t i = 0; i < left; i++)
        w |= (uint64_t)p[i] << (8 * i);
    digest_word(d, w);
    digest_word(d, n);
}


/* ---- what the explorer counts of the games added, kept ------------------ */

/* The explorer's refresh counts each game where the positions it keeps
 * stand (the start, the moves most played from it, ...): its first plies,
 * its result and date.  A build keeps them of the games it adds, so that
 * the refresh reads them from here and not from the games' rows (three
 * walks over a million rows).  KEPT_MAX games at most (24 bytes each);
 * a game past them, or not in this shape, is read from its row. */
#define KEPT_PLIES 4
#define KEPT_MAX (4u << 20)

struct kept_game {
    unsigned char plies[KEPT_PLIES];   /* its first (of nplies) */
    uint32_t nplies;
    uint16_t setup;           /* its rules and start: kept.setups[setup] */
    int8_t result;            /* its result in RESULTS, -1 none */
    uint8_t known;            /* kept (else: read its row) */
    char date[11];            /* its Date ("" none) */
};

static const char *const RESULTS[] = { "1-0", "0-1", "1/2-1/2", "*" };

struct kept {
    int64_t first;            /* the id of g[0] */
    struct kept_game *g;
    size_t n, cap;
    struct { char *rules, *start; } setups[64];
    unsigned nsetups;
};

/* Game id (the next after those kept: ids grow) of these rules, start,
 * plies, result and date kept, if it fits. */
static void keep_game(struct kept *k, int64_t id, const char *rules, const char *start,
                      const unsigned char *plies, size_t n, const char *result,
                      const char *date)
{
    if (k->n == 0)
        k->first = id;
    if (id < k->first + (int64_t)k->n || id - k->first >= (int64_t)KEPT_MAX)
        return;
    /* Another writer's games between (ids are not given twice): not kept. */
    size_t at = (size_t)(id - k->first);
    struct kept_game *g = grown(k->g, &k->cap, at, sizeof *g, 65536);
    if (!g)
        return;   /* read from its row instead */
    k->g = g;
    memset(&g[k->n], 0, (at + 1 - k->n) * sizeof *g);
    k->n = at + 1;
    struct kept_game *e = &g[at];
    unsigned s = 0;
    while (s < k->nsetups && (strcmp(k->setups[s].rules, rules) || strcmp(k->setups[s].start, start)))
        s++;
    if (s == k->nsetups) {
        if (s == sizeof k->setups / sizeof *k->setups)
            return;
        if (!(k->setups[s].rules = strdup(rules)) || !(k->setups[s].start = strdup(start))) {
            free(k->setups[s].rules);
            return;
        }
        k->nsetups++;
    }
    e->result = -1;
    for (int r = 0; result && r < 4; r++)
        if (strcmp(result, RESULTS[r]) == 0)
            e->result = (int8_t)r;
    if ((result && e->result < 0) || (date && strlen(date) >= sizeof e->date))
        return;   /* not in the shape kept */
    memcpy(e->plies, plies, n < KEPT_PLIES ? n : KEPT_PLIES);
    e->nplies = (uint32_t)n;
    e->setup = (uint16_t)s;
    snprintf(e->date, sizeof e->date, "%s", date ? date : "");
    e->known = 1;
}

/* Game id as kept into *sg (what store_game_brief gives), *have of its
 * plies there: 1, or 0 when it is not kept. */
static int kept_game(const struct kept *k, int64_t id, struct stored_game *sg, size_t *have)
{
    if (!k || id < k->first || id - k->first >= (int64_t)k->n || !k->g[id - k->first].known)
        return 0;
    const struct kept_game *e = &k->g[id - k->first];
    memset(sg, 0, sizeof *sg);
    sg->id = id;
    sg->rules = k->setups[e->setup].rules;
    sg->start = k->setups[e->setup].start;
    sg->plies = e->plies;
    sg->nplies = e->nplies;
    sg->result = e->result < 0 ? NULL : RESULTS[e->result];
    sg->date = e->date[0] ? e->date : NULL;
    sg->text = "";
    *have = e->nplies < KEPT_PLIES ? e->nplies : KEPT_PLIES;
    return 1;
}

static void kept_free(struct kept *k)
{
    for (unsigned s = 0; s < k->nsetups; s++) {
        free(k->setups[s].rules);
        free(k->setups[s].start);
    }
    free(k->g);
}

/* ---- building ------------------------------------------------------------ */

struct indexer {
    struct archive a;         /* first: archive_file is given the context */
    struct store *st;
    const char *db;
    unsigned long batch;      /* positions a transaction */
    unsigned long added, held, positions;
    int open;                 /* a transaction is open */
    int failed;               /* said: stop */
    unsigned long pending;    /* positions of the games of the transaction */
    int variations;           /* --variations: theirs too */
    int64_t *ids;             /* add: the games added, for the explorer */
    size_t nids, idcap;
    int ids_lost;             /* too many, or no memory: the explorer made anew */
    struct kept kept;         /* of the games added, for the explorer */
    struct diag_sink *sink;
    unsigned char *plies;
    size_t cap;
    uint64_t *keys;           /* a replayed game's positions' (nkeys of the quick pass's) */
    size_t keycap;
    char *text;               /* a game written by pmn (its input not PMN) */
    size_t textlen;
    /* The rules and start of the game before, written. */
    int have_last;
    pmn_rules last_rules;
    pmn_position last_start;
    char spec[1024], start_text[512];
};

/* What the replay of g played: its rules, start and plies. */
static int played_plies(struct indexer *ix, const struct game *g, pmn_rules *r,
                      pmn_position *start, size_t *n)
{
    *n = 0;
    if (g->rec) {
        const pmn_setup *setup = pmn_replay_setup(g->replay);
        const pmn_played_line *line = pmn_replay_main(g->replay);
        *r = setup->rules;
        *start = pmn_replay_result(g->replay)->start;
        if (g->state == GAME_UNKNOWN_RULES || g->state == GAME_BAD_START
            || g->state == GAME_NO_START)
            return 0;
        unsigned char *p = grown(ix->plies, &ix->cap, line->nmoves, 1, 256);
        if (!p)
            return -1;
        ix->plies = p;
        for (size_t i = 0; i < line->nmoves && line->moves[i].replayed; i++)
            ix->plies[(*n)++] = (unsigned char)g->rec->main.moves[i].hole;
        return 0;
    }
    /* The quick pass: Hawalis from its opening, a hole a ply. */
    pmn_rules_init(r, NULL, NULL);
    pmn_position_start(r, start);
    unsigned char *p = grown(ix->plies, &ix->cap, g->nholes, 1, 256);
    if (!p)
        return -1;
    ix->plies = p;
    if (g->nholes)
        memcpy(ix->plies, g->holes, g->nholes);
    *n = g->nholes;
    return 0;
}

/* The same game: its rules, start and plies, and the roster it is known by. */
static void digest(const char *spec, const char *start, const unsigned char *plies, size_t n,
                   const struct game *g, unsigned char out[16])
{
    static const char *const roster[] = { "Event", "Site", "Date", "Round", "South", "North" };
    struct digester d = { 0xCBF29CE484222325ULL, 0x243F6A8885A308D3ULL };
    digest_piece(&d, spec, strlen(spec));
    digest_piece(&d, start, strlen(start));
    digest_piece(&d, plies, n);
    for (int i = 0; i < 6; i++) {
        const char *v = game_tag(g, roster[i]);
        digest_word(&d, v != NULL);   /* a tag missing is not one empty */
        digest_piece(&d, v ? v : "", v ? strlen(v) : 0);
    }
    const char *result = game_result(g);
    digest_word(&d, result != NULL);
    digest_piece(&d, result ? result : "", result ? strlen(result) : 0);
    /* Each lane finished apart (a murmur finaliser), each its 8 bytes. */
    uint64_t h[2] = { d.a, d.b ^ d.a };
    for (int k = 0; k < 2; k++) {
        h[k] ^= h[k] >> 33;
        h[k] *= 0xFF51AFD7ED558CCDULL;
        h[k] ^= h[k] >> 33;
        h[k] *= 0xC4CEB9FE1A85EC53ULL;
        h[k] ^= h[k] >> 33;
        for (int i = 0; i < 8; i++)
            out[8 * k + i] = (unsigned char)(h[k] >> (8 * i));
    }
}

/* Its text: as read (PMN), or written by pmn (XML, another notation). */
static int game_text(struct indexer *ix, const struct game *g, const char **text, size_t *len,
                     int *form)
{
    if (g->text) {
        *text = g->text;
        *len = g->len;
        *form = STORE_TEXT_AS_READ;
        return 0;
    }
    free(ix->text);
    ix->text = NULL;
    ix->textlen = 0;
    FILE *f = open_memstream(&ix->text, &ix->textlen);
    if (!f)
        return -1;
    pmn_write_options o;
    pmn_write_options_init(&o);
    int rc = pmn_write_record(f, g->rec, g->replay, &o);
    if (fclose(f) != 0 || rc < 0)
        return -1;
    while (ix->textlen && ix->text[ix->textlen - 1] == '\n')
        ix->textlen--;
    *text = ix->text;
    *len = ix->textlen;
    *form = STORE_TEXT_WRITTEN;
    return 0;
}

/* A failure of the index said under its name (not the input's). */
static void index_failed(struct indexer *ix, struct diag_sink *s)
{
    const char *file = s->file;
    int hold = s->hold;
    release_diags(s);   /* the game's, under its file's name */
    s->file = ix->db;
    s->hold = 0;
    index_store_failed(s, ix->st);
    s->file = file;
    s->hold = hold;
    ix->failed = 1;
}

/* The games of the transaction, with their positions as a segment. */
static int commit_batch(struct indexer *ix)
{
    if (ix->open && (store_segment_write(ix->st, 0) < 0 || store_segment_write(ix->st, 1) < 0
                     || store_commit(ix->st) < 0)) {
        store_rollback(ix->st);
        index_failed(ix, ix->sink);
        ix->open = 0;
        return -1;
    }
    ix->open = 0;
    ix->pending = 0;
    return 0;
}

/* A position of a variation (its line, not 0) of a game, at its ply; a
 * main line's are posted whole (store_line_postings). */
static int add_posting(struct indexer *ix, uint64_t fp, int64_t game, unsigned line, size_t ply)
{
    assert(line != 0);
    ix->pending++;
    ix->positions++;
    return store_posting(ix->st, 1, fp, game, line, (unsigned)ply);
}

/* --variations: the positions after each ply of each variation the replay
 * played, by the variation's line (the record's lines begun before it)
 * and ply (its first 1).  A game found by one is read from its text, whose
 * replay decides, as for the main line. */
struct walking {
    struct indexer *ix;
    const pmn_rules *r;
    int64_t game;
    long line;                /* the one being walked; -1 none */
    unsigned ply;
    int failed;               /* -2 memory */
};

static int variation_ply(void *ctx, pmn_walk_node *n)
{
    struct walking *w = ctx;
    if (n->in->depth == 0 || !n->before || !n->played->replayed)
        return PMN_WALK_CONTINUE;
    if (n->in->index != w->line) {
        w->line = n->in->index;
        w->ply = 0;
    }
    const pmn_position *p = &n->played->after;
    if (add_posting(w->ix, pmn_position_key(w->r, p, p->to_move), w->game, (unsigned)w->line,
                    ++w->ply) < 0) {
        w->failed = -2;
        return PMN_WALK_ABORT;
    }
    return PMN_WALK_CONTINUE;
}

static int index_variations(struct indexer *ix, const struct game *g, const pmn_rules *r,
                            int64_t id)
{
    static const pmn_walker walker = { NULL, NULL, variation_ply, NULL, NULL, NULL, 0, 1, 0 };
    struct walking w = { .ix = ix, .r = r, .game = id, .line = -1 };
    if (!g->rec)
        return 0;   /* the quick pass: a game without variations */
    if (pmn_walk(g->rec, g->replay, &walker, &w) < 0)
        return -2;
    return w.failed;
}

static int index_game(struct archive *a, struct game *g)
{
    struct indexer *ix = (struct indexer *)a;
    if (ix->failed)
        return 1;   /* the index cannot be written: the files after are not read */
    ix->sink = g->sink;
    pmn_rules r;
    pmn_position start;
    size_t n;
    char codes[1024];
    if (played_plies(ix, g, &r, &start, &n) < 0)
        return -1;
    /* Most games share their rules and start: written once. */
    if (!ix->have_last || memcmp(&r, &ix->last_rules, sizeof r) != 0
        || memcmp(&start, &ix->last_start, sizeof start) != 0) {
        pmn_rules_format(&r, ix->spec, sizeof ix->spec);
        /* The rules' opening, most games' start, is held as "" (60 bytes
         * a Hawalis game less). */
        pmn_position opening;
        pmn_position_start(&r, &opening);
        if (memcmp(&opening, &start, sizeof start) == 0)
            ix->start_text[0] = '\0';
        else
            pmn_position_format(&r, &start, ix->start_text, sizeof ix->start_text);
        ix->last_rules = r;
        ix->last_start = start;
        ix->have_last = 1;
    }
    const char *spec = ix->spec, *start_text = ix->start_text;
    index_codes_text(g, codes, sizeof codes);
    struct stored_game sg = {
        .file = g->file, .number = g->number, .line = g->line, .rules = spec,
        .rule_set = r.name, .start = start_text, .plies = ix->plies, .nplies = n,
        .result = game_result(g), .date = game_tag(g, "Date"), .state = (int)g->state,
        .ending = (int)g->facts.ending, .outcome = (int)g->facts.outcome,
        .moves = g->facts.moves, .codes = codes, .south = game_tag(g, "South"),
        .north = game_tag(g, "North"), .event = game_tag(g, "Event"),
    };
    memcpy(sg.count, g->count, sizeof sg.count);
    if (game_text(ix, g, &sg.text, &sg.len, &sg.text_form) < 0)
        return -1;
    digest(spec, start_text, ix->plies, n, g, sg.digest);
    if (!ix->open && store_begin(ix->st) < 0) {
        index_failed(ix, g->sink);
        return 1;
    }
    ix->open = 1;
    int64_t id;
    int rc = store_add_game(ix->st, &sg, &id);
    if (rc < 0) {
        store_rollback(ix->st);
        ix->open = 0;
        index_failed(ix, g->sink);
        return 1;
    }
    if (rc == 0) {
        if (++ix->held <= MAX_HELD_NOTES) {
            int mute = g->sink->mute;
            g->sink->mute = 0;
            report(g->sink, PMN_N137, g->line, 0, "game %lu is the same game as game %lld of "
                   "the index (the same rules, moves and players): stored once%s", g->number,
                   (long long)id, ix->held == MAX_HELD_NOTES ? " (the next such are counted, "
                   "not said)" : "");
            g->sink->mute = mute;
        }
    } else {
        ix->added++;
        keep_game(&ix->kept, id, spec, start_text, ix->plies, n, sg.result, sg.date);
        if (!ix->ids_lost) {
            int64_t *ids = ix->nids < MAX_ADDED_IDS
                           ? grown(ix->ids, &ix->idcap, ix->nids, sizeof *ids, 1024) : NULL;
            if (ids) {
                ix->ids = ids;
                ix->ids[ix->nids++] = id;
            } else {
                ix->ids_lost = 1;
            }
        }
        /* Every position of the main line, its start the first (as
         * position_at replays them): keyed as the quick pass played them,
         * else replayed. */
        const uint64_t *keys = g->keys;
        size_t nkeys = g->nkeys;
        if (nkeys) {
            assert(!g->rec && nkeys == n + 1);
        } else {
            uint64_t *k = grown(ix->keys, &ix->keycap, n, sizeof *k, 256);
            if (!k)
                return -1;
            ix->keys = k;
            keys = k;
            pmn_position p = start;
            for (;;) {
                k[nkeys++] = pmn_position_key(&r, &p, p.to_move);
                pmn_move_report rep;
                if (nkeys == n + 1 || pmn_play(&r, &p, ix->plies[nkeys - 1], &rep) != 0)
                    break;   /* the replay played it: it cannot be refused */
            }
        }
        if (store_line_postings(ix->st, id, keys, nkeys) < 0)
            return -1;
        ix->pending += nkeys;
        ix->positions += nkeys;
        if (ix->variations && index_variations(ix, g, &r, id) < 0)
            return -1;
    }
    if (ix->pending >= ix->batch && commit_batch(ix) < 0)
        return 1;
    return 0;
}

static int refresh_explorer(struct store *st, const int64_t *ids, size_t nids,
                            const struct kept *kept);

static int build(struct common *c, struct index_request *rq, const char *db, int create)
{
    const char *cmd = c->cmd->name;
    if (c->nfiles < 3)
        return usage_error(cmd, "%s: expected the index and the archives to read (pmn index "
                           "%s DB FILE...)", c->files[0], c->files[0]);
    if (create && store_exists(db) != 0)
        return usage_error(cmd, "%s exists already: add to it with 'pmn index add %s FILE...', "
                           "or remove it first", db, db);
    struct store *st = index_open(c, db, create ? STORE_CREATE : STORE_WRITE);
    if (!st)
        return EXIT_FATAL;
    /* Variations: asked of a build, kept by the index for every add after. */
    int variations = create ? c->criteria.variations : store_has_variations(st);
    if (variations < 0 || (create && variations && store_set_variations(st) < 0)) {
        index_say_failed(c, st, db);
        store_close(st);
        return EXIT_FATAL;
    }
    if (!create && c->criteria.variations && !variations) {
        store_close(st);
        return usage_error(cmd, "add --variations: %s holds the positions of main lines only "
                           "(built without --variations); build a new index with them", db);
    }
    int64_t run;
    if (store_run_start(st, &run) < 0) {
        index_say_failed(c, st, db);
        store_close(st);
        return EXIT_FATAL;
    }
    struct indexer ix = { .st = st, .db = db, .batch = rq->batch, .variations = variations };
    store_segment_size(st, rq->batch);
    ix.a.game = index_game;
    ix.a.ro = &c->ro;
    ix.a.from = c->from;
    ix.a.need_moves = 0;
    ix.a.keys = 1;
    ix.sink = &c->sink;
    /* The games' own problems are kept in the index (select --errors,
     * --code), not said: a site's dump would bury the terminal. */
    c->sink.mute = 1;
    each_input(c->files + 2, c->nfiles - 2, &c->sink, archive_file, &ix);
    c->sink.mute = 0;
    if (!ix.failed)
        commit_batch(&ix);
    /* A new index's digests, indexed once its games are in. */
    if (!ix.failed && store_digest_index(st) < 0) {
        index_say_failed(c, st, db);
        ix.failed = 1;
    }
    /* The explorer's positions brought up to date with the games added. */
    int rf = !ix.failed && ix.added
             ? refresh_explorer(st, create || ix.ids_lost ? NULL : ix.ids, ix.nids, &ix.kept)
             : 0;
    if (rf == -2) {
        c->sink.file = db;
        report(&c->sink, PMN_F002, 0, 0, "out of memory");
    }
    if (rf == -1 || (!rf && !ix.failed && store_run_end(st, run, ix.added) < 0)) {
        index_say_failed(c, st, db);
        ix.failed = 1;
    }
    ix.failed |= rf != 0;
    struct store_counts sc;
    int counted = !ix.failed && store_counts(st, &sc) == 0;
    if (store_close(st) < 0 && !ix.failed) {
        c->sink.file = db;
        report(&c->sink, PMN_F003, 0, 0, "cannot close the index");
        ix.failed = 1;
    }
    if (ix.failed) {
        /* What stopped it is said above: what the index holds now is the
         * games of the transactions committed before, each whole. */
        printf("%s: stopped; it holds the games of the transactions committed before "
               "(pmn index info %s)\n", db, db);
    } else {
        printf("%s: %lu game%s added, %lu already held; %lu positions", db, ix.added,
               ix.added == 1 ? "" : "s", ix.held, ix.positions);
        if (counted)
            printf("; the index holds %llu game%s, %llu positions (%.0f bytes a game)",
                   (unsigned long long)sc.games, sc.games == 1 ? "" : "s",
                   (unsigned long long)(sc.positions + sc.vpositions),
                   sc.games ? (double)sc.bytes / (double)sc.games : 0.0);
        putchar('\n');
    }
    free(ix.plies);
    free(ix.text);
    free(ix.ids);
    free(ix.keys);
    kept_free(&ix.kept);
    return ix.failed || c->sink.count[PMN_FATAL] ? EXIT_FATAL : EXIT_CLEAN;
}

static int say_open_run(void *ctx, const char *started, uint64_t games)
{
    (void)ctx;
    printf("a build or add started %s (UTC) has not ended: interrupted (or still running); "
           "the index holds the %llu game%s of it committed, each whole\n", started,
           (unsigned long long)games, games == 1 ? "" : "s");
    return 0;
}

static int info(struct common *c, const char *db)
{
    struct store *st = index_open(c, db, STORE_READ);
    struct store_counts sc;
    if (!st)
        return EXIT_FATAL;
    if (store_counts(st, &sc) < 0) {
        int rc = index_say_failed(c, st, db);
        store_close(st);
        return rc;
    }
    printf("%s: a pmn archive index, schema version %d\n", db, STORE_VERSION);
    if (store_runs_open(st, say_open_run, c) < 0) {
        int rc = index_say_failed(c, st, db);
        store_close(st);
        return rc;
    }
    store_close(st);
    printf("games      %llu (%llu with errors)\n", (unsigned long long)sc.games,
           (unsigned long long)sc.with_errors);
    printf("positions  %llu (in %llu segment%s)", (unsigned long long)sc.positions,
           (unsigned long long)sc.segments, sc.segments == 1 ? "" : "s");
    if (sc.vpositions)
        printf(", and %llu of variations", (unsigned long long)sc.vpositions);
    putchar('\n');
    printf("bytes      %llu (%.0f a game)\n", (unsigned long long)sc.bytes,
           sc.games ? (double)sc.bytes / (double)sc.games : 0.0);
    return EXIT_CLEAN;
}

/* ---- index explore ------------------------------------------------------- */

#define MAX_MOVES 64
/* A position that at least this many games reach keeps what was played
 * from it in the index (refresh_explorer): asked, it is read, not
 * gathered from its games; a position of fewer is gathered from them, a
 * game each, at once. */
#define EXPLORE_MIN 1000
/* The latest games kept with such a position. */
#define EXPLORE_TOP 20

struct move_stats {
    char name[16];            /* the move, in letters; "" the game ended there */
    int hole;                 /* its hole (of the side to move); -1 the end */
    unsigned long games, wins[3];   /* South, draws, North */
    char first[16], last[16]; /* dates, as the Date tags write them */
};

struct top_game {
    int64_t id;
    char date[16];
};

/* What was played from a position. */
struct explored {
    struct move_stats moves[MAX_MOVES];
    unsigned nmoves;
    unsigned long total, wins[3];
    int side;                 /* to move, where every game agrees; 2: not */
    char rule_set[32];
    struct top_game top[EXPLORE_TOP];
    unsigned long ntop, topmax;
};

/* A result's place in wins[]: South's, a draw, North's; -1 none of them. */
static int result_index(const char *result)
{
    pmn_outcome o;
    if (!result || pmn_outcome_parse(result, &o) < 0)
        return -1;
    return o == PMN_SOUTH_WINS ? 0 : o == PMN_DRAWN ? 1 : o == PMN_NORTH_WINS ? 2 : -1;
}

/* A date to compare: "2009.03.01"; NULL for an unknown one. */
static const char *known_date(const char *d)
{
    return d && d[0] && d[0] != '?' ? d : NULL;
}

static void date_range(struct move_stats *m, const char *date)
{
    const char *d = known_date(date);
    if (!d)
        return;
    if (!m->first[0] || strcmp(d, m->first) < 0)
        snprintf(m->first, sizeof m->first, "%s", d);
    if (!m->last[0] || strcmp(d, m->last) > 0)
        snprintf(m->last, sizeof m->last, "%s", d);
}

static void percent(FILE *f, unsigned long part, unsigned long whole)
{
    if (whole)
        fprintf(f, " %5.1f%%", 100.0 * (double)part / (double)whole);
    else
        fputs("      -", f);
}

/* A game at the position, at its ply there (at: the position): counted. */
static void count_game(struct explored *e, const pmn_rules *r, const struct stored_game *sg,
                       unsigned ply, const pmn_position *at)
{
    char name[16] = "";
    int hole = ply < sg->nplies ? sg->plies[ply] : -1;
    if (hole >= 0)
        pmn_hole_name(r, PMN_NOTATION_LETTERS, at->to_move, hole, name, sizeof name);
    unsigned k = 0;
    while (k < e->nmoves && strcmp(e->moves[k].name, name) != 0)
        k++;
    if (k == e->nmoves && e->nmoves < MAX_MOVES) {
        memset(&e->moves[k], 0, sizeof e->moves[k]);
        snprintf(e->moves[k].name, sizeof e->moves[k].name, "%s", name);
        e->moves[k].hole = hole;
        e->nmoves++;
    }
    int res = result_index(sg->result);
    if (k < e->nmoves) {
        e->moves[k].games++;
        if (res >= 0)
            e->moves[k].wins[res]++;
        date_range(&e->moves[k], sg->date);
    }
    e->total++;
    if (res >= 0)
        e->wins[res]++;
    e->side = e->total == 1 || e->side == at->to_move ? at->to_move : 2;
    snprintf(e->rule_set, sizeof e->rule_set, "%s",
             e->total == 1 || !strcmp(e->rule_set, r->name) ? r->name : "several");
    /* The latest games, the latest first (then the first indexed). */
    const char *d = known_date(sg->date);
    unsigned long slot = e->ntop < e->topmax ? e->ntop++ : e->topmax;
    while (slot > 0 && strcmp(d ? d : "", e->top[slot - 1].date) > 0) {
        if (slot < e->topmax)
            e->top[slot] = e->top[slot - 1];
        slot--;
    }
    if (slot < e->topmax) {
        e->top[slot].id = sg->id;
        snprintf(e->top[slot].date, sizeof e->top[slot].date, "%s", d ? d : "");
    }
}

/* The moves most played first; the game's end ("") last among equals. */
static void sort_moves(struct explored *e)
{
    for (unsigned a = 1; a < e->nmoves; a++)
        for (unsigned b = a; b > 0 && (e->moves[b].games > e->moves[b - 1].games
                                       || (e->moves[b].games == e->moves[b - 1].games
                                           && strcmp(e->moves[b].name, e->moves[b - 1].name) < 0));
             b--) {
            struct move_stats t = e->moves[b];
            e->moves[b] = e->moves[b - 1];
            e->moves[b - 1] = t;
        }
}

/* The position sought: a string as --reaches takes it (text), or a
 * position of the explorer's (node, its board and side: the seeds
 * captured aside). */
struct sought {
    const char *text;
    const struct criteria *c;
    const pmn_rules *node_rules;
    const pmn_position *node;
};

/* A position being gathered: its candidates, what is sought, where its
 * games count, and the rules of the game read last (a rule set's games
 * come one after another: its rules and the position under them, read
 * once). */
struct gathering {
    const struct found *f;
    const struct sought *q;
    struct explored *e;
    char last_spec[1024];
    pmn_rules r;
    pmn_position want;
    int usable;
};

/* A candidate game, replayed to the position from the ply the index names
 * it at, and counted where it stands there (at its first ply there); of
 * its plies, the first `have` are given (kept_game's).  0; 1 when it needs
 * more of them (nothing counted: read its row). */
static int gather_game(struct gathering *g, const struct stored_game *sg, size_t have,
                       unsigned ply)
{
    const struct sought *q = g->q;
    if (strcmp(sg->rules, g->last_spec) != 0) {
        pmn_error err;
        snprintf(g->last_spec, sizeof g->last_spec, "%s", sg->rules);
        g->usable = index_rules_of_spec(sg->rules, &g->r) == 0
                    && (q->text ? pmn_position_parse(&g->r, q->text, &g->want, &err) == 0
                                : g->r.pits == q->node_rules->pits);
        if (g->usable && !q->text)
            g->want = *q->node;
    }
    if (!g->usable)
        return 0;
    /* From the ply the index names, on: a fingerprint shared by another
     * position there may hide the position a ply further. */
    pmn_position at;
    int reached = 0;
    if (ply > have && ply <= sg->nplies)
        return 1;
    if (index_position_at(&g->r, sg, ply, &at) == 0)
        for (;;) {
            reached = q->text ? criteria_same_position(q->c, q->text, &g->r, &g->want, &at)
                              : at.to_move == g->want.to_move
                                && criteria_same_holes(&g->r, &g->want, &at);
            if (ply < sg->nplies && ply >= have)
                return 1;   /* its move there, or the plies on */
            pmn_move_report rep;
            if (reached || ply == sg->nplies || pmn_play(&g->r, &at, sg->plies[ply], &rep) != 0)
                break;
            ply++;
        }
    if (reached)
        count_game(g->e, &g->r, sg, ply, &at);
    /* else: another position of the same fingerprint */
    return 0;
}

/* A candidate of one of several positions. */
struct pick {
    int64_t id;
    unsigned ply;
    size_t which;
};

/* By game, then position: each game read once for all the positions it
 * is a candidate of, and the games in the order they were indexed. */
static int cmp_pick(const void *a, const void *b)
{
    const struct pick *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->which > y->which) - (x->which < y->which);
}

/* The n positions of g gathered at once: their candidates merged and
 * read in one walk over the games' rows (the positions of a level of the
 * explorer share most of their games; read one position after another,
 * each game would be looked up once a position), or from what a build
 * kept of them (NULL: nothing).  0, -1 the store failed, -2 memory. */
static int gather_all(struct store *st, struct gathering *g, size_t n, const struct kept *kept)
{
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
        total += g[k].f->n;
    struct pick *all = total ? malloc(total * sizeof *all) : NULL;
    if (total && !all)
        return -2;
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < g[k].f->n; i++)
            all[m++] = (struct pick){ g[k].f->id[i], g[k].f->ply[i], k };
    if (total)
        qsort(all, total, sizeof *all, cmp_pick);
    int rc = 0, got = 0;
    struct stored_game sg;
    size_t have = 0;
    for (size_t i = 0; i < total && rc == 0; i++) {
        if (i == 0 || all[i].id != all[i - 1].id) {
            got = kept_game(kept, all[i].id, &sg, &have);
            if (!got && (got = store_game_brief(st, all[i].id, &sg)) > 0)
                have = sg.nplies;
        }
        if (got > 0 && gather_game(&g[all[i].which], &sg, have, all[i].ply)) {
            /* Its row, for the plies past those kept. */
            if ((got = store_game_brief(st, all[i].id, &sg)) > 0) {
                have = sg.nplies;
                gather_game(&g[all[i].which], &sg, have, all[i].ply);
            }
        }
        if (got < 0)
            rc = -1;
    }
    store_brief_end(st);
    free(all);
    for (size_t k = 0; k < n; k++)
        sort_moves(g[k].e);
    return rc;
}

/* Each candidate of one position counted where it stands there. */
static int gather(struct store *st, const struct found *f, const struct sought *q,
                  struct explored *e)
{
    struct gathering g = { .f = f, .q = q, .e = e };
    return gather_all(st, &g, 1, NULL);
}

/* What was played from a position, as the explorer keeps it: a line of
 * its totals, one a move, one a game of the latest. */
static char *stats_text(const struct explored *e)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "%d %s %lu %lu %lu %lu\n", e->side, e->rule_set[0] ? e->rule_set : "-", e->total,
            e->wins[0], e->wins[1], e->wins[2]);
    for (unsigned k = 0; k < e->nmoves; k++) {
        const struct move_stats *m = &e->moves[k];
        fprintf(f, "m %s %d %lu %lu %lu %lu %s %s\n", m->name[0] ? m->name : "-", m->hole,
                m->games, m->wins[0], m->wins[1], m->wins[2], m->first[0] ? m->first : "-",
                m->last[0] ? m->last : "-");
    }
    for (unsigned long k = 0; k < e->ntop; k++)
        fprintf(f, "g %lld %s\n", (long long)e->top[k].id, e->top[k].date[0] ? e->top[k].date : "-");
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static void dash_empty(char *s)
{
    if (strcmp(s, "-") == 0)
        s[0] = '\0';
}

/* Back from stats_text: 0, or -1 if it is not of that shape (a damaged
 * index). */
static int stats_read(const char *text, struct explored *e)
{
    memset(e, 0, sizeof *e);
    e->topmax = EXPLORE_TOP;
    const char *line = text;
    int first = 1;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        char buf[256];
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        if (n >= sizeof buf)
            return -1;
        memcpy(buf, line, n);
        buf[n] = '\0';
        line = nl ? nl + 1 : NULL;
        if (first) {
            if (sscanf(buf, "%d %31s %lu %lu %lu %lu", &e->side, e->rule_set, &e->total,
                       &e->wins[0], &e->wins[1], &e->wins[2]) != 6)
                return -1;
            dash_empty(e->rule_set);
            first = 0;
        } else if (buf[0] == 'm' && e->nmoves < MAX_MOVES) {
            struct move_stats *m = &e->moves[e->nmoves];
            memset(m, 0, sizeof *m);
            if (sscanf(buf, "m %15s %d %lu %lu %lu %lu %15s %15s", m->name, &m->hole, &m->games,
                       &m->wins[0], &m->wins[1], &m->wins[2], m->first, m->last) != 8)
                return -1;
            dash_empty(m->name);
            dash_empty(m->first);
            dash_empty(m->last);
            e->nmoves++;
        } else if (buf[0] == 'g' && e->ntop < EXPLORE_TOP) {
            long long id;
            if (sscanf(buf, "g %lld %15s", &id, e->top[e->ntop].date) != 2)
                return -1;
            e->top[e->ntop].id = id;
            dash_empty(e->top[e->ntop].date);
            e->ntop++;
        } else {
            return -1;
        }
    }
    return first ? -1 : 0;
}

/* What the explorer keeps of the position of this exact key, into e: 1;
 * 0 when it keeps none (or not of its shape: then it is gathered from the
 * games instead); -1 the store failed. */
static int read_kept(struct store *st, uint64_t fp, const unsigned char *key, size_t keylen,
                     struct explored *e)
{
    const char *stats;
    int rc = store_explorer_get(st, fp, key, keylen, &stats);
    if (rc <= 0)
        return rc;
    return stats_read(stats, e) == 0;
}

/* The games at p (fingerprint fp: its board and side, under any rule set
 * of its board; the seeds captured aside) gathered into e, made ready by
 * the caller, when the index names at least min of them (else e is left
 * as it is).  0, -1 the store failed, -2 memory. */
static int gather_node(struct store *st, const pmn_rules *r, const pmn_position *p, uint64_t fp,
                       size_t min, struct explored *e)
{
    struct found f = { 0 };
    struct sought q = { .node_rules = r, .node = p };
    int rc = store_at(st, fp, index_found_add, &f) < 0 ? -1
           : f.nomem ? -2 : f.n >= min ? gather(st, &f, &q, e) : 0;
    free(f.id);
    free(f.ply);
    return rc;
}

/* The positions that EXPLORE_MIN games or more reach, found from the
 * starts of the games down the moves played that often: what was played
 * from each, kept (made by a build, brought up to date by each add:
 * refresh_explorer). */
struct queued {
    pmn_rules r;
    pmn_position p;
};

struct refresh {
    struct store *st;
    const struct kept *kept;  /* what the build kept of its games, or NULL */
    struct queued *q;
    size_t n, cap;
    uint64_t *seen;
    size_t nseen, seencap;
    int failed;
};

static int enqueue(struct refresh *rf, const pmn_rules *r, const pmn_position *p)
{
    struct queued *q = grown(rf->q, &rf->cap, rf->n, sizeof *q, 64);
    if (!q)
        return -1;
    rf->q = q;
    rf->q[rf->n].r = *r;
    rf->q[rf->n++].p = *p;
    return 0;
}

static int enqueue_start(void *ctx, const char *spec, const char *start)
{
    struct refresh *rf = ctx;
    pmn_rules r;
    pmn_position p;
    if (index_rules_of_spec(spec, &r) < 0 || index_start(&r, start, &p) < 0)
        return 0;
    if (enqueue(rf, &r, &p) < 0)
        rf->failed = -2;
    return rf->failed != 0;
}

static void keep(struct refresh *rf, const pmn_rules *r, const pmn_position *p, uint64_t fp,
                 const unsigned char *key, size_t keylen, const struct explored *e);

/* A position of the level being gathered. */
struct level_node {
    struct queued item;
    uint64_t fp;
    unsigned char key[KEY_MAX];
    size_t keylen;
    struct found f;
    struct sought q;
    struct explored e;
};

/* The positions of one level of the queue (head up to its end) not seen,
 * their candidates looked up; those of EXPLORE_MIN candidates or more
 * gathered together (gather_all) and kept where EXPLORE_MIN games or more
 * reach them, their moves played that often queued as the next level.
 * Returns where the next level begins. */
static size_t explore_level(struct refresh *rf, size_t head)
{
    struct store *st = rf->st;
    size_t end = rf->n, n = 0;
    struct level_node *node = calloc(end - head, sizeof *node);
    struct gathering *g = calloc(end - head, sizeof *g);
    if (!node || !g)
        rf->failed = -2;
    for (size_t i = head; !rf->failed && i < end; i++) {
        struct level_node *v = &node[n];
        v->item = rf->q[i];
        v->fp = index_exact_key(&v->item.r, &v->item.p, v->key, &v->keylen);
        size_t k = 0;
        while (k < rf->nseen && rf->seen[k] != v->fp)
            k++;
        if (k < rf->nseen)
            continue;   /* a transposition, or another start of the same board */
        uint64_t *seen = grown(rf->seen, &rf->seencap, rf->nseen, sizeof *seen, 64);
        if (!seen) {
            rf->failed = -2;
            break;
        }
        rf->seen = seen;
        rf->seen[rf->nseen++] = v->fp;
        if (store_at(st, v->fp, index_found_add, &v->f) < 0)
            rf->failed = -1;
        else if (v->f.nomem)
            rf->failed = -2;
        else if (v->f.n < EXPLORE_MIN) {
            free(v->f.id);
            free(v->f.ply);
            memset(&v->f, 0, sizeof v->f);
            continue;   /* too few to keep */
        }
        v->q = (struct sought){ .node_rules = &v->item.r, .node = &v->item.p };
        v->e.topmax = EXPLORE_TOP;
        g[n] = (struct gathering){ .f = &v->f, .q = &v->q, .e = &v->e };
        n++;
    }
    int rc = rf->failed ? 0 : gather_all(st, g, n, rf->kept);
    if (rc < 0)
        rf->failed = rc;
    for (size_t k = 0; k < n && !rf->failed; k++)
        if (node[k].e.total >= EXPLORE_MIN)
            keep(rf, &node[k].item.r, &node[k].item.p, node[k].fp, node[k].key,
                 node[k].keylen, &node[k].e);
    for (size_t k = 0; node && k <= n && k < end - head; k++) {
        free(node[k].f.id);
        free(node[k].f.ply);
    }
    free(node);
    free(g);
    return end;
}

/* The BFS of the queue, a level at a time. */
static void explore_queue(struct refresh *rf)
{
    for (size_t head = 0; !rf->failed && head < rf->n;)
        head = explore_level(rf, head);
}

/* A kept position: written, and its moves played EXPLORE_MIN times or
 * more queued. */
static void keep(struct refresh *rf, const pmn_rules *r, const pmn_position *p, uint64_t fp,
                 const unsigned char *key, size_t keylen, const struct explored *e)
{
    char *text = stats_text(e);
    if (!text)
        rf->failed = -2;
    else if (store_explorer_put(rf->st, fp, key, keylen, e->total, text) < 0)
        rf->failed = -1;
    free(text);
    for (unsigned m = 0; !rf->failed && m < e->nmoves; m++) {
        pmn_position child = *p;
        pmn_move_report rep;
        if (e->moves[m].games >= EXPLORE_MIN && e->moves[m].hole >= 0
            && pmn_play(r, &child, e->moves[m].hole, &rep) == 0 && enqueue(rf, r, &child) < 0)
            rf->failed = -2;
    }
}

/* ---- the games added, counted where the explorer keeps positions ---- */

/* A position the explorer keeps: its key, and (once a game added reaches
 * it) what it holds, with the games added counted in. */
struct held {
    uint64_t fp;
    unsigned char key[KEY_MAX];
    size_t len;
    struct explored *e;
    pmn_rules r;
    pmn_position p;
};

struct holding {
    struct held *h;
    size_t n, cap;
};

static int hold_key(void *ctx, uint64_t fp, const unsigned char *key, size_t len)
{
    struct holding *hd = ctx;
    struct held *h = grown(hd->h, &hd->cap, hd->n, sizeof *h, 64);
    if (!h || len > KEY_MAX)
        return 1;
    hd->h = h;
    memset(&h[hd->n], 0, sizeof *h);
    h[hd->n].fp = fp;
    memcpy(h[hd->n].key, key, len);
    h[hd->n++].len = len;
    return 0;
}

static int cmp_held(const void *a, const void *b)
{
    const struct held *x = a, *y = b;
    if (x->fp != y->fp)
        return x->fp < y->fp ? -1 : 1;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return memcmp(x->key, y->key, x->len);
}

/* Count each game added where it reaches a kept position (at its first
 * ply there, as gather() counts), and queue what may now be kept too:
 * the moves from a kept position played EXPLORE_MIN times or more whose
 * position is not kept, and the starts.  0, -1, -2. */
static int count_added(struct refresh *rf, const int64_t *ids, size_t nids)
{
    struct store *st = rf->st;
    struct holding hd = { 0 };
    int rc = store_explorer_keys(st, hold_key, &hd);
    if (rc < 0) {
        free(hd.h);
        return rc == -2 ? -2 : -1;
    }
    qsort(hd.h, hd.n, sizeof *hd.h, cmp_held);
    char last_spec[1024] = "";
    pmn_rules r;
    int usable = 0;
    size_t *counted = hd.n ? malloc(hd.n * sizeof *counted) : NULL;
    if (hd.n && !counted)
        rc = -2;
    for (size_t i = 0; !rc && hd.n && i < nids; i++) {
        struct stored_game sg;
        int got = store_game_brief(st, ids[i], &sg);
        if (got < 0)
            rc = -1;
        if (got <= 0)
            continue;
        if (strcmp(sg.rules, last_spec) != 0) {
            snprintf(last_spec, sizeof last_spec, "%s", sg.rules);
            usable = index_rules_of_spec(sg.rules, &r) == 0;
        }
        pmn_position p;
        if (!usable || index_start(&r, sg.start, &p) < 0)
            continue;
        size_t ncounted = 0;
        for (unsigned ply = 0; !rc; ply++) {
            struct held want;
            want.fp = index_exact_key(&r, &p, want.key, &want.len);
            struct held *h = bsearch(&want, hd.h, hd.n, sizeof *hd.h, cmp_held);
            size_t k = h ? (size_t)(h - hd.h) : 0, c = 0;
            while (h && c < ncounted && counted[c] != k)
                c++;
            if (h && c == ncounted) {
                counted[ncounted++] = k;
                if (!h->e) {
                    if (!(h->e = malloc(sizeof *h->e))) {
                        rc = -2;
                        break;
                    }
                    int got_stats = read_kept(st, h->fp, h->key, h->len, h->e);
                    if (got_stats < 0) {
                        rc = -1;
                        break;
                    }
                    if (got_stats == 0) {
                        /* Not of its shape: made anew from its games. */
                        memset(h->e, 0, sizeof *h->e);
                        h->e->total = 0;
                        h->e->side = -1;
                    }
                    h->r = r;
                    h->p = p;
                }
                if (h->e->side >= 0)
                    count_game(h->e, &r, &sg, ply, &p);
            }
            pmn_move_report rep;
            if (ply == sg.nplies || pmn_play(&r, &p, sg.plies[ply], &rep) != 0)
                break;
        }
    }
    store_brief_end(st);
    free(counted);
    /* Written, and what they lead to queued; one that could not be read
     * gathered anew. */
    for (size_t k = 0; !rc && k < hd.n; k++) {
        struct held *h = &hd.h[k];
        if (!h->e)
            continue;
        if (h->e->side < 0) {
            if (enqueue(rf, &h->r, &h->p) < 0)
                rc = -2;
            continue;
        }
        sort_moves(h->e);
        keep(rf, &h->r, &h->p, h->fp, h->key, h->len, h->e);
        rc = rf->failed;
    }
    /* The kept ones are not gathered again (seen). */
    for (size_t k = 0; !rc && k < hd.n; k++) {
        if (hd.h[k].e && hd.h[k].e->side < 0)
            continue;
        uint64_t *seen = grown(rf->seen, &rf->seencap, rf->nseen, sizeof *seen, 64);
        if (!seen)
            rc = -2;
        else {
            rf->seen = seen;
            rf->seen[rf->nseen++] = hd.h[k].fp;
        }
    }
    for (size_t k = 0; k < hd.n; k++)
        free(hd.h[k].e);
    free(hd.h);
    return rc;
}

/* The explorer's positions brought up to date with the games added (ids,
 * nids of them; NULL: not known).  Counted in where it keeps them, when
 * it accounts for every game but those (meta explorer_games) and they are
 * few beside the rest; else made anew from every game.  0, -1, -2. */
static int refresh_explorer(struct store *st, const int64_t *ids, size_t nids,
                            const struct kept *kept)
{
    struct refresh rf = { .st = st, .kept = kept };
    struct store_counts sc;
    char held[32];
    int have = 0;
    if (store_begin(st) < 0
        || (have = store_meta_get(st, "explorer_games", held, sizeof held)) < 0
        || store_games(st, &sc.games) < 0)
        rf.failed = -1;
    int incremental = !rf.failed && ids && have == 1
                      && strtoull(held, NULL, 10) + nids == sc.games && nids <= sc.games / 4;
    if (!rf.failed && !incremental && store_explorer_clear(st) < 0)
        rf.failed = -1;
    if (!rf.failed && incremental)
        rf.failed = count_added(&rf, ids, nids);
    if (!rf.failed && store_each_start(st, enqueue_start, &rf) < 0)
        rf.failed = -1;
    if (!rf.failed)
        explore_queue(&rf);
    snprintf(held, sizeof held, "%llu", (unsigned long long)sc.games);
    if (!rf.failed && store_meta_set(st, "explorer_games", held) < 0)
        rf.failed = -1;
    if (!rf.failed && store_commit(st) < 0)
        rf.failed = -1;
    if (rf.failed)
        store_rollback(st);
    free(rf.q);
    free(rf.seen);
    return rf.failed;
}
/* Where the explorer keeps the position text reaches (one board and side
 * under the rule sets held, the seeds captured not asked): 1 with *e, 0 if
 * it keeps none, -1 on failure. */
struct keyer {
    const char *text;
    unsigned char key[KEY_MAX];
    size_t len;
    uint64_t fp;
    int boards;               /* 0 none, 1 one, 2 several */
};

static int key_under(void *ctx, const char *spec, const char *start)
{
    (void)start;
    struct keyer *k = ctx;
    pmn_rules r;
    pmn_position p;
    pmn_error err;
    unsigned char key[KEY_MAX];
    size_t len;
    if (index_rules_of_spec(spec, &r) < 0 || pmn_position_parse(&r, k->text, &p, &err) < 0)
        return 0;
    uint64_t fp = index_exact_key(&r, &p, key, &len);
    if (k->boards == 0) {
        memcpy(k->key, key, len);
        k->len = len;
        k->fp = fp;
        k->boards = 1;
    } else if (len != k->len || memcmp(key, k->key, len) != 0) {
        k->boards = 2;
    }
    return k->boards == 2;
}

static int kept_position(struct store *st, const char *text, const struct criteria *c,
                         struct explored *e)
{
    if (c->any_side || (criteria_gives_captured(text) && !c->ignore_captured))
        return 0;   /* a question the explorer's boards do not answer */
    struct keyer k = { .text = text };
    if (store_each_start(st, key_under, &k) < 0)
        return -1;
    if (k.boards != 1)
        return 0;   /* none, or boards of several sizes: gathered */
    return read_kept(st, k.fp, k.key, k.len, e);
}

/* The score of the side to move of a move's games (a win 1, a draw one
 * half): -1 if none ended, or the side differs between them. */
static double move_score(const struct explored *e, const struct move_stats *m)
{
    unsigned long decided = m->wins[0] + m->wins[1] + m->wins[2];
    if (!decided || e->side >= 2)
        return -1;
    return ((double)m->wins[e->side == 0 ? 0 : 2] + 0.5 * (double)m->wins[1]) / (double)decided;
}

/* A move's fields in JSON (explore's lines, html's panel). */
static void json_move(FILE *out, const struct explored *e, const struct move_stats *m)
{
    fputs("\"move\":", out);
    json_or_null(out, m->name[0] ? m->name : NULL);
    fprintf(out, ",\"games\":%lu,\"south\":%lu,\"draws\":%lu,\"north\":%lu,\"score\":",
            m->games, m->wins[0], m->wins[1], m->wins[2]);
    double score = move_score(e, m);
    if (score >= 0)
        fprintf(out, "%.4f", score);
    else
        fputs("null", out);
    fputs(",\"first\":", out);
    json_or_null(out, m->first[0] ? m->first : NULL);
    fputs(",\"last\":", out);
    json_or_null(out, m->last[0] ? m->last : NULL);
}

/* A game's fields in JSON. */
static void json_game(FILE *out, const struct stored_game *sg)
{
    fputs("\"file\":", out);
    json_string(out, sg->file);
    fprintf(out, ",\"game\":%lu,\"line\":%llu,\"south\":", sg->number, sg->line);
    json_or_null(out, sg->south);
    fputs(",\"north\":", out);
    json_or_null(out, sg->north);
    fputs(",\"result\":", out);
    json_or_null(out, sg->result);
    fputs(",\"date\":", out);
    json_or_null(out, known_date(sg->date));
    fputs(",\"event\":", out);
    json_or_null(out, sg->event);
}

static void print_explored(struct common *c, struct store *st, const struct explored *e,
                           const char *pos, unsigned long top)
{
    FILE *out = c->out.f;
    int json = c->out_format == OUT_JSONL;
    if (json) {
        fputs("{\"type\":\"position\",\"position\":", out);
        json_string(out, pos);
        fprintf(out, ",\"rule_set\":");
        json_or_null(out, e->total ? e->rule_set : NULL);
        fprintf(out, ",\"games\":%lu,\"south\":%lu,\"draws\":%lu,\"north\":%lu}\n", e->total,
                e->wins[0], e->wins[1], e->wins[2]);
    } else {
        fprintf(out, "%s: %lu game%s", pos, e->total, e->total == 1 ? "" : "s");
        if (e->total)
            fprintf(out, " (%s)", e->rule_set);
        fputc('\n', out);
        if (e->nmoves)
            fprintf(out, "%-6s %7s %6s %6s %6s %6s  %-10s  %s\n", "move", "games", "South",
                    "draws", "North", "score", "first", "last");
    }
    for (unsigned k = 0; k < e->nmoves; k++) {
        const struct move_stats *m = &e->moves[k];
        unsigned long decided = m->wins[0] + m->wins[1] + m->wins[2];
        if (json) {
            fputs("{\"type\":\"move\",", out);
            json_move(out, e, m);
            fputs("}\n", out);
        } else {
            fprintf(out, "%-6s %7lu", m->name[0] ? m->name : "(end)", m->games);
            percent(out, m->wins[0], decided);
            percent(out, m->wins[1], decided);
            percent(out, m->wins[2], decided);
            if (move_score(e, m) >= 0)
                percent(out, (unsigned long)(2 * m->wins[e->side == 0 ? 0 : 2] + m->wins[1]),
                        2 * decided);
            else
                fputs("      -", out);
            fprintf(out, "  %-10s  %s\n", m->first[0] ? m->first : "-",
                    m->last[0] ? m->last : "-");
        }
    }
    unsigned long ntop = e->ntop < top ? e->ntop : top;
    if (ntop && !json)
        fprintf(out, "The latest games:\n");
    for (unsigned long k = 0; k < ntop; k++) {
        struct stored_game sg;
        if (store_game(st, e->top[k].id, 0, &sg) <= 0)
            continue;
        if (json) {
            fputs("{\"type\":\"game\",", out);
            json_game(out, &sg);
            fputs("}\n", out);
        } else {
            char b[3][256];
            fprintf(out, "  %-10s  %s - %s  %s", known_date(sg.date) ? sg.date : "?",
                    escaped(sg.south ? sg.south : "?", b[0], sizeof b[0]),
                    escaped(sg.north ? sg.north : "?", b[1], sizeof b[1]),
                    sg.result ? sg.result : "*");
            if (sg.event && strcmp(sg.event, "?") != 0)
                fprintf(out, "  %s", escaped(sg.event, b[2], sizeof b[2]));
            fprintf(out, "  (%s:%llu)\n", sg.file, sg.line);
        }
    }
}

/* What was played from p (its board and side to move, under any rule set
 * of its board; the seeds captured aside), into e: read where the index
 * keeps it, else gathered from its games, the latest `top` of them.  0,
 * -1 the store failed, -2 memory. */
static int explore_node(struct store *st, const pmn_rules *r, const pmn_position *p,
                        unsigned long top, struct explored *e)
{
    unsigned char key[KEY_MAX];
    size_t keylen;
    uint64_t fp = index_exact_key(r, p, key, &keylen);
    int kept = top <= EXPLORE_TOP ? read_kept(st, fp, key, keylen, e) : 0;
    if (kept != 0)
        return kept < 0 ? -1 : 0;
    memset(e, 0, sizeof *e);
    e->topmax = top < EXPLORE_TOP ? top : EXPLORE_TOP;
    return gather_node(st, r, p, fp, 0, e);
}

int index_explore_json(struct store *st, const pmn_rules *r, const pmn_position *p,
                       unsigned long top, FILE *out)
{
    struct explored *e = malloc(sizeof *e);
    if (!e)
        return -2;
    int rc = explore_node(st, r, p, top, e);
    if (rc == 0) {
        fprintf(out, "{\"games\":%lu,\"south\":%lu,\"draws\":%lu,\"north\":%lu,\"moves\":[",
                e->total, e->wins[0], e->wins[1], e->wins[2]);
        for (unsigned k = 0; k < e->nmoves; k++) {
            fputs(k ? ",{" : "{", out);
            json_move(out, e, &e->moves[k]);
            fputc('}', out);
        }
        fputs("],\"latest\":[", out);
        unsigned long ntop = e->ntop < top ? e->ntop : top, written = 0;
        for (unsigned long k = 0; k < ntop && rc == 0; k++) {
            struct stored_game sg;
            int got = store_game(st, e->top[k].id, 0, &sg);
            if (got < 0)
                rc = -1;
            else if (got) {
                fputs(written++ ? ",{" : "{", out);
                json_game(out, &sg);
                fputc('}', out);
            }
        }
        fputs("]}", out);
    }
    free(e);
    return rc;
}

/* The one start of the games an index holds. */
struct one_start {
    char spec[1024], start[512];
    int n;
};

static int take_start(void *ctx, const char *spec, const char *start)
{
    struct one_start *o = ctx;
    if (o->n++ == 0) {
        snprintf(o->spec, sizeof o->spec, "%s", spec);
        snprintf(o->start, sizeof o->start, "%s", start);
    }
    return 0;
}

/* Without --reaches: the position after the plies of --opening (none: the
 * start itself) from the start of the index's games, which must have one,
 * as a position string into buf.  0, or the exit status of what stops it
 * (said). */
static int opening_position(struct common *c, struct store *st, const char *db, char *buf,
                            size_t size)
{
    const char *cmd = c->cmd->name;
    struct one_start o = { .n = 0 };
    if (store_each_start(st, take_start, &o) < 0)
        return index_say_failed(c, st, db);
    if (o.n != 1)
        return usage_error(cmd, "explore: the games of %s start from %d positions: name one "
                           "with --reaches", db, o.n);
    pmn_rules r;
    pmn_position p;
    if (index_rules_of_spec(o.spec, &r) < 0 || index_start(&r, o.start, &p) < 0) {
        c->sink.file = db;
        report(&c->sink, PMN_F006, 0, 0, "the index is damaged: its games' start, %s under "
               "the rules %s, cannot be read", o.start[0] ? o.start : "the opening", o.spec);
        return EXIT_FATAL;
    }
    const char (*plies)[4];
    unsigned n = criteria_opening(&c->criteria, &plies);
    for (unsigned i = 0; i < n; i++) {
        int hole = -1;
        for (unsigned h = 0; h < r.pits && hole < 0; h++) {
            char name[16];
            pmn_hole_name(&r, PMN_NOTATION_LETTERS, p.to_move, (int)h, name, sizeof name);
            if (strcmp(name, plies[i]) == 0)
                hole = (int)h;
        }
        pmn_move_report rep;
        if (hole < 0 || pmn_play(&r, &p, hole, &rep) != 0)
            return usage_error(cmd, "explore: --opening's ply %u (%s) is not a legal move of "
                               "%s there", i + 1, plies[i], pmn_side_name(p.to_move));
    }
    pmn_position_format(&r, &p, buf, size);
    return 0;
}

static int explore(struct common *c, struct index_request *rq, const char *db)
{
    const char *cmd = c->cmd->name;
    const char *pos = criteria_position(&c->criteria);
    if (c->nfiles != 2)
        return usage_error(cmd, "explore: expected the index alone (pmn index explore DB "
                           "[--reaches POSITION | --opening MOVES])");
    const char (*plies)[4];
    unsigned asked = (pos != NULL) + (criteria_opening(&c->criteria, &plies) > 0);
    if (c->criteria.variations)
        return usage_error(cmd, "explore counts the moves of main lines: --variations is "
                           "pmn index select's");
    if (c->criteria.invert || c->criteria.n != asked || (pos && asked > 1))
        return usage_error(cmd, "explore takes a position (--reaches, with --any-side or "
                           "--ignore-captured) or --opening, no other criterion: the games "
                           "it counts are every game there (pmn index select takes the rest)");
    struct store *st = index_open(c, db, STORE_READ);
    if (!st)
        return EXIT_FATAL;
    char from_opening[512];
    if (!pos) {
        int rc = opening_position(c, st, db, from_opening, sizeof from_opening);
        if (rc) {
            store_close(st);
            return rc;
        }
        pos = from_opening;
    }
    struct explored *e = calloc(1, sizeof *e);
    if (!e) {
        store_close(st);
        report(&c->sink, PMN_F002, 0, 0, "out of memory");
        return EXIT_FATAL;
    }
    int status = EXIT_CLEAN;
    int kept = rq->top <= EXPLORE_TOP ? kept_position(st, pos, &c->criteria, e) : 0;
    if (kept < 0) {
        status = index_say_failed(c, st, db);
    } else if (!kept) {
        struct found f = { 0 };
        int rc = index_candidates(st, pos, c->criteria.any_side, 0, &f);
        struct sought q = { .text = pos, .c = &c->criteria };
        memset(e, 0, sizeof *e);
        e->topmax = rq->top < EXPLORE_TOP ? rq->top : EXPLORE_TOP;
        if (rc == 0 && !f.nomem)
            rc = gather(st, &f, &q, e);
        if (rc == -2 || f.nomem)
            status = (report(&c->sink, PMN_F002, 0, 0, "out of memory"), EXIT_FATAL);
        else if (rc < 0)
            status = index_say_failed(c, st, db);
        free(f.id);
        free(f.ply);
    }
    if (status == EXIT_CLEAN)
        print_explored(c, st, e, pos, rq->top);
    free(e);
    store_close(st);
    return status;
}

/* ---- the command --------------------------------------------------------- */

static const struct cli_bounds top_bounds = { 0, 1000, "a number of games", 0 },
    batch_bounds = { 1, 1e9, "a number of positions", 0 };

static const struct cli_option options[] = {
    OPT_CRITERIA,
    OPT_OUTPUT_FORMAT,
    { "count", 'c', NULL, "select: write only the number of games selected",
      FLAG_AT(struct index_request, count_only), NULL, 0 },
    { "top", 'T' + 256, "N", "explore: the latest N games at the position (default\n5)",
      ULONG_AT(struct index_request, top), &top_bounds, 0 },
    { "batch", 'B' + 256, "N", "build, add: games written a transaction, up to N\n"
      "positions of them (default 2097152; about 5 bytes\neach held meanwhile)",
      ULONG_AT(struct index_request, batch), &batch_bounds, 0 },
    OPT_NOTATION,
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_OUTPUT,
    OPT_QUIET_PROGRESS,
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct index_request *rq = ctx;
    (void)c;
    rq->top = 5;
    rq->batch = BATCH_POSITIONS;
}

static int run(struct common *c, void *ctx)
{
    struct index_request *rq = ctx;
    const char *cmd = c->cmd->name;
    if (c->nfiles < 2)
        return usage_error(cmd, "expected an action and an index (pmn index build|add|info|"
                           "select|explore DB ...)");
    const char *what = c->files[0], *db = c->files[1];
    if (strcmp(what, "build") == 0 || strcmp(what, "add") == 0)
        return build(c, rq, db, strcmp(what, "build") == 0);
    if (strcmp(what, "info") == 0) {
        if (c->nfiles != 2)
            return usage_error(cmd, "info: expected the index alone");
        return info(c, db);
    }
    if (strcmp(what, "select") == 0) {
        if (c->nfiles != 2)
            return usage_error(cmd, "select: expected the index alone (pmn index select DB "
                               "[CRITERIA])");
        return select_index(c, db, rq->count_only);   /* pmn select --index DB */
    }
    if (strcmp(what, "explore") == 0)
        return explore(c, rq, db);
    return usage_error(cmd, "unknown action '%s' (build, add, info, select, explore)", what);
}

const struct command index_command = {
    "index", "keep archives in a database: search them and explore their openings at once",
    "build DB FILE...\nadd DB FILE...\ninfo DB\nselect DB [CRITERIA] [--format FORMAT]\n"
    "explore DB [--reaches POSITION | --opening MOVES]",
    "An index of archives: an SQLite database (DB, a file) or a PostgreSQL one\n"
    "(DB a URI: postgresql://[USER@][HOST][:PORT]/NAME[?host=SOCKETS...]) that\n"
    "holds each game of the archives read -- its tags, what checking it found,\n"
    "its text as read -- and every position its main line reaches, so that\n"
    "questions about the games are answered from it instead of by reading\n"
    "every game; both answer the same.  'build' makes a\n"
    "new index of the games of FILEs (any format pmn reads); 'add' reads more\n"
    "into it (a game it holds already -- the same rules, moves and players -- is\n"
    "stored once, said by a note); both write batches of whole games, so that\n"
    "an index interrupted holds whole games only.  'info' says what it holds.\n"
    "'select' writes the games that meet the criteria, as pmn select does: a\n"
    "position (--reaches) is looked up, each game found replayed to it and\n"
    "compared, the other criteria as select takes them; the games are written\n"
    "as they were read.  'explore' says, for a position (--reaches; or after\n"
    "the plies of --opening from the games' start; or that start), each move\n"
    "played from it: in how many games, how they ended (South wins, draws,\n"
    "North wins), the score of the side to move, the first and last date; then\n"
    "the latest games.",
    options,
    "Exit status: 0; 3 if an input, or the index, cannot be read or written\n"
    "(F006: a file or database that is not a pmn index, one of a later schema,\n"
    "a damaged one; F001: a server that cannot be reached); 64 a wrong command\n"
    "line.",
    sizeof(struct index_request), CMD_OUTPUT | CMD_PROGRESS | CMD_NOTES, init, NULL, run,
};
