/* lookup.c - an archive index read: the key of a position and where the
 * index holds it, the games it finds replayed to it, and the games of an
 * index read as an archive (lookup.h).  pmn index builds what this reads
 * (index.c); select and stats read their games through it.
 *
 * The key of a position is exact: the holes a side, the side to move, each
 * hole's seeds -- what --reaches compares, but the seeds captured, which
 * the replay compares.  The index holds a fingerprint of it (64 bits, of
 * which a segment keeps 16 to 40), which two positions may share; so a
 * game the index finds at a position is replayed from its stored start
 * and plies to that ply and compared whole before it is taken.  No answer
 * holds a game that does not reach the position, and none leaves out one
 * that does: the fingerprint of its key is among the game's rows. */
#include "cli.h"
#include "command.h"
#include "io.h"
#include "records.h"
#include "archive.h"
#include "criteria.h"
#include "store.h"
#include "lookup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- positions ----------------------------------------------------------- */

/* The rules of a spec the index holds (pmn_rules_format's: a rule file's
 * set, whose name pmn does not know, has every option spelled out). */
int index_rules_of_spec(const char *spec, pmn_rules *r)
{
    pmn_error err;
    if (pmn_rules_init(r, spec, &err) == 0)
        return 0;
    const char *comma = strchr(spec, ',');
    if (!comma || pmn_rules_init(r, comma + 1, &err) < 0)
        return -1;
    size_t n = (size_t)(comma - spec);
    if (n >= sizeof r->name)
        n = sizeof r->name - 1;
    memcpy(r->name, spec, n);
    r->name[n] = '\0';
    return 0;
}

int index_start(const pmn_rules *r, const char *start, pmn_position *p)
{
    pmn_error err;
    if (!start[0]) {
        pmn_position_start(r, p);   /* the rules' opening, held as "" */
        return 0;
    }
    return pmn_position_parse(r, start, p, &err) < 0 ? -1 : 0;
}

int index_position_at(const pmn_rules *r, const struct stored_game *sg, unsigned ply,
                       pmn_position *p)
{
    if (ply > sg->nplies || index_start(r, sg->start, p) < 0)
        return -1;
    for (unsigned i = 0; i < ply; i++) {
        pmn_move_report rep;
        if (pmn_play(r, p, sg->plies[i], &rep) != 0)
            return -1;
    }
    return 0;
}

void index_store_failed(struct diag_sink *s, struct store *st)
{
    int code;
    const char *why = store_error(st, &code);
    int mute = s->mute;
    s->mute = 0;
    report(s, code ? (pmn_diag_code)code : PMN_F006, 0, 0, "%s", why);
    s->mute = mute;
}

/* ---- reading ------------------------------------------------------------- */

struct store *index_open(struct common *c, const char *db, enum store_mode mode)
{
    struct store *st = store_open(db, mode);
    if (!st) {
        int code;
        const char *why = store_open_error(&code);
        c->sink.file = db;
        report(&c->sink, (pmn_diag_code)code, 0, 0, "%s", why);
    }
    return st;
}

int index_say_failed(struct common *c, struct store *st, const char *db)
{
    c->sink.file = db;
    index_store_failed(&c->sink, st);
    return EXIT_FATAL;
}

int index_found_add(void *ctx, int64_t game, unsigned ply)
{
    struct found *f = ctx;
    if (f->n && f->id[f->n - 1] == game)
        return 0;   /* a later ply of the same game (rows come in order) */
    size_t cap = f->cap;
    int64_t *id = grown(f->id, &cap, f->n, sizeof *id, 256);
    if (id)
        f->id = id;
    unsigned *p = id ? grown(f->ply, &f->cap, f->n, sizeof *p, 256) : NULL;
    if (!id || !p) {
        f->nomem = 1;
        return 1;
    }
    f->ply = p;
    f->id[f->n] = game;
    f->ply[f->n++] = ply;
    return 0;
}

/* A game whose variation holds the fingerprint: a candidate as any (its
 * ply is its main line's, 0: the replay of its text decides). */
static int found_in_variation(void *ctx, int64_t game, unsigned line, unsigned ply)
{
    (void)line;
    (void)ply;
    return index_found_add(ctx, game, 0);
}

/* The position a string names under each rule set the index holds, and
 * the games whose rows carry its fingerprint (both sides' with
 * --any-side).  Candidates only: the replay decides. */
struct lookup {
    struct store *st;
    const char *text;
    int any_side, variations;
    struct found found;
    uint64_t seen[64];        /* fingerprints looked up already */
    unsigned nseen;
    int failed;
};

