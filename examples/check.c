/* check.c - an example of libpmn: what pmn check says of records, from one
 * call a game (pmn_checker), as a site that takes uploads would say it.
 *
 * Reads files in any format pmn reads (standard input if none), and
 * prints what `pmn check FILE... 2>&1` prints: each problem as
 * FILE:LINE:COL: severity[CODE]: message, in file order, then the games,
 * moves and problems counted.  The exit status is pmn check's: 0 clean, 1
 * warnings, 2 errors, 3 a file could not be read.
 *
 * Build against an installed libpmn:
 *     cc -o check check.c $(pkg-config --cflags --libs pmn)
 */
#include <pmn.h>

#include <stdio.h>

struct totals {
    const char *file;
    unsigned long games, moves;
    unsigned count[PMN_FATAL + 1];
};

static void print_problem(struct totals *t, const pmn_diag *d)
{
    char code[8], file[1024];
    pmn_diag_code_name(d->code, code);
    pmn_text_escape(t->file, file, sizeof file);
    if (d->line && d->col)
        printf("%s:%llu:%llu: ", file, d->line, d->col);
    else if (d->line)
        printf("%s:%llu: ", file, d->line);
    else
        printf("%s: ", file);
    printf("%s[%s]: %s\n", pmn_severity_string(d->severity), code, d->message);
    t->count[d->severity]++;
}

/* What the input as a whole is said to be (N133), or a read error. */
static void input_problem(void *ctx, const pmn_diag *d)
{
    print_problem(ctx, d);
}

static void check(FILE *f, struct totals *t)
{
    /* The quick pass proves clean games without keeping their records. */
    pmn_check_options o = { .source = { .format = PMN_SOURCE_AUTO, .name = t->file },
                            .quick = 1 };
    pmn_checker *c = pmn_checker_new(f, &o, input_problem, t);
    pmn_checked_game g;
    while (c && pmn_checker_next(c, &g) > 0) {
        for (size_t i = 0; i < g.ndiags; i++)
            print_problem(t, &g.diags[i]);
        t->games++;
        t->moves += g.facts.moves;
        pmn_checked_game_free(&g);
    }
    pmn_checker_free(c);
}

static const char *plural(unsigned long n)
{
    return n == 1 ? "" : "s";
}

int main(int argc, char **argv)
{
    struct totals t = { .file = "<stdin>" };
    if (argc < 2)
        check(stdin, &t);
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        t.file = argv[i];
        if (!f) {
            perror(argv[i]);
            t.count[PMN_FATAL]++;
            continue;
        }
        check(f, &t);
        fclose(f);
    }
    printf("%lu game%s, %lu move%s: %u error%s, %u warning%s, %u note%s", t.games,
           plural(t.games), t.moves, plural(t.moves), t.count[PMN_ERROR],
           plural(t.count[PMN_ERROR]), t.count[PMN_WARNING], plural(t.count[PMN_WARNING]),
           t.count[PMN_NOTE], plural(t.count[PMN_NOTE]));
    if (t.count[PMN_FATAL])
        printf(", %u fatal", t.count[PMN_FATAL]);
    printf("\n");
    return t.count[PMN_FATAL] ? 3 : t.count[PMN_ERROR] ? 2 : t.count[PMN_WARNING] ? 1 : 0;
}
