/* split.c - pmn split: an archive cut into files, by count or by a tag.
 *
 * File names are made from tag values with nothing but ASCII letters,
 * digits, '.', '_' and '-' (no directory, no hidden file, no option), and
 * two values that make the same name get a number after it.  A file is
 * created by the run or not at all: one that exists already is left alone
 * unless --force.  Each is written whole: to a temporary file beside it
 * (".NAME.XXXXXX", removed by any signal that ends pmn), moved into place
 * when it is finished -- with --games when it has its N games, else at the
 * end -- and listed then; one whose writing failed is removed, and the
 * split says which games are in no file.  At most MAX_OPEN files are open
 * at once; the others are reopened to append when their next game comes. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "progress.h"
#include "records.h"
#include "archive.h"
#include "criteria.h"
#include "names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OPEN 32
#define MAX_NAME 100

struct part_file {
    char *key;                /* the tag's value (or the part's number) */
    char *path;
    char *temp;               /* where it is written until finished; NULL: none made */
    struct game_output out;   /* out.f: NULL while closed */
    unsigned long used;       /* when last written, for closing the oldest */
    int finished;             /* moved into place (listed), or removed */
    int listed;
};

struct split {
    struct archive a;         /* first: archive_file is given the context */
    const struct criteria *c;
    unsigned long per_file;   /* --games */
    const char *by;           /* --by */
    const char *prefix;
    int force, format;
    pmn_write_options wo;
    struct part_file *files;  /* by the number of their key in keys */
    size_t n, cap, open;
    struct names keys, paths; /* of the files */
    unsigned long games, clock;
    int failed;               /* a file could not be made or written: stop */
    unsigned long failed_at;  /* the game it stopped at */
    struct diag_sink *sink;
};

/* The file name part for a value: safe characters, runs of others as one
 * '_', no '.' or '-' first, at most MAX_NAME bytes. */
static void safe_name(const char *value, char *buf)
{
    size_t n = 0;
    for (const char *s = value; *s && n < MAX_NAME; s++) {
        char c = *s;
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
              || ((c == '.' || c == '-') && n > 0) || c == '_';
        if (!ok)
            c = '_';
        if (c == '_' && n > 0 && buf[n - 1] == '_')
            continue;
        buf[n++] = c;
    }
    while (n > 1 && buf[n - 1] == '_')
        n--;
    if (n == 0)
        buf[n++] = '_';
    buf[n] = '\0';
}

static void close_oldest(struct split *sp)
{
    struct part_file *old = NULL;
    for (size_t i = 0; i < sp->n; i++)
        if (sp->files[i].out.f && (!old || sp->files[i].used < old->used))
            old = &sp->files[i];
    if (old) {
        if (fclose(old->out.f) != 0)
            old->out.failed = 1;
        old->out.f = NULL;
        sp->open--;
    }
}

/* The file of key, made when first asked for; NULL if it cannot be. */
static struct part_file *file_for(struct split *sp, const char *key)
{
    long k = name_find(&sp->keys, key);
    struct part_file *pf = k >= 0 ? &sp->files[k] : NULL;
    if (!pf) {
        char name[MAX_NAME + 1], path[4096];
        safe_name(key, name);
        const char *sep = sp->prefix[0] ? "-" : "";
        snprintf(path, sizeof path, "%s%s%s.pmn", sp->prefix, sep, name);
        for (unsigned k2 = 2; name_find(&sp->paths, path) >= 0; k2++)
            snprintf(path, sizeof path, "%s%s%s-%u.pmn", sp->prefix, sep, name, k2);
        struct part_file *files = grown(sp->files, &sp->cap, sp->n, sizeof *files, 16);
        if (!files)
            return NULL;
        sp->files = files;
        pf = &sp->files[sp->n];
        memset(pf, 0, sizeof *pf);
        pf->key = strdup(key);
        pf->path = strdup(path);
        if (!pf->key || !pf->path || name_id(&sp->keys, pf->key) < 0
            || name_id(&sp->paths, pf->path) < 0) {
            free(pf->key), free(pf->path);
            return NULL;
        }
        pf->out.format = sp->format;
        pf->out.wo = sp->wo;
        sp->n++;
        if (sp->open == MAX_OPEN)
            close_oldest(sp);
        /* Made by this run, or not at all (--force: replaced), when it is
         * finished. */
        struct stat st;
        if (!sp->force && lstat(path, &st) == 0)
            errno = EEXIST;
        else if ((pf->temp = temp_file_make(path, &pf->out.f)) != NULL)
            errno = 0;
        if (!pf->temp) {
            report(sp->sink, PMN_F003, 0, 0, "%s: cannot make it: %s%s", path, strerror(errno),
                   errno == EEXIST ? " (--force replaces it)" : "");
            pf->out.failed = 1;
            sp->failed = 1;
            return pf;
        }
        sp->open++;
    } else if (!pf->out.f) {
        if (sp->open == MAX_OPEN)
            close_oldest(sp);
        if (!(pf->out.f = fopen(pf->temp, "a"))) {
            pf->out.failed = 1;
            report(sp->sink, PMN_F003, 0, 0, "%s: cannot open it again: %s", pf->path,
                   strerror(errno));
            sp->failed = 1;
            return pf;
        }
        sp->open++;
    }
    pf->used = ++sp->clock;
    return pf;
}

