/* _helpers.c - the C part of the Python package, compiled into pmn._capi
 * (pmn/_build.py includes it after pmn.h): streams over Python file
 * objects, a game's record and replay freed together, and the reading
 * ahead that lets Python take games while libpmn reads the next ones.
 *
 * Reading ahead.  Python asks for a batch of games at a time
 * (pmnpy_ahead_next); libpmn's checker (pmn_checker_next: what pmn check
 * says of each game) runs on threads of their own meanwhile, since a C
 * call does not hold the GIL.  A PMN input is cut into parts of whole
 * games, about PART_SIZE bytes each, where the reader cuts it
 * (pmn_reader_next_text), as pmn check --jobs cuts it: each part is
 * checked by one of several workers (the cores there are) into a batch,
 * and Python takes the batches in the input's order.  Reading the parts
 * apart gives the games reading the stream does (libpmn's promise for
 * pmn_reader_next_text), and each part's checker is told the lines before
 * it, so that diagnostics keep their places.  Any other input (XML, other
 * programs' notations) is read by one checker on one thread, a game a
 * batch.  Either way each game is a slot: rc 1 a game read, replayed and
 * checked, its record handed over (pmnpy_batch_take; freed by its worker,
 * pmnpy_home); rc 2 a game the quick pass proved clean, as its text and
 * tags (parsed when Python asks: pmnpy_game_read); rc 3 diagnostics of
 * text outside any game; rc 0 the end; rc -1 a read error or no memory.
 * Memory is bounded by the parts in flight (2 a worker, and the one Python
 * reads), not by the input. */

static ssize_t pmnpy_read(void *cookie, char *buf, size_t size);
static void pmnpy_diag(void *ctx, const pmn_diag *d);
static const char *pmnpy_built(void) { return PMNPY_VERSION; }

/* A stream that reads a Python file object (cookie: its handle) through
 * pmnpy_read(), so that a reader takes games one at a time from it. */
static FILE *pmnpy_reading(void *cookie)
{
    cookie_io_functions_t io = { pmnpy_read, NULL, NULL, NULL };
    return fopencookie(cookie, "r", io);
}

static FILE *pmnpy_open(const char *path) { return fopen(path, "rb"); }
static FILE *pmnpy_memory(char **buf, size_t *size) { return open_memstream(buf, size); }
static int pmnpy_close(FILE *f) { return fclose(f); }
static void pmnpy_free(void *p) { free(p); }

/* ---- a game: its record and replay, freed together ---------------------- */

#define PMNPY_MAX_WORKERS 8

struct pmnpy_home;

typedef struct pmnpy_game {
    pmn_record rec;
    pmn_replay *replay;        /* NULL until made (pmnpy_game_replay) */
    /* Where it was read: a record made by a worker is freed by that worker
     * while it runs (pmnpy_home); NULL: freed at once. */
    struct pmnpy_home *home;
    unsigned worker;
    struct pmnpy_game *next;   /* in home's graves */
} pmnpy_game;

/* The workers of one read, as the records they made see them.  A block
 * freed by another thread than the one that allocated it locks that
 * thread's malloc arena against it: Python dropping each game's record as
 * it goes made reading a fifth slower.  So a record Python drops while
 * its worker runs is handed back to it (graves) and freed there.  Held by
 * the read (pmnpy_ahead) and by each record it handed out; freed with the
 * last. */
typedef struct pmnpy_home {
    pthread_mutex_t lock;
    unsigned refs;
    int open;                  /* the workers run: graves are freed by them */
    pmnpy_game *graves[PMNPY_MAX_WORKERS];
} pmnpy_home;

static void pmnpy_game_destroy(pmnpy_game *g);

/* home with one holder fewer: freed with the last. */
static void pmnpy_home_drop(pmnpy_home *h)
{
    pthread_mutex_lock(&h->lock);
    unsigned refs = --h->refs;
    pthread_mutex_unlock(&h->lock);
    if (refs == 0) {
        assert(!h->open);
        pthread_mutex_destroy(&h->lock);
        free(h);
    }
}

/* Worker w's graves freed (by w, or at the end of the read). */
static void pmnpy_home_bury(pmnpy_home *h, unsigned w)
{
    pthread_mutex_lock(&h->lock);
    pmnpy_game *g = h->graves[w];
    h->graves[w] = NULL;
    pthread_mutex_unlock(&h->lock);
    while (g) {
        pmnpy_game *next = g->next;
        pmnpy_game_destroy(g);
        g = next;
    }
}

