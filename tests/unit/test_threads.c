/* test_threads.c - libpmn from many threads at once, on a cold library.
 *
 * The library's one-time set-up (built-in rules, rule files, the lexer's
 * pattern, libxml2) happens on first use, whichever thread that is.  Each
 * round forks a fresh process, in which nothing of libpmn has run yet, and
 * starts THREADS threads that all begin at once; each does the work of a
 * program that embeds libpmn and checks its own answers against what one
 * thread alone computed. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmn.h"
#include "light.h"

#define THREADS 8
/* Rounds of a fresh process each: a tenth of them under PMN_TEST_LIGHT
 * (light.h), where ThreadSanitizer sees a race of the set-up in any round
 * that runs it, and valgrind runs the threads one at a time. */
#define ROUNDS 20

static const char game[] =
    "[Event \"threads\"]\n[South \"S\"]\n[North \"N\"]\n"
    "1. f (+7) N (+8); 2. g (+8) G (+14); 3. i (+11) L (+22) *\n";

static const char rule_file[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<rules xmlns=\"urn:x-pmn:rules:1\" name=\"kalah\">\n"
    "  <title xml:lang=\"en\">Kalah by thread</title>\n"
    "  <board rows=\"1\" holes=\"5\" seeds=\"3\" stores=\"yes\"/>\n"
    "  <sowing cycle=\"both-sides\" laps=\"single\"/>\n"
    "  <capture kind=\"opposite\"/>\n"
    "  <turn extra=\"store\" no-move=\"collect\"/>\n"
    "  <end goal=\"most-seeds\" either-empty=\"yes\" repetition=\"draw\"/>\n"
    "</rules>\n";

struct answers {
    char position[256];       /* Hawalis's opening, formatted */
    char value[32], help[64];
    unsigned moves, plies;
    uint32_t captured[2];
    char xml_game[64];        /* the tag read back from the exported XML */
    char rules_title[64];
    unsigned holes;           /* of the rule file's board */
    int failed;
};

static pthread_barrier_t start;

static void ignore(void *ctx, const pmn_diag *d)
{
    (void)ctx;
    (void)d;
}

static void work(struct answers *a)
{
    pmn_rules r;
    pmn_position p;
    pmn_record rec;
    if (pmn_rules_init(&r, "hawalis", NULL) < 0) {
        a->failed = 1;
        return;
    }
    pmn_position_start(&r, &p);
    pmn_position_format(&r, &p, a->position, sizeof a->position);
    pmn_rules_value_name(&r, "capture", a->value, sizeof a->value);
    pmn_rules_options_help(a->help, sizeof a->help);

    FILE *f = fmemopen((void *)game, sizeof game - 1, "r");
    pmn_reader *rd = pmn_reader_new(f, ignore, NULL);
    if (!rd || pmn_reader_next(rd, &rec) != 1) {
        a->failed = 1;
    } else {
        pmn_check_result res;
        pmn_check_record(&rec, NULL, ignore, NULL, &res);
        a->moves = res.moves;
        a->plies = res.plies;
        a->captured[0] = res.captured[0];
        a->captured[1] = res.captured[1];
        /* To XML and back. */
        char *xml = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&xml, &len);
        pmn_xml_writer *w = pmn_xml_writer_new(out);
        if (!w || pmn_xml_write_game(w, &rec, NULL, ignore, NULL) < 0
            || pmn_xml_writer_close(w) < 0)
            a->failed = 1;
        fclose(out);
        FILE *in = fmemopen(xml, len, "r");
        pmn_xml_reader *x = pmn_xml_reader_new(in, "threads.xml", 1, ignore, NULL);
        pmn_record back;
        if (x && pmn_xml_reader_next(x, &back) == 1) {
            snprintf(a->xml_game, sizeof a->xml_game, "%s", pmn_record_tag(&back, "Event"));
            pmn_record_free(&back);
        } else {
            a->failed = 1;
        }
        pmn_xml_reader_free(x);
        fclose(in);
        free(xml);
        pmn_record_free(&rec);
    }
    pmn_reader_free(rd);
    fclose(f);

    pmn_rule_file *rf = pmn_rule_file_parse(rule_file, sizeof rule_file - 1, "threads.xml",
                                            ignore, NULL);
    if (!rf || !pmn_rule_file_builtin_named("oware", NULL)) {
        a->failed = 1;
    } else {
        snprintf(a->rules_title, sizeof a->rules_title, "%s", pmn_rule_file_text(rf, 0, "en"));
        a->holes = pmn_rule_file_rules(rf)->holes_per_row;
    }
    pmn_rule_file_free(rf);
}

static void *thread(void *arg)
{
    pthread_barrier_wait(&start);
    work(arg);
    return NULL;
}

/* One fresh process: 0 if every thread answered as one thread alone does. */
static int round_in_child(void)
{
    struct answers a[THREADS], alone;
    pthread_t t[THREADS];
    memset(a, 0, sizeof a);
    memset(&alone, 0, sizeof alone);
    pthread_barrier_init(&start, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, thread, &a[i]) != 0)
            return 2;
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    work(&alone);
    if (alone.failed || alone.moves != 6 || strcmp(alone.value, "front-and-back") != 0
        || strcmp(alone.xml_game, "threads") != 0 || alone.holes != 5
        || strcmp(alone.rules_title, "Kalah by thread") != 0)
        return 3;
    for (int i = 0; i < THREADS; i++)
        if (memcmp(&a[i], &alone, sizeof alone) != 0)
            return 4;
    return 0;
}

static void cold_start_from_many_threads(void **state)
{
    (void)state;
    for (int round = 0; round < light(ROUNDS); round++) {
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0)
            exit(round_in_child());   /* exit, not _exit: sanitizers report at exit */
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (!WIFEXITED(status))
            fail_msg("round %d: the process died of signal %d", round, WTERMSIG(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cold_start_from_many_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
