/* options.c - the command line of every subcommand: options declared once
 * in a table (struct cli_option), from which getopt_long's arguments and the
 * --help text are both made; usage errors; option values. */
#include "cli.h"
#include "options.h"
#include "records.h"

#include <errno.h>
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

void cli_begin(struct cli_args *a, const struct command *cmd, int argc, char **argv)
{
    size_t n = count_options(cmd) + 1, k = 0;
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    a->optstring[k++] = ':';   /* missing arguments come back as ':' */
    for (size_t i = 0; i < n && i < CLI_MAX_OPTIONS; i++) {
        const struct cli_option *o = option_at(cmd, i);
        a->longopts[i].name = o->name;
        a->longopts[i].has_arg = o->arg ? required_argument : no_argument;
        a->longopts[i].val = o->key;
        if (o->key < 256 && k + 3 < sizeof a->optstring) {
            a->optstring[k++] = (char)o->key;
            if (o->arg)
                a->optstring[k++] = ':';
        }
    }
    a->optstring[k] = '\0';
    optind = 1;
    opterr = 0;
}

/* The edits (insert, delete, replace, swap two neighbours) from a to b,
 * up to 3. */
static int distance(const char *a, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    if (m > 40 || n > 40 || (m > n ? m - n : n - m) > 2)
        return 3;
    int d[41][41];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[m][n] < 3 ? d[m][n] : 3;
}

