/* io.c - where a command reads and writes: its inputs, its output, and the
 * diagnostics it prints, counted for the exit status. */
#include "cli.h"
#include "io.h"
#include "progress.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- output -------------------------------------------------------------
 * A file named by -o is written to a temporary file beside it and renamed
 * into place only when the command has succeeded: a failure (a full disk, an
 * unreadable input, an interrupt) leaves the earlier file as it was and no
 * partial file behind.  A symbolic link is followed to the file it names,
 * which is the one replaced; what is there and is not a regular file (a
 * device such as /dev/null, a FIFO, a terminal) is written directly, never
 * replaced. */

static char temp_path[4096];   /* the temporary file being written, or "" */
static char target_path[4096]; /* the file it replaces: -o's, its links followed */

static void remove_temp(void)
{
    if (temp_path[0])
        unlink(temp_path);
    temp_path[0] = '\0';
}

/* The other temporary files (split's), newest first: a node is linked
 * whole, and its path emptied once the file is renamed or removed, so that
 * a signal handler may walk the list at any time. */
struct temp_file {
    struct temp_file *next;
    char path[];
};
static struct temp_file *volatile temp_files;

static void interrupted(int sig)
{
    if (temp_path[0])
        unlink(temp_path);   /* async-signal-safe */
    for (struct temp_file *t = temp_files; t; t = t->next)
        if (t->path[0])
            unlink(t->path);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A file mapped in memory that is cut short while in use (a layer of the
 * endgame databases, truncated in place under a running pmn uci) makes the
 * next read of it a SIGBUS: said as the database's fatal diagnostic, the
 * temporary files removed, and exit status 3, not a death by signal. */
static char mapped_what[600];
static size_t mapped_len;

static void mapped_cut(int sig)
{
    (void)sig;
    if (temp_path[0])
        unlink(temp_path);
    for (struct temp_file *t = temp_files; t; t = t->next)
        if (t->path[0])
            unlink(t->path);
    if (write(STDERR_FILENO, mapped_what, mapped_len) < 0) {
        /* nothing more to do: the status still says it */
    }
    _exit(EXIT_FATAL);
}

void io_watch_mapped(const char *dir)
{
    /* Made now, outside the handler, which may only write it. */
    char code[8];
    pmn_diag_code_name(PMN_F005, code);
    int n = snprintf(mapped_what, sizeof mapped_what, "%s: fatal[%s]: an endgame database "
                     "file was cut short while pmn read it (changed under it): stopped\n",
                     dir, code);
    mapped_len = n < 0 ? 0 : (size_t)n < sizeof mapped_what ? (size_t)n : sizeof mapped_what - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = mapped_cut;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

/* Every signal that ends a process and can be caught removes the temporary
 * file first, then ends pmn as it would have; one ignored when pmn started
 * (nohup's SIGHUP) stays ignored. */
static void catch_signals(void)
{
    /* (not SIGXFSZ, ignored from the start: main()) */
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU,
                                SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        signal(sigs[i], interrupted);
    }
}

/* The file a path names, its symbolic links followed (the last may dangle:
 * the file is then made where it points), into buf.  0, or -1 (errno). */
static int follow_links(const char *name, char *buf, size_t size)
{
    if (snprintf(buf, size, "%s", name) >= (int)size)
        return errno = ENAMETOOLONG, -1;
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(buf, &st) != 0 || !S_ISLNK(st.st_mode))
            return 0;
        if (hops == 40)
            return errno = ELOOP, -1;
        char to[4096];
        ssize_t n = readlink(buf, to, sizeof to - 1);
        if (n < 0)
            return -1;
        to[n] = '\0';
        const char *slash = strrchr(buf, '/');
        int dir = to[0] == '/' || !slash ? 0 : (int)(slash - buf + 1);
        char next[4096];
        if (snprintf(next, sizeof next, "%.*s%s", dir, buf, to) >= (int)sizeof next)
            return errno = ENAMETOOLONG, -1;
        memcpy(buf, next, strlen(next) + 1);
    }
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Does the output name one of the inputs (standard input if none)? */
static const char *input_named(const char *name, char **inputs, int ninputs)
{
    struct stat out, in;
    if (stat(name, &out) != 0)
        return NULL;
    if (ninputs == 0)
        return fstat(STDIN_FILENO, &in) == 0 && same_file(&out, &in) ? "-" : NULL;
    for (int i = 0; i < ninputs; i++) {
        int found = strcmp(inputs[i], "-") == 0 ? fstat(STDIN_FILENO, &in) == 0
                                                : stat(inputs[i], &in) == 0;
        if (found && same_file(&out, &in))
            return inputs[i];
    }
    return NULL;
}

