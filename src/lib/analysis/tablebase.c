/* tablebase.c - endgame databases of the games scored by seeds: every
 * position with at most N seeds in play, valued exactly by retrograde
 * analysis, layer by layer of seeds in play.
 *
 * Values.  A position is its holes seen from the side to move (his first,
 * then his opponent's), whoever that is: the rules are the same for both.
 * Its value is the best final margin of the seeds still in play for the
 * side to move, what is banked already not counted; it lies in -n..n for a
 * layer of n seeds, one signed byte.  The rules must make that margin
 * depend on the holes alone (pmn_tablebase_check_rules says which do).
 *
 * Own seeds.  Where a repetition gives each side the seeds on its side
 * (Oware's repetition=own-side), a position's value depends on the moves
 * since the last capture; the files hold its value as a new game (just
 * made by a capture), found where the bounds below meet and otherwise by
 * a search with the path (cycle_value()), and the bounds where that search
 * passes its budget.  Such a layer holds two a position, bounds U and L
 * of its value as a new game; where L = U it is exact.  Both come from one
 * solve of the layer's positions with both seats apart, endless play
 * going to South (tb_solve_own(): a side that forces play out of the layer
 * never repeats a position, whatever the rest counts), narrowed by the
 * endless games a side wins with a strategy of no memory
 * (own_recurrence()): South to move, it is U; North to move, L.
 *
 * Layers.  A move that banks seeds (a capture, a seed stored) goes to a
 * lower layer, whose values are known; a move that banks none stays in the
 * layer and hands the turn over.  Within a layer positions may form cycles
 * (Oware, Awale): a repeated position ends the game with the seeds left
 * uncounted, a margin of 0 for what is still in play, which is also what
 * endless play inside a layer would be worth -- so a value is the rules'
 * with or without the path, and the layer is solved as a graph:
 *   E(P)  the best of P's moves that leave the layer (or end the game);
 *   V(P)  = max(E(P), max over P's moves in the layer to C of -V(C)),
 *         0 where both sides can keep play in the layer for ever.
 * It is solved from the highest value down: at level v (n, n-1, ..., 1),
 * the positions worth v are those with E = v, or with a move to a position
 * worth -v; a position is worth -v when its best exit is at most -v and
 * every move in the layer leads to a position worth v or more (counters of
 * the moves not yet known to do so).  The predecessors of a position are
 * found by playing every move forward once more, not by unplaying.  Where
 * no position repeats (Kalah) there is no cycle to solve: tb_walk_layer()
 * values each position once, after the positions its moves lead to.
 *
 * Files.  One a layer, DIR/pmn-HASH-NN.tb (HASH: of the rules' spec, NN:
 * the seeds in play; the spec with 4 seeds a hole at the start, whatever
 * the rules say, since a position's value does not depend on how the game
 * began: one set of files serves Kalah(6,4), (6,5) and (6,6)): a header of 256 bytes -- "PMNTBASE", the format version, the
 * header's size, the holes a side, the seeds, the positions, an FNV-1a
 * checksum of the body, the rules' spec whole (a spec longer than 191
 * characters makes the header as many blocks of 256 as hold it:
 * tb_spec_header()) -- then the body, in the order of
 * the index below: where no position repeats (Kalah), one signed byte a
 * position, its value (any line that keeps the value ends).  Where
 * positions can repeat, a line that keeps the value may go round the
 * layer for ever: a winner must move nearer the way out.  The solve finds
 * each position's depth (the plies in which the side that wins the value
 * can force a move out of the layer), and the file holds, a byte a
 * position, a code (tb_code_of()): the value, and where it is positive the
 * hole the winner moves from -- out of the layer at that value, or to a
 * position of smaller depth -- so that a line of such moves leaves the
 * layer whatever the loser does.  With own seeds, a byte a position too:
 * a code that the table at the end of the body (OWN_TABLE, 768 bytes)
 * reads as U, L and, where they meet above 0, the hole the winner moves
 * from (his move that forces play out, tb_solve_own()); a layer with more
 * than 256 kinds of them is refused by the build (Oware's of 12 seeds
 * has 87).  (Format version 6: version 5, still read where no position
 * keeps own seeds, held bounds whose layers below were bounds too; version 4 held U, L and two depths with
 * own seeds, version 3 a value and a depth where positions repeat,
 * version 1 16-bit depths for every game, version 2 depths where
 * positions repeat: all are refused, not misread.)  A layer is written to a
 * temporary file and renamed when whole, so an interrupted build leaves the
 * finished layers, which the next build reads instead of computing again.
 *
 * Index.  The positions of a layer of n seeds in k holes are ranked in
 * the lexicographic order of the counts, the first hole most significant:
 * the rank adds, hole by hole, the number of ways to lay the seeds left
 * when that hole holds fewer.
 *
 * The wing's files: tb.h says which part each holds. */
#include "tb.h"
#include "tablebase.h"
#include "tb_history.h"

