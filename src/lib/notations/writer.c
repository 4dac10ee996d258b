/* writer.c - records as canonical PMN. */
#include "pmn.h"
#include "../base/util.h"
#include "../records/record.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The text goes out in units: a unit is never broken, and lines break only
 * between units.  Glued pieces ("(" and the move after it, a move and its
 * ";") join the unit they touch. */
struct text_out {
    FILE *f;
    const pmn_write_options *o;
    const pmn_rules *rules;
    int first;                /* the side a reader gives the line's first ply */
    unsigned col;             /* of the line written so far */
    char *unit;
    size_t len, cap;
    int glue_next;            /* the next piece joins the current unit */
    int named;                /* the last sowing written named a hole */
    int err;
    int unplayed;             /* the replay played nothing: no start to play from */
};

static void flush_unit(struct text_out *w)
{
    if (!w->len)
        return;
    if (w->col && w->col + 1 + w->len > w->o->width) {
        fputc('\n', w->f);
        w->col = 0;
    } else if (w->col) {
        fputc(' ', w->f);
        w->col++;
    }
    if (fwrite(w->unit, 1, w->len, w->f) != w->len)
        w->err = 1;
    w->col += (unsigned)w->len;
    w->len = 0;
}

static void piece(struct text_out *w, const char *s, size_t n, int glue)
{
    if (!glue && !w->glue_next)
        flush_unit(w);
    w->glue_next = 0;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 128;
        while (cap < w->len + n + 1)
            cap *= 2;
        char *u = realloc(w->unit, cap);
        if (!u) {
            w->err = 1;
            return;
        }
        w->unit = u;
        w->cap = cap;
    }
    memcpy(w->unit + w->len, s, n);
    w->len += n;
}

static void put(struct text_out *w, const char *s, int glue)
{
    piece(w, s, strlen(s), glue);
}

/* Add to the current unit after a space: a line never breaks there. */
static void join(struct text_out *w, const char *s)
{
    piece(w, " ", 1, 1);
    piece(w, s, strlen(s), 1);
}

/* A word of a comment as braces hold it: '}' as \}, and a backslash as \\
 * where the reader would otherwise take it for an escape (before '}', a
 * backslash, or the end of the comment). */
static void comment_word(struct text_out *w, const char *s, size_t n, int glue, int last)
{
    char buf[256];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int escape = s[i] == '}' || (s[i] == '\\' && (i + 1 == n ? last
                                                       : s[i + 1] == '}' || s[i + 1] == '\\'));
        if (k + 2 > sizeof buf) {
            piece(w, buf, k, glue);
            glue = 1;
            k = 0;
        }
        if (escape)
            buf[k++] = '\\';
        buf[k++] = s[i];
    }
    piece(w, buf, k, glue);
}

/* Comments are written word by word, so that they wrap like the moves. */
static void comment(struct text_out *w, const char *text)
{
    const char *s = text;
    int first = 1;
    put(w, "{", 0);
    w->glue_next = 1;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        size_t n = 0;
        while (s[n] && !isspace((unsigned char)s[n]))
            n++;
        const char *rest = s + n;
        while (isspace((unsigned char)*rest))
            rest++;
        comment_word(w, s, n, first, *rest == '\0');
        first = 0;
        s += n;
    }
    w->glue_next = 0;
    put(w, "}", 1);
}

static int numbers_say(const pmn_played *p, int given);

/* prefix, the decimal digits of n, and suffix, into buf (room for 32):
 * for every move, where snprintf cost the writer a fifth of its time. */
static const char *decimal(char *buf, const char *prefix, unsigned n, const char *suffix)
{
    char digits[PMN_DIGITS];
    strcpy(buf, prefix);
    strcat(buf, util_digits(digits, n));
    return strcat(buf, suffix);
}

