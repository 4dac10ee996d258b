/* tablebase.c - pmn tablebase: build endgame databases, say what they hold,
 * look a position up in them. */
#include "cli.h"
#include "progress.h"
#include "options.h"
#include "command.h"
#include "jobs.h"
#include "records.h"
#include "io.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

struct tb_request {
    pmn_rules rules;
    unsigned long seeds;
    int have_seeds;
    const char *dir, *position;
    int jobs, quiet, force;
    char where[4096];         /* the default dir */
};

#define NO_SEEDS ULONG_MAX
static const struct cli_bounds seeds_bounds = { 0, PMN_TABLEBASE_MAX_SEEDS, "a number", 0 };

static const struct cli_option options[] = {
    OPT_RULES_SET,
    { "seeds", 's', "N", "build: every layer up to N seeds in play",
      ULONG_AT(struct tb_request, seeds), &seeds_bounds, 0 },
    { "dir", 'D' + 256, "DIR", "the databases' directory (default: $PMN_TABLEBASES,\n"
      "else ~/.local/share/pmn/tablebases)", STRING_AT(struct tb_request, dir), NULL, 0 },
    { "position", 'P' + 256, "STRING", "probe: the position to look up",
      STRING_AT(struct tb_request, position), NULL, 0 },
    { "force", 'F' + 256, NULL, "build: even where the estimate says the memory or\n"
      "disk is too small", FLAG_AT(struct tb_request, force), NULL, 0 },
    OPT_JOBS,
    OPT_QUIET_PROGRESS,
    OPT_END,
};

/* One line a layer: its seeds, positions, where it came from, and how many
 * positions have each value (the best final margin of the seeds in play
 * for the side to move), the values that none have left out. */
static void print_layer(const pmn_tablebase_layer *s)
{
    printf("seeds %u: %llu positions", s->seeds, (unsigned long long)s->positions);
    for (int v = -(int)s->seeds; v <= (int)s->seeds; v++) {
        uint64_t c = s->by_value[v + PMN_TABLEBASE_MAX_SEEDS];
        if (c)
            printf(" %+d:%llu", v, (unsigned long long)c);
    }
    if (s->bounded)
        printf(" bounded:%llu", (unsigned long long)s->bounded);
    printf("\n");
    fflush(stdout);
}

struct tb_progress {
    int quiet;
    unsigned seeds;           /* the layer being built */
    double start;             /* when it began */
};

static void built(void *ctx, const pmn_tablebase_layer *s)
{
    struct tb_progress *pr = ctx;
    int shown = !pr->quiet && isatty(2);
    if (s->done < 1) {
        /* Inside a layer: how far, and the time left at the rate so far. */
        if (pr->seeds != s->seeds || pr->start == 0) {
            pr->seeds = s->seeds;
            pr->start = clock_seconds();
        }
        double spent = clock_seconds() - pr->start;
        if (shown)
            fprintf(stderr, "\rlayer %u: %llu positions, %.0f%% built, about %.0f s left\033[K",
                    s->seeds, (unsigned long long)s->positions, 100 * s->done,
                    s->done > 0.02 ? spent / s->done * (1 - s->done) : 0.0);
        return;
    }
    pr->start = 0;
    if (shown)
        fprintf(stderr, "\rlayer %u %s in %.1f s\033[K\n", s->seeds, s->loaded ? "read" : "built",
                s->seconds);
    print_layer(s);
}

/* The directories above dir, as mkdir -p makes them (the build makes dir
 * itself, and says if it cannot). */
static void make_parents(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0777);
            *p = '/';
        }
}

/* Bytes as a person reads them. */
static const char *bytes_text(double b, char *buf, size_t size)
{
    static const char *const units[] = { "bytes", "KB", "MB", "GB", "TB", "PB" };
    int u = 0;
    while (b >= 1000 && u < 5)
        b /= 1000, u++;
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", b, units[u]);
    return buf;
}

/* The free disk of dir, or of the nearest directory above it that exists
 * (the build makes dir), named in at; -1 if none can be asked. */
static double disk_free(const char *dir, char *at, size_t size)
{
    struct statvfs fs;
    snprintf(at, size, "%s", dir);
    for (;;) {
        if (statvfs(at, &fs) == 0)
            return (double)fs.f_bavail * (double)fs.f_frsize;
        char *slash = strrchr(at, '/');
        if (slash && slash > at)
            *slash = '\0';            /* a/b/c -> a/b */
        else if (slash && at[1])
            at[1] = '\0';             /* /a -> / */
        else if (!slash && strcmp(at, ".") != 0)
            snprintf(at, size, ".");  /* a -> . */
        else
            return -1;
    }
}

