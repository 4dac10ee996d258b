/* stats.c - pmn stats: what an archive holds, and who did what in it --
 * totals, players, crosstables, matches, Elo ratings, an opening tree.
 *
 * Each game read leaves a row (its tags, result, length, ending, captures,
 * first plies); the reports are tables made from the rows at the end, so
 * that ratings can take the games in date order and crosstables can rank
 * players by their final scores.  Memory: a row per game. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "progress.h"
#include "jobs.h"
#include "records.h"
#include "archive.h"
#include "criteria.h"
#include "lookup.h"
#include "names.h"
#include "table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How a game ended, as the reports count it: the board's endings, then
 * games the board did not end. */
enum { END_RESIGNED = 6, END_UNFINISHED, END_NOT_REPLAYED, NENDINGS };
static const char *const ending_names[NENDINGS] = {
    "no seeds left", "no legal move", "endless move", "repetition",
    "more than half captured", "last seeds", "resigned or adjudicated", "unfinished",
    "not replayed to its end",
};

struct row {
    const char *event, *match, *date, *south, *north, *rules, *opening;   /* in arenas */
    unsigned south_hash, north_hash;   /* of the names (name_hash), made by the jobs */
    pmn_outcome result;       /* as written; PMN_ONGOING: none, or '*' */
    unsigned ending;          /* of ending_names */
    unsigned moves;
    uint32_t captured[2];
};

enum { R_SUMMARY = 1, R_PLAYERS = 2, R_CROSSTABLE = 4, R_MATCHES = 8, R_RATINGS = 16,
       R_OPENINGS = 32 };
static const char *const report_names[] = { "summary", "players", "crosstable", "matches",
                                            "ratings", "openings", NULL };

/* The rows' strings, in blocks that live as long as the rows: no malloc
 * a string, and a part's blocks move with its rows (--jobs). */
struct arena {
    struct arena *next;
    size_t used, size;
    char text[];
};

struct stats {
    struct archive a;         /* first: archive_file is given the context */
    const char *index;        /* --index DB: its games, not files' */
    struct arena *arena;
    const struct criteria *c;
    unsigned reports;
    unsigned depth;           /* plies of the opening tree */
    unsigned min_games;       /* of a line of the opening tree */
    double k, start;          /* Elo */
    int all_results;          /* crosstable: each game's result, however many */
    int format;               /* TABLE_* */
    struct row *rows;
    size_t n, cap;
    int failed;               /* out of memory */
};

static const char *copy(struct stats *st, const char *s)
{
    size_t n = strlen(s ? s : "?") + 1;
    struct arena *a = st->arena;
    if (!a || a->used + n > a->size) {
        size_t size = n > 65536 ? n : 65536;
        if (!(a = malloc(sizeof *a + size))) {
            st->failed = 1;
            return "?";
        }
        a->next = st->arena;
        a->used = 0;
        a->size = size;
        st->arena = a;
    }
    char *c = a->text + a->used;
    memcpy(c, s ? s : "?", n);
    a->used += n;
    return c;
}

/* Dates in the order of their text (strcmp) on their first 8 bytes, as one
 * number. */
static uint64_t date_key(const char *d)
{
    uint64_t k = 0;
    for (int i = 0; i < 8; i++)
        k = k << 8 | (unsigned char)(*d ? *d++ : 0);
    return k;
}

static void free_arenas(struct arena *a)
{
    while (a) {
        struct arena *next = a->next;
        free(a);
        a = next;
    }
}

static pmn_outcome written(const struct game *g)
{
    pmn_outcome o;
    const char *r = game_result(g);
    return r && pmn_outcome_parse(r, &o) == 0 ? o : PMN_ONGOING;
}

static unsigned ending_of(const struct game *g)
{
    static const pmn_ending order[] = { PMN_END_NO_SEEDS, PMN_END_NO_MOVE, PMN_END_ENDLESS,
                                        PMN_END_REPETITION, PMN_END_MAJORITY,
                                        PMN_END_LAST_SEEDS };
    if (g->state == GAME_ENDED) {
        for (unsigned k = 0; k < 6; k++)
            if (order[k] == g->facts.ending)
                return k;
    }
    if (g->state != GAME_NOT_OVER && g->state != GAME_ENDED)
        return END_NOT_REPLAYED;
    return written(g) != PMN_ONGOING ? END_RESIGNED : END_UNFINISHED;
}

/* The first `depth` plies of the main line, in letters: "a B c". */
static const char *opening_of(struct stats *st, const struct game *g, unsigned depth)
{
    char buf[256] = "";
    size_t n = 0;
    const pmn_played_line *line = pmn_replay_main(g->replay);
    const pmn_rules *r = &pmn_replay_setup(g->replay)->rules;
    for (size_t i = 0; i < line->nmoves && i < depth && n + 8 < sizeof buf; i++) {
        char name[8];
        pmn_hole_name(r, PMN_NOTATION_LETTERS, line->moves[i].side, g->rec->main.moves[i].hole,
                      name, sizeof name);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? " " : "", name);
    }
    return copy(st, buf);
}

