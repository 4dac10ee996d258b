/* html.c - pmn html: the games of archives as one self-contained HTML5
 * page, a viewer that steps through them.
 *
 * Everything the page shows of the game is computed here, by pmn's own
 * replay: the board after every ply of every line, each ply's sowing lap by
 * lap (as differences from the lap before), what it captured and where, an
 * endless move's proof.  The page's script (viewer/viewer.js) only draws
 * what it is given; it knows no rules.  Each game is a JSON block of its
 * own, written as it is read and parsed by the page only when the game is
 * opened, so that the command streams and the page stays quick with
 * hundreds of games.  Boards are the SVG of pmn_board_svg, one template a
 * rule set. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "progress.h"
#include "annotate.h"
#include "records.h"
#include "archive.h"
#include "criteria.h"
#include "store.h"
#include "lookup.h"
#include "explorer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A ply shows at most this many laps; an endless move's proof, shown lap
 * by lap, is cut there too (its words say the rest). */
#define MAX_LAPS 400

/* viewer/: built into pmn by make (viewer.c). */
extern const char pmn_viewer_css[], pmn_viewer_html[], pmn_viewer_js[];

struct html {
    struct archive a;         /* first: archive_file is given the context */
    const struct criteria *c;
    FILE *f;
    pmn_notation notation;
    unsigned long games;
    pmn_rules *layouts;       /* the boards the games need: a template each */
    size_t nlayouts, layouts_cap;
    pmn_diag *diags;          /* the current game's */
    size_t ndiags, diags_cap;
    pmn_lap laps[MAX_LAPS];
    int failed;
    /* --annotate: the engine's, for each game's rules */
    int annotate;
    pmn_annotate_options ao;
    char annotator[160];
    unsigned long hash;
    const char *tbdir;        /* --tablebase DIR, or NULL */
    pmn_tablebase *tb;        /* the databases of the last game's rules */
    const char *title;        /* --title */
    const char *explorer;     /* --explorer DB */
    struct store *st;         /* its index, while it answers */
    struct diag_sink *sink;
};

/* The latest games the explorer's panel names at a position. */
#define PANEL_GAMES 3

/* The lines of a game, for the page's list of them after its nodes. */
struct line_seen {
    long parent;              /* the node it is an alternative to; -1: main */
    long first;               /* the number of its first node */
    const pmn_line *line;
};

struct writing {
    struct html *h;
    const pmn_rules *r;
    const pmn_model *model;   /* for the expected score of [%eval] values */
    struct line_seen *lines;
    size_t nlines, cap;
};

/* ---- JSON and HTML text --------------------------------------------- */

/* A JSON string safe inside <script>: '<', '>' and '&' as \u escapes, so
 * that no "</script>" or "<!--" can end or change the block. */
static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '<': case '>': case '&': fprintf(f, "\\u%04x", c); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fprintf(f, "\\u%04x", c);
            else if (c == 0xe2 && (unsigned char)s[1] == 0x80
                     && ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9)) {
                fprintf(f, "\\u%04x", 0x2028 + ((unsigned char)s[2] - 0xa8));
                s += 2;   /* line separators: not allowed raw in older JS */
            } else {
                fputc(c, f);
            }
        }
    }
    fputc('"', f);
}

/* Text in HTML, its special characters escaped. */
static void htext(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
                fputc(*s, f);
        }
    }
}

/* A board as the page takes it: South's holes in sowing order, North's,
 * the seeds each has captured or stored, the side to move. */
static void jboard(FILE *f, const pmn_rules *r, const pmn_position *p)
{
    fputc('[', f);
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < r->pits; i++)
            fprintf(f, "%u,", p->pit[s][i]);
    fprintf(f, "%u,%u,%u]", (unsigned)p->captured[0], (unsigned)p->captured[1], p->to_move);
}

