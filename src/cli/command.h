/* command.h - what every subcommand shares: the options more than one takes,
 * declared once here with the place each binds in struct common, and the
 * prologue main.c does for a command before its run (output, progress,
 * jobs, criteria). */
#ifndef PMN_CLI_COMMAND_H
#define PMN_CLI_COMMAND_H

#include "cli.h"
#include "options.h"
#include "io.h"
#include "progress.h"
#include "records.h"
#include "criteria.h"

#include <stddef.h>

struct common {
    const struct command *cmd;
    char **files;             /* the operands after the options */
    int nfiles;
    /* The shared options (their defaults set by main.c). */
    const char *output;       /* -o FILE, or NULL: standard output */
    int quiet;                /* -q */
    int strict;               /* --strict: check's statuses (job_status) */
    int jobs;                 /* -j N: default_jobs() */
    int from;                 /* --from: FORMAT_*, FORMAT_AUTO */
    int running_totals;       /* --running-totals */
    int out_format;           /* --format of the games written: OUT_* */
    struct rules_options ro;  /* --rules over each record's own; --position */
    pmn_rules rules;          /* --rules of a rule set (the default one's) */
    struct ranges games;      /* -g RANGES ... */
    const struct ranges *games_of;   /* ... &games, or NULL: every game */
    struct criteria criteria; /* OPT_CRITERIA */
    pmn_write_options wo;     /* --notation, --capture-style */
    int notation_given;       /* --notation was given */
    pmn_search_limits limits; /* OPT_SEARCH_LIMITS */
    unsigned long hash_mb;    /* --hash: 64 */
    const char *tablebase;    /* --tablebase DIR, or NULL */
    /* What the prologue made. */
    struct output out;        /* CMD_OUTPUT: -o's, or standard output */
    struct progress progress; /* CMD_PROGRESS ... */
    char title[32];           /* ... its "pmn NAME" */
    struct diag_sink sink;    /* for the inputs: "-", notes with CMD_NOTES */
    int failed;               /* a write failed (said by close_output) ... */
    int write_errno;          /* ... with this errno, if not 0 */
};

/* The setter and place of a shared option, whose value is a T at field of
 * struct common (as BIND_AT). */
#define COMMON_AT(set, T, field) set, CLI_AT(struct common, field, T), 1

/* The shared options. */
#define OPT_OUTPUT { "output", 'o', "FILE", "write to FILE instead of standard output", \
    COMMON_AT(opt_string, const char *, output), NULL, 0 }
#define OPT_QUIET_PROGRESS { "quiet", 'q', NULL, "no progress line on a terminal", \
    COMMON_AT(opt_flag, int, quiet), NULL, 0 }
#define OPT_JOBS { "jobs", 'j', "N", "read with N threads (default: the cores there are)", \
    COMMON_AT(jobs_option, int, jobs), NULL, 0 }
#define OPT_STRICT { "strict", 'Z' + 256, NULL, \
    "exit as pmn check does: 1 if the games carry\n" \
    "warnings, 2 errors (else 0 when the job is done)", COMMON_AT(opt_flag, int, strict), NULL, 0 }
#define OPT_FROM { "from", 'I' + 256, "FORMAT", \
    "{formats};\n" \
    "default: found from the input's name ({extensions})\n" \
    "or its first tags and move, said in a note; else\n" \
    "pmn", COMMON_AT(format_option, int, from), NULL, 0 }
#define OPT_RULES_OVER { "rules", 'r', "SPEC", \
    "rules over each record's own (its Game and Rules\n" \
    "tags), e.g. endless=lose, or a rule file that\n" \
    "replaces them; may be repeated", \
    COMMON_AT(rules_over_option, struct rules_options, ro), NULL, 0 }
#define OPT_RULES_SET { "rules", 'r', "SPEC", \
    "rule set and options, e.g. hawalis,endless=lose,\nor a rule file", \
    COMMON_AT(rules_set_option, pmn_rules, rules), NULL, 0 }
#define OPT_START_POSITION { "position", 'P' + 256, "STRING", \
    "the start of every game whose record gives none\n" \
    "(a problem's diagram lost): a position string;\n" \
    "EVENT=STRING: the game of that Event tag only\n" \
    "(\"Problem 2=...\"; may be repeated)", \
    COMMON_AT(start_position_option, struct rules_options, ro), NULL, 0 }