static int each_game(struct archive *a, struct game *g)
{
    struct stats *st = (struct stats *)a;
    if (!criteria_match(st->c, g))
        return 0;
    struct row *rows = grown(st->rows, &st->cap, st->n, sizeof *rows, 1024);
    if (!rows)
        return st->failed = 1, -1;
    st->rows = rows;
    struct row *r = &st->rows[st->n++];
    memset(r, 0, sizeof *r);
    const char *match = st->a.no_tags ? NULL : game_tag(g, "Match");
    /* One rule set, most often: its name is kept once. */
    r->rules = st->n > 1 && strcmp(r[-1].rules, g->rules) == 0 ? r[-1].rules
             : copy(st, g->rules);
    r->event = r->date = r->south = r->north = "?";
    if (!st->a.no_tags) {
        r->event = copy(st, game_tag(g, "Event"));
        r->match = match ? copy(st, match) : NULL;
        r->date = copy(st, game_tag(g, "Date"));
        r->south = copy(st, game_tag(g, "South"));
        r->north = copy(st, game_tag(g, "North"));
    }
    r->south_hash = name_hash(r->south);
    r->north_hash = name_hash(r->north);
    r->opening = st->reports & R_OPENINGS ? opening_of(st, g, st->depth) : NULL;
    r->result = written(g);
    r->ending = ending_of(g);
    r->moves = g->facts.moves;
    memcpy(r->captured, g->facts.captured, sizeof r->captured);
    return st->failed ? -1 : 0;
}

/* --jobs: a part's rows, after the parts before it. */
static void *clone_stats(const void *ctx, FILE *out)
{
    (void)out;
    struct stats *st = malloc(sizeof *st);
    if (st) {
        *st = *(const struct stats *)ctx;
        st->rows = NULL;
        st->arena = NULL;
        st->n = st->cap = 0;
        st->failed = 0;
    }
    return st;
}

static void merge_stats(void *ctx, const void *part, const char *out, size_t len)
{
    struct stats *st = ctx;
    struct stats *p = (struct stats *)part;   /* its rows move here */
    (void)out, (void)len;
    /* The part's strings join ours. */
    struct arena **tail = &p->arena;
    while (*tail)
        tail = &(*tail)->next;
    *tail = st->arena;
    st->arena = p->arena;
    p->arena = NULL;
    struct row *r = p->n ? grown(st->rows, &st->cap, st->n + p->n - 1, sizeof *r, 1024) : NULL;
    if (p->n && !r) {
        st->failed = 1;
        free(p->rows);
        p->rows = NULL;
        return;
    }
    if (p->n) {
        st->rows = r;
        memcpy(st->rows + st->n, p->rows, p->n * sizeof *p->rows);
    }
    st->n += p->n;
    st->failed |= p->failed;
    free(p->rows);
    p->rows = NULL;
}

static unsigned long rows_of(const void *part)
{
    return ((const struct stats *)part)->n;
}

static const struct job_command stats_job = { archive_file, clone_stats, merge_stats, rows_of };

/* A player of a game who counts: named, not "?". */
static int known(const char *name)
{
    return name[0] && strcmp(name, "?") != 0;
}

/* A pair of named players, who count in the reports on players. */
static int pair(const struct row *r)
{
    return known(r->south) && known(r->north) && strcmp(r->south, r->north) != 0;
}

/* South's points for a result: 1, 1/2 or 0, as halves; -1 not played out. */
static int south_halves(pmn_outcome o)
{
    return o == PMN_SOUTH_WINS ? 2 : o == PMN_DRAWN ? 1 : o == PMN_NORTH_WINS ? 0 : -1;
}

/* A score in halves (or a tie-break in quarters), without trailing zeros. */
static const char *points(double p, char *buf, size_t size)
{
    snprintf(buf, size, "%.2f", p);
    char *e = buf + strlen(buf);
    while (e[-1] == '0')
        *--e = '\0';
    if (e[-1] == '.')
        e[-1] = '\0';
    return buf;
}

static const char *percent(double part, double whole, char *buf, size_t size)
{
    if (whole <= 0)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.1f", 100 * part / whole);
    return buf;
}

/* ---- summary -------------------------------------------------------------- */

static int summary(const struct stats *st, FILE *f, int format)
{
    static const char *const head[] = { "rules", "games", "moves", "mean", "shortest",
                                         "longest", "1-0", "0-1", "1/2-1/2", "unfinished",
                                         "captured S", "captured N", NULL };
    static const char *const ehead[] = { "ending", "games", "%", NULL };
    struct table t, e;
    struct names rules = { 0 };
    table_init(&t, "summary", head, 0xFFE);
    table_init(&e, "endings", ehead, 6);
    /* A line per rule set, then all (when there are several). */
    for (size_t i = 0; i < st->n; i++)
        if (name_id(&rules, st->rows[i].rules) < 0)
            t.failed = 1;
    size_t lines = rules.n > 1 ? rules.n + 1 : rules.n;
    for (size_t k = 0; k < lines && !t.failed; k++) {
        unsigned long games = 0, moves = 0, res[4] = { 0 }, cap[2] = { 0 };
        unsigned lo = 0, hi = 0;
        for (size_t i = 0; i < st->n; i++) {
            const struct row *r = &st->rows[i];
            if (k < rules.n && strcmp(r->rules, rules.name[k]) != 0)
                continue;
            if (!games || r->moves < lo)
                lo = r->moves;
            if (r->moves > hi)
                hi = r->moves;
            games++;
            moves += r->moves;
            res[r->result]++;
            cap[0] += r->captured[0];
            cap[1] += r->captured[1];
        }
        table_cell(&t, "%s", k < rules.n ? rules.name[k] : "all");
        table_cell(&t, "%lu", games);
        table_cell(&t, "%lu", moves);
        table_cell(&t, "%.1f", games ? (double)moves / (double)games : 0.0);
        table_cell(&t, "%u", lo);
        table_cell(&t, "%u", hi);
        table_cell(&t, "%lu", res[PMN_SOUTH_WINS]);
        table_cell(&t, "%lu", res[PMN_NORTH_WINS]);
        table_cell(&t, "%lu", res[PMN_DRAWN]);
        table_cell(&t, "%lu", res[PMN_ONGOING]);
        table_cell(&t, "%.1f", games ? (double)cap[0] / (double)games : 0.0);
        table_cell(&t, "%.1f", games ? (double)cap[1] / (double)games : 0.0);
    }
    for (unsigned k = 0; k < NENDINGS; k++) {
        unsigned long n = 0;
        char buf[32];
        for (size_t i = 0; i < st->n; i++)
            n += st->rows[i].ending == k;
        if (!n)
            continue;
        table_cell(&e, "%s", ending_names[k]);
        table_cell(&e, "%lu", n);
        table_cell(&e, "%s", percent((double)n, (double)st->n, buf, sizeof buf));
    }
    int failed = t.failed || e.failed;
    if (!failed) {
        table_write(f, &t, format, "Games (results as written; captured: mean seeds a game)");
        if (format != TABLE_JSONL)
            fputc('\n', f);
        table_write(f, &e, format, "How the games ended");
    }
    table_free(&t);
    table_free(&e);
    names_free(&rules);
    return failed ? -1 : 0;
}

