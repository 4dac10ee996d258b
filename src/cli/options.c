/* options.c - the command line of every subcommand: options declared once
 * in a table (struct cli_option), from which getopt_long's arguments, the
 * --help text and the parsing are all made (cli_parse stores each option
 * by its setter where it binds); the setters; usage errors. */
#include "cli.h"
#include "io.h"
#include "options.h"
#include "records.h"

#include <assert.h>
#include <stdint.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cli_option help_option = OPT_HELP;

/* The options of cmd, --help last. */
static size_t count_options(const struct command *cmd)
{
    size_t n = 0;
    while (cmd->options && cmd->options[n].name)
        n++;
    return n;
}

static const struct cli_option *option_at(const struct command *cmd, size_t i)
{
    return i < count_options(cmd) ? &cmd->options[i] : &help_option;
}

/* An unknown option, or one without its argument: the usage error, with
 * the long option it may be a slip for. */
static int bad_option(const struct command *cmd, char **argv, int got)
{
    const char *arg = argv[optind - 1];
    const char *what = got == ':' ? "needs an argument" : "is unknown";
    const char *names[CLI_MAX_OPTIONS + 1], *guess = NULL;
    size_t n = count_options(cmd) + 1;
    for (size_t i = 0; i < n; i++)
        names[i] = option_at(cmd, i)->name;
    if (got == '?' && arg[0] == '-' && arg[1] == '-') {
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
        guess = pmn_did_you_mean(word, names, n);
    }
    /* A short option: getopt names it in optopt; argv[optind - 1] is the
     * word before it while its cluster (-j1, -qz) is not read through. */
    if (!(arg[0] == '-' && arg[1] == '-') && optopt > 0 && optopt < 256)
        return usage_error(cmd->name, "option -%c %s", optopt, what);
    if (guess)
        return usage_error(cmd->name, "option '%s' %s; did you mean '--%s'?", arg, what, guess);
    return usage_error(cmd->name, "option '%s' %s", arg, what);
}

/* Where o's value goes: into common or the command's context. */
static void *destination(const struct cli_option *o, struct common *c, void *ctx)
{
    return (o->shared ? (char *)c : (char *)ctx) + o->offset;
}

