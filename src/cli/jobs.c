/* jobs.c - --jobs N: an input read by several threads at once.
 *
 * The main thread cuts the input into parts of whole games, where the
 * reader cuts it (pmn_reader_next_text), about PART_SIZE bytes each; each
 * part is read, replayed and written by a thread of its own, into memory;
 * the parts' outputs and diagnostics are then written in the input's order,
 * so that they are exactly what one job writes.  At most `jobs` parts are in
 * memory at once. */
#include "cli.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Large enough that a thread's start costs nothing beside its part. */
#define PART_SIZE (1u << 20)

struct part {
    char *text;
    size_t len, cap;
    unsigned first_line;      /* of its text, in the file */
    unsigned next_line;       /* the line just after its text */
    /* What its thread made: */
    FILE *in, *outf, *errf;
    void *ctx;
    char *out, *err;
    size_t outlen, errlen;
    unsigned count[PMN_FATAL + 1];
    int failed;               /* out of memory in the thread */
};

struct run {
    const struct job_command *jc;
    void *ctx;
    struct diag_sink *sink;
};

static int grow(struct part *p, size_t more)
{
    if (p->len + more <= p->cap)
        return 0;
    size_t cap = p->cap ? p->cap : PART_SIZE + PART_SIZE / 2;
    while (cap < p->len + more)
        cap *= 2;
    char *t = realloc(p->text, cap);
    if (!t)
        return -1;
    p->text = t;
    p->cap = cap;
    return 0;
}

/* Add a piece of text that begins at `line`: the blank lines the reader
 * left out before it are put back, so that the part's lines are the file's. */
static int add_piece(struct part *p, const char *text, size_t len, unsigned line)
{
    if (p->len == 0)
        p->first_line = p->next_line = line;
    size_t blanks = line > p->next_line ? line - p->next_line : 0;
    if (grow(p, blanks + len) < 0)
        return -1;
    memset(p->text + p->len, '\n', blanks);
    memcpy(p->text + p->len + blanks, text, len);
    p->len += blanks + len;
    unsigned lines = 0;
    for (const char *s = text; (s = memchr(s, '\n', (size_t)(text + len - s))) != NULL; s++)
        lines++;
    p->next_line = line + lines;
    return 0;
}

/* Before its thread starts: the part's streams, and its context, copied
 * from the command's while no thread runs (the main thread adds to that
 * context as parts end). */
static void prepare(struct part *p, struct run *r)
{
    p->in = fmemopen(p->text, p->len, "r");
    p->outf = open_memstream(&p->out, &p->outlen);
    p->errf = open_memstream(&p->err, &p->errlen);
    p->ctx = p->in && p->outf && p->errf ? r->jc->clone(r->ctx, p->outf) : NULL;
    p->failed = p->ctx == NULL;
}

static void *work(void *arg)
{
    void **args = arg;
    struct part *p = args[0];
    struct run *r = args[1];
    struct diag_sink ws = { .file = r->sink->file, .show_notes = r->sink->show_notes,
                            .hold = 1, .lines_before = p->first_line - 1, .err = p->errf };
    if (!p->failed) {
        r->jc->fn(p->in, &ws, p->ctx);
        release_diags(&ws);
    }
    free(ws.held);
    memcpy(p->count, ws.count, sizeof p->count);
    if (p->in)
        fclose(p->in);
    if (p->outf)
        fclose(p->outf);
    if (p->errf)
        fclose(p->errf);
    p->in = p->outf = p->errf = NULL;
    return NULL;
}

/* Run the parts (the last in this thread), then write their outputs in
 * order and merge what they counted. */