/* ---- players and ratings ---------------------------------------------------- */

struct player {
    unsigned long games, wins, draws, losses, unfinished;
    double rating, peak, opp_rating;   /* opp_rating: summed, over games played out */
    unsigned long rated;      /* games played out */
};

/* A game as the ratings take it, small enough that the games sort and are
 * walked in date order without touching the rows again. */
struct rated_game {
    uint64_t when[2];         /* the date's first 16 bytes (date_key) */
    size_t row;               /* the order read, the last tie-break */
    long south, north;        /* player numbers */
    int halves;               /* south_halves of the result */
};

/* Games in date order (the Date tag as written, strcmp's order; '?' comes
 * after digits, so that a date known only to the year comes after that
 * year's known dates), games of one date in the order read. */
static const struct row *by_date_rows;
static int by_date(const void *a, const void *b)
{
    const struct rated_game *x = a, *y = b;
    for (int k = 0; k < 2; k++)
        if (x->when[k] != y->when[k])
            return x->when[k] < y->when[k] ? -1 : 1;
    /* 16 bytes alike: the rest of the dates, where there is any */
    const char *dx = by_date_rows[x->row].date, *dy = by_date_rows[y->row].date;
    int c = (x->when[1] & 0xFF) && (y->when[1] & 0xFF) ? strcmp(dx, dy) : 0;
    return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* The players of the rows, their counts and their Elo ratings after the
 * games in date order.  Returns the number of players, or -1. */
static long rate(const struct stats *st, struct names *names, struct player **out)
{
    struct rated_game *g = malloc((st->n ? st->n : 1) * sizeof *g);
    struct player *p = NULL;
    size_t n = 0;
    if (!g)
        return -1;
    for (size_t i = 0; i < st->n; i++) {
        const struct row *r = &st->rows[i];
        if (!pair(r))
            continue;
        g[n].row = i;
        g[n].when[0] = date_key(r->date);
        g[n].when[1] = strlen(r->date) > 8 ? date_key(r->date + 8) : 0;
        g[n].south = name_id_hashed(names, r->south, r->south_hash);
        g[n].north = name_id_hashed(names, r->north, r->north_hash);
        g[n].halves = south_halves(r->result);
        if (g[n].south < 0 || g[n].north < 0)
            goto nomem;
        n++;
    }
    if (!(p = calloc(names->n + 1, sizeof *p)))
        goto nomem;
    for (size_t i = 0; i < names->n; i++)
        p[i].rating = p[i].peak = st->start;
    by_date_rows = st->rows;
    size_t sorted = 1;
    while (sorted < n && by_date(&g[sorted - 1], &g[sorted]) < 0)
        sorted++;
    if (sorted < n)   /* an archive in date order needs no sort */
        qsort(g, n, sizeof *g, by_date);
    for (size_t k = 0; k < n; k++) {
        struct player *ps = &p[g[k].south], *pn = &p[g[k].north];
        int h = g[k].halves;
        ps->games++;
        pn->games++;
        if (h < 0) {
            ps->unfinished++;
            pn->unfinished++;
            continue;
        }
        ps->wins += h == 2, ps->draws += h == 1, ps->losses += h == 0;
        pn->wins += h == 0, pn->draws += h == 1, pn->losses += h == 2;
        ps->opp_rating += pn->rating;
        pn->opp_rating += ps->rating;
        ps->rated++, pn->rated++;
        double expect = 1 / (1 + pow(10, (pn->rating - ps->rating) / 400));
        double delta = st->k * (h / 2.0 - expect);
        ps->rating += delta;
        pn->rating -= delta;
        if (ps->rating > ps->peak)
            ps->peak = ps->rating;
        if (pn->rating > pn->peak)
            pn->peak = pn->rating;
    }
    free(g);
    *out = p;
    return (long)names->n;
nomem:
    free(g);
    free(p);
    return -1;
}

static const struct player *sort_players;
static const struct names *sort_names;
static int by_score(const void *a, const void *b)
{
    const struct player *x = &sort_players[*(const size_t *)a];
    const struct player *y = &sort_players[*(const size_t *)b];
    double sx = x->wins + x->draws / 2.0, sy = y->wins + y->draws / 2.0;
    if (sx != sy)
        return sx < sy ? 1 : -1;
    if (x->rated != y->rated)   /* the same score in fewer games first */
        return x->rated < y->rated ? -1 : 1;
    return strcmp(sort_names->name[*(const size_t *)a], sort_names->name[*(const size_t *)b]);
}

static int by_rating(const void *a, const void *b)
{
    const struct player *x = &sort_players[*(const size_t *)a];
    const struct player *y = &sort_players[*(const size_t *)b];
    if (x->rating != y->rating)
        return x->rating < y->rating ? 1 : -1;
    return strcmp(sort_names->name[*(const size_t *)a], sort_names->name[*(const size_t *)b]);
}

static int players(const struct stats *st, FILE *f, int format, int ratings)
{
    static const char *const phead[] = { "#", "player", "games", "won", "drawn", "lost",
                                         "unfinished", "score", "%", "performance", NULL };
    static const char *const rhead[] = { "#", "player", "rating", "change", "peak", "games",
                                         "score", NULL };
    struct names names = { 0 };
    struct player *p = NULL;
    long n = rate(st, &names, &p);
    struct table t;
    table_init(&t, ratings ? "ratings" : "players", ratings ? rhead : phead,
               ratings ? 0x7D : 0x3FD);
    size_t *order = n >= 0 ? malloc(((size_t)n + 1) * sizeof *order) : NULL;
    if (!order)
        t.failed = 1;
    for (long i = 0; order && i < n; i++)
        order[i] = (size_t)i;
    sort_players = p;
    sort_names = &names;
    if (order && n > 1)
        qsort(order, (size_t)n, sizeof *order, ratings ? by_rating : by_score);
    for (long k = 0; order && k < n; k++) {
        const struct player *q = &p[order[k]];
        double score = q->wins + q->draws / 2.0;
        char a[32], b[32];
        table_cell(&t, "%ld", k + 1);
        table_cell(&t, "%s", names.name[order[k]]);
        if (ratings) {
            table_cell(&t, "%.0f", q->rating);
            table_cell(&t, "%+.0f", q->rating - st->start);
            table_cell(&t, "%.0f", q->peak);
            table_cell(&t, "%lu", q->rated);
            table_cell(&t, "%s", points(score, a, sizeof a));
            continue;
        }
        table_cell(&t, "%lu", q->games);
        table_cell(&t, "%lu", q->wins);
        table_cell(&t, "%lu", q->draws);
        table_cell(&t, "%lu", q->losses);
        table_cell(&t, "%lu", q->unfinished);
        table_cell(&t, "%s", points(score, a, sizeof a));
        table_cell(&t, "%s", percent(score, (double)q->rated, b, sizeof b));
        /* Linear performance: the opponents' mean rating (before each game)
         * and 400 points for each win more than losses, a game. */
        if (q->rated)
            table_cell(&t, "%.0f", q->opp_rating / (double)q->rated
                       + 400.0 * ((double)q->wins - (double)q->losses) / (double)q->rated);
        else
            table_cell(&t, "-");
    }
    int failed = t.failed;
    if (!failed) {
        char title[160];
        if (ratings)
            snprintf(title, sizeof title, "Elo ratings (games in date order; start %.0f, K %g)",
                     st->start, st->k);
        table_write(f, &t, format, ratings ? title
                    : "Players (score: a win 1, a draw 1/2; %: of games played out)");
    }
    table_free(&t);
    free(order);
    free(p);
    names_free(&names);
    return failed ? -1 : 0;
}

static int players_table(const struct stats *st, FILE *f, int format)
{
    return players(st, f, format, 0);
}

static int ratings_table(const struct stats *st, FILE *f, int format)
{
    return players(st, f, format, 1);
}

static int ruled_out(struct archive *a, const struct game *g)
{
    return criteria_rule_out(((struct stats *)a)->c, g);
}

/* Rows grouped by id (id[i] < 0: in no group): group k's rows are
 * idx[start[k]..start[k + 1]), in the order read.  Returns 0 or -1. */
struct groups {
    size_t *idx, *start;
};

static int group_rows(size_t nrows, const long *id, size_t ngroups, struct groups *gr)
{
    gr->idx = malloc((nrows + 1) * sizeof *gr->idx);
    gr->start = calloc(ngroups + 2, sizeof *gr->start);
    if (!gr->idx || !gr->start)
        return -1;
    for (size_t i = 0; i < nrows; i++)
        if (id[i] >= 0)
            gr->start[id[i] + 2]++;
    for (size_t k = 2; k < ngroups + 2; k++)
        gr->start[k] += gr->start[k - 1];
    /* start[k + 1] is now where group k begins: fill, moving it on */
    for (size_t i = 0; i < nrows; i++)
        if (id[i] >= 0)
            gr->idx[gr->start[id[i] + 1]++] = i;
    return 0;
}

static void groups_free(struct groups *gr)
{
    free(gr->idx);
    free(gr->start);
}

/* ---- crosstables ---------------------------------------------------------- */

/* A crosstable's size: past so many players an event's table (a cell for
 * every pair) is left out, said on standard error; past so many games
 * between one pair, its cells give scores rather than each result (a club
 * event where a pair met 20 times made cells 20 columns wide). */
#define CROSSTABLE_MAX_PLAYERS 1000
#define CROSSTABLE_MAX_RESULTS 4

/* Turn a cell of results ("1=0") into the score of its games ("1.5/3"). */
static char *cell_score(char *c)
{
    size_t g = strlen(c);
    double won = 0;
    for (size_t i = 0; i < g; i++)
        won += c[i] == '1' ? 1 : c[i] == '=' ? 0.5 : 0;
    char pts[32], *out = malloc(48);
    if (out)
        snprintf(out, 48, "%s/%zu", points(won, pts, sizeof pts), g);
    free(c);
    return out;
}

/* One event: its players by score, Sonneborn-Berger tie-break (the scores
 * of the opponents a player beat, and half of those drawn with), then
 * name; a cell per opponent with the results against him in the order
 * played: 1 a win, = a draw, 0 a loss (or, where a pair met more than
 * CROSSTABLE_MAX_RESULTS times, the score of each pair's games). */
static int crosstable(const struct stats *st, const size_t *rows, size_t nrows,
                      const char *event, FILE *f, int format, unsigned maxp, int *first)
{
    struct names names = { 0 };
    int failed = 0;
    for (size_t k = 0; k < nrows; k++) {
        const struct row *r = &st->rows[rows[k]];
        if (pair(r) && (name_id(&names, r->south) < 0 || name_id(&names, r->north) < 0))
            failed = 1;
    }
    size_t n = names.n;
    if (!failed && n > CROSSTABLE_MAX_PLAYERS) {
        char buf[256];
        fprintf(stderr, "pmn stats: the crosstable of %s is left out: %zu players, more than "
                "%d (--report players lists them)\n", escaped(event, buf, sizeof buf), n,
                CROSSTABLE_MAX_PLAYERS);
        names_free(&names);
        return 0;
    }
    double *score = calloc(n + 1, sizeof *score), *sb = calloc(n + 1, sizeof *sb);
    unsigned *games = calloc(n + 1, sizeof *games);
    char **cell = calloc(n * n + 1, sizeof *cell);
    size_t *order = calloc(n + 1, sizeof *order);
    if (failed || !score || !sb || !games || !cell || !order)
        failed = 1;
    for (size_t pass = 0; pass < 2 && !failed; pass++) {
        for (size_t k = 0; k < nrows; k++) {
            const struct row *r = &st->rows[rows[k]];
            int h = south_halves(r->result);
            if (!pair(r) || h < 0)
                continue;
            size_t s = (size_t)name_id(&names, r->south), m = (size_t)name_id(&names, r->north);
            if (pass == 0) {
                score[s] += h / 2.0;
                score[m] += (2 - h) / 2.0;
                games[s]++, games[m]++;
                for (int side = 0; side < 2; side++) {
                    size_t me = side ? m : s, them = side ? s : m;
                    char **c = &cell[me * n + them];
                    size_t len = *c ? strlen(*c) : 0;
                    char *grown = realloc(*c, len + 2);
                    if (!grown) {
                        failed = 1;
                        break;
                    }
                    int mine = side ? 2 - h : h;
                    grown[len] = mine == 2 ? '1' : mine == 1 ? '=' : '0';
                    grown[len + 1] = '\0';
                    *c = grown;
                }
            } else {
                sb[s] += score[m] * h / 2.0;
                sb[m] += score[s] * (2 - h) / 2.0;
            }
        }
    }
    size_t met = 0;   /* the most games of one pair */
    for (size_t i = 0; i < n * n && !failed; i++)
        if (cell[i] && strlen(cell[i]) > met)
            met = strlen(cell[i]);
    int scores = met > CROSSTABLE_MAX_RESULTS && !st->all_results;
    for (size_t i = 0; i < n * n && !failed && scores; i++)
        if (cell[i] && !(cell[i] = cell_score(cell[i])))
            failed = 1;
    for (size_t i = 0; i < n && !failed; i++)
        order[i] = i;
    /* by score, then Sonneborn-Berger, then name */
    for (size_t i = 1; i < n && !failed; i++)
        for (size_t j = i; j > 0; j--) {
            size_t a = order[j - 1], b = order[j];
            int swap = score[b] > score[a] || (score[b] == score[a] && (sb[b] > sb[a]
                       || (sb[b] == sb[a] && strcmp(names.name[b], names.name[a]) < 0)));
            if (!swap)
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    if (!failed && n) {
        /* The columns: "event # player score SB games" and one per rank. */
        const char **head = calloc(7 + maxp, sizeof *head);
        char (*num)[12] = calloc(maxp + 1, sizeof *num);
        struct table t;
        if (!head || !num) {
            failed = 1;
        } else {
            static const char *const fixed[] = { "event", "#", "player", "score", "SB", "games" };
            memcpy(head, fixed, sizeof fixed);
            for (unsigned i = 0; i < maxp; i++) {
                snprintf(num[i], sizeof num[i], "%u", i + 1);
                head[6 + i] = num[i];
            }
            /* text: the event is the title, not a column */
            table_init(&t, "crosstable", format == TABLE_TEXT ? head + 1 : head,
                       format == TABLE_TEXT ? 0x1D : 0x3A);
            if (format == TABLE_TEXT)
                t.ncols = 5 + n;
            for (size_t i = 0; i < n; i++) {
                size_t p = order[i];
                char a[32], b[32];
                if (format != TABLE_TEXT)
                    table_cell(&t, "%s", event);
                table_cell(&t, "%zu", i + 1);
                table_cell(&t, "%s", names.name[p]);
                table_cell(&t, "%s", points(score[p], a, sizeof a));
                table_cell(&t, "%s", points(sb[p], b, sizeof b));
                table_cell(&t, "%u", games[p]);
                for (size_t j = 0; j < (format == TABLE_TEXT ? n : maxp); j++) {
                    const char *c = j >= n ? "" : j == i ? "x" : cell[p * n + order[j]];
                    table_cell(&t, "%s", c ? c : ".");
                }
            }
            failed = t.failed;
            if (!failed) {
                char title[300], buf[256];
                snprintf(title, sizeof title, "Crosstable: %s (SB: Sonneborn-Berger; %s, . not "
                         "played)", escaped(event, buf, sizeof buf),
                         scores ? "points won of the games the pair played" :
                         "1 won, = drawn, 0 lost");
                if (format == TABLE_TEXT && !*first)
                    fputc('\n', f);
                t.no_header = format == TABLE_CSV && !*first;   /* CSV: one header */
                table_write(f, &t, format, title);
                *first = 0;
            }
            table_free(&t);
        }
        free(head);
        free(num);
    }
    for (size_t i = 0; cell && i < n * n; i++)
        free(cell[i]);
    free(cell), free(score), free(sb), free(games), free(order);
    names_free(&names);
    return failed ? -1 : 0;
}

static int crosstables(const struct stats *st, FILE *f, int format)
{
    struct names events = { 0 };
    struct groups gr = { 0 };
    unsigned maxp = 0;
    int first = 1, rc = 0;
    long *id = malloc((st->n + 1) * sizeof *id);
    for (size_t i = 0; id && i < st->n && rc == 0; i++)
        if ((id[i] = name_id(&events, st->rows[i].event)) < 0)
            rc = -1;
    if (!id || rc || group_rows(st->n, id, events.n, &gr) < 0)
        rc = -1;
    /* The widest event gives CSV its columns. */
    for (size_t e = 0; e < events.n && rc == 0; e++) {
        struct names pl = { 0 };
        for (size_t k = gr.start[e]; k < gr.start[e + 1]; k++) {
            const struct row *r = &st->rows[gr.idx[k]];
            if (pair(r) && (name_id(&pl, r->south) < 0 || name_id(&pl, r->north) < 0))
                rc = -1;
        }
        if (pl.n > maxp && pl.n <= CROSSTABLE_MAX_PLAYERS)
            maxp = (unsigned)pl.n;
        names_free(&pl);
    }
    for (size_t e = 0; e < events.n && rc == 0; e++)
        rc = crosstable(st, gr.idx + gr.start[e], gr.start[e + 1] - gr.start[e], events.name[e],
                        f, format, maxp, &first);
    groups_free(&gr);
    free(id);
    names_free(&events);
    return rc;
}

/* ---- matches -------------------------------------------------------------- */

/* Games of one match: its Match tag, else the same two players in one
 * event. */
static char *match_key(const struct row *r, int *failed)
{
    if (r->match) {
        char *k = strdup(r->match);
        if (!k)
            *failed = 1;
        return k;
    }
    const char *a = strcmp(r->south, r->north) < 0 ? r->south : r->north;
    const char *b = a == r->south ? r->north : r->south;
    size_t n = strlen(r->event) + strlen(a) + strlen(b) + 8;
    char *k = malloc(n);
    if (!k)
        return *failed = 1, NULL;
    snprintf(k, n, "%s: %s - %s", r->event, a, b);
    return k;
}

static int matches(const struct stats *st, FILE *f, int format)
{
    static const char *const head[] = { "match", "player", "opponent", "games", "score",
                                        "opponent's", "results", NULL };
    struct names keys = { 0 };
    int failed = 0;
    char **key = calloc(st->n + 1, sizeof *key);
    long *id = calloc(st->n + 1, sizeof *id);
    if (!key || !id)
        failed = 1;
    for (size_t i = 0; i < st->n && !failed; i++) {
        const struct row *r = &st->rows[i];
        id[i] = -1;
        if (!pair(r))
            continue;
        if (!(key[i] = match_key(r, &failed)) || (id[i] = name_id(&keys, key[i])) < 0)
            failed = 1;
    }
    struct table t;
    table_init(&t, "matches", head, 0x38);
    struct groups gr = { 0 };
    if (!failed && group_rows(st->n, id, keys.n, &gr) < 0)
        failed = 1;
    for (size_t m = 0; m < keys.n && !failed; m++) {
        if (gr.start[m + 1] - gr.start[m] < 2)
            continue;   /* a game, not a match */
        /* The player is the first game's South; each game's score is his. */
        const char *me = NULL, *them = NULL;
        double mine = 0, theirs = 0;
        unsigned games = 0;
        char results[512] = "", a[32], b[32];
        size_t len = 0;
        for (size_t k = gr.start[m]; k < gr.start[m + 1]; k++) {
            const struct row *r = &st->rows[gr.idx[k]];
            if (!me) {
                me = r->south;
                them = r->north;
            }
            int h = south_halves(r->result), as_south = strcmp(r->south, me) == 0;
            const char *word = h < 0 ? "*" : (as_south ? h : 2 - h) == 2 ? "1"
                             : h == 1 ? "=" : "0";
            if (h >= 0) {
                mine += (as_south ? h : 2 - h) / 2.0;
                theirs += (as_south ? 2 - h : h) / 2.0;
            }
            games++;
            if (len + 3 < sizeof results)
                len += (size_t)snprintf(results + len, sizeof results - len, "%s%s",
                                        len ? " " : "", word);
        }
        table_cell(&t, "%s", keys.name[m]);
        table_cell(&t, "%s", me ? me : "?");
        table_cell(&t, "%s", them ? them : "?");
        table_cell(&t, "%u", games);
        table_cell(&t, "%s", points(mine, a, sizeof a));
        table_cell(&t, "%s", points(theirs, b, sizeof b));
        table_cell(&t, "%s", results);
    }
    failed |= t.failed;
    if (!failed)
        table_write(f, &t, format, "Matches (two games or more; results: the player's, game "
                    "by game: 1 won, = drawn, 0 lost, * unfinished)");
    table_free(&t);
    for (size_t i = 0; key && i < st->n; i++)
        free(key[i]);
    groups_free(&gr);
    free(key);
    free(id);
    names_free(&keys);
    return failed ? -1 : 0;
}

/* ---- openings ----------------------------------------------------------- */

static int by_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A line of the opening tree: its plies, games and results; the lines
 * that continue it are lines[i + 1 .. end). */
struct line {
    const char *text;
    unsigned plies;
    unsigned long games, res[4];
    size_t end;
};

static const struct line *sort_lines;
static int most_played(const void *a, const void *b)
{
    const struct line *x = &sort_lines[*(const size_t *)a], *y = &sort_lines[*(const size_t *)b];
    if (x->games != y->games)
        return x->games > y->games ? -1 : 1;
    return strcmp(x->text, y->text);
}

/* The lines of lines[from..to) that begin there (one ply deeper than the
 * line before from), most played first, each followed by its own. */
static int tree(const struct stats *st, struct table *t, const struct line *lines, size_t from,
                size_t to, int format)
{
    size_t n = 0, *kids = malloc((to - from + 1) * sizeof *kids);
    if (!kids)
        return -1;
    for (size_t i = from; i < to; i = lines[i].end)
        kids[n++] = i;
    sort_lines = lines;
    if (n > 1)
        qsort(kids, n, sizeof *kids, most_played);
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        const struct line *l = &lines[kids[k]];
        if (l->games < st->min_games)
            continue;   /* nor any line after it: they are played less */
        char buf[32];
        double played = (double)(l->res[PMN_SOUTH_WINS] + l->res[PMN_NORTH_WINS]
                                 + l->res[PMN_DRAWN]);
        const char *last = strrchr(l->text, ' ');
        if (format == TABLE_TEXT)
            table_cell(t, "%*s%s", 2 * (int)(l->plies - 1), "", last ? last + 1 : l->text);
        else
            table_cell(t, "%s", l->text);
        table_cell(t, "%u", l->plies);
        table_cell(t, "%lu", l->games);
        table_cell(t, "%lu", l->res[PMN_SOUTH_WINS]);
        table_cell(t, "%lu", l->res[PMN_DRAWN]);
        table_cell(t, "%lu", l->res[PMN_NORTH_WINS]);
        table_cell(t, "%lu", l->res[PMN_ONGOING]);
        table_cell(t, "%s", percent(l->res[PMN_SOUTH_WINS] + l->res[PMN_DRAWN] / 2.0, played,
                                    buf, sizeof buf));
        rc = tree(st, t, lines, kids[k] + 1, l->end, format);
    }
    free(kids);
    return rc;
}

/* Every line of the first `depth` plies played in at least min_games
 * games, under the line it continues, most played first. */
static int openings(const struct stats *st, FILE *f, int format)
{
    static const char *const head[] = { "line", "plies", "games", "1-0", "1/2-1/2", "0-1",
                                        "unfinished", "South %", NULL };
    struct table t;
    table_init(&t, "openings", head, 0xFE);
    /* Each prefix of each game's opening, sorted, counted in runs. */
    size_t n = 0, cap = 0;
    char **pre = NULL;
    int failed = 0;
    for (size_t i = 0; i < st->n && !failed; i++) {
        const char *o = st->rows[i].opening;
        for (size_t k = 0; o && o[k] != '\0' && !failed; k++) {
            if (o[k + 1] != ' ' && o[k + 1] != '\0')
                continue;
            char **p = grown(pre, &cap, n, sizeof *p, 1024);
            if (!p) {
                failed = 1;
                break;
            }
            pre = p;
            /* "a B" for game i: the prefix and the game's number after a NUL */
            char *s = malloc(k + 2 + sizeof(size_t));
            if (!s) {
                failed = 1;
                break;
            }
            memcpy(s, o, k + 1);
            s[k + 1] = '\0';
            memcpy(s + k + 2, &i, sizeof i);
            pre[n++] = s;
        }
    }
    if (!failed && n > 1)   /* no game with a move: pre is NULL, which qsort may not take */
        qsort(pre, n, sizeof *pre, by_line);
    /* The lines, each once, in the order of their text: a line's subtree
     * follows it (a tree depth-first). */
    struct line *lines = calloc(n + 1, sizeof *lines);
    size_t nl = 0;
    failed |= !lines;
    for (size_t i = 0; i < n && !failed;) {
        struct line *l = &lines[nl++];
        l->text = pre[i];
        l->plies = 1;
        for (const char *c = pre[i]; *c; c++)
            l->plies += *c == ' ';
        for (; i < n && strcmp(pre[i], l->text) == 0; i++) {
            size_t g;
            memcpy(&g, pre[i] + strlen(pre[i]) + 1, sizeof g);
            l->res[st->rows[g].result]++;
            l->games++;
        }
    }
    /* Where each subtree ends: at the next line no deeper than it. */
    size_t *open = calloc(st->depth + 2, sizeof *open);
    failed |= !open;
    for (size_t i = 0; i < nl && !failed; i++)
        lines[i].end = nl;
    for (size_t i = 0; i < nl && !failed; i++) {
        for (unsigned d = lines[i].plies; d <= st->depth; d++)
            if (open[d])
                lines[open[d] - 1].end = i, open[d] = 0;
        open[lines[i].plies] = i + 1;
    }
    free(open);
    /* Written depth-first, the lines after a line most played first. */
    if (!failed)
        failed = tree(st, &t, lines, 0, nl, format) < 0;
    free(lines);
    failed |= t.failed;
    if (!failed) {
        char title[160];
        snprintf(title, sizeof title, "Openings (the first %u plies; lines of %u game%s or "
                 "more; South %%: South's score)", st->depth, st->min_games,
                 st->min_games == 1 ? "" : "s");
        table_write(f, &t, format, title);
    }
    table_free(&t);
    for (size_t i = 0; i < n; i++)
        free(pre[i]);
    free(pre);
    return failed ? -1 : 0;
}

/* ---- the command -------------------------------------------------------- */

static int report_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    unsigned *reports = dest;
    const char *s = arg;
    (void)o;
    char buf[256];
    *reports = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        unsigned k = 0;
        if (n == 3 && strncmp(s, "all", 3) == 0) {
            *reports = R_SUMMARY | R_PLAYERS | R_CROSSTABLE | R_MATCHES | R_RATINGS | R_OPENINGS;
        } else {
            while (report_names[k] && (strlen(report_names[k]) != n
                                       || strncmp(report_names[k], s, n) != 0))
                k++;
            if (!report_names[k])
                return usage_error(cmd, "--report '%s': expected summary, players, crosstable, "
                                   "matches, ratings, openings or all, with commas between",
                                   escaped(arg, buf, sizeof buf));
            *reports |= 1u << k;
        }
        s += n + (s[n] == ',');
    }
    return *reports ? 0 : usage_error(cmd, "--report: no report named");
}

