"""_build.py - the cffi builder of pmn._capi, in API mode (out of line).

The declarations below are checked by the C compiler against src/pmn.h:
a struct declared with "...;" takes its layout from the header, so a field
that moves or changes type is a compile error, not a wrong read.

Where libpmn is found, in this order:
  PMN_SRCDIR / PMN_BUILDDIR  a built tree (the test command's: pmn.h in
                             $PMN_SRCDIR/src, libpmn in $PMN_BUILDDIR/src/.libs)
  pkg-config pmn             an installed libpmn (make install)
The version of the library the module is built against is kept in it, and
pmn/__init__.py refuses a libpmn of another version at import.
"""
import os
import re
import shlex
import subprocess

from cffi import FFI

CDEF = r"""
typedef unsigned long long pmn_at;
typedef struct pmn_error { int code; size_t column; char message[...]; ...; } pmn_error;
#define PMN_ERR_SYNTAX ...
#define PMN_ERR_RANGE ...
#define PMN_ERR_UNKNOWN ...
#define PMN_ERR_NOMEM ...
#define PMN_MAX_SIDE_PITS ...
#define PMN_MAX_PV ...

const char *pmn_version(void);

typedef struct pmn_rules { char name[32]; unsigned rows; unsigned holes_per_row;
    unsigned pits; unsigned seeds; int stores; int majority; ...; } pmn_rules;
int pmn_rules_init(pmn_rules *r, const char *spec, pmn_error *err);
int pmn_rules_apply(pmn_rules *r, const char *spec, pmn_error *err);
size_t pmn_rules_format(const pmn_rules *r, char *buf, size_t size);
int pmn_rules_check(const pmn_rules *r, pmn_error *err);
size_t pmn_rules_describe(const pmn_rules *r, char *buf, size_t size);
size_t pmn_rules_builtin_names(char *buf, size_t size);

typedef struct pmn_position { uint16_t pit[2][32]; uint32_t captured[2]; uint8_t to_move;
    ...; } pmn_position;
void pmn_position_start(const pmn_rules *r, pmn_position *p);
unsigned pmn_position_seeds(const pmn_rules *r, const pmn_position *p, int side);
int pmn_position_equal(const pmn_rules *r, const pmn_position *a, const pmn_position *b);
uint64_t pmn_position_key(const pmn_rules *r, const pmn_position *p, int side);
int pmn_position_parse(const pmn_rules *r, const char *text, pmn_position *p, pmn_error *err);
size_t pmn_position_format(const pmn_rules *r, const pmn_position *p, char *buf, size_t size);
size_t pmn_board_format(const pmn_rules *r, const pmn_position *p, char *buf, size_t size);

typedef enum { PMN_END_NONE, PMN_END_NO_SEEDS, PMN_END_NO_MOVE, PMN_END_ENDLESS,
               PMN_END_REPETITION, PMN_END_MAJORITY, PMN_END_LAST_SEEDS, ... } pmn_ending;
typedef enum { PMN_ONGOING, PMN_SOUTH_WINS, PMN_NORTH_WINS, PMN_DRAWN, ... } pmn_outcome;
typedef enum { PMN_LEGAL, ... } pmn_legality;
const char *pmn_legality_string(pmn_legality l);
const char *pmn_ending_string(pmn_ending e);
const char *pmn_outcome_string(pmn_outcome o);
void pmn_ending_explain(const pmn_rules *r, pmn_ending e, const pmn_position *end,
                        char *buf, size_t size);
int pmn_final_seeds(const pmn_rules *r, pmn_ending e, const pmn_position *end,
                    unsigned long seeds[2]);

typedef struct pmn_move_report { int side; int hole; unsigned captured; unsigned given;
    unsigned stored; uint64_t laps; int end_side; int end_hole; int extra; int passed;
    int grand_slam; pmn_ending ending; pmn_outcome outcome; ...; } pmn_move_report;
int pmn_legal_moves(const pmn_rules *r, const pmn_position *p, int moves[32]);
pmn_legality pmn_move_legality(const pmn_rules *r, const pmn_position *p, int hole);
pmn_ending pmn_position_ending(const pmn_rules *r, const pmn_position *p, pmn_outcome *outcome);

typedef struct pmn_game pmn_game;
pmn_game *pmn_game_new(const pmn_rules *r, const pmn_position *start);
pmn_game *pmn_game_clone(const pmn_game *g);
void pmn_game_free(pmn_game *g);
int pmn_game_play(pmn_game *g, int hole, pmn_move_report *rep);
const pmn_position *pmn_game_position(const pmn_game *g);
pmn_outcome pmn_game_outcome(const pmn_game *g);
pmn_ending pmn_game_ending(const pmn_game *g);
unsigned pmn_game_plies(const pmn_game *g);

typedef enum { PMN_NOTATION_LETTERS, PMN_NOTATION_NUMBERS, PMN_NOTATION_COORDINATES,
               ... } pmn_notation;
int pmn_notation_from_name(const char *name, pmn_notation *n);
size_t pmn_hole_name(const pmn_rules *r, pmn_notation n, int side, int hole, char *buf,
                     size_t size);
int pmn_hole_from_letter(const pmn_rules *r, char c, int *side, int *hole);

typedef struct pmn_svg_options { pmn_notation notation; int lifted_side; int lifted_hole;
    int end_side; int end_hole; const char *title; int html; ...; } pmn_svg_options;
void pmn_svg_options_init(pmn_svg_options *o);
size_t pmn_board_svg(const pmn_rules *r, const pmn_position *p, const pmn_svg_options *o,
                     char *buf, size_t size);

uint64_t pmn_perft(const pmn_rules *r, const pmn_position *p, unsigned depth,
                   uint64_t divide[32], int *ndivide);
uint64_t pmn_perft_jobs(const pmn_rules *r, const pmn_position *p, unsigned depth, int jobs,
                        uint64_t divide[32], int *ndivide);

typedef struct pmn_value { int32_t score; int exact; int outcome; int has_margin; int margin;
    unsigned plies; int solved; int lower; int upper; int tablebase; ...; } pmn_value;
size_t pmn_value_describe(const pmn_value *v, int side, char *buf, size_t size);
size_t pmn_value_eval(const pmn_value *v, int side, char *buf, size_t size);
typedef struct pmn_search_limits { unsigned depth; uint64_t nodes; double seconds; int solve;
    int distance; int all_moves; unsigned threads; ...; } pmn_search_limits;
typedef struct pmn_move_value { int hole; pmn_value value; } pmn_move_value;
typedef struct pmn_analysis { pmn_value value; int best; int pv[128]; unsigned npv;
    unsigned depth; uint64_t nodes; double seconds; int stopped;
    pmn_move_value moves[32]; int nmoves; pmn_ending ending; int passes; ...; } pmn_analysis;
typedef struct pmn_searcher pmn_searcher;
pmn_searcher *pmn_searcher_new(const pmn_rules *r, size_t hash_mb);
void pmn_searcher_free(pmn_searcher *s);
typedef void (*pmn_progress_fn)(void *ctx, const pmn_analysis *a);
int pmn_analyse(pmn_searcher *s, const pmn_position *p, const pmn_position *history,
                size_t nhistory, const pmn_search_limits *l, pmn_progress_fn fn, void *ctx,
                pmn_analysis *a);

typedef struct pmn_tablebase pmn_tablebase;
pmn_tablebase *pmn_tablebase_open(const pmn_rules *r, const char *dir, pmn_error *err);
void pmn_tablebase_close(pmn_tablebase *tb);
unsigned pmn_tablebase_seeds(const pmn_tablebase *tb);
int pmn_tablebase_probe_bounds(const pmn_tablebase *tb, const pmn_position *p, int *low,
                               int *high);
int pmn_searcher_use_tablebase(pmn_searcher *s, const pmn_tablebase *tb);

typedef enum { PMN_NOTE, PMN_WARNING, PMN_ERROR, PMN_FATAL, ... } pmn_severity;
typedef struct pmn_diag { int code; pmn_severity severity; pmn_at line; pmn_at col;
    char message[400]; ...; } pmn_diag;
typedef void (*pmn_diag_fn)(void *ctx, const pmn_diag *d);
const char *pmn_severity_string(pmn_severity s);
void pmn_diag_code_name(int code, char buf[8]);
size_t pmn_diags_in_file_order(pmn_diag *d, size_t n);

typedef struct pmn_rule_file pmn_rule_file;
pmn_rule_file *pmn_rule_file_parse(const char *text, size_t len, const char *name,
                                   pmn_diag_fn fn, void *ctx);
void pmn_rule_file_free(pmn_rule_file *f);
const pmn_rules *pmn_rule_file_rules(const pmn_rule_file *f);

typedef struct pmn_tag { char *name; char *value; pmn_at line; pmn_at col; ...; } pmn_tag;
typedef struct pmn_move pmn_move;
typedef struct pmn_line { pmn_move *moves; size_t nmoves; char **lead; size_t nlead;
    ...; } pmn_line;
struct pmn_move { char text[8]; pmn_notation notation; int side; int hole; int joined;
    int claim; char judgement[3]; unsigned nags[8]; unsigned nnags; char **comments;
    size_t ncomments; pmn_line *variations; size_t nvariations; pmn_at line; pmn_at col;
    ...; };
typedef struct pmn_record { pmn_tag *tags; size_t ntags; pmn_line main; char result[8];
    pmn_at line; pmn_at col; ...; } pmn_record;
void pmn_record_init(pmn_record *rec);
void pmn_record_free(pmn_record *rec);

typedef struct pmn_setup_options pmn_setup_options;
typedef struct pmn_replay pmn_replay;
typedef enum { PMN_SETUP_READY, ... } pmn_setup_status;
typedef struct pmn_setup { pmn_setup_status status; pmn_rules rules; pmn_position start;
    int given; int assumed; ...; } pmn_setup;
int pmn_setup_record(const pmn_record *rec, const pmn_setup_options *o, pmn_setup *s,
                     pmn_diag_fn fn, void *ctx);

typedef struct pmn_played pmn_played;
typedef struct pmn_played_line { pmn_played *moves; size_t nmoves; } pmn_played_line;
struct pmn_played { int replayed; int mover; int side; unsigned ply; unsigned turn;
    unsigned number; int continues; pmn_move_report report; pmn_position after;
    pmn_played_line *variations; size_t nvariations; ...; };
typedef struct pmn_check_result { pmn_position start; pmn_setup_status setup; unsigned plies;
    unsigned moves; pmn_ending ending; pmn_outcome outcome; pmn_position end;
    uint32_t captured[2]; int errors; ...; } pmn_check_result;
pmn_replay *pmn_replay_new(const pmn_record *rec, const pmn_setup *s, pmn_diag_fn fn,
                           void *ctx);
void pmn_replay_free(pmn_replay *r);
const pmn_setup *pmn_replay_setup(const pmn_replay *r);
const pmn_played_line *pmn_replay_main(const pmn_replay *r);
const pmn_check_result *pmn_replay_result(const pmn_replay *r);

typedef struct pmn_write_options { pmn_notation notation; char capture_style;
    const char *result; unsigned width; ...; } pmn_write_options;
void pmn_write_options_init(pmn_write_options *o);
int pmn_write_record(FILE *out, const pmn_record *rec, const pmn_replay *replay,
                     const pmn_write_options *o);
typedef enum { PMN_FORMAT_OGN, PMN_FORMAT_PLAYSTRATEGY, PMN_FORMAT_MANCALA_WORLD,
               PMN_FORMAT_AWARI, PMN_FORMAT_COUNT, ... } pmn_format;
int pmn_format_from_name(const char *name, pmn_format *f);
int pmn_write_format(FILE *out, pmn_format format, const pmn_record *rec,
                     const pmn_replay *replay, pmn_diag_fn fn, void *ctx);
typedef struct pmn_xml_writer pmn_xml_writer;
pmn_xml_writer *pmn_xml_writer_new(FILE *out);
int pmn_xml_write_game(pmn_xml_writer *w, const pmn_record *rec, const pmn_replay *replay,
                       pmn_diag_fn fn, void *ctx);
int pmn_xml_writer_close(pmn_xml_writer *w);

#define PMN_SOURCE_AUTO ...
#define PMN_SOURCE_PMN ...
#define PMN_SOURCE_XML ...
#define PMN_SOURCE_FOREIGN ...
typedef struct pmn_source_options { int format; const char *name; int validate;
    pmn_diag_fn note; void *note_ctx; ...; } pmn_source_options;
typedef struct pmn_source pmn_source;
pmn_source *pmn_source_new(FILE *f, const pmn_source_options *o, pmn_diag_fn fn, void *ctx);
int pmn_source_format(const pmn_source *src);
int pmn_source_next(pmn_source *src, pmn_record *rec);
void pmn_source_free(pmn_source *src);
int pmn_source_format_of_name(const char *name);
FILE *pmn_text_input(FILE *f, int own, pmn_diag_fn fn, void *ctx);

typedef struct pmn_reader pmn_reader;
typedef struct pmn_game_facts { unsigned moves; pmn_ending ending; pmn_outcome outcome;
    uint32_t captured[2]; ...; } pmn_game_facts;
pmn_reader *pmn_source_pmn(pmn_source *src);
void pmn_reader_game_text(const pmn_reader *rd, const char **text, size_t *len, pmn_at *line);
pmn_reader *pmn_reader_new(FILE *f, pmn_diag_fn fn, void *ctx);
void pmn_reader_free(pmn_reader *rd);
int pmn_reader_next(pmn_reader *rd, pmn_record *rec);
void pmn_reader_set_lines_before(pmn_reader *rd, pmn_at lines);

/* The module's own (set_source below). */
typedef struct pmn_check_options { pmn_source_options source; int quick; int proved_tags;
    ...; } pmn_check_options;
typedef struct pmnpy_game { pmn_record rec; pmn_replay *replay; ...; } pmnpy_game;
pmnpy_game *pmnpy_game_read(const char *text, size_t len, pmn_at line, pmn_diag_fn fn,
                            void *ctx);
void pmnpy_game_free(pmnpy_game *g);
int pmnpy_game_replay(pmnpy_game *g, pmn_diag_fn fn, void *ctx);
typedef struct pmnpy_slot { int rc; unsigned moves; pmnpy_game *game; char *text; size_t len;
    pmn_at line;
    char *tags; long ntags; pmn_diag *diags; size_t ndiags; ...; } pmnpy_slot;
typedef struct pmnpy_ahead pmnpy_ahead;
pmnpy_ahead *pmnpy_ahead_new(FILE *f, int format, const char *name);
pmnpy_slot *pmnpy_ahead_next(pmnpy_ahead *a);
pmnpy_game *pmnpy_slot_take(pmnpy_slot *s);
void pmnpy_ahead_free(pmnpy_ahead *a);
extern "Python" void pmnpy_diag(void *ctx, const pmn_diag *d);
extern "Python" ssize_t pmnpy_read(void *cookie, char *buf, size_t size);
const char *pmnpy_built(void);
FILE *pmnpy_reading(void *cookie);
FILE *pmnpy_open(const char *path);
FILE *pmnpy_memory(char **buf, size_t *size);
int pmnpy_close(FILE *f);
int pmn_check_record(const pmn_record *rec, const pmn_setup_options *o, pmn_diag_fn fn,
                     void *ctx, pmn_check_result *res);
typedef struct pmn_checker pmn_checker;
void pmnpy_free(void *p);
"""

