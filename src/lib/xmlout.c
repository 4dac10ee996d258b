/* xmlout.c - games as an XML archive, with libxml2's streaming writer. */
#include "pmn.h"
#include "util.h"

#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>

/* What the engine said of each move, found again by the move's address. */
struct fact {
    const pmn_move *m;
    pmn_move_report rep;
};

struct pmn_xml_writer {
    xmlTextWriterPtr w;
    int err;
    struct fact *facts;       /* open addressing, a power of two long */
    size_t nfacts, cap;
    /* while writing a game: */
    const pmn_rules *rules;
    pmn_diag_fn fn;
    void *ctx;
    unsigned game_line, replaced;
};

static size_t slot(const struct fact *t, size_t cap, const pmn_move *m)
{
    size_t h = ((uintptr_t)m >> 4) * 0x9E3779B97F4A7C15ULL;
    size_t i = h & (cap - 1);
    while (t[i].m && t[i].m != m)
        i = (i + 1) & (cap - 1);
    return i;
}

static int remember(pmn_xml_writer *w, const pmn_move *m, const pmn_move_report *rep)
{
    if (2 * (w->nfacts + 1) > w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 256;
        struct fact *t = calloc(cap, sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < w->cap; i++)
            if (w->facts[i].m)
                t[slot(t, cap, w->facts[i].m)] = w->facts[i];
        free(w->facts);
        w->facts = t;
        w->cap = cap;
    }
    size_t i = slot(w->facts, w->cap, m);
    if (!w->facts[i].m)
        w->nfacts++;
    w->facts[i].m = m;
    w->facts[i].rep = *rep;
    return 0;
}

static const pmn_move_report *fact_of(const pmn_xml_writer *w, const pmn_move *m)
{
    if (!w->cap)
        return NULL;
    size_t i = slot(w->facts, w->cap, m);
    return w->facts[i].m ? &w->facts[i].rep : NULL;
}

static void visit(void *ctx, const pmn_move *m, unsigned ply, int depth,
                  const pmn_move_report *rep, const pmn_position *after)
{
    pmn_xml_writer *w = ctx;
    (void)ply;
    (void)depth;
    (void)after;
    if (remember(w, m, rep) < 0)
        w->err = 1;
}

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
        int len = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3
                : (*p & 0xF8) == 0xF0 ? 4 : 0;
        int ok = len > 0;
        for (int i = 1; ok && i < len; i++)
            ok = (p[i] & 0xC0) == 0x80;
        if (ok && len == 1)
            ok = *p >= 0x20 || *p == '\t' || *p == '\n' || *p == '\r';
        if (ok && len == 2)
            ok = *p >= 0xC2;                                  /* no overlong forms */
        if (ok && len == 3)
            ok = !(*p == 0xE0 && p[1] < 0xA0) && !(*p == 0xED && p[1] >= 0xA0)
              && !(*p == 0xEF && p[1] == 0xBF && p[2] >= 0xBE);   /* no surrogates, FFFE/F */
        if (ok && len == 4)
            ok = !(*p == 0xF0 && p[1] < 0x90) && !(*p > 0xF4 || (*p == 0xF4 && p[1] >= 0x90));
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

static void check(pmn_xml_writer *w, int rc)
{
    if (rc < 0)
        w->err = 1;
}

static void start(pmn_xml_writer *w, const char *name)
{
    check(w, xmlTextWriterStartElement(w->w, BAD_CAST name));
}

static void end(pmn_xml_writer *w)
{
    check(w, xmlTextWriterEndElement(w->w));
}

static void attr(pmn_xml_writer *w, const char *name, const char *value)
{
    char *v = xml_safe(value, &w->replaced);
    if (!v) {
        w->err = 1;
        return;
    }
    check(w, xmlTextWriterWriteAttribute(w->w, BAD_CAST name, BAD_CAST v));
    free(v);
}

static void attr_u(pmn_xml_writer *w, const char *name, unsigned long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", v);
    attr(w, name, buf);
}

