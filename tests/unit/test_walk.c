/* test_walk.c - the one walk over a record and its replay (walk.c,
 * pmn_walk), which every writer visits: the order of lines and moves in
 * depth and in breadth, the numbers a reader needs with and without '-'
 * joining the sowings of a turn, the position each move is played from
 * up to the first move the replay could not play, the visitor's marks
 * carried to the lines of variations, and PRUNE and ABORT. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "read.h"

/* Kalah: South's c ends in its store and e goes on the turn; North's B
 * too, then C, whose variation A has one of its own (D) and goes on to
 * South's b; after the main line's F, 'z' names no hole and the replay
 * stops there (E110). */
static const char game[] =
    "[Game \"Kalah\"]\n\n"
    "{lead} 1. c-e B-C (-A {a} (-D); 2. b); 2. b-d {after} 2... A-F; 3. z 4. a 5. b *\n";

/* What the walk called, in a line of words. */
struct trace {
    char s[2048];
    const pmn_replay *replay;  /* the one the game function was given */
    int prune_at, abort_depth; /* -1: none */
};

static void add(struct trace *t, const char *fmt, ...)
{
    va_list ap;
    size_t n = strlen(t->s);
    va_start(ap, fmt);
    vsnprintf(t->s + n, sizeof t->s - n, fmt, ap);
    va_end(ap);
}

static int on_game(void *ctx, const pmn_record *rec, const pmn_replay *replay)
{
    struct trace *t = ctx;
    (void)rec;
    t->replay = replay;
    add(t, "G ");
    return PMN_WALK_CONTINUE;
}

static int on_line(void *ctx, const pmn_walk_line *l)
{
    struct trace *t = ctx;
    add(t, "L%u:%ld/%ld/%ld/%ld ", l->depth, l->index, l->parent, l->first, l->parent_mark);
    return (int)l->depth == t->abort_depth ? PMN_WALK_ABORT : PMN_WALK_CONTINUE;
}

/* index:text, '#' where numbered, '+' where the position before it is
 * known, '>' and the first variation's line in breadth order. */
static int on_move(void *ctx, pmn_walk_node *n)
{
    struct trace *t = ctx;
    add(t, "%ld:%s%s%s", n->index, n->move->text, n->numbered ? "#" : "", n->before ? "+" : "");
    if (n->first_variation >= 0)
        add(t, ">%ld", n->first_variation);
    add(t, " ");
    /* Where it is known, the position before is the one the ply before
     * left (or the start), and the replay played the move from it. */
    if (n->before && n->prior)
        assert_ptr_equal(n->before, &n->prior->after);
    if (n->before)
        assert_true(n->played->replayed);
    int last = n->move == &n->in->line->moves[n->in->line->nmoves - 1];
    assert_ptr_equal(n->next, last ? NULL : n->played + 1);
    assert_ptr_equal(n->prior, n->move == n->in->line->moves ? NULL : n->played - 1);
    n->mark = 100 + n->index;
    return n->index == t->prune_at ? PMN_WALK_PRUNE : PMN_WALK_CONTINUE;
}

static int on_move_end(void *ctx, const pmn_walk_node *n)
{
    add(ctx, "E%ld ", n->index);
    return PMN_WALK_CONTINUE;
}

static int on_line_end(void *ctx, const pmn_walk_line *l)
{
    add(ctx, "/L%ld ", l->index);
    return PMN_WALK_CONTINUE;
}

static int on_game_end(void *ctx, const pmn_record *rec, const pmn_replay *replay)
{
    (void)rec, (void)replay;
    add(ctx, "g");
    return PMN_WALK_CONTINUE;
}

static const pmn_walker depth_joined = { on_game, on_line, on_move, on_move_end, on_line_end,
                                         on_game_end, 1, 0, 0 };

