/* libxml.h - libxml2, loaded (dlopen) the first time libpmn reads XML (an
 * archive, a rule file, the schema), not linked: linked, it brought ICU
 * and the C++ library into every run of pmn (1.7 ms of a process's start
 * on the development machine, where pmn --version took 5.7 ms).  Internal to libpmn:
 * xmlutil.h includes it, after libxml2's headers, and every function of
 * libxml2 that libpmn calls is named once in LIBXML_FUNCTIONS; its name
 * then calls it through xmlutil_libxml (the #defines below), so the code that
 * uses it reads as libxml2's documentation does.  xmlutil_init loads it
 * (once, for every thread) before any entry into it. */
#ifndef PMN_LIBXML_H
#define PMN_LIBXML_H

#include <libxml/encoding.h>
#include <libxml/globals.h>
#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemastypes.h>
#include <libxml/xmlstring.h>

#define LIBXML_SONAME "libxml2.so.2"

#define LIBXML_FUNCTIONS(X) \
    X(xmlInitParser) X(xmlSchemaInitTypes) X(xmlRelaxNGInitTypes) \
    X(xmlSetStructuredErrorFunc) X(__xmlStructuredError) \
    X(__xmlStructuredErrorContext) \
    X(xmlNewParserCtxt) X(xmlFreeParserCtxt) X(xmlCtxtReadMemory) X(xmlStopParser) \
    X(xmlFreeDoc) X(xmlDocGetRootElement) X(xmlGetProp) X(xmlNodeGetContent) \
    X(xmlNodeGetLang) X(xmlNodeListGetString) X(xmlGetLineNo) \
    X(xmlStrEqual) X(xmlStrcasecmp) X(xmlStrncasecmp) \
    X(xmlRelaxNGNewMemParserCtxt) X(xmlRelaxNGSetParserStructuredErrors) X(xmlRelaxNGParse) \
    X(xmlRelaxNGFreeParserCtxt) X(xmlRelaxNGFree) X(xmlRelaxNGNewValidCtxt) \
    X(xmlRelaxNGSetValidStructuredErrors) X(xmlRelaxNGValidateDoc) X(xmlRelaxNGFreeValidCtxt) \
    X(xmlReaderForIO) X(xmlFreeTextReader) X(xmlTextReaderRead) X(xmlTextReaderNext) \
    X(xmlTextReaderNodeType) X(xmlTextReaderDepth) X(xmlTextReaderIsEmptyElement) \
    X(xmlTextReaderCurrentNode) X(xmlTextReaderConstNamespaceUri) \
    X(xmlTextReaderConstLocalName) X(xmlTextReaderConstName) X(xmlTextReaderConstValue) \
    X(xmlTextReaderConstString) X(xmlTextReaderGetAttribute) \
    X(xmlTextReaderGetParserLineNumber) X(xmlTextReaderIsValid) \
    X(xmlTextReaderRelaxNGSetSchema) X(xmlTextReaderSetStructuredErrorHandler) \
    X(xmlBufferCreate) X(xmlBufferFree) X(xmlBufferAdd) X(xmlBufferEmpty) \
    X(xmlBufferContent) X(xmlBufferLength) \
    X(xmlFindCharEncodingHandler) X(xmlCharEncCloseFunc) X(xmlCharEncInFunc)

struct xmlutil_libxml {
#define LIBXML_POINTER(f) __typeof__(f) *p_##f;
    LIBXML_FUNCTIONS(LIBXML_POINTER)
#undef LIBXML_POINTER
    xmlFreeFunc *p_xmlFree;   /* a variable of libxml2's, not a function */
};
extern struct xmlutil_libxml xmlutil_libxml;

/* Its globals: xmlFree a variable, the error handlers a thread's
 * (LIBXML_THREAD_ENABLED: functions that give the thread's). */
#undef xmlFree
#define xmlFree (*xmlutil_libxml.p_xmlFree)
#undef xmlStructuredError
#define xmlStructuredError (*(xmlutil_libxml.p___xmlStructuredError()))
#undef xmlStructuredErrorContext
#define xmlStructuredErrorContext (*(xmlutil_libxml.p___xmlStructuredErrorContext()))