/* What a build up to rq->seeds needs, said before it starts: its positions,
 * the files (pmn_tablebase_build_bytes: a byte a position), and the memory
 * of its largest layer as the builder holds it (the codes and holes, each
 * position's best exit, moves and predecessor list of about six moves, the
 * solve's state and queue: about 49 bytes a position) beside the layers
 * below, mapped.  Where the machine's memory or the directory's disk is
 * smaller, the build is refused (it would run for hours and then fail)
 * unless --force.  Returns 0 to go on, or an exit status. */
static int estimate(const char *cmd, const struct tb_request *rq)
{
    double total = 0, disk;
    for (unsigned n = 0; n <= rq->seeds; n++)
        total += (double)pmn_tablebase_positions(&rq->rules, n);
    double memory = pmn_tablebase_build_bytes(&rq->rules, (unsigned)rq->seeds, &disk);
    double ram = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    char parent[4096], a[32], b[32], c[32];
    double free_disk = disk_free(rq->dir, parent, sizeof parent);
    if (!rq->quiet)
        fprintf(stderr, "pmn %s: layers 0 to %lu: %.0f positions, %s of files, about %s of "
                "memory for the largest\n", cmd, rq->seeds, total,
                bytes_text(disk, a, sizeof a), bytes_text(memory, b, sizeof b));
    if (rq->force)
        return 0;
    if (ram > 0 && memory > ram) {
        fprintf(stderr, "pmn %s: error: the layer of %lu seeds needs about %s of memory, and "
                "this machine has %s: build fewer seeds, or --force\n", cmd, rq->seeds,
                bytes_text(memory, a, sizeof a), bytes_text(ram, c, sizeof c));
        return EXIT_USAGE;
    }
    if (free_disk >= 0 && disk > free_disk) {
        fprintf(stderr, "pmn %s: error: the files need about %s, and %s has %s free: build "
                "fewer seeds, or --force\n", cmd, bytes_text(disk, a, sizeof a), parent,
                bytes_text(free_disk, c, sizeof c));
        return EXIT_USAGE;
    }
    return 0;
}

/* A build that stopped, said as every command says what stops it, with
 * its code: a file or folder that cannot be written or made (F003, named
 * by it, as "DIR/pmn-...-03.tb.part: fatal[F003]: cannot write: No space
 * left on device"), memory (F002), a layer there already that cannot be
 * used (F005). */
static int build_failed(const char *cmd, const char *dir, const pmn_error *err)
{
    static const char *const verbs[] = { "cannot write ", "cannot make " };
    if (err->code == PMN_ERR_SYNTAX)
        return tablebase_unusable(dir, err);
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        size_t n = strlen(verbs[i]);
        const char *colon = strstr(err->message, ": ");
        if (strncmp(err->message, verbs[i], n) == 0 && colon) {
            char file[4096];
            snprintf(file, sizeof file, "%.*s", (int)(colon - err->message - n),
                     err->message + n);
            struct diag_sink sink = { .file = file, .show_notes = 1 };
            report(&sink, PMN_F003, 0, 0, "%.*s: %s", (int)n - 1, verbs[i], colon + 2);
            return EXIT_FATAL;
        }
    }
    if (err->code == PMN_ERR_NOMEM) {
        struct diag_sink sink = { .file = dir, .show_notes = 1 };
        report(&sink, PMN_F002, 0, 0, "%s", err->message);
        return EXIT_FATAL;
    }
    fprintf(stderr, "pmn %s: error: %s\n", cmd, err->message);
    return EXIT_FATAL;
}

