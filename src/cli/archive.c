/* archive.c - the games of PMN or XML archives, one at a time, for the
 * commands that work on whole archives (select, duplicates, split, stats).
 *
 * Each game is read once and replayed once; where a command needs no more
 * than a game's tags and what its replay proves, the reader's quick pass
 * proves most games clean without parsing them (as pmn check does), and a
 * command that selects by tags alone has the games its tags rule out left
 * unread (pmn_reader_set_filter).  Games are written back in the format a
 * command asks for (struct game_output). */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "progress.h"
#include "records.h"
#include "archive.h"

#include <stdlib.h>
#include <string.h>

/* What reading one input needs besides the command's context: the per-game
 * diagnostics counter, and the PMN reader, which holds the tags of games
 * read by the quick pass (which leaves the record empty). */
struct reading {
    struct archive *a;
    struct diag_sink *sink;
    struct game g;
    int stop;                 /* the command said to stop (tags_only) */
    pmn_reader *rd;           /* of read_pmn */
};

/* The diagnostics of a game: counted and their codes kept, then shown. */
static void game_diag(void *ctx, const pmn_diag *d)
{
    struct reading *r = ctx;
    if (d->severity <= PMN_FATAL)
        r->g.count[d->severity]++;
    if (d->code > 0 && d->code < MAX_DIAG_CODE)
        r->g.codes[d->code / 8] |= (unsigned char)(1u << (d->code % 8));
    if (r->a->diag)
        r->a->diag(r->a, d);
    print_diag(r->sink, d);
}

int game_has_code(const struct game *g, int code)
{
    return code > 0 && code < MAX_DIAG_CODE && (g->codes[code / 8] >> (code % 8) & 1);
}