#define OPT_RUNNING_TOTALS { "running-totals", 'T' + 256, NULL, \
    "the counts after moves are each player's captures\nso far, not the move's", \
    COMMON_AT(opt_flag, int, running_totals), NULL, 0 }
#define OPT_NOTATION { "notation", 'n', "NAME", \
    "letters (a-n, A-N; the default), numbers (1-14 for\n" \
    "the player to move) or coordinates (a1-g4)", notation_option, 0, 1, NULL, 0 }
#define OPT_CAPTURE_STYLE { "capture-style", 'c' + 256, "STYLE", \
    "plus for (+N) (the default), or x for (xN)", \
    COMMON_AT(capture_style_option, pmn_write_options, wo), NULL, 0 }
#define OPT_OUTPUT_FORMAT { "format", 'F' + 256, "FORMAT", \
    "verbatim (the games as read; the default), pmn\n" \
    "(canonical), xml, list (a line a game) or jsonl", \
    COMMON_AT(opt_choice, int, out_format), output_format_names, 0 }
/* --game RANGES: the one criterion of the commands that take no other
 * (check, convert, export, import, annotate). */
#define OPT_GAME { "game", 'g', "RANGES", "only the games of these numbers in their file\n" \
    "(12, 3-7,20-)", game_option, 0, 1, NULL, 0 }
#define OPT_TABLEBASE { "tablebase", 'B' + 256, "DIR", \
    "answer from the endgame databases in DIR ('pmn\n" \
    "tablebase build')", COMMON_AT(opt_string, const char *, tablebase), NULL, 0 }

/* The limits of a search (analyse, annotate, html, selfplay). */
extern const struct cli_bounds depth_bounds, nodes_bounds, time_bounds, hash_bounds,
    threads_bounds;
#define OPT_DEPTH { "depth", 'd', "D", "look D plies ahead", \
    COMMON_AT(opt_uint, unsigned, limits.depth), &depth_bounds, 0 }
#define OPT_NODES { "nodes", 'N' + 256, "N", "stop after about N positions", \
    COMMON_AT(opt_u64, uint64_t, limits.nodes), &nodes_bounds, 0 }
#define OPT_TIME { "time", 't' + 256, "SECONDS", \
    "stop after SECONDS (the result then depends on\nthe machine)", \
    COMMON_AT(opt_double, double, limits.seconds), &time_bounds, 0 }
#define OPT_HASH { "hash", 'H' + 256, "MB", "transposition table size (default 64)", \
    COMMON_AT(opt_ulong, unsigned long, hash_mb), &hash_bounds, 0 }
#define OPT_SEARCH_LIMITS \
    OPT_DEPTH, OPT_NODES, OPT_TIME, \
    { "solve", 'S' + 256, NULL, "search to the end of the game: exact values (where\n" \
      "seeds score, the final margin)", COMMON_AT(opt_flag, int, limits.solve), NULL, 0 }, \
    { "distance", 'D' + 256, NULL, "with --solve, also the plies to the end (the\n" \
      "quickest win; slower)", COMMON_AT(distance_option, pmn_search_limits, limits), NULL, 0 }, \
    OPT_HASH, \
    { "threads", 'j' + 512, "N", "threads of the solver (default: the cores, or\n" \
      "$PMN_THREADS); the value is the same whatever N", \
      COMMON_AT(opt_uint, unsigned, limits.threads), &threads_bounds, 0 }

/* The criteria (criteria.h), bound to common.criteria. */
#define OPT_CRITERIA OPT_CRITERIA_AT(COMMON_AT(criterion_option, struct criteria, criteria))

/* The setters of the shared options that set struct common itself
 * (command.c); the others are declared by what they set (jobs.h,
 * records.h, options.h, criteria.h). */
cli_setter notation_option;        /* wo's notation, and notation_given */
cli_setter game_option;            /* games, and games_of */

/* Run cmd on argv[1..]: its options read into a struct common and its
 * context, checked, the prologue its flags ask for done, its run called,
 * the output closed: the exit status. */
int run_command(const struct command *cmd, int argc, char **argv);

#endif