/* A move's number, its hole and its annotations stay on one line. */
static void move_text(struct text_out *w, const pmn_move *m, const pmn_played *pl, int numbered,
                 int given)
{
    pmn_notation notation = w->o->notation;
    /* A record the replay could not start (a problem's solution without
     * its diagram, N215) keeps the side its letters name: a reader of
     * numbers would give them by turns, and replay them as another game,
     * which plays on where the letters stop (the fuzzer's finding of
     * 2026-11-29: "f" after North's capture read back as North's "6"). */
    if (notation == PMN_NOTATION_NUMBERS
        && (!numbers_say(pl, given) || (w->unplayed && m->notation == PMN_NOTATION_LETTERS)))
        notation = PMN_NOTATION_LETTERS;
    char buf[32];
    int named = m->hole >= 0 && (unsigned)m->hole < w->rules->pits;
    if (pl->continues) {
        /* Digits joined to digits by '-' may read as a result ("1-0",
         * "0-1") where one of the two names no hole: a space before the
         * '-' ("1 -0") reads back as the same joined sowing. */
        if ((!named || !w->named) && w->len && isdigit((unsigned char)w->unit[w->len - 1]))
            join(w, "-");
        else
            put(w, "-", 1);
    }
    w->named = named;
    if (numbered) {
        put(w, decimal(buf, "", pl->number, pl->mover == PMN_SOUTH ? "." : "..."), 0);
    }
    if (named)
        pmn_hole_name(w->rules, notation, pl->side, m->hole, buf, sizeof buf);
    else if (isalpha((unsigned char)m->text[0])
             && (unsigned)(tolower((unsigned char)m->text[0]) - 'a') >= w->rules->pits
             && strspn(m->text + 1, "0123456789") == strlen(m->text + 1))
        /* A letter past the board's (the seeds the Awari notation writes
         * after it left out), in the case that says its side in PMN (OGN's
         * and the Awari notation's 'Z' is South's 'z'), so that it reads
         * back as the same side's move -- and names no hole in either
         * case, so that no move is made legal by the change. */
        snprintf(buf, sizeof buf, "%c", pl->mover == PMN_SOUTH ? tolower((unsigned char)m->text[0])
                                                               : toupper((unsigned char)m->text[0]));
    else
        snprintf(buf, sizeof buf, "%s", m->text);   /* names no hole: as written */
    if (numbered)
        join(w, buf);
    else
        put(w, buf, pl->continues);
    put(w, m->judgement, 1);
    if (m->claim >= 0) {
        char open[3] = { '(', w->o->capture_style, '\0' };
        join(w, decimal(buf, open, (unsigned)m->claim, ")"));
    }
    for (unsigned i = 0; i < m->nnags; i++) {
        join(w, decimal(buf, "$", m->nags[i], ""));
    }
    for (size_t i = 0; i < m->ncomments; i++)
        comment(w, m->comments[i]);
}

/* The side a reader of numbers gives the ply p (before: the ply before it
 * in its line, or NULL; first: the side it gives a line's first ply): the
 * engine's side to move, and where the engine stopped following the line
 * (after an error), the other side than the ply before. */
static int numbers_side(const pmn_played *p, const pmn_played *before, int first)
{
    return !before ? first
         : p->continues ? before->mover
         : before->replayed ? before->after.to_move : !before->mover;
}

/* Can the numbers notation say the ply p, which a reader gives to the side
 * `given`?  A number names a hole of that side.  A ply the replay did not
 * play may be another's: a hole of the side not to move (E204), or a side
 * moving twice.  Such a ply is written in letters, which name the side
 * (and read back as written, with E119), so that converting the output
 * again gives the same bytes.  That holds while the output's replay goes
 * as far as the input's: a record taken for a problem's (N215), replayed
 * no further than its start, must be taken for one again once written
 * (replay.c's problem_text() reads its words across the writer's line
 * breaks). */
static int numbers_say(const pmn_played *p, int given)
{
    return p->replayed || (p->side == p->mover && given == p->mover);
}

/* The walk's visitor.  line -> ['(' ] lead comments moves [')']: a
 * variation in parentheses, after the comments of its move. */
static int writer_line_in(void *ctx, const pmn_walk_line *l)
{
    struct text_out *w = ctx;
    if (l->depth) {
        put(w, "(", 0);
        w->glue_next = 1;
        /* A variation's first ply is given the side its move was. */
        w->first = (int)l->parent_mark;
    }
    for (size_t i = 0; i < l->line->nlead; i++)
        comment(w, l->line->lead[i]);
    return PMN_WALK_CONTINUE;
}

static int writer_line_out(void *ctx, const pmn_walk_line *l)
{
    if (l->depth)
        put(ctx, ")", 1);
    return PMN_WALK_CONTINUE;
}

/* A move, numbered as the walk numbers it (North's move takes "N..."
 * unless South's move of the same number comes just before it). */
static int writer_move_in(void *ctx, pmn_walk_node *n)
{
    struct text_out *w = ctx;
    int given = numbers_side(n->played, n->prior, w->first);
    move_text(w, n->move, n->played, n->numbered, given);
    n->mark = given;
    return PMN_WALK_CONTINUE;
}

/* A ';' follows North's move, where another follows it. */
static int writer_move_out(void *ctx, const pmn_walk_node *n)
{
    if (n->played->mover == PMN_NORTH && n->next && !n->next->continues)
        put(ctx, ";", 1);
    return PMN_WALK_CONTINUE;
}

void writer_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *s = value; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputs("\"]\n", f);
}

static const char *const setup_tags[] = { "Game", "Rules", "SetUp", "Position" };