/* The board's entries that differ from `from`'s, as index,count pairs. */
static void jdiff(FILE *f, const pmn_rules *r, const pmn_position *from, const pmn_position *to)
{
    unsigned m = r->pits;
    int first = 1;
    fputc('[', f);
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < m; i++)
            if (from->pit[s][i] != to->pit[s][i]) {
                fprintf(f, "%s%u,%u", first ? "" : ",", s * m + i, to->pit[s][i]);
                first = 0;
            }
    for (int s = 0; s < 2; s++)
        if (from->captured[s] != to->captured[s]) {
            fprintf(f, "%s%u,%u", first ? "" : ",", 2 * m + s, (unsigned)to->captured[s]);
            first = 0;
        }
    fputc(']', f);
}

/* ---- a ply ----------------------------------------------------------- */

static void hole_name(const struct writing *w, int side, int hole, char *buf, size_t size)
{
    pmn_hole_name(w->r, w->h->notation, side, hole, buf, size);
}

/* The sowing of a ply from `before`, lap by lap, and the holes its last
 * seed's capture emptied. */
static void jlaps(struct writing *w, const pmn_played *pl, const pmn_position *before)
{
    FILE *f = w->h->f;
    const pmn_move_report *rep = &pl->report;
    size_t n;
    int more = pmn_sowing_laps(w->r, before, rep->hole, w->h->laps, MAX_LAPS, &n);
    if (more < 0)
        return;   /* cannot be: the replay played it */
    if (rep->ending == PMN_END_ENDLESS && rep->loop_lap < n)
        n = (size_t)rep->loop_lap;   /* the laps up to the proof's repeat */
    fputs(",\"laps\":[", f);
    const pmn_position *prev = before;
    for (size_t i = 0; i < n; i++) {
        const pmn_lap *l = &w->h->laps[i];
        fprintf(f, "%s{\"from\":[%d,%d],\"seeds\":%u,\"end\":[%d,%d],\"fours\":[%lu,%lu],\"d\":",
                i ? "," : "", l->side, l->hole, l->seeds, l->end_side, l->end_hole,
                (unsigned long)l->fours[0], (unsigned long)l->fours[1]);
        jdiff(f, w->r, prev, &l->board);
        fputc('}', f);
        prev = &l->board;
    }
    fputc(']', f);
    if (more && rep->ending != PMN_END_ENDLESS)
        fputs(",\"cut\":1", f);
    if (rep->ending == PMN_END_ENDLESS || n == 0)
        return;
    /* What the last seed's capture took: the holes the last lap left fuller
     * than the move did. */
    const pmn_position *last = &w->h->laps[n - 1].board;
    int first = 1;
    fputs(",\"taken\":[", f);
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < w->r->pits; i++)
            if (last->pit[s][i] > pl->after.pit[s][i]) {
                fprintf(f, "%s[%d,%u]", first ? "" : ",", s, i);
                first = 0;
            }
    fputc(']', f);
}

/* What the replay says of a ply, in words, for the page's status line. */
static void jreport(struct writing *w, const pmn_played *pl)
{
    FILE *f = w->h->f;
    const pmn_move_report *rep = &pl->report;
    char a[16], b[16], words[512];
    int n = 0;
    hole_name(w, rep->side, rep->hole, a, sizeof a);
    if (rep->ending == PMN_END_ENDLESS) {
        n = snprintf(words, sizeof words, "%s: an endless move. The sowing state after lap %llu "
                     "repeats that after lap %llu, so it never ends; turned around the cycle, "
                     "lap %llu repeats lap %llu.", a, (unsigned long long)rep->loop_lap,
                     (unsigned long long)rep->loop_from, (unsigned long long)rep->rotated_lap,
                     (unsigned long long)rep->rotated_from);
        fputs(",\"proof\":", f);
        jstr(f, words);
        return;
    }
    if (rep->end_hole >= 0)
        hole_name(w, rep->end_side, rep->end_hole, b, sizeof b);
    else
        snprintf(b, sizeof b, "%s's store", pmn_side_name(rep->end_side));
    n = snprintf(words, sizeof words, "%s sows %s: %llu lap%s, the last seed in %s",
                 pmn_side_name(rep->side), a, (unsigned long long)rep->laps,
                 rep->laps == 1 ? "" : "s", b);
    if (rep->captured && n < (int)sizeof words)
        n += snprintf(words + n, sizeof words - (size_t)n, "; captures %u", rep->captured);
    if (rep->given && n < (int)sizeof words)
        n += snprintf(words + n, sizeof words - (size_t)n, "; %s takes %u on the way",
                      pmn_side_name(!rep->side), rep->given);
    if (rep->stored && n < (int)sizeof words)
        n += snprintf(words + n, sizeof words - (size_t)n, "; %u into the store", rep->stored);
    if (rep->grand_slam && n < (int)sizeof words)
        n += snprintf(words + n, sizeof words - (size_t)n, "; a grand slam, not captured");
    if (rep->extra && n < (int)sizeof words)
        n += snprintf(words + n, sizeof words - (size_t)n, "; another sowing earned");
    if (rep->passed && n < (int)sizeof words)
        n += snprintf(words + n, sizeof words - (size_t)n, "; %s cannot move and passes",
                      pmn_side_name(!pl->after.to_move));
    fputs(",\"says\":", f);
    jstr(f, words);
    fprintf(f, ",\"captured\":%u,\"hole\":[%d,%d],\"last\":[%d,%d]", rep->captured, rep->side,
            rep->hole, rep->end_side, rep->end_hole);
}