static void codes_init(pmn_tablebase *tb)
{
    memset(tb->own_hi, INT8_MIN, sizeof tb->own_hi);   /* (no layer's table read yet) */
    for (unsigned n = 0; n <= TB_MAX_SEEDS; n++)
        for (unsigned c = 0; c < 256; c++)
            tb->value_of[n][c] = tb_code_top(tb, n) > 255 || c > tb_code_top(tb, n) ? INT8_MIN
                               : c <= n ? (int8_t)((int)c - (int)n)
                               : (int8_t)(1 + (c - n - 1) / (tb->k / 2));
}

static void index_init(pmn_tablebase *tb)
{
    for (unsigned j = 0; j <= TB_MAX_HOLES; j++)
        for (unsigned s = 0; s <= TB_MAX_SEEDS; s++)
            tb->lay[j][s] = tb_ways(s, j);
    for (unsigned t = 1; t < tb->k; t++)
        for (unsigned s = 0; s <= TB_MAX_SEEDS; s++)
            tb->past[t][s] = tb->lay[tb->k - t + 1][s] - tb->lay[tb->k - t][s];
}
/* ---- the rules ------------------------------------------------------------- */

/* Why databases cannot be made for r, a game of their shape, or NULL;
 * *near (if not NULL) gets r with what stands in the way changed as little
 * as the reasons say, for the message to name the rules that can be
 * built. */
static const char *unfit(const pmn_rules *r, pmn_rules *near)
{
    pmn_rules n = *r;
    const char *why = NULL;
    if (r->last_seeds != PMN_LAST_PLAY_ON) {
        why = why ? why : "the last seeds' rule looks at who captured: databases need "
                          "last-seeds=play-on";
        n.last_seeds = PMN_LAST_PLAY_ON;
    }
    if (r->no_move == PMN_NO_MOVE_PASS) {
        why = why ? why : "databases need a game that ends when the player to move cannot "
                          "(no-move=collect or loses), not pass";
        n.no_move = PMN_NO_MOVE_COLLECT;
    }
    if (!rules_acyclic(r) && ((r->repetition != PMN_REPETITION_UNCOUNTED
                               && r->repetition != PMN_REPETITION_OWN_SIDE)
                              || r->one_side_plays_on)) {
        why = why ? why
            : r->repetition == PMN_REPETITION_DRAW
            ? "a repeated position that draws whatever the seeds makes a value depend on the "
              "moves before it: databases need repetition=uncounted or own-side"
            : "a repeated position that may play on makes a value depend on the moves before "
              "it: databases need repetition=uncounted or own-side";
        n.repetition = PMN_REPETITION_UNCOUNTED;
        n.one_side_plays_on = 0;
    }
    if (near)
        *near = n;
    return why;
}

/* Rules whose databases are another set's: with a majority (more than
 * half the seeds win at once, Oware's and Awale's), a game is the same as
 * the one that plays every seed out until a side first has more than half
 * -- and that side wins both -- so the databases of majority=no decide its
 * result, though not its margin.  *n gets r without its majority; returns
 * why databases cannot be made for those either (unfit()), or NULL. */
static const char *without_majority(const pmn_rules *r, pmn_rules *n, pmn_rules *near)
{
    *n = *r;
    n->majority = 0;
    n->majority_sweep = 0;
    return unfit(n, near);
}

/* 1 with *served (r with majority=no) if r has a majority and those
 * databases can be built, else 0. */
static int served_by(const pmn_rules *r, pmn_rules *served)
{
    pmn_rules n;
    if (!r->majority || without_majority(r, &n, NULL))
        return 0;
    *served = n;
    return 1;
}

void pmn_tablebase_built_rules(const pmn_rules *r, pmn_rules *built)
{
    if (!served_by(r, built))
        *built = *r;
}

int tablebase_outcome_only(const pmn_tablebase *tb, const pmn_rules *r)
{
    return r->majority && !tb->rules.majority;
}

int pmn_tablebase_check_rules(const pmn_rules *r, pmn_error *err)
{
    char shape[96], rules[256], spec[256] = "";
    const char *why;
    pmn_rules near;
    if (r->goal != PMN_GOAL_MOST_SEEDS || r->laps != PMN_LAPS_SINGLE
        || r->cycle != PMN_CYCLE_BOTH_SIDES) {
        why = "databases are made for the games scored by seeds, sown one lap round the board "
              "(Kalah, Oware, Awale)";
    } else if (2 * r->pits > TB_MAX_HOLES) {
        snprintf(shape, sizeof shape, "databases hold boards of at most %u holes a side",
                 TB_MAX_HOLES / 2);
        why = shape;
    } else if (served_by(r, &near)) {
        return 0;
    } else if (r->majority) {
        /* The majority is served (served_by): what stands in the way is
         * the rest, and the rules to build keep the majority. */
        pmn_rules n;
        why = without_majority(r, &n, &near);
        assert(why && !unfit(&near, NULL));
        near.majority = r->majority;
        near.majority_sweep = r->majority_sweep;
        pmn_rules_format(&near, spec, sizeof spec);
    } else if ((why = unfit(r, &near))) {
        /* The first reason, and every change it takes at once (the
         * others' reasons are of the same kind). */
        assert(!unfit(&near, NULL));
        pmn_rules_format(&near, spec, sizeof spec);
    } else {
        return 0;
    }
    /* Which rules (a file's game may not be the one its user thought of),
     * why not, and which can be built. */
    pmn_rules_format(r, rules, sizeof rules);
    return util_fail(err, PMN_ERR_RANGE, 0, "the rules %s: %s%s%s", rules, why,
                     *spec ? "; databases can be built for " : "", spec);
}

