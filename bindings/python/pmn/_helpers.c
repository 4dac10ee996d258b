/* _helpers.c - the C part of the Python package, compiled into pmn._capi
 * (pmn/_build.py includes it after pmn.h): streams over Python file
 * objects, a game's record and replay freed together, and the reading
 * ahead that lets Python take games while libpmn reads the next ones.
 *
 * Reading ahead.  Python asks for one game at a time (pmnpy_ahead_next);
 * libpmn's checker (pmn_checker_next: what pmn check says of each game)
 * runs on threads of their own meanwhile, since a C call does not hold the
 * GIL.  A PMN input is cut into parts of whole games, about PART_SIZE
 * bytes each, where the reader cuts it (pmn_reader_next_text), as pmn
 * check --jobs cuts it: each part is checked by one of several workers
 * (the cores there are), and Python takes the parts' games in the input's
 * order.  Reading the parts apart gives the games reading the stream does
 * (libpmn's promise for pmn_reader_next_text), and each part's checker is
 * told the lines before it, so that diagnostics keep their places.  Any
 * other input (XML, other programs' notations) is read by one checker on
 * one thread.  Either way each game is a slot: rc 1 a game read, replayed
 * and checked, its record and replay handed over; rc 2 a game the quick
 * pass proved clean, as its text and tags (parsed when Python asks:
 * pmnpy_game_read); rc 3 diagnostics of text outside any game; rc 0 the
 * end; rc -1 a read error or no memory.  Memory is bounded by the parts
 * in flight (2 a worker, and the one Python reads), not by the input. */

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

typedef struct pmnpy_game {
    pmn_record rec;
    pmn_replay *replay;        /* NULL until made (pmnpy_game_replay) */
} pmnpy_game;

