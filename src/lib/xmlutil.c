/* xmlutil.c - what the two XML readers (archives, rule files) share. */
#include "xmlutil.h"

#include <libxml/globals.h>
#include <stdio.h>
#include <string.h>

xmlRelaxNGPtr pmn_relaxng_compile(const char *schema)
{
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(schema, (int)strlen(schema));
    xmlRelaxNGPtr compiled = pc ? xmlRelaxNGParse(pc) : NULL;
    xmlRelaxNGFreeParserCtxt(pc);
    return compiled;
}

static void drop(void *ctx, xmlErrorPtr e)
{
    (void)ctx;
    (void)e;
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
}
