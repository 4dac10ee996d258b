/* checker.c - pmn check as a library: each game of an input, in any format
 * (pmn_source), set up and replayed, its claimed score and (for problems)
 * its solution held to the engine, handed over with its record, replay,
 * facts, tags and diagnostics in file order, each problem once.  A
 * program that embeds libpmn gets from one call what pmn check says; the
 * command only prints.
 *
 * Diagnostics met while a game is read and checked are the game's: they
 * are collected, then ordered (pmn_diags_in_file_order).  Those of the
 * input as a whole -- N133 when it is opened, a read error at its end --
 * go straight to the caller's function. */
#include "pmn.h"

#include <stdlib.h>
#include <string.h>

struct pmn_checker {
    pmn_source *src;
    pmn_check_options o;
    pmn_diag_fn fn;           /* the input's own diagnostics */
    void *ctx;
    int collecting;           /* a game is being read and checked */
    pmn_diag *held;           /* its diagnostics, in the order met */
    size_t nheld, cap;
    unsigned long number;
    int tb_said;              /* the databases' failure (W136), said once */
};

static void collect(void *arg, const pmn_diag *d)
{
    pmn_checker *c = arg;
    if (c->collecting && c->nheld == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        pmn_diag *h = realloc(c->held, cap * sizeof *h);
        if (h) {
            c->held = h;
            c->cap = cap;
        }
    }
    if (c->collecting && c->nheld < c->cap)
        c->held[c->nheld++] = *d;
    else if (c->fn)
        c->fn(c->ctx, d);   /* not a game's, or no room: said at once */
}

pmn_checker *pmn_checker_new(FILE *f, const pmn_check_options *o, pmn_diag_fn fn, void *ctx)
{
    static const pmn_check_options none = { .source = { .format = PMN_SOURCE_AUTO } };
    pmn_checker *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->o = o ? *o : none;
    c->fn = fn;
    c->ctx = ctx;
    if (!(c->src = pmn_source_new(f, &c->o.source, collect, c))) {
        free(c);
        return NULL;
    }
    return c;
}

static void say(pmn_checker *c, pmn_diag_code code, pmn_at line, pmn_at col, const char *what)
{
    pmn_diag d;
    pmn_diag_make(&d, code, line, col, "%s", what);
    collect(c, &d);
}

/* --solve: a problem's solution against the engine, with tb, the
 * databases of its rules (or NULL). */
/* The positions --solve gives each position of a solution: a problem's
 * ending is proved in thousands to millions; some cyclic endings (Oware's
 * repetitions, whose values hang on the path) are not proved in billions,
 * and a check must end.  About 5 s each here. */
#define SOLVE_NODES 20000000

static void solve(pmn_checker *c, pmn_checked_game *g, const pmn_tablebase *tb)
{
    const pmn_rules *r = &pmn_replay_setup(g->replay)->rules;
    pmn_searcher *s = pmn_searcher_new(r, 64);
    if (s && tb)
        pmn_searcher_use_tablebase(s, tb);
    int rc = s ? pmn_problem_check(&g->rec, g->replay, s, SOLVE_NODES, collect, c)
               : PMN_ERR_NOMEM;
    if (rc < 0) {
        say(c, PMN_F002, g->rec.line, g->rec.col, "out of memory solving the problem");
    } else if (rc > 0) {
        const pmn_played *pl = &pmn_replay_main(g->replay)->moves[rc - 1];
        const pmn_move *m = &g->rec.main.moves[rc - 1];
        char msg[256];
        snprintf(msg, sizeof msg, "not solved (--solve) from %s's move %u (%s) on: the "
                 "solver did not prove the position before it in %u positions (the moves "
                 "before it are checked)", pmn_side_name(pl->mover), pl->number, m->text,
                 SOLVE_NODES);
        say(c, PMN_N224, m->line, m->col, msg);
    }
    pmn_searcher_free(s);
}

/* The most seeds in play that --solve takes on without databases that
 * hold the start: a problem's ending has a few dozen at most, and the
 * opening of a whole game (Kalah's 48, Hawalis's 64) would not end. */
#define SOLVE_MAX_SEEDS 32

/* --solve solves the games set up from a position, by a Position tag or
 * by the caller's (pmn check --position); each other game is noted, with
 * the reason it is not solved. */
