/* quick.c - a game proved clean in one pass over its text, for pmn check.
 *
 * Most games of a large archive are written by programs, as the sample
 * games are, and have nothing wrong with them; parsing each into a record
 * and replaying it with the general engine costs ten times what reading
 * them does.  Here a game's text is read and replayed at once by the
 * packed engine of the relay family (relay.h), and the game is counted
 * only when this proves that the full path (parser, record, replay) would
 * report nothing at all: Hawalis rules by default or by its Game tag, the
 * tags and moves in the shape the writer and the sample games use, every
 * move legal and numbered as it should be, every capture written and
 * exact, the game ended by rule (or unfinished, marked '*') with its result
 * the same in the Result tag and after the moves.  Anything else (a
 * comment, a variation, a note to make: an endless move, a repetition)
 * returns 0, and the full path reads the game as if this did not exist, so
 * that diagnostics are the same by construction.  test_quick and
 * fuzz_quick compare the two paths game by game. */
#include "../base/util.h"
#include "../engine/play.h"
#include "quick.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

#ifdef PMN_RELAY

/* Positions kept for the repetition test, since the last capture; a game
 * that goes longer without one takes the full path. */
#define SEEN_MAX (SEEN_SLOTS / 2)

int quick_init(struct quick *q, const pmn_setup_options *o)
{
    pmn_position start;
    memset(q, 0, offsetof(struct quick, holes));   /* the holes are written before read */
    q->nholes = q->nkeys = 0;
    if (o && (o->rules || o->nspecs))
        return 0;   /* rules from the command line: the full path sets them up */
    if (pmn_rules_init(&q->rules, NULL, NULL) < 0)
        return 0;
    pmn_position_start(&q->rules, &start);
    if (start.to_move != PMN_SOUTH || strcmp(q->rules.name, "hawalis") != 0
        || pmn_position_ending(&q->rules, &start, NULL) != PMN_END_NONE
        || !relay_fits(&q->rules, &start, &q->f))
        return 0;
    q->south = pack(&q->f, start.pit[PMN_SOUTH]);
    q->north = pack(&q->f, start.pit[PMN_NORTH]);
    q->usable = 1;
    return 1;
}

/* The text is read up to the NUL that ends it (the reader's chunk has
 * one), so that no test of the end is needed; a NUL inside the text stops
 * the scan there, and the game takes the full path.  What a character may
 * be, as bits: */
enum {
    BLANK = 1,                /* between tokens */
    ENDS_TOKEN = 2,           /* after a judgement or a result: a blank, ';' or the end */
    ENDS_MOVE = 4,            /* after a letter or a count: a judgement may follow at once */
    ENDS_VALUE = 8,           /* what a tag's value taken here stops at */
};

static const unsigned char kind[256] = {
    [' '] = BLANK | ENDS_TOKEN | ENDS_MOVE, ['\n'] = BLANK | ENDS_TOKEN | ENDS_MOVE | ENDS_VALUE,
    ['\t'] = BLANK | ENDS_TOKEN | ENDS_MOVE, ['\r'] = BLANK | ENDS_TOKEN | ENDS_MOVE,
    [';'] = ENDS_TOKEN | ENDS_MOVE, ['\0'] = ENDS_TOKEN | ENDS_MOVE | ENDS_VALUE,
    ['!'] = ENDS_MOVE, ['?'] = ENDS_MOVE, ['"'] = ENDS_VALUE, ['\\'] = ENDS_VALUE,
};

static int is(const char *s, int k)
{
    return kind[(unsigned char)*s] & k;
}

static const char *skip_blanks(const char *s)
{
    while (is(s, BLANK))
        s++;
    return s;
}

static int ends_token(const char *s)
{
    return is(s, ENDS_TOKEN);
}

static int ends_move(const char *s)
{
    return is(s, ENDS_MOVE);
}

/* The result at s, as the Result tag would hold it, or NULL.  *after: where
 * it ends. */
static const char *result_at(const char *s, const char **after)
{
    const char *r = s[0] == '*' ? "*" : s[0] == '1' && s[1] == '-' ? "1-0"
                  : s[0] == '0' ? "0-1" : "1/2-1/2";
    size_t n = strlen(r);
    if (strncmp(s, r, n) != 0 || !ends_token(s + n))
        return NULL;
    *after = s + n;
    return r;
}

/* tags -> { '[' NAME ' "' VALUE '"]' NEWLINE }, at least one; the value
 * with no '"', '\' or NUL, which the parser would unescape or report.  Of
 * the tags that set the game up, only [Game "Hawalis"] (in any case) is
 * taken.  Returns where the tags end, or NULL; *result: the Result tag's
 * value, if any. */