static void pmnpy_game_destroy(pmnpy_game *g)
{
    pmnpy_home *h = g->home;
    pmn_replay_free(g->replay);
    pmn_record_free(&g->rec);
    free(g);
    if (h)
        pmnpy_home_drop(h);
}

static void pmnpy_game_free(pmnpy_game *g)
{
    if (!g)
        return;
    pmnpy_home *h = g->home;
    if (h) {
        pthread_mutex_lock(&h->lock);
        int open = h->open;
        if (open) {
            g->next = h->graves[g->worker];
            h->graves[g->worker] = g;
        }
        pthread_mutex_unlock(&h->lock);
        if (open)
            return;
    }
    pmnpy_game_destroy(g);
}

/* g's record set up from its tags and replayed; 0, or -1 (no memory). */
static int pmnpy_game_replay(pmnpy_game *g, pmn_diag_fn fn, void *ctx)
{
    pmn_setup setup;
    pmn_setup_record(&g->rec, NULL, &setup, fn, ctx);
    g->replay = pmn_replay_new(&g->rec, &setup, fn, ctx);
    return g->replay ? 0 : -1;
}

/* The one game of text (at line `line` of its file), read and replayed,
 * its diagnostics through fn; NULL when memory runs out. */
static pmnpy_game *pmnpy_game_read(const char *text, size_t len, pmn_at line, pmn_diag_fn fn,
                                   void *ctx)
{
    pmnpy_game *g = calloc(1, sizeof *g);
    FILE *f = g ? fmemopen((void *)text, len, "r") : NULL;
    pmn_reader *rd = f ? pmn_reader_new(f, fn, ctx) : NULL;
    int rc = -1;
    if (rd) {
        pmn_reader_set_lines_before(rd, line ? line - 1 : 0);
        rc = pmn_reader_next(rd, &g->rec);
        pmn_reader_free(rd);
    }
    if (f)
        fclose(f);
    if (rc != 1 || pmnpy_game_replay(g, fn, ctx) != 0) {
        pmnpy_game_free(g);
        return NULL;
    }
    return g;
}

/* ---- batches: games as the checker gives them ---------------------------- */

/* The games of a part (or, read by one checker, of one game), in a few
 * arrays Python takes in one call each: a call from Python, or an object
 * made there, costs more than the C of a game, so Python makes per game
 * only the Game it hands on.  Each game is a slot: six numbers in heads,
 * its tags and text in blob, its diagnostics in dnums and dtext. */
typedef struct pmnpy_batch {
    int64_t n;                 /* slots */
    /* A slot's numbers: rc, main-line moves (as pmn check counts them), the
     * bytes of its tags ("\1name\2value" a tag; -1: none held) and of its text
     * in blob (the one after the other, the slots' in order), the line the
     * game begins at, its diagnostics (the next ones of dnums). */
    int64_t *heads;
    pmnpy_game **games;        /* rc 1: the record, until taken (pmnpy_batch_take) */
    char *blob;
    size_t blen, bcap;
    int64_t *dnums;            /* 4 a diagnostic: code, severity, line, column */
    char *dtext;               /* a diagnostic's name and message, each ended by \0 */
    size_t nd, dcap, dlen, dtcap;
    size_t cap;
    int open;                  /* slot n - 1 is being filled */
    pmnpy_home *home;          /* of a worker's: its read, and the worker */
    unsigned worker;
} pmnpy_batch;

enum { PMNPY_RC, PMNPY_MOVES, PMNPY_NTAGS, PMNPY_LEN, PMNPY_LINE, PMNPY_NDIAGS,
       PMNPY_HEAD };

/* b emptied, its arrays kept for the next games (one checker's). */
static void pmnpy_batch_reset(pmnpy_batch *b)
{
    for (int64_t i = 0; i < b->n; i++)
        pmnpy_game_free(b->games[i]);
    b->n = 0;
    b->blen = b->nd = b->dlen = 0;
    b->open = 0;
}

static void pmnpy_batch_clear(pmnpy_batch *b)
{
    pmnpy_batch_reset(b);
    free(b->heads);
    free(b->games);
    free(b->blob);
    free(b->dnums);
    free(b->dtext);
    memset(b, 0, sizeof *b);
}

