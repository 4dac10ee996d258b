/* cli.h - what the subcommands of pmn share. */
#ifndef PMN_CLI_H
#define PMN_CLI_H

#include "pmn.h"

#include <getopt.h>
#include <stdio.h>

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* Exit statuses, documented in pmn(1). */
enum {
    EXIT_CLEAN = 0,     /* nothing to report */
    EXIT_WARNINGS = 1,  /* warnings, no errors */
    EXIT_ERRORS = 2,    /* errors in the input */
    EXIT_FATAL = 3,     /* a file could not be read or written; out of memory */
    EXIT_USAGE = 64     /* the command line is wrong */
};

/* ---- options (options.c) ---------------------------------------------- */

/* One option of a subcommand, declared once: getopt_long's arguments and
 * the --help text are both made from the table of them. */
struct cli_option {
    const char *name;         /* the long name, "rules" */
    int key;                  /* its short letter, or a number >= 256 if none */
    const char *arg;          /* the argument's name ("SPEC"), or NULL: a flag */
    const char *help;         /* what it does; '\n' between lines */
};

/* Options more than one subcommand takes. */
#define OPT_HELP { "help", 'h', NULL, "show this help" }
#define OPT_RULES_OVER { "rules", 'r', "SPEC", \
    "rules over each record's own (its Game and Rules\n" \
    "tags), e.g. endless=lose, or a rule file that\n" \
    "replaces them; may be repeated" }
#define OPT_STRICT { "strict", 'Z' + 256, NULL, \
    "exit as pmn check does: 1 if the games carry\n" \
    "warnings, 2 errors (else 0 when the job is done)" }
#define OPT_START_POSITION { "position", 'P' + 256, "STRING", \
    "the start of every game whose record gives none\n" \
    "(a problem's diagram lost): a position string" }
#define OPT_RULES_SET { "rules", 'r', "SPEC", \
    "rule set and options, e.g. hawalis,endless=lose,\nor a rule file" }
#define OPT_RUNNING_TOTALS { "running-totals", 'T' + 256, NULL, \
    "the counts after moves are each player's captures\nso far, not the move's" }
#define OPT_OUTPUT { "output", 'o', "FILE", "write to FILE instead of standard output" }
#define OPT_NOTATION { "notation", 'n', "NAME", \
    "letters (a-n, A-N; the default), numbers (1-14 for\n" \
    "the player to move) or coordinates (a1-g4)" }
#define OPT_CAPTURE_STYLE { "capture-style", 'c', "STYLE", \
    "plus for (+N) (the default), or x for (xN)" }
/* The limits of a search (analyse, annotate): search_option parses them. */
enum { KEY_NODES = 'N' + 256, KEY_TIME = 't' + 256, KEY_SOLVE = 'S' + 256,
       KEY_HASH = 'H' + 256, KEY_DISTANCE = 'D' + 256, KEY_TABLEBASE = 'B' + 256,
       KEY_THREADS = 'j' + 512 };
#define OPT_SEARCH_LIMITS \
    { "depth", 'd', "D", "look D plies ahead" }, \
    { "nodes", KEY_NODES, "N", "stop after about N positions" }, \
    { "time", KEY_TIME, "SECONDS", "stop after SECONDS (the result then depends on\n" \
      "the machine)" }, \
    { "solve", KEY_SOLVE, NULL, "search to the end of the game: exact values (where\n" \
      "seeds score, the final margin)" }, \
    { "distance", KEY_DISTANCE, NULL, "with --solve, also the plies to the end (the\n" \
      "quickest win; slower)" }, \
    { "hash", KEY_HASH, "MB", "transposition table size (default 64)" }, \
    { "threads", KEY_THREADS, "N", "threads of the solver (default: the cores, or\n" \
      "$PMN_THREADS); the value is the same whatever N" }
#define OPT_TABLEBASE { "tablebase", KEY_TABLEBASE, "DIR", \
    "answer from the endgame databases in DIR ('pmn\n" \
    "tablebase build')" }
#define OPT_QUIET_PROGRESS { "quiet", 'q', NULL, "no progress line on a terminal" }
#define OPT_END { NULL, 0, NULL, NULL }