/* The file pf finished: moved into place and listed (keep), or removed
 * (its writing failed, or the split stopped before it was whole). */
static void finish(struct split *sp, struct part_file *pf, int keep)
{
    if (!pf->temp || pf->finished)
        return;
    pf->finished = 1;
    if (pf->out.f) {
        if (fclose(pf->out.f) != 0 && !pf->out.failed) {
            report(sp->sink, PMN_F003, 0, 0, "%s: cannot write: %s", pf->path, strerror(errno));
            pf->out.failed = 1;
            sp->failed = 1;
        }
        pf->out.f = NULL;
        sp->open--;
    }
    if (keep && !pf->out.failed) {
        if (temp_file_done(pf->temp, pf->path, sp->force) == 0) {
            pf->listed = 1;
            return;
        }
        report(sp->sink, PMN_F003, 0, 0, "%s: cannot make it: %s%s", pf->path, strerror(errno),
               errno == EEXIST ? " (--force replaces it)" : "");
        pf->out.failed = 1;
        sp->failed = 1;
        return;
    }
    temp_file_done(pf->temp, NULL, 0);
}

/* The split has stopped: at the game being written, unless before. */
static int stopped(struct split *sp)
{
    sp->failed = 1;
    if (!sp->failed_at)
        sp->failed_at = sp->games;
    return 1;
}

static int write_to(struct split *sp, const char *key, const struct game *g)
{
    if (sp->failed)
        return stopped(sp);
    struct part_file *pf = file_for(sp, key);
    if (!pf)
        report(sp->sink, PMN_F002, 0, 0, "out of memory");
    if (!pf || sp->failed)
        return stopped(sp);
    if (output_game(&pf->out, g) < 0) {
        report(sp->sink, PMN_F003, 0, 0, "%s: cannot write: %s", pf->path, strerror(errno));
        pf->out.failed = 1;
        return stopped(sp);
    }
    if (!sp->by && pf->out.games == sp->per_file)
        finish(sp, pf, 1);    /* whole: --games' parts fill one after another */
    return 0;
}

static int each_game(struct archive *a, struct game *g)
{
    struct split *sp = (struct split *)a;
    char key[32];
    if (!criteria_match(sp->c, g))
        return 0;
    sp->sink = g->sink;
    sp->games++;
    if (!sp->by) {
        snprintf(key, sizeof key, "%04lu", (sp->games - 1) / sp->per_file + 1);
        return write_to(sp, key, g);
    }
    if (strcmp(sp->by, "player") == 0) {
        const char *s = game_tag(g, "South"), *n = game_tag(g, "North");
        int rc = write_to(sp, s ? s : "unknown", g);
        if (!rc && !(s && n && strcmp(s, n) == 0))
            rc = write_to(sp, n ? n : "unknown", g);
        return rc;
    }
    if (strcmp(sp->by, "rule-set") == 0)
        return write_to(sp, g->rules, g);
    const char *v = game_tag(g, sp->by);
    return write_to(sp, v && v[0] ? v : "unknown", g);
}


static const char *const split_formats[] = { "verbatim", "pmn", NULL };   /* OUT_* */
static const struct cli_bounds games_bounds = { 1, 1e9, "a number of games", 0 };