/* b's open slot, opened (zeros) if none is; NULL when memory runs out. */
static int64_t *pmnpy_batch_slot(pmnpy_batch *b)
{
    if (b->open)
        return &b->heads[PMNPY_HEAD * (b->n - 1)];
    if ((size_t)b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        int64_t *heads = realloc(b->heads, cap * PMNPY_HEAD * sizeof *heads);
        if (heads)
            b->heads = heads;
        pmnpy_game **games = heads ? realloc(b->games, cap * sizeof *games) : NULL;
        if (!games)
            return NULL;
        b->games = games;
        b->cap = cap;
    }
    int64_t *h = &b->heads[PMNPY_HEAD * b->n];
    memset(h, 0, PMNPY_HEAD * sizeof *h);
    b->games[b->n++] = NULL;
    b->open = 1;
    return h;
}

/* Room for `more` bytes at the end of *buf (*len used of *cap); -1 when
 * memory runs out. */
static int pmnpy_room(char **buf, size_t *cap, size_t len, size_t more)
{
    if (len + more <= *cap)
        return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < len + more)
        c *= 2;
    char *grown = realloc(*buf, c);
    if (!grown)
        return -1;
    *buf = grown;
    *cap = c;
    return 0;
}

/* s copied to at, its end returned; *plain cleared where s holds \1 or
 * \2, which part a tag from the next in Python's Tags. */
static char *pmnpy_put(char *at, const char *s, int *plain)
{
    for (; *s; s++) {
        if ((unsigned char)*s <= 2)
            *plain = 0;
        *at++ = *s;
    }
    return at;
}

/* Where a thread's diagnostics go: the batch it fills, to its open slot. */
struct pmnpy_sink {
    pmnpy_batch *filling;
};

static void pmnpy_collect(void *ctx, const pmn_diag *d)
{
    pmnpy_batch *b = ((struct pmnpy_sink *)ctx)->filling;
    int64_t *h = pmnpy_batch_slot(b);
    char name[8];
    pmn_diag_code_name(d->code, name);
    size_t nlen = strlen(name) + 1, mlen = strlen(d->message) + 1;
    if (!h || pmnpy_room(&b->dtext, &b->dtcap, b->dlen, nlen + mlen) != 0)
        return;   /* (the game itself will say F002) */
    if (b->nd == b->dcap) {
        size_t cap = b->dcap ? 2 * b->dcap : 8;
        int64_t *more = realloc(b->dnums, cap * 4 * sizeof *more);
        if (!more)
            return;
        b->dnums = more;
        b->dcap = cap;
    }
    int64_t *at = &b->dnums[4 * b->nd++];
    at[0] = d->code;
    at[1] = d->severity;
    at[2] = (int64_t)d->line;
    at[3] = (int64_t)d->col;
    memcpy(b->dtext + b->dlen, name, nlen);
    memcpy(b->dtext + b->dlen + nlen, d->message, mlen);
    b->dlen += nlen + mlen;
    h[PMNPY_NDIAGS]++;
}

/* c's next game (or the end: rc 0 or -1) in the open slot of k's batch,
 * which is closed; its rc, or -1 (no memory: no slot, or said in it). */