struct command {
    const char *name;
    const char *summary;      /* a line for 'pmn --help' */
    const char *usage;        /* what follows "pmn NAME"; '\n' between forms */
    const char *about;        /* what it does, before the options in --help */
    const struct cli_option *options;   /* ending with OPT_END; --help is added */
    const char *epilogue;     /* after the options in --help, or NULL */
    int (*run)(const struct command *cmd, int argc, char **argv);
};

extern const struct command check_command, replay_command, convert_command,
    export_command, import_command, perft_command, position_command, rules_command,
    analyse_command, annotate_command, select_command, stats_command,
    duplicates_command, split_command, html_command, uci_command, tablebase_command,
    selfplay_command;

#define CLI_MAX_OPTIONS 48

/* Parsing a subcommand's arguments:
 *     cli_begin(&a, cmd, argc, argv);
 *     while ((c = cli_next(&a)) != CLI_END) switch (c) { ... the keys ...
 *         case CLI_STOP: return a.status; }
 * then argv[optind..] are the operands.  --help and errors are handled by
 * cli_next, which says CLI_STOP with the exit status in a.status. */
struct cli_args {
    const struct command *cmd;
    int argc;
    char **argv;
    struct option longopts[CLI_MAX_OPTIONS + 1];
    char optstring[2 * CLI_MAX_OPTIONS + 2];
    const char *arg;          /* the argument of the option just read */
    int status;
};

enum { CLI_END = -1, CLI_STOP = -2 };

void cli_begin(struct cli_args *a, const struct command *cmd, int argc, char **argv);
int cli_next(struct cli_args *a);
void cli_help(const struct command *cmd, FILE *f);

/* text with its control characters escaped (pmn_text_escape), in buf:
 * what the user gave is never written raw to a terminal. */
const char *escaped(const char *text, char *buf, size_t size);

/* Report a bad option value, pointing at the column of the fault. */
int usage_error_at(const char *cmd, const char *option, const char *text,
                   const pmn_error *err);
/* Report a command-line error and the hint to use --help. */
int usage_error(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);

/* A whole number of at most `max`, digits only; returns 0, or -1 if s is
 * not one. */
int parse_number(const char *s, unsigned long max, unsigned long *v);
/* Is s all a decimal number (a sign, digits, a point, an exponent)?  Then 1
 * and its value in *v. */
int is_decimal(const char *s, double *v);
/* p (an array of *cap elements of `size` bytes) with room for element n:
 * grown to twice (or `first` elements) when full.  NULL when memory runs
 * out, p then left as it was. */
void *grown(void *p, size_t *cap, size_t n, size_t size, size_t first);

/* One of OPT_SEARCH_LIMITS into *l and *hash_mb: 0, 1 if key is none of
 * them, or the usage error. */
/* The solver's threads unless --threads says: $PMN_THREADS, else the cores. */
unsigned default_threads(void);
int search_option(const char *cmd, int key, const char *arg, pmn_search_limits *l,
                  unsigned long *hash_mb);
/* Where the endgame databases are by default: $PMN_TABLEBASES, else
 * $XDG_DATA_HOME/pmn/tablebases, else ~/.local/share/pmn/tablebases. */
const char *default_tablebase_dir(char *buf, size_t size);
/* The endgame databases of DIR for s (whose rules are r), into *tb: 0, or
 * the exit status after saying why they cannot serve.  dir NULL: those of
 * the default location, if it has them. */
int tablebase_option(const char *cmd, const char *dir, const pmn_rules *r, pmn_searcher *s,
                     pmn_tablebase **tb);
/* The same for each game of an archive: *tb again when its databases are
 * of r's rules, else (closed) those of r opened in its stead. */
int tablebase_for_game(const char *cmd, const char *dir, const pmn_rules *r, pmn_searcher *s,
                     pmn_tablebase **tb);

/* --notation NAME and --capture-style STYLE, for the commands that write
 * PMN: returns 0, or the usage error. */
int notation_option(const char *cmd, const char *name, pmn_write_options *o);
int capture_style_option(const char *cmd, const char *style, pmn_write_options *o);