const char *game_tag(const struct game *g, const char *name)
{
    for (size_t i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

const char *game_result(const struct game *g)
{
    const char *r = game_tag(g, "Result");
    if (r)
        return r;
    if (!g->rec)
        return pmn_outcome_string(g->facts.outcome);   /* the pass proved it written */
    return g->rec->result[0] ? g->rec->result : NULL;
}

const char *game_state_name(enum game_state s)
{
    static const char *const names[] = {
        [GAME_ENDED] = "ended", [GAME_NOT_OVER] = "not over", [GAME_STOPPED] = "stopped",
        [GAME_UNKNOWN_RULES] = "unknown rules", [GAME_BAD_START] = "bad start",
        [GAME_NO_START] = "no start", [GAME_TAGS_ONLY] = "not read",
    };
    return names[s];
}

void game_ending_text(const struct game *g, char *buf, size_t size)
{
    if (g->state != GAME_ENDED) {
        snprintf(buf, size, "%s", game_state_name(g->state));
    } else if (g->replay) {
        const pmn_check_result *res = pmn_replay_result(g->replay);
        pmn_ending_explain(&pmn_replay_setup(g->replay)->rules, g->facts.ending, &res->end, buf,
                           size);
    } else {
        /* The quick pass: Hawalis, ended by the loser having no move. */
        int loser = g->facts.outcome == PMN_SOUTH_WINS ? PMN_NORTH : PMN_SOUTH;
        snprintf(buf, size, "%s has %s", pmn_side_name(loser),
                 g->facts.ending == PMN_END_NO_SEEDS ? "no seeds left" : "no legal move");
    }
}

/* The tags of the game (or, in the filter, the piece) the reader holds,
 * into r->g, where they are of the shape the quick pass takes
 * (pmn_reader_game_tags): 0, 1 if they are in another shape, -1 out of
 * memory. */
static int simple_tags(struct reading *r)
{
    const pmn_tag *tags;
    size_t n;
    int rc = pmn_reader_game_tags(r->rd, &tags, &n);
    if (rc == 1) {
        r->g.tags = tags;
        r->g.ntags = n;
    }
    return rc == 1 ? 0 : rc == 0 ? 1 : -1;
}

enum game_state game_state_of(const pmn_check_result *res)
{
    switch (res->setup) {
    case PMN_SETUP_UNKNOWN_RULES: return GAME_UNKNOWN_RULES;
    case PMN_SETUP_BAD_START: return GAME_BAD_START;
    case PMN_SETUP_NO_START: return GAME_NO_START;
    default: break;
    }
    return res->stopped ? GAME_STOPPED : res->ending != PMN_END_NONE ? GAME_ENDED : GAME_NOT_OVER;
}

/* Set a game read in full up, replay it, and hand it to the command. */
static int full_game(struct reading *r, pmn_record *rec)
{
    struct archive *a = r->a;
    pmn_setup setup;
    pmn_setup_record(rec, a->ro ? &a->ro->setup : NULL, &setup, game_diag, r);
    pmn_replay *replay = pmn_replay_new(rec, &setup, game_diag, r);
    if (!replay)
        return -1;
    const pmn_check_result *res = pmn_replay_result(replay);
    r->g.rec = rec;
    r->g.replay = replay;
    r->g.tags = rec->tags;
    r->g.ntags = rec->ntags;
    r->g.line = rec->line;
    r->g.rules = pmn_replay_setup(replay)->rules.name;
    r->g.state = game_state_of(res);
    r->g.facts.moves = res->written;
    r->g.facts.ending = r->g.state == GAME_ENDED ? res->ending : PMN_END_NONE;
    r->g.facts.outcome = r->g.state == GAME_ENDED ? res->outcome : PMN_ONGOING;
    memcpy(r->g.facts.captured, res->captured, sizeof res->captured);
    release_diags(r->sink);
    int stop = a->game(a, &r->g);
    pmn_replay_free(replay);
    return stop;
}

static void new_game(struct reading *r)
{
    unsigned long n = r->g.number;
    memset(&r->g, 0, sizeof r->g);
    r->g.file = r->sink->file;
    r->g.sink = r->sink;
    r->g.number = n + 1;
}

/* After a game the command was given: the progress line, and out of
 * memory said.  Returns `stop` (nonzero: read no more). */
static int game_done(struct reading *r, int stop)
{
    progress_game(r->sink->progress, r->sink->file);
    if (stop < 0)
        report(r->sink, PMN_F002, 0, 0, "out of memory");
    return stop;
}

/* Each piece of text the reader cuts, before it is read: when its tags
 * are in the simple shape, a->ruled_out may leave it unread (the games of
 * the piece after the first have no tags: what a missing tag fails, they
 * fail too), and with a->tags_only the piece is taken as one game of those
 * tags and read no further (the games after the first have no players,
 * which the commands that ask this leave out).  Other pieces are read as
 * usual. */
static int piece(void *ctx, const char *text, size_t len)
{
    struct reading *r = ctx;
    struct archive *a = r->a;
    unsigned long number = r->g.number;
    new_game(r);
    r->g.number = number;   /* not counted: the commands that filter show none */
    (void)text;
    (void)len;   /* the reader's: pmn_reader_game_tags reads it */
    int rc = simple_tags(r);
    if (rc < 0) {
        r->stop = -1;
        report(r->sink, PMN_F002, 0, 0, "out of memory");
        return 0;
    }
    if (rc == 1)
        return 1;
    r->g.state = GAME_TAGS_ONLY;
    r->g.rules = "?";
    if (a->ruled_out && a->ruled_out(a, &r->g))
        return 0;
    if (!a->tags_only || !game_tag(&r->g, "Result"))
        return 1;   /* the parser reads it (and the result after the moves) */
    r->stop = game_done(r, a->game(a, &r->g));
    return 0;
}

static void read_pmn(FILE *f, struct reading *r)
{
    struct archive *a = r->a;
    pmn_reader *rd = pmn_reader_new(f, game_diag, r);
    pmn_record rec;
    int rc;
    r->rd = rd;
    if (!rd) {
        report(r->sink, PMN_F002, 0, 0, "out of memory");
        return;
    }
    if (a->ro)
        pmn_reader_set_setup(rd, &a->ro->setup);
    if (r->sink->lines_before)
        pmn_reader_set_lines_before(rd, r->sink->lines_before);
    if (a->tags_only || a->ruled_out)
        pmn_reader_set_filter(rd, piece, r);
    if (a->keys && pmn_reader_keep_keys(rd) < 0) {
        report(r->sink, PMN_F002, 0, 0, "out of memory");
        pmn_reader_free(rd);
        r->rd = NULL;
        return;
    }
    new_game(r);
    while (!r->stop && (rc = a->need_moves ? pmn_reader_next(rd, &rec)
                                           : pmn_reader_next_again(rd, &rec, &r->g.facts,
                                                                   a->proved && a->proved(a)))
                           > 0) {
        int stop;
        pmn_reader_game_text(rd, &r->g.text, &r->g.len, &r->g.line);
        if (rc == 2) {
            r->g.rules = "hawalis";
            r->g.nholes = pmn_reader_game_holes(rd, &r->g.holes);
            r->g.nkeys = pmn_reader_game_keys(rd, &r->g.keys);
            r->g.state = r->g.facts.ending ? GAME_ENDED : GAME_NOT_OVER;
            /* The pass takes only tags in this shape. */
            stop = !a->no_tags && simple_tags(r) < 0 ? -1
                 : (release_diags(r->sink), a->game(a, &r->g));
        } else {
            stop = full_game(r, &rec);
        }
        pmn_record_free(&rec);
        if (game_done(r, stop))
            break;
        new_game(r);
    }
    pmn_reader_free(rd);
    r->rd = NULL;
}

/* An XML archive or OGN games: each read whole and replayed, no quick
 * pass; the reader's diagnostics are the game's, as the PMN reader's are. */
static void read_records(FILE *f, struct reading *r, int format)
{
    struct source src;
    pmn_record rec;
    if (source_open_to(&src, f, r->sink, r->a->ro, format, game_diag, r) < 0)
        return;
    new_game(r);
    while (source_next(&src, &rec) > 0) {
        int stop = full_game(r, &rec);
        pmn_record_free(&rec);
        if (game_done(r, stop))
            break;
        new_game(r);
    }
    source_close(&src);
}

void archive_file(FILE *f, struct diag_sink *s, void *ctx)
{
    struct reading r = { .a = ctx, .sink = s };
    /* A part of a file (--jobs) is PMN: the file was looked at whole.  An
     * XML archive or another program's notation (found again by the
     * source, which says N133) is read whole; PMN takes the quick pass. */
    if (r.a->from >= FORMAT_OGN || r.a->from == FORMAT_XML)
        read_records(f, &r, r.a->from);
    else if (r.a->from == FORMAT_PMN || s->part
             || pmn_source_detect(f, s->file, NULL) == PMN_SOURCE_PMN)
        read_pmn(f, &r);
    else
        read_records(f, &r, FORMAT_AUTO);
}

/* ---- writing games ------------------------------------------------------ */

const char *const output_format_names[] = { "verbatim", "pmn", "xml", "list", "jsonl", NULL };

int output_begin(struct game_output *o)
{
    if (o->format == OUT_XML && !(o->xml = pmn_xml_writer_new(o->f)))
        return -1;
    return 0;
}

int output_end(struct game_output *o)
{
    if (o->xml && pmn_xml_writer_close(o->xml) < 0)
        o->failed = 1;
    o->xml = NULL;
    return o->failed ? -1 : 0;
}

static void list_line(FILE *f, const struct game *g)
{
    const char *south = game_tag(g, "South"), *north = game_tag(g, "North");
    const char *result = game_result(g);
    char how[160], buf[3][256];
    game_ending_text(g, how, sizeof how);
    fprintf(f, "%s:%llu: game %lu: %s - %s %s, %u move%s, %s", g->file, g->line, g->number,
            escaped(south ? south : "?", buf[0], sizeof buf[0]),
            escaped(north ? north : "?", buf[1], sizeof buf[1]), result ? result : "(no result)",
            g->facts.moves, g->facts.moves == 1 ? "" : "s", how);
    static const char *const more[] = { "Event", "Round", "Date" };
    const char *sep = "; ";
    for (int i = 0; i < 3; i++) {
        const char *v = game_tag(g, more[i]);
        if (v && strcmp(v, "?") != 0 && strcmp(v, "????.??.??") != 0) {
            fprintf(f, "%s%s", sep, escaped(v, buf[2], sizeof buf[2]));
            sep = ", ";
        }
    }
    fputc('\n', f);
}

void game_json(FILE *f, const struct game *g)
{
    char how[160];
    fputs("{\"type\":\"game\",\"file\":", f);
    json_string(f, g->file);
    fprintf(f, ",\"game\":%lu,\"line\":%llu,\"tags\":{", g->number, g->line);
    for (size_t i = 0; i < g->ntags; i++) {
        if (i)
            fputc(',', f);
        json_string(f, g->tags[i].name);
        fputc(':', f);
        json_string(f, g->tags[i].value);
    }
    fputs("},\"result\":", f);
    json_or_null(f, game_result(g));
    fprintf(f, ",\"rules\":\"%s\",\"moves\":%u,\"state\":\"%s\",\"outcome\":", g->rules,
            g->facts.moves, game_state_name(g->state));
    int ended = g->state == GAME_ENDED;
    if (ended)
        game_ending_text(g, how, sizeof how);
    json_or_null(f, ended ? pmn_outcome_string(g->facts.outcome) : NULL);
    fputs(",\"ending\":", f);
    json_or_null(f, ended ? how : NULL);
    fprintf(f, ",\"captured\":[%u,%u],\"errors\":%u,\"warnings\":%u,\"notes\":%u}\n",
            (unsigned)g->facts.captured[0], (unsigned)g->facts.captured[1],
            g->count[PMN_ERROR] + g->count[PMN_FATAL], g->count[PMN_WARNING],
            g->count[PMN_NOTE]);
}

int output_game(struct game_output *o, const struct game *g)
{
    FILE *f = o->f;
    int rc = 0;
    switch (o->format) {
    case OUT_VERBATIM:
        if (g->text) {
            if (o->games)
                fputc('\n', f);
            rc = fwrite(g->text, 1, g->len, f) == g->len && fputc('\n', f) != EOF ? 0 : -1;
            break;
        }
        /* A game of an XML archive has no text but its PMN: */
        /* fall through */
    case OUT_PMN:
        if (o->games)
            fputc('\n', f);
        rc = pmn_write_record(f, g->rec, g->replay, &o->wo);
        break;
    case OUT_XML:
        rc = pmn_xml_write_game(o->xml, g->rec, g->replay, print_diag, g->sink);
        break;
    case OUT_LIST:
        list_line(f, g);
        break;
    case OUT_JSONL:
        game_json(f, g);
        break;
    }
    o->games++;
    if (rc < 0 || ferror(f))
        o->failed = 1;
    return o->failed ? -1 : 0;
}

/* ---- one game's identity, for duplicates ------------------------------- */


/* The rules and the start as text, each ended by a NUL, into buf (room
 * for 1024): its length.  A game of the quick pass is Hawalis from its
 * opening, with the rules' defaults (the pass takes no other). */
size_t game_start_text(const struct game *g, char buf[1024])
{
    pmn_rules r;
    pmn_position start;
    const pmn_rules *rules = &r;
    const pmn_position *at = &start;
    if (g->replay) {
        rules = &pmn_replay_setup(g->replay)->rules;
        at = &pmn_replay_result(g->replay)->start;
    } else if (pmn_rules_init(&r, NULL, NULL) == 0) {
        pmn_position_start(&r, &start);
    } else {
        buf[0] = buf[1] = '\0';
        return 2;
    }
    pmn_rules_format(rules, buf, 512);
    size_t n = strnlen(buf, 511) + 1;
    buf[n - 1] = '\0';
    pmn_position_format(rules, at, buf + n, 512);
    size_t m = strnlen(buf + n, 511) + 1;
    buf[n + m - 1] = '\0';
    return n + m;
}

uint64_t game_hash_start(const char *start, size_t n)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (size_t i = 0; i < n; i++)
        if (start[i])
            h = game_hash_ply(h, (unsigned char)start[i]);
    return h;
}
