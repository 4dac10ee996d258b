/* position.c - the position type and its text form. */
#include "pmn.h"
#include "../base/util.h"

#include <stdio.h>
#include <string.h>

static const char side_letter[2] = { 'S', 'N' };
static const char *const side_name[2] = { "South", "North" };

const char *pmn_side_name(int side)
{
    return side_name[side == PMN_NORTH];
}

void pmn_position_start(const pmn_rules *r, pmn_position *p)
{
    memset(p, 0, sizeof *p);
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < r->pits; i++)
            p->pit[s][i] = (uint16_t)r->seeds;
    p->to_move = PMN_SOUTH;
}

unsigned pmn_position_seeds(const pmn_rules *r, const pmn_position *p, int side)
{
    unsigned n = 0;
    for (unsigned i = 0; i < r->pits; i++)
        n += p->pit[side][i];
    return n;
}

int pmn_position_equal(const pmn_rules *r, const pmn_position *a,
                       const pmn_position *b)
{
    return a->to_move == b->to_move
        && memcmp(a->pit[0], b->pit[0], r->pits * sizeof a->pit[0][0]) == 0
        && memcmp(a->pit[1], b->pit[1], r->pits * sizeof a->pit[1][0]) == 0;
}

/* counts -> COUNT {',' COUNT}, exactly r->pits of them */
static int parse_counts(const pmn_rules *r, const char *text, const char **pos,
                        uint16_t *pit, int side, pmn_error *err)
{
    const char *s = *pos;
    for (unsigned i = 0;; i++) {
        size_t col = (size_t)(s - text) + 1;
        if (*s < '0' || *s > '9')
            return util_fail(err, PMN_ERR_SYNTAX, col,
                             "expected the seed count of %s's hole %c, found %s",
                             side_name[side], pmn_hole_letter(side, (int)i),
                             *s ? "another character" : "the end of the string");
        unsigned long v = 0;
        while (*s >= '0' && *s <= '9') {
            v = v * 10 + (unsigned long)(*s++ - '0');
            if (v > PMN_MAX_SEEDS)
                return util_fail(err, PMN_ERR_RANGE, col,
                                 "seed count of %s's hole %c is larger than %u",
                                 side_name[side], pmn_hole_letter(side, (int)i), PMN_MAX_SEEDS);
        }
        if (i >= r->pits)
            return util_fail(err, PMN_ERR_RANGE, col, "%s has more than %u holes",
                             side_name[side], r->pits);
        pit[i] = (uint16_t)v;
        if (*s != ',') {
            if (i + 1 < r->pits)
                return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text) + 1,
                                 "%s has %u holes, expected %u", side_name[side], i + 1, r->pits);
            *pos = s;
            return 0;
        }
        s++;
    }
}

/* captured -> ' ' COUNT ':' COUNT: the seeds South and North have captured
 * (or stored) so far, for the games won by seeds. */
static int parse_captured(const char *text, const char **pos, pmn_position *q,
                          pmn_error *err)
{
    const char *s = *pos + 1;
    for (int side = 0; side < 2; side++) {
        unsigned long v = 0;
        if (*s < '0' || *s > '9')
            return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1,
                             side ? "expected North's captured seeds after ':'"
                                 : "expected the captured seeds, South:North");
        while (*s >= '0' && *s <= '9')
            if ((v = v * 10 + (unsigned long)(*s++ - '0')) > PMN_MAX_SEEDS)
                return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text),
                                 "more than %u captured seeds", PMN_MAX_SEEDS);
        q->captured[side] = (uint32_t)v;
        if (side == 0 && *s++ != ':')
            return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text),
                             "expected ':' between South's and North's captured seeds");
    }
    *pos = s;
    return 0;
}

/* Spaces and tabs, which the reference server (go-kgp) allows around
 * every token of a board literal. */
static const char *blank(const char *s)
{
    return s + strspn(s, " \t");
}

/* kgp -> '<' COUNT ',' COUNT ',' COUNT {',' COUNT} '>' [' ' ('S' | 'N')]:
 * a board literal of the Kalah Game Protocol -- the holes a side, South's
 * store (or captures), North's, South's holes in sowing order, North's --
 * and the side to move, which KGP leaves out (South by default); blanks
 * around any token. */
