/* xmlutil.c - what the two XML readers (archives, rule files) share. */
#include "xmlutil.h"
#include "pmn.h"

#include <dlfcn.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

struct xmlutil_libxml xmlutil_libxml;
static int loaded;            /* 1 loaded and set up, -1 it could not be */
static char load_error[512];

static void drop(void *ctx, xmlErrorPtr e)
{
    (void)ctx;
    (void)e;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* libxml2 loaded, each function found; then set up (xmlInitParser leaves
 * out the RELAX NG and XML Schema datatypes, whose first use from two
 * threads at once races). */
static void init(void)
{
    void *h = dlopen(LIBXML_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(load_error, sizeof load_error, "libxml2 cannot be loaded (%s): install the "
                 "Debian package libxml2", dlerror());
        loaded = -1;
        return;
    }
    void *sym;
#define LOAD(f) \
    if (!(sym = dlsym(h, #f))) { \
        snprintf(load_error, sizeof load_error, "%s has no %s: a libxml2 older than pmn " \
                 "needs", LIBXML_SONAME, #f); \
        loaded = -1; \
        return; \
    } \
    memcpy(&xmlutil_libxml.p_##f, &sym, sizeof sym);
    LIBXML_FUNCTIONS(LOAD)
    LOAD(xmlFree)
#undef LOAD
    xmlInitParser();
    xmlSchemaInitTypes();
    xmlRelaxNGInitTypes();
    loaded = 1;
}

int xmlutil_init(void)
{
    pthread_once(&init_once, init);
    return loaded > 0 ? 0 : -1;
}

const char *xmlutil_load_error(void)
{
    return load_error;
}

/* The schemas are built in and known good: a failure can only be memory,
 * and libxml2's words for it are not printed. */
xmlRelaxNGPtr xmlutil_relaxng_compile(const char *schema)
{
    struct xmlutil_errors saved;
    if (xmlutil_init() < 0)
        return NULL;
    xmlutil_errors_begin(&saved, NULL, NULL);
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(schema, (int)strlen(schema));
    if (pc)
        xmlRelaxNGSetParserStructuredErrors(pc, drop, NULL);
    xmlRelaxNGPtr compiled = pc ? xmlRelaxNGParse(pc) : NULL;
    xmlRelaxNGFreeParserCtxt(pc);
    xmlutil_errors_end(&saved);
    return compiled;
}


void xmlutil_errors_begin(struct xmlutil_errors *saved, xmlStructuredErrorFunc fn, void *ctx)
{
    saved->fn = xmlStructuredError;
    saved->ctx = xmlStructuredErrorContext;
    xmlSetStructuredErrorFunc(ctx, fn ? fn : drop);
}

void xmlutil_errors_end(const struct xmlutil_errors *saved)
{
    xmlSetStructuredErrorFunc(saved->ctx, saved->fn);
}

void xmlutil_message(const xmlError *e, char *msg, size_t size)
{
    size_t n;
    snprintf(msg, size, "%s", e->message ? e->message : "unknown error");
    n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    for (char *c = msg; (c = strchr(c, '\n')) != NULL;)   /* one line */
        *c = ' ';
}

/* ---- encodings ---------------------------------------------------------- */

static int starts(const unsigned char *s, size_t n, const char *bytes, size_t len)
{
    return n >= len && memcmp(s, bytes, len) == 0;
}

/* The encoding named by the declaration <?xml ... encoding="NAME"?> of an
 * ASCII-compatible text, into name; 0 if there is none. */
static int declared(const char *head, size_t n, char *name, size_t size)
{
    size_t i = 0, end;
    if (n >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    if (n - i < 5 || memcmp(head + i, "<?xml", 5) != 0)
        return 0;
    for (end = i; end < n && head[end] != '>'; end++)
        ;
    for (size_t k = i; k + 8 < end; k++) {
        if (memcmp(head + k, "encoding", 8) != 0)
            continue;
        size_t j = k + 8;
        while (j < end && (head[j] == ' ' || head[j] == '\t' || head[j] == '\r' || head[j] == '\n'))
            j++;
        if (j >= end || head[j++] != '=')
            return 0;
        while (j < end && (head[j] == ' ' || head[j] == '\t' || head[j] == '\r' || head[j] == '\n'))
            j++;
        if (j >= end || (head[j] != '"' && head[j] != '\''))
            return 0;
        char q = head[j++];
        size_t len = 0;
        while (j + len < end && head[j + len] != q)
            len++;
        if (len == 0 || len >= size)
            return 0;
        memcpy(name, head + j, len);
        name[len] = '\0';
        return 1;
    }
    return 0;
}

static int is_utf8_name(const char *name)
{
    static const char *const same[] = { "UTF-8", "UTF8", "US-ASCII", "ASCII" };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        if (xmlStrcasecmp((const xmlChar *)name, (const xmlChar *)same[i]) == 0)
            return 1;
    return 0;
}

static int buffers(struct xmlutil_decoder *d, char *why, size_t size)
{
    d->utf8 = xmlBufferCreate();
    if (d->utf8 && (!d->handler || (d->raw = xmlBufferCreate()) != NULL))
        return 0;
    xmlutil_decoder_end(d);
    snprintf(why, size, "out of memory");
    return PMN_ERR_NOMEM;
}

int xmlutil_decoder_start(struct xmlutil_decoder *d, const char *head, size_t n, char *why,
                          size_t size)
{
    const unsigned char *h = (const unsigned char *)head;
    char name[64];
    memset(d, 0, sizeof *d);
    if (xmlutil_init() < 0) {
        snprintf(why, size, "%s", xmlutil_load_error());
        return -1;
    }
    if (starts(h, n, "\x4C\x6F\xA7\x94", 4)) {
        snprintf(why, size, "a file in EBCDIC, which pmn does not read: convert it to UTF-8");
        return -1;
    }
    if (starts(h, n, "\xEF\xBB\xBF", 3)) {
        return buffers(d, why, size);   /* a byte-order mark: UTF-8, whatever the declaration says */
    } else if (starts(h, n, "\x00\x00\xFE\xFF", 4) || starts(h, n, "\x00\x00\x00\x3C", 4)) {
        snprintf(name, sizeof name, "UTF-32BE");
    } else if (starts(h, n, "\xFF\xFE\x00\x00", 4) || starts(h, n, "\x3C\x00\x00\x00", 4)) {
        snprintf(name, sizeof name, "UTF-32LE");
    } else if (starts(h, n, "\xFE\xFF", 2) || starts(h, n, "\x00\x3C\x00\x3F", 4)) {
        snprintf(name, sizeof name, "UTF-16BE");
    } else if (starts(h, n, "\xFF\xFE", 2) || starts(h, n, "\x3C\x00\x3F\x00", 4)) {
        snprintf(name, sizeof name, "UTF-16LE");
    } else if (!declared(head, n, name, sizeof name) || is_utf8_name(name)) {
        return buffers(d, why, size);
    } else if (xmlStrncasecmp((const xmlChar *)name, (const xmlChar *)"UTF-16", 6) == 0
               || xmlStrncasecmp((const xmlChar *)name, (const xmlChar *)"UTF-32", 6) == 0
               || xmlStrncasecmp((const xmlChar *)name, (const xmlChar *)"UCS", 3) == 0) {
        /* Its declaration was read as ASCII: the bytes are not what it says. */
        snprintf(why, size, "the file says its encoding is %s, but its bytes are not: save it "
                 "as UTF-8, or as %s with a byte-order mark", name, name);
        return -1;
    }
    d->handler = xmlFindCharEncodingHandler(name);
    if (!d->handler) {
        snprintf(why, size, "the encoding %s, which pmn cannot convert: convert the file to "
                 "UTF-8", name);
        return -1;
    }
    return buffers(d, why, size);
}

int xmlutil_decoder_feed(struct xmlutil_decoder *d, const char *in, size_t n, char *why,
                         size_t size)
{
    if (n > INT_MAX || xmlBufferAdd(d->handler ? d->raw : d->utf8, (const xmlChar *)in,
                                    (int)n) != 0) {
        snprintf(why, size, "out of memory");
        return PMN_ERR_NOMEM;
    }
    if (!d->handler)
        return 0;
    /* libxml2 says "written" rather than a failure when it converted some
     * bytes before bad ones: the call after, converting none, tells. */
    struct xmlutil_errors saved;
    int failed = 0;
    xmlutil_errors_begin(&saved, NULL, NULL);
    while (xmlBufferLength(d->raw) > 0) {
        int before = xmlBufferLength(d->raw);
        int rc = xmlCharEncInFunc(d->handler, d->utf8, d->raw);
        if (rc == -2 || rc == -1) {
            failed = 1;
            break;
        }
        if (xmlBufferLength(d->raw) == before)
            break;   /* the start of a character whose rest is still to come */
    }
    xmlutil_errors_end(&saved);
    if (failed)
        snprintf(why, size, "bytes that are not %s, the file's encoding", d->handler->name);
    return failed ? -1 : 0;
}

int xmlutil_decoder_finish(const struct xmlutil_decoder *d, char *why, size_t size)
{
    if (!d->raw || xmlBufferLength(d->raw) == 0)
        return 0;
    snprintf(why, size, "the file ends inside a character");
    return -1;
}

void xmlutil_decoder_end(struct xmlutil_decoder *d)
{
    if (d->handler)
        xmlCharEncCloseFunc(d->handler);
    xmlBufferFree(d->raw);
    xmlBufferFree(d->utf8);
    memset(d, 0, sizeof *d);
}
