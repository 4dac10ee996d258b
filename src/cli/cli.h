/* cli.h - what the subcommands of pmn share. */
#ifndef PMN_CLI_H
#define PMN_CLI_H

#include "pmn.h"

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

struct command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
};

int cmd_perft(int argc, char **argv);
int cmd_position(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_rules(int argc, char **argv);

/* Report a bad option value, pointing at the column of the fault. */
int usage_error_at(const char *cmd, const char *option, const char *text,
                   const pmn_error *err);
/* Report a command-line error and the hint to use --help. */
int usage_error(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);

/* getopt_long returned '?' (unknown option) or ':' (missing argument); the
 * optstring starts with ':' and opterr is 0, so this is the only message. */
int bad_option(const char *cmd, int c, char **argv);

/* A whole number of at most `max`, digits only; returns 0, or -1 if s is
 * not one. */
int parse_number(const char *s, unsigned long max, unsigned long *v);

/* The output of a command: FILE of -o, or standard output (name NULL).
 * open_output reports a failure and returns NULL; close_output flushes
 * and closes, and reports a failure (also one met while writing) with
 * EXIT_FATAL, or returns `status`. */
FILE *open_output(const char *name);
int close_output(FILE *f, const char *name, int failed, int status);

/* --notation NAME and --capture-style STYLE, for the commands that write
 * PMN: returns 0, or the usage error. */
int notation_option(const char *cmd, const char *name, pmn_write_options *o);
int capture_style_option(const char *cmd, const char *style, pmn_write_options *o);

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
int position_option(const char *cmd, const char *what, const pmn_rules *r,
                    const char *text, pmn_position *p);

/* Where diagnostics go: standard error, as FILE:LINE:COL: severity[CODE]:
 * message, counted by severity. */
struct diag_sink {
    const char *file;         /* the name shown for the current input */
    unsigned count[PMN_FATAL + 1];
    int show_notes;
};

void print_diag(void *sink, const pmn_diag *d);   /* a pmn_diag_fn */
/* The exit status the counts call for (see pmn(1)). */
int exit_status(const struct diag_sink *s);

/* Open an input named on the command line ("-": standard input); on failure
 * report a fatal diagnostic and return NULL. */
FILE *open_input(const char *name, struct diag_sink *s);
void close_input(FILE *f);
/* Call fn on each of the n files named (standard input if n is 0), with
 * s->file naming it; a file that cannot be opened is reported and skipped. */
void each_input(char **names, int n, struct diag_sink *s,
                void (*fn)(FILE *f, struct diag_sink *s, void *ctx), void *ctx);

/* The --rules options of a command: a rule file replaces each record's
 * own rules, specifications apply over them (pmn_setup_record). */
#define MAX_RULES_OPTIONS 16
struct rules_options {
    const char *spec[MAX_RULES_OPTIONS];
    pmn_rules file;
    pmn_setup_options setup;  /* points into the above */
};
int add_rules_option(const char *cmd, struct rules_options *o, const char *spec);

/* A reader of f whose games are set up with o (NULL: none); NULL when
 * memory runs out (reported). */
pmn_reader *open_reader(FILE *f, struct diag_sink *s, const struct rules_options *o);
/* Set rec up with o and replay it, reporting through s (NULL: silently);
 * NULL when memory runs out (reported). */
pmn_replay *replay_record(const pmn_record *rec, const struct rules_options *o,
                          struct diag_sink *s);

#endif