static int parse_kgp(const pmn_rules *r, const char *text, pmn_position *q, pmn_error *err)
{
    unsigned long v[2 * PMN_MAX_SIDE_PITS + 3];
    unsigned n = 0;
    const char *s = blank(text) + 1;
    for (;;) {
        s = blank(s);
        if (*s < '0' || *s > '9')
            return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1,
                             "expected a count in the board literal");
        unsigned long x = 0;
        while (*s >= '0' && *s <= '9')
            if ((x = x * 10 + (unsigned long)(*s++ - '0')) > PMN_MAX_SEEDS)
                return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text),
                                 "a count of more than %u seeds", PMN_MAX_SEEDS);
        if (n == 2 * PMN_MAX_SIDE_PITS + 3)
            return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text), "a board literal of more "
                             "than %u counts", 2 * PMN_MAX_SIDE_PITS + 3);
        v[n++] = x;
        s = blank(s);
        if (*s == '>')
            break;
        if (*s++ != ',')
            return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text),
                             "expected ',' or '>' in the board literal");
    }
    s++;
    if (v[0] != r->pits)
        return util_fail(err, PMN_ERR_RANGE, (size_t)(blank(blank(text) + 1) - text) + 1,
                         "a board of %lu holes a side; %s has %u", v[0], r->name, r->pits);
    if (n != 2 * r->pits + 3)
        return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text), "%u counts, expected %u: the "
                         "holes a side, the two stores, and each hole", n, 2 * r->pits + 3);
    q->captured[PMN_SOUTH] = (uint32_t)v[1];
    q->captured[PMN_NORTH] = (uint32_t)v[2];
    for (unsigned i = 0; i < r->pits; i++) {
        q->pit[PMN_SOUTH][i] = (uint16_t)v[3 + i];
        q->pit[PMN_NORTH][i] = (uint16_t)v[3 + r->pits + i];
    }
    q->to_move = PMN_SOUTH;
    const char *side = blank(s);
    if (side > s && (*side == 'S' || *side == 'N')) {
        q->to_move = *side == 'S' ? PMN_SOUTH : PMN_NORTH;
        s = side + 1;
    }
    s = blank(s);
    if (*s != '\0')
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1,
                         "unexpected text after the board literal");
    return 0;
}

/* A count of the foreign forms, *s at a digit; -1 (reported) when it is
 * no count or too large. */
static long count_at(const char *text, const char **pos, const char *what, pmn_error *err)
{
    const char *s = *pos;
    unsigned long v = 0;
    if (*s < '0' || *s > '9')
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1, "expected %s", what);
    while (*s >= '0' && *s <= '9')
        if ((v = v * 10 + (unsigned long)(*s++ - '0')) > PMN_MAX_SEEDS)
            return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text), "%s larger than %u", what,
                             PMN_MAX_SEEDS);
    *pos = s;
    return (long)v;
}

/* ogn -> count {'-' count} '-' ('S' | 'N'): Aualé's FEN, every hole of
 * South's in sowing order (its A-F), North's (a-f), South's store, North's,
 * and the side to move. */
static int parse_ogn(const pmn_rules *r, const char *text, pmn_position *q, pmn_error *err)
{
    unsigned long v[2 * PMN_MAX_SIDE_PITS + 2];
    unsigned n = 0, want = 2 * r->pits + 2;
    const char *s = text;
    while (*s >= '0' && *s <= '9') {
        long x = count_at(text, &s, "a count", err);
        if (x < 0)
            return -1;
        if (n == want)
            return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text), "more than %u counts: "
                             "%s has %u holes a side, and two stores", want, r->name, r->pits);
        v[n++] = (unsigned long)x;
        if (*s != '-')
            break;
        s++;
    }
    if (n != want)
        return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text) + 1, "%u counts, expected %u: "
                         "each hole, South's first, then the two stores", n, want);
    if ((*s != 'S' && *s != 'N') || s[1])
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1, "expected the side to "
                         "move, S or N, at the end");
    for (unsigned i = 0; i < r->pits; i++) {
        q->pit[PMN_SOUTH][i] = (uint16_t)v[i];
        q->pit[PMN_NORTH][i] = (uint16_t)v[r->pits + i];
    }
    q->captured[PMN_SOUTH] = (uint32_t)v[2 * r->pits];
    q->captured[PMN_NORTH] = (uint32_t)v[2 * r->pits + 1];
    q->to_move = *s == 'S' ? PMN_SOUTH : PMN_NORTH;
    return 0;
}

/* psrow -> cell {',' cell};  cell -> count 'S' | count (that many empty
 * holes).  A row as PlayStrategy's board shows it, left to right from
 * South's seat: South's holes in sowing order, North's in reverse. */
