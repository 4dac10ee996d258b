/* records.c - what the record commands share: the --rules option and rule
 * files, positions given on the command line, and records read, set up and
 * replayed. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int is_rule_file(const char *spec)
{
    size_t n = strlen(spec);
    return strchr(spec, '/') || (n > 4 && strcmp(spec + n - 4, ".xml") == 0);
}

int read_rule_file(const char *path, pmn_rule_file **out)
{
    struct diag_sink s = { .file = path, .show_notes = 1 };
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

pmn_reader *open_reader(FILE *f, struct diag_sink *s, const struct rules_options *o)
{
    pmn_reader *rd = pmn_reader_new(f, print_diag, s);
    if (!rd)
        report(s, PMN_F002, 0, 0, "out of memory");
    else if (o)
        pmn_reader_set_setup(rd, &o->setup);
    if (rd && s->lines_before)
        pmn_reader_set_lines_before(rd, s->lines_before);
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
