/* xmlin.c - games from an XML archive, with libxml2's streaming reader.
 *
 * Safe reading: no network (XML_PARSE_NONET), no external DTD, no entity
 * substitution, no XInclude.  A document type declaration is refused before
 * libxml2 sees it (the input is cut there), since libxml2 expands parameter
 * entities while it parses a DTD: no entity can be declared, let alone
 * expanded.  The scan for it reads what libxml2 parses: the text converted
 * to UTF-8, whatever its encoding (xmlutil_decoder).  libxml2's own limits
 * bound the depth of elements (256) and the size of a text node. */
#include "pmn.h"
#include "../records/record.h"
#include "../base/util.h"
#include "xmlutil.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libxml2's messages about one archive, at most: the rest are counted. */
#define MAX_XML_ERRORS 20

/* The attributes that attributes() takes at once, at most. */
#define MAX_ATTRIBUTES 8

struct pmn_xml_reader {
    xmlTextReaderPtr r;
    xmlRelaxNGPtr schema;
    pmn_diag_fn fn;
    void *ctx;
    int started;              /* the <pmn> element has been seen */
    int failed;
    unsigned errors;          /* libxml2 errors seen */
    /* the input, watched until its root element begins: */
    FILE *in;
    int in_prolog;
    char tail[16];            /* the last block's bytes not yet scanned (at most 8) */
    size_t ntail;
    enum { PROLOG_OPEN, PROLOG_COMMENT, PROLOG_PI } prolog_skip;   /* inside what */
    int doctype;              /* a <!DOCTYPE was found, and the input cut */
    int broken;               /* libxml2 found the XML malformed: read no further */
    pmn_at prolog_line;       /* the line the scan has reached */
    int decided;              /* the encoding is known */
    int stopped;              /* the input was refused or failed (reported) */
    struct xmlutil_decoder dec;
    size_t utf8_off;          /* converted text handed out so far */
    const xmlChar *ns;        /* PMN_XML_NS in the reader's dictionary, or NULL */
    xmlChar *copied[MAX_ATTRIBUTES];   /* attributes() */
};

/* The line of the current node.  (The parser's own position runs ahead of
 * the reader, and libxml2 keeps no column for a node: structure errors
 * give the line alone, well-formedness errors libxml2's line and column.) */
static unsigned line_of(pmn_xml_reader *x)
{
    xmlNodePtr n = xmlTextReaderCurrentNode(x->r);
    long line = n ? xmlGetLineNo(n) : -1;
    return line > 0 ? (unsigned)line : (unsigned)xmlTextReaderGetParserLineNumber(x->r);
}

/* libxml2's complaints: well-formedness (E302) or validity (E307). */
static void xml_error(void *arg, xmlErrorPtr e)
{
    pmn_xml_reader *x = arg;
    char msg[300];
    xmlutil_message(e, msg, sizeof msg);
    if (e->domain != XML_FROM_RELAXNGV)
        x->broken = 1;
    if (x->doctype || x->stopped || ++x->errors > MAX_XML_ERRORS)
        return;
    if (x->errors == MAX_XML_ERRORS) {
        diag_report(x->fn, x->ctx, PMN_E302, (unsigned)e->line, (unsigned)e->int2,
                    "malformed XML: more errors than %d: the rest are not shown", MAX_XML_ERRORS);
        return;
    }
    if (e->domain == XML_FROM_RELAXNGV)
        diag_report(x->fn, x->ctx, PMN_E307, (unsigned)e->line, (unsigned)e->int2,
                    "does not match the archive schema: %s", msg);
    else
        diag_report(x->fn, x->ctx, PMN_E302, (unsigned)e->line, (unsigned)e->int2,
                    "malformed XML: %s", msg);
}

/* Scan what precedes the root element for "<!DOCTYPE"; the prolog ends at
 * the first '<' that opens an element, outside comments and processing
 * instructions (a "<a" in a comment of the prolog ends nothing).  A byte
 * is looked at once the 8 after it are there, so that a token is seen
 * whole across blocks: up to 8 bytes wait in tail for the next block. */
