/* progress.h - the progress line of a long run (progress.c). */
#ifndef PMN_CLI_PROGRESS_H
#define PMN_CLI_PROGRESS_H

#include "cli.h"

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
    int file, files;          /* the current file is file `file` (from 1) of `files` */
};


/* Seconds on a monotonic clock. */
double clock_seconds(void);
void progress_begin(struct progress *p, const char *cmd, int quiet);
/* A new input file (each_input calls it). */
void progress_file(struct progress *p, FILE *f, int file, int files);
/* A game done: redraws the line now and then. */
void progress_game(struct progress *p, const char *file);
/* Take the line off the terminal (before a diagnostic, and at the end). */
void progress_erase(void);
/* n games done at once (a part read by another thread). */
void progress_games(struct progress *p, const char *file, unsigned long n);

#endif