/* ---- a layer built ---------------------------------------------------------- */

/* Are the layers of the rules b (those the databases are built under)
 * built by tb_walk_layer()?  Where no position repeats, and one value a
 * position. */
static int walked(const pmn_rules *b)
{
    return rules_acyclic(b) && pmn_tablebase_values(b) == 1;
}

/* Do the layers of the rules b hold a code a position (tb_code_of())?  Where
 * positions repeat, and one value a position. */
static int coded(const pmn_rules *b)
{
    return !rules_acyclic(b) && pmn_tablebase_values(b) == 1;
}

static int build_layer(pmn_tablebase *tb, unsigned n, unsigned threads, int8_t **out,
                       pmn_error *err)
{
    struct layer L;
    /* The codes (and own seeds' table), in one block as in the file. */
    uint64_t size = tb->size[n];
    int8_t *value = calloc(tb_body_bytes(tb, n), 1);   /* the padding written too */
    if (!value)
        return util_fail(err, PMN_ERR_NOMEM, 0, "out of memory for the layer of %u seeds "
                         "(%llu positions)", n, (unsigned long long)size);
    if (walked(&tb->rules)) {
        assert(!tb->own && !tb->coded);   /* (any line that keeps a value ends) */
        int rc = tb_walk_layer(tb, n, value);
        if (rc == 0) {
            *out = value;
            return 0;
        }
        if (rc == -1) {
            free(value);
            return util_fail(err, PMN_ERR_NOMEM, 0, "out of memory for the layer of %u "
                             "seeds (%llu positions)", n, (unsigned long long)size);
        }
        assert(!"rules_acyclic() rules whose layer has a cycle");
        memset(value, 0, tb_body_bytes(tb, n));   /* built as a graph, below */
    }
    if (tb_layer_graph(tb, n, threads, &L, err) != 0) {
        free(value);
        return -1;
    }
    /* Own seeds: the codes and their table as the file holds them.  Else
     * the values solved, and each made a code with its winner's hole. */
    int rc;
    if (tb->own) {
        rc = tb_propagate_own(&L, value);
        if (rc == 0) {   /* its table read as an open reads it (sound: made here) */
            int sound = tb_own_table_read(tb, n, value) == 0;
            assert(sound);
            (void)sound;
        }
    } else {
        assert(tb->coded);
        rc = tb_propagate(&L, value);
        for (uint64_t i = 0; rc == 0 && i < size; i++)
            value[i] = (int8_t)tb_code_of(tb, n, value[i], value[i] > 0 ? L.hole[i] : -1);
    }
    tb_layer_free(&L);
    if (rc == -2) {
        free(value);
        return util_fail(err, PMN_ERR_RANGE, 0, "the layer of %u seeds has more than 256 "
                         "kinds of bounds and moves, more than a byte a position holds: the "
                         "layers below it are kept", n);
    }
    if (rc != 0) {
        /* a layer of zeros would be written as if valued */
        free(value);
        return util_fail(err, PMN_ERR_NOMEM, 0, "out of memory for the layer of %u seeds "
                         "(%llu positions)", n, (unsigned long long)size);
    }
    *out = value;
    return 0;
}


/* ---- the databases ------------------------------------------------------------ */

/* The spec that names the databases of r: r's, with the seeds a hole held
 * at the start set to one number for all (the file's comment says why). */
static void tb_spec(const pmn_rules *r, char *buf, size_t size)
{
    pmn_rules c = *r;
    c.seeds = 4;
    size_t n = pmn_rules_format(&c, buf, size);
    assert(n < size);   /* whole: a cut spec names other rules' files too */
    (void)n;
}