static void jcomments(FILE *f, const char *key, char *const *c, size_t n)
{
    if (!n)
        return;
    fprintf(f, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        jstr(f, c[i]);
    }
    fputc(']', f);
}

/* What the index says was played from position p, as `,"KEY":{...}`;
 * nothing where there is no index, or it failed (said once, then the
 * page goes on without its panel). */
static void jexplorer(struct html *h, const char *key, const pmn_rules *r, const pmn_position *p)
{
    if (!h->st)
        return;
    char *xp = NULL;          /* written whole or not at all: the page stays JSON */
    size_t len = 0;
    FILE *m = open_memstream(&xp, &len);
    int rc = m ? index_explore_json(h->st, r, p, PANEL_GAMES, m) : -2;
    if (m && fclose(m) != 0 && rc == 0)
        rc = -2;
    if (rc == 0) {
        fprintf(h->f, ",\"%s\":", key);
        fwrite(xp, 1, len, h->f);
    } else {
        const char *file = h->sink->file;
        h->sink->file = h->explorer;
        if (rc == -2)
            report(h->sink, PMN_F002, 0, 0, "out of memory");
        else
            index_store_failed(h->sink, h->st);
        h->sink->file = file;
        store_close(h->st);
        h->st = NULL;
        h->failed = 1;
    }
    free(xp);
}

/* A node: a ply as written, and what the replay made of it (what the
 * page shows of a line goes up to its first ply the replay did not play:
 * n->before is NULL from there). */