static int pmnpy_fill(pmn_checker *c, struct pmnpy_sink *k)
{
    pmnpy_batch *b = k->filling;
    if (!pmnpy_batch_slot(b))
        return -1;
    pmn_checked_game g;
    memset(&g, 0, sizeof g);
    int rc = pmn_checker_next(c, &g);
    int64_t *h = &b->heads[PMNPY_HEAD * (b->n - 1)];   /* (where it is now: the
                                                          diagnostics grew no slot) */
    assert(b->open);
    b->open = 0;
    h[PMNPY_RC] = rc;
    if (rc != 1) {
        pmn_checked_game_free(&g);
        return rc;
    }
    h[PMNPY_MOVES] = g.facts.moves;
    b->open = 1;   /* (the game's own diagnostics to its slot) */
    for (size_t i = 0; i < g.ndiags; i++)
        pmnpy_collect(k, &g.diags[i]);
    b->open = 0;
    /* Its tags and text, in one piece. */
    const char *text = NULL;
    size_t n = 0, len = 0;
    pmn_at line = 0;
    for (size_t i = 0; i < g.ntags; i++)
        n += strlen(g.tags[i].name) + strlen(g.tags[i].value) + 2;
    if (g.proved)
        pmn_reader_game_text(pmn_source_pmn(pmn_checker_source(c)), &text, &len, &line);
    int room = pmnpy_room(&b->blob, &b->bcap, b->blen, n + len) == 0, plain = 1;
    if (room) {
        char *at = b->blob + b->blen;
        for (size_t i = 0; i < g.ntags; i++) {
            *at++ = '\1';
            at = pmnpy_put(at, g.tags[i].name, &plain);
            *at++ = '\2';
            at = pmnpy_put(at, g.tags[i].value, &plain);
        }
        if (!plain)   /* (none held: Python's Tags could not find a name) */
            at = b->blob + b->blen, n = 0;
        if (len)
            memcpy(at, text, len);
        b->blen += n + len;
    }
    /* -1: not held (a game proved of another shape, its tags parsed when
     * asked; a record, its tags read from it). */
    h[PMNPY_NTAGS] = (g.proved && !g.tags) || !plain ? -1 : (int64_t)n;
    h[PMNPY_LEN] = (int64_t)len;
    h[PMNPY_LINE] = (int64_t)line;
    pmnpy_game *game = NULL;
    if (g.proved) {
        h[PMNPY_RC] = 2;
    } else if ((game = calloc(1, sizeof *game))) {
        /* The record is the game's now; its replay, which keeps every
         * position, is dropped and made again when Python asks for it
         * (pmnpy_game_replay): a part of small games held a replay each
         * would hold far more than its text (400 MB for 200,000 games). */
        game->rec = g.rec;
        pmn_record_init(&g.rec);
        h[PMNPY_LINE] = (int64_t)game->rec.line;
        b->games[b->n - 1] = game;
    }
    if (!room || (!g.proved && !game)) {
        h[PMNPY_RC] = -1;
        h[PMNPY_NTAGS] = h[PMNPY_LEN] = 0;
    }
    pmn_checked_game_free(&g);
    return (int)h[PMNPY_RC];
}

/* Slot i's record, now the caller's (pmnpy_game_free). */
static pmnpy_game *pmnpy_batch_take(pmnpy_batch *b, int64_t i)
{
    assert(i >= 0 && i < b->n);
    pmnpy_game *g = b->games[i];
    b->games[i] = NULL;
    if (g && b->home) {   /* (freed by its worker, where it still runs) */
        pthread_mutex_lock(&b->home->lock);
        b->home->refs++;
        pthread_mutex_unlock(&b->home->lock);
        g->home = b->home;
        g->worker = b->worker;
    }
    return g;
}

/* ---- parts: a PMN input cut, checked by workers ------------------------- */

/* A part's text.  What its games hold once read is more (a record each of
 * those not proved clean), and 2 parts a worker are in flight: 1,000,000
 * small games read in a process of 36 MB at 32 KiB, 95 MB at 128 KiB, at
 * the same speed (pmn check --jobs cuts 256 KiB, but keeps no record). */
#define PMNPY_PART_SIZE (1u << 15)

typedef struct pmnpy_part {
    char *text;
    size_t len, cap;
    pmn_at first_line;
    pmnpy_batch batch;         /* what its worker found, in order */
    int checked;               /* its worker is done */
    int failed;                /* no memory even to say so in batch */
    unsigned worker;           /* which (its index) */
    int end;                   /* the last part: its one slot says the end (rc 0, -1) */
    struct pmnpy_part *next;   /* in the input's order */
} pmnpy_part;

static void pmnpy_part_free(pmnpy_part *p)
{
    if (!p)
        return;
    pmnpy_batch_clear(&p->batch);
    free(p->text);
    free(p);
}

/* Every part of the chain from p on (by next). */
static void pmnpy_parts_free(pmnpy_part *p)
{
    while (p) {
        pmnpy_part *next = p->next;
        pmnpy_part_free(p);
        p = next;
    }
}

/* ---- the reader ahead ---------------------------------------------------- */

typedef struct pmnpy_worker {
    struct pmnpy_ahead *a;
    pthread_t thread;
    unsigned index;
} pmnpy_worker;

