/* rulefile.c - rule sets as XML files (grammar/rules.rng): reading them
 * safely, and the built-in sets, which are such files built into libpmn. */
#include "pmn.h"
#include "rulefile.h"
#include "../engine/rulespec.h"
#include "../base/util.h"
#include "xmlutil.h"

#include <pthread.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXTS 32
#define MAX_RULE_FILE (1 << 20)   /* bytes: a rule file is a page of text */
#define MAX_ERRORS 10

struct text {
    int description;          /* 0: a title */
    char *lang, *text;
};

struct pmn_rule_file {
    pmn_rules rules;
    struct text texts[MAX_TEXTS];
    size_t ntexts;
};

struct loader {
    pmn_diag_fn fn;
    void *ctx;
    int errors;
    unsigned doctype;         /* the line of a DTD the parser met, or 0 */
};

static void xml_error(void *ctx, xmlErrorPtr e)
{
    struct loader *l = ctx;
    char msg[300];
    if (!e || e->level < XML_ERR_ERROR || ++l->errors > MAX_ERRORS)
        return;
    xmlutil_message(e, msg, sizeof msg);
    pmn_at line = (unsigned)e->line;
    if (e->domain == XML_FROM_RELAXNGV) {
        if (e->node)
            line = (unsigned)xmlGetLineNo((xmlNodePtr)e->node);
        diag_report(l->fn, l->ctx, PMN_E402, line, 0, "does not match the rule file schema: %s",
                    msg);
    } else {
        diag_report(l->fn, l->ctx, PMN_E401, line, (unsigned)e->int2, "malformed XML: %s", msg);
    }
}

void pmn_rule_file_free(pmn_rule_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->ntexts; i++) {
        free(f->texts[i].lang);
        free(f->texts[i].text);
    }
    free(f);
}

static int add_text(pmn_rule_file *f, xmlNodePtr node, int description)
{
    if (f->ntexts == MAX_TEXTS)
        return 0;   /* the schema allows more; they are not kept */
    xmlChar *lang = xmlNodeGetLang(node), *text = xmlNodeGetContent(node);
    struct text *t = &f->texts[f->ntexts];
    t->description = description;
    t->lang = lang ? util_strndup((const char *)lang, strlen((const char *)lang)) : NULL;
    t->text = text ? util_strndup((const char *)text, strlen((const char *)text)) : NULL;
    xmlFree(lang);
    xmlFree(text);
    if (!t->lang || !t->text) {
        free(t->lang);
        free(t->text);
        return -1;
    }
    f->ntexts++;
    return 0;
}

/* Each attribute of a mechanism element is the rule option of its name. */
static int apply_attributes(struct loader *l, pmn_rules *r, xmlNodePtr node)
{
    for (xmlAttrPtr a = node->properties; a; a = a->next) {
        const char *key = (const char *)a->name;
        if (strcmp(key, "kind") == 0)
            key = "capture";
        xmlChar *v = xmlNodeListGetString(node->doc, a->children, 1);
        const char *val = v ? (const char *)v : "";
        pmn_error err;
        int rc = pmn_rules_set(r, key, strlen(key), val, strlen(val), &err);
        if (rc < 0)
            diag_report(l->fn, l->ctx, PMN_E403, (unsigned)xmlGetLineNo(node), 0,
                        "<%s %s=\"%s\">: %s",
                        (const char *)node->name, (const char *)a->name, val, err.message);
        xmlFree(v);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static pmn_rule_file *from_doc(struct loader *l, xmlDocPtr doc)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    pmn_rule_file *f = calloc(1, sizeof *f);
    if (!f) {
        diag_report(l->fn, l->ctx, PMN_F002, 0, 0, "out of memory");
        return NULL;
    }
    rules_defaults(&f->rules);
    xmlChar *name = xmlGetProp(root, (const xmlChar *)"name");
    snprintf(f->rules.name, sizeof f->rules.name, "%s", name ? (const char *)name : "");
    xmlFree(name);
    for (xmlNodePtr n = root->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        int rc = 0;
        if (xmlStrEqual(n->name, (const xmlChar *)"title"))
            rc = add_text(f, n, 0);
        else if (xmlStrEqual(n->name, (const xmlChar *)"description"))
            rc = add_text(f, n, 1);
        else if (apply_attributes(l, &f->rules, n) < 0)
            goto fail;
        if (rc < 0) {
            diag_report(l->fn, l->ctx, PMN_F002, 0, 0, "out of memory");
            goto fail;
        }
    }
    pmn_error err;
    if (pmn_rules_check(&f->rules, &err) < 0) {
        diag_report(l->fn, l->ctx, PMN_E404, (unsigned)xmlGetLineNo(root), 0,
                    "rules '%s' that the engine cannot play: %s", f->rules.name, err.message);
        goto fail;
    }
    return f;
fail:
    pmn_rule_file_free(f);
    return NULL;
}

/* A document type declaration could make libxml2 expand entities while it
 * parses it: such a file is refused before libxml2 sees a byte of it. */
static unsigned doctype_line(const char *text, size_t len)
{
    static const char dt[] = "<!DOCTYPE";
    pmn_at line = 1;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n')
            line++;
        else if (text[i] == '<' && len - i >= sizeof dt - 1 && memcmp(text + i, dt, sizeof dt - 1) == 0)
            return line;
    }
    return 0;
}