#define xmlInitParser (xmlutil_libxml.p_xmlInitParser)
#define xmlSchemaInitTypes (xmlutil_libxml.p_xmlSchemaInitTypes)
#define xmlRelaxNGInitTypes (xmlutil_libxml.p_xmlRelaxNGInitTypes)
#define xmlSetStructuredErrorFunc (xmlutil_libxml.p_xmlSetStructuredErrorFunc)
#define xmlNewParserCtxt (xmlutil_libxml.p_xmlNewParserCtxt)
#define xmlFreeParserCtxt (xmlutil_libxml.p_xmlFreeParserCtxt)
#define xmlCtxtReadMemory (xmlutil_libxml.p_xmlCtxtReadMemory)
#define xmlStopParser (xmlutil_libxml.p_xmlStopParser)
#define xmlFreeDoc (xmlutil_libxml.p_xmlFreeDoc)
#define xmlDocGetRootElement (xmlutil_libxml.p_xmlDocGetRootElement)
#define xmlGetProp (xmlutil_libxml.p_xmlGetProp)
#define xmlNodeGetContent (xmlutil_libxml.p_xmlNodeGetContent)
#define xmlNodeGetLang (xmlutil_libxml.p_xmlNodeGetLang)
#define xmlNodeListGetString (xmlutil_libxml.p_xmlNodeListGetString)
#define xmlGetLineNo (xmlutil_libxml.p_xmlGetLineNo)
#define xmlStrEqual (xmlutil_libxml.p_xmlStrEqual)
#define xmlStrcasecmp (xmlutil_libxml.p_xmlStrcasecmp)
#define xmlStrncasecmp (xmlutil_libxml.p_xmlStrncasecmp)
#define xmlRelaxNGNewMemParserCtxt (xmlutil_libxml.p_xmlRelaxNGNewMemParserCtxt)
#define xmlRelaxNGSetParserStructuredErrors (xmlutil_libxml.p_xmlRelaxNGSetParserStructuredErrors)
#define xmlRelaxNGParse (xmlutil_libxml.p_xmlRelaxNGParse)
#define xmlRelaxNGFreeParserCtxt (xmlutil_libxml.p_xmlRelaxNGFreeParserCtxt)
#define xmlRelaxNGFree (xmlutil_libxml.p_xmlRelaxNGFree)
#define xmlRelaxNGNewValidCtxt (xmlutil_libxml.p_xmlRelaxNGNewValidCtxt)
#define xmlRelaxNGSetValidStructuredErrors (xmlutil_libxml.p_xmlRelaxNGSetValidStructuredErrors)
#define xmlRelaxNGValidateDoc (xmlutil_libxml.p_xmlRelaxNGValidateDoc)
#define xmlRelaxNGFreeValidCtxt (xmlutil_libxml.p_xmlRelaxNGFreeValidCtxt)
#define xmlReaderForIO (xmlutil_libxml.p_xmlReaderForIO)
#define xmlFreeTextReader (xmlutil_libxml.p_xmlFreeTextReader)
#define xmlTextReaderRead (xmlutil_libxml.p_xmlTextReaderRead)
#define xmlTextReaderNext (xmlutil_libxml.p_xmlTextReaderNext)
#define xmlTextReaderNodeType (xmlutil_libxml.p_xmlTextReaderNodeType)
#define xmlTextReaderDepth (xmlutil_libxml.p_xmlTextReaderDepth)
#define xmlTextReaderIsEmptyElement (xmlutil_libxml.p_xmlTextReaderIsEmptyElement)
#define xmlTextReaderCurrentNode (xmlutil_libxml.p_xmlTextReaderCurrentNode)
#define xmlTextReaderConstNamespaceUri (xmlutil_libxml.p_xmlTextReaderConstNamespaceUri)
#define xmlTextReaderConstLocalName (xmlutil_libxml.p_xmlTextReaderConstLocalName)
#define xmlTextReaderConstName (xmlutil_libxml.p_xmlTextReaderConstName)
#define xmlTextReaderConstValue (xmlutil_libxml.p_xmlTextReaderConstValue)
#define xmlTextReaderConstString (xmlutil_libxml.p_xmlTextReaderConstString)
#define xmlTextReaderGetAttribute (xmlutil_libxml.p_xmlTextReaderGetAttribute)
#define xmlTextReaderGetParserLineNumber (xmlutil_libxml.p_xmlTextReaderGetParserLineNumber)
#define xmlTextReaderIsValid (xmlutil_libxml.p_xmlTextReaderIsValid)
#define xmlTextReaderRelaxNGSetSchema (xmlutil_libxml.p_xmlTextReaderRelaxNGSetSchema)
#define xmlTextReaderSetStructuredErrorHandler (xmlutil_libxml.p_xmlTextReaderSetStructuredErrorHandler)
#define xmlBufferCreate (xmlutil_libxml.p_xmlBufferCreate)
#define xmlBufferFree (xmlutil_libxml.p_xmlBufferFree)
#define xmlBufferAdd (xmlutil_libxml.p_xmlBufferAdd)
#define xmlBufferEmpty (xmlutil_libxml.p_xmlBufferEmpty)
#define xmlBufferContent (xmlutil_libxml.p_xmlBufferContent)
#define xmlBufferLength (xmlutil_libxml.p_xmlBufferLength)
#define xmlFindCharEncodingHandler (xmlutil_libxml.p_xmlFindCharEncodingHandler)
#define xmlCharEncCloseFunc (xmlutil_libxml.p_xmlCharEncCloseFunc)
#define xmlCharEncInFunc (xmlutil_libxml.p_xmlCharEncInFunc)

#endif