static int stdout_reported;    /* F003 already said of standard output */

static int output_failed(struct output *o, const char *what)
{
    struct diag_sink s = { .file = o->name ? o->name : "<stdout>", .show_notes = 1 };
    if (!o->name)
        stdout_reported = 1;
    if (errno)
        report(&s, PMN_F003, 0, 0, "%s: %s", what, strerror(errno));
    else
        report(&s, PMN_F003, 0, 0, "%s", what);
    return EXIT_FATAL;
}

int open_output(struct output *o, const char *cmd, const char *name, char **inputs,
                int ninputs)
{
    o->name = name;
    o->f = stdout;
    o->direct = 0;
    if (!name)
        return 0;
    const char *in = input_named(name, inputs, ninputs);
    if (in && strcmp(in, name) == 0)
        return usage_error(cmd, "the output %s is also an input: write to another file, "
                           "then rename it", name);
    if (in)
        return usage_error(cmd, "the output %s is the input %s: write to another file, "
                           "then rename it", name, strcmp(in, "-") ? in : "(standard input)");
    struct stat st;
    if (follow_links(name, target_path, sizeof target_path) != 0)
        return output_failed(o, "cannot create");
    if (stat(target_path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* A device, a FIFO, a terminal: written as it is. */
        o->direct = 1;
        if (!(o->f = fopen(target_path, "w")))
            return output_failed(o, "cannot open");
        return 0;
    }
    const char *target = target_path, *slash = strrchr(target, '/');
    int dir = slash ? (int)(slash - target + 1) : 0;
    if (snprintf(temp_path, sizeof temp_path, "%.*s.%s.XXXXXX", dir, target, target + dir)
        >= (int)sizeof temp_path) {
        errno = ENAMETOOLONG;
        temp_path[0] = '\0';
        return output_failed(o, "cannot create");
    }
    catch_signals();
    int fd = mkstemp(temp_path);
    if (fd < 0) {
        temp_path[0] = '\0';
        return output_failed(o, "cannot create");
    }
    /* The mode a new file would have, or the one it has. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, stat(target, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask);
    if (!(o->f = fdopen(fd, "w"))) {
        close(fd);
        remove_temp();
        return output_failed(o, "cannot create");
    }
    return 0;
}

char *temp_file_make(const char *target, FILE **f)
{
    const char *slash = strrchr(target, '/');
    int dir = slash ? (int)(slash - target + 1) : 0;
    size_t size = strlen(target) + 16;
    struct temp_file *t = malloc(sizeof *t + size);
    if (!t)
        return NULL;
    snprintf(t->path, size, "%.*s.%s.XXXXXX", dir, target, target + dir);
    catch_signals();
    int fd = mkstemp(t->path);
    if (fd < 0) {
        free(t);
        return NULL;
    }
    t->next = temp_files;
    temp_files = t;           /* linked whole: the handler sees it or not */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    if (!(*f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        temp_file_done(t->path, NULL, 0);
        errno = e;
        return NULL;
    }
    return t->path;
}

int temp_file_done(char *path, const char *target, int replace)
{
    int rc = 0, renamed = 0;
    if (target && replace) {
        renamed = (rc = rename(path, target)) == 0;
    } else if (target) {
        /* Never over a file that came meanwhile: a link fails if one is
         * there (a file system without links: renamed if none is). */
        struct stat st;
        rc = link(path, target);
        if (rc != 0 && errno != EEXIST && lstat(target, &st) != 0)
            renamed = (rc = rename(path, target)) == 0;
    }
    int e = errno;
    if (!renamed)
        unlink(path);         /* linked to target, or given up */
    path[0] = '\0';          /* no longer the handler's; the node stays (a
                                 handler may be walking it) */
    errno = e;
    return rc;
}

int close_output(struct output *o, int failed, int status)
{
    if (fflush(o->f) != 0 || ferror(o->f))
        failed = 1;
    if (!o->name)
        return failed ? output_failed(o, "cannot write") : status;
    if (o->direct) {
        if (fclose(o->f) != 0)
            failed = 1;
        return failed ? output_failed(o, "cannot write") : status;
    }
    if (!failed && fsync(fileno(o->f)) != 0 && errno != EINVAL)
        failed = 1;
    if (fclose(o->f) != 0)
        failed = 1;
    if (!failed && status != EXIT_FATAL && rename(temp_path, target_path) != 0)
        failed = 1;
    if (failed || status == EXIT_FATAL) {
        if (!failed)
            errno = 0;   /* nothing failed here: the failure was said before */
        output_failed(o, failed ? "cannot write, left as it was"
                                : "not written after the failure above: left as it was");
        remove_temp();
        return EXIT_FATAL;
    }
    temp_path[0] = '\0';
    return status;
}

int finish_stdout(int status)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout) && fclose(stdout) == 0)
        return status;
    if (stdout_reported)
        return EXIT_FATAL;
    struct output o = { NULL, NULL, 0 };
    /* A write that failed before this flush leaves the stream's error and
     * no errno: its reason is gone, but not that it was an earlier one. */
    return output_failed(&o, errno ? "cannot write"
                                   : "cannot write: an earlier write failed (a full disk, "
                                     "a closed pipe?)");
}