/* ---- inputs, outputs and diagnostics (io.c) ---------------------------- */

/* The output of a command: FILE of -o, or standard output (name NULL).
 * open_output refuses (a usage error) a FILE that is one of the inputs
 * (standard input if there are none), and writes the file's text to a
 * temporary file beside it; close_output renames that into place if
 * nothing failed and status is not EXIT_FATAL, and otherwise removes it,
 * leaving FILE as it was.  Both report a failure and return its exit status;
 * open_output returns 0 when it succeeds, close_output `status`. */
struct output {
    const char *name;
    FILE *f;
    int direct;               /* written in place: not a regular file (a device) */
};
int open_output(struct output *o, const char *cmd, const char *name, char **inputs,
                int ninputs);
int close_output(struct output *o, int failed, int status);
/* A temporary file beside target (".NAME.XXXXXX"), open for writing in *f,
 * removed by any signal that ends pmn: its path (kept until the end), or
 * NULL (errno).  temp_file_done(path, target, replace) moves it to target
 * -- over a file there only with replace, else failing with EEXIST -- and
 * returns 0, or -1 (errno) leaving it removed; with target NULL it only
 * removes it.  Either way the signals no longer touch it. */
char *temp_file_make(const char *target, FILE **f);
int temp_file_done(char *path, const char *target, int replace);
/* Flush and close standard output at the end of every command: a failure
 * (a full disk, a closed pipe) is F003 and EXIT_FATAL; else `status`. */
int finish_stdout(int status);

/* ---- progress (progress.c) --------------------------------------------- */

/* The progress line of a long run over archives, on standard error when it
 * is a terminal (and not --quiet): games and bytes done, rate, time left. */
struct progress {
    int on;
    const char *cmd;
    double start, last, file_start;
    double first;             /* seconds before the first line (PMN_PROGRESS_AFTER) */
    int drawn;                /* a line was drawn: the next waits REDRAW */
    unsigned long games;      /* of the current file */
    FILE *f;
    long long total;          /* its size; -1 if not a regular file */
};

/* pmn annotate's options, for the commands that annotate (annotate, html
 * --annotate): its defaults; then, once the options are read, the default
 * limit where none was given and the Annotator tag's value naming them
 * (into annotator, which ao then points to). */
void annotate_defaults(pmn_annotate_options *ao);
void annotate_finish(pmn_annotate_options *ao, char *annotator, size_t size);

/* Seconds on a monotonic clock. */
double clock_seconds(void);
void progress_begin(struct progress *p, const char *cmd, int quiet);
/* A new input file (each_input calls it). */
void progress_file(struct progress *p, FILE *f);
/* A game done: redraws the line now and then. */
void progress_game(struct progress *p, const char *file);
/* Take the line off the terminal (before a diagnostic, and at the end). */
void progress_erase(void);
/* n games done at once (a part read by another thread). */
void progress_games(struct progress *p, const char *file, unsigned long n);

/* Where diagnostics go: standard error, as FILE:LINE:COL: severity[CODE]:
 * message, counted by severity. */
struct held_diag {
    pmn_diag d;
    size_t seq;               /* the order found, for ties */
};

struct diag_sink {
    const char *file;         /* the name shown for the current input */
    unsigned count[PMN_FATAL + 1];
    int show_notes;
    /* While an input is read, each game's diagnostics are held and then
     * printed in file order (reading and replaying find them in two passes). */
    int hold;
    struct held_diag *held;
    size_t nheld, held_cap;
    struct progress *progress;   /* of the command, or NULL */
    FILE *err;                /* where diagnostics go: NULL for standard error */
    int json;                 /* each as a JSON object on a line (check --format jsonl) */
    pmn_at lines_before;      /* the input is a part of its file after so many lines */
    int part;                 /* the input is a part of its file (--jobs) */
};