static int is_placed(const char *name)
{
    for (size_t i = 0; i < RECORD_ROSTER; i++)
        if (strcmp(name, record_roster[i]) == 0)
            return 1;
    for (size_t i = 0; i < COUNT(setup_tags); i++)
        if (strcmp(name, setup_tags[i]) == 0)
            return 1;
    return strcmp(name, "Result") == 0;
}

/* The Result tag's value, as read (any text: a tag holds it safely). */
static const char *result_tag_of(const pmn_record *rec, const pmn_write_options *o)
{
    const char *tagged = pmn_record_tag(rec, "Result");
    if (o->result)
        return o->result;
    if (tagged)
        return tagged;
    return rec->result[0] ? rec->result : "*";
}

/* The token that ends the movetext: only ever a result, so that no tag
 * value can put moves or a game into the output. */
static const char *result_token_of(const pmn_record *rec, const pmn_write_options *o)
{
    const char *r = result_tag_of(rec, o);
    if (pmn_outcome_parse(r, NULL) == 0)
        return r;
    return rec->result[0] ? rec->result : "*";
}

/* The tags; the set-up ones say how the game was set up (s), which
 * --rules may have changed from what the record's own said. */
static void write_tags(FILE *f, const pmn_record *rec, const pmn_setup *s, const char *result)
{
    const pmn_tag *first[COUNT(setup_tags)];
    char game[64], rules[512], position[PMN_MAX_SIDE_PITS * 2 * 7 + 64];
    int changed = pmn_setup_tags(rec, s, game, sizeof game, rules, sizeof rules, position,
                                 sizeof position);
    for (size_t i = 0; i < RECORD_ROSTER; i++) {
        const char *v = pmn_record_tag(rec, record_roster[i]);
        writer_tag(f, record_roster[i], v ? v : "?");
    }
    writer_tag(f, "Result", result);
    for (size_t i = 0; i < COUNT(setup_tags); i++)
        first[i] = pmn_record_find_tag(rec, setup_tags[i]);
    if (changed) {
        writer_tag(f, "Game", game);
        if (*rules)
            writer_tag(f, "Rules", rules);
    } else {
        if (!first[0])
            setup_default_game(game, sizeof game);   /* what a record without one is */
        writer_tag(f, "Game", first[0] ? first[0]->value : game);
        if (first[1])
            writer_tag(f, "Rules", first[1]->value);
    }
    /* A start that --position gave is the record's from now on. */
    if (first[2] || first[3] || *position)
        writer_tag(f, "SetUp", first[2] && !(*position && !first[3]) ? first[2]->value : "1");
    if (first[3] || *position)
        writer_tag(f, "Position", position);
    /* Every other tag, and the second of any tag given twice, in order. */
    for (size_t i = 0; i < rec->ntags; i++) {
        const pmn_tag *t = &rec->tags[i];
        if (!is_placed(t->name) || pmn_record_find_tag(rec, t->name) != t)
            writer_tag(f, t->name, t->value);
    }
}

void pmn_write_options_init(pmn_write_options *o)
{
    o->notation = PMN_NOTATION_LETTERS;
    o->capture_style = '+';
    o->result = NULL;
    o->width = 80;
}

/* The tags, from the replay's set-up; the moves; the result. */
static int writer_game_in(void *ctx, const pmn_record *rec, const pmn_replay *replay)
{
    struct text_out *w = ctx;
    const pmn_setup *s = pmn_replay_setup(replay);
    w->rules = &s->rules;
    w->first = s->start.to_move;
    write_tags(w->f, rec, s, result_tag_of(rec, w->o));
    fputc('\n', w->f);
    return PMN_WALK_CONTINUE;
}

static int writer_game_out(void *ctx, const pmn_record *rec, const pmn_replay *replay)
{
    struct text_out *w = ctx;
    (void)replay;
    put(w, result_token_of(rec, w->o), 0);
    flush_unit(w);
    fputc('\n', w->f);
    return PMN_WALK_CONTINUE;
}

int pmn_write_record(FILE *f, const pmn_record *rec, const pmn_replay *replay,
                     const pmn_write_options *o)
{
    static const pmn_walker pmn_writer = {
        writer_game_in, writer_line_in, writer_move_in,
        writer_move_out, writer_line_out, writer_game_out, 1, 0, 1
    };
    struct text_out w = { f, o, NULL, 0, 0, NULL, 0, 0, 0, 0, 0, 0 };
    w.unplayed = replay && pmn_replay_result(replay)->setup != PMN_SETUP_READY;
    int rc = pmn_walk(rec, replay, &pmn_writer, &w);
    free(w.unit);
    return rc || w.err || ferror(f) ? -1 : 0;
}