static int look_up_spec(void *ctx, const char *spec, const char *start)
{
    (void)start;   /* a spec of several starts: its fingerprints looked up once (seen) */
    struct lookup *lk = ctx;
    pmn_rules r;
    pmn_position p;
    pmn_error err;
    if (index_rules_of_spec(spec, &r) < 0 || pmn_position_parse(&r, lk->text, &p, &err) < 0)
        return 0;   /* not a position of these rules */
    for (int side = 0; side < 2; side++) {
        if (!lk->any_side && side != p.to_move)
            continue;
        uint64_t fp = pmn_position_key(&r, &p, side);
        unsigned i = 0;
        while (i < lk->nseen && lk->seen[i] != fp)
            i++;
        if (i < lk->nseen)
            continue;
        if (lk->nseen < 64)
            lk->seen[lk->nseen++] = fp;
        if (store_at(lk->st, fp, index_found_add, &lk->found) < 0
            || (lk->variations && store_at_variations(lk->st, fp, found_in_variation,
                                                      &lk->found) < 0))
            lk->failed = 1;
    }
    return lk->failed || lk->found.nomem;
}

/* A game and the ply the index names it at. */
struct candidate {
    int64_t id;
    unsigned ply;
};

/* By game, then ply: a game kept once, at its first ply named (the replay
 * looks from there on). */
static int cmp_found(const void *a, const void *b)
{
    const struct candidate *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->ply > y->ply) - (x->ply < y->ply);
}

/* The candidates of the games that reach text: ids sorted, each once. */
int index_candidates(struct store *st, const char *text, int any_side, int variations,
                     struct found *out)
{
    struct lookup lk = { .st = st, .text = text, .any_side = any_side, .variations = variations };
    int rc = store_each_start(st, look_up_spec, &lk);
    *out = lk.found;
    if (rc < 0 || lk.failed)
        return -1;
    if (out->nomem)
        return -2;
    /* Several rule sets' rows (and variations') come one after another:
     * merged in order of games, each game once. */
    if (out->n > 1) {
        struct candidate *pairs = malloc(out->n * sizeof *pairs);
        if (!pairs)
            return -2;
        for (size_t i = 0; i < out->n; i++) {
            pairs[i].id = out->id[i];
            pairs[i].ply = out->ply[i];
        }
        qsort(pairs, out->n, sizeof *pairs, cmp_found);
        size_t k = 0;
        for (size_t i = 0; i < out->n; i++)
            if (k == 0 || pairs[i].id != out->id[k - 1]) {
                out->id[k] = pairs[i].id;
                out->ply[k++] = pairs[i].ply;
            }
        out->n = k;
        free(pairs);
    }
    return 0;
}

int index_found_all(void *ctx, int64_t game, unsigned ply)
{
    (void)ply;
    return index_found_add(ctx, game, 0);
}

/* ---- reading the games of an index as an archive ------------------------ */

/* archive_file over one stored game's text, for the command's archive
 * inner: each game handed on as it was read -- its file, line, number. */
struct relay {
    struct archive a;         /* first: archive_file is given the context */
    struct archive *inner;
    const struct stored_game *sg;
};

void index_codes_text(const struct game *g, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int code = 1; code < MAX_DIAG_CODE && at + 8 < size; code++) {
        if (!g->codes[code / 8]) {
            code |= 7;   /* none of these eight */
            continue;
        }
        if (!game_has_code(g, code))
            continue;
        char name[8];
        pmn_diag_code_name((pmn_diag_code)code, name);
        at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? " " : "", name);
    }
}

/* What checking the game found is what it found where the game was read
 * (its own format's reader said some of it: the text kept is PMN), not
 * what reading the text kept again says: its counts and codes, stored. */
static void stored_findings(const struct stored_game *sg, struct game *g)
{
    memset(g->count, 0, sizeof g->count);
    g->count[PMN_ERROR] = sg->count[PMN_ERROR];
    g->count[PMN_WARNING] = sg->count[PMN_WARNING];
    g->count[PMN_NOTE] = sg->count[PMN_NOTE];
    memset(g->codes, 0, sizeof g->codes);
    for (const char *c = sg->codes; *c;) {
        char *end;
        long code = strtol(c + 1, &end, 10);   /* index_codes_text's "E205 W118" */
        if (end == c + 1)
            break;
        if (code > 0 && code < MAX_DIAG_CODE)
            g->codes[code / 8] |= (unsigned char)(1u << (code % 8));
        c = end + strspn(end, " ");
    }
}

static int relay_game(struct archive *a, struct game *g)
{
    struct relay *rl = (struct relay *)a;
    g->file = rl->sg->file;
    g->line = rl->sg->line;
    g->number = rl->sg->number;
    stored_findings(rl->sg, g);
    return rl->inner->game(rl->inner, g);
}

static void relay_diag(struct archive *a, const pmn_diag *d)
{
    struct relay *rl = (struct relay *)a;
    rl->inner->diag(rl->inner, d);
}

