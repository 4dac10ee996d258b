/* io.h - inputs, outputs and diagnostics (io.c). */
#ifndef PMN_CLI_IO_H
#define PMN_CLI_IO_H

#include "cli.h"

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


struct progress;

/* Where diagnostics go: standard error, as FILE:LINE:COL: severity[CODE]:
 * message, counted by severity. */
struct diag_sink {
    const char *file;         /* the name shown for the current input */
    unsigned count[PMN_FATAL + 1];
    int show_notes;
    /* While an input is read, each game's diagnostics are held and then
     * printed in file order (reading and replaying find them in two passes). */
    int hold;
    pmn_diag *held;           /* in the order found (pmn_diags_in_file_order) */
    size_t nheld, held_cap;
    struct progress *progress;   /* of the command, or NULL */
    FILE *err;                /* where diagnostics go: NULL for standard error */
    int json;                 /* each as a JSON object on a line (check --format jsonl) */
    pmn_at lines_before;      /* the input is a part of its file after so many lines */
    int part;                 /* the input is a part of its file (--jobs) */
    /* The game being read is not one the command was asked for (--game):
     * its diagnostics are neither counted nor shown, but for fatal ones. */
    int mute;
    int drop_code;            /* a diagnostic the command makes moot, unsaid
                                 (convert --fix: W118, whose fix it makes) */
    unsigned fatal_before;    /* fatal diagnostics before the current input
                                 was opened: did it say one of its own? */
};

void print_diag(void *sink, const pmn_diag *d);   /* a pmn_diag_fn */
/* s as a JSON string, quotes and escapes written. */
void json_string(FILE *f, const char *s);
/* s as a JSON string, or null if s is NULL. */
void json_or_null(FILE *f, const char *s);
/* Print the diagnostics held, in the order of their place in the file. */
void release_diags(struct diag_sink *s);
/* From now on, a SIGBUS (a mapped file of the endgame databases in dir cut
 * short under pmn) ends pmn with F005 and exit status 3. */
void io_watch_mapped(const char *dir);
/* Print diagnostic `code` (the table's severity) of the command's own. */
void report(struct diag_sink *s, pmn_diag_code code, pmn_at line, pmn_at col,
            const char *fmt, ...) CLI_PRINTF(5, 6);
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

#endif