void print_diag(void *sink, const pmn_diag *d);   /* a pmn_diag_fn */
/* s as a JSON string, quotes and escapes written. */
void json_string(FILE *f, const char *s);
/* s as a JSON string, or null if s is NULL. */
void json_or_null(FILE *f, const char *s);
/* Print the diagnostics held, in the order of their place in the file. */
void release_diags(struct diag_sink *s);
/* Print diagnostic `code` (the table's severity) of the command's own. */
void report(struct diag_sink *s, pmn_diag_code code, pmn_at line, pmn_at col,
            const char *fmt, ...) CLI_PRINTF(5, 6);
/* The exit status the counts call for (see pmn(1)). */
int exit_status(const struct diag_sink *s);
/* The name of n that word is most likely a slip for (an edit or two
 * away, or its start), or NULL: for "did you mean". */
const char *did_you_mean(const char *word, const char *const *names, size_t n);
/* The status of a command that did its job on the games whatever they
 * carry (select, stats, html, split, duplicates, annotate): 0, or 3 where
 * a file could not be read or written; strict (--strict): exit_status's. */
int job_status(const struct diag_sink *s, int strict);

/* Open an input named on the command line ("-": standard input); on failure
 * report a fatal diagnostic and return NULL. */
FILE *open_input(const char *name, struct diag_sink *s);
void close_input(FILE *f);
/* Call fn on each of the n files named (standard input if n is 0), with
 * s->file naming it; a file that cannot be opened is reported and skipped. */
void each_input(char **names, int n, struct diag_sink *s,
                void (*fn)(FILE *f, struct diag_sink *s, void *ctx), void *ctx);

/* ---- jobs (jobs.c) ----------------------------------------------------- */

#define MAX_JOBS 64

/* A command that reads its inputs with several threads (--jobs): fn reads
 * one input (or a part of one) as each_input's fn does; clone makes a
 * context for a part, like ctx but with nothing counted, that writes to out
 * (malloc'd; freed by the caller); merge adds what a part's context counted
 * into ctx and writes its output (out[0..len)) where ctx writes; games says
 * how many games a part's context read. */
struct job_command {
    void (*fn)(FILE *f, struct diag_sink *s, void *ctx);
    void *(*clone)(const void *ctx, FILE *out);
    void (*merge)(void *ctx, const void *part, const char *out, size_t len);
    unsigned long (*games)(const void *part);
};

/* For a merge: a part's games of PMN (text[0..len)), written to f after
 * the games before it with a blank line between, as one job writes them.
 * Returns 0, or -1 if the write fails. */
int write_pmn_part(FILE *f, unsigned long games_before, const char *text, size_t len);
/* each_input, with the games of each input read by `jobs` threads at once;
 * what is written is exactly what one thread writes. */
void each_input_jobs(char **names, int n, struct diag_sink *s, const struct job_command *jc,
                     void *ctx, int jobs);
/* The cores this process may use (at most MAX_JOBS): --jobs' default. */
int default_jobs(void);
/* --jobs N: 0, or the usage error. */
int jobs_option(const char *cmd, const char *arg, int *jobs);
#define OPT_JOBS { "jobs", 'j', "N", "read with N threads (default: the cores there are)" }

/* ---- rules, positions and records (records.c) -------------------------- */

/* Apply one --rules SPEC (a specification, or a rule file) on *r, or
 * report it and return the exit status. */
int apply_rules_option(const char *cmd, pmn_rules *r, const char *spec);
/* Does a --rules value name a rule file (it ends in ".xml" or holds a '/')
 * rather than give a specification? */
int is_rule_file(const char *spec);
/* Read a rule file, reporting what is wrong with it; 0, or an exit status. */
int read_rule_file(const char *path, pmn_rule_file **out);

/* The position given as `what` (or the opening one when text is NULL),
 * read under rules *r. */
int position_option(const char *cmd, const char *what, pmn_rules *r,
                    const char *text, pmn_position *p);

/* The --rules options of a command: a rule file replaces each record's
 * own rules, specifications apply over them (pmn_setup_record). */
#define MAX_RULES_OPTIONS 16
struct rules_options {
    const char *spec[MAX_RULES_OPTIONS];
    pmn_rules file;
    pmn_setup_options setup;  /* points into the above */
};
int add_rules_option(const char *cmd, struct rules_options *o, const char *spec);
/* The formats records are read from and written in (--from, --to): PMN,
 * XML, and other programs' (FORMAT_OGN on, in pmn_format's order). */