int cli_parse(const struct command *cmd, struct common *c, void *ctx, int argc, char **argv,
              int *operands)
{
    size_t n = count_options(cmd) + 1, k = 0;
    struct option longopts[CLI_MAX_OPTIONS + 1];
    char optstring[2 * CLI_MAX_OPTIONS + 2];
    assert(n <= CLI_MAX_OPTIONS);
    memset(longopts, 0, sizeof longopts);
    optstring[k++] = ':';   /* missing arguments come back as ':' */
    for (size_t i = 0; i < n; i++) {
        const struct cli_option *o = option_at(cmd, i);
        /* getopt_long says a long option by its index, a short one by its
         * letter, and a key without one is never said: they cannot meet. */
        assert(o->key >= CLI_MAX_OPTIONS && o->key != '?' && o->key != ':');
        longopts[i].name = o->name;
        longopts[i].has_arg = o->arg ? required_argument : no_argument;
        longopts[i].val = (int)i;   /* the index: found again at once */
        if (o->key < 256) {
            optstring[k++] = (char)o->key;
            if (o->arg)
                optstring[k++] = ':';
        }
    }
    optstring[k] = '\0';
    optind = 1;
    opterr = 0;
    int got;
    while ((got = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
        const struct cli_option *o = NULL;
        if (got == '?' || got == ':')
            return bad_option(cmd, argv, got);
        if (got < CLI_MAX_OPTIONS)   /* a long option: its index (letters are above) */
            o = option_at(cmd, (size_t)got);
        for (size_t i = 0; !o && i < n; i++)
            if (option_at(cmd, i)->key == got)
                o = option_at(cmd, i);
        assert(o);
        if (!o->set) {   /* --help */
            cli_help(cmd, stdout);
            return CLI_DONE;
        }
        int rc = o->set(cmd->name, o, optarg, destination(o, c, ctx));
        if (rc)
            return rc;
    }
    *operands = optind;
    return 0;
}

/* "  -r, --rules=SPEC" */
static int option_label(const struct cli_option *o, char *buf, size_t size)
{
    char shortname[8] = "    ";
    if (o->key < 256)
        snprintf(shortname, sizeof shortname, "-%c, ", o->key);
    return snprintf(buf, size, "  %s--%s%s%s", shortname, o->name, o->arg ? "=" : "",
                    o->arg ? o->arg : "");
}

/* Text whose lines after the first are indented by `indent`; {formats}
 * and {extensions} are the lists the library's table of notations makes. */
static void indented(FILE *f, const char *text, int indent)
{
    static const struct { const char *name; const char *(*value)(void); } lists[] = {
        { "{formats}", format_names }, { "{extensions}", format_extensions },
    };
    for (const char *s = text; *s;) {
        size_t n = strcspn(s, "\n{");
        fprintf(f, "%.*s", (int)n, s);
        s += n;
        if (*s == '{') {
            size_t k = 0;
            while (k < sizeof lists / sizeof lists[0]
                   && strncmp(s, lists[k].name, strlen(lists[k].name)) != 0)
                k++;
            fputs(k < sizeof lists / sizeof lists[0] ? lists[k].value() : "{", f);
            s += k < sizeof lists / sizeof lists[0] ? strlen(lists[k].name) : 1;
            if (!*s)
                fputc('\n', f);
            continue;
        }
        fputc('\n', f);
        if (*s == '\n' && *++s)
            fprintf(f, "%*s", indent, "");
    }
}

#define HELP_COLUMN_MAX 26

void cli_help(const struct command *cmd, FILE *f)
{
    size_t n = count_options(cmd) + 1;
    int column = 0;
    char label[64];
    const char *form = cmd->usage;
    fprintf(f, "Usage: ");
    for (int first = 1; *form; first = 0) {
        size_t len = strcspn(form, "\n");
        fprintf(f, "%spmn %s%s%.*s\n", first ? "" : "       ", cmd->name, len ? " " : "",
                (int)len, form);
        form += len + (form[len] == '\n');
    }
    fprintf(f, "\n%s\n\nOptions:\n", cmd->about);
    for (size_t i = 0; i < n; i++) {
        int w = option_label(option_at(cmd, i), label, sizeof label) + 2;
        if (w > column && w <= HELP_COLUMN_MAX)
            column = w;
    }
    for (size_t i = 0; i < n; i++) {
        const struct cli_option *o = option_at(cmd, i);
        int w = option_label(o, label, sizeof label);
        fprintf(f, "%s%*s", label, w + 2 <= column ? column - w : 2, "");
        indented(f, o->help, column);
    }
    if (cmd->epilogue)
        fprintf(f, "\n%s\n", cmd->epilogue);
}

int is_decimal(const char *s, double *v)
{
    char *end;
    if (!*s || !strchr("+-0123456789", *s))
        return 0;
    *v = strtod(s, &end);
    return *end == '\0';
}

/* ---- setters ---------------------------------------------------------- */

int opt_flag(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    (void)cmd, (void)arg;
    *(int *)dest = o->value ? o->value : 1;
    return 0;
}

int opt_string(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    (void)cmd, (void)o;
    *(const char **)dest = arg;
    return 0;
}

int opt_choice(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    const char *const *names = o->data;
    char list[256] = "", what[64], buf[256];
    size_t n = 0;
    for (int i = 0; names[i]; i++) {
        if (strcmp(arg, names[i]) == 0) {
            *(int *)dest = i;
            return 0;
        }
        n += (size_t)snprintf(list + n, n < sizeof list ? sizeof list - n : 0, "%s%s",
                              i ? ", " : "", names[i]);
        if (n >= sizeof list)
            n = sizeof list - 1;
    }
    /* "--summary-format": "unknown summary format" */
    snprintf(what, sizeof what, "%s", o->name);
    for (char *p = what; *p; p++)
        if (*p == '-')
            *p = ' ';
    return usage_error(cmd, "unknown %s '%s' (%s)", what, escaped(arg, buf, sizeof buf), list);
}

/* arg as a number within o's bounds into *v, or the usage error; a whole
 * number (u not NULL) also into *u, exact where a double would round. */
static int number_within(const char *cmd, const struct cli_option *o, const char *arg, double *v,
                         unsigned long *u)
{
    const struct cli_bounds *b = o->data;
    char buf[256], range[96];
    int ok;
    assert(b);
    if (u) {
        ok = pmn_parse_uint(arg, ULONG_MAX, u) == 0;
        *v = ok ? (double)*u : 0;
    } else {
        ok = is_decimal(arg, v);
    }
    if (ok && (b->above ? *v > b->min : *v >= b->min) && *v <= b->max)
        return 0;
    int n = snprintf(range, sizeof range, "%s %.15g", b->above ? "above" : "from", b->min);
    if (b->max < CLI_NO_MAX)
        snprintf(range + n, sizeof range - (size_t)n, "%s %.15g",
                 b->above ? " and at most" : " to", b->max);
    return usage_error(cmd, "--%s takes %s %s, not '%s'", o->name, b->what, range,
                       escaped(arg, buf, sizeof buf));
}

int opt_uint(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    unsigned long u;
    double v;
    assert(((const struct cli_bounds *)o->data)->max <= UINT_MAX);
    int rc = number_within(cmd, o, arg, &v, &u);
    if (rc == 0)
        *(unsigned *)dest = (unsigned)u;
    return rc;
}

int opt_ulong(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    unsigned long u;
    double v;
    int rc = number_within(cmd, o, arg, &v, &u);
    if (rc == 0)
        *(unsigned long *)dest = u;
    return rc;
}

int opt_u64(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    unsigned long u;
    double v;
    int rc = number_within(cmd, o, arg, &v, &u);
    if (rc == 0)
        *(uint64_t *)dest = u;
    return rc;
}

int opt_double(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    return number_within(cmd, o, arg, dest, NULL);
}

int capture_style_option(const char *cmd, const struct cli_option *o, const char *arg,
                         void *dest)
{
    pmn_write_options *wo = dest;
    (void)o;
    if (strcmp(arg, "plus") == 0 || strcmp(arg, "+") == 0)
        wo->capture_style = '+';
    else if (strcmp(arg, "x") == 0)
        wo->capture_style = 'x';
    else
        return usage_error(cmd, "unknown capture style '%s' (plus, x)", arg);
    return 0;
}

int distance_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    pmn_search_limits *l = dest;
    (void)cmd, (void)o, (void)arg;
    l->solve = l->distance = 1;
    return 0;
}