static int jnode(void *ctx, pmn_walk_node *n)
{
    struct writing *w = ctx;
    FILE *f = w->h->f;
    const pmn_move *m = n->move;
    const pmn_played *pl = n->played;
    int replayed = n->before != NULL;
    char name[16];
    const char *text = m->text;
    if (pl->replayed && w->h->notation != PMN_NOTATION_LETTERS) {
        hole_name(w, pl->side, pl->report.hole, name, sizeof name);
        text = name;
    }
    fputs(n->index ? ",{\"t\":" : "{\"t\":", f);
    jstr(f, text);
    fprintf(f, ",\"side\":%d,\"no\":%u,\"at\":[%llu,%llu]", pl->mover, pl->number, m->line, m->col);
    if (pl->continues)
        fputs(",\"joined\":1", f);
    if (m->claim >= 0)
        fprintf(f, ",\"claim\":%d,\"style\":\"%c\"", m->claim, m->claim_style == 'x' ? 'x' : '+');
    if (m->judgement[0]) {
        fputs(",\"judgement\":", f);
        jstr(f, m->judgement);
    }
    if (m->nnags) {
        fputs(",\"nags\":[", f);
        for (unsigned i = 0; i < m->nnags; i++)
            fprintf(f, "%s%u", i ? "," : "", m->nags[i]);
        fputc(']', f);
    }
    jcomments(f, "comments", m->comments, m->ncomments);
    /* An annotated value ([%eval +2]): it, and South's expected score, for
     * the evaluation graph.  The last of them: pmn annotate puts its own
     * after the record's comments, which may hold values of their own (a
     * self-play record's, another program's). */
    char eval[32], last[32] = "";
    double south, last_south = 0;
    for (size_t i = 0; replayed && i < m->ncomments; i++)
        if (pmn_comment_eval(m->comments[i], eval, sizeof eval)
            && pmn_eval_expected(w->model, eval, pmn_position_seeds(w->r, &pl->after, PMN_SOUTH)
                                 + pmn_position_seeds(w->r, &pl->after, PMN_NORTH), &south) == 0) {
            memcpy(last, eval, sizeof last);
            last_south = south;
        }
    if (last[0]) {
        fputs(",\"eval\":", f);
        jstr(f, last);
        fprintf(f, ",\"ex\":%.3f", last_south);
    }
    if (replayed) {
        fputs(",\"board\":", f);
        jboard(f, w->r, &pl->after);
        jexplorer(w->h, "xp", w->r, &pl->after);
        jreport(w, pl);
        jlaps(w, pl, n->before);
        if (pl->report.ending != PMN_END_NONE) {
            char words[200];
            pmn_ending_explain(w->r, pl->report.ending, &pl->after, words, sizeof words);
            fputs(",\"ending\":", f);
            jstr(f, words);
            fprintf(f, ",\"outcome\":\"%s\"", pmn_outcome_string(pl->report.outcome));
        }
    }
    if (m->nvariations) {
        fputs(",\"vars\":[", f);
        for (size_t v = 0; v < m->nvariations; v++)
            fprintf(f, "%s%ld", v ? "," : "", n->first_variation + (long)v);
        fputc(']', f);
    }
    fputc('}', f);
    return PMN_WALK_CONTINUE;
}

static int jline(void *ctx, const pmn_walk_line *l)
{
    struct writing *w = ctx;
    struct line_seen *s = grown(w->lines, &w->cap, w->nlines, sizeof *s, 8);
    if (!s)
        return PMN_WALK_ABORT;
    w->lines = s;
    s[w->nlines++] = (struct line_seen){ l->parent, l->first, l->line };
    return PMN_WALK_CONTINUE;
}

/* Every line's nodes, a line after another (the main line, then the
 * variations in the order they are met), so that a line's nodes are
 * numbered in a row; then the lines.  Returns the number of lines, or -1
 * when memory runs out. */
static long jnodes(struct writing *w, const pmn_record *rec, const pmn_replay *replay)
{
    static const pmn_walker page = { NULL, jline, jnode, NULL, NULL, NULL, 0, 1, 0 };
    FILE *f = w->h->f;
    fputs(",\"nodes\":[", f);
    if (pmn_walk(rec, replay, &page, w) != 0)
        return -1;
    fputs("],\"lines\":[", f);
    for (size_t q = 0; q < w->nlines; q++) {
        const struct line_seen *l = &w->lines[q];
        fprintf(f, "%s{\"parent\":%ld,\"first\":%ld,\"n\":%zu", q ? "," : "", l->parent,
                l->first, l->line->nmoves);
        jcomments(f, "lead", l->line->lead, l->line->nlead);
        fputc('}', f);
    }
    fputc(']', f);
    return (long)w->nlines;
}

/* ---- a game ---------------------------------------------------------- */

/* Games whose boards are drawn alike (and whose holes are named alike)
 * share a template. */
static long layout_of(struct html *h, const pmn_rules *r)
{
    for (size_t i = 0; i < h->nlayouts; i++) {
        const pmn_rules *l = &h->layouts[i];
        if (strcmp(l->name, r->name) == 0 && l->rows == r->rows
            && l->holes_per_row == r->holes_per_row && l->cycle == r->cycle
            && l->stores == r->stores)
            return (long)i;
    }
    pmn_rules *l = grown(h->layouts, &h->layouts_cap, h->nlayouts, sizeof *l, 4);
    if (!l)
        return -1;
    h->layouts = l;
    l[h->nlayouts] = *r;
    return (long)h->nlayouts++;
}

