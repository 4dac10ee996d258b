/* progress.c - a progress line on standard error for long runs over
 * archives: bytes (or games) done, the rate, the time left.  Only when
 * standard error is a terminal, at most five times a second, and erased
 * before a diagnostic is printed and at the end. */
#include "cli.h"
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Drawn no sooner than this after the start: a short run shows nothing. */
#define FIRST_DRAW 1.0
#define REDRAW 0.2

static int shown;             /* a progress line is on the terminal */

double clock_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void progress_erase(void)
{
    if (shown)
        fputs("\r\033[K", stderr);
    shown = 0;
}

void progress_begin(struct progress *p, const char *cmd, int quiet)
{
    const char *after = getenv("PMN_PROGRESS_AFTER");
    p->on = !quiet && isatty(2);
    p->first = after ? atof(after) : FIRST_DRAW;
    p->cmd = cmd;
    p->start = p->last = clock_seconds();
    p->drawn = 0;
    p->games = 0;
    p->f = NULL;
    p->total = -1;
    p->file = p->files = 0;
}

void progress_file(struct progress *p, FILE *f, int file, int files)
{
    struct stat st;
    p->f = f;
    p->file = file;
    p->files = files;
    p->games = 0;
    p->total = f && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size
                                                                        : -1;
    p->file_start = clock_seconds();
}

static void human_bytes(double b, char *buf, size_t size)
{
    if (b >= 1e9)
        snprintf(buf, size, "%.2f GB", b / 1e9);
    else if (b >= 1e6)
        snprintf(buf, size, "%.1f MB", b / 1e6);
    else
        snprintf(buf, size, "%.0f kB", b / 1e3);
}

static void draw(struct progress *p, const char *file, double t)
{
    char esc[256], done[32], total[32];
    double elapsed = t - p->file_start;
    long long at = p->f ? (long long)ftello(p->f) : -1;
    fprintf(stderr, "\r%s: %s", p->cmd, escaped(file, esc, sizeof esc));
    if (p->files > 1)
        fprintf(stderr, " (file %d of %d)", p->file, p->files);
    fprintf(stderr, ": %lu game%s", p->games, p->games == 1 ? "" : "s");
    if (at >= 0 && elapsed > 0) {
        human_bytes((double)at, done, sizeof done);
        fprintf(stderr, ", %s", done);
        if (p->total > 0) {
            human_bytes((double)p->total, total, sizeof total);
            fprintf(stderr, " of %s (%.0f%%)", total, 100.0 * (double)at / (double)p->total);
        }
        double rate = (double)at / elapsed;
        human_bytes(rate, done, sizeof done);
        fprintf(stderr, ", %s/s", done);
        if (p->total > 0 && rate > 0)
            fprintf(stderr, ", %.0f s left", (double)(p->total - at) / rate);
    }
    fputs("\033[K", stderr);
    shown = 1;
}

/* Draw the line if the run is old enough and the last drawing is. */
static void maybe_draw(struct progress *p, const char *file)
{
    double t = clock_seconds();
    if (t - p->start < p->first || (p->drawn && t - p->last < REDRAW))
        return;
    p->last = t;
    p->drawn = 1;
    draw(p, file, t);
}

void progress_games(struct progress *p, const char *file, unsigned long n)
{
    if (!p)
        return;   /* a part read by another thread */
    p->games += n;
    if (p->on)
        maybe_draw(p, file);
}

void progress_game(struct progress *p, const char *file)
{
    if (!p)
        return;
    /* The clock is read every 64 games: a game costs microseconds. */
    if (++p->games % 64 == 0 && p->on)
        maybe_draw(p, file);
}
