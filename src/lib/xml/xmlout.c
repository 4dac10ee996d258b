/* xmlout.c - games as an XML archive, written as libxml2's streaming writer
 * (xmlTextWriter, indenting) writes them, byte for byte, but straight to the
 * stream: that writer's buffer was four fifths of pmn export's time. */
#include "pmn.h"
#include "../base/util.h"
#include "xmlutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The depth of elements: a game's own nesting (variations two levels each,
 * at most 100 deep: the parser's limit) and a few more. */
#define MAX_XML_DEPTH 256

struct pmn_xml_writer {
    FILE *f;
    int err;
    int write_errno;          /* errno of the first failure */
    /* the elements open, as xmlTextWriter with indentation writes them: */
    const char *open[MAX_XML_DEPTH];
    unsigned char content[MAX_XML_DEPTH];   /* 0 none yet, 'e' elements, 't' text */
    int depth;
    int in_tag;               /* the start tag of open[depth - 1] is not yet closed */
    int part;                 /* games alone (pmn_xml_writer_new_part) */
    /* while writing a game: */
    const pmn_rules *rules;
    unsigned replaced;
    /* what is written, held: a write a piece would cost more than the piece */
    size_t n;
    char buf[1 << 16];
};

/* XML 1.0 takes only valid UTF-8, and no control characters but tab and
 * line ends: anything else becomes U+FFFD, and the caller is told. */
static char *xml_safe(const char *s, unsigned *replaced)
{
    size_t n = strlen(s);
    char *out = malloc(3 * n + 1), *o = out;
    const unsigned char *p = (const unsigned char *)s;
    if (!out)
        return NULL;
    while (*p) {
        int len = util_utf8_length(p);
        int ok = len > 0;
        if (ok && len == 1)
            ok = *p >= 0x20 || *p == '\t' || *p == '\n' || *p == '\r';
        if (ok && len == 3)
            ok = !(*p == 0xEF && p[1] == 0xBF && p[2] >= 0xBE);   /* no U+FFFE, U+FFFF */
        if (ok) {
            memcpy(o, p, (size_t)len);
            o += len;
            p += len;
        } else {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            p++;
            ++*replaced;
        }
    }
    *o = '\0';
    return out;
}

static void flush_out(pmn_xml_writer *w)
{
    if (w->n && fwrite(w->buf, 1, w->n, w->f) != w->n && !w->err++)
        w->write_errno = errno;
    w->n = 0;
}

static void put(pmn_xml_writer *w, const char *s, size_t n)
{
    if (w->n + n > sizeof w->buf) {
        flush_out(w);
        if (n > sizeof w->buf) {
            if (fwrite(s, 1, n, w->f) != n && !w->err++)
                w->write_errno = errno;
            return;
        }
    }
    memcpy(w->buf + w->n, s, n);
    w->n += n;
}

static void puts_(pmn_xml_writer *w, const char *s)
{
    put(w, s, strlen(s));
}

static void fail(pmn_xml_writer *w)
{
    if (!w->err++)
        w->write_errno = errno;
}

/* Text with XML's special characters escaped as libxml2 escapes them: in an
 * attribute '&', '<', '>', '"' and the white space characters tab, line
 * feed and carriage return (which a parser would otherwise normalise); in
 * content '&', '<', '>', '"' and carriage return. */
static void escaped(pmn_xml_writer *w, const char *s, int attribute)
{
    const char *run = s;
    for (; *s; s++) {
        const char *e;
        switch (*s) {
        case '&': e = "&amp;"; break;
        case '<': e = "&lt;"; break;
        case '>': e = "&gt;"; break;
        case '"': e = "&quot;"; break;
        case '\r': e = "&#13;"; break;
        case '\n': e = attribute ? "&#10;" : NULL; break;
        case '\t': e = attribute ? "&#9;" : NULL; break;
        default: e = NULL; break;
        }
        if (!e)
            continue;
        put(w, run, (size_t)(s - run));
        puts_(w, e);
        run = s + 1;
    }
    put(w, run, (size_t)(s - run));
}