static pmn_rule_file *parse(const char *text, size_t len, const char *name, int validate,
                            pmn_diag_fn fn, void *ctx);

pmn_rule_file *pmn_rule_file_parse(const char *text, size_t len, const char *name,
                                   pmn_diag_fn fn, void *ctx)
{
    return parse(text, len, name, 1, fn, ctx);
}

static pmn_rule_file *parse_utf8(const char *text, size_t len, const char *name,
                                 int validate, pmn_diag_fn fn, void *ctx);

/* The text is converted to UTF-8 first (xmlutil_decoder), so that the
 * refusal of a DTD sees what libxml2 parses, in any encoding; UTF-8 text is
 * parsed where it is.  With validate 0, the schema is not applied: for the
 * built-in files, which the tests validate (test_rules), and whose every use
 * would otherwise pay for compiling it. */
static pmn_rule_file *parse(const char *text, size_t len, const char *name, int validate,
                            pmn_diag_fn fn, void *ctx)
{
    struct xmlutil_decoder d;
    char why[200];
    if (len == 0) {
        diag_report(fn, ctx, PMN_F001, 0, 0, "an empty file: no rule file");
        return NULL;
    }
    if (len > MAX_RULE_FILE) {
        diag_report(fn, ctx, PMN_E401, 0, 0, "a rule file larger than %d bytes", MAX_RULE_FILE);
        return NULL;
    }
    int rc = xmlutil_decoder_start(&d, text, len, why, sizeof why);
    if (rc == 0 && d.handler) {
        rc = xmlutil_decoder_feed(&d, text, len, why, sizeof why);
        if (rc == 0)
            rc = xmlutil_decoder_finish(&d, why, sizeof why);
        text = (const char *)xmlBufferContent(d.utf8);
        len = (size_t)xmlBufferLength(d.utf8);
    }
    pmn_rule_file *f = NULL;
    if (rc < 0)
        diag_report(fn, ctx, rc == PMN_ERR_NOMEM ? PMN_F002 : PMN_E401, 1, 0, "%s", why);
    else
        f = parse_utf8(text, len, name, validate, fn, ctx);
    xmlutil_decoder_end(&d);
    return f;
}

/* A document type declaration that the scan missed stops the parser before
 * its internal subset, where entities would be declared. */
static void refuse_subset(void *ctx, const xmlChar *name, const xmlChar *external_id,
                          const xmlChar *system_id)
{
    xmlParserCtxtPtr pc = ctx;
    struct loader *l = pc->_private;
    (void)name;
    (void)external_id;
    (void)system_id;
    l->doctype = pc->input && pc->input->line > 0 ? (unsigned)pc->input->line : 1;
    xmlStopParser(pc);
}

static pmn_rule_file *parse_utf8(const char *text, size_t len, const char *name,
                                 int validate, pmn_diag_fn fn, void *ctx)
{
    struct loader l = { fn, ctx, 0, 0 };
    unsigned dt = doctype_line(text, len);
    if (dt) {
        diag_report(fn, ctx, PMN_E401, dt, 0, "a document type declaration (DTD), refused");
        return NULL;
    }
    if (xmlutil_init() < 0) {
        diag_report(fn, ctx, PMN_F001, 0, 0, "%s", xmlutil_load_error());
        return NULL;
    }
    xmlParserCtxtPtr pc = xmlNewParserCtxt();
    if (!pc) {
        diag_report(fn, ctx, PMN_F002, 0, 0, "out of memory");
        return NULL;
    }
    struct xmlutil_errors saved;
    xmlutil_errors_begin(&saved, xml_error, &l);
    pc->_private = &l;
    pc->sax->internalSubset = refuse_subset;
    xmlDocPtr doc = xmlCtxtReadMemory(pc, text, (int)len, name, "UTF-8", PMN_XML_PARSE_OPTIONS);
    pmn_rule_file *f = NULL;
    if (l.doctype || (doc && doc->intSubset)) {
        diag_report(fn, ctx, PMN_E401, l.doctype, 0,
                    "a document type declaration (DTD), refused");
    } else if (doc && !l.errors && !validate) {
        f = from_doc(&l, doc);
    } else if (doc && !l.errors) {
        xmlRelaxNGPtr schema = xmlutil_relaxng_compile(pmn_rules_schema());
        xmlRelaxNGValidCtxtPtr vc = schema ? xmlRelaxNGNewValidCtxt(schema) : NULL;
        if (!vc) {
            diag_report(fn, ctx, PMN_F002, 0, 0, "out of memory");
        } else {
            xmlRelaxNGSetValidStructuredErrors(vc, xml_error, &l);
            if (xmlRelaxNGValidateDoc(vc, doc) == 0 && !l.errors)
                f = from_doc(&l, doc);
            else if (!l.errors)
                diag_report(fn, ctx, PMN_E402, 1, 0, "does not match the rule file schema");
        }
        xmlRelaxNGFreeValidCtxt(vc);
        xmlRelaxNGFree(schema);
    } else if (!l.errors) {
        diag_report(fn, ctx, PMN_E401, 1, 0, "malformed XML");
    }
    xmlutil_errors_end(&saved);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(pc);
    return f;
}