static void watch_prolog(pmn_xml_reader *x, const char *buf, size_t n)
{
    char window[16 + 4096];
    size_t done = 0;
    while (x->in_prolog && done < n) {
        size_t take = n - done < 4096 ? n - done : 4096;
        memcpy(window, x->tail, x->ntail);
        memcpy(window + x->ntail, buf + done, take);
        size_t len = x->ntail + take, i = 0;
        done += take;
        for (; len - i >= 9; i++) {
            const char *w = window + i;
            if (*w == '\n')
                x->prolog_line++;
            if (x->prolog_skip == PROLOG_COMMENT) {
                if (memcmp(w, "-->", 3) == 0) {
                    x->prolog_skip = PROLOG_OPEN;
                    i += 2;
                }
                continue;
            }
            if (x->prolog_skip == PROLOG_PI) {
                if (memcmp(w, "?>", 2) == 0) {
                    x->prolog_skip = PROLOG_OPEN;
                    i += 1;
                }
                continue;
            }
            if (*w != '<')
                continue;
            if (memcmp(w, "<!DOCTYPE", 9) == 0) {
                x->doctype = 1;
                return;
            }
            if (memcmp(w, "<!--", 4) == 0) {
                x->prolog_skip = PROLOG_COMMENT;
                i += 3;
                continue;
            }
            if (w[1] == '?') {
                x->prolog_skip = PROLOG_PI;
                i += 1;
                continue;
            }
            char c = w[1];
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':') {
                x->in_prolog = 0;
                return;
            }
        }
        /* The bytes not yet looked at: fewer than 9. */
        assert(len - i <= 8);
        x->ntail = len - i;
        memmove(x->tail, window + i, x->ntail);
    }
}

/* What libxml2 is given is scanned first. */
static int deliver(pmn_xml_reader *x, const char *buf, size_t n)
{
    if (x->in_prolog) {
        watch_prolog(x, buf, n);
        if (x->doctype)
            return -1;   /* not one byte of the DTD reaches libxml2 */
    }
    return (int)n;
}

static int stop(pmn_xml_reader *x, pmn_diag_code code, const char *why)
{
    diag_report(x->fn, x->ctx, code, code == PMN_E302 ? 1 : 0, 0, "%s", why);
    x->stopped = 1;
    return -1;
}

/* Bytes of the file: how many, 0 at its end, -1 on a read error. */
static long read_raw(pmn_xml_reader *x, char *buf, size_t len)
{
    size_t n = fread(buf, 1, len, x->in);
    if (n == 0 && ferror(x->in)) {
        char why[200];
        snprintf(why, sizeof why, "cannot read: %s", strerror(errno ? errno : EIO));
        return stop(x, PMN_F001, why);
    }
    return (long)n;
}

/* The first bytes tell the encoding (libxml2 may ask for as few as four at
 * first: the head is read whole); text not in UTF-8 is converted.  What is
 * ready waits in dec.utf8. */
