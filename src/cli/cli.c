/* cli.c - helpers the subcommands share: command-line errors. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "pmn %s: error: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'pmn %s --help'.\n", cmd);
    return EXIT_USAGE;
}

int usage_error_at(const char *cmd, const char *option, const char *text,
                   const pmn_error *err)
{
    if (!err->column) {   /* about the whole text, not a place in it */
        fprintf(stderr, "pmn %s: error: %s %s: %s\n", cmd, option, text, err->message);
        return EXIT_USAGE;
    }
    fprintf(stderr, "pmn %s: error: %s, column %zu: %s\n", cmd, option, err->column,
            err->message);
    fprintf(stderr, "  %s\n  %*s^\n", text, (int)(err->column - 1), "");
    return EXIT_USAGE;
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

FILE *open_output(const char *name)
{
    FILE *f = name ? fopen(name, "w") : stdout;
    if (!f)
        perror(name);
    return f;
}

int close_output(FILE *f, const char *name, int failed, int status)
{
    if (fflush(f) != 0 || ferror(f))
        failed = 1;
    if (name && fclose(f) != 0)
        failed = 1;
    if (failed) {
        perror(name ? name : "standard output");
        return EXIT_FATAL;
    }
    return status;
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

int is_rule_file(const char *spec)
{
    size_t n = strlen(spec);
    return strchr(spec, '/') || (n > 4 && strcmp(spec + n - 4, ".xml") == 0);
}

int read_rule_file(const char *path, pmn_rule_file **out)
{
    struct diag_sink s = { path, { 0 }, 1 };
    FILE *f = open_input(path, &s);
    if (!f)
        return exit_status(&s);
    *out = pmn_rule_file_read(f, path, print_diag, &s);
    close_input(f);
    if (*out)
        return 0;
    return exit_status(&s) ? exit_status(&s) : EXIT_ERRORS;
}

int apply_rules_option(const char *cmd, pmn_rules *r, const char *spec)
{
    pmn_error err;
    if (is_rule_file(spec)) {
        pmn_rule_file *f;
        int rc = read_rule_file(spec, &f);
        if (rc == 0)
            *r = *pmn_rule_file_rules(f);
        pmn_rule_file_free(f);
        return rc;
    }
    if (pmn_rules_apply(r, spec, &err) < 0)
        return usage_error_at(cmd, "--rules", spec, &err);
    return 0;
}

int position_option(const char *cmd, const char *what, const pmn_rules *r,
                    const char *text, pmn_position *p)
{
    pmn_error err;
    if (!text) {
        pmn_position_start(r, p);
        return 0;
    }
    if (pmn_position_parse(r, text, p, &err) < 0)
        return usage_error_at(cmd, what, text, &err);
    return 0;
}

int bad_option(const char *cmd, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    const char *what = c == ':' ? "needs an argument" : "is unknown";
    if (arg[0] == '-' && arg[1] != '-' && optopt)
        return usage_error(cmd, "option -%c %s", optopt, what);
    return usage_error(cmd, "option '%s' %s", arg, what);
}

void print_diag(void *sink, const pmn_diag *d)
{
    struct diag_sink *s = sink;
    char code[8];
    s->count[d->severity]++;
    if (d->severity == PMN_NOTE && !s->show_notes)
        return;
    pmn_diag_code_name(d->code, code);
    if (d->line && d->col)
        fprintf(stderr, "%s:%u:%u: ", s->file, d->line, d->col);
    else if (d->line)
        fprintf(stderr, "%s:%u: ", s->file, d->line);
    else
        fprintf(stderr, "%s: ", s->file);
    fprintf(stderr, "%s[%s]: %s\n", pmn_severity_string(d->severity), code, d->message);
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

FILE *open_input(const char *name, struct diag_sink *s)
{
    if (strcmp(name, "-") == 0) {
        s->file = "<stdin>";
        return stdin;
    }
    s->file = name;
    FILE *f = fopen(name, "r");
    if (!f) {
        pmn_diag d;
        pmn_diag_make(&d, PMN_F001, 0, 0, "cannot open: %s", strerror(errno));
        print_diag(s, &d);
    }
    return f;
}

void close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
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
        FILE *f = open_input(names[i], s);
        if (f) {
            fn(f, s, ctx);
            close_input(f);
        }
    }
}

int add_rules_option(const char *cmd, struct rules_options *o, const char *spec)
{
    pmn_rules scratch;
    int rc;
    pmn_rules_init(&scratch, NULL, NULL);
    if ((rc = apply_rules_option(cmd, &scratch, spec)) != 0)
        return rc;
    if (is_rule_file(spec)) {
        o->file = scratch;
        o->setup.rules = &o->file;
        return 0;
    }
    if (o->setup.nspecs == MAX_RULES_OPTIONS)
        return usage_error(cmd, "more than %d --rules options", MAX_RULES_OPTIONS);
    o->spec[o->setup.nspecs++] = spec;
    o->setup.specs = o->spec;
    return 0;
}

static void out_of_memory(struct diag_sink *s)
{
    pmn_diag d;
    pmn_diag_make(&d, PMN_F002, 0, 0, "out of memory");
    print_diag(s, &d);
}

pmn_reader *open_reader(FILE *f, struct diag_sink *s, const struct rules_options *o)
{
    pmn_reader *rd = pmn_reader_new(f, print_diag, s);
    if (!rd)
        out_of_memory(s);
    else if (o)
        pmn_reader_set_setup(rd, &o->setup);
    return rd;
}

pmn_replay *replay_record(const pmn_record *rec, const struct rules_options *o,
                          struct diag_sink *s)
{
    pmn_setup setup;
    pmn_diag_fn fn = s ? print_diag : NULL;
    pmn_setup_record(rec, o ? &o->setup : NULL, &setup, fn, s);
    return pmn_replay_new(rec, &setup, fn, s);
}
