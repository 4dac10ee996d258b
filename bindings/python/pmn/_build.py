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
void pmn_ending_explain(const pmn_rules *r, pmn_ending e, const pmn_position *end,
                        char *buf, size_t size);

typedef struct pmn_move_report { int side; int hole; unsigned captured; unsigned given;
    unsigned stored; uint64_t laps; int end_side; int end_hole; int extra; int passed;
    int grand_slam; pmn_ending ending; pmn_outcome outcome; ...; } pmn_move_report;
int pmn_legal_moves(const pmn_rules *r, const pmn_position *p, int moves[32]);
pmn_ending pmn_position_ending(const pmn_rules *r, const pmn_position *p, pmn_outcome *outcome);

typedef struct pmn_game pmn_game;
pmn_game *pmn_game_new(const pmn_rules *r, const pmn_position *start);
pmn_game *pmn_game_clone(const pmn_game *g);
void pmn_game_free(pmn_game *g);
int pmn_game_play(pmn_game *g, int hole, pmn_move_report *rep);
const pmn_position *pmn_game_position(const pmn_game *g);
pmn_outcome pmn_game_outcome(const pmn_game *g);
pmn_ending pmn_game_ending(const pmn_game *g);

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
pmn_tablebase *pmn_tablebase_make(const pmn_rules *r, unsigned seeds, unsigned threads,
                                  pmn_error *err);
pmn_tablebase *pmn_tablebase_make_for(const pmn_rules *r, const pmn_position *p,
                                      unsigned threads);

typedef enum { PMN_NOTE, PMN_WARNING, PMN_ERROR, PMN_FATAL, ... } pmn_severity;
typedef struct pmn_diag { int code; pmn_severity severity; pmn_at line; pmn_at col;
    char message[400]; ...; } pmn_diag;
typedef void (*pmn_diag_fn)(void *ctx, const pmn_diag *d);
void pmn_diag_code_name(int code, char buf[8]);

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

typedef struct pmn_replay pmn_replay;
typedef enum { PMN_SETUP_READY, ... } pmn_setup_status;
typedef struct pmn_setup { pmn_setup_status status; pmn_rules rules; pmn_position start;
    int given; int assumed; ...; } pmn_setup;

typedef struct pmn_played pmn_played;
typedef struct pmn_played_line { pmn_played *moves; size_t nmoves; } pmn_played_line;
struct pmn_played { int replayed; int mover; int side; unsigned ply; unsigned turn;
    unsigned number; int continues; pmn_move_report report; pmn_position after;
    pmn_played_line *variations; size_t nvariations; ...; };
typedef struct pmn_check_result { pmn_position start; pmn_setup_status setup; unsigned plies;
    unsigned moves; pmn_ending ending; pmn_outcome outcome; pmn_position end;
    uint32_t captured[2]; int errors; ...; } pmn_check_result;
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

/* The module's own (pmn/_helpers.c, which reads the rest of pmn.h itself). */
typedef struct pmnpy_game { pmn_record rec; pmn_replay *replay; ...; } pmnpy_game;
pmnpy_game *pmnpy_game_read(const char *text, size_t len, pmn_at line, pmn_diag_fn fn,
                            void *ctx);
void pmnpy_game_free(pmnpy_game *g);
int pmnpy_game_replay(pmnpy_game *g, pmn_diag_fn fn, void *ctx);
typedef struct pmnpy_batch { int64_t n; int64_t *heads; char *blob; size_t blen;
    int64_t *dnums; char *dtext; size_t nd, dlen; ...; } pmnpy_batch;
typedef struct pmnpy_ahead pmnpy_ahead;
pmnpy_ahead *pmnpy_ahead_new(FILE *f, int format, const char *name);
pmnpy_batch *pmnpy_ahead_next(pmnpy_ahead *a);
pmnpy_game *pmnpy_batch_take(pmnpy_batch *b, int64_t i);
void pmnpy_ahead_free(pmnpy_ahead *a);
extern "Python" void pmnpy_diag(void *ctx, const pmn_diag *d);
extern "Python" ssize_t pmnpy_read(void *cookie, char *buf, size_t size);
const char *pmnpy_built(void);
FILE *pmnpy_reading(void *cookie);
FILE *pmnpy_open(const char *path);
FILE *pmnpy_memory(char **buf, size_t *size);
int pmnpy_close(FILE *f);
void pmnpy_free(void *p);
"""

SOURCE = r"""
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include "pmn.h"
""" + open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "_helpers.c"),
           encoding="utf-8").read()


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