static int read_input(void *ctx, char *buf, int len)
{
    pmn_xml_reader *x = ctx;
    char why[200];
    long n;
    if (x->doctype || x->stopped)
        return -1;
    if (!x->decided) {
        char head[512];
        size_t got = 0;
        while (got < sizeof head) {
            if ((n = read_raw(x, head + got, sizeof head - got)) < 0)
                return -1;
            if (n == 0)
                break;
            got += (size_t)n;
        }
        if (got == 0)
            return stop(x, PMN_F001, "an empty file: no XML archive");
        x->decided = 1;
        int rc = xmlutil_decoder_start(&x->dec, head, got, why, sizeof why);
        if (rc == 0)
            rc = xmlutil_decoder_feed(&x->dec, head, got, why, sizeof why);
        if (rc < 0)
            return stop(x, rc == PMN_ERR_NOMEM ? PMN_F002 : PMN_E302, why);
    }
    while ((size_t)xmlBufferLength(x->dec.utf8) == x->utf8_off) {
        char raw[4096];
        if (!x->dec.handler) {   /* UTF-8 from here on: straight through */
            if ((n = read_raw(x, buf, (size_t)len)) <= 0)
                return (int)n;
            return deliver(x, buf, (size_t)n);
        }
        xmlBufferEmpty(x->dec.utf8);
        x->utf8_off = 0;
        if ((n = read_raw(x, raw, sizeof raw)) < 0)
            return -1;
        if (n == 0)
            return xmlutil_decoder_finish(&x->dec, why, sizeof why) < 0
                 ? stop(x, PMN_E302, why) : 0;
        int rc = xmlutil_decoder_feed(&x->dec, raw, (size_t)n, why, sizeof why);
        if (rc < 0)
            return stop(x, rc == PMN_ERR_NOMEM ? PMN_F002 : PMN_E302, why);
    }
    size_t take = (size_t)xmlBufferLength(x->dec.utf8) - x->utf8_off;
    if (take > (size_t)len)
        take = (size_t)len;
    memcpy(buf, xmlBufferContent(x->dec.utf8) + x->utf8_off, take);
    x->utf8_off += take;
    return deliver(x, buf, take);
}

pmn_xml_reader *pmn_xml_reader_new(FILE *in, const char *name, int validate,
                                   pmn_diag_fn fn, void *ctx)
{
    if (xmlutil_init() < 0) {
        diag_report(fn, ctx, PMN_F001, 0, 0, "%s", xmlutil_load_error());
        return NULL;
    }
    pmn_xml_reader *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->fn = fn;
    x->ctx = ctx;
    x->in = in;
    x->in_prolog = 1;
    x->prolog_line = 1;
    /* read_input hands libxml2 UTF-8 whatever the file's encoding, and
     * XML_PARSE_IGNORE_ENC makes it ignore the declaration: naming no
     * encoding here spares it a pass of UTF-8 to UTF-8 over every byte. */
    x->r = xmlReaderForIO(read_input, NULL, x, name, NULL, PMN_XML_PARSE_OPTIONS);
    if (!x->r) {
        free(x);
        return NULL;
    }
    xmlTextReaderSetStructuredErrorHandler(x->r, xml_error, x);
    x->ns = xmlTextReaderConstString(x->r, BAD_CAST PMN_XML_NS);
    if (validate) {
        x->schema = xmlutil_relaxng_compile(pmn_xml_schema());
        if (!x->schema || xmlTextReaderRelaxNGSetSchema(x->r, x->schema) != 0) {
            pmn_xml_reader_free(x);
            return NULL;
        }
    }
    return x;
}

void pmn_xml_reader_free(pmn_xml_reader *x)
{
    if (!x)
        return;
    xmlFreeTextReader(x->r);
    xmlRelaxNGFree(x->schema);
    for (int i = 0; i < MAX_ATTRIBUTES; i++)
        xmlFree(x->copied[i]);
    xmlutil_decoder_end(&x->dec);
    free(x);
}

/* Move to the next node; 0 at the end, -1 on an error (reported). */
static void refuse_doctype(pmn_xml_reader *x)
{
    diag_report(x->fn, x->ctx, PMN_E303, x->prolog_line, 0,
                "a document type declaration (<!DOCTYPE): archives have none, and pmn "
                "reads no DTD or entity");
}

static int next(pmn_xml_reader *x)
{
    /* After a well-formedness error libxml2 may go on handing out nodes
     * (it does when validating); nothing after it can be trusted. */
    int rc = x->broken ? -1 : xmlTextReaderRead(x->r);
    if (x->broken && rc >= 0)
        rc = -1;
    if (rc < 0 && x->doctype) {
        if (!x->failed)
            refuse_doctype(x);
        x->failed = 1;
    } else if (rc < 0 && x->stopped) {
        x->failed = 1;
    } else if (rc < 0) {
        if (!x->errors)
            diag_report(x->fn, x->ctx, PMN_E302, line_of(x), 0, "malformed XML");
        x->failed = 1;
    }
    return rc;
}

