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
    "replaces them; may be repeated", COMMON_AT(rules_over_option, struct rules_options, ro), NULL, 0 }
#define OPT_RULES_SET { "rules", 'r', "SPEC", \
    "rule set and options, e.g. hawalis,endless=lose,\nor a rule file", \
    COMMON_AT(rules_set_option, pmn_rules, rules), NULL, 0 }
#define OPT_START_POSITION { "position", 'P' + 256, "STRING", \
    "the start of every game whose record gives none\n" \
    "(a problem's diagram lost): a position string", \
    COMMON_AT(opt_string, const char *, ro.setup.position), NULL, 0 }
#define OPT_RUNNING_TOTALS { "running-totals", 'T' + 256, NULL, \
    "the counts after moves are each player's captures\nso far, not the move's", \
    COMMON_AT(opt_flag, int, running_totals), NULL, 0 }
#define OPT_NOTATION { "notation", 'n', "NAME", \
    "letters (a-n, A-N; the default), numbers (1-14 for\n" \
    "the player to move) or coordinates (a1-g4)", notation_option, 0, 1, NULL, 0 }
#define OPT_CAPTURE_STYLE { "capture-style", 'c' + 256, "STYLE", \
    "plus for (+N) (the default), or x for (xN)", COMMON_AT(capture_style_option, pmn_write_options, wo), NULL, 0 }
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
#define OPT_TIME { "time", 't' + 256, "SECONDS", "stop after SECONDS (the result then depends on\n" \
    "the machine)", COMMON_AT(opt_double, double, limits.seconds), &time_bounds, 0 }
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

/* The options of the criteria, for the commands that take them all
 * (criterion_option stores each). */
#define CRITERION(name, key, arg, help) \
    { name, key, arg, help, COMMON_AT(criterion_option, struct criteria, criteria), NULL, 0 }
#define OPT_CRITERIA \
    CRITERION("game", KEY_GAME, "RANGES", "games of these numbers in their file (12, 3-7,20-)"), \
    CRITERION("tag", KEY_TAG, "NAME=VALUE", "a tag's value: =VALUE, ~PATTERN (PCRE2), !=VALUE,\n" \
      "!~PATTERN, <VALUE, <=, >, >= (numbers, else text)"), \
    CRITERION("player", KEY_PLAYER, "NAME", "NAME plays either side (~PATTERN: a pattern; so\n" \
      "too for --south, --north, --event, --winner)"), \
    CRITERION("south", KEY_SOUTH, "NAME", "NAME plays South"), \
    CRITERION("north", KEY_NORTH, "NAME", "NAME plays North"), \
    CRITERION("event", KEY_EVENT, "NAME", "the Event tag"), \
    CRITERION("date", KEY_DATE, "FROM..TO", "the Date tag in this range (1990..1995.06; either\n" \
      "bound may be left out; 1990: that year)"), \
    CRITERION("result", KEY_RESULT, "RESULT", "the result written: 1-0, 0-1, 1/2-1/2 or *"), \
    CRITERION("winner", KEY_WINNER, "WHO", "south, north, draw, or the player who won"), \
    CRITERION("rule-set", KEY_RULE_SET, "NAME", "games played under this rule set (hawalis, kalah,\n" \
      "oware, ...)"), \
    CRITERION("ending", KEY_ENDING, "KINDS", "how the game ended: no-seeds, no-move, endless,\n" \
      "repetition, majority, last-seeds, resigned (a\nresult the board did not make), " \
      "unfinished;\nseveral with commas"), \
    CRITERION("moves", KEY_MOVES, "RANGE", "games of so many moves (40-60, -30, 100-)"), \
    CRITERION("opening", KEY_OPENING, "MOVES", "the main line begins with these plies, in letters\n" \
      "('a B c', move numbers allowed)"), \
    CRITERION("contains", KEY_CONTAINS, "MOVES", "these plies follow each other somewhere in the\n" \
      "main line"), \
    CRITERION("reaches", KEY_POSITION, "STRING", "the main line reaches this position (a position\n" \
      "string, as pmn position takes)"), \
    CRITERION("any-side", KEY_ANY_SIDE, NULL, "--reaches: whoever is to move"), \
    CRITERION("ignore-captured", KEY_IGNORE_CAPTURED, NULL, "--reaches: whatever has been captured"), \
    CRITERION("clean", KEY_CLEAN, NULL, "games with no error or warning"), \
    CRITERION("errors", KEY_ERRORS, NULL, "games with errors"), \
    CRITERION("code", KEY_CODE, "CODES", "games with one of these diagnostics (E205,W118)"), \
    CRITERION("invert", KEY_INVERT, NULL, "take the games that do not match"), \
    CRITERION("criteria", KEY_CRITERIA, "FILE", "criteria from FILE, a line each: a long option\n" \
      "without dashes and its value (player Gering), or\n" \
      "a tag as pgn-extract writes them (Event \"Open\")")

/* The setters of the shared options that are not the generic ones, each
 * beside what it sets: */
cli_setter jobs_option;            /* int: 1 to MAX_JOBS (jobs.c) */
cli_setter format_option;          /* int: FORMAT_* of its name (records.c) */
cli_setter rules_over_option;      /* struct rules_options: one more (records.c) */
cli_setter rules_set_option;       /* pmn_rules: applied over (records.c) */
cli_setter notation_option;        /* struct common: wo's notation, notation_given */
cli_setter capture_style_option;   /* pmn_write_options: its capture style */
cli_setter game_option;            /* struct common: games, games_of (criteria.c) */
cli_setter criterion_option;       /* struct criteria: one more (criteria.c) */
cli_setter distance_option;        /* pmn_search_limits: solve and distance */

#endif
