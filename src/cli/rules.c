/* rules.c - pmn rules: the rule sets pmn knows, and what a rule file says. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "records.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void list(void)
{
    const pmn_rule_file *f;
    const pmn_reading *g;
    for (size_t i = 0; (f = pmn_rule_file_builtin(i)) != NULL; i++)
        printf("%-12s %s\n", pmn_rule_file_rules(f)->name, pmn_rule_file_text(f, 0, "en"));
    printf("\nOther programs' readings, over any of them (--rules oware,NAME):\n");
    for (size_t i = 0; (g = pmn_rules_reading(i)) != NULL; i++)
        printf("%-12s %s: %s\n", g->name, g->title, g->options);
}

/* Columns count characters, not the bytes of UTF-8. */
static size_t width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

/* Text wrapped to 76 columns, lines after the first indented by `indent`;
 * the files break their lines anywhere. */
static void wrapped(const char *text, size_t len, size_t indent, size_t col)
{
    const char *s = text, *end = text + len;
    while (s < end) {
        while (s < end && isspace((unsigned char)*s))
            s++;
        size_t n = 0;
        while (s + n < end && !isspace((unsigned char)s[n]))
            n++;
        if (!n)
            break;
        size_t w = width(s, n);
        if (col > indent && col + 1 + w > 76) {
            printf("\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent || (col && !indent)) {
            putchar(' ');
            col++;
        }
        fwrite(s, 1, n, stdout);
        col += w;
        s += n;
    }
    if (col)
        putchar('\n');
}

/* A program's reading alone: what it changes, over whatever game. */
static void show_reading(const pmn_reading *g)
{
    printf("%s: %s\n\n", g->name, g->title);
    wrapped(g->description, strlen(g->description), 0, 0);
    printf("\nOptions:  %s, over each record's own rules (or a game's: "
           "--rules oware,%s)\n", g->options, g->name);
}

static void show(const pmn_rules *r, const pmn_rule_file *f, const char *lang)
{
    char buf[4096];
    const char *title = f ? pmn_rule_file_text(f, 0, lang) : NULL;
    const char *text = f ? pmn_rule_file_text(f, 1, lang) : NULL;
    printf("%s%s%s\n\n", r->name, title ? ": " : "", title ? title : "");
    if (text) {
        wrapped(text, strlen(text), 0, 0);
        putchar('\n');
    }
    pmn_rules_describe(r, buf, sizeof buf);
    for (const char *line = buf; *line;) {   /* "Board:    ..." lines */
        size_t n = strcspn(line, "\n"), label = n < 10 ? n : 10;
        fwrite(line, 1, label, stdout);
        wrapped(line + label, n - label, 10, label);
        line += n + (line[n] == '\n');
    }
    pmn_rules_format(r, buf, sizeof buf);
    printf("Spec:     %s\n", buf);
    if (f) {
        pmn_rule_file_languages(f, buf, sizeof buf);
        printf("Languages: %s\n", buf);
    }
}

static int show_named(const char *what, const char *lang)
{
    pmn_rules r;
    if (is_rule_file(what)) {
        pmn_rule_file *f;
        int rc = read_rule_file(what, &f);
        if (rc)
            return rc;
        show(pmn_rule_file_rules(f), f, lang);
        pmn_rule_file_free(f);
        return EXIT_CLEAN;
    }
    const pmn_reading *g = pmn_rules_reading_named(what, strlen(what));
    if (g) {
        show_reading(g);
        return EXIT_CLEAN;
    }
    pmn_rules_init(&r, NULL, NULL);
    int rc = apply_rules_option("rules", &r, what);
    if (rc)
        return rc;
    show(&r, pmn_rule_file_builtin_named(r.name, NULL), lang);
    return EXIT_CLEAN;
}

struct rules {
    const char *lang;
};

static const struct cli_option options[] = {
    { "lang", 'l', "LANG", "the language of title and description (default en)",
      STRING_AT(struct rules, lang), NULL, 0 },
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct rules *o = ctx;
    (void)c;
    o->lang = "en";
}

static int run(struct common *c, void *ctx)
{
    const char *lang = ((const struct rules *)ctx)->lang, *cmd = c->cmd->name;
    const char *what = c->nfiles ? c->files[0] : NULL;
    int nargs = c->nfiles;
    if (!what)
        return usage_error(cmd, "a subcommand is needed: list, show, xml, options or schema");
    if (strcmp(what, "list") == 0 && nargs == 1) {
        list();
    } else if (strcmp(what, "show") == 0 && nargs == 2) {
        return show_named(c->files[1], lang);
    } else if (strcmp(what, "xml") == 0 && nargs == 2) {
        size_t i;
        if (!pmn_rule_file_builtin_named(c->files[1], &i))
            return usage_error(cmd, "no built-in rule set '%s' ('pmn rules list')",
                               c->files[1]);
        fputs(pmn_rule_file_builtin_xml(i), stdout);
    } else if (strcmp(what, "options") == 0 && nargs == 1) {
        size_t n = pmn_rules_options_help(NULL, 0);
        char *help = malloc(n + 1);
        if (!help) {
            struct diag_sink sink = { .file = "pmn rules", .show_notes = 1 };
            report(&sink, PMN_F002, 0, 0, "out of memory");
            return EXIT_FATAL;
        }
        pmn_rules_options_help(help, n + 1);
        fputs(help, stdout);
        free(help);
    } else if (strcmp(what, "schema") == 0 && nargs == 1) {
        fputs(pmn_rules_schema(), stdout);
    } else if (strcmp(what, "list") && strcmp(what, "show") && strcmp(what, "xml")
               && strcmp(what, "options") && strcmp(what, "schema")) {
        return usage_error(cmd, "unknown subcommand '%s' (list, show, xml, options, schema)",
                           what);
    } else {
        return usage_error(cmd, "'%s' takes %s", what,
                           strcmp(what, "show") == 0 || strcmp(what, "xml") == 0
                           ? "one name" : "no argument");
    }
    return EXIT_CLEAN;   /* finish_stdout says whether it was written */
}

const struct command rules_command = {
    "rules", "list the rule sets, show one in words, read a rule file",
    "list\nshow [--lang=LANG] NAME|FILE\nxml NAME\noptions\nschema",
    "The rule sets pmn knows, and rule files of your own.\n\n"
    "  list     the built-in rule sets, with their titles, and other programs'\n"
    "           readings of them (openspiel, playstrategy, ludii, vying)\n"
    "  show     a rule set in words: its title, its description, its mechanisms\n"
    "           and its options; NAME may carry sizes and options, as --rules\n"
    "           takes them (kalah(6,3),capture=opposite-always); a FILE (a name\n"
    "           ending in .xml or holding a '/') is read and checked; a\n"
    "           program's reading (openspiel) says what it changes\n"
    "  xml      the rule file of a built-in set, to start a variant from\n"
    "  options  every rule option and its values\n"
    "  schema   the RELAX NG schema of rule files (grammar/rules.rng)",
    options, NULL, sizeof(struct rules), 0, init, NULL, run,
};