static int type_of(pmn_xml_reader *x)
{
    return xmlTextReaderNodeType(x->r);
}

/* The local name of the current element when it is of PMN's namespace,
 * else "": a loop over children asks once, then compares. */
static const char *pmn_name(pmn_xml_reader *x)
{
    const xmlChar *n = xmlTextReaderConstLocalName(x->r);
    const xmlChar *ns = n ? xmlTextReaderConstNamespaceUri(x->r) : NULL;
    return ns && (ns == x->ns || strcmp((const char *)ns, PMN_XML_NS) == 0) ? (const char *)n : "";
}

static int is(pmn_xml_reader *x, const char *name)
{
    const xmlChar *n = xmlTextReaderConstLocalName(x->r);
    if (!n || strcmp((const char *)n, name) != 0)
        return 0;
    /* The parser keeps names in the reader's dictionary: the namespace is
     * most often that very string. */
    const xmlChar *ns = xmlTextReaderConstNamespaceUri(x->r);
    return ns && (ns == x->ns || strcmp((const char *)ns, PMN_XML_NS) == 0);
}

static int skip_element(pmn_xml_reader *x)
{
    int rc = xmlTextReaderNext(x->r);
    if (rc < 0)
        x->failed = 1;
    return rc;
}

/* Structure errors share libxml2's cap: a hostile archive can hold many. */
static int too_many(pmn_xml_reader *x)
{
    return ++x->errors > MAX_XML_ERRORS;
}

/* Is the reader still inside the element that began at `depth`?  It must
 * meet that element's end before any node at its depth or above. */
static int inside(pmn_xml_reader *x, int depth)
{
    if (xmlTextReaderDepth(x->r) > depth)
        return 1;
    if (type_of(x) != XML_READER_TYPE_END_ELEMENT)
        x->failed = 1;     /* the tree is not what it should be: stop */
    return 0;
}

/* Step to the next child element of the element that began at `depth`:
 * 1 on one, 0 at the element's end, -1 if the archive breaks off. */
static int next_child(pmn_xml_reader *x, int depth)
{
    while (next(x) > 0) {
        if (!inside(x, depth))
            return x->failed ? -1 : 0;
        if (type_of(x) == XML_READER_TYPE_ELEMENT)
            return 1;
    }
    return -1;
}

static void unknown(pmn_xml_reader *x, const char *where)
{
    if (too_many(x))
        return;
    diag_report(x->fn, x->ctx, PMN_E305, line_of(x), 0,
                "element <%s> has no place in %s: skipped",
                (const char *)xmlTextReaderConstName(x->r), where);
}

static void bad_value(pmn_xml_reader *x, const char *what, const char *value)
{
    if (too_many(x))
        return;
    diag_report(x->fn, x->ctx, PMN_E306, line_of(x), 0, "%s \"%s\" is not valid", what,
                value ? value : "(missing)");
}

/* The text of the current element, whose end is consumed; NULL (reported)
 * if it holds elements, or memory runs out. */
static char *element_text(pmn_xml_reader *x)
{
    size_t len = 0, cap = 64;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
    if (xmlTextReaderIsEmptyElement(x->r))
        return s;
    int depth = xmlTextReaderDepth(x->r);
    while (next(x) > 0) {
        int t = type_of(x);
        if (!inside(x, depth)) {
            if (!x->failed)
                return s;
            break;
        }
        if (t == XML_READER_TYPE_TEXT || t == XML_READER_TYPE_CDATA
            || t == XML_READER_TYPE_WHITESPACE || t == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) {
            const char *v = (const char *)xmlTextReaderConstValue(x->r);
            size_t n = v ? strlen(v) : 0;
            if (len + n + 1 > cap) {
                while (len + n + 1 > cap)
                    cap *= 2;
                char *t2 = realloc(s, cap);
                if (!t2)
                    break;
                s = t2;
            }
            memcpy(s + len, v, n);
            len += n;
            s[len] = '\0';
        } else if (t == XML_READER_TYPE_ELEMENT) {
            unknown(x, "text");
            skip_element(x);
        }
    }
    free(s);
    return NULL;
}

