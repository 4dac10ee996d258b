/* jobs.c - --jobs N: an input read by several threads at once.
 *
 * The main thread cuts the input into parts of whole games, where the
 * reader cuts it (pmn_reader_next_text), about PART_SIZE bytes each; each
 * part is read, replayed and written by a thread of its own, into memory;
 * the parts' outputs and diagnostics are then written in the input's order,
 * so that they are exactly what one job writes.  While a batch of `jobs`
 * parts is worked on, the main thread cuts the next: at most 2 * jobs parts
 * are in memory at once. */
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

/* A batch of parts being worked on, each by a thread of its own (or by
 * this one, when a thread cannot be started). */
struct batch {
    struct part parts[MAX_JOBS];
    int n;
    pthread_t tid[MAX_JOBS];
    int started[MAX_JOBS];
    void *args[MAX_JOBS][2];
};

static void start_batch(struct batch *b, struct run *r)
{
    for (int i = 0; i < b->n; i++)
        prepare(&b->parts[i], r);
    for (int i = 0; i < b->n; i++) {
        b->args[i][0] = &b->parts[i];
        b->args[i][1] = r;
        b->started[i] = pthread_create(&b->tid[i], NULL, work, b->args[i]) == 0;
        if (!b->started[i])
            work(b->args[i]);
    }
}

/* Wait for the batch's parts, then write their outputs in order and merge
 * what they counted. */
static void finish_batch(struct batch *b, struct run *r)
{
    for (int i = 0; i < b->n; i++) {
        struct part *p = &b->parts[i];
        if (b->started[i])
            pthread_join(b->tid[i], NULL);
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
    b->n = 0;
}

/* Cut up to `jobs` parts of the input into b; returns 0, or -1 when the
 * input has ended (or failed: reported into cut). */
static int cut_batch(pmn_reader *rd, struct batch *b, int jobs, struct diag_sink *cut)
{
    const char *text;
    size_t len;
    unsigned line;
    while (b->n < jobs) {
        struct part *p = &b->parts[b->n];
        int rc = pmn_reader_next_text(rd, &text, &len, &line);
        if (rc > 0 && add_piece(p, text, len, line) < 0) {
            report(cut, PMN_F002, line, 0, "out of memory");
            rc = -1;
        }
        if (rc > 0 && p->len < PART_SIZE)
            continue;
        b->n += p->len > 0;
        if (rc <= 0)
            return -1;
    }
    return 0;
}

static void read_jobs(FILE *f, struct diag_sink *s, const struct job_command *jc, void *ctx,
                      int jobs)
{
    struct run r = { jc, ctx, s };
    struct batch *b = calloc(2, sizeof *b);
    /* The cutting reader reports what stops it (a line too long, a read
     * error): held, and said after the parts before it. */
    struct diag_sink cut = { .file = s->file, .show_notes = 1, .hold = 1 };
    pmn_reader *rd = b ? pmn_reader_new(f, print_diag, &cut) : NULL;
    if (!rd) {
        report(s, PMN_F002, 0, 0, "out of memory");
    } else {
        int more = cut_batch(rd, &b[0], jobs, &cut) == 0;
        for (int cur = 0; b[cur].n > 0; cur = !cur) {
            start_batch(&b[cur], &r);
            if (more)
                more = cut_batch(rd, &b[!cur], jobs, &cut) == 0;
            finish_batch(&b[cur], &r);
        }
    }
    pmn_reader_free(rd);
    s->hold = 0;
    for (size_t i = 0; i < cut.nheld; i++)
        print_diag(s, &cut.held[i].d);
    s->hold = 1;
    free(cut.held);
    for (int k = 0; b && k < 2; k++)
        for (int i = 0; i < MAX_JOBS; i++)
            free(b[k].parts[i].text);
    free(b);
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