static void game_title(const struct game *g, char *buf, size_t size)
{
    const char *south = game_tag(g, "South"), *north = game_tag(g, "North");
    const char *event = game_tag(g, "Event"), *date = game_tag(g, "Date");
    const char *result = game_result(g);
    int n;
    /* A problem names no players: its event is its name. */
    int players = (south && strcmp(south, "?") != 0) || (north && strcmp(north, "?") != 0);
    if (players || !event || strcmp(event, "?") == 0)
        n = snprintf(buf, size, "%s \xe2\x80\x93 %s", south ? south : "?", north ? north : "?");
    else
        n = snprintf(buf, size, "%s", event), event = NULL;
    if (event && strcmp(event, "?") != 0 && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ", %s", event);
    if (date && strcmp(date, "?") != 0 && strcmp(date, "????.??.??") != 0 && n >= 0
        && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ", %s", date);
    if (result && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " (%s)", result);
}

/* A game's problems in the order of the file, as standard error has them
 * (the parser's and the replay's come apart); stable, and few. */
static void sort_diags(pmn_diag *d, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        pmn_diag x = d[i];
        size_t j = i;
        while (j && (d[j - 1].line > x.line || (d[j - 1].line == x.line && d[j - 1].col > x.col))) {
            d[j] = d[j - 1];
            j--;
        }
        d[j] = x;
    }
}

static void jdiags(struct html *h)
{
    FILE *f = h->f;
    sort_diags(h->diags, h->ndiags);
    fputs(",\"diags\":[", f);
    for (size_t i = 0; i < h->ndiags; i++) {
        const pmn_diag *d = &h->diags[i];
        char code[8];
        pmn_diag_code_name(d->code, code);
        fprintf(f, "%s{\"at\":[%llu,%llu],\"severity\":\"%s\",\"code\":\"%s\",\"message\":",
                i ? "," : "", d->line, d->col, pmn_severity_string(d->severity), code);
        jstr(f, d->message);
        fputc('}', f);
    }
    fputc(']', f);
}

static int each_game(struct archive *a, struct game *g)
{
    struct html *h = (struct html *)a;
    FILE *f = h->f;
    char title[600];
    if (!criteria_match(h->c, g)) {
        h->ndiags = 0;
        return 0;
    }
    const pmn_replay *replay = g->replay;
    pmn_replay *annotated = NULL;
    const pmn_setup *setup = pmn_replay_setup(replay);
    if (h->annotate && setup->status == PMN_SETUP_READY) {
        /* The record is the archive's, read for this game and freed after
         * it: annotated in place, then replayed again (its new lines). */
        pmn_record *rec = (pmn_record *)g->rec;
        pmn_searcher *s = pmn_searcher_new(&setup->rules, h->hash);
        if (s && !h->failed
            && tablebase_for_game("html", h->tbdir, &setup->rules, s, &h->tb) != 0)
            h->failed = 1;   /* said; the page is not written */
        if (!s || pmn_annotate_record(rec, setup, s, &h->ao, NULL) < 0
            || !(annotated = pmn_replay_new(rec, setup, NULL, NULL))) {
            pmn_searcher_free(s);
            return -1;
        }
        pmn_searcher_free(s);
        replay = annotated;
        setup = pmn_replay_setup(replay);
        /* Its tags as they are now (an Annotator added: the array may
         * have moved). */
        g->tags = rec->tags;
        g->ntags = rec->ntags;
    }
    long layout = layout_of(h, &setup->rules);
    if (layout < 0) {
        pmn_replay_free(annotated);
        return -1;
    }
    struct writing w = { h, &setup->rules, pmn_model_for(&setup->rules), NULL, 0, 0 };
    h->games++;
    game_title(g, title, sizeof title);
    fprintf(f, "<script type=\"application/json\" class=\"game\" id=\"game-%lu\" data-title=\"",
            h->games);
    htext(f, title);
    fputs("\">\n{\"title\":", f);
    jstr(f, title);
    fputs(",\"file\":", f);
    jstr(f, g->file);
    fprintf(f, ",\"number\":%lu,\"line\":%llu,\"layout\":%ld,\"pits\":%u,\"cols\":%u,\"rules\":",
            g->number, g->line, layout, setup->rules.pits, setup->rules.holes_per_row);
    jstr(f, setup->rules.name);
    fputs(",\"tags\":[", f);
    for (size_t i = 0; i < g->ntags; i++) {
        fputs(i ? ",[" : "[", f);
        jstr(f, g->tags[i].name);
        fputc(',', f);
        jstr(f, g->tags[i].value);
        fputc(']', f);
    }
    fputs("],\"result\":", f);
    jstr(f, g->rec->result[0] ? g->rec->result : "");
    char ending[256];
    game_ending_text(g, ending, sizeof ending);
    fputs(",\"state\":", f);
    jstr(f, ending);
    fprintf(f, ",\"ready\":%d,\"start\":", setup->status == PMN_SETUP_READY);
    jboard(f, &setup->rules, &setup->start);
    if (setup->status == PMN_SETUP_READY)
        jexplorer(h, "xp0", &setup->rules, &setup->start);
    jdiags(h);
    h->ndiags = 0;
    long lines = jnodes(&w, g->rec, replay);
    free(w.lines);
    pmn_replay_free(annotated);
    if (lines < 0)
        return -1;
    fputs("}\n</script>\n", f);
    if (ferror(f)) {
        h->failed = 1;
        return 1;
    }
    return 0;
}