/* A game's diagnostics held at most: past this many they are printed, so
 * that a game with a problem at each of its 100000 moves stays in bounded
 * memory. */
#define MAX_HELD 4096

void json_or_null(FILE *f, const char *s)
{
    if (s)
        json_string(f, s);
    else
        fputs("null", f);
}

void json_string(FILE *f, const char *s)
{
    putc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            putc(*s, f);
    }
    putc('"', f);
}

/* A diagnostic as one JSON object on a line (check --format jsonl). */
static void show_json(FILE *e, const struct diag_sink *s, const pmn_diag *d)
{
    char code[8];
    pmn_diag_code_name(d->code, code);
    fputs("{\"type\":\"diagnostic\",\"file\":", e);
    json_string(e, s->file);
    if (d->line)
        fprintf(e, ",\"line\":%llu", d->line);
    else
        fputs(",\"line\":null", e);
    if (d->col)
        fprintf(e, ",\"col\":%llu", d->col);
    else
        fputs(",\"col\":null", e);
    fprintf(e, ",\"severity\":\"%s\",\"code\":\"%s\",\"message\":",
            pmn_severity_string(d->severity), code);
    json_string(e, d->message);
    fputs("}\n", e);
}

static void show_diag(const struct diag_sink *s, const pmn_diag *d)
{
    FILE *e = s->err ? s->err : stderr;
    if (!s->err)
        progress_erase();
    if (s->json) {
        show_json(e, s, d);
        return;
    }
    char code[8];
    pmn_diag_code_name(d->code, code);
    char file[1024];
    pmn_text_escape(s->file, file, sizeof file);   /* a file name is text too */
    if (d->line && d->col)
        fprintf(e, "%s:%llu:%llu: ", file, d->line, d->col);
    else if (d->line)
        fprintf(e, "%s:%llu: ", file, d->line);
    else
        fprintf(e, "%s: ", file);
    fprintf(e, "%s[%s]: %s\n", pmn_severity_string(d->severity), code, d->message);
}