typedef struct pmnpy_ahead {
    FILE *f;                   /* the decoded input (pmn_text_input) */
    char *name;
    pthread_mutex_t lock;
    pthread_cond_t changed;    /* one checker's batch filled or taken; the stop */
    /* Each waiter its own condition, so that a part's passing wakes only
     * the thread that waits for it (one condition for all woke every
     * thread at every step: a tenth of the time went to futexes). */
    pthread_cond_t cut;        /* a part queued, or the cutting ended: workers */
    pthread_cond_t room;       /* a part taken by Python: the cutter */
    pthread_cond_t checked;    /* a part checked: Python */
    int stop;
    /* One checker (another format than PMN): */
    pmn_checker *c;
    pthread_t reader;
    int reading;
    /* Parts: the cutter and the workers. */
    pthread_t cutter;
    pmnpy_worker worker[PMNPY_MAX_WORKERS];
    int cutting;               /* the cutter has not ended (under lock) */
    int parts;                 /* the cutter was started (Python's thread's) */
    unsigned workers;
    pmnpy_part *head, *tail;   /* cut, not yet taken by Python, in order */
    pmnpy_part *todo;          /* the first part no worker has taken */
    unsigned in_flight;        /* parts cut and not yet taken */
    pmnpy_part *spent[PMNPY_MAX_WORKERS];   /* parts Python is done with, by the
                                  worker that checked them, which frees them: a
                                  block freed by another thread than malloc's
                                  locks its arena against that thread */
    pmnpy_part *current;       /* the part Python reads */
    pmnpy_home *home;          /* the workers' records' */
    /* One checker's batch (a game), and the parts' end when the cutter had
     * no memory for its own; also where the decoded input's diagnostics go
     * (single_sink, pmn_text_input). */
    pmnpy_batch single;
    struct pmnpy_sink single_sink;
    int single_ready, single_used;
    int single_given;          /* Python was given it (Python's thread's) */
} pmnpy_ahead;

static void pmnpy_ahead_free(pmnpy_ahead *a);

/* The end (rc: 0, or -1) said in b's last slot, the one the checker's
 * end left or a new one, open for what closing the input says; where no
 * slot can be made, the last game's slot says -1 instead (nothing is lost
 * unsaid).  -1 when b has no slot at all. */
static int pmnpy_batch_end(pmnpy_batch *b, int rc)
{
    int64_t *last = b->n > 0 ? &b->heads[PMNPY_HEAD * (b->n - 1)] : NULL;
    if (last && last[PMNPY_RC] <= 0) {
        b->open = 1;
        last[PMNPY_RC] = rc;
        return 0;
    }
    int64_t *h = pmnpy_batch_slot(b);
    if (h)
        h[PMNPY_RC] = rc;
    else if (last)
        last[PMNPY_RC] = -1;
    return h || last ? 0 : -1;
}

/* One checker's thread: a game at a time, Python taking each (rare
 * formats: no parts). */
static void *pmnpy_reader_run(void *arg)
{
    pmnpy_ahead *a = arg;
    for (;;) {
        pthread_mutex_lock(&a->lock);
        while (a->single_ready && !a->stop)
            pthread_cond_wait(&a->changed, &a->lock);
        int stop = a->stop;
        pthread_mutex_unlock(&a->lock);
        if (stop)
            return NULL;
        if (a->single_used)   /* (the first keeps what opening the input said) */
            pmnpy_batch_reset(&a->single);
        a->single_used = 1;
        int rc = pmnpy_fill(a->c, &a->single_sink);
        if (rc <= 0) {
            /* The end: the input closed here, so that what is said at its
             * close (the encoding it was read in, N133) is the end's. */
            if (pmnpy_batch_end(&a->single, rc < 0 ? -1 : 0) != 0) {
                pmnpy_batch_reset(&a->single);   /* (room for a slot is kept) */
                pmnpy_batch_end(&a->single, -1);
            }
            pmn_checker_free(a->c);
            a->c = NULL;
            fclose(a->f);
            a->f = NULL;
            a->single.open = 0;
        }
        pthread_mutex_lock(&a->lock);
        a->single_ready = 1;
        pthread_cond_broadcast(&a->changed);
        pthread_mutex_unlock(&a->lock);
        if (rc <= 0)
            return NULL;
    }
}

