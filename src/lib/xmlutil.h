/* xmlutil.h - what the two XML readers (archives, rule files) share;
 * internal to libpmn. */
#ifndef PMN_XMLUTIL_H
#define PMN_XMLUTIL_H

#include <stddef.h>

#include <libxml/relaxng.h>
#include <libxml/xmlerror.h>

/* libxml2 must be set up once, before any thread uses it: every entry of
 * libpmn into libxml2 calls this first. */
void pmn_xml_init(void);

/* A RELAX NG schema from its text (built into libpmn); NULL if memory runs
 * out.  Freed with xmlRelaxNGFree. */
xmlRelaxNGPtr pmn_relaxng_compile(const char *schema);

/* libxml2 reports some errors (I/O, encodings) through its per-thread
 * handler, not a parser's: between begin and end they go to fn (NULL: they
 * are dropped), never to standard error, and the caller's handler is put
 * back after. */
struct pmn_xml_errors {
    xmlStructuredErrorFunc fn;
    void *ctx;
};
void pmn_xml_errors_begin(struct pmn_xml_errors *saved, xmlStructuredErrorFunc fn, void *ctx);
void pmn_xml_errors_end(const struct pmn_xml_errors *saved);

/* libxml2's message of e, without the line end it carries. */
void pmn_xml_message(const xmlError *e, char *msg, size_t size);

#endif