static const char *const table_formats[] = { "text", "csv", "jsonl", NULL };   /* TABLE_* */
static const struct cli_bounds k_bounds = { 0, 1000, "a number", 0 },
    start_bounds = { 0, 10000, "a number", 0 },
    depth_bounds_stats = { 1, 32, "a number of plies", 0 },
    min_games_bounds = { 1, 1e9, "a number", 0 };

static const struct cli_option options[] = {
    { "report", 2000, "LIST", "summary, players, crosstable, matches, ratings,\n"
      "openings, or all; with commas (default:\nsummary,players)",
      BIND_AT(report_option, unsigned, struct stats, reports), NULL, 0 },
    { "format", 2001, "FORMAT", "text (aligned; the default), csv or jsonl",
      CHOICE_AT(struct stats, format), table_formats, 0 },
    { "k-factor", 2002, "K", "Elo: points a game is worth (default 20)",
      DOUBLE_AT(struct stats, k), &k_bounds, 0 },
    { "start-rating", 2003, "R", "Elo: every player's first rating (default 1500)",
      DOUBLE_AT(struct stats, start), &start_bounds, 0 },
    { "depth", 'd', "PLIES", "openings: the tree's depth (default 4)",
      UINT_AT(struct stats, depth), &depth_bounds_stats, 0 },
    { "min-games", 2004, "N", "openings: lines played in N games or more\n"
      "(default 1)", UINT_AT(struct stats, min_games), &min_games_bounds, 0 },
    { "all-results", 2005, NULL, "crosstable: each game's result in a cell, where\n"
      "a pair met more than 4 times (default: its score)",
      FLAG_AT(struct stats, all_results), NULL, 0 },
    OPT_CRITERIA,
    { "index", 'x', "DB", "the games of an archive index (pmn index) instead\n"
      "of files", BIND_AT(opt_string, const char *, struct stats, index), NULL, 0 },
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_OUTPUT,
    OPT_QUIET_PROGRESS,
    OPT_JOBS,
    OPT_STRICT,
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct stats *st = ctx;
    (void)c;
    st->reports = R_SUMMARY | R_PLAYERS;
    st->k = 20;
    st->start = 1500;
    st->depth = 4;
    st->min_games = 1;
}

