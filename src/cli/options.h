/* options.h - what the subcommands' options are, and how they are read (options.c). */
#ifndef PMN_CLI_OPTIONS_H
#define PMN_CLI_OPTIONS_H

#include "cli.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

/* One option of a subcommand, declared once: getopt_long's arguments, the
 * --help text and where its value goes are all made from the table of them
 * (git's parse-options).  An option binds a destination -- `offset` bytes
 * into the command's own context, or with `shared` into struct common
 * (command.h), which every command has -- and the setter that stores its
 * argument there. */
struct cli_option {
    const char *name;         /* the long name, "rules" */
    int key;                  /* its short letter, or a number >= 256 if none */
    const char *arg;          /* the argument's name ("SPEC"), or NULL: a flag */
    const char *help;         /* what it does; '\n' between lines */
    cli_setter *set;          /* stores it; NULL for --help alone */
    size_t offset;            /* where: this far into the context */
    int shared;               /* ... into struct common, not the command's own */
    const void *data;         /* what set needs more: choices, bounds */
    int value;                /* what opt_flag stores (0: 1) */
};

/* An option's setter, offset and `shared`, for a value of type T at field
 * of the command's context `type`: no program is compiled where the field
 * is not a T, the type the setter stores (_Generic has no other case). */
#define CLI_AT(type, field, T) _Generic(&((type *)0)->field, T *: offsetof(type, field))
#define BIND_AT(set, T, type, field) set, CLI_AT(type, field, T), 0
#define FLAG_AT(type, field) BIND_AT(opt_flag, int, type, field)
#define STRING_AT(type, field) BIND_AT(opt_string, const char *, type, field)
#define CHOICE_AT(type, field) BIND_AT(opt_choice, int, type, field)
#define UINT_AT(type, field) BIND_AT(opt_uint, unsigned, type, field)
#define ULONG_AT(type, field) BIND_AT(opt_ulong, unsigned long, type, field)
#define U64_AT(type, field) BIND_AT(opt_u64, uint64_t, type, field)
#define DOUBLE_AT(type, field) BIND_AT(opt_double, double, type, field)

/* --from and --to: the FORMAT_* (records.h) of the name into an int. */
cli_setter format_option;

/* The setters every command may bind. */
cli_setter opt_flag;          /* int: o->value, or 1 */
cli_setter opt_string;        /* const char *: the argument */
cli_setter opt_choice;        /* int: the index of the argument among o->data's
                                 names (a NULL-ended const char *[]) */
/* Numbers within o->data's bounds (a struct cli_bounds): whole ones into an
 * unsigned, unsigned long or uint64_t; any into a double. */
struct cli_bounds {
    double min, max;
    const char *what;         /* "a number of plies" */
    int above;                /* min itself is out */
};
/* A max above any whole number an option takes: the argument's digits
 * alone bound it (pmn_parse_uint, to ULONG_MAX). */
#define CLI_NO_MAX 1e30
cli_setter opt_uint, opt_ulong, opt_u64, opt_double;
/* And two of shared options: --capture-style into a pmn_write_options;
 * --distance, solve and distance, into a pmn_search_limits. */
cli_setter capture_style_option, distance_option;

#define OPT_HELP { "help", 'h', NULL, "show this help", NULL, 0, 0, NULL, 0 }
#define OPT_END { NULL, 0, NULL, NULL, NULL, 0, 0, NULL, 0 }

/* A command: its --help text, its options, and how it runs.  main.c reads
 * the options into a struct common and a context of `size` bytes (zeroed,
 * then `init`), checks them (`ready`), does the prologue `flags` ask for,
 * and calls `run` with the operands in common.files. */
enum {
    CMD_OUTPUT = 1,           /* -o: common.out opened, closed after run */
    CMD_PROGRESS = 2,         /* a progress line: common.progress, common.sink's */
    CMD_NOTES = 4             /* common.sink shows notes */
};
struct common;
struct command {
    const char *name;
    const char *summary;      /* a line for 'pmn --help' */
    const char *usage;        /* what follows "pmn NAME"; '\n' between forms */
    const char *about;        /* what it does, before the options in --help */
    const struct cli_option *options;   /* ending with OPT_END; --help is added */
    const char *epilogue;     /* after the options in --help, or NULL */
    size_t size;              /* of its context */
    unsigned flags;           /* CMD_* */
    /* Defaults before the options, or NULL. */
    void (*init)(struct common *c, void *ctx);
    /* After the options, before the prologue: 0, or the usage error that
     * their combination or the operands make; or NULL. */
    int (*ready)(struct common *c, void *ctx);
    /* The job: its exit status (close_output's, with CMD_OUTPUT, after). */
    int (*run)(struct common *c, void *ctx);
};

extern const struct command check_command, replay_command, convert_command,
    export_command, import_command, perft_command, position_command, rules_command,
    analyse_command, annotate_command, select_command, stats_command,
    duplicates_command, split_command, html_command, uci_command, tablebase_command,
    selfplay_command, index_command;

#define CLI_MAX_OPTIONS 48

/* Read cmd's options from argv[1..] into c (those `shared`) and ctx, each
 * by its setter; *operands, the index in argv of the first operand after
 * them.  0, or the status to exit with: CLI_DONE after --help, the usage
 * error's after a bad option. */
int cli_parse(const struct command *cmd, struct common *c, void *ctx, int argc, char **argv,
              int *operands);
void cli_help(const struct command *cmd, FILE *f);

/* Is s all a decimal number (a sign, digits, a point, an exponent)?  Then 1
 * and its value in *v. */
int is_decimal(const char *s, double *v);

/* An endgame database of DIR that could not be opened (err says why): said
 * as F005, named by its file.  Returns EXIT_FATAL. */
int tablebase_unusable(const char *dir, const pmn_error *err);
/* The solver's threads unless --threads says: $PMN_THREADS, else the cores. */
unsigned default_threads(void);
/* Where the endgame databases are by default: $PMN_TABLEBASES, else
 * $XDG_DATA_HOME/pmn/tablebases, else ~/.local/share/pmn/tablebases. */
const char *default_tablebase_dir(char *buf, size_t size);
/* The endgame databases of DIR for s (whose rules are r), into *tb: 0, or
 * the exit status after saying why they cannot serve.  dir NULL: those of
 * the default location, if it has them. */
int tablebase_option(const char *cmd, const char *dir, const pmn_rules *r, pmn_searcher *s,
                     pmn_tablebase **tb);
/* Close tb (NULL: none): 0, or where a probe met a value no position can
 * have, EXIT_FATAL after saying which file (F005). */
int tablebase_close_checked(pmn_tablebase *tb);
/* The same for each game of an archive: *tb again when its databases are
 * of r's rules, else (closed: tablebase_close_checked) those of r opened
 * in its stead. */
int tablebase_for_game(const char *cmd, const char *dir, const pmn_rules *r, pmn_searcher *s,
                     pmn_tablebase **tb);


#endif