/* A worker: the first part no worker has taken, checked whole. */
static void *pmnpy_worker_run(void *arg)
{
    pmnpy_worker *w = arg;
    pmnpy_ahead *a = w->a;
    for (;;) {
        pthread_mutex_lock(&a->lock);
        while (!a->stop && (!a->todo || a->todo->end) && a->cutting)
            pthread_cond_wait(&a->cut, &a->lock);
        pmnpy_part *p = a->stop || !a->todo || a->todo->end ? NULL : a->todo;
        if (p) {
            a->todo = p->next;
            p->worker = w->index;
        }
        pmnpy_part *spent = a->spent[w->index];
        a->spent[w->index] = NULL;
        pthread_mutex_unlock(&a->lock);
        pmnpy_parts_free(spent);
        pmnpy_home_bury(a->home, w->index);
        if (!p)
            return NULL;
        pmn_check_options o;
        memset(&o, 0, sizeof o);
        o.source.format = PMN_SOURCE_PMN;
        o.source.lines_before = p->first_line ? p->first_line - 1 : 0;
        o.quick = 1;
        o.proved_tags = 1;
        struct pmnpy_sink sink = { &p->batch };
        p->batch.home = a->home;
        p->batch.worker = w->index;
        /* Room for what the part's games keep of it, as a rule: their
         * text, and their tags again (grown if need be). */
        pmnpy_room(&p->batch.blob, &p->batch.bcap, 0, p->len + p->len / 4);
        FILE *f = fmemopen(p->text, p->len, "r");
        pmn_checker *c = f ? pmn_checker_new(f, &o, pmnpy_collect, &sink) : NULL;
        int rc = c ? 1 : -1;
        while (rc > 0)
            rc = pmnpy_fill(c, &sink);
        pmnpy_batch *b = &p->batch;
        if (rc < 0) {
            /* No memory (or no stream): the part ends with a slot that says
             * so, or Python is told by failed. */
            p->failed = pmnpy_batch_end(b, -1) != 0;
        } else if (b->n > 0 && b->heads[PMNPY_HEAD * (b->n - 1) + PMNPY_RC] == 0) {
            /* What was said after the part's last game (text outside any
             * game): a slot of its own, or none. */
            if (b->heads[PMNPY_HEAD * (b->n - 1) + PMNPY_NDIAGS])
                b->heads[PMNPY_HEAD * (b->n - 1) + PMNPY_RC] = 3;
            else
                b->n--;
        }
        b->open = 0;
        pmn_checker_free(c);
        if (f)
            fclose(f);
        pthread_mutex_lock(&a->lock);
        p->checked = 1;
        if (p == a->head)   /* (Python waits for no other) */
            pthread_cond_signal(&a->checked);
        pthread_mutex_unlock(&a->lock);
    }
}

/* p put at the end of the queue, once fewer than 2 parts a worker are in
 * flight.  -1 when stopped. */
static int pmnpy_enqueue(pmnpy_ahead *a, pmnpy_part *p)
{
    pthread_mutex_lock(&a->lock);
    while (!a->stop && a->in_flight >= 2 * a->workers + 1 && !p->end)
        pthread_cond_wait(&a->room, &a->lock);
    int stopped = a->stop;
    if (!stopped) {
        if (a->tail)
            a->tail->next = p;
        else
            a->head = p;
        a->tail = p;
        if (!a->todo)
            a->todo = p;
        a->in_flight++;
        if (p->end)   /* (the workers waiting for a part stop) */
            pthread_cond_broadcast(&a->cut);
        else
            pthread_cond_signal(&a->cut);
        if (p == a->head)   /* (Python may wait for the end) */
            pthread_cond_signal(&a->checked);
    }
    pthread_mutex_unlock(&a->lock);
    return stopped ? -1 : 0;
}

/* The cutter: the input cut into parts of whole games; at its end a part
 * that says so (with what the stream said: a read error, its encoding). */