const struct cli_bounds depth_bounds = { 1, 400, "a number of plies", 0 },
    nodes_bounds = { 1, CLI_NO_MAX, "a number", 0 },
    time_bounds = { 0, 1e7, "a number of seconds", 1 },
    hash_bounds = { 1, 65536, "megabytes", 0 },
    threads_bounds = { 1, 64, "a number", 0 };

unsigned default_threads(void)
{
    const char *env = getenv("PMN_THREADS");
    unsigned long v;
    if (env && *env && pmn_parse_uint(env, 64, &v) == 0 && v > 0)
        return (unsigned)v;
    static int said;
    if (env && *env && !said++) {
        /* Said once, as --threads would refuse it, and the cores taken. */
        char buf[64];
        fprintf(stderr, "pmn: warning: PMN_THREADS takes a number from 1 to 64, not '%s': "
                "the cores are used\n", escaped(env, buf, sizeof buf));
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > 64 ? 64 : (unsigned)cores;
}

const char *default_tablebase_dir(char *buf, size_t size)
{
    const char *env = getenv("PMN_TABLEBASES"), *data = getenv("XDG_DATA_HOME"),
               *home = getenv("HOME");
    if (env && *env)
        snprintf(buf, size, "%s", env);
    else if (data && *data)
        snprintf(buf, size, "%s/pmn/tablebases", data);
    else if (home && *home)
        snprintf(buf, size, "%s/.local/share/pmn/tablebases", home);
    else
        snprintf(buf, size, "pmn-tablebases");
    return buf;
}

int tablebase_for_game(const char *cmd, const char *dir, const pmn_rules *r, pmn_searcher *s,
                       pmn_tablebase **tb)
{
    if (*tb && pmn_searcher_use_tablebase(s, *tb) == 0)
        return 0;
    int rc = tablebase_close_checked(*tb);
    *tb = NULL;
    return rc ? rc : tablebase_option(cmd, dir, r, s, tb);
}

int tablebase_close_checked(pmn_tablebase *tb)
{
    pmn_error err;
    int rc = 0;
    /* The answers given did without the damaged values; the files are
     * still to be mended, and the run's status says so. */
    if (tb && pmn_tablebase_damaged(tb) && pmn_tablebase_verify(tb, &err) != 0)
        rc = tablebase_unusable("", &err);
    pmn_tablebase_close(tb);
    return rc;
}

int tablebase_unusable(const char *dir, const pmn_error *err)
{
    /* Named by the file the message begins with ("DIR/pmn-...-02.tb: a
     * checksum ..."), else by the folder. */
    char file[4096];
    const char *msg = err->message, *colon = strstr(msg, ": ");
    size_t n = colon ? (size_t)(colon - msg) : 0;
    if (n && n < sizeof file && strncmp(msg, dir, strlen(dir)) == 0) {
        memcpy(file, msg, n);
        file[n] = '\0';
        msg = colon + 2;
    } else {
        snprintf(file, sizeof file, "%s", dir);
    }
    struct diag_sink sink = { .file = file, .show_notes = 1 };
    report(&sink, PMN_F005, 0, 0, "%s", msg);
    return EXIT_FATAL;
}

int tablebase_option(const char *cmd, const char *dir, const pmn_rules *r, pmn_searcher *s,
                     pmn_tablebase **tb)
{
    pmn_error err;
    char where[4096];
    *tb = NULL;
    if (!dir) {
        /* The default location serves when it holds databases of these
         * rules, and is passed over in silence when it does not; where it
         * holds some that cannot be used, the search goes on without them
         * and says why. */
        if (pmn_tablebase_check_rules(r, NULL) != 0)
            return 0;
        if ((*tb = pmn_tablebase_open(r, default_tablebase_dir(where, sizeof where), &err))) {
            pmn_searcher_use_tablebase(s, *tb);
            io_watch_mapped(where);
        }
        else if (err.code != PMN_ERR_UNKNOWN) {
            struct diag_sink sink = { .file = where, .show_notes = 1 };
            report(&sink, PMN_W136, 0, 0, "the endgame databases are not used: %s", err.message);
        }
        return 0;
    }
    if (pmn_tablebase_check_rules(r, &err) != 0) {   /* no file of them is any use */
        fprintf(stderr, "pmn %s: error: --tablebase %s: %s\n", cmd, dir, err.message);
        return EXIT_FATAL;
    }
    if (!(*tb = pmn_tablebase_open(r, dir, &err)))
        return tablebase_unusable(dir, &err);
    pmn_searcher_use_tablebase(s, *tb);
    io_watch_mapped(dir);
    return 0;
}

/* --from and --to: the FORMAT_* of the name (records.h) into an int. */
int format_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    pmn_format f;
    int *format = dest;
    if (strcmp(arg, "pmn") == 0)
        *format = FORMAT_PMN;
    else if (pmn_format_from_name(arg, &f) == 0)
        *format = FORMAT_OGN + (int)f;
    else
        return usage_error(cmd, "--%s takes %s, not '%s'", o->name, format_names(), arg);
    return 0;
}