static void pmnpy_game_free(pmnpy_game *g)
{
    if (g) {
        pmn_replay_free(g->replay);
        pmn_record_free(&g->rec);
        free(g);
    }
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

/* ---- slots: a game each, as the checker gives it ------------------------ */

typedef struct pmnpy_slot {
    /* What Python reads first, in one piece (an attribute read costs it
     * more than the C of a game): rc, main-line moves (as pmn check counts
     * them), the bytes of tags ("name\0value\0...", -1: none held) and of
     * text at the start of blob, the line the text begins at, and the
     * diagnostics. */
    int64_t head[6];
    char *blob;                /* tags, then (rc 2) the game's text */
    pmnpy_game *game;          /* rc 1 */
    pmn_diag *diags;
    size_t cap;
} pmnpy_slot;

enum { PMNPY_RC, PMNPY_MOVES, PMNPY_NTAGS, PMNPY_LEN, PMNPY_LINE, PMNPY_NDIAGS };

static void pmnpy_slot_clear(pmnpy_slot *s)
{
    pmnpy_game_free(s->game);
    free(s->blob);
    free(s->diags);
    memset(s, 0, sizeof *s);
}

/* Where a thread's diagnostics go: its slot being filled. */
struct pmnpy_sink {
    pmnpy_slot *filling;
};

static void pmnpy_collect(void *ctx, const pmn_diag *d)
{
    pmnpy_slot *s = ((struct pmnpy_sink *)ctx)->filling;
    size_t n = (size_t)s->head[PMNPY_NDIAGS];
    if (n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1;   /* (a pmn_diag is 432 bytes) */
        pmn_diag *more = realloc(s->diags, cap * sizeof *more);
        if (!more)
            return;   /* (the game itself will say F002) */
        s->diags = more;
        s->cap = cap;
    }
    s->diags[n] = *d;
    s->head[PMNPY_NDIAGS] = (int64_t)n + 1;
}

/* s filled with c's next game (or the end: rc 0 or -1, said in s). */
static void pmnpy_fill(pmn_checker *c, struct pmnpy_sink *k, pmnpy_slot *s)
{
    pmn_checked_game g;
    k->filling = s;
    memset(&g, 0, sizeof g);
    int rc = pmn_checker_next(c, &g);
    s->head[PMNPY_RC] = rc;
    if (rc != 1)
        return;
    s->head[PMNPY_MOVES] = g.facts.moves;
    for (size_t i = 0; i < g.ndiags; i++)
        pmnpy_collect(k, &g.diags[i]);
    /* Its tags and text in one piece, for Python to take at once. */
    const char *text = NULL;
    size_t n = 0, len = 0;
    pmn_at line = 0;
    for (size_t i = 0; i < g.ntags; i++)
        n += strlen(g.tags[i].name) + strlen(g.tags[i].value) + 2;
    if (g.proved)
        pmn_reader_game_text(pmn_source_pmn(pmn_checker_source(c)), &text, &len, &line);
    if ((s->blob = malloc(n + len + 1))) {
        char *at = s->blob;
        for (size_t i = 0; i < g.ntags; i++)
            at = stpcpy(stpcpy(at, g.tags[i].name) + 1, g.tags[i].value) + 1;
        if (len)
            memcpy(at, text, len);
    }
    s->head[PMNPY_NTAGS] = g.proved && !g.tags ? -1 : (int64_t)n;   /* (-1: of another
                                                                       shape, parsed when asked) */
    s->head[PMNPY_LEN] = (int64_t)len;
    s->head[PMNPY_LINE] = (int64_t)line;
    if (g.proved) {
        s->head[PMNPY_RC] = 2;
    } else if ((s->game = calloc(1, sizeof *s->game))) {
        /* The record is the game's now; its replay, which keeps every
         * position, is dropped and made again when Python asks for it
         * (pmnpy_game_replay): a part of small games held a replay each
         * would hold far more than its text (400 MB for 200,000 games). */
        s->game->rec = g.rec;
        pmn_record_init(&g.rec);
    }
    if (!s->blob || (!g.proved && !s->game))
        s->head[PMNPY_RC] = -1;
    pmn_checked_game_free(&g);
}

/* ---- parts: a PMN input cut, checked by workers ------------------------- */

/* A part's text.  What its games hold once read is several times more (a
 * record each), and 2 parts a worker are in flight: 1,000,000 small games
 * read in a process of 36 MB at 32 KiB, 95 MB at 128 KiB, at the same
 * speed (pmn check --jobs cuts 256 KiB, but keeps no record). */
#define PMNPY_PART_SIZE (1u << 15)
#define PMNPY_MAX_WORKERS 8

typedef struct pmnpy_part {
    char *text;
    size_t len, cap;
    pmn_at first_line;
    pmnpy_slot *games;         /* what its worker found, in order */
    size_t n, capg;
    int checked;               /* its worker is done */
    int end;                   /* the last part: games[0] says the end (rc 0, -1) */
    struct pmnpy_part *next;   /* in the input's order */
} pmnpy_part;

static void pmnpy_part_free(pmnpy_part *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        pmnpy_slot_clear(&p->games[i]);
    free(p->games);
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

/* A slot more at the end of p's games; NULL when memory runs out. */
static pmnpy_slot *pmnpy_part_slot(pmnpy_part *p)
{
    if (p->n == p->capg) {
        size_t cap = p->capg ? 2 * p->capg : 16;
        pmnpy_slot *more = realloc(p->games, cap * sizeof *more);
        if (!more)
            return NULL;
        p->games = more;
        p->capg = cap;
    }
    pmnpy_slot *s = &p->games[p->n++];
    memset(s, 0, sizeof *s);
    return s;
}

/* ---- the reader ahead ---------------------------------------------------- */

typedef struct pmnpy_ahead {
    FILE *f;                   /* the decoded input (pmn_text_input) */
    char *name;
    pthread_mutex_t lock;
    pthread_cond_t changed;    /* a part cut, checked or taken; the stop */
    int stop;
    /* One checker (another format than PMN): */
    pmn_checker *c;
    pthread_t reader;
    int reading;
    /* Parts: the cutter and the workers. */
    pthread_t cutter, worker[PMNPY_MAX_WORKERS];
    int cutting;               /* the cutter has not ended (under lock) */
    int parts;                 /* the cutter was started (Python's thread's) */
    unsigned workers;
    pmnpy_part *head, *tail;   /* cut, not yet taken by Python, in order */
    pmnpy_part *todo;          /* the first part no worker has taken */
    unsigned in_flight;        /* parts cut and not yet taken */
    pmnpy_part *spent;         /* parts Python is done with: freed by the cutter,
                                  whose thread made their text (malloc's sake) */
    pmnpy_part *current;       /* the part Python reads, and its next game */
    size_t at;
    pmnpy_slot single;         /* one checker's: the slot Python reads */
    struct pmnpy_sink single_sink;   /* also the decoded input's (pmn_text_input) */
    int single_ready, single_used;
} pmnpy_ahead;

static void pmnpy_ahead_free(pmnpy_ahead *a);

/* One checker's thread: a slot at a time, Python taking each (rare
 * formats: no batching). */
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
            pmnpy_slot_clear(&a->single);
        a->single_used = 1;
        pmnpy_fill(a->c, &a->single_sink, &a->single);
        int rc = (int)a->single.head[PMNPY_RC];
        if (rc <= 0) {
            /* The end: the input closed here, so that what is said at its
             * close (the encoding it was read in, N133) is the end's. */
            pmn_checker_free(a->c);
            a->c = NULL;
            fclose(a->f);
            a->f = NULL;
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
    pmnpy_ahead *a = arg;
    struct pmnpy_sink sink;
    for (;;) {
        pthread_mutex_lock(&a->lock);
        while (!a->stop && (!a->todo || a->todo->end) && a->cutting)
            pthread_cond_wait(&a->changed, &a->lock);
        pmnpy_part *p = a->stop || !a->todo || a->todo->end ? NULL : a->todo;
        if (p)
            a->todo = p->next;
        pthread_mutex_unlock(&a->lock);
        if (!p)
            return NULL;
        pmn_check_options o;
        memset(&o, 0, sizeof o);
        o.source.format = PMN_SOURCE_PMN;
        o.source.lines_before = p->first_line ? p->first_line - 1 : 0;
        o.quick = 1;
        o.proved_tags = 1;
        FILE *f = fmemopen(p->text, p->len, "r");
        pmnpy_slot spare;
        memset(&spare, 0, sizeof spare);
        sink.filling = &spare;
        pmn_checker *c = f ? pmn_checker_new(f, &o, pmnpy_collect, &sink) : NULL;
        for (int rc = c ? 1 : -1; rc > 0;) {
            pmnpy_slot *s = pmnpy_part_slot(p);
            if (!s) {
                rc = -1;
                break;
            }
            pmnpy_fill(c, &sink, s);
            rc = (int)s->head[PMNPY_RC];
            if (rc == 0) {
                /* What was said after the part's last game (text outside
                 * any game): a slot of its own, or none. */
                if (s->head[PMNPY_NDIAGS])
                    s->head[PMNPY_RC] = 3;
                else
                    p->n--;
            }
        }
        pmn_checker_free(c);
        if (f)
            fclose(f);
        pmnpy_slot_clear(&spare);
        pthread_mutex_lock(&a->lock);
        p->checked = 1;
        pthread_cond_broadcast(&a->changed);
        pthread_mutex_unlock(&a->lock);
    }
}

/* p put at the end of the queue, once fewer than 2 parts a worker are in
 * flight; the spent ones freed meanwhile.  -1 when stopped. */
static int pmnpy_enqueue(pmnpy_ahead *a, pmnpy_part *p)
{
    pthread_mutex_lock(&a->lock);
    while (!a->stop && a->in_flight >= 2 * a->workers + 1 && !p->end) {
        pmnpy_part *spent = a->spent;
        a->spent = NULL;
        if (spent) {
            pthread_mutex_unlock(&a->lock);
            pmnpy_parts_free(spent);
            pthread_mutex_lock(&a->lock);
            continue;
        }
        pthread_cond_wait(&a->changed, &a->lock);
    }
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
        pthread_cond_broadcast(&a->changed);
    }
    pmnpy_part *spent = a->spent;
    a->spent = NULL;
    pthread_mutex_unlock(&a->lock);
    pmnpy_parts_free(spent);
    return stopped ? -1 : 0;
}

/* The cutter: the input cut into parts of whole games; at its end a part
 * that says so (with what the stream said: a read error, its encoding). */
static void *pmnpy_cutter_run(void *arg)
{
    pmnpy_ahead *a = arg;
    pmnpy_part *end = calloc(1, sizeof *end);
    struct pmnpy_sink sink;
    pmnpy_slot *last = end ? pmnpy_part_slot(end) : NULL;
    pmn_reader *rd = NULL;
    int rc = -1;
    if (last) {
        sink.filling = last;
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
    /* The input closed: what it says then (its encoding) is the end's. */
    struct pmnpy_sink *input = &a->single_sink;
    input->filling = last ? last : &a->single;
    fclose(a->f);
    a->f = NULL;
    if (end) {
        end->end = 1;
        end->checked = 1;
        last->head[PMNPY_RC] = rc < 0 ? -1 : 0;
        if (pmnpy_enqueue(a, end) != 0)
            pmnpy_part_free(end);
    }
    pthread_mutex_lock(&a->lock);
    a->cutting = 0;
    pthread_cond_broadcast(&a->changed);
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
    a->single_sink.filling = &a->single;
    if (!(a->f = pmn_text_input(raw, 1, pmnpy_collect, &a->single_sink))) {
        fclose(raw);
        pmnpy_ahead_free(a);
        return NULL;
    }
    a->name = name ? strdup(name) : NULL;
    int by_name = 0, found = format;
    if (format == PMN_SOURCE_AUTO)
        found = pmn_source_detect(a->f, a->name, &by_name);
    if (found == PMN_SOURCE_PMN) {
        a->workers = pmnpy_cores();
        a->cutting = 1;
        if (pthread_create(&a->cutter, NULL, pmnpy_cutter_run, a) != 0) {
            a->cutting = 0;
            pmnpy_ahead_free(a);
            return NULL;
        }
        a->parts = 1;
        for (unsigned i = 0; i < a->workers; i++)
            if (pthread_create(&a->worker[i], NULL, pmnpy_worker_run, a) != 0) {
                a->workers = i;
                break;
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

/* The next slot, waited for: valid until the next call.  The end (rc 0,
 * -1) is given again at every call after it. */
static pmnpy_slot *pmnpy_ahead_next(pmnpy_ahead *a)
{
    if (a->reading) {
        pthread_mutex_lock(&a->lock);
        if (a->single_ready && a->single.head[PMNPY_RC] > 0) {
            a->single_ready = 0;   /* (the slot before, taken: fill the next) */
            pthread_cond_broadcast(&a->changed);
        }
        while (!a->single_ready)
            pthread_cond_wait(&a->changed, &a->lock);
        pthread_mutex_unlock(&a->lock);
        return &a->single;
    }
    pmnpy_part *p = a->current;
    if (p && a->at < p->n && !p->end)
        return &p->games[a->at++];   /* (no lock: the part is Python's) */
    if (p && p->end)
        return &p->games[0];
    pthread_mutex_lock(&a->lock);
    if (p) {   /* done with it: the cutter frees it */
        p->next = a->spent;
        a->spent = p;
        a->current = NULL;
        pthread_cond_broadcast(&a->changed);
    }
    for (;;) {
        while ((!a->head || !a->head->checked) && (a->head || a->cutting))
            pthread_cond_wait(&a->changed, &a->lock);
        if (!a->head) {
            /* The cutter ended without its end part (no memory for it). */
            pthread_mutex_unlock(&a->lock);
            a->single.head[PMNPY_RC] = -1;
            return &a->single;
        }
        p = a->head;
        a->head = p->next;
        if (!a->head)
            a->tail = NULL;
        a->in_flight--;
        pthread_cond_broadcast(&a->changed);
        if (p->end || p->n > 0)
            break;
        p->next = a->spent;   /* (a part without a game or a word: none) */
        a->spent = p;
    }
    pthread_mutex_unlock(&a->lock);
    a->current = p;
    a->at = 0;
    return p->end ? &p->games[0] : &p->games[a->at++];
}

/* The slot's game, now the caller's (pmnpy_game_free). */
static pmnpy_game *pmnpy_slot_take(pmnpy_slot *s)
{
    pmnpy_game *g = s->game;
    s->game = NULL;
    return g;
}

static void pmnpy_ahead_free(pmnpy_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    a->stop = 1;
    pthread_cond_broadcast(&a->changed);
    pthread_mutex_unlock(&a->lock);
    if (a->reading)
        pthread_join(a->reader, NULL);
    if (a->parts) {
        pthread_join(a->cutter, NULL);
        for (unsigned i = 0; i < a->workers; i++)
            pthread_join(a->worker[i], NULL);
    }
    /* What closing says now is dropped with the slot it goes to. */
    pmnpy_slot scratch;
    memset(&scratch, 0, sizeof scratch);
    a->single_sink.filling = &scratch;
    pmn_checker_free(a->c);
    if (a->f)
        fclose(a->f);
    pmnpy_slot_clear(&scratch);
    pmnpy_slot_clear(&a->single);
    pmnpy_parts_free(a->head);
    pmnpy_parts_free(a->spent);
    pmnpy_part_free(a->current);   /* (taken from head: its next is not its own) */
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->changed);
    free(a->name);
    free(a);
}