static pmn_tablebase *tb_new(const pmn_rules *r, pmn_error *err)
{
    if (pmn_tablebase_check_rules(r, err) != 0)
        return NULL;
    pmn_tablebase *tb = calloc(1, sizeof *tb);
    if (!tb) {
        util_fail(err, PMN_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    pmn_tablebase_built_rules(r, &tb->rules);   /* under a majority, majority=no's */
    tb_spec(&tb->rules, tb->spec, sizeof tb->spec);
    tb->header = tb_spec_header(tb->spec);
    pthread_mutex_init(&tb->check_lock, NULL);
    tb->k = 2 * r->pits;
    tb->own = pmn_tablebase_values(&tb->rules) == 2;
    tb->coded = coded(&tb->rules);
    codes_init(tb);
    tb->kalah = engine_sows_as_kalah(&tb->rules) && pmn_tablebase_values(&tb->rules) == 1;
    index_init(tb);
    for (unsigned n = 0; n <= TB_MAX_SEEDS; n++)
        tb->size[n] = tb_ways(n, tb->k);
    return tb;
}

pmn_tablebase *tablebase_new(const pmn_rules *r, pmn_error *err)
{
    return tb_new(r, err);
}

int tablebase_load_layer(pmn_tablebase *tb, const char *dir, unsigned n, pmn_error *err)
{
    int rc = tb_map_layer(tb, dir, n, 1, err);   /* (every value read: verify) */
    if (rc == 1) {
        tb->checked[n] = LAYER_SOUND;
        tb->seeds = n;
    }
    return rc;
}

void pmn_tablebase_close(pmn_tablebase *tb)
{
    if (!tb)
        return;
    pthread_mutex_destroy(&tb->check_lock);
    for (unsigned n = 0; n <= TB_MAX_SEEDS; n++) {
        if (tb->mapped[n])
            munmap(tb->base[n], tb->mapped[n]);
        else
            free(tb->base[n]);
    }
    free(tb);
}

uint64_t pmn_tablebase_positions(const pmn_rules *r, unsigned seeds)
{
    return 2 * r->pits <= TB_MAX_HOLES && seeds <= TB_MAX_SEEDS ? tb_ways(seeds, 2 * r->pits) : 0;
}

unsigned pmn_tablebase_values(const pmn_rules *r)
{
    pmn_rules b;
    pmn_tablebase_built_rules(r, &b);
    return !rules_acyclic(&b) && b.repetition == PMN_REPETITION_OWN_SIDE ? 2 : 1;
}

unsigned pmn_tablebase_max_seeds(const pmn_rules *r)
{
    pmn_rules b;
    pmn_tablebase_built_rules(r, &b);
    unsigned most = 255 / (b.pits + 1);   /* tb_code_top() within a byte */
    return coded(&b) && most < PMN_TABLEBASE_MAX_SEEDS ? most : PMN_TABLEBASE_MAX_SEEDS;
}

double pmn_tablebase_build_bytes(const pmn_rules *r, unsigned seeds, double *disk)
{
    pmn_rules b;
    double total = 0, largest = 0, values = pmn_tablebase_values(r);
    pmn_tablebase_built_rules(r, &b);
    for (unsigned n = 0; n <= seeds; n++) {
        double p = (double)pmn_tablebase_positions(r, n);
        total += p;
        largest = p > largest ? p : largest;
    }
    /* A layer built by the walk (walk_layer: no position repeats) holds a
     * byte a position and needs no more than its own values; one built as
     * a graph needs its graph and solve besides: 47 bytes a position (the
     * predecessor lists the most; the positions by exit, 4; the moves in
     * the layer kept from pass 1 to pass 2, 4 bytes a move: 7.2 bytes a
     * position measured for Awari and Awale).  It holds a
     * code a position (1 byte, the values made codes in place), and the
     * winners' holes while it is built (1 more); with own seeds, the same,
     * and 14 more while built (both seats apart: a state, a count, a value
     * and a queue entry a seat). */
    *disk = total;
    if (walked(&b))
        return total;
    return (2 + 47 + 14 * (values - 1)) * largest + (total - largest);
}

static void layer_stats(const pmn_tablebase *tb, unsigned n, pmn_tablebase_layer *s)
{
    memset(s, 0, sizeof *s);
    s->seeds = n;
    s->positions = tb->size[n];
    /* A cell is its byte: the bytes counted, then each read once. */
    uint64_t count[256] = { 0 };
    const uint8_t *b = (const uint8_t *)tb->layer[n];
    for (uint64_t i = 0; i < tb->size[n]; i++)
        count[b[i]]++;
    for (unsigned v = 0; v < 256; v++) {
        const int8_t c = (int8_t)(uint8_t)v;
        int hi, lo;
        if (!count[v] || !tb_cell_sound(tb, n, &c))
            continue;   /* not counted: pmn_tablebase_verify finds it */
        tb_cell_values(tb, n, &c, &hi, &lo);
        if (hi == lo)
            s->by_value[hi + PMN_TABLEBASE_MAX_SEEDS] += count[v];
        else
            s->bounded += count[v];
    }
}

static int build_layers(pmn_tablebase *tb, const char *dir, unsigned seeds, unsigned threads,
                        pmn_tablebase_fn fn, void *ctx, pmn_error *err);

/* More seeds than the databases of r can hold: -1 (and *err). */
static int seeds_refused(const pmn_rules *r, unsigned seeds, pmn_error *err)
{
    unsigned most = pmn_tablebase_max_seeds(r);
    if (seeds > most)
        return util_fail(err, PMN_ERR_RANGE, 0, "at most %u seeds in play%s", most,
                         most < PMN_TABLEBASE_MAX_SEEDS ? " for a game whose positions can "
                         "repeat (a byte holds a value and a hole)" : "");
    return 0;
}

int pmn_tablebase_build(const pmn_rules *r, unsigned seeds, const char *dir, unsigned threads,
                        pmn_tablebase_fn fn, void *ctx, pmn_error *err)
{
    if (seeds_refused(r, seeds, err))
        return -1;
    pmn_tablebase *tb = tb_new(r, err);
    if (!tb)
        return -1;
    tb->progress = fn;
    tb->progress_ctx = ctx;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        pmn_tablebase_close(tb);
        return util_fail(err, PMN_ERR_RANGE, 0, "cannot make %s: %s", dir, strerror(errno));
    }
    /* One build in a folder at a time: two would write the same .part
     * file.  The lock is the folder's own (flock, released at exit however
     * the build ends), so that no lock file is left behind. */
    int lock = open(dir, O_RDONLY | O_DIRECTORY);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (lock >= 0)
            close(lock);
        pmn_tablebase_close(tb);
        return util_fail(err, PMN_ERR_RANGE, 0, "cannot write %s: %s", dir,
                         e == EWOULDBLOCK ? "another pmn is building databases there (one "
                         "build a folder at a time)" : strerror(e));
    }
    int rc = build_layers(tb, dir, seeds, threads, fn, ctx, err);
    close(lock);   /* (the lock with it) */
    pmn_tablebase_close(tb);
    return rc;
}