enum { FORMAT_AUTO = -1, FORMAT_PMN, FORMAT_XML, FORMAT_OGN };
/* (FORMAT_OGN + f for each pmn_format f: the library's table is the list.) */
#define FOREIGN_FORMAT(format) ((pmn_format)((format) - FORMAT_OGN))
/* "pmn, ogn, ... or awari", from the library's table of notations
 * (pmn_format_name); help texts write it as {formats}, and the file names'
 * ends that say one (".ogn, .pgn") as {extensions}. */
const char *format_names(void);
const char *format_extensions(void);
#define OPT_FROM { "from", 'I' + 256, "FORMAT", \
    "{formats};\n" \
    "default: found from the input's name ({extensions})\n" \
    "or its first tags and move, said in a note; else\n" \
    "pmn" }
int format_option(const char *cmd, const char *option, const char *arg, int *format);
/* The format an input is in, by its name (.ogn: OGN, .pgn: PlayStrategy's)
 * or, seekable, its first bytes (f is left where it was); FORMAT_PMN when
 * neither says otherwise.  *why: how it was found. */
int detect_format(FILE *f, const char *name, const char **why);
/* detect_format for an input, another program's format said by N133. */
int found_format(FILE *f, struct diag_sink *s);
/* Does one of these names say a format other than PMN (read by one job:
 * --jobs cuts PMN text only)? */
int names_foreign(char **names, int n);
/* The records of an input, in any format (FORMAT_AUTO: found by
 * detect_format, said by N133), their diagnostics through print_diag to s
 * (source_open) or through fn (source_open_to); failures to s.  0, or -1
 * (reported) when memory runs out. */
struct source {
    pmn_reader *pmn;
    pmn_format_reader *foreign;
    pmn_xml_reader *xml;
    int format;               /* FORMAT_*: what it is read as */
};
int source_open(struct source *src, FILE *f, struct diag_sink *s, const struct rules_options *o,
                int format);
int source_open_to(struct source *src, FILE *f, struct diag_sink *s,
                   const struct rules_options *o, int format, pmn_diag_fn fn, void *ctx);
int source_next(struct source *src, pmn_record *rec);
/* A Score tag (an OGN result: "25-20") against the seeds the replay ended
 * with: E221 where they differ; where they agree and drop is set, the tag
 * goes (the replay proves it).  Returns 1 if it differed. */
int check_score(pmn_record *rec, const pmn_replay *replay, struct diag_sink *s, int drop);
void source_close(struct source *src);

/* A reader of f whose games are set up with o (NULL: none); NULL when
 * memory runs out (reported). */
pmn_reader *open_reader(FILE *f, struct diag_sink *s, const struct rules_options *o);
/* Set rec up with o and replay it, reporting through s (NULL: silently);
 * NULL when memory runs out (reported). */
pmn_replay *replay_record(const pmn_record *rec, const struct rules_options *o,
                          struct diag_sink *s);

/* ---- archives: games read for select, duplicates, split, stats (archive.c) */

enum game_state { GAME_ENDED, GAME_NOT_OVER, GAME_STOPPED, GAME_UNKNOWN_RULES, GAME_BAD_START,
                  GAME_NO_START,
                  GAME_TAGS_ONLY   /* only its tags were read (archive.tags_only) */ };

#define MAX_DIAG_CODE 1000

/* A game of an archive as these commands see it. */
struct game {
    const char *file;
    struct diag_sink *sink;   /* its file's */
    unsigned long number;     /* in its file, from 1 */
    pmn_at line;
    const char *text;         /* as written (PMN input); NULL from an XML archive */
    size_t len;
    const pmn_tag *tags;      /* the record's, or read from text (quick pass) */
    size_t ntags;
    const pmn_record *rec;    /* NULL: proved clean by the reader's quick pass */
    const pmn_replay *replay; /* with rec */
    const unsigned char *holes;   /* without rec: its plies (pmn_reader_game_holes) */
    size_t nholes;
    const char *rules;        /* the name of its rule set */
    pmn_game_facts facts;     /* ending and outcome only where it ended */
    enum game_state state;
    unsigned count[PMN_FATAL + 1];   /* its diagnostics */
    unsigned char codes[MAX_DIAG_CODE / 8];
};

