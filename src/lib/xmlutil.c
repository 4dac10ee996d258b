/* xmlutil.c - what the two XML readers (archives, rule files) share. */
#include "xmlutil.h"

#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/xmlschemastypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void drop(void *ctx, xmlErrorPtr e)
{
    (void)ctx;
    (void)e;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* xmlInitParser leaves out the RELAX NG and XML Schema datatypes, whose
 * first use from two threads at once races. */
static void init(void)
{
    xmlInitParser();
    xmlSchemaInitTypes();
    xmlRelaxNGInitTypes();
}

void pmn_xml_init(void)
{
    pthread_once(&init_once, init);
}

/* The schemas are built in and known good: a failure can only be memory,
 * and libxml2's words for it are not printed. */
xmlRelaxNGPtr pmn_relaxng_compile(const char *schema)
{
    struct pmn_xml_errors saved;
    pmn_xml_init();
    pmn_xml_errors_begin(&saved, NULL, NULL);
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(schema, (int)strlen(schema));
    if (pc)
        xmlRelaxNGSetParserStructuredErrors(pc, drop, NULL);
    xmlRelaxNGPtr compiled = pc ? xmlRelaxNGParse(pc) : NULL;
    xmlRelaxNGFreeParserCtxt(pc);
    pmn_xml_errors_end(&saved);
    return compiled;
}


void pmn_xml_errors_begin(struct pmn_xml_errors *saved, xmlStructuredErrorFunc fn, void *ctx)
{
    saved->fn = xmlStructuredError;
    saved->ctx = xmlStructuredErrorContext;
    xmlSetStructuredErrorFunc(ctx, fn ? fn : drop);
}

void pmn_xml_errors_end(const struct pmn_xml_errors *saved)
{
    xmlSetStructuredErrorFunc(saved->ctx, saved->fn);
}

void pmn_xml_message(const xmlError *e, char *msg, size_t size)
{
    size_t n;
    snprintf(msg, size, "%s", e->message ? e->message : "unknown error");
    n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    for (char *c = msg; (c = strchr(c, '\n')) != NULL;)   /* one line */
        *c = ' ';
}