/* The value of an attribute, copied; NULL if absent. */
static char *attribute(pmn_xml_reader *x, const char *name)
{
    return (char *)xmlTextReaderGetAttribute(x->r, BAD_CAST name);
}

/* The values of the current element's attributes names[0..n) (of no
 * namespace, as GetAttribute takes them), NULL where absent, read in one
 * walk over them without copies: valid until the reader moves on.  (A
 * value that is not a single text, which libxml2 builds only around entity
 * references, is copied, and freed at the next call.) */
static void attributes(pmn_xml_reader *x, const char *const *names, int n, const char **values)
{
    for (int i = 0; i < MAX_ATTRIBUTES; i++) {
        xmlFree(x->copied[i]);
        x->copied[i] = NULL;
    }
    for (int i = 0; i < n; i++)
        values[i] = NULL;
    xmlNodePtr node = xmlTextReaderCurrentNode(x->r);
    if (!node || node->type != XML_ELEMENT_NODE)
        return;
    for (xmlAttrPtr a = node->properties; a; a = a->next) {
        if (a->ns)
            continue;
        for (int i = 0; i < n; i++) {
            if (values[i] || strcmp((const char *)a->name, names[i]) != 0)
                continue;
            if (!a->children)
                values[i] = "";
            else if (a->children->type == XML_TEXT_NODE && !a->children->next)
                values[i] = (const char *)a->children->content;
            else
                values[i] = (const char *)(x->copied[i] = xmlNodeListGetString(node->doc,
                                                                              a->children, 1));
            break;
        }
    }
}

static int read_line(pmn_xml_reader *x, pmn_line *l, const char *where);

/* claim -> <claim style= seeds=/> */
static void read_claim(pmn_xml_reader *x, pmn_move *m)
{
    static const char *const names[] = { "style", "seeds" };
    const char *v[2];
    attributes(x, names, 2, v);
    const char *style = v[0], *seeds = v[1];
    unsigned long n;
    if (!style || (strcmp(style, "+") != 0 && strcmp(style, "x") != 0))
        bad_value(x, "claim style", style);
    else if (pmn_parse_uint(seeds, 65535, &n) < 0)
        bad_value(x, "claim seeds", seeds);
    else {
        m->claim = (int)n;
        m->claim_style = style[0];
    }
    skip_element(x);
}

static int letter_side(int c)
{
    return c >= 'a' && c <= 'z' ? PMN_SOUTH : c >= 'A' && c <= 'Z' ? PMN_NORTH : -1;
}

/* The hole a move names.  In the letters notation its text says it all, so
 * a side or hole attribute that disagrees with the text is the one blamed;
 * in the others the hole attribute (a letter) names it, and must be of the
 * move's side.  m->side is the side attribute's, or -1. */
static void read_move_hole(pmn_xml_reader *x, pmn_move *m, const char *side, const char *hole)
{
    int hole_side = hole ? letter_side((unsigned char)hole[0]) : -1;
    if (hole && (hole_side < 0 || hole[1])) {
        bad_value(x, "hole", hole);   /* not a letter */
        hole = NULL;
    }
    if (m->notation == PMN_NOTATION_LETTERS) {
        int text_side = letter_side((unsigned char)m->text[0]);
        if (text_side < 0 || m->text[1])
            return;   /* the replay says that the text names no hole */
        if (side && m->side != text_side && !too_many(x))
            diag_report(x->fn, x->ctx, PMN_E306, line_of(x), 0,
                        "side \"%s\" is not valid: the move \"%s\" is a hole of %s", side,
                        m->text, pmn_side_name(text_side));
        if (hole && strcmp(hole, m->text) != 0 && !too_many(x))
            diag_report(x->fn, x->ctx, PMN_E306, line_of(x), 0,
                        "hole \"%s\" is not valid: the move's text names hole \"%s\"", hole,
                        m->text);
        m->side = text_side;
        m->hole = (m->text[0] | 0x20) - 'a';
        return;
    }
    if (!hole)
        return;
    if (m->side >= 0 && hole_side != m->side) {
        if (!too_many(x))
            diag_report(x->fn, x->ctx, PMN_E306, line_of(x), 0,
                        "hole \"%s\" is not valid: it is a hole of %s, and the move is %s's",
                        hole, pmn_side_name(hole_side), pmn_side_name(m->side));
        return;
    }
    m->side = hole_side;
    m->hole = (hole[0] | 0x20) - 'a';
}