SOURCE = r"""
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "pmn.h"

typedef struct pmnpy_ahead pmnpy_ahead;
static void pmnpy_ahead_free(pmnpy_ahead *a);
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

/* ---- a game: its record and replay, freed together ---- */

typedef struct pmnpy_game {
    pmn_record rec;
    pmn_replay *replay;
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

/* ---- reading ahead: a thread that reads, parses and replays the games
 * while Python takes the ones before (the GIL is not held by C calls, so
 * both run at once).  Each game is a slot, as libpmn's checker gives it
 * (pmn check's own): the game read, replayed and checked (rc 1), or the
 * text and tags of a game the quick pass proved clean (rc 2, parsed only
 * when asked: pmnpy_game_read), with its diagnostics; rc 0 the end, -1 a
 * read error or no memory. ---- */

#define PMNPY_SLOTS 64

typedef struct pmnpy_slot {
    int rc;
    unsigned moves;            /* main-line moves, as pmn check counts them */
    pmnpy_game *game;
    char *text;
    size_t len;
    pmn_at line;
    char *tags;
    long ntags;
    pmn_diag *diags;
    size_t ndiags, cap;
} pmnpy_slot;

typedef struct pmnpy_ahead {
    FILE *f;
    pmn_checker *c;
    char *name;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pmnpy_slot slot[PMNPY_SLOTS];
    /* One thread fills, Python takes: the counts are atomic, and the lock
     * and `changed` serve only to sleep when the ring is full (the thread)
     * or empty (Python), the other waking the sleeper in batches: a wake a
     * game costs more than the game. */
    _Atomic unsigned long made, taken;   /* slots filled, and handed to Python */
    _Atomic int thread_waits, python_waits, stop;
    int started;
    pmnpy_slot *filling;         /* where the thread's diagnostics go */
} pmnpy_ahead;

static void pmnpy_slot_clear(pmnpy_slot *s)
{
    pmnpy_game_free(s->game);
    free(s->text);
    free(s->tags);
    free(s->diags);
    memset(s, 0, sizeof *s);
}

static void pmnpy_collect(void *ctx, const pmn_diag *d)
{
    pmnpy_slot *s = ((pmnpy_ahead *)ctx)->filling;
    if (s->ndiags == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        pmn_diag *more = realloc(s->diags, cap * sizeof *more);
        if (!more)
            return;   /* (the game itself will say F002) */
        s->diags = more;
        s->cap = cap;
    }
    s->diags[s->ndiags++] = *d;
}

static char *pmnpy_copy(const char *p, size_t n)
{
    char *c = malloc(n ? n : 1);
    if (c)
        memcpy(c, p, n);
    return c;
}

/* Fill s with the next game (or the end), as pmn check checks it
 * (pmn_checker: set up, replayed, the score claimed checked, diagnostics
 * in file order): a game the quick pass proves clean as its text and
 * tags, any other as its record and replay, taken over. */
static void pmnpy_fill(pmnpy_ahead *a, pmnpy_slot *s)
{
    pmn_checked_game g;
    a->filling = s;
    memset(&g, 0, sizeof g);
    s->rc = pmn_checker_next(a->c, &g);
    if (s->rc == 1) {
        s->moves = g.facts.moves;
        /* Its tags in one piece, for Python to take at once. */
        size_t n = 0;
        for (size_t i = 0; i < g.ntags; i++)
            n += strlen(g.tags[i].name) + strlen(g.tags[i].value) + 2;
        if ((s->tags = malloc(n ? n : 1))) {
            char *at = s->tags;
            for (size_t i = 0; i < g.ntags; i++)
                at = stpcpy(stpcpy(at, g.tags[i].name) + 1, g.tags[i].value) + 1;
            s->ntags = (long)n;
        }
        if (g.proved && !g.tags) {
            free(s->tags);
            s->tags = NULL;
            s->ntags = -1;   /* (tags of another shape: parsed when asked) */
        }
        for (size_t i = 0; i < g.ndiags; i++)
            pmnpy_collect(a, &g.diags[i]);
        if (g.proved) {
            const char *text;
            pmn_reader_game_text(pmn_source_pmn(pmn_checker_source(a->c)), &text, &s->len,
                                 &s->line);
            s->text = pmnpy_copy(text, s->len);
            s->rc = 2;
        } else if ((s->game = calloc(1, sizeof *s->game))) {
            s->game->rec = g.rec;          /* (the record and replay are the game's now) */
            s->game->replay = g.replay;
            pmn_record_init(&g.rec);
            g.replay = NULL;
        }
        if ((s->rc == 2 && !s->text) || (s->rc == 1 && !s->game) || (g.ntags && !s->tags
                                                                        && !g.proved))
            s->rc = -1;
        pmn_checked_game_free(&g);
    } else {
        /* The end: the input closed here, so that what is said at its
         * close (the encoding it was read in, N133) is the end's. */
        pmn_checker_free(a->c);
        a->c = NULL;
        if (a->f)
            fclose(a->f);
        a->f = NULL;
    }
}

/* Sleep on a->changed while ring_full (the thread) or ring_empty (Python)
 * says so: *waits set first, the count read again under the lock, so that
 * a wake is never missed (the waker sets the count, then reads *waits). */
static int pmnpy_full(pmnpy_ahead *a) { return a->made - a->taken >= PMNPY_SLOTS - 1; }
static int pmnpy_empty(pmnpy_ahead *a) { return a->made == a->taken; }

static void pmnpy_sleep(pmnpy_ahead *a, _Atomic int *waits, int (*until_not)(pmnpy_ahead *))
{
    pthread_mutex_lock(&a->lock);
    *waits = 1;
    while (until_not(a) && !a->stop)
        pthread_cond_wait(&a->changed, &a->lock);
    *waits = 0;
    pthread_mutex_unlock(&a->lock);
}

static void pmnpy_wake(pmnpy_ahead *a)
{
    pthread_mutex_lock(&a->lock);
    pthread_cond_broadcast(&a->changed);
    pthread_mutex_unlock(&a->lock);
}

static void *pmnpy_ahead_run(void *arg)
{
    pmnpy_ahead *a = arg;
    for (;;) {
        if (pmnpy_full(a))
            pmnpy_sleep(a, &a->thread_waits, pmnpy_full);
        if (a->stop)
            return NULL;
        pmnpy_slot *s = &a->slot[a->made % PMNPY_SLOTS];
        pmnpy_slot_clear(s);   /* (taken by Python before: freed here, by the
                                  thread that made it, for malloc's sake) */
        pmnpy_fill(a, s);
        int rc = s->rc;        /* (the slot is Python's once made counts it) */
        unsigned long made = ++a->made;
        if (a->python_waits && (made - a->taken >= PMNPY_SLOTS / 4 || rc <= 0))
            pmnpy_wake(a);
        if (rc <= 0)
            return NULL;
    }
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
    a->filling = &a->slot[0];
    if (!(a->f = pmn_text_input(raw, 1, pmnpy_collect, a))) {
        fclose(raw);
        free(a);
        return NULL;
    }
    a->name = name ? strdup(name) : NULL;
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->changed, NULL);
    pmn_check_options o;
    memset(&o, 0, sizeof o);
    o.source.format = format;
    o.source.name = a->name;
    o.source.note = pmnpy_collect;
    o.source.note_ctx = a;
    o.quick = 1;
    o.proved_tags = 1;
    if (!(a->c = pmn_checker_new(a->f, &o, pmnpy_collect, a))) {
        pmnpy_ahead_free(a);
        return NULL;
    }
    if (pthread_create(&a->thread, NULL, pmnpy_ahead_run, a) != 0) {
        pmnpy_ahead_free(a);
        return NULL;
    }
    a->started = 1;
    return a;
}

/* The next slot, waited for: valid until the next call. */
static pmnpy_slot *pmnpy_ahead_next(pmnpy_ahead *a)
{
    if (pmnpy_empty(a))
        pmnpy_sleep(a, &a->python_waits, pmnpy_empty);
    pmnpy_slot *s = &a->slot[a->taken % PMNPY_SLOTS];
    if (s->rc > 0) {
        unsigned long taken = ++a->taken;
        /* The thread goes on once half the slots are free again. */
        if (a->thread_waits && a->made - taken <= PMNPY_SLOTS / 2)
            pmnpy_wake(a);
    }
    return s;
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
    if (a->started) {
        a->stop = 1;
        pmnpy_wake(a);
        pthread_join(a->thread, NULL);
    }
    pmnpy_slot scratch;   /* (what closing says now is dropped with it) */
    memset(&scratch, 0, sizeof scratch);
    a->filling = &scratch;
    pmn_checker_free(a->c);
    if (a->f)
        fclose(a->f);
    pmnpy_slot_clear(&scratch);
    for (unsigned i = 0; i < PMNPY_SLOTS; i++)
        pmnpy_slot_clear(&a->slot[i]);
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->changed);
    free(a->name);
    free(a);
}

static FILE *pmnpy_open(const char *path) { return fopen(path, "rb"); }
static FILE *pmnpy_memory(char **buf, size_t *size) { return open_memstream(buf, size); }
static int pmnpy_close(FILE *f) { return fclose(f); }
static void pmnpy_free(void *p) { free(p); }
"""


