/* cli.h - what the subcommands of pmn share. */
#ifndef PMN_CLI_H
#define PMN_CLI_H

#include "pmn.h"

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

/* Report a bad option value, pointing at the column of the fault. */
int usage_error_at(const char *cmd, const char *option, const char *text,
                   const pmn_error *err);
/* Report a command-line error and the hint to use --help. */
int usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The position given as `what` (or the opening one when text is NULL),
 * read under rules *r. */
int position_option(const char *cmd, const char *what, const pmn_rules *r,
                    const char *text, pmn_position *p);

/* getopt_long returned '?' (unknown option) or ':' (missing argument); the
 * optstring starts with ':' and opterr is 0, so this is the only message. */
int bad_option(const char *cmd, int c, char **argv);

/* The --rules options of a command: each applied in turn on *r. */
int apply_rules_option(const char *cmd, pmn_rules *r, const char *spec);

/* The position given as `what` (or the opening one when text is NULL),
 * read under rules *r. */
int position_option(const char *cmd, const char *what, const pmn_rules *r,
                    const char *text, pmn_position *p);

/* getopt_long returned '?' (unknown option) or ':' (missing argument); the
 * optstring starts with ':' and opterr is 0, so this is the only message. */
int bad_option(const char *cmd, int c, char **argv);

#endif