static void text_element(pmn_xml_writer *w, const char *name, const char *text)
{
    char *v = xml_safe(text, &w->replaced);
    if (!v) {
        w->err = 1;
        return;
    }
    check(w, xmlTextWriterWriteElement(w->w, BAD_CAST name, BAD_CAST v));
    free(v);
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

static void write_line(pmn_xml_writer *w, const pmn_line *l);

static void write_move(pmn_xml_writer *w, const pmn_move *m)
{
    char buf[16];
    start(w, "move");
    attr(w, "text", m->text);
    attr(w, "notation", pmn_notation_name(m->notation));
    if (m->side >= 0)
        attr(w, "side", side_name[m->side]);
    if (m->side >= 0 && m->hole >= 0 && (unsigned)m->hole < w->rules->pits) {
        buf[0] = pmn_hole_letter(m->side, m->hole);
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
    for (size_t i = 0; i < m->nvariations; i++) {
        start(w, "variation");
        write_line(w, &m->variations[i]);
        end(w);
    }
    const pmn_move_report *r = fact_of(w, m);
    if (r)
        computed_move(w, r);
    end(w);
}

static void write_line(pmn_xml_writer *w, const pmn_line *l)
{
    for (size_t i = 0; i < l->nlead; i++)
        text_element(w, "comment", l->lead[i]);
    for (size_t i = 0; i < l->nmoves; i++)
        write_move(w, &l->moves[i]);
}

pmn_xml_writer *pmn_xml_writer_new(FILE *out)
{
    pmn_xml_writer *w = calloc(1, sizeof *w);
    xmlOutputBufferPtr buf = w ? xmlOutputBufferCreateFile(out, NULL) : NULL;
    if (!buf) {
        free(w);
        return NULL;
    }
    w->w = xmlNewTextWriter(buf);     /* owns buf from here on */
    if (!w->w) {
        xmlOutputBufferClose(buf);
        free(w);
        return NULL;
    }
    xmlTextWriterSetIndent(w->w, 1);
    xmlTextWriterSetIndentString(w->w, BAD_CAST "  ");
    check(w, xmlTextWriterStartDocument(w->w, NULL, "UTF-8", NULL));
    check(w, xmlTextWriterStartElementNS(w->w, NULL, BAD_CAST "pmn", BAD_CAST PMN_XML_NS));
    attr(w, "version", "1");
    return w;
}

int pmn_xml_write_game(pmn_xml_writer *w, const pmn_record *rec, const pmn_rules *rules,
                       pmn_diag_fn fn, void *ctx)
{
    pmn_check_result res;
    pmn_rules fallback;
    char buf[256];
    int replayed = rules != NULL;

    memset(&res, 0, sizeof res);
    w->nfacts = 0;
    if (w->cap)
        memset(w->facts, 0, w->cap * sizeof *w->facts);
    w->replaced = 0;
    if (!rules) {
        pmn_rules_init(&fallback, NULL, NULL);
        rules = &fallback;
    }
    w->rules = rules;
    if (replayed)
        pmn_check_record_visit(rec, rules, fn, ctx, visit, w, &res);
    int known = replayed ? res.start_status : -1;

    start(w, "game");
    if (rec->line)
        attr_u(w, "line", rec->line);
    for (size_t i = 0; i < rec->ntags; i++) {
        start(w, "tag");
        attr(w, "name", rec->tags[i].name);
        char *v = xml_safe(rec->tags[i].value, &w->replaced);
        if (v)
            check(w, xmlTextWriterWriteString(w->w, BAD_CAST v));
        free(v);
        end(w);
    }
    if (known == 0) {
        start(w, "computed");
        pmn_position_format(rules, &res.start, buf, sizeof buf);
        attr(w, "start", buf);
        pmn_rules_format(rules, buf, sizeof buf);
        attr(w, "rules", buf);
        end(w);
    }
    start(w, "moves");
    write_line(w, &rec->main);
    end(w);
    if (rec->result[0]) {
        start(w, "result");
        attr(w, "token", rec->result);
        end(w);
    }
    start(w, "computed");
    attr_u(w, "plies", res.plies);
    attr(w, "replayed", !replayed ? "unknown-rules" : known > 0 ? "unknown-start"
                        : known < 0 || res.unchecked || res.plies < rec->main.nmoves ? "stopped"
                        : "all");
    attr_u(w, "captured-south", res.captured[PMN_SOUTH]);
    attr_u(w, "captured-north", res.captured[PMN_NORTH]);
    if (res.ending != PMN_END_NONE) {
        attr(w, "ending", ending_name[res.ending]);
        attr(w, "outcome", pmn_outcome_string(res.outcome));
        if (res.ending == PMN_END_ENDLESS)
            endless_attrs(w, &res.last);
    }
    end(w);
    end(w);
    check(w, xmlTextWriterFlush(w->w));
    if (w->replaced)
        pmn_report(fn, ctx, 301, rec->line, rec->col,
                   "%u byte%s that XML cannot hold (not UTF-8, or a control character) "
                   "written as U+FFFD", w->replaced, w->replaced == 1 ? "" : "s");
    return w->err ? -1 : 0;
}

int pmn_xml_writer_close(pmn_xml_writer *w)
{
    if (!w)
        return -1;
    check(w, xmlTextWriterEndDocument(w->w));
    check(w, xmlTextWriterFlush(w->w));
    xmlFreeTextWriter(w->w);
    int err = w->err;
    free(w->facts);
    free(w);
    return err ? -1 : 0;
}