/* pmn_tablebase_build()'s layers, into dir (locked); or, dir NULL,
 * pmn_tablebase_make()'s, in memory alone. */
static int build_layers(pmn_tablebase *tb, const char *dir, unsigned seeds, unsigned threads,
                        pmn_tablebase_fn fn, void *ctx, pmn_error *err)
{
    for (unsigned n = 0; n <= seeds; n++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int rc = dir ? tb_map_layer(tb, dir, n, 1, err) : 0;   /* a build reads every value */
        int loaded = rc == 1;
        if (rc == -2)
            rc = 0;   /* of another format: made again, and written over it */
        if (rc < 0)
            return -1;
        if (!loaded) {
            int8_t *v = NULL;
            if (build_layer(tb, n, threads, &v, err) != 0)
                return -1;
            tb->base[n] = v;   /* (malloc'd: mapped[n] 0) */
            tb->layer[n] = v;
            if (dir && tb_write_layer(tb, dir, n, v, err) != 0)
                return -1;
        }
        tb->checked[n] = LAYER_SOUND;   /* read whole by tb_map_layer(), or built here */
        tb->seeds = n;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (fn) {
            pmn_tablebase_layer s;
            layer_stats(tb, n, &s);
            s.loaded = loaded;
            s.done = 1;
            s.seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
            fn(ctx, &s);
        }
    }
    return 0;
}

pmn_tablebase *pmn_tablebase_make(const pmn_rules *r, unsigned seeds, unsigned threads,
                                  pmn_error *err)
{
    if (seeds_refused(r, seeds, err))
        return NULL;
    pmn_tablebase *tb = tb_new(r, err);
    if (tb && build_layers(tb, NULL, seeds, threads, NULL, NULL, err) != 0) {
        pmn_tablebase_close(tb);
        tb = NULL;
    }
    return tb;
}

/* The largest layer pmn_tablebase_make_for() makes: its 6 seeds on six
 * holes hold 12,376 positions, 7 seeds 31,824, 8 seeds 75,582. */
#define SMALL_LAYER 50000

pmn_tablebase *pmn_tablebase_make_for(const pmn_rules *r, const pmn_position *p,
                                      unsigned threads)
{
    if (pmn_tablebase_check_rules(r, NULL) != 0 || pmn_tablebase_values(r) != 2)
        return NULL;
    unsigned in_play = pmn_position_seeds(r, p, PMN_SOUTH) + pmn_position_seeds(r, p, PMN_NORTH),
             n = 0;
    while (n < in_play && n < pmn_tablebase_max_seeds(r)
           && pmn_tablebase_positions(r, n + 1) <= SMALL_LAYER)
        n++;
    return pmn_tablebase_make(r, n, threads ? threads : 1, NULL);
}

