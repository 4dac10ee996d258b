/* test_nomem.c - memory that runs out: every allocation of a replay fails
 * in turn, and each time the replay either succeeds as if nothing had
 * happened or gives NULL having said F002 once, never a crash or a silent
 * loss.  malloc, calloc and realloc are wrapped at link time (--wrap). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "read.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);

static long fail_at = -1;   /* the allocation to fail, counted from 0; -1: none */
static long calls;
static int failed;          /* it was made, and failed */

static int fails(void)
{
    if (fail_at >= 0 && calls++ == fail_at)
        return failed = 1;
    return 0;
}

void *__wrap_malloc(size_t n) { return fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return fails() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return fails() ? NULL : __real_realloc(p, n); }

static int count_code(const struct diags *ds, int code)
{
    int n = 0;
    for (int i = 0; i < ds->n && i < MAX_DIAGS; i++)
        n += ds->d[i].code == code;
    return n;
}

/* Replay the first game of text with each of its allocations failing. */
static void sweep_text(const char *text)
{
    pmn_record rec;
    struct diags rd, clean, ds;
    pmn_setup s;
    assert_int_equal(read_games(text, &rec, 1, &rd), 1);
    memset(&clean, 0, sizeof clean);
    pmn_setup_record(&rec, NULL, &s, collect, &clean);
    pmn_replay *r = pmn_replay_new(&rec, &s, collect, &clean);
    assert_non_null(r);
    pmn_check_result good = *pmn_replay_result(r);
    pmn_replay_free(r);
    for (long k = 0;; k++) {
        memset(&ds, 0, sizeof ds);
        calls = failed = 0;
        fail_at = k;
        r = pmn_replay_new(&rec, &s, collect, &ds);
        fail_at = -1;
        if (!failed) {
            assert_non_null(r);
            assert_int_equal(count_code(&ds, PMN_F002), 0);
            assert_int_equal(pmn_replay_result(r)->plies, good.plies);
            assert_int_equal(pmn_replay_result(r)->errors, good.errors);
            assert_memory_equal(&pmn_replay_result(r)->end, &good.end, sizeof good.end);
        } else {
            /* What ran out is said, once, and no half-made replay is given. */
            assert_null(r);
            assert_int_equal(count_code(&ds, PMN_F002), 1);
        }
        pmn_replay_free(r);
        if (!failed)
            break;    /* every allocation has had its turn */
    }
    pmn_record_free(&rec);
}

static void sweep(const char *sample)
{
    char *text = slurp(sample);
    assert_non_null(text);
    sweep_text(text);
    free(text);
}

/* Kalah without captures or stores, each player sowing his last legal
 * hole: 356 plies before a position repeats, so that a game's history of
 * positions must grow past its first 64. */
#define NO_CAPTURES "kalah,capture=none,stores=no,extra=none,either-empty=no"

static char *long_quiet_record(void)
{
    pmn_rules r;
    pmn_position p;
    pmn_move_report rep;
    int moves[PMN_MAX_SIDE_PITS];
    static char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "[Game \"Kalah\"]\n"
                                "[Rules \"capture=none,stores=no,extra=none,either-empty=no\"]\n");
    assert_int_equal(pmn_rules_init(&r, NO_CAPTURES, NULL), 0);
    pmn_position_start(&r, &p);
    for (int ply = 0; ply < 300; ply++) {
        int k = pmn_legal_moves(&r, &p, moves);
        assert_true(k > 0);
        int side = p.to_move;
        assert_int_equal(pmn_play(&r, &p, moves[k - 1], &rep), 0);
        n += (size_t)snprintf(text + n, sizeof text - n, "%s%c", ply ? "/" : "",
                              pmn_hole_letter(side, moves[k - 1]));
    }
    snprintf(text + n, sizeof text - n, " *\n");
    return text;
}

static void replays_run_out_of_memory(void **state)
{
    (void)state;
    sweep("samples/hawalis/tavares-gering-2009.pmn");
    sweep("samples/hawalis/problem-1.pmn");     /* a variation */
    sweep("samples/kalah/selfplay-2.pmn");
    sweep("samples/oware/selfplay-2.pmn");
    sweep("samples/anywoli/selfplay-3.pmn");
    sweep_text(long_quiet_record());
}

/* A game's history of positions grows past its first 64 in a long run
 * without a capture: when it cannot grow, pmn_game_play says so. */
static void history_runs_out_of_memory(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_position p;
    pmn_move_report rep;
    int moves[PMN_MAX_SIDE_PITS];
    assert_int_equal(pmn_rules_init(&r, NO_CAPTURES, NULL), 0);
    pmn_position_start(&r, &p);
    pmn_game *g = pmn_game_new(&r, &p);
    assert_non_null(g);
    int rc = 0;
    for (int ply = 0; ply < 200 && rc == 0; ply++) {
        if (pmn_game_ending(g) != PMN_END_NONE)
            break;
        int n = pmn_legal_moves(&r, pmn_game_position(g), moves);
        assert_true(n > 0);
        calls = 0;
        fail_at = 0;          /* the history's growth, if this ply needs one */
        rc = pmn_game_play(g, moves[n - 1], &rep);   /* 356 plies before a repetition */
        fail_at = -1;
    }
    assert_int_equal(rc, PMN_ERR_NOMEM);
    pmn_game_free(g);
}

/* The bytes of the file dir/name into buf (size cap): its length, or -1
 * if there is no such file. */
static long file_bytes(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long n = (long)fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* Endgame databases built with each allocation failing in turn: the build
 * either succeeds or says that memory ran out, and every layer it leaves
 * is the one a build with memory to spare writes -- never a layer of
 * values not computed. */
static void databases_run_out_of_memory(void **state)
{
    (void)state;
    pmn_rules r;
    pmn_error err;
    char clean[] = "/tmp/pmn-nomem-XXXXXX";
    assert_int_equal(pmn_rules_init(&r, "awale,holes=3,majority=no", NULL), 0);
    assert_non_null(mkdtemp(clean));
    assert_int_equal(pmn_tablebase_build(&r, 4, clean, 1, NULL, NULL, &err), 0);
    static char want[1 << 16], got[1 << 16];
    char cmd[160];
    for (long k = 0;; k++) {
        char dir[] = "/tmp/pmn-nomem-XXXXXX";
        assert_non_null(mkdtemp(dir));
        calls = failed = 0;
        fail_at = k;
        int rc = pmn_tablebase_build(&r, 4, dir, 1, NULL, NULL, &err);
        fail_at = -1;
        if (!failed)
            assert_int_equal(rc, 0);
        else if (rc != 0)
            assert_int_equal(err.code, PMN_ERR_NOMEM);
        /* Each layer file left is a clean build's, byte for byte. */
        snprintf(cmd, sizeof cmd, "cd '%s' && ls", clean);
        FILE *ls = popen(cmd, "r");
        assert_non_null(ls);
        char name[128];
        while (fgets(name, sizeof name, ls)) {
            name[strcspn(name, "\n")] = 0;
            long nw = file_bytes(clean, name, want, sizeof want);
            long ng = file_bytes(dir, name, got, sizeof got);
            assert_true(nw > 0 && nw < (long)sizeof want);
            if (ng >= 0) {
                assert_int_equal(ng, nw);
                assert_memory_equal(got, want, (size_t)nw);
            }
        }
        pclose(ls);
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        assert_int_equal(system(cmd), 0);
        if (!failed)
            break;    /* every allocation has had its turn */
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", clean);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replays_run_out_of_memory),
        cmocka_unit_test(history_runs_out_of_memory),
        cmocka_unit_test(databases_run_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
