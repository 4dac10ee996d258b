/* cli.h - what every part of pmn's command line shares: the exit statuses.
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

#endif