static int parse_psrow(const pmn_rules *r, const char *text, const char **pos, uint16_t *pit,
                       int side, pmn_error *err)
{
    const char *s = *pos;
    unsigned file = 0;
    for (;;) {
        long x = count_at(text, &s, "a seed count ('4S') or a run of empty holes ('2')", err);
        if (x < 0)
            return -1;
        unsigned long k = *s == 'S' ? 1 : (unsigned long)x;
        if (k == 0 || file + k > r->pits)
            return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text), "%s's row has more than "
                             "%u holes", side_name[side], r->pits);
        for (unsigned long i = 0; i < k; i++, file++) {
            unsigned hole = side == PMN_SOUTH ? file : r->pits - 1 - file;
            pit[hole] = *s == 'S' ? (uint16_t)x : 0;
        }
        if (*s == 'S')
            s++;
        if (*s != ',')
            break;
        s++;
    }
    if (file != r->pits)
        return util_fail(err, PMN_ERR_RANGE, (size_t)(s - text) + 1, "%s's row has %u holes, "
                         "expected %u", side_name[side], file, r->pits);
    *pos = s;
    return 0;
}

/* playstrategy -> psrow '/' psrow ' ' count ' ' count ' ' ('S' | 'N')
 *                 [' ' count]: PlayStrategy's FEN, North's row first (a2-f2),
 * South's (a1-f1), the seeds each has captured, the side to move and the
 * move number (not kept: pmn numbers the moves from the record). */
static int parse_playstrategy(const pmn_rules *r, const char *text, pmn_position *q,
                              pmn_error *err)
{
    const char *s = text;
    if (parse_psrow(r, text, &s, q->pit[PMN_NORTH], PMN_NORTH, err) < 0)
        return -1;
    if (*s++ != '/')
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text), "expected '/' between "
                         "North's row and South's");
    if (parse_psrow(r, text, &s, q->pit[PMN_SOUTH], PMN_SOUTH, err) < 0)
        return -1;
    for (int side = 0; side < 2; side++) {
        if (*s++ != ' ')
            return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text), "expected a space and "
                             "%s's captured seeds", side_name[side]);
        long x = count_at(text, &s, "a count of captured seeds", err);
        if (x < 0)
            return -1;
        q->captured[side] = (uint32_t)x;
    }
    if (s[0] != ' ' || (s[1] != 'S' && s[1] != 'N'))
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1, "expected a space and "
                         "the side to move, S or N");
    q->to_move = s[1] == 'S' ? PMN_SOUTH : PMN_NORTH;
    s += 2;
    if (*s == ' ') {
        s++;
        if (count_at(text, &s, "the move number", err) < 0)
            return -1;
    }
    if (*s)
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1, "unexpected text after "
                         "the move number");
    return 0;
}

/* Which form a position string is in: KGP's opens with '<', Aualé's has
 * '-' between its counts, PlayStrategy's a count after its first space
 * (pmn's has the side to move there). */
pmn_position_form pmn_position_form_of(const char *text)
{
    const char *s = text + strspn(text, "0123456789");
    if (*blank(text) == '<')
        return PMN_POSITION_KGP;
    if (s > text && *s == '-')
        return PMN_POSITION_OGN;
    /* PlayStrategy's: a count 'S' on its board, or two counts and the side
     * after it (pmn's has the side first). */
    const char *space = strchr(text, ' ');
    size_t board = space ? (size_t)(space - text) : strlen(text);
    if (s > text && (memchr(text, 'S', board)
                     || (space && strspn(space + 1, "0123456789") && strchr(space + 1, ' ')
                         && space[1 + strspn(space + 1, "0123456789")] == ' ')))
        return PMN_POSITION_PLAYSTRATEGY;
    return PMN_POSITION_PMN;
}

/* A foreign form read into q: 0, -1 (reported), or 1 when text is in
 * pmn's own form. */
static int parse_foreign(const pmn_rules *r, const char *text, pmn_position *q, pmn_error *err)
{
    switch (pmn_position_form_of(text)) {
    case PMN_POSITION_KGP: return parse_kgp(r, text, q, err);
    case PMN_POSITION_OGN: return parse_ogn(r, text, q, err);
    case PMN_POSITION_PLAYSTRATEGY: return parse_playstrategy(r, text, q, err);
    default: return 1;
    }
}

unsigned pmn_position_holes(const char *text)
{
    const char *s = blank(text);
    unsigned long v = 0;
    if (*s != '<')
        return 0;
    s = blank(s + 1);
    if (*s < '0' || *s > '9')
        return 0;
    while (*s >= '0' && *s <= '9' && v <= PMN_MAX_SIDE_PITS)
        v = v * 10 + (unsigned long)(*s++ - '0');
    return v <= PMN_MAX_SIDE_PITS ? (unsigned)v : 0;
}

int pmn_position_parse_sized(pmn_rules *r, const char *text, pmn_position *p, pmn_error *err)
{
    unsigned holes = pmn_position_holes(text);
    if (holes && holes != r->pits && r->rows == 1) {
        char spec[24];
        pmn_rules sized = *r;
        snprintf(spec, sizeof spec, "holes=%u", holes);
        if (pmn_rules_apply(&sized, spec, err) < 0) {
            if (err)
                err->column = (size_t)(blank(blank(text) + 1) - text) + 1;
            return -1;
        }
        if (pmn_position_parse(&sized, text, p, err) < 0)
            return -1;
        *r = sized;
        return 0;
    }
    return pmn_position_parse(r, text, p, err);
}