pmn_tablebase *pmn_tablebase_open(const pmn_rules *r, const char *dir, pmn_error *err)
{
    pmn_tablebase *tb = tb_new(r, err);
    if (!tb)
        return NULL;
    unsigned n = 0;
    for (; n <= PMN_TABLEBASE_MAX_SEEDS; n++) {
        int rc = tb_map_layer(tb, dir, n, 0, err);
        if (rc < 0) {
            pmn_tablebase_close(tb);
            return NULL;
        }
        if (rc == 0)
            break;
    }
    if (n == 0) {
        char path[4096];
        tb_layer_path(tb, dir, 0, path, sizeof path);
        pmn_tablebase_close(tb);
        util_fail(err, PMN_ERR_UNKNOWN, 0, "no database of these rules in %s (%s missing; "
                  "pmn tablebase build makes it)", dir, path);
        return NULL;
    }
    /* A build writes the layers in order, so that a layer missing below
     * others is one removed since: the layers above it would go unused
     * without a word (or be taken for the end of the databases). */
    for (unsigned m = n + 1; m <= PMN_TABLEBASE_MAX_SEEDS; m++) {
        char path[4096], gap[4096];
        struct stat st;
        tb_layer_path(tb, dir, m, path, sizeof path);
        if (lstat(path, &st) != 0)
            continue;
        tb_layer_path(tb, dir, n, gap, sizeof gap);
        pmn_tablebase_close(tb);
        util_fail(err, PMN_ERR_SYNTAX, 0, "%s: missing, though the layer of %u seeds (%s) is "
                  "there: the databases have a gap ('pmn tablebase build --seeds %u' makes "
                  "the missing layers again)", gap, m, path, m);
        return NULL;
    }
    tb->seeds = n - 1;
    snprintf(tb->dir, sizeof tb->dir, "%s", dir);
    return tb;
}

int pmn_tablebase_verify(const pmn_tablebase *tb, pmn_error *err)
{
    for (unsigned n = 0; n <= tb->seeds; n++) {
        const char *why;
        if (!tb->mapped[n])
            continue;   /* built here, not read */
        if ((why = tb_body_unsound(tb, n, tb->base[n]))) {
            char path[sizeof tb->dir + 64];
            tb_layer_path(tb, tb->dir, n, path, sizeof path);
            return util_fail(err, PMN_ERR_SYNTAX, 0, "%s: %s", path, why);
        }
    }
    return 0;
}

unsigned pmn_tablebase_seeds(const pmn_tablebase *tb)
{
    return tb->seeds;
}

int pmn_tablebase_layer_stats(const pmn_tablebase *tb, unsigned seeds, pmn_tablebase_layer *s)
{
    if (seeds > tb->seeds)
        return -1;
    layer_stats(tb, seeds, s);
    return 0;
}

static void mark_damaged(const pmn_tablebase *tb)
{
    __atomic_store_n(&((pmn_tablebase *)tb)->damaged, 1, __ATOMIC_RELAXED);
}

/* Has this process read the layer of n seeds whole and found it sound
 * (tb_body_unsound())?  It reads it now if not, once, whichever thread asks
 * first (the others wait for it): a layer found damaged is marked so, and
 * tb too, and no value of it is taken. */
int tb_layer_sound(const pmn_tablebase *tb, unsigned n)
{
    pmn_tablebase *w = (pmn_tablebase *)tb;   /* (the check's state alone) */
    pthread_mutex_lock(&w->check_lock);
    if (w->checked[n] == LAYER_UNREAD)
        w->checked[n] = !tb->mapped[n] || !tb_body_unsound(tb, n, tb->base[n]) ? LAYER_SOUND
                                                                           : LAYER_DAMAGED;
    int sound = w->checked[n] == LAYER_SOUND;
    pthread_mutex_unlock(&w->check_lock);
    if (!sound)
        mark_damaged(tb);
    return sound;
}

/* tb_cell_sound(), a probe's, in a layer read whole (tb_layer_sound()): one that
 * is not marks tb damaged (the flag is the one thing a probe writes but
 * for the layers' checks; any thread may, all write the same). */
static int cell_checked(const pmn_tablebase *tb, unsigned n, const int8_t *c)
{
    if (__builtin_expect(__atomic_load_n(&tb->checked[n], __ATOMIC_ACQUIRE) != LAYER_SOUND, 0)
        && !tb_layer_sound(tb, n))
        return 0;
    if (tb_cell_sound(tb, n, c))
        return 1;
    mark_damaged(tb);
    return 0;
}

const int *tablebase_damaged_flag(const pmn_tablebase *tb)
{
    return &tb->damaged;
}

int pmn_tablebase_damaged(const pmn_tablebase *tb)
{
    return __atomic_load_n(&tb->damaged, __ATOMIC_RELAXED);
}

/* Where tb keeps p's value(s), sound (cell_checked()): the layer *n and
 * the index *i of its code; NULL if tb
 * does not hold p or holds no value it can have. */
static const int8_t *cell_at(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                             unsigned *n)
{
    uint8_t h[TB_MAX_HOLES];
    if (r->pits != tb->k / 2)
        return NULL;
    return tablebase_at(tb, r->pits, h, tb_counts_of(r, p, h), n);
}

static const int8_t *cell_of(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                             unsigned *n)
{
    const int8_t *c = cell_at(tb, r, p, n);
    return c && cell_checked(tb, *n, c) ? c : NULL;
}