static void close_tag(pmn_xml_writer *w)
{
    if (w->in_tag)
        puts_(w, ">");
    w->in_tag = 0;
}

static void start(pmn_xml_writer *w, const char *name)
{
    if (w->depth == MAX_XML_DEPTH) {
        errno = EOVERFLOW;
        fail(w);
        return;
    }
    close_tag(w);
    if (w->depth > 0) {
        w->content[w->depth - 1] = 'e';
        puts_(w, "\n");
        for (int i = 0; i < w->depth; i++)
            puts_(w, "  ");
    }
    puts_(w, "<");
    puts_(w, name);
    w->open[w->depth] = name;
    w->content[w->depth++] = 0;
    w->in_tag = 1;
}

static void end(pmn_xml_writer *w)
{
    if (w->depth == 0)
        return;
    const char *name = w->open[--w->depth];
    if (w->in_tag) {
        puts_(w, "/>");
        w->in_tag = 0;
        return;
    }
    if (w->content[w->depth] == 'e') {
        puts_(w, "\n");
        for (int i = 0; i < w->depth; i++)
            puts_(w, "  ");
    }
    puts_(w, "</");
    puts_(w, name);
    puts_(w, ">");
}

/* Printable ASCII with nothing to escape? */
static int plain(const char *s)
{
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7E || *s == '&' || *s == '<' || *s == '>' || *s == '"')
            return 0;
    return 1;
}

/* A value, as an attribute's or as content: what XML cannot hold made
 * safe, then escaped; printable ASCII with nothing to escape, as most values
 * are, written as it is. */
static void value(pmn_xml_writer *w, const char *s, int attribute)
{
    if (plain(s)) {
        puts_(w, s);
        return;
    }
    char *v = xml_safe(s, &w->replaced);
    if (!v) {
        fail(w);
        return;
    }
    escaped(w, v, attribute);
    free(v);
}

static void attr(pmn_xml_writer *w, const char *name, const char *v)
{
    puts_(w, " ");
    puts_(w, name);
    puts_(w, "=\"");
    value(w, v, 1);
    puts_(w, "\"");
}

static void attr_u(pmn_xml_writer *w, const char *name, unsigned long long v)
{
    char buf[PMN_DIGITS];
    attr(w, name, util_digits(buf, v));
}

/* Text content of the element open. */
static void text(pmn_xml_writer *w, const char *s)
{
    close_tag(w);
    if (w->depth > 0)
        w->content[w->depth - 1] = 't';
    value(w, s, 0);
}

static void text_element(pmn_xml_writer *w, const char *name, const char *s)
{
    start(w, name);
    text(w, s);
    end(w);
}

static const char *const side_name[2] = { "south", "north" };
static const char *const ending_name[] = {
    "", "no-seeds", "no-move", "endless", "repetition", "majority", "last-seeds"
};

static void endless_attrs(pmn_xml_writer *w, const pmn_move_report *r)
{
    attr_u(w, "loop-lap", r->loop_lap);
    attr_u(w, "loop-from", r->loop_from);
    attr_u(w, "rotated-lap", r->rotated_lap);
    attr_u(w, "rotated-from", r->rotated_from);
}

static void computed_move(pmn_xml_writer *w, const pmn_move_report *r)
{
    char end_hole[2] = { 0, 0 };
    start(w, "computed");
    if (r->ending == PMN_END_ENDLESS) {
        endless_attrs(w, r);
    } else {
        attr_u(w, "captured", r->captured);
        if (r->given)
            attr_u(w, "given", r->given);
        if (r->stored)
            attr_u(w, "stored", r->stored);
        attr_u(w, "laps", r->laps);
        end_hole[0] = pmn_hole_letter(r->end_side, r->end_hole);
        attr(w, "end", r->end_hole < 0 ? "store" : end_hole);
        if (r->extra)
            attr(w, "extra", "yes");
        if (r->passed)
            attr(w, "passed", "yes");
    }
    if (r->ending != PMN_END_NONE) {
        attr(w, "ending", ending_name[r->ending]);
        attr(w, "outcome", pmn_outcome_string(r->outcome));
    }
    end(w);
}