/* position -> counts '/' counts ' ' ('S' | 'N') [captured]
 *           | kgp | ogn | playstrategy */
int pmn_position_parse(const pmn_rules *r, const char *text, pmn_position *p,
                       pmn_error *err)
{
    pmn_position q;
    const char *s = text;
    memset(&q, 0, sizeof q);
    int foreign = parse_foreign(r, text, &q, err);
    if (foreign < 0)
        return -1;
    if (foreign == 0)
        goto counted;
    if (parse_counts(r, text, &s, q.pit[0], PMN_SOUTH, err) < 0)
        return -1;
    if (*s != '/')
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1,
                         "expected '/' between South's and North's holes");
    s++;
    if (parse_counts(r, text, &s, q.pit[1], PMN_NORTH, err) < 0)
        return -1;
    if (*s != ' ')
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1,
                         "expected a space and the side to move (S or N)");
    s++;
    if (*s != 'S' && *s != 'N')
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1,
                         "expected the side to move, S or N");
    q.to_move = *s == 'S' ? PMN_SOUTH : PMN_NORTH;
    s++;
    if (*s == ' ' && parse_captured(text, &s, &q, err) < 0)
        return -1;
    if (*s != '\0')
        return util_fail(err, PMN_ERR_SYNTAX, (size_t)(s - text) + 1,
                         "unexpected text after the side to move");
counted:;
    unsigned long total = (unsigned long)pmn_position_seeds(r, &q, PMN_SOUTH)
                        + pmn_position_seeds(r, &q, PMN_NORTH) + q.captured[0] + q.captured[1];
    if (total > PMN_MAX_SEEDS)
        return util_fail(err, PMN_ERR_RANGE, 1, "the position holds %lu seeds, more than %u",
                         total, PMN_MAX_SEEDS);
    *p = q;
    return 0;
}

size_t pmn_position_format_as(const pmn_rules *r, const pmn_position *p,
                              pmn_position_form form, char *buf, size_t size)
{
    textbuf t;
    textbuf_init(&t, buf, size);
    switch (form) {
    case PMN_POSITION_KGP:
        textbuf_add(&t, "<%u,%u,%u", r->pits, p->captured[0], p->captured[1]);
        for (int s = 0; s < 2; s++)
            for (unsigned i = 0; i < r->pits; i++)
                textbuf_add(&t, ",%u", p->pit[s][i]);
        textbuf_add(&t, "> %c", side_letter[p->to_move]);
        return t.n;
    case PMN_POSITION_OGN:
        for (int s = 0; s < 2; s++)
            for (unsigned i = 0; i < r->pits; i++)
                textbuf_add(&t, "%u-", p->pit[s][i]);
        textbuf_add(&t, "%u-%u-%c", p->captured[0], p->captured[1], side_letter[p->to_move]);
        return t.n;
    case PMN_POSITION_PLAYSTRATEGY:
        /* Rows from South's seat, North's first; empty holes run together. */
        for (int row = 0; row < 2; row++) {
            int side = row ? PMN_SOUTH : PMN_NORTH;
            const char *sep = row ? "/" : "";
            for (unsigned f = 0; f < r->pits;) {
                unsigned v = p->pit[side][side == PMN_SOUTH ? f : r->pits - 1 - f], run = 0;
                while (v == 0 && f + run < r->pits
                       && p->pit[side][side == PMN_SOUTH ? f + run : r->pits - 1 - f - run] == 0)
                    run++;
                if (run)
                    textbuf_add(&t, "%s%u", sep, run);
                else
                    textbuf_add(&t, "%s%uS", sep, v);
                f += run ? run : 1;
                sep = ",";
            }
        }
        textbuf_add(&t, " %u %u %c 1", p->captured[0], p->captured[1],
                    side_letter[p->to_move]);
        return t.n;
    default:
        return pmn_position_format(r, p, buf, size);
    }
}

size_t pmn_position_format(const pmn_rules *r, const pmn_position *p,
                           char *buf, size_t size)
{
    textbuf t;
    textbuf_init(&t, buf, size);
    for (int s = 0; s < 2; s++)
        for (unsigned i = 0; i < r->pits; i++)
            textbuf_add(&t, "%s%u", i ? "," : s ? "/" : "", p->pit[s][i]);
    textbuf_add(&t, " %c", side_letter[p->to_move]);
    if (r->goal == PMN_GOAL_MOST_SEEDS && (p->captured[0] || p->captured[1]))
        textbuf_add(&t, " %u:%u", p->captured[0], p->captured[1]);
    return t.n;
}