static int build(const char *cmd, const struct tb_request *rq)
{
    pmn_error err;
    struct tb_progress pr = { rq->quiet, 0, 0 };
    if (!rq->have_seeds)
        return usage_error(cmd, "build needs --seeds N");
    if (pmn_tablebase_check_rules(&rq->rules, &err) != 0) {
        fprintf(stderr, "pmn %s: error: %s\n", cmd, err.message);
        return EXIT_USAGE;
    }
    if (rq->seeds > pmn_tablebase_max_seeds(&rq->rules))
        return usage_error(cmd, "--seeds: at most %u for these rules, whose positions can "
                           "repeat (a byte holds a position's value and the winner's hole)",
                           pmn_tablebase_max_seeds(&rq->rules));
    pmn_rules b;
    pmn_tablebase_built_rules(&rq->rules, &b);
    if (b.majority != rq->rules.majority && !rq->quiet) {
        char spec[256], built_spec[256];
        pmn_rules_format(&rq->rules, spec, sizeof spec);
        pmn_rules_format(&b, built_spec, sizeof built_spec);
        fprintf(stderr, "pmn %s: %s: the databases of %s, which decide the same winner (the "
                "first side past half of the seeds), and so give %s games their results, not "
                "their margins\n", cmd, spec, built_spec, spec);
    }
    int rc = estimate(cmd, rq);
    if (rc != 0)
        return rc;
    make_parents(rq->dir);
    /* A file past the size limit (ulimit -f) is a write that fails, which
     * the build reports (F003) after removing its .part file, and not a
     * signal that ends pmn with the file left behind. */
    signal(SIGXFSZ, SIG_IGN);
    if (pmn_tablebase_build(&rq->rules, (unsigned)rq->seeds, rq->dir, (unsigned)rq->jobs, built,
                            &pr, &err) != 0)
        return build_failed(cmd, rq->dir, &err);
    return EXIT_CLEAN;
}

/* Under a majority, the rules the databases are built under, and what
 * they give: into buf, " (the databases of SPEC: ...)", else "". */
static const char *served(const pmn_rules *r, char *buf, size_t size)
{
    char spec[256];
    pmn_rules b;
    pmn_tablebase_built_rules(r, &b);
    *buf = '\0';
    if (b.majority != r->majority) {
        pmn_rules_format(&b, spec, sizeof spec);
        snprintf(buf, size, " (the databases of %s, which decide the same winner -- the first "
                 "side past half of the seeds -- and so give the results, not the margins)",
                 spec);
    }
    return buf;
}

/* The databases of rq, read whole (pmn_tablebase_verify): into *tb, 0, or
 * the exit status after saying which layer is not sound (F005). */
static int open_verified(const struct tb_request *rq, pmn_tablebase **tb)
{
    pmn_error err;
    *tb = pmn_tablebase_open(&rq->rules, rq->dir, &err);
    if (!*tb)
        return tablebase_unusable(rq->dir, &err);
    if (pmn_tablebase_verify(*tb, &err) != 0) {
        pmn_tablebase_close(*tb);
        *tb = NULL;
        return tablebase_unusable(rq->dir, &err);
    }
    return 0;
}

/* Every layer read whole: checksums and values. */
static int verify(const struct tb_request *rq)
{
    pmn_tablebase *tb;
    int rc = open_verified(rq, &tb);
    if (rc)
        return rc;
    printf("%s: layers 0 to %u seeds in play: every checksum matches, every value one its "
           "seeds can make\n", rq->dir, pmn_tablebase_seeds(tb));
    pmn_tablebase_close(tb);
    return EXIT_CLEAN;
}

static int info(const struct tb_request *rq)
{
    char spec[256], why[512];
    pmn_tablebase *tb;
    int rc = open_verified(rq, &tb);   /* its counts read every value anyway */
    if (rc)
        return rc;
    pmn_rules_format(&rq->rules, spec, sizeof spec);
    printf("Rules: %s%s\nLayers: 0 to %u seeds in play\n", spec,
           served(&rq->rules, why, sizeof why), pmn_tablebase_seeds(tb));
    for (unsigned n = 0; n <= pmn_tablebase_seeds(tb); n++) {
        pmn_tablebase_layer s;
        pmn_tablebase_layer_stats(tb, n, &s);
        print_layer(&s);
    }
    pmn_tablebase_close(tb);
    return EXIT_CLEAN;
}

