/* options.h - what the subcommands' options are, and how they are read (options.c). */
#ifndef PMN_CLI_OPTIONS_H
#define PMN_CLI_OPTIONS_H

#include "cli.h"

#include <getopt.h>

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
enum { KEY_CAPTURE_STYLE = 'c' + 256 };
#define OPT_CAPTURE_STYLE { "capture-style", KEY_CAPTURE_STYLE, "STYLE", \
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

/* The name of n that word is most likely a slip for (an edit or two
 * away, or its start), or NULL: for "did you mean". */
const char *did_you_mean(const char *word, const char *const *names, size_t n);

#endif
