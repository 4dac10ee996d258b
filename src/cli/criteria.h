/* criteria.h - which games a command takes (criteria.c). */
#ifndef PMN_CLI_CRITERIA_H
#define PMN_CLI_CRITERIA_H

#include "archive.h"

enum {
    KEY_GAME = 'g', KEY_TAG = 't', KEY_PLAYER = 'p', KEY_EVENT = 'e', KEY_WINNER = 'w',
    KEY_CRITERIA = 'f',
    KEY_SOUTH = 1000, KEY_NORTH, KEY_DATE, KEY_RESULT, KEY_RULE_SET, KEY_ENDING, KEY_MOVES,
    KEY_OPENING, KEY_CONTAINS, KEY_POSITION, KEY_CLEAN, KEY_ERRORS, KEY_CODE, KEY_ANY_SIDE,
    KEY_IGNORE_CAPTURED, KEY_INVERT
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

#define MAX_CRITERIA 256
#define MAX_CRITERIA_FILES 16
struct criterion;
struct criteria {
    struct criterion *list[MAX_CRITERIA];
    unsigned n;
    int invert, any_side, ignore_captured;
    char **texts;             /* read from criteria files */
    size_t ntexts, textcap;
    unsigned nfiles;
};

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
/* Do they look at moves and positions (the record and replay of every game)?
 * At game numbers (one job reads)? */
int criteria_need_moves(const struct criteria *c);
int criteria_need_numbers(const struct criteria *c);
/* Do they look at tags (other than the result written)? */
int criteria_need_tags(const struct criteria *c);
/* Do they look at tags alone (and the result written)? */
int criteria_tags_only(const struct criteria *c);
/* Do g's tags alone (g may hold nothing else) fail a criterion that a
 * game without tags fails too?  For archive.ruled_out. */
int criteria_rule_out(const struct criteria *c, const struct game *g);

#endif