static void read_move_attributes(pmn_xml_reader *x, pmn_move *m)
{
    static const char *const names[] = { "text", "notation", "side", "hole", "number", "dots",
                                         "joined" };
    const char *v[7];
    attributes(x, names, 7, v);
    const char *text = v[0], *notation = v[1], *side = v[2], *hole = v[3], *number = v[4];
    const char *dots = v[5], *joined = v[6];
    unsigned long n;

    if (!text || !*text || strlen(text) >= sizeof m->text)
        bad_value(x, "move text", text);
    else
        strcpy(m->text, text);
    m->notation = PMN_NOTATION_LETTERS;
    if (!notation || pmn_notation_from_name(notation, &m->notation) < 0)
        bad_value(x, "notation", notation);
    if (side && strcmp(side, "south") == 0)
        m->side = PMN_SOUTH;
    else if (side && strcmp(side, "north") == 0)
        m->side = PMN_NORTH;
    else if (side)
        bad_value(x, "side", side);
    read_move_hole(x, m, side, hole);
    if (joined && strcmp(joined, "yes") == 0)
        m->joined = 1;
    else if (joined)
        bad_value(x, "joined", joined);
    if (number) {
        if (pmn_parse_uint(number, 0xFFFFFF, &n) < 0 || n == 0)
            bad_value(x, "move number", number);
        else
            m->number = (unsigned)n;
        m->number_dots = dots && strcmp(dots, "3") == 0 ? 3 : 1;
    }
    if (dots && strcmp(dots, "1") != 0 && strcmp(dots, "3") != 0)
        bad_value(x, "dots", dots);
    else if (dots && !number && !too_many(x))
        diag_report(x->fn, x->ctx, PMN_E306, line_of(x), 0,
                    "dots \"%s\" is not valid: the move has no number", dots);
}

/* move -> <move ...> [claim] [judgement] {nag} {comment} {variation} [computed] */
static int read_move(pmn_xml_reader *x, pmn_line *l)
{
    pmn_move *m = record_line_add_move(l);
    if (!m)
        return -1;
    m->line = line_of(x);
    read_move_attributes(x, m);
    if (xmlTextReaderIsEmptyElement(x->r))
        return 0;
    int depth = xmlTextReaderDepth(x->r), rc;
    while ((rc = next_child(x, depth)) > 0) {
        const char *el = pmn_name(x);
        if (!strcmp(el, "claim")) {
            read_claim(x, m);
        } else if (!strcmp(el, "judgement")) {
            char *j = element_text(x);
            if (j && strlen(j) <= 2 && strspn(j, "!?") == strlen(j) && *j)
                strcpy(m->judgement, j);
            else if (j)
                bad_value(x, "judgement", j);
            free(j);
        } else if (!strcmp(el, "nag")) {
            char *s = element_text(x);
            unsigned long n;
            if (s && pmn_parse_uint(s, 255, &n) == 0 && m->nnags < PMN_MAX_NAGS)
                m->nags[m->nnags++] = (unsigned)n;
            else if (s)
                bad_value(x, "NAG", s);
            free(s);
        } else if (!strcmp(el, "comment")) {
            char *s = element_text(x);
            if (s && record_move_add_comment(m, s, strlen(s)) < 0) {
                free(s);
                return -1;
            }
            free(s);
        } else if (!strcmp(el, "variation")) {
            pmn_line *v = record_move_add_variation(m);
            if (!v || read_line(x, v, "a variation") < 0)
                return -1;
        } else if (!strcmp(el, "computed")) {
            skip_element(x);   /* the engine's, not the record's */
        } else {
            unknown(x, "a move");
            skip_element(x);
        }
    }
    return rc;
}

