/* cli.h - what every part of pmn's command line shares: the exit statuses.
 * Each module of src/cli/ declares what it offers the others in a header of
 * its own (options.h, io.h, progress.h, jobs.h, records.h, archive.h,
 * criteria.h, names.h, table.h, annotate.h). */
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

#endif
