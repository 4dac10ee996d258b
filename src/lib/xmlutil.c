/* xmlutil.c - what the two XML readers (archives, rule files) share. */
#include "xmlutil.h"

#include <stdio.h>
#include <string.h>

xmlRelaxNGPtr pmn_relaxng_compile(const char *schema)
{
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(schema, (int)strlen(schema));
    xmlRelaxNGPtr compiled = pc ? xmlRelaxNGParse(pc) : NULL;
    xmlRelaxNGFreeParserCtxt(pc);
    return compiled;
}

void pmn_xml_message(const xmlError *e, char *msg, size_t size)
{
    size_t n;
    snprintf(msg, size, "%s", e->message ? e->message : "unknown error");
    n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
}