/* Every diagnostic of a game, notes too, for its page. */
static void each_diag(struct archive *a, const pmn_diag *d)
{
    struct html *h = (struct html *)a;
    pmn_diag *l = grown(h->diags, &h->diags_cap, h->ndiags, sizeof *l, 8);
    if (!l)
        return;   /* the page lists fewer; standard error has them all */
    h->diags = l;
    h->diags[h->ndiags++] = *d;
}

/* ---- the page -------------------------------------------------------- */

static void page_head(struct html *h, const char *title)
{
    FILE *f = h->f;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          /* Nothing from the network, ever: the page holds all it needs. */
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
          "<title>", f);
    htext(f, title);
    fprintf(f, "</title>\n<meta name=\"generator\" content=\"pmn %s\">\n<style>\n",
            pmn_version());
    fputs(pmn_viewer_css, f);
    fputs("</style>\n</head>\n<body>\n<header><h1>", f);
    htext(f, title);
    fputs("</h1></header>\n"
          "<noscript><p>This page steps through games with JavaScript, which is off.  "
          "The games are in the page's JSON blocks; <code>pmn replay</code> shows them in "
          "a terminal.</p></noscript>\n", f);
    fputs(pmn_viewer_html, f);
}

/* One board template a rule set, drawn by pmn_board_svg for the page. */
static int page_templates(struct html *h)
{
    for (size_t i = 0; i < h->nlayouts; i++) {
        const pmn_rules *r = &h->layouts[i];
        pmn_position p;
        pmn_position_start(r, &p);
        pmn_svg_options o;
        pmn_svg_options_init(&o);
        o.notation = h->notation;
        o.html = 1;
        size_t len = pmn_board_svg(r, &p, &o, NULL, 0);
        char *svg = malloc(len + 1);
        if (!svg)
            return -1;
        pmn_board_svg(r, &p, &o, svg, len + 1);
        fprintf(h->f, "<template id=\"board-%zu\">", i);
        fputs(svg, h->f);
        fputs("</template>\n", h->f);
        free(svg);
    }
    return 0;
}

static void page_end(struct html *h)
{
    fputs("<script>\n", h->f);
    fputs(pmn_viewer_js, h->f);
    fputs("</script>\n</body>\n</html>\n", h->f);
}

