/* command.c - what every subcommand shares: the prologue main.c runs it
 * with, and the setters of the shared options that set struct common
 * itself (command.h). */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "progress.h"
#include "jobs.h"
#include "records.h"
#include "criteria.h"
#include "command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int notation_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    struct common *c = dest;
    (void)o;
    if (pmn_notation_from_name(arg, &c->wo.notation) < 0)
        return usage_error(cmd, "unknown notation '%s' (letters, numbers, coordinates)", arg);
    c->notation_given = 1;
    return 0;
}

int game_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest)
{
    struct common *c = dest;
    (void)o;
    c->games_of = &c->games;
    return game_ranges(&c->games, cmd, arg);
}

/* The prologue and epilogue of every command: its options read into c
 * and its context, checked; its output opened and its progress line begun
 * where its flags say; after its run, the output closed and the criteria
 * freed.  Returns the exit status. */
int run_command(const struct command *cmd, int argc, char **argv)
{
    struct common *c = calloc(1, sizeof *c);
    void *ctx = calloc(1, cmd->size ? cmd->size : 1);
    int rc;
    if (!c || !ctx) {
        free(c);
        free(ctx);
        fprintf(stderr, "pmn %s: fatal: out of memory\n", cmd->name);
        return EXIT_FATAL;
    }
    c->cmd = cmd;
    c->jobs = default_jobs();
    c->from = FORMAT_AUTO;
    c->hash_mb = 64;
    c->limits.threads = default_threads();
    pmn_rules_init(&c->rules, NULL, NULL);
    pmn_write_options_init(&c->wo);
    c->out.f = stdout;
    c->sink.file = "-";
    c->sink.show_notes = (cmd->flags & CMD_NOTES) != 0;
    if (cmd->init)
        cmd->init(c, ctx);
    int operands;
    if ((rc = cli_parse(cmd, c, ctx, argc, argv, &operands)) == 0) {
        c->files = argv + operands;
        c->nfiles = argc - operands;
        if (cmd->ready)
            rc = cmd->ready(c, ctx);
    }
    /* --jobs cuts PMN text: another program's notation (--from) is read by
     * one job, and so are the games --game asks for, which a part could
     * not number. */
    if (c->from >= FORMAT_OGN || c->games_of)
        c->jobs = 1;
    if (rc == 0 && (cmd->flags & CMD_OUTPUT))
        rc = open_output(&c->out, cmd->name, c->output, c->files, c->nfiles);
    if (rc == 0) {
        if (cmd->flags & CMD_PROGRESS) {
            snprintf(c->title, sizeof c->title, "pmn %s", cmd->name);
            progress_begin(&c->progress, c->title, c->quiet);
            c->sink.progress = &c->progress;
        }
        rc = cmd->run(c, ctx);
        if (cmd->flags & CMD_OUTPUT) {
            if (c->failed && c->write_errno)
                errno = c->write_errno;
            rc = close_output(&c->out, c->failed, rc);
        }
    }
    criteria_free(&c->criteria);
    free(ctx);
    free(c);
    return rc == CLI_DONE ? EXIT_CLEAN : rc;
}