/* Walk the game with w, its own replay or none; the trace. */
static struct trace walked(const pmn_walker *w, int own_replay, int prune_at, int abort_depth,
                           int expect)
{
    pmn_record rec;
    struct diags ds;
    struct trace t = { "", NULL, prune_at, abort_depth };
    assert_int_equal(read_games(game, &rec, 1, &ds), 1);
    pmn_replay *r = NULL;
    if (own_replay) {
        pmn_setup s;
        pmn_setup_record(&rec, NULL, &s, NULL, NULL);
        r = pmn_replay_new(&rec, &s, NULL, NULL);
        assert_non_null(r);
    }
    assert_int_equal(pmn_walk(&rec, r, w, &t), expect);
    if (r)
        assert_ptr_equal(t.replay, r);
    assert_non_null(t.replay);   /* the walker's own, where none was given */
    pmn_replay_free(r);
    pmn_record_free(&rec);
    return t;
}

/* Depth order: a variation inside its move, between the move and its
 * end; the turn's sowings joined (not numbered); the move after a comment
 * or variation numbered again; no position from 'z' on. */
static void test_depth_order(void **state)
{
    (void)state;
    struct trace t = walked(&depth_joined, 1, -1, -1, 0);
    assert_string_equal(t.s,
        "G L0:0/-1/0/0 0:c#+ E0 1:e+ E1 2:B+ E2 3:C+ "
        "L1:1/3/4/103 4:A+ L2:2/4/5/104 5:D+ E5 /L2 E4 6:b#+ E6 /L1 E3 "
        "7:b#+ E7 8:d+ E8 9:A#+ E9 10:F+ E10 11:z# E11 12:a# E12 13:b# E13 /L0 g");
    /* The walker's own replay walks the same. */
    struct trace u = walked(&depth_joined, 0, -1, -1, 0);
    assert_string_equal(u.s, t.s);
}

/* The walk with the joins and breadth given, against the trace it must
 * give. */
static void walked_as(int joins, int breadth, const char *want)
{
    pmn_walker w = depth_joined;
    w.joins = joins;
    w.breadth = breadth;
    struct trace t = walked(&w, 1, -1, -1, 0);
    assert_string_equal(t.s, want);
}

/* Without '-' (the other programs' notations), each sowing that goes on
 * a turn is numbered with its turn's number again. */
static void test_unjoined_numbers(void **state)
{
    (void)state;
    walked_as(0, 0,
        "G L0:0/-1/0/0 0:c#+ E0 1:e#+ E1 2:B+ E2 3:C#+ "
        "L1:1/3/4/103 4:A#+ L2:2/4/5/104 5:D#+ E5 /L2 E4 6:b#+ E6 /L1 E3 "
        "7:b#+ E7 8:d#+ E8 9:A#+ E9 10:F#+ E10 11:z# E11 12:a# E12 13:b# E13 /L0 g");
}

/* Breadth order (the HTML page's): the main line whole, then each
 * variation in the order its move was met; a move says where its
 * variations' lines are, and each line its parent move and first node. */
static void test_breadth_order(void **state)
{
    (void)state;
    walked_as(1, 1,
        "G L0:0/-1/0/0 0:c#+ E0 1:e+ E1 2:B+ E2 3:C+>1 E3 4:b#+ E4 5:d+ E5 6:A#+ E6 "
        "7:F+ E7 8:z# E8 9:a# E9 10:b# E10 /L0 "
        "L1:1/3/11/103 11:A+>2 E11 12:b#+ E12 /L1 L2:2/11/13/111 13:D+ E13 /L2 g");
}

/* PRUNE from a move skips its variations, not its end nor the moves
 * after; ABORT from a line stops the walk there. */
static void test_prune_and_abort(void **state)
{
    (void)state;
    struct trace t = walked(&depth_joined, 1, 3, -1, 0);
    assert_string_equal(t.s,
        "G L0:0/-1/0/0 0:c#+ E0 1:e+ E1 2:B+ E2 3:C+ E3 "
        "4:b#+ E4 5:d+ E5 6:A#+ E6 7:F+ E7 8:z# E8 9:a# E9 10:b# E10 /L0 g");
    t = walked(&depth_joined, 1, -1, 2, PMN_WALK_ABORT);
    assert_string_equal(t.s,
        "G L0:0/-1/0/0 0:c#+ E0 1:e+ E1 2:B+ E2 3:C+ L1:1/3/4/103 4:A+ L2:2/4/5/104 ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_order),
        cmocka_unit_test(test_unjoined_numbers),
        cmocka_unit_test(test_breadth_order),
        cmocka_unit_test(test_prune_and_abort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