/* What a command does with an archive.  Its context begins with this
 * struct, which archive_file (a job_command's fn) is given. */
struct archive {
    /* Each game: 0 to read on, 1 to stop reading the input, -1 out of memory. */
    int (*game)(struct archive *a, struct game *g);
    int need_moves;           /* every game's record and replay: no quick pass */
    /* Only tags are needed: a game whose tags are simple and give its Result
     * is read no further (GAME_TAGS_ONLY; no facts, numbers or text). */
    int tags_only;
    /* No tag is looked at: games the quick pass proves clean come without
     * them (their result is what the pass proved, as written). */
    int no_tags;
    /* NULL, or a test of a game's tags (state GAME_TAGS_ONLY, nothing else
     * known) that is true when the game is not wanted, nor any game without
     * tags: the games it rules out are left unread. */
    int (*ruled_out)(struct archive *a, const struct game *g);
    /* NULL, or each diagnostic of a game (notes too), before the game is
     * given to game(); standard error has them all the same. */
    void (*diag)(struct archive *a, const pmn_diag *d);
    const struct rules_options *ro;
    int from;                 /* FORMAT_* of the inputs (--from); FORMAT_AUTO: found */
    /* NULL, or before each game of PMN input read again: did the quick
     * pass prove the next game in the earlier reading?  Then it is read
     * for its plies alone (pmn_reader_next_again; its facts unknown). */
    int (*proved)(struct archive *a);
};

void archive_file(FILE *f, struct diag_sink *s, void *archive);
/* Does f (its next byte '<') hold XML rather than PMN? */
int is_xml_input(FILE *f);

const char *game_tag(const struct game *g, const char *name);
/* Its Result tag, else the result after its moves; NULL: none. */
const char *game_result(const struct game *g);
int game_has_code(const struct game *g, int code);
const char *game_state_name(enum game_state s);
/* How a replay went, as a state. */
enum game_state game_state_of(const pmn_check_result *res);
/* How it ended, in words ("North has no legal move"), or its state. */
void game_ending_text(const struct game *g, char *buf, size_t size);
/* g as a JSON object on a line. */
void game_json(FILE *f, const struct game *g);

/* The identity of a game for duplicates: a hash of its rules and start
 * as text (game_start_text), then of each ply in turn (game_hash_ply of
 * game_ply_code), so that a game's hash after k plies is the hash of a game
 * of those k plies.  Needs the replay, or the plies of the quick pass (a
 * game of the quick pass is Hawalis from its opening: the same text for
 * all, which a caller may keep). */
size_t game_start_text(const struct game *g, char buf[1024]);
uint64_t game_hash_start(const char *start, size_t n);
static inline uint64_t game_hash_ply(uint64_t h, unsigned code)
{
    h ^= code + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 33);
}
/* Its plies (as far as the replay played them), and ply i in 9 bits: its
 * side and hole, and whether it continues a turn (inline: duplicates
 * hashes every prefix of every game, twice). */
static inline size_t game_plies(const struct game *g)
{
    return g->replay ? pmn_replay_main(g->replay)->nmoves : g->nholes;
}
static inline unsigned game_ply_code(const struct game *g, size_t i)
{
    if (!g->replay)   /* the quick pass: sides by turns from South, a sowing a ply */
        return (unsigned)((i % 2) * 64 + g->holes[i] + 1);
    const pmn_played *pl = &pmn_replay_main(g->replay)->moves[i];
    return (unsigned)(pl->side * 64 + g->rec->main.moves[i].hole + 1)
         | (unsigned)pl->continues << 8;
}
/* What those hash, as bytes (start[0..n), its start text, then two bytes
 * a ply), of the game's first `plies` plies (all: (size_t)-1), into *buf
 * (grown as needed, *cap its size): two games or prefixes are the same
 * where these bytes are.  0, or -1 when memory runs out. */
