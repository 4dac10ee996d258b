/* heading.h - the heading a web page prints above a game, read as tags;
 * internal to libpmn (the parser uses it). */
#ifndef PMN_HEADING_H
#define PMN_HEADING_H

#include <stddef.h>

struct heading {
    char south[128], north[128];
    char south_country[64], north_country[64];   /* "" if not given */
    char date[11];                               /* "2009.06.11", "2009.??.??" */
};

/* Is the line s[0..n) a heading that names two players and a date? */
int heading_parse(const char *s, size_t n, struct heading *h);
/* A date as pages write it, as PMN writes it; -1 if it is not one. */
int heading_date(const char *s, size_t n, char out[11]);

#endif
