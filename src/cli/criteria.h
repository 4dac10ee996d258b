/* criteria.h - which games a command takes (criteria.c). */
#ifndef PMN_CLI_CRITERIA_H
#define PMN_CLI_CRITERIA_H

#include "archive.h"

enum {
    KEY_GAME = 'g', KEY_TAG = 't', KEY_PLAYER = 'p', KEY_EVENT = 'e', KEY_WINNER = 'w',
    KEY_CRITERIA = 'f',
    KEY_SOUTH = 1000, KEY_NORTH, KEY_DATE, KEY_RESULT, KEY_RULE_SET, KEY_ENDING, KEY_MOVES,
    KEY_OPENING, KEY_CONTAINS, KEY_POSITION, KEY_CLEAN, KEY_ERRORS, KEY_CODE, KEY_ANY_SIDE,
    KEY_IGNORE_CAPTURED, KEY_VARIATIONS, KEY_INVERT
};

/* Numbers and ranges of numbers, "12", "3-7,20-" (--game, --moves). */
#define MAX_RANGES 32
struct ranges {
    unsigned long lo[MAX_RANGES], hi[MAX_RANGES];
    unsigned n;
};
/* 0, or -1 if s is none. */
int ranges_parse(struct ranges *r, const char *s);
int ranges_has(const struct ranges *r, unsigned long v);
/* Is v past them all (nothing from v on is in them)? */
int ranges_past(const struct ranges *r, unsigned long v);

/* Before game `next` of a file is read, for --game (games NULL: all of
 * them): 1 to read it as asked; 0 to read it unheard (s muted: its
 * diagnostics neither shown nor counted, but for fatal ones); -1 when
 * none from it on is asked, and the file is left.  The caller unmutes s
 * when it leaves the file. */
int game_turn(struct diag_sink *s, const struct ranges *games, unsigned long next);
/* The next game of src that --game asks for (games NULL: every one) into
 * *rec, those before it read unheard (game_turn), *n counting every game
 * of the input read: 1, or as source_next at the end (0 when none after
 * is asked for), s unmuted. */
int source_next_asked(struct source *src, struct diag_sink *s, const struct ranges *games,
                      unsigned long *n, pmn_record *rec);

/* The options of the criteria, for the commands that take them all
 * (criterion_option stores each): declared once here, bound where they
 * are used (the arguments: the setter, offset and `shared` of a struct
 * criteria; command.h's OPT_CRITERIA). */
#define CRITERION(name, key, arg, help, ...) { name, key, arg, help, __VA_ARGS__, NULL, 0 }
#define OPT_CRITERIA_AT(...) \
    CRITERION("game", KEY_GAME, "RANGES", "games of these numbers in their file (12, 3-7,20-)", \
      __VA_ARGS__), \
    CRITERION("tag", KEY_TAG, "NAME=VALUE", "a tag's value: =VALUE, ~PATTERN (PCRE2), !=VALUE,\n" \
      "!~PATTERN, <VALUE, <=, >, >= (numbers, else text)", __VA_ARGS__), \
    CRITERION("player", KEY_PLAYER, "NAME", "NAME plays either side (~PATTERN: a pattern; so\n" \
      "too for --south, --north, --event, --winner)", __VA_ARGS__), \
    CRITERION("south", KEY_SOUTH, "NAME", "NAME plays South", __VA_ARGS__), \
    CRITERION("north", KEY_NORTH, "NAME", "NAME plays North", __VA_ARGS__), \
    CRITERION("event", KEY_EVENT, "NAME", "the Event tag", __VA_ARGS__), \
    CRITERION("date", KEY_DATE, "FROM..TO", "the Date tag in this range (1990..1995.06; either\n" \
      "bound may be left out; 1990: that year)", __VA_ARGS__), \
    CRITERION("result", KEY_RESULT, "RESULT", "the result written: 1-0, 0-1, 1/2-1/2 or *", \
      __VA_ARGS__), \
    CRITERION("winner", KEY_WINNER, "WHO", "south, north, draw, or the player who won", \
      __VA_ARGS__), \
    CRITERION("rule-set", KEY_RULE_SET, "NAME", \
      "games played under this rule set (hawalis, kalah,\n" \
      "oware, ...)", __VA_ARGS__), \
    CRITERION("ending", KEY_ENDING, "KINDS", "how the game ended: no-seeds, no-move, endless,\n" \
      "repetition, majority, last-seeds, resigned (a\nresult the board did not make), " \
      "unfinished;\nseveral with commas", __VA_ARGS__), \
    CRITERION("moves", KEY_MOVES, "RANGE", "games of so many moves (40-60, -30, 100-)", \
      __VA_ARGS__), \
    CRITERION("opening", KEY_OPENING, "MOVES", \
      "the main line begins with these plies, in letters\n" \
      "('a B c', move numbers allowed)", __VA_ARGS__), \
    CRITERION("contains", KEY_CONTAINS, "MOVES", \
      "these plies follow each other somewhere in the\n" \
      "main line", __VA_ARGS__), \
    CRITERION("reaches", KEY_POSITION, "STRING", \
      "the main line reaches this position (a position\n" \
      "string, as pmn position takes)", __VA_ARGS__), \
    CRITERION("any-side", KEY_ANY_SIDE, NULL, "--reaches: whoever is to move", __VA_ARGS__), \
    CRITERION("ignore-captured", KEY_IGNORE_CAPTURED, NULL, \
      "--reaches: whatever has been captured", __VA_ARGS__), \
    CRITERION("variations", KEY_VARIATIONS, NULL, \
      "--reaches: in the variations too (pmn index\n" \
      "build: index their positions)", __VA_ARGS__), \
    CRITERION("clean", KEY_CLEAN, NULL, "games with no error or warning", __VA_ARGS__), \
    CRITERION("errors", KEY_ERRORS, NULL, "games with errors", __VA_ARGS__), \
    CRITERION("code", KEY_CODE, "CODES", "games with one of these diagnostics (E205,W118)", \
      __VA_ARGS__), \
    CRITERION("invert", KEY_INVERT, NULL, "take the games that do not match", __VA_ARGS__), \
    CRITERION("criteria", KEY_CRITERIA, "FILE", "criteria from FILE, a line each: a long option\n" \
      "without dashes and its value (player Gering), or\n" \
      "a tag as pgn-extract writes them (Event \"Open\")", __VA_ARGS__)

