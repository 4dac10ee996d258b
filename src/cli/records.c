/* records.c - what the record commands share: the --rules option and rule
 * files, positions given on the command line, and records read, set up and
 * replayed. */
#include "cli.h"
#include "io.h"
#include "records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int is_rule_file(const char *spec)
{
    size_t n = strlen(spec);
    return strchr(spec, '/') || (n > 4 && strcmp(spec + n - 4, ".xml") == 0);
}

int read_rule_file(const char *path, pmn_rule_file **out)
{
    struct diag_sink s = { .file = path, .show_notes = 1 };
    FILE *f = open_input(path, &s);
    *out = NULL;   /* the caller frees it, read or not */
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

int position_option(const char *cmd, const char *what, pmn_rules *r,
                    const char *text, pmn_position *p)
{
    pmn_error err;
    if (!text) {
        pmn_position_start(r, p);
        return 0;
    }
    if (pmn_position_parse_sized(r, text, p, &err) < 0)
        return usage_error_at(cmd, what, text, &err);
    return 0;
}

static int add_rules_spec(const char *cmd, struct rules_options *o, const char *spec);

int add_rules_option(const char *cmd, struct rules_options *o, const char *spec)
{
    pmn_rules scratch;
    int rc;
    /* Options over each record's own rules: checked here against every
     * built-in set, so that a typo is said at once and an option that fits
     * Oware but not Hawalis is not (the game set up says E405 if it
     * cannot take them). */
    for (size_t i = 0; !is_rule_file(spec) && pmn_rule_file_builtin(i); i++) {
        pmn_error err;
        scratch = *pmn_rule_file_rules(pmn_rule_file_builtin(i));
        if (pmn_rules_apply(&scratch, spec, &err) == 0)
            return add_rules_spec(cmd, o, spec);
    }
    pmn_rules_init(&scratch, NULL, NULL);
    if ((rc = apply_rules_option(cmd, &scratch, spec)) != 0)
        return rc;
    if (is_rule_file(spec)) {
        o->file = scratch;
        o->setup.rules = &o->file;
        return 0;
    }
    return add_rules_spec(cmd, o, spec);
}

static int add_rules_spec(const char *cmd, struct rules_options *o, const char *spec)
{
    if (o->setup.nspecs == MAX_RULES_OPTIONS)
        return usage_error(cmd, "more than %d --rules options", MAX_RULES_OPTIONS);
    o->spec[o->setup.nspecs++] = spec;
    o->setup.specs = o->spec;
    return 0;
}

const char *format_names(void)
{
    static char names[256];
    if (!names[0]) {
        size_t n = (size_t)snprintf(names, sizeof names, "pmn");
        for (int f = 0; f < PMN_FORMAT_COUNT && n < sizeof names; f++)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
                                  f + 1 == PMN_FORMAT_COUNT ? " or " : ", ",
                                  pmn_format_name((pmn_format)f));
    }
    return names;
}

const char *format_extensions(void)
{
    static char exts[128];
    if (!exts[0]) {
        size_t n = 0;
        for (int f = 0; f < PMN_FORMAT_COUNT && n < sizeof exts; f++)
            if (pmn_format_extension((pmn_format)f))
                n += (size_t)snprintf(exts + n, sizeof exts - n, "%s%s", n ? ", " : "",
                                      pmn_format_extension((pmn_format)f));
    }
    return exts;
}

int rules_over_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    (void)o;
    return add_rules_option(cmd, dest, arg);
}

int start_position_option(const char *cmd, const struct cli_option *o, const char *arg,
                          void *dest)
{
    struct rules_options *ro = dest;
    (void)o;
    if (!strchr(arg, '=')) {
        ro->setup.position = arg;
        return 0;
    }
    if (ro->setup.npositions >= MAX_RULES_OPTIONS)
        return usage_error(cmd, "at most %d --position EVENT=POSITION", MAX_RULES_OPTIONS);
    ro->positions[ro->setup.npositions++] = arg;
    ro->setup.positions = ro->positions;
    return 0;
}

int rules_set_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    (void)o;
    return apply_rules_option(cmd, dest, arg);
}

int names_foreign(char **names, int n)
{
    for (int i = 0; i < n; i++)
        if (pmn_source_format_of_name(names[i]) != PMN_SOURCE_AUTO)
            return 1;
    return 0;
}

pmn_source_options source_options(const struct diag_sink *s, const struct rules_options *o,
                                  int format)
{
    /* A part of a file (--jobs) is PMN: the file was looked at whole. */
    pmn_source_options so = { .format = format == FORMAT_AUTO && s->part ? FORMAT_PMN : format,
                              .name = s->file, .setup = o ? &o->setup : NULL,
                              .lines_before = s->lines_before };
    return so;
}

int source_open(struct source *src, FILE *f, struct diag_sink *s, const struct rules_options *o,
                int format)
{
    return source_open_to(src, f, s, o, format, print_diag, s);
}

/* The source of so, its failure said to s. */
static int open_source(struct source *src, FILE *f, struct diag_sink *s, pmn_source_options *so,
                       pmn_diag_fn fn, void *ctx)
{
    so->note = print_diag;   /* the input's note is the command's, not a game's */
    so->note_ctx = s;
    memset(src, 0, sizeof *src);
    if (!(src->src = pmn_source_new(f, so, fn, ctx))) {
        report(s, PMN_F002, 0, 0, "out of memory");
        return -1;
    }
    src->format = pmn_source_format(src->src);
    return 0;
}

int source_open_xml(struct source *src, FILE *f, struct diag_sink *s, int validate)
{
    pmn_source_options so = source_options(s, NULL, FORMAT_XML);
    so.validate = validate;
    return open_source(src, f, s, &so, print_diag, s);
}

int source_open_to(struct source *src, FILE *f, struct diag_sink *s,
                   const struct rules_options *o, int format, pmn_diag_fn fn, void *ctx)
{
    pmn_source_options so = source_options(s, o, format);
    return open_source(src, f, s, &so, fn, ctx);
}

int source_next(struct source *src, pmn_record *rec)
{
    return pmn_source_next(src->src, rec);
}

void source_close(struct source *src)
{
    pmn_source_free(src->src);
    src->src = NULL;
}

int check_score(pmn_record *rec, const pmn_replay *replay, struct diag_sink *s, int drop)
{
    return pmn_record_check_score(rec, replay, drop, print_diag, s);
}

pmn_replay *replay_record(const pmn_record *rec, const struct rules_options *o,
                          struct diag_sink *s)
{
    pmn_setup setup;
    pmn_diag_fn fn = s ? print_diag : NULL;
    pmn_setup_record(rec, o ? &o->setup : NULL, &setup, fn, s);
    return pmn_replay_new(rec, &setup, fn, s);
}
