/* source.c - any input as games: PMN, an XML archive, or one of the other
 * programs' notations (formats.c), found from the input's name or its
 * first bytes unless the caller says which.  What is found is said (N133),
 * so that a program reading uploads with libpmn tells its users what pmn
 * check tells them.  The readers themselves are reader.c's, xmlin.c's and
 * formats.c's; this file only chooses one and hands the games on. */
#include "pmn.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct pmn_source {
    int format;               /* PMN_SOURCE_*: what it is read as */
    pmn_reader *pmn;
    pmn_format_reader *foreign;
    pmn_xml_reader *xml;
};

int pmn_source_format_of_name(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    for (int f = 0; f < PMN_FORMAT_COUNT; f++) {
        const char *ext = pmn_format_extension((pmn_format)f);
        size_t e = ext ? strlen(ext) : 0;
        if (e && n > e && strcasecmp(name + n - e, ext) == 0)
            return PMN_SOURCE_FOREIGN + f;
    }
    return PMN_SOURCE_AUTO;
}

int pmn_source_detect(FILE *f, const char *name, int *by_name)
{
    char buf[4096];
    pmn_format found;
    int format = pmn_source_format_of_name(name);
    if (by_name)
        *by_name = format != PMN_SOURCE_AUTO;
    if (format != PMN_SOURCE_AUTO)
        return format;
    int c = getc(f);
    if (c != EOF)
        ungetc(c, f);
    if (c == '<')
        return PMN_SOURCE_XML;
    long at = ftell(f);
    /* A pipe has no place; through pmn_text_input it goes back to its
     * start while its first chunk is held: tried before anything is read,
     * so that a stream that cannot loses nothing. */
    if (at < 0 && fseek(f, 0, SEEK_SET) != 0)
        return PMN_SOURCE_PMN;   /* not seekable: only the caller or the name say */
    if (at < 0)
        at = 0;
    size_t n = fread(buf, 1, sizeof buf, f);
    clearerr(f);
    if (fseek(f, at, SEEK_SET) != 0 || !pmn_format_sniff(buf, n, &found))
        return PMN_SOURCE_PMN;
    return PMN_SOURCE_FOREIGN + (int)found;
}

pmn_source *pmn_source_new(FILE *f, const pmn_source_options *o, pmn_diag_fn fn, void *ctx)
{
    static const pmn_source_options none = { .format = PMN_SOURCE_AUTO };
    pmn_source *src = calloc(1, sizeof *src);
    if (!o)
        o = &none;
    if (!src)
        return NULL;
    int format = o->format;
    if (format == PMN_SOURCE_AUTO) {
        int by_name;
        format = pmn_source_detect(f, o->name, &by_name);
        pmn_diag_fn say = o->note ? o->note : fn;
        void *say_ctx = o->note ? o->note_ctx : ctx;
        if (format >= PMN_SOURCE_FOREIGN && say) {
            pmn_format pf = (pmn_format)(format - PMN_SOURCE_FOREIGN);
            pmn_diag d;
            if (by_name)
                pmn_diag_make(&d, PMN_N133, 0, 0, "read as %s: its name ends in %s",
                              pmn_format_title(pf), pmn_format_extension(pf));
            else
                pmn_diag_make(&d, PMN_N133, 0, 0,
                              "read as %s: its tags and first move are written in it",
                              pmn_format_title(pf));
            say(say_ctx, &d);
        }
    }
    src->format = format;
    if (format >= PMN_SOURCE_FOREIGN) {
        src->foreign = pmn_format_reader_new(f, (pmn_format)(format - PMN_SOURCE_FOREIGN), fn,
                                             ctx);
        if (src->foreign && o->setup)
            pmn_format_reader_set_setup(src->foreign, o->setup);
    } else if (format == PMN_SOURCE_XML) {
        src->xml = pmn_xml_reader_new(f, o->name ? o->name : "-", o->validate, fn, ctx);
    } else if ((src->pmn = pmn_reader_new(f, fn, ctx)) != NULL) {
        if (o->setup)
            pmn_reader_set_setup(src->pmn, o->setup);
        if (o->lines_before)
            pmn_reader_set_lines_before(src->pmn, o->lines_before);
    }
    if (!src->foreign && !src->xml && !src->pmn) {
        free(src);
        return NULL;
    }
    return src;
}

int pmn_source_format(const pmn_source *src)
{
    return src->format;
}

pmn_reader *pmn_source_pmn(pmn_source *src)
{
    return src->pmn;
}

int pmn_source_next(pmn_source *src, pmn_record *rec)
{
    return src->foreign ? pmn_format_reader_next(src->foreign, rec)
         : src->xml     ? pmn_xml_reader_next(src->xml, rec)
                        : pmn_reader_next(src->pmn, rec);
}

void pmn_source_free(pmn_source *src)
{
    if (!src)
        return;
    pmn_format_reader_free(src->foreign);
    pmn_xml_reader_free(src->xml);
    pmn_reader_free(src->pmn);
    free(src);
}