def _tree_flags():
    src, build = os.environ.get("PMN_SRCDIR"), os.environ.get("PMN_BUILDDIR")
    if not src:
        return None
    build = build or src
    return dict(include_dirs=[os.path.join(src, "src")],
                library_dirs=[os.path.join(build, "src", ".libs")],
                libraries=["pmn"])


def _pkg_config_flags():
    try:
        cflags = subprocess.check_output(["pkg-config", "--cflags", "pmn"], text=True)
        libs = subprocess.check_output(["pkg-config", "--libs", "pmn"], text=True)
    except (OSError, subprocess.CalledProcessError):
        raise SystemExit("pmn: libpmn not found: run 'make install' first (pkg-config pmn), "
                         "or set PMN_SRCDIR (and PMN_BUILDDIR) to a built tree")
    flags = dict(include_dirs=[], library_dirs=[], libraries=[], runtime_library_dirs=[])
    for word in shlex.split(cflags):
        if word.startswith("-I"):
            flags["include_dirs"].append(word[2:])
    for word in shlex.split(libs):
        if word.startswith("-L"):
            flags["library_dirs"].append(word[2:])
            flags["runtime_library_dirs"].append(word[2:])
        elif word.startswith("-l"):
            flags["libraries"].append(word[2:])
    return flags


def library_version():
    """The version of the libpmn built against: configure.ac's in a tree,
    else pkg-config's."""
    src = os.environ.get("PMN_SRCDIR")
    if src:
        with open(os.path.join(src, "configure.ac"), encoding="utf-8") as f:
            m = re.search(r"AC_INIT\(\[pmn\],\s*\[([^\]]+)\]", f.read())
        return m.group(1)
    return subprocess.check_output(["pkg-config", "--modversion", "pmn"], text=True).strip()


ffibuilder = FFI()
ffibuilder.cdef(CDEF)
_flags = _tree_flags() or _pkg_config_flags()
ffibuilder.set_source("pmn._capi", SOURCE,
                      define_macros=[("PMNPY_VERSION", '"%s"' % library_version())],
                      **_flags)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
