/* main.c - pmn SUBCOMMAND [OPTIONS] [FILE...]: find the subcommand, run it. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const struct command commands[] = {
    { "check", "replay every game of PMN files and report what is wrong", cmd_check },
    { "replay", "show a game move by move: the board, captures and laps", cmd_replay },
    { "convert", "write games as canonical PMN, in any notation", cmd_convert },
    { "export", "write games as an XML archive, with what the replay computed", cmd_export },
    { "import", "read an XML archive and write its games as canonical PMN", cmd_import },
    { "perft", "count legal move sequences from a position (engine self-test, benchmark)", cmd_perft },
    { "position", "show a position: board, position string, legal moves", cmd_position },
    { "rules", "list the rule sets, show one in words, read a rule file", cmd_rules },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "Usage: pmn SUBCOMMAND [OPTIONS] [FILE...]\n"
               "       pmn --help | --version\n\n"
               "Reads, replays and validates records of mancala games.\n\n"
               "Subcommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'pmn SUBCOMMAND --help' describes each.  See pmn(1).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        usage(stdout);
        return EXIT_CLEAN;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("pmn %s\n", pmn_version());
        return EXIT_CLEAN;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "pmn: error: unknown subcommand '%s'\nTry 'pmn --help'.\n", name);
    return EXIT_USAGE;
}