int game_identity(const struct game *g, const char *start, size_t n, size_t plies,
                  unsigned char **buf, size_t *cap, size_t *len);

/* Games written out: as read (verbatim; a game of an XML archive as
 * canonical PMN), canonical PMN, an XML archive, a line each, or JSON Lines. */
enum { OUT_VERBATIM, OUT_PMN, OUT_XML, OUT_LIST, OUT_JSONL };
struct game_output {
    int format;
    FILE *f;
    pmn_write_options wo;
    pmn_xml_writer *xml;
    unsigned long games;
    int failed;
};
#define OPT_OUTPUT_FORMAT { "format", 'F' + 256, "FORMAT", \
    "verbatim (the games as read; the default), pmn\n" \
    "(canonical), xml, list (a line a game) or jsonl" }
int output_format_option(const char *cmd, const char *arg, int *format);
/* Which formats need each game's record (no quick pass). */
#define OUTPUT_NEEDS_RECORD(fmt) ((fmt) == OUT_PMN || (fmt) == OUT_XML)
int output_begin(struct game_output *o);
int output_game(struct game_output *o, const struct game *g);
int output_end(struct game_output *o);

/* ---- criteria: which games a command takes (criteria.c) ----------------- */

enum {
    KEY_GAME = 'g', KEY_TAG = 't', KEY_PLAYER = 'p', KEY_EVENT = 'e', KEY_WINNER = 'w',
    KEY_INVERT = 'v', KEY_CRITERIA = 'f',
    KEY_SOUTH = 1000, KEY_NORTH, KEY_DATE, KEY_RESULT, KEY_RULE_SET, KEY_ENDING, KEY_MOVES,
    KEY_OPENING, KEY_CONTAINS, KEY_POSITION, KEY_CLEAN, KEY_ERRORS, KEY_CODE, KEY_ANY_SIDE,
    KEY_IGNORE_CAPTURED
};

/* The options of the criteria, for the commands that take them all. */
#define OPT_CRITERIA \
    { "game", KEY_GAME, "RANGES", "games of these numbers in their file (12, 3-7,20-)" }, \
    { "tag", KEY_TAG, "NAME=VALUE", "a tag's value: =VALUE, ~PATTERN (PCRE2), !=VALUE,\n" \
      "!~PATTERN, <VALUE, <=, >, >= (numbers, else text)" }, \
    { "player", KEY_PLAYER, "NAME", "NAME plays either side (~PATTERN: a pattern; so\n" \
      "too for --south, --north, --event, --winner)" }, \
    { "south", KEY_SOUTH, "NAME", "NAME plays South" }, \
    { "north", KEY_NORTH, "NAME", "NAME plays North" }, \
    { "event", KEY_EVENT, "NAME", "the Event tag" }, \
    { "date", KEY_DATE, "FROM..TO", "the Date tag in this range (1990..1995.06; either\n" \
      "bound may be left out; 1990: that year)" }, \
    { "result", KEY_RESULT, "RESULT", "the result written: 1-0, 0-1, 1/2-1/2 or *" }, \
    { "winner", KEY_WINNER, "WHO", "south, north, draw, or the player who won" }, \
    { "rule-set", KEY_RULE_SET, "NAME", "games played under this rule set (hawalis, kalah,\n" \
      "oware, ...)" }, \
    { "ending", KEY_ENDING, "KINDS", "how the game ended: no-seeds, no-move, endless,\n" \
      "repetition, majority, last-seeds, resigned (a\nresult the board did not make), " \
      "unfinished;\nseveral with commas" }, \
    { "moves", KEY_MOVES, "RANGE", "games of so many moves (40-60, -30, 100-)" }, \
    { "opening", KEY_OPENING, "MOVES", "the main line begins with these plies, in letters\n" \
      "('a B c', move numbers allowed)" }, \
    { "contains", KEY_CONTAINS, "MOVES", "these plies follow each other somewhere in the\n" \
      "main line" }, \
    { "position", KEY_POSITION, "STRING", "the main line reaches this position (a position\n" \
      "string, as pmn position takes)" }, \
    { "any-side", KEY_ANY_SIDE, NULL, "--position: whoever is to move" }, \
    { "ignore-captured", KEY_IGNORE_CAPTURED, NULL, "--position: whatever has been captured" }, \
    { "clean", KEY_CLEAN, NULL, "games with no error or warning" }, \
    { "errors", KEY_ERRORS, NULL, "games with errors" }, \
    { "code", KEY_CODE, "CODES", "games with one of these diagnostics (E205,W118)" }, \
    { "invert", KEY_INVERT, NULL, "take the games that do not match" }, \
    { "criteria", KEY_CRITERIA, "FILE", "criteria from FILE, a line each: a long option\n" \
      "without dashes and its value (player Gering), or\n" \
      "a tag as pgn-extract writes them (Event \"Open\")" }