pmn_rule_file *pmn_rule_file_read(FILE *in, const char *name, pmn_diag_fn fn, void *ctx)
{
    char *text = malloc(MAX_RULE_FILE + 1);
    if (!text) {
        diag_report(fn, ctx, PMN_F002, 0, 0, "out of memory");
        return NULL;
    }
    size_t len = fread(text, 1, MAX_RULE_FILE + 1, in);
    pmn_rule_file *f = NULL;
    if (ferror(in))
        diag_report(fn, ctx, PMN_F001, 0, 0, "cannot read: %s", strerror(errno ? errno : EIO));
    else if (len > MAX_RULE_FILE)
        diag_report(fn, ctx, PMN_E401, 0, 0, "a rule file larger than %d bytes", MAX_RULE_FILE);
    else
        f = pmn_rule_file_parse(text, len, name, fn, ctx);
    free(text);
    return f;
}

const pmn_rules *pmn_rule_file_rules(const pmn_rule_file *f)
{
    return &f->rules;
}

/* The text in `lang`; else in English; else the first. */
const char *pmn_rule_file_text(const pmn_rule_file *f, int description, const char *lang)
{
    const char *want[] = { lang, "en" };
    for (size_t w = 0; w < 2; w++)
        for (size_t i = 0; want[w] && i < f->ntexts; i++)
            if (f->texts[i].description == description && strcmp(f->texts[i].lang, want[w]) == 0)
                return f->texts[i].text;
    for (size_t i = 0; i < f->ntexts; i++)
        if (f->texts[i].description == description)
            return f->texts[i].text;
    return NULL;
}

size_t pmn_rule_file_languages(const pmn_rule_file *f, char *buf, size_t size)
{
    textbuf t;
    textbuf_init(&t, buf, size);
    for (size_t i = 0; i < f->ntexts; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= strcmp(f->texts[j].lang, f->texts[i].lang) == 0;
        if (!seen)
            textbuf_add(&t, "%s%s", t.n ? " " : "", f->texts[i].lang);
    }
    return t.n;
}

/* ---- the built-in sets ------------------------------------------------- */

/* Read once, on first use by whichever thread, and kept for the life of
 * the process; read-only after. */
static pmn_rule_file *builtin_file[16];
static int builtins_read;
static pthread_once_t builtins_once = PTHREAD_ONCE_INIT;

static void read_builtins_once(void)
{
    builtins_read = 1;
    for (size_t i = 0; i < rulefile_builtin_count && i < COUNT(builtin_file); i++)
        builtin_file[i] = parse(rulefile_builtin[i].text,
                                strlen(rulefile_builtin[i].text),
                                rulefile_builtin[i].name, 0, NULL, NULL);
}

static void read_builtins(void)
{
    pthread_once(&builtins_once, read_builtins_once);
}

int rulefile_loaded(void)
{
    return builtins_read;
}

const pmn_rule_file *pmn_rule_file_builtin(size_t i)
{
    read_builtins();
    return i < rulefile_builtin_count && i < COUNT(builtin_file) ? builtin_file[i] : NULL;
}

const pmn_rule_file *pmn_rule_file_builtin_named(const char *name, size_t *index)
{
    const pmn_rule_file *f;
    for (size_t i = 0; (f = pmn_rule_file_builtin(i)) != NULL; i++)
        if (strcmp(f->rules.name, name) == 0) {
            if (index)
                *index = i;
            return f;
        }
    return NULL;
}

const char *pmn_rule_file_builtin_xml(size_t i)
{
    return i < rulefile_builtin_count ? rulefile_builtin[i].text : NULL;
}