static const struct cli_option options[] = {
    { "games", 2000, "N", "N games a file: PREFIX-0001.pmn, PREFIX-0002.pmn, ...",
      ULONG_AT(struct split, per_file), &games_bounds, 0 },
    { "by", 2001, "TAG", "a file for each value of TAG (Event, Round, ...);\n"
      "player: a file for each player, with the games he\nplays; rule-set: for each rule set",
      STRING_AT(struct split, by), NULL, 0 },
    { "prefix", 2002, "PREFIX", "file names begin with PREFIX and '-' (it may name a\n"
      "directory; default: games with --games, none\nwith --by)",
      STRING_AT(struct split, prefix), NULL, 0 },
    { "force", 2003, NULL, "replace files that exist (else they are left alone,\n"
      "and the split stops)", FLAG_AT(struct split, force), NULL, 0 },
    { "format", 'F' + 256, "FORMAT", "verbatim (the games as read; the default) or pmn\n"
      "(canonical)", CHOICE_AT(struct split, format), split_formats, 0 },
    OPT_CRITERIA,
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_QUIET_PROGRESS,
    OPT_STRICT,
    OPT_END,
};

static int ready(struct common *c, void *ctx)
{
    struct split *sp = ctx;
    char buf[256];
    if (!sp->per_file == !sp->by)
        return usage_error(c->cmd->name, "say how to split: --games N or --by TAG");
    if (sp->by && strcmp(sp->by, "player") && strcmp(sp->by, "rule-set"))
        for (const char *s = sp->by; *s; s++)
            if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')
                  || (*s >= '0' && *s <= '9') || *s == '_'))
                return usage_error(c->cmd->name, "--by '%s' is not a tag name",
                                   escaped(sp->by, buf, sizeof buf));
    return 0;
}

static int run(struct common *c, void *ctx)
{
    struct split *sp = ctx;
    char buf[256];
    sp->wo = c->wo;
    if (!sp->prefix)
        sp->prefix = sp->by ? "" : "games";
    sp->a.game = each_game;
    sp->a.ro = &c->ro;
    sp->a.from = c->from;
    sp->a.need_moves = sp->format == OUT_PMN || criteria_need_moves(&c->criteria);
    sp->c = &c->criteria;
    sp->sink = &c->sink;
    each_input(c->files, c->nfiles, &c->sink, archive_file, sp);
    /* Every file whose games were all written is whole, even after a
     * failure elsewhere; the one that failed is removed. */
    for (size_t i = 0; i < sp->n; i++)
        finish(sp, &sp->files[i], 1);
    unsigned long lost = 0;
    for (size_t i = 0; i < sp->n; i++) {
        struct part_file *pf = &sp->files[i];
        if (pf->listed)
            printf("%s: %lu game%s\n", escaped(pf->path, buf, sizeof buf), pf->out.games,
                   pf->out.games == 1 ? "" : "s");
        else if (pf->out.games)
            lost += pf->out.games;
        free(pf->key);
        free(pf->path);
    }
    if (sp->failed && sp->failed_at)
        report(&c->sink, PMN_F003, 0, 0,
               "the split stopped at game %lu of those it takes: that game and those after "
               "it are in no file", sp->failed_at);
    if (sp->failed && lost)
        report(&c->sink, PMN_F003, 0, 0,
               "%lu game%s written to a file that failed %s in no file%s: it was removed, "
               "unfinished", lost, lost == 1 ? "" : "s", lost == 1 ? "is" : "are",
               sp->failed_at ? " either" : "");
    free(sp->files);
    names_free(&sp->keys);
    names_free(&sp->paths);
    return job_status(&c->sink, c->strict);
}

const struct command split_command = {
    "split", "cut archives into files by count or by a tag",
    "[OPTIONS] --games N | --by TAG [FILE...]",
    "Write the games of PMN files or XML archives (standard input if none, or -)\n"
    "into files of N games each, or a file for each value of a tag, a player or\n"
    "a rule set, and list the files written with their games on standard\n"
    "output.  Names are made safe (ASCII letters, digits, '.', '_', '-'; two\n"
    "values that make one name are numbered), and no file that exists is\n"
    "replaced unless --force.",
    options,
    "Exit status: 0, or as pmn check's for the problems of the games read;\n"
    "3 a file could not be made or written; 64 a wrong command line.",
    sizeof(struct split), CMD_PROGRESS, NULL, ready, run,
};