/* Criteria judged from a game's roster as the index keeps it (no text
 * read): the games they may take.  A game without a result written is
 * taken as it is (its result is then what its replay says, which the
 * roster does not hold); the relay judges every game taken again, whole. */
struct roster_filter {
    const struct criteria *c;
    struct found *f;
};

/* The tags a game's row holds (store_each_roster), the result written
 * as its Result. */
static const char *const roster_tags[] = { "South", "North", "Event", "Date", "Result" };
#define NROSTER (sizeof roster_tags / sizeof *roster_tags)

static int roster_game(void *ctx, const struct stored_game *sg)
{
    struct roster_filter *rf = ctx;
    pmn_tag tags[NROSTER];
    size_t n = 0;
    const char *const values[NROSTER] = { sg->south, sg->north, sg->event, sg->date, sg->result };
    for (size_t i = 0; i < NROSTER; i++)
        if (values[i])
            tags[n++] = (pmn_tag){ .name = (char *)roster_tags[i], .value = (char *)values[i] };
    struct game g = {
        .file = "", .number = sg->number, .tags = tags, .ntags = n, .rules = sg->rule_set,
        .state = (enum game_state)sg->state, .text = "",
    };
    g.facts.ending = (pmn_ending)sg->ending;
    g.facts.outcome = (pmn_outcome)sg->outcome;
    g.facts.moves = sg->moves;
    stored_findings(sg, &g);
    if (!sg->result || criteria_match(rf->c, &g))
        return index_found_add(rf->f, sg->id, 0);
    return 0;
}

int index_archive(struct common *c, const char *db, struct archive *a)
{
    struct store *st = index_open(c, db, STORE_READ);
    if (!st)
        return EXIT_FATAL;
    struct found f = { 0 };
    const char *pos = criteria_position(&c->criteria);
    int variations = pos && c->criteria.variations ? store_has_variations(st) : 0;
    if (variations == 0 && pos && c->criteria.variations) {
        store_close(st);
        return usage_error(c->cmd->name, "--variations: %s holds the positions of main lines "
                           "only (built without --variations): pmn select --variations on "
                           "the archives reads them", db);
    }
    struct roster_filter rf = { &c->criteria, &f };
    int rc = variations < 0 ? -1
           : pos ? index_candidates(st, pos, c->criteria.any_side, variations, &f)
           : criteria_from_tags(&c->criteria, roster_tags, NROSTER)
             ? store_each_roster(st, roster_game, &rf)
                 : store_each(st, index_found_all, &f);
    int status = EXIT_CLEAN;
    if (rc == -2 || f.nomem)
        status = (report(&c->sink, PMN_F002, 0, 0, "out of memory"), EXIT_FATAL);
    else if (rc < 0)
        status = index_say_failed(c, st, db);
    /* A game's text is PMN, read whole (its tags as they are: no filter
     * of pieces, which the command's criteria judge anyway).  Its
     * problems were found when it was indexed: not said again. */
    struct relay rl = { .inner = a };
    rl.a = *a;
    rl.a.game = relay_game;
    rl.a.diag = a->diag ? relay_diag : NULL;
    rl.a.ruled_out = NULL;
    rl.a.proved = NULL;
    rl.a.from = FORMAT_PMN;
    struct diag_sink quiet = { .mute = 1, .show_notes = 0, .progress = c->sink.progress };
    for (size_t i = 0; status == EXIT_CLEAN && i < f.n; i++) {
        struct stored_game sg;
        int got = store_game(st, f.id[i], 1, &sg);
        if (got < 0) {
            status = index_say_failed(c, st, db);
            break;
        }
        if (got == 0)
            continue;
        FILE *in = fmemopen((void *)sg.text, sg.len ? sg.len : 1, "r");
        if (!in) {
            status = (report(&c->sink, PMN_F002, 0, 0, "out of memory"), EXIT_FATAL);
            break;
        }
        rl.sg = &sg;
        quiet.file = sg.file;
        archive_file(in, &quiet, &rl);
        fclose(in);
        if (quiet.count[PMN_FATAL])
            status = EXIT_FATAL;
    }
    free(f.id);
    free(f.ply);
    store_close(st);
    return status;
}

uint64_t index_exact_key(const pmn_rules *r, const pmn_position *p, unsigned char *key,
                          size_t *n)
{
    size_t k = 0;
    key[k++] = (unsigned char)r->pits;
    key[k++] = (unsigned char)p->to_move;
    for (int s = 0; s < 2; s++)
        for (unsigned h = 0; h < r->pits; h++) {
            key[k++] = (unsigned char)(p->pit[s][h] & 0xFF);
            key[k++] = (unsigned char)(p->pit[s][h] >> 8);
        }
    *n = k;
    return pmn_position_key(r, p, p->to_move);
}