/* The walk's visitor.  move -> claim? judgement? nag* comment* variation*
 * computed?: a move's element holds its variations, each a line. */
static int xml_move_in(void *ctx, pmn_walk_node *n)
{
    pmn_xml_writer *w = ctx;
    const pmn_move *m = n->move;
    const pmn_played *pl = n->played;
    char buf[16];
    start(w, "move");
    /* Letters read from another notation (OGN's and Awari's: South upper
     * case) are written as PMN's, which the text of a letter is. */
    if (m->notation == PMN_NOTATION_LETTERS && pl->side >= 0 && m->hole >= 0
        && (unsigned)m->hole < w->rules->pits) {
        buf[0] = pmn_hole_letter(pl->side, m->hole);
        buf[1] = '\0';
        attr(w, "text", buf);
    } else {
        attr(w, "text", m->text);
    }
    attr(w, "notation", pmn_notation_name(m->notation));
    if (pl->side >= 0)
        attr(w, "side", side_name[pl->side]);
    if (pl->side >= 0 && m->hole >= 0 && (unsigned)m->hole < w->rules->pits) {
        buf[0] = pmn_hole_letter(pl->side, m->hole);
        buf[1] = '\0';
        attr(w, "hole", buf);
    }
    if (m->joined)
        attr(w, "joined", "yes");
    if (m->number) {
        attr_u(w, "number", m->number);
        attr_u(w, "dots", m->number_dots);
    }
    if (m->claim >= 0) {
        start(w, "claim");
        buf[0] = m->claim_style == 'x' ? 'x' : '+';
        buf[1] = '\0';
        attr(w, "style", buf);
        attr_u(w, "seeds", (unsigned)m->claim);
        end(w);
    }
    if (m->judgement[0])
        text_element(w, "judgement", m->judgement);
    for (unsigned i = 0; i < m->nnags; i++) {
        snprintf(buf, sizeof buf, "%u", m->nags[i]);
        text_element(w, "nag", buf);
    }
    for (size_t i = 0; i < m->ncomments; i++)
        text_element(w, "comment", m->comments[i]);
    return PMN_WALK_CONTINUE;
}

static int xml_move_out(void *ctx, const pmn_walk_node *n)
{
    pmn_xml_writer *w = ctx;
    if (n->played->replayed)
        computed_move(w, &n->played->report);
    end(w);
    return PMN_WALK_CONTINUE;
}

/* moves | variation -> comment* move*: the main line in <moves>, which
 * the game opened. */
static int xml_line_in(void *ctx, const pmn_walk_line *l)
{
    pmn_xml_writer *w = ctx;
    if (l->depth)
        start(w, "variation");
    for (size_t i = 0; i < l->line->nlead; i++)
        text_element(w, "comment", l->line->lead[i]);
    return PMN_WALK_CONTINUE;
}

static int xml_line_out(void *ctx, const pmn_walk_line *l)
{
    end(ctx);
    (void)l;
    return PMN_WALK_CONTINUE;
}