static void *pmnpy_cutter_run(void *arg)
{
    pmnpy_ahead *a = arg;
    pmnpy_part *end = calloc(1, sizeof *end);
    struct pmnpy_sink sink;
    pmn_reader *rd = NULL;
    int rc = -1;
    if (end && pmnpy_batch_slot(&end->batch)) {   /* (kept open: the reader's words) */
        sink.filling = &end->batch;
        rd = pmn_reader_new(a->f, pmnpy_collect, &sink);
    }
    pmnpy_part *p = NULL;
    if (rd) {
        do {
            if (!(p = calloc(1, sizeof *p))) {
                rc = -1;
                break;
            }
            rc = pmn_reader_next_part(rd, PMNPY_PART_SIZE, &p->text, &p->cap, &p->len,
                                      &p->first_line);
            if (p->len == 0)
                break;   /* (what came before a read error is read, as pmn check reads it) */
            int stopped = pmnpy_enqueue(a, p) != 0;
            if (stopped)
                pmnpy_part_free(p);   /* (not queued) */
            p = NULL;
            if (stopped)
                break;
        } while (rc > 0);
        pmn_reader_free(rd);
    }
    pmnpy_part_free(p);   /* (empty, or NULL) */
    if (end && !rd) {   /* (no memory for its slot, or the reader) */
        pmnpy_part_free(end);
        end = NULL;
    }
    /* The input closed: what it says then (its encoding) is the end's. */
    struct pmnpy_sink *input = &a->single_sink;
    if (end)
        input->filling = &end->batch;
    fclose(a->f);
    a->f = NULL;
    if (end) {
        end->end = 1;
        end->checked = 1;
        end->batch.heads[PMNPY_RC] = rc < 0 ? -1 : 0;
        end->batch.open = 0;
        if (pmnpy_enqueue(a, end) != 0)
            pmnpy_part_free(end);
    }
    pthread_mutex_lock(&a->lock);
    a->cutting = 0;
    pthread_cond_broadcast(&a->cut);
    pthread_cond_signal(&a->checked);
    pthread_mutex_unlock(&a->lock);
    return NULL;
}

static unsigned pmnpy_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > PMNPY_MAX_WORKERS ? PMNPY_MAX_WORKERS : (unsigned)n;
}

/* Games from raw (closed by pmnpy_ahead_free, or at the end), decoded as
 * pmn decodes its input (pmn_text_input), read as format (PMN_SOURCE_*)
 * and named name; NULL when memory runs out (raw closed). */
static pmnpy_ahead *pmnpy_ahead_new(FILE *raw, int format, const char *name)
{
    pmnpy_ahead *a = calloc(1, sizeof *a);
    if (!a) {
        fclose(raw);
        return NULL;
    }
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->changed, NULL);
    pthread_cond_init(&a->cut, NULL);
    pthread_cond_init(&a->room, NULL);
    pthread_cond_init(&a->checked, NULL);
    a->single_sink.filling = &a->single;
    /* The end, should memory run out at it, said in a slot made now. */
    if (!pmnpy_batch_slot(&a->single) ||
        !(a->f = pmn_text_input(raw, 1, pmnpy_collect, &a->single_sink))) {
        fclose(raw);
        pmnpy_ahead_free(a);
        return NULL;
    }
    a->name = name ? strdup(name) : NULL;
    int by_name = 0, found = format;
    if (format == PMN_SOURCE_AUTO)
        found = pmn_source_detect(a->f, a->name, &by_name);
    if (found == PMN_SOURCE_PMN) {
        if (!(a->home = calloc(1, sizeof *a->home))) {
            pmnpy_ahead_free(a);
            return NULL;
        }
        pthread_mutex_init(&a->home->lock, NULL);
        a->home->refs = 1;
        a->home->open = 1;
        a->workers = pmnpy_cores();
        a->cutting = 1;
        if (pthread_create(&a->cutter, NULL, pmnpy_cutter_run, a) != 0) {
            a->cutting = 0;
            pmnpy_ahead_free(a);
            return NULL;
        }
        a->parts = 1;
        for (unsigned i = 0; i < a->workers; i++) {
            a->worker[i].a = a;
            a->worker[i].index = i;
            if (pthread_create(&a->worker[i].thread, NULL, pmnpy_worker_run,
                               &a->worker[i]) != 0) {
                a->workers = i;
                break;
            }
        }
        if (a->workers == 0) {   /* (the cutter waits for one: stopped) */
            pmnpy_ahead_free(a);
            return NULL;
        }
        return a;
    }
    pmn_check_options o;
    memset(&o, 0, sizeof o);
    o.source.format = format;
    o.source.name = a->name;
    o.source.note = pmnpy_collect;
    o.source.note_ctx = &a->single_sink;
    o.quick = 1;
    o.proved_tags = 1;
    if (!(a->c = pmn_checker_new(a->f, &o, pmnpy_collect, &a->single_sink))) {
        pmnpy_ahead_free(a);
        return NULL;
    }
    if (pthread_create(&a->reader, NULL, pmnpy_reader_run, a) != 0) {
        pmnpy_ahead_free(a);
        return NULL;
    }
    a->reading = 1;
    return a;
}