#define MAX_CRITERIA 256
#define MAX_CRITERIA_FILES 16
struct criterion;
struct criteria {
    struct criterion *list[MAX_CRITERIA];
    unsigned n;
    int invert, any_side, ignore_captured;
    char **texts;             /* read from criteria files */
    size_t ntexts, textcap;
    unsigned nfiles;
};

/* One option of OPT_CRITERIA: 0, 1 if key is none of them, or the usage
 * error's exit status (a bad value is named). */
int criteria_option(struct criteria *c, const char *cmd, int key, const char *arg);
int criteria_file(struct criteria *c, const char *cmd, const char *path);
void criteria_free(struct criteria *c);
/* Does g meet every criterion (none, with invert)? */
int criteria_match(const struct criteria *c, const struct game *g);
/* How many values a pattern gave up on (backtracking without end): each
 * taken as not matching, the first reported, and the command's status an
 * error (job_status). */
unsigned long criteria_gave_up(void);
/* Do they look at moves and positions (the record and replay of every game)?
 * At game numbers (one job reads)? */
int criteria_need_moves(const struct criteria *c);
int criteria_need_numbers(const struct criteria *c);
/* Do they look at tags (other than the result written)? */
int criteria_need_tags(const struct criteria *c);
/* Do they look at tags alone (and the result written)? */
int criteria_tags_only(const struct criteria *c);
/* Do g's tags alone (g may hold nothing else) fail a criterion that a
 * game without tags fails too?  For archive.ruled_out. */
int criteria_rule_out(const struct criteria *c, const struct game *g);

/* ---- names to numbers (names.c) ---------------------------------------- */

/* Names to numbers, in the order first met.  The table keeps the callers'
 * strings, which must outlive it. */
struct names {
    const char **name;        /* by number */
    unsigned *hash;           /* of each name */
    size_t n, cap;
    size_t *slot;             /* hash table of numbers + 1; 0: free */
    size_t nslots;
};
unsigned name_hash(const char *s);
/* The number of name, added if new (t->n grows); -1 out of memory.
 * name_id_hashed: with its name_hash already made. */
long name_id(struct names *t, const char *name);
long name_id_hashed(struct names *t, const char *name, unsigned hash);
/* The number of name, or -1 if it is not there. */
long name_find(const struct names *t, const char *name);
void names_free(struct names *t);

/* ---- tables of reports (table.c) --------------------------------------- */

enum { TABLE_TEXT, TABLE_CSV, TABLE_JSONL };
struct table {
    const char *name;         /* the report's, in JSON Lines */
    const char *const *head;  /* the columns' names, NULL-terminated */
    size_t ncols;
    unsigned numeric;         /* bit c: column c holds numbers (right-aligned) */
    char **cell;              /* row after row */
    size_t ncells, cap;
    int failed;               /* out of memory */
    int no_header;            /* CSV: rows under another table's header */
};
int table_init(struct table *t, const char *name, const char *const *head, unsigned numeric);
/* The next cell, rows filled left to right; -1 out of memory (t->failed). */
int table_cell(struct table *t, const char *fmt, ...) CLI_PRINTF(2, 3);
/* As aligned text under a title, CSV (a header line first), or JSON Lines
 * (an object a row, with "report"). */
void table_write(FILE *f, const struct table *t, int format, const char *title);
void table_free(struct table *t);

#endif