pmn_xml_writer *pmn_xml_writer_new(FILE *out)
{
    pmn_xml_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = out;
    puts_(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    start(w, "pmn");
    attr(w, "version", "1");
    attr(w, "xmlns", PMN_XML_NS);
    return w;
}

pmn_xml_writer *pmn_xml_writer_new_part(FILE *out)
{
    pmn_xml_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = out;
    w->part = 1;
    /* As inside the archive's root, whose start tag its writer closes. */
    w->open[0] = "pmn";
    w->depth = 1;
    return w;
}

int pmn_xml_writer_add_part(pmn_xml_writer *w, const char *text, size_t len)
{
    if (!len)
        return 0;
    close_tag(w);
    w->content[w->depth - 1] = 'e';
    flush_out(w);
    if (fwrite(text, 1, len, w->f) != len && !w->err++)
        w->write_errno = errno;
    return w->err ? -1 : 0;
}

/* How far the replay went, in the words of the schema. */
static const char *replayed_how(const pmn_check_result *res)
{
    switch (res->setup) {
    case PMN_SETUP_UNKNOWN_RULES: return "unknown-rules";
    case PMN_SETUP_NO_START: return "unknown-start";
    case PMN_SETUP_BAD_START: return "stopped";
    default: return res->stopped ? "stopped" : "all";
    }
}

/* game -> tag* computed? moves result? computed */
static int xml_game_in(void *ctx, const pmn_record *rec, const pmn_replay *replay)
{
    pmn_xml_writer *w = ctx;
    const pmn_check_result *res = pmn_replay_result(replay);
    const pmn_rules *rules = &pmn_replay_setup(replay)->rules;
    char buf[256];
    w->rules = rules;
    start(w, "game");
    if (rec->line)
        attr_u(w, "line", rec->line);
    for (size_t i = 0; i < rec->ntags; i++) {
        start(w, "tag");
        attr(w, "name", rec->tags[i].name);
        text(w, rec->tags[i].value);
        end(w);
    }
    if (res->setup == PMN_SETUP_READY) {
        start(w, "computed");
        pmn_position_format(rules, &res->start, buf, sizeof buf);
        attr(w, "start", buf);
        pmn_rules_format(rules, buf, sizeof buf);
        attr(w, "rules", buf);
        end(w);
    }
    start(w, "moves");
    return PMN_WALK_CONTINUE;
}

static int xml_game_out(void *ctx, const pmn_record *rec, const pmn_replay *replay)
{
    pmn_xml_writer *w = ctx;
    const pmn_check_result *res = pmn_replay_result(replay);
    if (rec->result[0]) {
        start(w, "result");
        attr(w, "token", rec->result);
        end(w);
    }
    start(w, "computed");
    attr_u(w, "plies", res->plies);
    attr(w, "replayed", replayed_how(res));
    attr_u(w, "captured-south", res->captured[PMN_SOUTH]);
    attr_u(w, "captured-north", res->captured[PMN_NORTH]);
    if (res->ending != PMN_END_NONE) {
        attr(w, "ending", ending_name[res->ending]);
        attr(w, "outcome", pmn_outcome_string(res->outcome));
        if (res->ending == PMN_END_ENDLESS)
            endless_attrs(w, &res->last);
    }
    end(w);
    end(w);
    flush_out(w);   /* a game at a time reaches the stream */
    if (ferror(w->f))
        fail(w);
    return PMN_WALK_CONTINUE;
}

static int write_game(pmn_xml_writer *w, const pmn_record *rec, const pmn_replay *replay,
                      pmn_diag_fn fn, void *ctx)
{
    static const pmn_walker xml_writer = {
        xml_game_in, xml_line_in, xml_move_in,
        xml_move_out, xml_line_out, xml_game_out, 1, 0, 0
    };
    w->replaced = 0;
    if (pmn_walk(rec, replay, &xml_writer, w) < 0)
        return -1;
    if (w->replaced)
        diag_report(fn, ctx, PMN_W301, rec->line, rec->col,
                    "%u byte%s that XML cannot hold (not UTF-8, or a control character) "
                    "written as U+FFFD", w->replaced, w->replaced == 1 ? "" : "s");
    return w->err ? -1 : 0;
}

int pmn_xml_write_game(pmn_xml_writer *w, const pmn_record *rec, const pmn_replay *replay,
                       pmn_diag_fn fn, void *ctx)
{
    int rc = write_game(w, rec, replay, fn, ctx);
    if (rc < 0)
        errno = w->write_errno;
    return rc;
}

int pmn_xml_writer_close(pmn_xml_writer *w)
{
    if (!w)
        return -1;
    if (w->part) {   /* its games were flushed as each was written */
        int err = w->err;
        free(w);
        return err ? -1 : 0;
    }
    while (w->depth > 0)
        end(w);
    puts_(w, "\n");
    flush_out(w);
    if (fflush(w->f) != 0 || ferror(w->f))
        fail(w);
    int err = w->err, e = w->write_errno;
    free(w);
    if (err)
        errno = e;
    return err ? -1 : 0;
}
