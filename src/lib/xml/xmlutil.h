/* xmlutil.h - what the two XML readers (archives, rule files) share;
 * internal to libpmn. */
#ifndef PMN_XMLUTIL_H
#define PMN_XMLUTIL_H

#include <stddef.h>

#include "libxml.h"

/* libxml2 must be loaded and set up once, before any thread uses it:
 * every entry of libpmn into libxml2 calls this first.  0; -1 when it
 * cannot be loaded (xmlutil_load_error says why: then nothing of XML is
 * read). */
int xmlutil_init(void);
const char *xmlutil_load_error(void);

/* A RELAX NG schema from its text (built into libpmn); NULL if memory runs
 * out.  Freed with xmlRelaxNGFree. */
xmlRelaxNGPtr xmlutil_relaxng_compile(const char *schema);

/* libxml2 reports some errors (I/O, encodings) through its per-thread
 * handler, not a parser's: between begin and end they go to fn (NULL: they
 * are dropped), never to standard error, and the caller's handler is put
 * back after. */
struct xmlutil_errors {
    xmlStructuredErrorFunc fn;
    void *ctx;
};
void xmlutil_errors_begin(struct xmlutil_errors *saved, xmlStructuredErrorFunc fn, void *ctx);
void xmlutil_errors_end(const struct xmlutil_errors *saved);

/* Every XML text reaches libxml2 as UTF-8, with its encoding declaration
 * ignored (XML_PARSE_IGNORE_ENC): a decoder finds the encoding from the
 * first bytes (a byte-order mark, the UTF-16 and UTF-32 patterns, or the
 * declaration), as libxml2 would, and converts with libxml2's own
 * converters.  So what pmn scans for a DTD is exactly what libxml2 parses,
 * whatever the encoding. */
struct xmlutil_decoder {
    xmlCharEncodingHandlerPtr handler;   /* NULL: the text is UTF-8 already */
    xmlBufferPtr raw;                    /* bytes waiting for the rest of a character */
    xmlBufferPtr utf8;                   /* text ready for libxml2 */
};
/* Decide from the first n bytes (the whole text, or at least its first
 * line); nothing is fed yet.  0; -1 with why for an encoding pmn does not
 * read (EBCDIC, one libxml2 cannot convert, a UTF-16 label on 8-bit bytes);
 * PMN_ERR_NOMEM. */
int xmlutil_decoder_start(struct xmlutil_decoder *d, const char *head, size_t n, char *why,
                          size_t size);
/* n more bytes onto d->utf8, converted (or as they are, with no handler):
 * 0; -1 with why for bytes that are not of the encoding; PMN_ERR_NOMEM. */
int xmlutil_decoder_feed(struct xmlutil_decoder *d, const char *in, size_t n, char *why,
                         size_t size);
/* At the end of the text: 0, or -1 with why if it ends inside a character. */
int xmlutil_decoder_finish(const struct xmlutil_decoder *d, char *why, size_t size);
void xmlutil_decoder_end(struct xmlutil_decoder *d);
#define PMN_XML_PARSE_OPTIONS (XML_PARSE_NONET | XML_PARSE_IGNORE_ENC)

/* libxml2's message of e, without the line end it carries. */
void xmlutil_message(const xmlError *e, char *msg, size_t size);

#endif