static const char *tags(const char *s, const char **result)
{
    int n = 0, game = 0;
    *result = NULL;
    while (*s == '[') {
        const char *name = ++s;
        while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')
               || *s == '_')
            s++;
        size_t len = (size_t)(s - name);
        if (!len || s[0] != ' ' || s[1] != '"')
            return NULL;
        const char *value = s += 2;
        while (!is(s, ENDS_VALUE))
            s++;
        size_t vlen = (size_t)(s - value);
        if (s[0] != '"' || s[1] != ']')
            return NULL;
        s += 2 + (s[2] == '\r');
        if (*s++ != '\n')
            return NULL;
        n++;
#define IS(tag) (len == sizeof tag - 1 && memcmp(name, tag, len) == 0)
        if (IS("Game")) {
            /* In any case, as the set-up reads it (bench/games writes
             * "hawalis", the rule set's name). */
            if (game++ || vlen != 7 || strncasecmp(value, "hawalis", 7) != 0)
                return NULL;
        } else if (IS("Result")) {
            static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "*" };
            if (*result)
                return NULL;   /* a second one */
            for (int i = 0; i < 4 && !*result; i++)
                if (strlen(results[i]) == vlen && memcmp(value, results[i], vlen) == 0)
                    *result = results[i];
            if (!*result)
                return NULL;
        } else if (IS("Rules") || IS("Position") || IS("SetUp")) {
            return NULL;
        }
#undef IS
    }
    return n ? s : NULL;
}

/* claim -> '(+' DIGITS ')' at s: the seeds it says, or -1 if it is not in
 * that shape.  *s moves past it. */
static int claim(const char **s)
{
    const char *c = *s + 2;
    int v = 0, digits = 0;
    if ((*s)[1] != '+')
        return -1;
    for (; *c >= '0' && *c <= '9' && digits < 3; c++, digits++)
        v = 10 * v + (*c - '0');
    if (!digits || *c != ')' || !ends_move(c + 1))
        return -1;
    *s = c + 1;
    return v;
}

/* judgement -> '!' | '?' | '!!' | '??' | '!?' | '?!' at s; 0 if it is not
 * one.  *s moves past it. */
static int judgement(const char **s)
{
    const char *c = *s + 1;
    if (*c == '!' || *c == '?')
        c++;
    if (!ends_token(c))
        return 0;
    *s = c;
    return 1;
}

/* Has the position of repetition key `key` (play.h's) been seen since the
 * last capture?  If not, it is added.  Two positions with the same key are
 * taken as the same: at worst a game takes the full path for nothing.  The table's places are free unless stamped with the current
 * round (which a capture or a new game begins). */
static int seen_before(struct quick *q, uint64_t key)
{
    if (++q->nseen > SEEN_MAX)
        return 1;   /* too long without a capture: the full path */
    for (unsigned i = (unsigned)(key >> (64 - SEEN_BITS));; i = (i + 1) & (SEEN_SLOTS - 1)) {
        if (q->seen[i].round != q->round) {
            q->seen[i].round = q->round;
            q->seen[i].key = key;
            return 0;
        }
        if (q->seen[i].key == key)
            return 1;
    }
}

static void forget_seen(struct quick *q)
{
    q->round++;
    q->nseen = 0;
}

/* One piece, by design: a single pass over the movetext that reads a
 * ply and plays it in the same steps, its whole state (both sides' packed
 * holes, the legal holes, the mover, the ply, the seeds taken) in
 * registers.  It is check's hot loop (bench/run.sh: the quick pass is most
 * of check's 169 MB/s), and each exit is one shape of text the full path
 * must read instead; split, the state would go through memory at every
 * ply and the exits through return codes. */