#define MAX_CRITERIA 256
#define MAX_CRITERIA_FILES 16
struct criterion;
struct criteria {
    struct criterion *list[MAX_CRITERIA];
    unsigned n;
    int invert, any_side, ignore_captured, variations;
    char **texts;             /* read from criteria files */
    size_t ntexts, textcap;
    unsigned nfiles;
};

/* One criterion (o->key) into the struct criteria dest: a cli_setter. */
int criterion_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest);
/* --game RANGES into *r: 0, or the usage error's exit status. */
int game_ranges(struct ranges *r, const char *cmd, const char *arg);
/* The criteria of FILE (--criteria): 0, or the usage error's exit status. */
int criteria_file(struct criteria *c, const char *cmd, const char *path);
void criteria_free(struct criteria *c);
/* The status of a command that did its job on the games whatever they
 * carry (select, stats, html, split, duplicates, annotate): 0, or 3 where
 * a file could not be read or written; strict (--strict): exit_status's. */
int job_status(const struct diag_sink *s, int strict);
/* Does g meet every criterion (none, with invert)? */
int criteria_match(const struct criteria *c, const struct game *g);
/* How many values a pattern gave up on (backtracking without end): each
 * taken as not matching, the first reported, and the command's status an
 * error (job_status). */
unsigned long criteria_gave_up(void);
/* Can they be judged from these tags of a game (the Result among them:
 * the result written), its number, rule set, ending, moves and what
 * checking found -- what an archive index keeps of it (lookup.c) -- with
 * at least one criterion? */
int criteria_from_tags(const struct criteria *c, const char *const *tags, size_t ntags);
/* Do they look at moves and positions (the record and replay of every game)?
 * At game numbers (one job reads)? */
int criteria_need_moves(const struct criteria *c);
int criteria_need_numbers(const struct criteria *c);
/* The position string of a --reaches that every game they take reaches
 * (the first; none under --invert): NULL if none. */
const char *criteria_position(const struct criteria *c);
/* The plies of an --opening that every game they take begins with (the
 * first; none under --invert), in letters, into *plies: their number. */
unsigned criteria_opening(const struct criteria *c, const char (**plies)[4]);
/* Is p the position want, read from the string text, as --reaches takes
 * it: the side to move the same but with --any-side, the seeds captured
 * where the string gives them but with --ignore-captured, every hole? */
int criteria_same_position(const struct criteria *c, const char *text, const pmn_rules *r,
                           const pmn_position *want, const pmn_position *p);
/* Does the position string give the seeds captured (a third field)?  Are
 * the holes of a and b the same? */
int criteria_gives_captured(const char *text);
int criteria_same_holes(const pmn_rules *r, const pmn_position *a, const pmn_position *b);
/* Do they look at tags (other than the result written)? */
int criteria_need_tags(const struct criteria *c);
/* Do they look at tags alone (and the result written)? */
int criteria_tags_only(const struct criteria *c);
/* Do g's tags alone (g may hold nothing else) fail a criterion that a
 * game without tags fails too?  For archive.ruled_out. */
int criteria_rule_out(const struct criteria *c, const struct game *g);

#endif