/* line -> {comment} {move}   (the children of <moves> or <variation>) */
static int read_line(pmn_xml_reader *x, pmn_line *l, const char *where)
{
    if (xmlTextReaderIsEmptyElement(x->r))
        return 0;
    int depth = xmlTextReaderDepth(x->r), rc;
    while ((rc = next_child(x, depth)) > 0) {
        const char *el = pmn_name(x);
        if (!strcmp(el, "comment")) {
            char *s = element_text(x);
            int added = s ? record_line_add_lead(l, s, strlen(s)) : 0;
            free(s);
            if (added < 0)
                return -1;
        } else if (!strcmp(el, "move")) {
            if (read_move(x, l) < 0)
                return -1;
        } else {
            unknown(x, where);
            skip_element(x);
        }
    }
    return rc;
}

/* game -> <game> {tag} [computed] <moves> [result] [computed] </game> */
static int read_game(pmn_xml_reader *x, pmn_record *rec)
{
    rec->line = line_of(x);
    if (xmlTextReaderIsEmptyElement(x->r))
        return 0;
    int depth = xmlTextReaderDepth(x->r), rc;
    while ((rc = next_child(x, depth)) > 0) {
        const char *el = pmn_name(x);
        if (!strcmp(el, "tag")) {
            pmn_at line = line_of(x), col = 0;
            char *name = attribute(x, "name"), *value = element_text(x);
            size_t n = name ? strlen(name) : 0;
            if (!name || !n || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                              "0123456789_") != n)
                bad_value(x, "tag name", name);
            else if (value && record_add_tag(rec, name, n, value, strlen(value), line, col,
                                             col) < 0) {
                xmlFree(name);
                free(value);
                return -1;
            }
            xmlFree(name);
            free(value);
        } else if (!strcmp(el, "moves")) {
            if (read_line(x, &rec->main, "the moves") < 0)
                return -1;
        } else if (!strcmp(el, "result")) {
            char *token = attribute(x, "token");
            if (token && pmn_outcome_parse(token, NULL) == 0)
                strcpy(rec->result, token);
            else
                bad_value(x, "result", token);
            xmlFree(token);
            skip_element(x);
        } else if (!strcmp(el, "computed")) {
            skip_element(x);
        } else {
            unknown(x, "a game");
            skip_element(x);
        }
    }
    return rc;
}

int pmn_xml_reader_next(pmn_xml_reader *x, pmn_record *rec)
{
    pmn_record_init(rec);
    if (x->failed)
        return -1;
    while (next(x) > 0) {
        int t = type_of(x);
        if (t == XML_READER_TYPE_DOCUMENT_TYPE) {   /* the prolog watch missed it */
            refuse_doctype(x);
            x->failed = 1;
            return -1;
        }
        if (t != XML_READER_TYPE_ELEMENT)
            continue;
        if (!x->started) {
            char *version = attribute(x, "version");
            int ok = is(x, "pmn") && xmlTextReaderDepth(x->r) == 0 && version
                  && strcmp(version, "1") == 0;
            xmlFree(version);
            if (!ok) {
                diag_report(x->fn, x->ctx, PMN_E304, line_of(x), 0,
                            "not a pmn archive: the root must be <pmn version=\"1\"> in "
                            "namespace %s", PMN_XML_NS);
                x->failed = 1;
                return -1;
            }
            x->started = 1;
            continue;
        }
        if (is(x, "game") && xmlTextReaderDepth(x->r) == 1) {
            if (read_game(x, rec) < 0 || x->failed) {
                pmn_record_free(rec);
                x->failed = 1;
                return -1;
            }
            return 1;
        }
        unknown(x, "an archive");
        skip_element(x);
    }
    if (x->failed)
        return -1;
    if (x->schema && !xmlTextReaderIsValid(x->r) && !x->errors)
        diag_report(x->fn, x->ctx, PMN_E307, 0, 0, "does not match the archive schema");
    return 0;
}