void release_diags(struct diag_sink *s)
{
    size_t n = pmn_diags_in_file_order(s->held, s->nheld);
    for (size_t i = 0; i < n; i++)
        show_diag(s, &s->held[i]);
    s->nheld = 0;
}

static int hold_diag(struct diag_sink *s, const pmn_diag *d)
{
    if (s->nheld == MAX_HELD)
        release_diags(s);
    pmn_diag *h = grown(s->held, &s->held_cap, s->nheld, sizeof *h, 16);
    if (!h)
        return -1;
    s->held = h;
    s->held[s->nheld++] = *d;
    return 0;
}

void print_diag(void *sink, const pmn_diag *d)
{
    struct diag_sink *s = sink;
    if ((s->mute && d->severity != PMN_FATAL) || (s->drop_code && d->code == s->drop_code))
        return;
    s->count[d->severity]++;
    if (d->severity == PMN_NOTE && !s->show_notes)
        return;
    if (!s->hold || hold_diag(s, d) < 0) {
        release_diags(s);
        show_diag(s, d);
    }
}

void report(struct diag_sink *s, pmn_diag_code code, pmn_at line, pmn_at col,
            const char *fmt, ...)
{
    pmn_diag d;
    char msg[sizeof d.message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pmn_diag_make(&d, code, line, col, "%s", msg);
    print_diag(s, &d);
}

int exit_status(const struct diag_sink *s)
{
    if (s->count[PMN_FATAL])
        return EXIT_FATAL;
    if (s->count[PMN_ERROR])
        return EXIT_ERRORS;
    if (s->count[PMN_WARNING])
        return EXIT_WARNINGS;
    return EXIT_CLEAN;
}

/* The file as it is on disk (stdin for "-"), or NULL (reported). */
static FILE *open_raw(const char *name, struct diag_sink *s)
{
    if (strcmp(name, "-") == 0) {
        s->file = "<stdin>";
        return stdin;
    }
    s->file = name;
    FILE *f = fopen(name, "r");
    struct stat st;
    if (!f) {
        report(s, PMN_F001, 0, 0, "cannot open: %s", strerror(errno));
    } else if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        size_t n = strlen(name);
        report(s, PMN_F001, 0, 0, "a directory, not a file: name the files in it (%s%s*.pmn)",
               name, n && name[n - 1] == '/' ? "" : "/");
        fclose(f);
        f = NULL;
    }
    return f;
}

/* Its text as pmn reads it: UTF-8, whatever encoding it was saved in. */
static FILE *decoded(FILE *raw, struct diag_sink *s)
{
    FILE *f = pmn_text_input(raw, raw != stdin, print_diag, s);
    if (!f) {
        report(s, PMN_F002, 0, 0, "out of memory");
        if (raw != stdin)
            fclose(raw);
    }
    return f;
}

FILE *open_input(const char *name, struct diag_sink *s)
{
    FILE *raw = open_raw(name, s);
    return raw ? decoded(raw, s) : NULL;
}

void close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);   /* and the file under it, but stdin */
}

void each_input(char **names, int n, struct diag_sink *s,
                void (*fn)(FILE *f, struct diag_sink *s, void *ctx), void *ctx)
{
    char *stdin_only[] = { "-" };
    if (n == 0) {
        names = stdin_only;
        n = 1;
    }
    for (int i = 0; i < n; i++) {
        s->fatal_before = s->count[PMN_FATAL];
        FILE *raw = open_raw(names[i], s), *f = raw ? decoded(raw, s) : NULL;
        if (f) {
            s->hold = 1;
            if (s->progress)   /* the file's bytes: its size is known */
                progress_file(s->progress, raw, i + 1, n);
            fn(f, s, ctx);
            release_diags(s);
            s->hold = 0;
            close_input(f);
        }
    }
    free(s->held);
    s->held = NULL;
    s->held_cap = 0;
    progress_erase();
}