int tablebase_probe(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p, int *v)
{
    unsigned n;
    const int8_t *c = cell_of(tb, r, p, &n);
    int hi, lo;
    if (!c)
        return 0;
    tb_cell_values(tb, n, c, &hi, &lo);
    if (hi != lo)
        return 0;   /* bounds (own seeds): no one value */
    *v = hi;
    return 1;
}

int tablebase_probe_bounds(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                           int *lo, int *hi)
{
    unsigned n;
    const int8_t *c = tablebase_locate(tb, r, p, &n);
    return c && tablebase_cell_bounds(tb, c, n, lo, hi);
}

int tablebase_own_seeds(const pmn_tablebase *tb)
{
    return tb->own;
}

int tablebase_cell_bounds(const pmn_tablebase *tb, const int8_t *cell, unsigned layer, int *lo,
                          int *hi)
{
    if (!cell_checked(tb, layer, cell))
        return 0;
    tb_cell_values(tb, layer, cell, hi, lo);
    return 1;
}

const int8_t *tablebase_at(const pmn_tablebase *tb, unsigned pits, const uint8_t *h, unsigned n,
                           unsigned *layer)
{
    if (pits != tb->k / 2 || n > tb->seeds)
        return NULL;
    *layer = n;
    return &tb->layer[n][tb_rank_of(tb, h, n)];
}

const int8_t *tablebase_locate(const pmn_tablebase *tb, const pmn_rules *r,
                               const pmn_position *p, unsigned *layer)
{
    return cell_at(tb, r, p, layer);
}

int tablebase_move_value(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                         const pmn_position *c, const pmn_move_report *rep, long *v)
{
    int me = p->to_move, cv;
    if (rep->ending != PMN_END_NONE) {
        unsigned long seeds[2];
        *v = rep->outcome == PMN_DRAWN || rep->outcome == PMN_ONGOING
          || !pmn_final_seeds(r, rep->ending, c, seeds) ? 0 : (long)seeds[me] - (long)seeds[!me];
        return 1;
    }
    if (!tablebase_probe(tb, r, c, &cv))
        return 0;
    long cd = (long)c->captured[me] - (long)c->captured[!me];
    *v = c->to_move == me ? cd + cv : cd - cv;
    return 1;
}

/* The hole the winner of p plays, which the databases hold (coded
 * layers, own seeds), or -1. */
static int stored_move(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p)
{
    unsigned n;
    const int8_t *c = tb->coded || tb->own ? cell_of(tb, r, p, &n) : NULL;
    return c ? tb_code_hole(tb, n, (uint8_t)c[0]) : -1;
}

/* Own seeds: the line of best play, each ply's moves valued with the
 * path since the last capture (a value the search with the path found has
 * no move held for it): at each ply a move that keeps the value, out of
 * the layer where one does, to the end of the game, the first repetition,
 * `max` moves, or a move whose value is not found. */
/* A line's next position: pick, reached from q by a move whose report is
 * rep, becomes q; v (the value for q's side to move) turns with the side
 * to move, and the positions seen since the last capture start again
 * after one.  0 where the line ends there: the game's end, or, where
 * positions repeat, a repetition of one of seen[0..nseen) (the rules end
 * the game). */
static int line_step(const pmn_rules *r, int repeats, const pmn_position *seen,
                     unsigned *nseen, pmn_position *q, const pmn_position *pick,
                     const pmn_move_report *rep, long *v)
{
    if (rep->ending != PMN_END_NONE)
        return 0;
    if (pick->to_move != q->to_move)
        *v = -*v;
    if (pmn_irreversible(rep))
        *nseen = 0;
    *q = *pick;
    for (unsigned j = 0; j < *nseen && repeats; j++)
        if (pmn_position_equal(r, &seen[j], q))
            return 0;
    return 1;
}

#define OWN_LINE_PROBE (UINT64_C(1) << 16)   /* positions a probe's search */
#define OWN_LINE_ALL (UINT64_C(1) << 21)     /* and the line's in all */