static int run(struct common *c, void *ctx)
{
    struct stats *st = ctx;
    int jobs = c->jobs;
    st->a.from = c->from;
    st->a.game = each_game;
    st->a.ro = &c->ro;
    st->a.need_moves = criteria_need_moves(&c->criteria) || (st->reports & R_OPENINGS);
    /* Players, crosstables, matches and ratings need tags alone. */
    st->a.tags_only = !(st->reports & (R_SUMMARY | R_OPENINGS))
                   && criteria_tags_only(&c->criteria);
    /* The summary and the openings need none. */
    st->a.no_tags = !(st->reports & ~(R_SUMMARY | R_OPENINGS)) && c->criteria.n == 0;
    if (criteria_need_numbers(&c->criteria))
        jobs = 1;
    else if (criteria_need_tags(&c->criteria))
        st->a.ruled_out = ruled_out;
    st->c = &c->criteria;
    if (st->index && c->nfiles)
        return usage_error(c->cmd->name, "--index reads the games of an index: no file too");
    if (st->index) {
        if (index_archive(c, st->index, &st->a) != 0) {
            free(st->rows);
            free_arenas(st->arena);
            return EXIT_FATAL;
        }
    } else {
        each_input_jobs(c->files, c->nfiles, &c->sink, &stats_job, st, jobs);
    }
    int failed = st->failed, first = 1;
    static int (*const make[])(const struct stats *, FILE *, int) = {
        summary, players_table, crosstables, matches, ratings_table, openings,
    };
    for (unsigned k = 0; k < 6 && !failed; k++) {
        if (!(st->reports >> k & 1))
            continue;
        if (!first && st->format != TABLE_JSONL)
            fputc('\n', c->out.f);
        first = 0;
        failed = make[k](st, c->out.f, st->format) < 0;
    }
    if (failed)
        report(&c->sink, PMN_F002, 0, 0, "out of memory");
    free(st->rows);
    free_arenas(st->arena);
    return job_status(&c->sink, c->strict);
}

const struct command stats_command = {
    "stats", "players, crosstables, matches, ratings, openings of archives",
    "[OPTIONS] [FILE...]",
    "Read the games of PMN files or XML archives (standard input if none, or -)\n"
    "that meet the criteria given (as pmn select takes them; none: every game)\n"
    "and write reports on them: the games, their results, lengths, endings and\n"
    "captures by rule set (summary); each player's games, wins, draws, losses,\n"
    "score and performance (players); a crosstable of each event, ranked by score\n"
    "then Sonneborn-Berger (crosstable); the games of each match, by its Match\n"
    "tag, or the same two players in an event (matches); Elo ratings, the games\n"
    "taken in date order (ratings); the first plies played and how they scored\n"
    "(openings).  Results are those written in the records; a player named '?'\n"
    "or not at all is left out of the player reports.",
    options,
    "Exit status: 0, or as pmn check's for the problems of the games read;\n"
    "64 a wrong command line or criterion.",
    sizeof(struct stats), CMD_OUTPUT | CMD_PROGRESS, init, NULL, run,
};
