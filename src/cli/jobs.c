/* jobs.c - --jobs N: an input read by several threads at once.
 *
 * The main thread cuts the input into parts of whole games, where the
 * reader cuts it (pmn_reader_next_text), about PART_SIZE bytes each; each
 * part is read, replayed and written by one of `jobs` threads, into memory;
 * the parts' outputs and diagnostics are then written in the input's order,
 * so that they are exactly what one job writes.  The main thread cuts
 * while the workers work (struct queue): at most 2 * jobs parts are in
 * memory at once. */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "progress.h"
#include "jobs.h"
#include "records.h"
#include "archive.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Large enough that a part's streams and context cost nothing beside its
 * work; small enough that the 2 * jobs parts in flight, with what their
 * threads write (an export writes 20 times the bytes it reads), stay a few
 * tens of megabytes (a quarter of this size measured as fast as 1 MiB). */
#define PART_SIZE (1u << 18)

struct part {
    char *text;
    size_t len, cap;
    pmn_at first_line;        /* of its text, in the file */
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

/* Before a thread takes it: the part's streams, and its context, copied
 * from the command's by the main thread, which alone touches that context
 * (it merges each part into it once the part is worked). */
static void prepare(struct part *p, struct run *r)
{
    p->in = fmemopen(p->text, p->len, "r");
    p->outf = open_memstream(&p->out, &p->outlen);
    p->errf = open_memstream(&p->err, &p->errlen);
    p->ctx = p->in && p->outf && p->errf ? r->jc->clone(r->ctx, p->outf) : NULL;
    p->failed = p->ctx == NULL;
}

static void work(struct part *p, struct run *r)
{
    struct diag_sink ws = { .file = r->sink->file, .show_notes = r->sink->show_notes,
                            .hold = 1, .lines_before = p->first_line - 1, .err = p->errf,
                            .part = 1, .drop_code = r->sink->drop_code };
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
}

/* Write a worked part's output and diagnostics, merge what it counted, and
 * empty it. */
static void finish(struct part *p, struct run *r)
{
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

/* Cut the next part of the input into p: 1 if input may follow, 0 at its
 * end (or when it fails: reported into the reader's sink). */
static int cut_part(pmn_reader *rd, struct part *p)
{
    return pmn_reader_next_part(rd, PART_SIZE, &p->text, &p->cap, &p->len, &p->first_line) > 0;
}

/* The parts in flight, a ring of 2 * jobs slots: the main thread cuts them
 * in the input's order, the workers take them in that order, each as soon
 * as it is free (a part of long endless moves holds up no other), and the
 * main thread writes them in that order once worked. */
enum { FREE, CUT, TAKEN, WORKED };

struct queue {
    struct part part[2 * MAX_JOBS];
    int state[2 * MAX_JOBS];
    unsigned nslots;
    unsigned long cut, taken, written;   /* parts so far */
    int ended;                /* no part will be cut any more */
    pthread_mutex_t lock;
    pthread_cond_t ready, worked;
    struct run *r;
};

static void *worker(void *arg)
{
    struct queue *q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        while (q->taken == q->cut && !q->ended)
            pthread_cond_wait(&q->ready, &q->lock);
        if (q->taken == q->cut)
            break;
        unsigned i = (unsigned)(q->taken++ % q->nslots);
        q->state[i] = TAKEN;
        pthread_mutex_unlock(&q->lock);
        work(&q->part[i], q->r);
        pthread_mutex_lock(&q->lock);
        q->state[i] = WORKED;
        pthread_cond_signal(&q->worked);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

/* The main thread: write what is worked, in order; else cut a part into a
 * free slot; else wait. */
static void feed(struct queue *q, pmn_reader *rd)
{
    int more = 1;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        unsigned w = (unsigned)(q->written % q->nslots), c = (unsigned)(q->cut % q->nslots);
        if (q->written < q->cut && q->state[w] == WORKED) {
            pthread_mutex_unlock(&q->lock);
            finish(&q->part[w], q->r);
            pthread_mutex_lock(&q->lock);
            q->state[w] = FREE;
            q->written++;
        } else if (more && q->cut - q->written < q->nslots) {
            pthread_mutex_unlock(&q->lock);
            more = cut_part(rd, &q->part[c]);
            if (q->part[c].len)
                prepare(&q->part[c], q->r);
            pthread_mutex_lock(&q->lock);
            if (q->part[c].len) {
                q->state[c] = CUT;
                q->cut++;
                pthread_cond_signal(&q->ready);
            }
        } else if (!more && q->written == q->cut) {
            break;
        } else {
            pthread_cond_wait(&q->worked, &q->lock);
        }
    }
    q->ended = 1;
    pthread_cond_broadcast(&q->ready);
    pthread_mutex_unlock(&q->lock);
}

static void read_jobs(FILE *f, struct diag_sink *s, const struct job_command *jc, void *ctx,
                      int jobs)
{
    struct run r = { jc, ctx, s };
    struct queue *q = calloc(1, sizeof *q);
    /* The cutting reader reports what stops it (a line too long, a read
     * error): held, and said after the parts before it. */
    struct diag_sink cut = { .file = s->file, .show_notes = 1, .hold = 1,
                             .drop_code = s->drop_code };
    pmn_reader *rd = q ? pmn_reader_new(f, print_diag, &cut) : NULL;
    pthread_t tid[MAX_JOBS];
    int started = 0;
    if (!rd) {
        report(s, PMN_F002, 0, 0, "out of memory");
    } else {
        q->nslots = 2 * (unsigned)jobs;
        q->r = &r;
        pthread_mutex_init(&q->lock, NULL);
        pthread_cond_init(&q->ready, NULL);
        pthread_cond_init(&q->worked, NULL);
        for (; started < jobs; started++)
            if (pthread_create(&tid[started], NULL, worker, q) != 0)
                break;
    }
    if (rd && !started) {
        jc->fn(f, s, ctx);   /* no thread to be had: one job, from here */
    } else if (rd) {
        feed(q, rd);
        for (int i = 0; i < started; i++)
            pthread_join(tid[i], NULL);
        if (q->cut == 0 && cut.nheld == 0)
            jc->fn(f, s, ctx);   /* an empty input: read (at its end) as one job reads it */
    }
    if (q && rd) {
        pthread_mutex_destroy(&q->lock);
        pthread_cond_destroy(&q->ready);
        pthread_cond_destroy(&q->worked);
    }
    pmn_reader_free(rd);
    s->hold = 0;
    for (size_t i = 0; i < cut.nheld; i++)
        print_diag(s, &cut.held[i]);
    s->hold = 1;
    free(cut.held);
    for (unsigned i = 0; q && i < 2 * MAX_JOBS; i++)
        free(q->part[i].text);
    free(q);
}

struct jobs_input {
    const struct job_command *jc;
    void *ctx;
    int jobs;
};

static void read_file(FILE *f, struct diag_sink *s, void *arg)
{
    struct jobs_input *ji = arg;
    if (pmn_source_detect(f, s->file, NULL) != PMN_SOURCE_PMN)
        ji->jc->fn(f, s, ji->ctx);   /* XML and other formats are read whole, by one job */
    else
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

int jobs_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    unsigned long n;
    char buf[256];
    if (pmn_parse_uint(arg, MAX_JOBS, &n) < 0 || n == 0)
        return usage_error(cmd, "--jobs takes a number of jobs from 1 to %d, not '%s'",
                           MAX_JOBS, escaped(arg, buf, sizeof buf));
    (void)o;
    *(int *)dest = (int)n;
    return 0;
}