static unsigned own_line(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                         long v, int *line, unsigned max, uint64_t *played)
{
    /* (A line is asked for often -- the depth search's at each iteration
     * whose line reaches the databases -- and is worth no more than a
     * value: its searches are held to small budgets, and it ends where
     * one passes them.  Without them, annotate took 105 s for
     * samples/oware/selfplay-2.pmn with databases to 10 seeds, 21 s
     * without databases.) */
    pmn_position seen[PMN_MAX_PV + 1], q = *p;
    unsigned n = 0, nseen = 0;
    struct tablebase_history *h = NULL;
    unsigned h_layer = 0;
    while (n < max) {
        int holes[PMN_MAX_SIDE_PITS], chosen = -1, out = 0, solved = 0;
        int nm = pmn_legal_moves(r, &q, holes);
        pmn_position pick;
        pmn_move_report pick_rep;
        uint8_t c[TB_MAX_HOLES];
        assert(nseen <= PMN_MAX_PV && max <= PMN_MAX_PV);   /* (tablebase_line's max) */
        seen[nseen++] = q;
        for (int j = 0; j < nm; j++) {
            pmn_position k = q;
            pmn_move_report rep;
            long mv;
            int cv;
            pmn_play(r, &k, holes[j], &rep);
            if (played)
                (*played)++;
            int leaves = rep.ending != PMN_END_NONE || pmn_irreversible(&rep);
            if (leaves) {
                if (!tablebase_move_value(tb, r, &q, &k, &rep, &mv))
                    continue;
            } else {
                /* The layer solved again once a ply: the ends are the same
                 * for each of q's moves. */
                if (!solved) {
                    unsigned layer = tb_counts_of(r, &k, c);
                    if (!h || h_layer != layer) {
                        tablebase_history_free(h);
                        h = tablebase_history_new(tb, layer, UINT64_MAX);
                        h_layer = layer;
                        if (!h)
                            break;
                        tablebase_history_limit(h, OWN_LINE_PROBE);
                    }
                    tablebase_history_solve(h, seen, nseen);
                    solved = 1;
                }
                if (tablebase_history_searched(h) > OWN_LINE_ALL
                    || tablebase_history_probe(h, &k, &cv) != 1)
                    continue;
                long cd = (long)k.captured[q.to_move] - (long)k.captured[!q.to_move];
                mv = k.to_move == q.to_move ? cd + cv : cd - cv;
            }
            if (mv != v || (chosen >= 0 && out))
                continue;
            chosen = holes[j];
            out = leaves;
            pick = k;
            pick_rep = rep;
        }
        if (chosen < 0)
            break;
        line[n++] = chosen;
        if (!line_step(r, 1, seen, &nseen, &q, &pick, &pick_rep, &v))
            break;
    }
    tablebase_history_free(h);
    return n;
}

unsigned tablebase_line(const pmn_tablebase *tb, const pmn_rules *r, const pmn_position *p,
                        int *line, unsigned max, uint64_t *played)
{
    pmn_position seen[PMN_MAX_PV + 1], q = *p, pick;
    pmn_move_report pick_rep;
    int pv;
    unsigned n = 0, nseen = 0;
    if (!tablebase_probe(tb, r, p, &pv))
        return 0;
    if (max > PMN_MAX_PV)
        max = PMN_MAX_PV;
    int acyclic = rules_acyclic(r);
    long v = (long)p->captured[p->to_move] - (long)p->captured[!p->to_move] + pv;
    if (tb->own)
        return own_line(tb, r, p, v, line, max, played);
    while (n < max) {
        int holes[PMN_MAX_SIDE_PITS];
        int nm = pmn_legal_moves(r, &q, holes), chosen = -1;
        long best_rank = 0;
        long here = v - ((long)q.captured[q.to_move] - (long)q.captured[!q.to_move]);
        int keep = stored_move(tb, r, &q);   /* coded layers, own seeds: the winner's */
        assert(nseen <= PMN_MAX_PV);
        seen[nseen++] = q;
        for (int j = 0; j < nm; j++) {
            pmn_position c = q;
            pmn_move_report rep;
            long mv;
            pmn_play(r, &c, holes[j], &rep);
            if (played)
                (*played)++;
            if (!tablebase_move_value(tb, r, &q, &c, &rep, &mv) || mv != v)
                continue;
            /* Which move of the value: the winner's out of the layer, or
             * the one the layer holds for him (nearer the way out); the
             * loser's one that stays in it (the slower). */
            long rank;
            int cv;
            if (rep.ending != PMN_END_NONE || pmn_irreversible(&rep)
                || !tablebase_probe(tb, r, &c, &cv))
                rank = here > 0 || tb->own ? 1L << 20 : 0;
            else if (tb->coded || tb->own)
                rank = here > 0 ? (holes[j] == keep ? 1 : -1) : 1;
            else
                rank = 0;   /* no position repeats: any move that keeps the value ends */
            if (chosen < 0 || rank > best_rank) {
                chosen = holes[j];
                best_rank = rank;
                pick = c;
                pick_rep = rep;
            }
        }
        if (chosen < 0)
            break;
        line[n++] = chosen;
        if (!line_step(r, !acyclic, seen, &nseen, &q, &pick, &pick_rep, &v))
            break;
    }
    return n;
}

int pmn_tablebase_probe(const pmn_tablebase *tb, const pmn_position *p, int *margin)
{
    int v;
    if (!tablebase_probe(tb, &tb->rules, p, &v))
        return 0;
    *margin = v;
    return 1;
}

int pmn_tablebase_probe_bounds(const pmn_tablebase *tb, const pmn_position *p, int *low,
                               int *high)
{
    return tablebase_probe_bounds(tb, &tb->rules, p, low, high);
}

int tablebase_same_rules(const pmn_tablebase *tb, const pmn_rules *r)
{
    char spec[TB_SPEC];
    pmn_rules built;
    pmn_tablebase_built_rules(r, &built);
    tb_spec(&built, spec, sizeof spec);
    return strcmp(spec, tb->spec) == 0;
}