/* The next batch, waited for: valid until the next call, its slots in
 * the input's order.  The end (a batch of one slot, rc 0 or -1) is given
 * again at every call after it. */
static pmnpy_batch *pmnpy_ahead_next(pmnpy_ahead *a)
{
    if (a->reading) {
        pthread_mutex_lock(&a->lock);
        /* The batch given last time, taken: fill the next (unless it was
         * the end).  Given, not ready: the reader may have filled the first
         * before the first call. */
        if (a->single_given && a->single.n > 0 &&
            a->single.heads[PMNPY_HEAD * (a->single.n - 1) + PMNPY_RC] > 0) {
            a->single_ready = 0;
            pthread_cond_broadcast(&a->changed);
        }
        while (!a->single_ready)
            pthread_cond_wait(&a->changed, &a->lock);
        a->single_given = 1;
        pthread_mutex_unlock(&a->lock);
        return &a->single;
    }
    pmnpy_part *p = a->current;
    if (p && p->end)
        return &p->batch;
    pthread_mutex_lock(&a->lock);
    if (p) {   /* done with it: its worker frees it */
        p->next = a->spent[p->worker];
        a->spent[p->worker] = p;
        a->current = NULL;
    }
    for (;;) {
        while ((!a->head || !a->head->checked) && (a->head || a->cutting))
            pthread_cond_wait(&a->checked, &a->lock);
        if (!a->head) {
            /* The cutter ended without its end part (no memory for it). */
            pthread_mutex_unlock(&a->lock);
            a->single.heads[PMNPY_RC] = -1;   /* (its slot made at the start) */
            a->single.n = 1;
            return &a->single;
        }
        p = a->head;
        a->head = p->next;
        if (!a->head)
            a->tail = NULL;
        a->in_flight--;
        pthread_cond_signal(&a->room);
        if (p->failed) {
            a->single.heads[PMNPY_RC] = -1;   /* (its slot made at the start) */
            a->single.n = 1;
            a->current = p;
            pthread_mutex_unlock(&a->lock);
            return &a->single;
        }
        if (p->end || p->batch.n > 0)
            break;
        p->next = a->spent[p->worker];   /* (a part without a game or a word: none) */
        a->spent[p->worker] = p;
    }
    pthread_mutex_unlock(&a->lock);
    a->current = p;
    return &p->batch;
}

static void pmnpy_ahead_free(pmnpy_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    a->stop = 1;
    pthread_cond_broadcast(&a->changed);
    pthread_cond_broadcast(&a->cut);
    pthread_cond_broadcast(&a->room);
    pthread_mutex_unlock(&a->lock);
    if (a->reading)
        pthread_join(a->reader, NULL);
    if (a->parts) {
        pthread_join(a->cutter, NULL);
        for (unsigned i = 0; i < a->workers; i++)
            pthread_join(a->worker[i].thread, NULL);
    }
    if (a->home) {   /* (no worker runs: what Python drops from now is freed at once) */
        pthread_mutex_lock(&a->home->lock);
        a->home->open = 0;
        pthread_mutex_unlock(&a->home->lock);
        for (unsigned i = 0; i < PMNPY_MAX_WORKERS; i++)
            pmnpy_home_bury(a->home, i);
    }
    /* What closing says now is dropped with the batch it goes to. */
    pmnpy_batch scratch;
    memset(&scratch, 0, sizeof scratch);
    a->single_sink.filling = &scratch;
    pmn_checker_free(a->c);
    if (a->f)
        fclose(a->f);
    pmnpy_batch_clear(&scratch);
    pmnpy_batch_clear(&a->single);
    pmnpy_parts_free(a->head);
    for (unsigned i = 0; i < PMNPY_MAX_WORKERS; i++)
        pmnpy_parts_free(a->spent[i]);
    pmnpy_part_free(a->current);   /* (taken from head: its next is not its own) */
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->changed);
    pthread_cond_destroy(&a->cut);
    pthread_cond_destroy(&a->room);
    pthread_cond_destroy(&a->checked);
    if (a->home)   /* (after the parts: their untaken records freed at once) */
        pmnpy_home_drop(a->home);
    free(a->name);
    free(a);
}
