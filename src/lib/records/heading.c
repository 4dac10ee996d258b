/* heading.c - a heading that a web page prints above a game, such as
 * "Miceu Tavares (Portugal) - Ralf Gering (Germany), June 11, 2009", read as
 * the tags it stands for.  Only a line that names two players and a date is
 * a heading: prose between games must not become players. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "heading.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* South [(country)] SEPARATOR North [(country)] , date */
static const char pattern[] =
    "^[ \\t]*(.+?)[ \\t]*(?:\\(([^()]+)\\))?[ \\t]+"
    "(?:-|\\xE2\\x80[\\x93\\x94]|vs\\.?|v\\.)[ \\t]+"
    "(.+?)[ \\t]*(?:\\(([^()]+)\\))?[ \\t]*,[ \\t]*([^,]+(?:,[ \\t]*[0-9]{4})?)[ \\t.]*$";

static pcre2_code *code;
static pthread_once_t code_once = PTHREAD_ONCE_INIT;

static void compile_pattern(void)
{
    int err;
    PCRE2_SIZE where;
    code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &err, &where, NULL);
}

static const char *const months[] = {
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
};

/* 1-12 for a month's name or its first three letters, else 0. */
static int month_named(const char *s, size_t n)
{
    if (n < 3)
        return 0;
    static const char *const full[] = {
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december",
    };
    for (int m = 0; m < 12; m++) {
        if (strncasecmp(s, months[m], 3) != 0)
            continue;
        if (n == 3 || (n == 4 && s[3] == '.') || (n == strlen(full[m])
                                                   && strncasecmp(s, full[m], n) == 0))
            return m + 1;
    }
    return 0;
}

/* The words of a date: runs of letters or of digits. */
struct word { const char *s; size_t n; int digits; };

static int words_of(const char *s, size_t n, struct word w[4])
{
    int k = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        int digit = c >= '0' && c <= '9';
        int letter = (c | 32) >= 'a' && (c | 32) <= 'z';
        if (!digit && !letter) {
            if (c != ' ' && c != ',' && c != '.' && c != '-' && c != '/' && c != '\t')
                return -1;
            i++;
            continue;
        }
        if (k == 4)
            return -1;
        size_t j = i;
        while (j < n && (digit ? s[j] >= '0' && s[j] <= '9'
                               : (((unsigned char)s[j] | 32) >= 'a'
                                  && ((unsigned char)s[j] | 32) <= 'z')))
            j++;
        if (!digit && j < n && s[j] == '.')
            j++;   /* "Jun." */
        w[k].s = s + i;
        w[k].n = j - i;
        w[k].digits = digit;
        k++;
        i = j;
    }
    return k;
}

static long number_of(const struct word *w)
{
    long v = 0;
    for (size_t i = 0; i < w->n && v < 100000; i++)
        v = 10 * v + (w->s[i] - '0');
    return v;
}

/* "June 11, 2009", "11 June 2009", "June 2009", "2009-06-11", "2009.06.11",
 * "2009" as PMN's "2009.06.11" (unknown parts "??"); -1 if it is none. */
int heading_date(const char *s, size_t n, char out[11])
{
    struct word w[4];
    int k = words_of(s, n, w);
    long y = -1, m = 0, d = 0;
    if (k == 3 && w[0].digits && w[0].n == 4 && w[1].digits && w[2].digits) {
        y = number_of(&w[0]);
        m = number_of(&w[1]);
        d = number_of(&w[2]);
    } else if (k == 3 && !w[0].digits && w[1].digits && w[2].digits && w[2].n == 4) {
        m = month_named(w[0].s, w[0].n);
        d = number_of(&w[1]);
        y = number_of(&w[2]);
    } else if (k == 3 && w[0].digits && !w[1].digits && w[2].digits && w[2].n == 4) {
        d = number_of(&w[0]);
        m = month_named(w[1].s, w[1].n);
        y = number_of(&w[2]);
    } else if (k == 2 && !w[0].digits && w[1].digits && w[1].n == 4) {
        m = month_named(w[0].s, w[0].n);
        y = number_of(&w[1]);
        d = -1;
    } else if (k == 1 && w[0].digits && w[0].n == 4) {
        y = number_of(&w[0]);
        m = d = -1;
    }
    if (y < 1000 || y > 9999 || m == 0 || m > 12 || d == 0 || d > 31)
        return -1;
    snprintf(out, 11, "%04ld.", y);
    if (m > 0)
        snprintf(out + 5, 6, "%02ld.", m);
    else
        memcpy(out + 5, "??.", 4);
    if (d > 0)
        snprintf(out + 8, 3, "%02ld", d);
    else
        memcpy(out + 8, "??", 3);
    return 0;
}

/* A player's name without the quotes a page may put around it. */
static void unquoted(const char *s, size_t n, char *out, size_t size)
{
    static const char *const quotes[] = { "\"", "'", "\xE2\x80\x9C", "\xE2\x80\x9D",
                                          "\xE2\x80\x9E", "\xE2\x80\x98", "\xE2\x80\x99" };
    for (size_t q = 0; q < sizeof quotes / sizeof *quotes; q++) {
        size_t l = strlen(quotes[q]);
        if (n >= 2 * l && memcmp(s, quotes[q], l) == 0) {
            for (size_t r = 0; r < sizeof quotes / sizeof *quotes; r++) {
                size_t m = strlen(quotes[r]);
                if (n - l >= m && memcmp(s + n - m, quotes[r], m) == 0) {
                    s += l;
                    n -= l + m;
                    goto done;
                }
            }
        }
    }
done:
    snprintf(out, size, "%.*s", (int)n, s);
}

static void group(const char *s, PCRE2_SIZE *ov, int g, char *out, size_t size)
{
    if (ov[2 * g] == PCRE2_UNSET)
        out[0] = '\0';
    else
        snprintf(out, size, "%.*s", (int)(ov[2 * g + 1] - ov[2 * g]), s + ov[2 * g]);
}

int heading_parse(const char *s, size_t n, struct heading *h)
{
    pthread_once(&code_once, compile_pattern);
    if (!code || n > 300 || memchr(s, '\n', n))
        return -1;
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    if (!md)
        return -1;
    int rc = pcre2_match(code, (PCRE2_SPTR)s, n, 0, 0, md, NULL);
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    int ok = rc > 0 && heading_date(s + ov[10], ov[11] - ov[10], h->date) == 0;
    if (ok) {
        unquoted(s + ov[2], ov[3] - ov[2], h->south, sizeof h->south);
        unquoted(s + ov[6], ov[7] - ov[6], h->north, sizeof h->north);
        group(s, ov, 2, h->south_country, sizeof h->south_country);
        group(s, ov, 4, h->north_country, sizeof h->north_country);
        ok = h->south[0] && h->north[0];
    }
    pcre2_match_data_free(md);
    return ok ? 0 : -1;
}