static int probe(const char *cmd, struct tb_request *rq)
{
    pmn_error err;
    pmn_position p;
    int rc, v;
    if (!rq->position)
        return usage_error(cmd, "probe needs --position STRING");
    if ((rc = position_option(cmd, "--position", &rq->rules, rq->position, &p)) != 0)
        return rc;
    pmn_tablebase *tb = pmn_tablebase_open(&rq->rules, rq->dir, &err);
    if (!tb)
        return tablebase_unusable(rq->dir, &err);
    int lo, hi;
    if (pmn_tablebase_probe_bounds(tb, &p, &lo, &hi) && lo < hi) {
        /* Own seeds: the value depends on where endless play is cut off. */
        int me = p.to_move;
        long banked = (long)p.captured[me] - (long)p.captured[!me];
        printf("%s: between %+d and %+d of the seeds in play with best play (final margin "
               "%+ld to %+ld): %s, as the position at which a repetition ends the game gives "
               "the seeds on each side to that side; 'pmn analyse --solve' searches it\n",
               pmn_side_name(me), lo, hi, banked + lo, banked + hi,
               banked + lo > 0 ? "a win" : banked + hi < 0 ? "a loss"
               : banked + lo == 0 ? "a win or a draw" : banked + hi == 0 ? "a draw or a loss"
               : "the result not known");
        pmn_tablebase_close(tb);
        return EXIT_CLEAN;
    }
    if (!pmn_tablebase_probe(tb, &p, &v)) {
        unsigned n = pmn_position_seeds(&rq->rules, &p, 0) + pmn_position_seeds(&rq->rules, &p, 1);
        if (pmn_tablebase_damaged(tb))   /* held, but by no value it can have */
            return tablebase_close_checked(tb);
        fprintf(stderr, "pmn %s: error: %u seeds in play, the databases hold up to %u\n", cmd, n,
                pmn_tablebase_seeds(tb));
        pmn_tablebase_close(tb);
        return EXIT_ERRORS;
    }
    int me = p.to_move;
    long final = (long)p.captured[me] - (long)p.captured[!me] + v;
    const char *result = final > 0 ? "a win" : final < 0 ? "a loss" : "a draw";
    char why[512];
    if (*served(&rq->rules, why, sizeof why))
        printf("%s: %s with best play%s; playing every seed out, final margin %+ld\n",
               pmn_side_name(me), result, why, final);
    else
        printf("%s: %+d of the seeds in play with best play; final margin %+ld: %s\n",
               pmn_side_name(me), v, final, result);
    pmn_tablebase_close(tb);
    return EXIT_CLEAN;
}

static void init(struct common *c, void *ctx)
{
    struct tb_request *rq = ctx;
    pmn_rules_init(&c->rules, "kalah", NULL);
    rq->dir = default_tablebase_dir(rq->where, sizeof rq->where);
    rq->seeds = NO_SEEDS;
}

static int run(struct common *c, void *ctx)
{
    struct tb_request *rq = ctx;
    const char *cmd = c->cmd->name;
    rq->have_seeds = rq->seeds != NO_SEEDS;
    if (!rq->have_seeds)
        rq->seeds = 0;
    rq->rules = c->rules;
    rq->jobs = c->jobs;
    rq->quiet = c->quiet;
    if (c->nfiles != 1)
        return usage_error(cmd, "expected one of build, info, probe, verify");
    const char *what = c->files[0];
    if (strcmp(what, "build") == 0)
        return build(cmd, rq);
    if (strcmp(what, "info") == 0)
        return info(rq);
    if (strcmp(what, "probe") == 0)
        return probe(cmd, rq);
    if (strcmp(what, "verify") == 0)
        return verify(rq);
    return usage_error(cmd, "unknown action '%s' (build, info, probe, verify)", what);
}

const struct command tablebase_command = {
    "tablebase", "build endgame databases, and look positions up in them",
    "build --rules SPEC --seeds N [--dir DIR]\ninfo --rules SPEC [--dir DIR]\n"
    "probe --rules SPEC --position STRING [--dir DIR]\nverify --rules SPEC [--dir DIR]",
    "Endgame databases of a game scored by seeds (Kalah, Oware, Awale): every\n"
    "position with at most N seeds in play, valued exactly by retrograde\n"
    "analysis -- the best final margin of the seeds still in play for the side\n"
    "to move.  'build' makes them layer by layer of seeds (a layer already in\n"
    "DIR is read, not built again) and prints, for each layer, how many\n"
    "positions have each value; 'info' prints the same of what DIR holds;\n"
    "'probe' looks a position up; 'verify' reads every layer whole against its\n"
    "checksum (an open reads only the headers: a value past its seeds is never\n"
    "taken, and said at the end, but another changed value is found only so).\n"
    "'pmn analyse --tablebase DIR' answers from\n"
    "them.  Under a majority (Oware, Awale) the databases are those of\n"
    "majority=no, which decide the same winner: they give the result, not the\n"
    "margin.  Where a repetition gives each side the seeds on its side (Oware),\n"
    "a position's value may depend on where endless play is cut off: the\n"
    "databases hold it where it cannot, and bound it elsewhere ('bounded' in\n"
    "the counts), and the search goes on from there.  A repetition that draws\n"
    "or plays on is refused.",
    options,
    "SPEC is a rule set ('pmn rules list'), with its sizes as in kalah(6,3) if\n"
    "need be, or a rule file; then options KEY=VALUE, all separated by commas.\n"
    "The default rules are kalah's.",
    sizeof(struct tb_request), 0, init, NULL, run,
};