static const struct cli_option options[] = {
    OPT_CRITERIA,
    { "title", 'T', "TEXT", "the page's title (default: the first input's name)",
      STRING_AT(struct html, title), NULL, 0 },
    { "annotate", 'A' + 256, NULL, "annotate the games on the way (as pmn annotate:\n"
      "0.25 s a position, or --depth, --nodes, --time)",
      FLAG_AT(struct html, annotate), NULL, 0 },
    OPT_DEPTH,
    OPT_NODES,
    OPT_TIME,
    OPT_TABLEBASE,
    { "explorer", 'E' + 256, "DB", "a panel beside the board: what the games of the\n"
      "archive index DB (pmn index) played from each\nposition, and how they scored",
      STRING_AT(struct html, explorer), NULL, 0 },
    OPT_NOTATION,
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_START_POSITION,
    OPT_OUTPUT,
    OPT_QUIET_PROGRESS,
    OPT_STRICT,
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct html *h = ctx;
    (void)c;
    annotate_defaults(&h->ao);
}

static int ready(struct common *c, void *ctx)
{
    struct html *h = ctx;
    if (!h->annotate && (c->limits.depth || c->limits.nodes || c->limits.seconds > 0
                         || c->tablebase))
        return usage_error(c->cmd->name, "--depth, --nodes, --time and --tablebase go with "
                           "--annotate");
    h->hash = c->hash_mb;
    h->tbdir = c->tablebase;
    h->ao.limits = c->limits;
    h->ao.notation = c->wo.notation;
    if (h->annotate)
        annotate_finish(&h->ao, h->annotator, sizeof h->annotator);
    return 0;
}

static int run(struct common *c, void *ctx)
{
    struct html *h = ctx;
    const char *title = h->title;
    h->a.from = c->from;
    h->a.ro = &c->ro;
    h->c = &c->criteria;
    h->f = c->out.f;
    h->notation = c->wo.notation;
    if (!title)
        title = c->nfiles && strcmp(c->files[0], "-") != 0 ? c->files[0] : "pmn games";
    h->a.game = each_game;
    h->a.diag = each_diag;
    h->a.need_moves = 1;
    h->sink = &c->sink;
    if (h->explorer && !(h->st = index_open(c, h->explorer, STORE_READ)))
        return EXIT_FATAL;
    page_head(h, title);
    each_input(c->files, c->nfiles, &c->sink, archive_file, h);
    if (page_templates(h) < 0)
        report(&c->sink, PMN_F002, 0, 0, "out of memory");
    page_end(h);
    progress_erase();
    free(h->layouts);
    free(h->diags);
    store_close(h->st);
    int damaged = tablebase_close_checked(h->tb);
    c->failed = h->failed || ferror(c->out.f);
    return damaged ? damaged : job_status(&c->sink, c->strict);
}

const struct command html_command = {
    "html", "write games as a self-contained HTML page that steps through them",
    "[OPTIONS] [FILE...] [-o PAGE]",
    "Write the games of PMN files or XML archives (standard input if none, or -)\n"
    "as one HTML5 page that needs nothing else: no network, no fonts, no files\n"
    "beside it.  The page lists the games and shows, for the one opened, its\n"
    "tags, the problems pmn check finds in it, its moves with their comments,\n"
    "judgements and variations, and the board after any move, drawn from pmn's\n"
    "own replay; the sowing of a move is shown lap by lap.  Keys: Right and Left\n"
    "step, ] and [ step a lap, Down enters a variation, Up leaves it, Home and\n"
    "End, Page Down and Page Up change games.  #game=N&ply=K in the page's\n"
    "address opens game N after K plies.  The criteria of pmn select choose\n"
    "the games (see CRITERIA in pmn(1)).  Problems are also reported on\n"
    "standard error as by pmn check.  A game annotated by pmn annotate (or\n"
    "annotated on the way, --annotate) gets an evaluation graph to click, its\n"
    "judged moves coloured, and the summary of each side.  With --explorer, a\n"
    "panel follows the position as the page steps: each move the games of an\n"
    "archive index played from it, how often, how they ended (bars: South's\n"
    "wins, draws, North's), the score, and the latest games there.",
    options,
    "Exit status: as pmn check's for the problems of the games read; 64 a wrong\n"
    "command line.",
    sizeof(struct html), CMD_OUTPUT | CMD_PROGRESS, init, ready, run,
};
