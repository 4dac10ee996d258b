/* main.c - pmn SUBCOMMAND [OPTIONS] [FILE...]: find the subcommand, read
 * its options, do the prologue every command shares, run it. */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "progress.h"
#include "jobs.h"
#include "command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct command *const commands[] = {
    &check_command, &replay_command, &convert_command, &export_command, &import_command,
    &select_command, &duplicates_command, &split_command, &stats_command, &html_command,
    &analyse_command, &annotate_command, &selfplay_command, &uci_command, &perft_command,
    &tablebase_command,
    &position_command, &rules_command,
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "Usage: pmn SUBCOMMAND [OPTIONS] [FILE...]\n"
               "       pmn --help | --version\n\n"
               "Reads, replays and validates records of mancala games.\n\n"
               "Subcommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-11s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "\n'pmn help SUBCOMMAND' or 'pmn SUBCOMMAND --help' describes each.  See "
               "pmn(1).\n");
}

/* The prologue and epilogue of every command: its options read into c
 * and its context, checked; its output opened and its progress line begun
 * where its flags say; after its run, the output closed and the criteria
 * freed.  Returns the exit status. */
static int run_command(const struct command *cmd, int argc, char **argv)
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
    if ((rc = cli_parse(cmd, c, ctx, argc, argv)) == 0 && cmd->ready)
        rc = cmd->ready(c, ctx);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "help") == 0 && argc > 2) {   /* pmn help SUBCOMMAND */
        for (size_t i = 0; i < NCOMMANDS; i++)
            if (strcmp(argv[2], commands[i]->name) == 0) {
                cli_help(commands[i], stdout);
                return finish_stdout(EXIT_CLEAN);
            }
        name = argv[2];
    } else if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0
               || strcmp(name, "help") == 0) {
        usage(stdout);
        return finish_stdout(EXIT_CLEAN);
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("pmn %s\n", pmn_version());
        return finish_stdout(EXIT_CLEAN);
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i]->name) == 0)
            return finish_stdout(run_command(commands[i], argc - 1, argv + 1));
    char safe[256];
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i]->name;
    const char *guess = did_you_mean(name, names, NCOMMANDS);
    fprintf(stderr, "pmn: error: unknown subcommand '%s'", escaped(name, safe, sizeof safe));
    if (guess)
        fprintf(stderr, "; did you mean '%s'?", guess);
    fprintf(stderr, "\nTry 'pmn --help'.\n");
    return EXIT_USAGE;
}