static void run_parts(struct part *parts, int n, struct run *r)
{
    pthread_t tid[MAX_JOBS];
    void *args[MAX_JOBS][2];
    int started[MAX_JOBS] = { 0 };
    for (int i = 0; i < n; i++)
        prepare(&parts[i], r);
    for (int i = 0; i < n; i++) {
        args[i][0] = &parts[i];
        args[i][1] = r;
        if (i + 1 < n)
            started[i] = pthread_create(&tid[i], NULL, work, args[i]) == 0;
        if (!started[i])
            work(args[i]);
    }
    for (int i = 0; i < n; i++) {
        struct part *p = &parts[i];
        if (started[i])
            pthread_join(tid[i], NULL);
        if (p->failed) {
            report(r->sink, PMN_F002, p->first_line, 0, "out of memory");
        } else {
            if (p->errlen)
                progress_erase();
            fwrite(p->err, 1, p->errlen, stderr);
            r->jc->merge(r->ctx, p->ctx, p->out, p->outlen);
            for (int k = 0; k <= PMN_FATAL; k++)
                r->sink->count[k] += p->count[k];
        }
        if (r->sink->progress)
            progress_games(r->sink->progress, r->sink->file, r->jc->games(p->ctx));
        free(p->ctx);
        free(p->out);
        free(p->err);
        p->ctx = NULL;
        p->out = p->err = NULL;
        p->len = 0;
        p->failed = 0;
    }
}

static void read_jobs(FILE *f, struct diag_sink *s, const struct job_command *jc, void *ctx,
                      int jobs)
{
    struct run r = { jc, ctx, s };
    struct part parts[MAX_JOBS];
    memset(parts, 0, sizeof parts);
    /* The cutting reader reports what stops it (a line too long, a read
     * error): held, and said after the parts before it. */
    struct diag_sink cut = { .file = s->file, .show_notes = 1, .hold = 1 };
    pmn_reader *rd = pmn_reader_new(f, print_diag, &cut);
    const char *text;
    size_t len;
    unsigned line;
    int n = 0, rc = rd ? 1 : -1;
    if (!rd)
        report(s, PMN_F002, 0, 0, "out of memory");
    while (rc > 0) {
        rc = pmn_reader_next_text(rd, &text, &len, &line);
        if (rc > 0 && add_piece(&parts[n], text, len, line) < 0) {
            report(&cut, PMN_F002, line, 0, "out of memory");
            rc = -1;
        }
        if (rc > 0 && parts[n].len < PART_SIZE)
            continue;
        if (rc <= 0 && parts[n].len == 0 && n == 0)
            break;
        n += parts[n].len > 0;
        if (n == jobs || rc <= 0) {
            run_parts(parts, n, &r);
            n = 0;
        }
    }
    pmn_reader_free(rd);
    s->hold = 0;
    for (size_t i = 0; i < cut.nheld; i++)
        print_diag(s, &cut.held[i].d);
    s->hold = 1;
    free(cut.held);
    for (int i = 0; i < MAX_JOBS; i++)
        free(parts[i].text);
}

struct jobs_input {
    const struct job_command *jc;
    void *ctx;
    int jobs;
};

static void read_file(FILE *f, struct diag_sink *s, void *arg)
{
    struct jobs_input *ji = arg;
    read_jobs(f, s, ji->jc, ji->ctx, ji->jobs);
}

void each_input_jobs(char **names, int n, struct diag_sink *s, const struct job_command *jc,
                     void *ctx, int jobs)
{
    struct jobs_input ji = { jc, ctx, jobs < 1 ? 1 : jobs > MAX_JOBS ? MAX_JOBS : jobs };
    if (ji.jobs == 1)
        each_input(names, n, s, jc->fn, ctx);
    else
        each_input(names, n, s, read_file, &ji);
}

int write_pmn_part(FILE *f, unsigned long games_before, const char *text, size_t len)
{
    if (games_before && len)
        fputc('\n', f);
    return fwrite(text, 1, len, f) != len || ferror(f) ? -1 : 0;
}

int default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

int jobs_option(const char *cmd, const char *arg, int *jobs)
{
    unsigned long n;
    char buf[256];
    if (parse_number(arg, MAX_JOBS, &n) < 0 || n == 0)
        return usage_error(cmd, "--jobs takes a number of jobs from 1 to %d, not '%s'",
                           MAX_JOBS, escaped(arg, buf, sizeof buf));
    *jobs = (int)n;
    return 0;
}