const char *did_you_mean(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    int best_d = strlen(word) > 3 ? 3 : 2;   /* short words: one edit */
    for (size_t i = 0; i < n; i++) {
        int d = distance(word, names[i]);
        if (strlen(word) >= 3 && strncmp(names[i], word, strlen(word)) == 0)
            d = 1;   /* the start of one */
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

int cli_next(struct cli_args *a)
{
    int c = getopt_long(a->argc, a->argv, a->optstring, a->longopts, NULL);
    a->arg = optarg;
    if (c == -1)
        return CLI_END;
    if (c == help_option.key) {
        cli_help(a->cmd, stdout);
        a->status = EXIT_CLEAN;
        return CLI_STOP;
    }
    if (c == '?' || c == ':') {
        const char *arg = a->argv[optind - 1];
        const char *what = c == ':' ? "needs an argument" : "is unknown";
        const char *names[CLI_MAX_OPTIONS + 1], *guess = NULL;
        size_t n = count_options(a->cmd) + 1;
        for (size_t i = 0; i < n && i < CLI_MAX_OPTIONS + 1; i++)
            names[i] = option_at(a->cmd, i)->name;
        if (c == '?' && arg[0] == '-' && arg[1] == '-') {
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
            guess = did_you_mean(word, names, n < CLI_MAX_OPTIONS + 1 ? n : CLI_MAX_OPTIONS + 1);
        }
        if (arg[0] == '-' && arg[1] != '-' && optopt)
            a->status = usage_error(a->cmd->name, "option -%c %s", optopt, what);
        else if (guess)
            a->status = usage_error(a->cmd->name, "option '%s' %s; did you mean '--%s'?", arg,
                                    what, guess);
        else
            a->status = usage_error(a->cmd->name, "option '%s' %s", arg, what);
        return CLI_STOP;
    }
    return c;
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

const char *escaped(const char *text, char *buf, size_t size)
{
    pmn_text_escape(text, buf, size);
    return buf;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
    char raw[1024], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    fprintf(stderr, "pmn %s: error: %s\nTry 'pmn %s --help'.\n", cmd,
            escaped(raw, msg, sizeof msg), cmd);
    return EXIT_USAGE;
}

int usage_error_at(const char *cmd, const char *option, const char *text,
                   const pmn_error *err)
{
    char safe[1024];
    escaped(text, safe, sizeof safe);
    if (!err->column) {   /* about the whole text, not a place in it */
        fprintf(stderr, "pmn %s: error: %s %s: %s\n", cmd, option, safe, err->message);
        return EXIT_USAGE;
    }
    fprintf(stderr, "pmn %s: error: %s, column %zu: %s\n", cmd, option, err->column,
            err->message);
    fprintf(stderr, "  %s\n  %*s^\n", safe, (int)(err->column - 1), "");
    return EXIT_USAGE;
}

int is_decimal(const char *s, double *v)
{
    char *end;
    if (!*s || !strchr("+-0123456789", *s))
        return 0;
    *v = strtod(s, &end);
    return *end == '\0';
}

void *grown(void *p, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? 2 * *cap : first;
    while (c <= n)
        c *= 2;
    void *q = realloc(p, c * size);
    if (q)
        *cap = c;
    return q;
}

int parse_number(const char *s, unsigned long max, unsigned long *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (*end || errno || n > max)
        return -1;
    *v = n;
    return 0;
}

int notation_option(const char *cmd, const char *name, pmn_write_options *o)
{
    if (pmn_notation_from_name(name, &o->notation) < 0)
        return usage_error(cmd, "unknown notation '%s' (letters, numbers, coordinates)", name);
    return 0;
}

int capture_style_option(const char *cmd, const char *style, pmn_write_options *o)
{
    if (strcmp(style, "plus") == 0 || strcmp(style, "+") == 0)
        o->capture_style = '+';
    else if (strcmp(style, "x") == 0)
        o->capture_style = 'x';
    else
        return usage_error(cmd, "unknown capture style '%s' (plus, x)", style);
    return 0;
}

unsigned default_threads(void)
{
    const char *env = getenv("PMN_THREADS");
    unsigned long v;
    if (env && *env && parse_number(env, 64, &v) == 0 && v > 0)
        return (unsigned)v;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > 64 ? 64 : (unsigned)cores;
}

int search_option(const char *cmd, int key, const char *arg, pmn_search_limits *l,
                  unsigned long *hash_mb)
{
    unsigned long v;
    char *end;
    double seconds;
    switch (key) {
    case 'd':
        if (parse_number(arg, 400, &v) < 0 || v == 0)
            return usage_error(cmd, "--depth takes a number of plies from 1 to 400, not '%s'",
                               arg);
        l->depth = (unsigned)v;
        return 0;
    case KEY_NODES:
        if (parse_number(arg, ULONG_MAX, &v) < 0 || v == 0)
            return usage_error(cmd, "--nodes takes a positive number, not '%s'", arg);
        l->nodes = v;
        return 0;
    case KEY_TIME:
        seconds = strtod(arg, &end);
        if (*end || end == arg || !(seconds > 0) || seconds > 1e7)
            return usage_error(cmd, "--time takes a number of seconds above 0, not '%s'", arg);
        l->seconds = seconds;
        return 0;
    case KEY_SOLVE:
        l->solve = 1;
        return 0;
    case KEY_DISTANCE:
        l->solve = l->distance = 1;
        return 0;
    case KEY_HASH:
        if (parse_number(arg, 65536, hash_mb) < 0 || *hash_mb == 0)
            return usage_error(cmd, "--hash takes megabytes from 1 to 65536, not '%s'", arg);
        return 0;
    case KEY_THREADS:
        if (parse_number(arg, 64, &v) < 0 || v == 0)
            return usage_error(cmd, "--threads takes a number from 1 to 64, not '%s'", arg);
        l->threads = (unsigned)v;
        return 0;
    default:
        return 1;
    }
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
    pmn_tablebase_close(*tb);
    return tablebase_option(cmd, dir, r, s, tb);
}

int tablebase_option(const char *cmd, const char *dir, const pmn_rules *r, pmn_searcher *s,
                     pmn_tablebase **tb)
{
    pmn_error err;
    char where[4096];
    *tb = NULL;
    if (!dir) {
        /* The default location serves when it holds databases of these
         * rules, and is passed over in silence when it does not. */
        if (pmn_tablebase_check_rules(r, NULL) != 0)
            return 0;
        if ((*tb = pmn_tablebase_open(r, default_tablebase_dir(where, sizeof where), NULL)))
            pmn_searcher_use_tablebase(s, *tb);
        return 0;
    }
    if (!(*tb = pmn_tablebase_open(r, dir, &err))) {
        fprintf(stderr, "pmn %s: error: --tablebase %s: %s\n", cmd, dir, err.message);
        return EXIT_FATAL;
    }
    pmn_searcher_use_tablebase(s, *tb);
    return 0;
}