static void solve_if_set_up(pmn_checker *c, pmn_checked_game *g, const pmn_setup *setup)
{
    const pmn_tag *t = pmn_record_find_tag(&g->rec, "Position");
    int tagged = t && strcmp(t->value, "?") != 0;
    int given = !tagged && setup->given;
    const char *why = NULL;
    char text[160];
    const pmn_rules *r = &setup->rules;
    pmn_error err;
    int margin;
    /* The databases of its rules under o.tablebases, opened once: whether
     * they hold the start, and the solve's. */
    int looked = (tagged || given) && setup->status == PMN_SETUP_READY && c->o.tablebases
              && pmn_tablebase_check_rules(r, NULL) == 0;
    pmn_tablebase *tb = looked ? pmn_tablebase_open(r, c->o.tablebases, &err) : NULL;
    unsigned seeds = pmn_position_seeds(r, &setup->start, PMN_SOUTH)
                   + pmn_position_seeds(r, &setup->start, PMN_NORTH);
    if (looked && !tb && err.code != PMN_ERR_UNKNOWN && !c->tb_said++) {
        /* There, and of no use (none there is no news): said once. */
        char msg[sizeof err.message + 64];
        snprintf(msg, sizeof msg, "the endgame databases are not used: %s", err.message);
        say(c, PMN_W136, g->rec.line, g->rec.col, msg);
    }
    if (t && !tagged && !given)
        why = "its start position is not given (--position gives it)";
    else if (!tagged && !given)
        why = "it starts from the opening, not from a set-up position";
    else if (setup->status != PMN_SETUP_READY)
        why = "its start could not be set up";
    else if (!pmn_replay_complete(g->replay))
        why = "its moves do not all replay";
    else if (seeds > SOLVE_MAX_SEEDS
             && !(tb && pmn_tablebase_probe(tb, &setup->start, &margin))) {
        snprintf(text, sizeof text, "%u seeds in play, more than it takes on (%u) without "
                 "endgame databases that hold them", seeds, SOLVE_MAX_SEEDS);
        why = text;
    }
    if (!why) {
        solve(c, g, tb);
    } else {
        char msg[256];
        snprintf(msg, sizeof msg, "not solved (--solve): %s", why);
        say(c, PMN_N224, g->rec.line, g->rec.col, msg);
    }
    pmn_tablebase_close(tb);
}

static void check_game(pmn_checker *c, pmn_checked_game *g)
{
    pmn_setup setup;
    if (c->o.running_totals)
        pmn_record_totals_to_counts(&g->rec, collect, c);
    pmn_setup_record(&g->rec, c->o.source.setup, &setup, collect, c);
    if (!(g->replay = pmn_replay_new(&g->rec, &setup, collect, c))) {
        say(c, PMN_F002, g->rec.line, g->rec.col, "out of memory replaying the game");
        return;
    }
    pmn_record_check_score(&g->rec, g->replay, 0, collect, c);
    const pmn_check_result *res = pmn_replay_result(g->replay);
    g->facts.moves = res->written;
    g->facts.ending = res->ending;
    g->facts.outcome = res->outcome;
    g->facts.captured[0] = res->captured[0];
    g->facts.captured[1] = res->captured[1];
    if (c->o.solve)
        solve_if_set_up(c, g, &setup);
}

/* The input's diagnostics met outside a game, said now. */
static int input_end(pmn_checker *c, int rc)
{
    c->collecting = 0;
    for (size_t i = 0; i < c->nheld; i++)
        if (c->fn)
            c->fn(c->ctx, &c->held[i]);
    c->nheld = 0;
    return rc;
}

/* The next game, its diagnostics collected: by the quick pass where quick
 * allows (2: proved, rec left empty), else read whole (1); 0 or -1 at the
 * end, the input's diagnostics said. */
static int read_game(pmn_checker *c, pmn_record *rec, pmn_game_facts *facts)
{
    pmn_reader *rd = c->o.quick ? pmn_source_pmn(c->src) : NULL;
    c->nheld = 0;
    c->collecting = 1;
    int rc = rd ? pmn_reader_next_checked(rd, rec, facts) : pmn_source_next(c->src, rec);
    return rc > 0 ? rc : input_end(c, rc);
}

int pmn_checker_next(pmn_checker *c, pmn_checked_game *g)
{
    memset(g, 0, sizeof *g);
    int rc = read_game(c, &g->rec, &g->facts);
    if (rc <= 0)
        return rc;
    g->number = ++c->number;
    if (rc == 2) {
        g->proved = 1;
        if (c->o.proved_tags
            && pmn_reader_game_tags(pmn_source_pmn(c->src), &g->tags, &g->ntags) < 0)
            say(c, PMN_F002, 0, 0, "out of memory reading the tags");
    } else {
        check_game(c, g);
        g->tags = g->rec.tags;
        g->ntags = g->rec.ntags;
    }
    c->collecting = 0;
    g->ndiags = pmn_diags_in_file_order(c->held, c->nheld);
    g->diags = c->held;
    for (size_t i = 0; i < g->ndiags; i++)
        g->count[g->diags[i].severity]++;
    return 1;
}

int pmn_checker_skip(pmn_checker *c)
{
    pmn_record rec;
    pmn_game_facts facts;
    /* The quick pass, where it may, passes over a clean game fastest. */
    int rc = read_game(c, &rec, &facts);
    if (rc <= 0)
        return rc;
    pmn_record_free(&rec);
    c->number++;
    c->collecting = 0;
    /* Its own problems go unsaid, but for fatal ones: the input's. */
    for (size_t i = 0; i < c->nheld; i++)
        if (c->held[i].severity == PMN_FATAL && c->fn)
            c->fn(c->ctx, &c->held[i]);
    c->nheld = 0;
    return 1;
}

pmn_source *pmn_checker_source(pmn_checker *c)
{
    return c->src;
}

void pmn_checked_game_free(pmn_checked_game *g)
{
    pmn_replay_free(g->replay);
    pmn_record_free(&g->rec);
    memset(g, 0, sizeof *g);
}

void pmn_checker_free(pmn_checker *c)
{
    if (!c)
        return;
    pmn_source_free(c->src);
    free(c->held);
    free(c);
}
