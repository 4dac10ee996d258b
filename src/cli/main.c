/* main.c - pmn SUBCOMMAND [OPTIONS] [FILE...]: find the subcommand and
 * run it (command.c). */
#include "cli.h"
#include "options.h"
#include "io.h"
#include "command.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static const struct command *const commands[] = {
    &check_command, &replay_command, &convert_command, &export_command, &import_command,
    &select_command, &duplicates_command, &split_command, &stats_command, &html_command,
    &analyse_command, &annotate_command, &selfplay_command, &uci_command, &perft_command,
    &tablebase_command, &index_command,
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

int main(int argc, char **argv)
{
    /* A file grown past the limit of its size (ulimit -f) is a write that
     * fails with EFBIG, said as any failed write (F003), not a death by
     * SIGXFSZ with nothing said. */
    signal(SIGXFSZ, SIG_IGN);
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
    const char *guess = pmn_did_you_mean(name, names, NCOMMANDS);
    fprintf(stderr, "pmn: error: unknown subcommand '%s'", escaped(name, safe, sizeof safe));
    if (guess)
        fprintf(stderr, "; did you mean '%s'?", guess);
    fprintf(stderr, "\nTry 'pmn --help'.\n");
    return EXIT_USAGE;
}