int quick_read(struct quick *q, const char *text, size_t len, int proved,
               pmn_game_facts *facts)
{
    const struct relay *f = &q->f;
    const char *s, *end = text + len, *tagged, *written;
    q->nholes = q->nkeys = 0;
    if (!q->usable || text[len] != '\0' || !(s = tags(text, &tagged)))
        return 0;
    /* mine: the holes of the side to move, which is mover. */
    holeset mine = q->south, theirs = q->north, legal = legal_bytes(f, mine);
    unsigned ply = 0;
    uint32_t took[2] = { 0, 0 };
    int mover = PMN_SOUTH, ended = 0, writes_claims = 0, unwritten = 0;
    forget_seen(q);
    uint64_t key = relay_key(mine, theirs, mover);
    seen_before(q, key);
    /* The keys an index files the positions under (pmn_position_key's:
     * the repetition key finalised). */
    uint64_t *keys = proved ? NULL : q->keys;
    if (keys)
        keys[0] = pmn_mix64(key);
    for (;;) {
        /* ply -> [number] LETTER [claim] [judgement] [';'] */
        s = skip_blanks(s);
        const char *token = s;
        if (ended || ply >= QUICK_MAX_PLIES)
            break;    /* a result must follow, or past what a game may hold */
        if (mover == PMN_SOUTH) {
            /* number -> DIGITS '.' BLANK, no leading zero, the move's own */
            unsigned v = 0;
            while (*s >= '0' && *s <= '9' && s - token < 9)
                v = 10 * v + (unsigned)(*s++ - '0');
            if (*s != '.') {
                s = token;
                break;    /* perhaps the result */
            }
            if (v != ply / 2 + 1 || *token == '0' || !is(s + 1, BLANK))
                return 0;
            s = skip_blanks(s + 1);
        }
        unsigned hole = (unsigned)(*s - (mover == PMN_SOUTH ? 'a' : 'A'));
        if (hole >= f->n || !ends_move(s + 1)) {
            if (mover == PMN_SOUTH)
                return 0;
            break;
        }
        s++;
        q->holes[ply] = (unsigned char)hole;
        unsigned taken = 0;
        if (!proved) {
            if (!(unsigned)(legal >> (8 * hole + 7) & 1))
                return 0;
            int at = relay_sow(f, &mine, hole, RELAY_LAP_LIMIT, NULL);
            if (at < 0)
                return 0;   /* perhaps endless: the full path proves it, in a note */
            if (theirs & f->facing[at]) {
                taken = seeds_of(theirs & f->taken[at]);
                theirs &= ~f->taken[at];
                took[mover] += taken;
            }
        }
        s = skip_blanks(s);
        if (*s == '(') {
            int said = claim(&s);
            if (said < 0 || (!proved && said != (int)taken))
                return 0;
            writes_claims = 1;
            s = skip_blanks(s);
        } else {
            unwritten |= taken != 0;
        }
        if ((*s == '!' || *s == '?') && !judgement(&s))
            return 0;
        s = skip_blanks(s);
        if (*s == ';') {
            if (mover == PMN_SOUTH || !ends_token(s + 1))
                return 0;   /* a ';' that ends no full move */
            s++;
        } else if (mover == PMN_NORTH && *s >= '0' && *s <= '9' && !result_at(s, &written)) {
            return 0;       /* a ';' missing between full moves */
        }
        holeset mover_now = theirs;
        theirs = mine;
        mine = mover_now;
        mover = !mover;
        ply++;
        if (proved)
            continue;   /* its end and repetitions were proved before */
        key = relay_key(mine, theirs, mover);
        if (keys)
            keys[ply] = pmn_mix64(key);
        if (!(legal = legal_bytes(f, mine))) {
            ended = 1;      /* the side to move has none: it has lost */
            continue;
        }
        if (taken)
            forget_seen(q);
        if (seen_before(q, key))
            return 0;       /* a repetition: the full path notes it */
    }
    s = skip_blanks(s);
    const char *after;
    if (!(written = result_at(s, &after)) || skip_blanks(after) != end || ply == 0)
        return 0;
    if (proved) {
        q->nholes = ply;
        return 1;
    }
    /* How the game ended, as the result must say. */
    const char *ends = !ended ? "*" : mover == PMN_SOUTH ? "0-1" : "1-0";
    if (strcmp(written, ends) != 0 || (tagged && strcmp(tagged, written) != 0)
        || (writes_claims && unwritten))
        return 0;
    facts->moves = ply;
    facts->ending = !ended ? PMN_END_NONE : seeds_of(mine) ? PMN_END_NO_MOVE : PMN_END_NO_SEEDS;
    facts->outcome = !ended ? PMN_ONGOING : mover == PMN_SOUTH ? PMN_NORTH_WINS : PMN_SOUTH_WINS;
    facts->captured[PMN_SOUTH] = took[PMN_SOUTH];
    facts->captured[PMN_NORTH] = took[PMN_NORTH];
    q->nholes = ply;
    q->nkeys = keys ? ply + 1 : 0;
    return 1;
}

#else

int quick_init(struct quick *q, const pmn_setup_options *o)
{
    (void)o;
    q->usable = 0;
    q->nholes = q->nkeys = 0;
    return 0;
}

int quick_read(struct quick *q, const char *text, size_t len, int proved,
               pmn_game_facts *facts)
{
    (void)q, (void)text, (void)len, (void)proved, (void)facts;
    return 0;
}

#endif
