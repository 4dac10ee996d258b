/* cli.c - helpers the subcommands share: command-line errors. */
#include "cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

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
    fprintf(stderr, "pmn %s: error: %s, column %zu: %s\n", cmd, option, err->column,
            err->message);
    fprintf(stderr, "  %s\n  %*s^\n", text, (int)(err->column ? err->column - 1 : 0), "");
    return EXIT_USAGE;
}

int apply_rules_option(const char *cmd, pmn_rules *r, const char *spec)
{
    pmn_error err;
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
