/* cli.h - what every part of pmn's command line shares: the exit statuses,
 * the messages about what the user typed, and a growing array (cli.c, below
 * every other module).
 * Each module of src/cli/ declares what it offers the others in a header of
 * its own (options.h, io.h, progress.h, jobs.h, records.h, archive.h,
 * criteria.h, names.h, table.h, annotate.h), and command.h what every
 * subcommand shares: struct common and the options more than one takes. */
#ifndef PMN_CLI_H
#define PMN_CLI_H

#include "pmn.h"

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

/* How an option's argument is stored (options.h): into dest, the place the
 * option's table entry binds; 0, the exit status of a usage error said, or
 * CLI_DONE when the option did the command's whole job (--help). */
struct cli_option;
typedef int cli_setter(const char *cmd, const struct cli_option *o, const char *arg,
                       void *dest);
enum { CLI_DONE = -3 };

/* ---- cli.c ---- */

/* text with its control characters escaped (pmn_text_escape), in buf:
 * what the user gave is never written raw to a terminal. */
const char *escaped(const char *text, char *buf, size_t size);

/* Report a bad option value, pointing at the column of the fault. */
int usage_error_at(const char *cmd, const char *option, const char *text,
                   const pmn_error *err);
/* Report a command-line error and the hint to use --help. */
int usage_error(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);

/* p (an array of *cap elements of `size` bytes) with room for element n:
 * grown to twice (or `first` elements) when full.  NULL when memory runs
 * out, p then left as it was. */
void *grown(void *p, size_t *cap, size_t n, size_t size, size_t first);

#endif
