/* jobs.h - inputs read by several threads (jobs.c). */
#ifndef PMN_CLI_JOBS_H
#define PMN_CLI_JOBS_H

#include "io.h"

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
/* --jobs N into an int: 1 to MAX_JOBS (a cli_setter). */
int jobs_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest);

#endif
