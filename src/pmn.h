/* pmn.h - libpmn, the Portable Mancala Notation library.
 *
 * Ownership: every object is owned by the caller who made it.  Plain structs
 * (pmn_rules, pmn_position, pmn_move_report, pmn_error) hold no pointers to
 * the heap and may be copied freely.  An opaque object made by a *_new
 * function is released by the matching *_free function, which accepts NULL.
 * Strings the library returns as `const char *` are static and live forever.
 *
 * Errors: a function that can fail returns a negative value on failure
 * (PMN_ERR_NOMEM when memory ran out) or NULL if it returns a pointer;
 * otherwise 0, or the non-negative value its comment names (pmn_play's
 * illegality, pmn_reader_next's 1 for a game, pmn_setup_record's status).
 * Those that take a `pmn_error *` fill it (when it is not NULL) with a
 * stable code, the 1-based column of the fault in the text they were given,
 * and a message that names the fault in words.  What is wrong with a record
 * is not a failure: it comes back as numbered diagnostics through a
 * pmn_diag_fn (see diagnostics).  No function prints anything or exits the
 * process.
 *
 * Threads: any number of threads may call libpmn at once, each on its own
 * objects; an object is not to be used by two threads at once.  What the
 * library sets up once a process (built-in rules, the lexer's pattern,
 * libxml2) is set up by its first caller, whichever thread that is.
 *
 * The header is the whole API: libpmn exports nothing else.
 *
 * Sides and holes: side 0 is South (who moves first), side 1 is North.  A hole
 * is named by its index in its owner's sowing order: for Hawalis 0..13, the
 * letters a..n for South and A..N for North.
 */
#ifndef PMN_H
#define PMN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

const char *pmn_version(void);

/* A line or column of a text, 1-based (0: none): 64 bits, so that a
 * place stays true past 4 GiB of lines.  Printed with %llu. */
typedef unsigned long long pmn_at;

/* ---- errors ------------------------------------------------------------ */

enum {
    PMN_OK = 0,
    PMN_ERR_SYNTAX = -1,   /* the text is not of the expected form */
    PMN_ERR_RANGE = -2,    /* a number or count is out of range */
    PMN_ERR_UNKNOWN = -3,  /* an unknown name: rule set, option, value */
    PMN_ERR_NOMEM = -4
};

typedef struct pmn_error {
    int code;           /* one of PMN_ERR_* */
    size_t column;      /* 1-based column in the text; 0 when not about text */
    char message[512];
} pmn_error;

/* ---- rules ------------------------------------------------------------- */

/* A rule set is data: the engine reads these fields and nothing else, so a
 * new game or variant is a new combination of mechanisms, not a new engine.
 * Each enum lists the mechanisms the engine implements; the value names in
 * comments are those of rule specifications and rule files (grammar/rules.rng).
 *
 * Boards: each player owns `rows` rows of `holes_per_row` holes.  Hawalis
 * players own two rows and sow around them only (cycle own-rows); the
 * two-row games (Kalah, Oware, Anywoli) give each player one row, and the
 * seeds go round both (cycle both-sides): South's holes 0..m-1 left to right,
 * then North's 0..m-1, North's hole i facing South's m-1-i.  Stores, where a
 * game has them, are the captured[] counts of a position. */

#define PMN_MAX_SIDE_PITS 32   /* holes one player owns, at most */

typedef enum pmn_cycle {
    PMN_CYCLE_OWN_ROWS,       /* own-rows: each player sows around his own rows only */
    PMN_CYCLE_BOTH_SIDES      /* both-sides: round the whole board, counterclockwise */
} pmn_cycle;

typedef enum pmn_laps {
    PMN_LAPS_RELAY,           /* relay: a last seed in an occupied hole is lifted again */
    PMN_LAPS_SINGLE           /* single: one lap, the move ends with its last seed */
} pmn_laps;

typedef enum pmn_singleton {
    PMN_SINGLETON_INTO_EMPTY  /* into-empty: below min_lift only into an empty hole */
} pmn_singleton;

typedef enum pmn_capture {
    PMN_CAPTURE_FRONT_AND_BACK,  /* front-and-back: Hawalis, the facing front hole and
                                    the back hole behind it */
    PMN_CAPTURE_FRONT_ONLY,      /* front: the facing front hole only (DLP evidence) */
    PMN_CAPTURE_OPPOSITE,        /* opposite: Kalah, a last seed in an own empty hole
                                    takes itself and the facing hole, if that has seeds */
    PMN_CAPTURE_OPPOSITE_ALWAYS, /* opposite-always: ... even when the facing hole is empty */
    PMN_CAPTURE_TWO_THREE,       /* two-three: Oware, a last seed making 2 or 3 in an
                                    opponent's hole takes it and the run of 2s and 3s before */
    PMN_CAPTURE_FOURS,           /* fours: Anywoli, a hole reaching 4 while sowing goes to
                                    its owner; 4 made by the last seed to the mover */
    PMN_CAPTURE_NONE,            /* none */
    PMN_CAPTURE_ONE_TWO_THREE    /* one-two-three: as two-three, with 1s too (a last
                                    seed in an empty opponent's hole takes it):
                                    MancalaGames' Oware */
} pmn_capture;

/* The duty to feed an opponent without seeds (the rule option feed). */
enum {
    PMN_FEED_NO,              /* no: none */
    PMN_FEED_YES,             /* yes: a move must give him seeds; where none can, the
                                 player cannot move (Oware, Awale) */
    PMN_FEED_IF_POSSIBLE      /* if-possible: a move must give him seeds where one can;
                                 where none can, any move is played (vying's Oware) */
};

typedef enum pmn_extra {
    PMN_EXTRA_NONE,           /* none */
    PMN_EXTRA_STORE,          /* store: a last seed in the own store earns another sowing */
    PMN_EXTRA_CAPTURE         /* capture: a capture by the last seed earns another sowing */
} pmn_extra;

typedef enum pmn_grand_slam {
    PMN_GRAND_SLAM_ALLOWED,   /* allowed: a capture may take all the opponent's seeds */
    PMN_GRAND_SLAM_REFUSED,   /* refused: such a move is illegal (the Awale manual) */
    PMN_GRAND_SLAM_NO_CAPTURE, /* no-capture: it is played but captures nothing (Abapa) */
    PMN_GRAND_SLAM_LAST_RESORT /* last-resort: refused while another move is legal; when
                                  every legal move is one, it is played and takes them
                                  (the Awari databases of Lincke, and Romein and Bal) */
} pmn_grand_slam;

typedef enum pmn_goal {
    PMN_GOAL_IMMOBILISE,      /* immobilise: who leaves the opponent no move wins */
    PMN_GOAL_MOST_SEEDS       /* most-seeds: who has captured (stored) most wins */
} pmn_goal;

typedef enum pmn_no_move {
    PMN_NO_MOVE_LOSES,        /* loses: seeds but no legal move, that player loses */
    PMN_NO_MOVE_PASS,         /* pass: he passes; the game ends when neither can move */
    PMN_NO_MOVE_COLLECT       /* collect: the game ends, the seeds left go to the side
                                 they lie on */
} pmn_no_move;

typedef enum pmn_last_seeds {
    PMN_LAST_PLAY_ON,         /* play-on: the last seeds are played for like any others */
    PMN_LAST_LOTTERY,         /* lottery: the game ends when only one capture's worth (4)
                                 is left; a lot outside the record gives it */
    PMN_LAST_PREVIOUS,        /* previous-capturer: it goes to who captured last */
    PMN_LAST_FIRST_THREE      /* first-three: to who first captured with a last seed
                                 into a hole of three */
} pmn_last_seeds;

typedef enum pmn_repetition {
    PMN_REPETITION_DRAW,      /* draw: a repeated position draws the game */
    PMN_REPETITION_UNCOUNTED, /* uncounted: it ends the game, the seeds left uncounted */
    PMN_REPETITION_OWN_SIDE,  /* own-side: it ends the game, the seeds left go to the
                                 side they lie on */
    PMN_REPETITION_PLAYS_ON   /* plays-on: it does not end the game (Ludii: a cycle
                                 ends only by the players' agreement) */
} pmn_repetition;

typedef enum pmn_endless {
    PMN_ENDLESS_DRAW,            /* draw: Mancala World, the game is drawn */
    PMN_ENDLESS_MOVER_LOSES      /* lose: de Voogt 2003 */
} pmn_endless;

typedef struct pmn_rules {
    char name[32];            /* "hawalis", "kalah", ... */
    unsigned rows;            /* rows each player owns (2: back row first; or 1) */
    unsigned holes_per_row;
    unsigned pits;            /* holes each player owns: rows * holes_per_row */
    unsigned seeds;           /* seeds in every hole at the start */
    unsigned min_lift;        /* fewer seeds than this: only when no hole has as many */
    int stores;               /* 1: the mover sows into his own store (not the other) */
    int skip_origin;          /* 1: a lap of the board passes over the hole emptied */
    int feed;                 /* PMN_FEED_*: an opponent without seeds must be given some */
    int majority;             /* 1: more than half of all seeds wins at once */
    int either_empty;         /* 1: the game ends when either side's holes are empty */
    int majority_sweep;       /* 1: a majority win sends the seeds left at once to the
                                 side they lie on (OpenSpiel) */
    int one_side_plays_on;    /* 1: a repetition with every seed on one side does not
                                 end the game (PlayStrategy, its issue 509) */
    pmn_cycle cycle;
    pmn_laps laps;
    pmn_singleton singleton;
    pmn_capture capture;
    pmn_extra extra;
    pmn_grand_slam grand_slam;
    pmn_goal goal;
    pmn_no_move no_move;
    pmn_last_seeds last_seeds;
    pmn_repetition repetition;
    pmn_endless endless;
} pmn_rules;

/* Fill *r from a specification: a rule-set name, optionally followed by
 * comma-separated options, e.g. "hawalis", "hawalis,endless=lose",
 * "capture=front" (the name defaults to hawalis).  Options of a later call
 * with pmn_rules_apply() override earlier ones. */
int pmn_rules_init(pmn_rules *r, const char *spec, pmn_error *err);
int pmn_rules_apply(pmn_rules *r, const char *spec, pmn_error *err);

/* "hawalis,rows=2,holes=7,...": every option spelled out. */
size_t pmn_rules_format(const pmn_rules *r, char *buf, size_t size);

/* The rule options, for --help texts: "  KEY=V1|V2   what it does" lines.
 * Returns the length needed. */
size_t pmn_rules_options_help(char *buf, size_t size);

/* Set one option (key and value need not be NUL-terminated).  The result
 * may be a combination the engine cannot play: see pmn_rules_check. */
int pmn_rules_set(pmn_rules *r, const char *key, size_t klen, const char *val,
                  size_t vlen, pmn_error *err);
/* The value of an option in words ("front-and-back", "6") into buf; returns
 * the length needed, or -1 if there is no such option. */
int pmn_rules_value_name(const pmn_rules *r, const char *key, char *buf, size_t size);
/* 0 if the engine can play these rules; else -1 and why. */
int pmn_rules_check(const pmn_rules *r, pmn_error *err);

/* The rules in words, a line each for the board, sowing, capture, turn and
 * end.  Returns the length needed. */
size_t pmn_rules_describe(const pmn_rules *r, char *buf, size_t size);

/* A built-in rule set by name: 0, or -1 if there is none of that name. */
int pmn_rules_builtin(const char *name, pmn_rules *r);
/* Another program's reading of the rules (OpenSpiel, PlayStrategy, Ludii):
 * options applied over whatever game a record names, as a rule
 * specification names them ("oware,openspiel", or "openspiel" over each
 * record's own).  Static; NULL past the last, or for no such name. */
typedef struct pmn_reading {
    const char *name;         /* "openspiel" */
    const char *options;      /* "majority-sweep=yes" */
    const char *title, *description;
} pmn_reading;
const pmn_reading *pmn_rules_reading(size_t i);
const pmn_reading *pmn_rules_reading_named(const char *name, size_t len);
/* "hawalis, kalah, ...": the built-in names.  Returns the length needed. */
size_t pmn_rules_builtin_names(char *buf, size_t size);

/* ---- positions --------------------------------------------------------- */

typedef enum pmn_side { PMN_SOUTH = 0, PMN_NORTH = 1 } pmn_side;

const char *pmn_side_name(int side);     /* "South", "North" */

typedef struct pmn_position {
    uint16_t pit[2][PMN_MAX_SIDE_PITS];  /* [side][hole in sowing order] */
    uint32_t captured[2];                /* seeds each side has captured (or stored) */
    uint8_t to_move;                     /* pmn_side */
    /* For the last-seeds rules (side + 1, or 0: nobody yet, or not known):
     * who captured last, and who first captured with a last seed into a
     * hole of three. */
    uint8_t last_capturer, first_three;
} pmn_position;

/* Largest number of seeds a position may hold, so that no hole overflows. */
#define PMN_MAX_SEEDS 65535u

void pmn_position_start(const pmn_rules *r, pmn_position *p);
unsigned pmn_position_seeds(const pmn_rules *r, const pmn_position *p, int side);
int pmn_position_equal(const pmn_rules *r, const pmn_position *a,
                       const pmn_position *b);
/* A 64-bit key of p's holes (both sides; the seeds captured aside) with
 * `side` to move, which need not be p->to_move: what an index of positions
 * files them under (pmn index).  The same on every machine; it changes only
 * with the index's schema.  Two positions may share a key, rarely: whoever
 * finds a position by its key compares the position itself. */
uint64_t pmn_position_key(const pmn_rules *r, const pmn_position *p, int side);

/* The position string: each side's hole counts in sowing order, separated
 * by commas, South first, then a space and the side to move (S or N):
 *   2,2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2,2 S
 * and, optionally, the seeds each side has captured (or stored) so far:
 *   0,5,5,5,5,4/4,4,4,4,4,4 N 1:0
 * Formatting writes them for the games won by seeds, when not both 0. */
int pmn_position_parse(const pmn_rules *r, const char *text, pmn_position *p,
                       pmn_error *err);
/* The holes a side that a position string states itself (a KGP literal's
 * first count), or 0 when it states none. */
unsigned pmn_position_holes(const char *text);
/* As pmn_position_parse; a string that states the holes a side (a KGP
 * literal) sets them in *r too, where a side has one row. */
int pmn_position_parse_sized(pmn_rules *r, const char *text, pmn_position *p, pmn_error *err);
/* Other programs' position strings are read too: a KGP board literal
 * "<6,0,0,4,4,4,4,4,4,4,4,4,4,4,4>" (holes a side, South's store, North's,
 * South's holes, North's; then " S" or " N", South by default), Aualé's
 * FEN "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S" (South's holes, North's, the stores,
 * the side to move) and PlayStrategy's "4S,4S,4S,4S,4S,4S/4S,4S,4S,4S,4S,4S
 * 0 0 S 1" (rows from South's seat: North's a2-f2, then South's a1-f1;
 * "4S" four seeds, "2" two empty holes; the captures, the side to move,
 * the move number). */
typedef enum pmn_position_form {
    PMN_POSITION_PMN, PMN_POSITION_KGP, PMN_POSITION_OGN, PMN_POSITION_PLAYSTRATEGY
} pmn_position_form;
/* The form a position string is written in, as pmn_position_parse tells
 * them apart (PMN_POSITION_PMN: none of the others). */
pmn_position_form pmn_position_form_of(const char *text);
/* Returns the length written (excluding the NUL); truncates to fit size. */
size_t pmn_position_format_as(const pmn_rules *r, const pmn_position *p,
                              pmn_position_form form, char *buf, size_t size);
size_t pmn_position_format(const pmn_rules *r, const pmn_position *p,
                           char *buf, size_t size);

/* ---- moves ------------------------------------------------------------- */

typedef enum pmn_legality {
    PMN_LEGAL = 0,
    PMN_ILLEGAL_NO_SUCH_HOLE,        /* index outside the player's holes */
    PMN_ILLEGAL_EMPTY,               /* the hole holds no seed */
    PMN_ILLEGAL_SINGLETON,           /* one seed, while a hole holds min_lift or more */
    PMN_ILLEGAL_SINGLETON_OCCUPIED,  /* a lone seed into an occupied hole */
    PMN_ILLEGAL_NOT_FEEDING,         /* the opponent has no seeds and gets none */
    PMN_ILLEGAL_GRAND_SLAM           /* it would capture all the opponent's seeds */
} pmn_legality;

const char *pmn_legality_string(pmn_legality l);

typedef enum pmn_ending {
    PMN_END_NONE = 0,
    PMN_END_NO_SEEDS,     /* the mover's opponent has no seeds left */
    PMN_END_NO_MOVE,      /* the opponent has seeds but no legal move */
    PMN_END_ENDLESS,      /* the move's sowing never ends */
    PMN_END_REPETITION,   /* a whole-board position repeated (pmn_game only) */
    PMN_END_MAJORITY,     /* the mover has captured more than half the seeds */
    PMN_END_LAST_SEEDS    /* only the last four seeds are left (rule last-seeds) */
} pmn_ending;

typedef enum pmn_outcome {
    PMN_ONGOING = 0,
    PMN_SOUTH_WINS,
    PMN_NORTH_WINS,
    PMN_DRAWN
} pmn_outcome;

const char *pmn_ending_string(pmn_ending e);
/* How a game ended, in words, given the position it ended in: "South has no
 * seeds left", "North has no legal move", "endless move"; games won by seeds
 * add the count, "; seeds 25-19". */
void pmn_ending_explain(const pmn_rules *r, pmn_ending e, const pmn_position *end,
                        char *buf, size_t size);
/* The seeds each side counts at the end of a game that ended this way in
 * `end`, where the rules score seeds: captured (or stored), and those left
 * on the board where the ending gives them out.  Returns 0 (and leaves
 * seeds alone) where the rules do not count seeds, or the ending is not
 * decided by them (an endless move). */
int pmn_final_seeds(const pmn_rules *r, pmn_ending e, const pmn_position *end,
                    unsigned long seeds[2]);
const char *pmn_outcome_string(pmn_outcome o);   /* "1-0", "0-1", "1/2-1/2", "*" */
/* The outcome a result token names; returns -1 if s is none of the four. */
int pmn_outcome_parse(const char *s, pmn_outcome *o);

typedef struct pmn_move_report {
    int side;                 /* who moved */
    int hole;                 /* the hole played */
    unsigned captured;        /* seeds captured by the move (for its mover) */
    unsigned given;           /* seeds the opponent captured during it (fours) */
    unsigned stored;          /* seeds sown into the mover's store */
    uint64_t laps;            /* sowings of the move (the first lift included) */
    int end_side, end_hole;   /* the hole of the last seed; end_hole -1 if it
                                 fell into the store, or the move is endless */
    int extra;                /* 1: the mover has earned another sowing */
    int passed;               /* 1: the opponent cannot move and passes */
    int grand_slam;           /* 1: its capture was a grand slam, not made */
    unsigned repeats_ply;     /* PMN_END_REPETITION: the position after this
                                 move is the one after that many plies */
    pmn_ending ending;        /* did the move end the game, and how */
    pmn_outcome outcome;
    /* An endless move's proof.  Lap 0 is the sowing state (mover's holes,
     * hole reached, seeds in hand) right after the first lift; lap k the
     * state right after the k-th lift that follows. */
    uint64_t loop_lap;        /* first lap whose state equals an earlier lap's */
    uint64_t loop_from;       /* ... namely this one */
    uint64_t rotated_lap;     /* first lap whose state equals an earlier one turned */
    uint64_t rotated_from;    /* around the cycle, and that earlier lap */
} pmn_move_report;

pmn_legality pmn_move_legality(const pmn_rules *r, const pmn_position *p,
                               int hole);
/* Legal holes for the side to move, in sowing order; returns their number. */
int pmn_legal_moves(const pmn_rules *r, const pmn_position *p,
                    int moves[PMN_MAX_SIDE_PITS]);

/* Play `hole` for the side to move.  On an illegal move returns the
 * (positive) pmn_legality and leaves *p unchanged.  On success returns 0,
 * fills *rep, and updates *p: the board, the captured totals and the side to
 * move.  An endless move leaves the board as it was before the move. */
int pmn_play(const pmn_rules *r, pmn_position *p, int hole,
             pmn_move_report *rep);

/* One lap of a sowing, to show a move step by step. */
typedef struct pmn_lap {
    pmn_position board;       /* after the lap: its last seed sown, and the hole
                                 it fell into not yet lifted for the next lap;
                                 seeds stored or taken on the way counted */
    int side, hole;           /* the hole lifted for the lap (side: its owner) */
    unsigned seeds;           /* the seeds lifted and sown */
    int end_side, end_hole;   /* the hole of its last seed; end_hole -1: the
                                 store of that side */
    uint32_t fours[2];        /* [side]: its holes emptied by a four on the way
                                 (bit h: hole h) */
} pmn_lap;

/* Sow `hole` for the side to move lap by lap, as pmn_play sows it, into
 * laps[0..*n): the sowing alone, without the captures of its last seed or
 * what follows the move (the next side to move is not set).  Returns 0 when
 * the sowing ended within max laps, 1 when it goes on past them (an endless
 * move always does), -1 (and *n 0) for a move that is not legal. */
int pmn_sowing_laps(const pmn_rules *r, const pmn_position *p, int hole, pmn_lap *laps,
                    size_t max, size_t *n);

/* Has the game already ended in this position: the side to move unable to
 * play, a majority, the last seeds?  Returns the ending (PMN_END_NONE if
 * none) and sets *outcome accordingly. */
pmn_ending pmn_position_ending(const pmn_rules *r, const pmn_position *p,
                               pmn_outcome *outcome);
/* Does a repetition of position p end the game (rules repetition and
 * repetition-one-side)? */
int pmn_repetition_ends(const pmn_rules *r, const pmn_position *p);
/* The outcome of a game that ends by a repeated position (rule repetition);
 * where a repetition plays on, what the search values a cycle at: the
 * seeds as they lie. */
pmn_outcome pmn_repetition_outcome(const pmn_rules *r, const pmn_position *p);

/* ---- games: positions with history ------------------------------------- */

/* A game tracks the positions since the last capture, to see a whole-board
 * repetition (which pmn_play alone cannot). */
typedef struct pmn_game pmn_game;

pmn_game *pmn_game_new(const pmn_rules *r, const pmn_position *start);
pmn_game *pmn_game_clone(const pmn_game *g);   /* to follow a variation */
void pmn_game_free(pmn_game *g);
/* As pmn_play; a repetition sets rep->ending = PMN_END_REPETITION.  After the
 * game has ended every move is refused with -1; PMN_ERR_NOMEM if the history
 * cannot grow (the move is played, but no repetition of it will be seen). */
int pmn_game_play(pmn_game *g, int hole, pmn_move_report *rep);
const pmn_position *pmn_game_position(const pmn_game *g);
pmn_outcome pmn_game_outcome(const pmn_game *g);
pmn_ending pmn_game_ending(const pmn_game *g);
unsigned pmn_game_plies(const pmn_game *g);

/* ---- notation ---------------------------------------------------------- */

/* Three ways to name a hole:
 *   letters      a-n for South, A-N for North, each in the owner's sowing
 *                order (the sample games);
 *   numbers      1-14 for the player who moves: 1-7 the front row h-n,
 *                8-14 the back row a-g (the endgame-problem solutions);
 *   coordinates  file a-g from South's left, rank 1-4 from South's side:
 *                the same name whoever plays (a1 is South's a, g4 North's A). */
typedef enum pmn_notation {
    PMN_NOTATION_LETTERS = 0,
    PMN_NOTATION_NUMBERS,
    PMN_NOTATION_COORDINATES
} pmn_notation;

const char *pmn_notation_name(pmn_notation n);     /* "letters", ... */
int pmn_notation_from_name(const char *name, pmn_notation *n);

/* The letter of a hole: 'a'+hole for South, 'A'+hole for North. */
char pmn_hole_letter(int side, int hole);
/* Parse one letter: sets *side and *hole; returns 0, or -1 if not a letter
 * of this rule set's holes. */
int pmn_hole_from_letter(const pmn_rules *r, char c, int *side, int *hole);
/* Numbers: 1..pits for the mover's holes. */
int pmn_hole_number(const pmn_rules *r, int hole);
int pmn_hole_from_number(const pmn_rules *r, unsigned long number, int *hole);
/* Coordinates: file 0..holes_per_row-1, rank 0..3 (rank 0 is "1"). */
void pmn_hole_coordinates(const pmn_rules *r, int side, int hole, int *file, int *rank);
int pmn_hole_from_coordinates(const pmn_rules *r, int file, int rank, int *side, int *hole);
/* A hole's name in a notation: "i", "2", "f2".  Returns the length. */
size_t pmn_hole_name(const pmn_rules *r, pmn_notation n, int side, int hole, char *buf,
                     size_t size);
/* As pmn_hole_name; swap_case: a letter of the other case (OGN's). */
size_t pmn_hole_name_cased(const pmn_rules *r, pmn_notation n, int swap_case, int side,
                           int hole, char *buf, size_t size);

/* ---- the board as text ------------------------------------------------ */

/* Four rows as seen from South's side of the table, North's back row on top,
 * each count under or over its letter; lines end with '\n'.  Returns the
 * length it needed (excluding the NUL), truncating to fit size. */
size_t pmn_board_format(const pmn_rules *r, const pmn_position *p, char *buf,
                        size_t size);
/* The same, each hole named in notation n; swap_case: letters of the
 * other case, South's upper (as OGN and the Awari notation write them). */
size_t pmn_board_format_as(const pmn_rules *r, const pmn_position *p, pmn_notation n,
                           int swap_case, char *buf, size_t size);

/* ---- the board as SVG ------------------------------------------------- */

typedef struct pmn_svg_options {
    pmn_notation notation;        /* of the holes' names */
    int lifted_side, lifted_hole; /* the hole the last ply lifted; -1: none */
    int end_side, end_hole;       /* where its last seed fell (end_hole -1 with a
                                     side: that side's store); -1: none */
    const char *title;            /* the picture's title; NULL: the rules and who moves */
    int html;                     /* 1: for an HTML5 page: no XML declaration, and
                                     each hole, store and captured total carries
                                     data-side, data-hole and data-seeds (its
                                     count); the dots of a hole are grouped */
} pmn_svg_options;

void pmn_svg_options_init(pmn_svg_options *o);   /* letters, nothing marked */
/* The board as a standalone SVG 1.1 document, laid out as pmn_board_format
 * lays it out: each hole with its seeds as dots (up to 12; past that, the
 * count in it), its count and its name; the stores or the seeds captured;
 * the side to move; the last ply's holes marked by outline (width and dash,
 * not colour alone) and said in words; a title and a description (the
 * position string) for readers that do not see it.  o NULL: defaults.
 * Returns the length it needed (excluding the NUL), truncating to fit
 * size, as snprintf does. */
size_t pmn_board_svg(const pmn_rules *r, const pmn_position *p, const pmn_svg_options *o,
                     char *buf, size_t size);

/* ---- perft ------------------------------------------------------------- */

/* Number of legal move sequences of exactly `depth` moves from p.  A move
 * that ends the game stops its sequence: counted if it is the last one, not
 * continued otherwise.  Repetitions are ignored (positions have no history).
 * If divide is not NULL, divide[i] receives the count below the i-th legal
 * move (in pmn_legal_moves order) and *ndivide their number. */
uint64_t pmn_perft(const pmn_rules *r, const pmn_position *p, unsigned depth,
                   uint64_t divide[PMN_MAX_SIDE_PITS], int *ndivide);
/* The same count by `jobs` threads, which share out the subtrees below the
 * first two plies.  Returns the count; 0 with *ndivide -1 if no thread could
 * be started (then pmn_perft counts alone, which the caller may call). */
uint64_t pmn_perft_jobs(const pmn_rules *r, const pmn_position *p, unsigned depth, int jobs,
                        uint64_t divide[PMN_MAX_SIDE_PITS], int *ndivide);

/* ---- analysis ---------------------------------------------------------- */

/* The value of a position is what the rules' outcome says, from the view of
 * the side to move: a win, draw or loss; where the rules score seeds, the
 * margin (his final seeds less his opponent's); and, when exact, the plies
 * to the end under best play, the winner taking the quickest win and the
 * loser the slowest loss.  Values compare by outcome, then margin, then
 * plies: `score` orders them as one number.  A value is exact when the
 * search proved it to the end of the game; otherwise it is a heuristic
 * (the captured difference in games scored by seeds, the seeds on each
 * side otherwise), never passed off as exact. */
typedef struct pmn_value {
    int32_t score;            /* higher is better for the side to move */
    int exact;                /* 1: proved to the end of the game */
    int outcome;              /* exact: 1 win, 0 draw, -1 loss; heuristic: its sign */
    int has_margin;           /* the rules score seeds */
    int margin;               /* seeds: exact, the final margin; else an estimate */
    unsigned plies;           /* exact wins and losses: plies to the end; 0 from
                                 the margin solver, which does not count them */
    int solved;               /* 1: from the margin solver: the margin is the value,
                                 and lower..upper what is proved of it */
    int lower, upper;         /* solved: the bounds proved (equal when exact) */
    int tablebase;            /* 1: read from an endgame database */
} pmn_value;

/* The value of a score. */
void pmn_value_of_score(const pmn_rules *r, int32_t score, int exact, pmn_value *v);
/* The value of a move from `after`, the value of the position it leads
 * to (the view of that position's side to move): the mover's view, one
 * ply more to the end; same_side: the mover moves again there. */
void pmn_value_of_move(const pmn_rules *r, const pmn_value *after, int same_side, pmn_value *v);
/* The value in words, for the side it is about: "South wins by 10 seeds in
 * 37 plies", "a draw", "about +3 seeds (heuristic, depth 12)". */
size_t pmn_value_describe(const pmn_value *v, int side, char *buf, size_t size);
/* The value as annotations write it, [%eval TEXT], always from South's
 * view (side: whose view v is), one form for every game: "+3" an estimate
 * in seeds; "=+6" exact, South wins by 6 seeds with best play ("=0" a draw,
 * "=-2" North by 2), with the result and the plies to the end beside it
 * where they are known ("=+6 (won, 11 plies)"); "won (7 plies)", "lost (4
 * plies)" a result whose margin is not proved (a game that does not count
 * seeds, or a win found and not proved the best); "won" alone a result
 * proved with neither (under a majority, from the databases of
 * majority=no: pmn_tablebase_built_rules).  The first word alone is
 * the value (pmn_comment_eval).  Returns the length needed. */
size_t pmn_value_eval(const pmn_value *v, int side, char *buf, size_t size);

#define PMN_MAX_PV 128

typedef struct pmn_search_limits {
    unsigned depth;           /* plies a search may look ahead; 0: no limit */
    uint64_t nodes;           /* 0: no limit */
    double seconds;           /* 0: no limit */
    int solve;                /* search until the value is exact: in games scored
                                 by seeds, the final margin alone (the margin solver) */
    int distance;             /* with solve: also the plies to the end, the winner
                                 taking the quickest win (the slower full search) */
    int all_moves;            /* value every legal move, not only the best */
    unsigned threads;         /* threads of the margin solver (Lazy SMP, sharing its
                                 table); 0 or 1: one, as with a limit of nodes.
                                 The value is the same whatever their number */
    /* NULL, or asked now and then (every 1024 positions): nonzero stops the
     * search, as a limit would.  With it and no limit, a search deepens
     * until it is stopped or its value is exact (an engine's "go infinite"). */
    int (*stop)(void *ctx);
    void *stop_ctx;
} pmn_search_limits;

typedef struct pmn_move_value {
    int hole;
    pmn_value value;          /* the value of playing it, for the side to move */
} pmn_move_value;

typedef struct pmn_analysis {
    pmn_value value;          /* of the position, side to move's view */
    int best;                 /* the best hole; -1 where the game is over */
    int pv[PMN_MAX_PV];       /* the principal variation, holes of whoever moves */
    unsigned npv;
    unsigned depth;           /* the last look-ahead completed */
    uint64_t nodes;
    double seconds;
    int stopped;              /* 1: a limit of nodes or time ended the search */
    pmn_move_value moves[PMN_MAX_SIDE_PITS];   /* with all_moves, best first */
    int nmoves;
    pmn_ending ending;        /* the game has ended in this position: how */
    int passes;               /* 1: the side to move cannot move and passes */
} pmn_analysis;

/* A searcher keeps a transposition table of hash_mb megabytes (at least
 * 1) for the rules it is made for; NULL when memory runs out. */
typedef struct pmn_searcher pmn_searcher;
pmn_searcher *pmn_searcher_new(const pmn_rules *r, size_t hash_mb);
void pmn_searcher_free(pmn_searcher *s);
/* Forget what earlier searches found. */
void pmn_searcher_clear(pmn_searcher *s);

/* Called after each completed iteration of a search. */
typedef void (*pmn_progress_fn)(void *ctx, const pmn_analysis *a);

/* ---- endgame databases ------------------------------------------------ */

/* Every position with at most N seeds in play of a game scored by seeds,
 * valued exactly: the best final margin of the seeds still in play for the
 * side to move.  Built layer by layer of seeds into files of a directory
 * (one a layer, checked when opened: rules, format, size; the checksum
 * and every value by pmn_tablebase_verify and by a build), and
 * memory-mapped when opened.  A searcher given them answers from them. */
#define PMN_TABLEBASE_MAX_SEEDS 64
typedef struct pmn_tablebase pmn_tablebase;

typedef struct pmn_tablebase_layer {
    unsigned seeds;           /* seeds in play */
    uint64_t positions;
    uint64_t by_value[2 * PMN_TABLEBASE_MAX_SEEDS + 1];  /* [v + MAX_SEEDS]: how many
                                                            are worth v */
    uint64_t bounded;         /* how many the databases only bound (own seeds:
                                 pmn_tablebase_probe_bounds); a value no position
                                 of the layer can have is counted nowhere */
    int loaded;               /* 1: read from its file, not built */
    double seconds;
    double done;              /* 1: the layer is done, and the rest is set; below 1:
                                 how far its build is (only seeds and positions set) */
} pmn_tablebase_layer;

typedef void (*pmn_tablebase_fn)(void *ctx, const pmn_tablebase_layer *layer);

/* 0 if databases can be made for r; else -1, *err saying why. */
int pmn_tablebase_check_rules(const pmn_rules *r, pmn_error *err);
/* The positions of a layer (both sides' holes, the side to move's first). */
uint64_t pmn_tablebase_positions(const pmn_rules *r, unsigned seeds);
/* The values the databases of r hold a position: 1, or 2 where they bound
 * it (pmn_tablebase_probe_bounds). */
unsigned pmn_tablebase_values(const pmn_rules *r);
/* The most seeds in play the databases of r can hold: PMN_TABLEBASE_MAX_SEEDS,
 * or where positions repeat and a position has one value, fewer (a byte
 * holds its value and the winner's hole: 36 on six holes a side). */
unsigned pmn_tablebase_max_seeds(const pmn_rules *r);
/* What building every layer of r up to `seeds` takes, about: the bytes of
 * memory at its largest layer (that layer's work and every layer below,
 * which it reads), and in *disk the bytes of the files. */
double pmn_tablebase_build_bytes(const pmn_rules *r, unsigned seeds, double *disk);
/* Build (or read, where a sound file is there) every layer up to `seeds`
 * in dir, on `threads` threads; fn is called after each layer (done 1),
 * and while one is built, about every million positions, with how far it
 * is (done below 1), from the calling thread.  One build a folder at a
 * time: another's running there (its lock on the folder) is an error. */
int pmn_tablebase_build(const pmn_rules *r, unsigned seeds, const char *dir, unsigned threads,
                        pmn_tablebase_fn fn, void *ctx, pmn_error *err);
/* Every layer of r up to `seeds` built in memory, on `threads` threads,
 * no file written or read: for a search that wants small layers and has
 * no databases (pmn analyse --solve).  NULL (with *err) as a build fails;
 * pmn_tablebase_close frees it. */
pmn_tablebase *pmn_tablebase_make(const pmn_rules *r, unsigned seeds, unsigned threads,
                                  pmn_error *err);
/* The small layers a solve of p wants where no databases are given: under
 * rules whose repetition gives each side the seeds on its side (Oware's),
 * every layer up to p's seeds in play as far as each holds at most 50,000
 * positions, made in memory (about a second on six holes a side, to 7
 * seeds), for pmn_searcher_use_tablebase.  Without them the solver
 * searches each repetition with its path, which may take hours where they
 * take a second.  NULL where they do not apply (other rules) or cannot be
 * made: the solve goes on without them. */
pmn_tablebase *pmn_tablebase_make_for(const pmn_rules *r, const pmn_position *p,
                                      unsigned threads);
/* The layers 0.. of r found in dir; NULL (with *err) if there are none,
 * if one is not theirs (its header: format, the rules' whole spec, size),
 * or if one is missing below others or is a link to nothing.  Cheap: no
 * layer is read whole here.  A probe reads a layer whole at its first
 * value of it, once in the process (its checksum, and every value one its
 * seeds can make: within them, and of their parity where every seed ends
 * in a store, as in Kalah); a layer that is not sound then gives no value
 * at all, and tb is marked damaged (pmn_tablebase_damaged), which stops a
 * search that reads them.  So no value is taken from a body other than
 * the one built, short of a forgery that keeps its checksum and values
 * its seeds can make. */
pmn_tablebase *pmn_tablebase_open(const pmn_rules *r, const char *dir, pmn_error *err);
/* Read every layer tb opened whole: 0 if each matches its checksum and
 * holds only values its seeds can make; else -1, *err naming the first
 * layer that does not.  A build does it for every layer it reads. */
int pmn_tablebase_verify(const pmn_tablebase *tb, pmn_error *err);
/* 1 if a probe of tb met a layer that is not sound (its checksum, or a
 * value no position of its layer can have) and took none of its values:
 * the files are damaged, pmn_tablebase_verify says where. */
int pmn_tablebase_damaged(const pmn_tablebase *tb);
void pmn_tablebase_close(pmn_tablebase *tb);
unsigned pmn_tablebase_seeds(const pmn_tablebase *tb);   /* the largest layer held */
/* The rules whose databases serve r, into *built: r's own, or, for rules
 * with a majority (Oware's, Awale's: more than half the seeds win at
 * once), the same with majority=no, whose databases decide the same
 * winner -- they give such a game its result, not its margin.  Those are
 * the databases pmn_tablebase_build makes and pmn_tablebase_open reads
 * for r. */
void pmn_tablebase_built_rules(const pmn_rules *r, pmn_rules *built);
int pmn_tablebase_layer_stats(const pmn_tablebase *tb, unsigned seeds,
                              pmn_tablebase_layer *s);
/* 1 with *margin (the margin still to be made by p's side to move), or 0
 * when p has more seeds in play than the databases hold, or they only
 * bound its value. */
int pmn_tablebase_probe(const pmn_tablebase *tb, const pmn_position *p, int *margin);
/* The same as bounds, *low <= margin <= *high, equal where the value is
 * held.  Under rules whose repetition gives each side the seeds on its side
 * (Oware's), a position's value as a new game depends on where endless
 * play is cut off; the databases hold it where they could solve it, and
 * elsewhere bound it (by what each side forces with a strategy that needs
 * no memory of the path: tablebase.c says how). */
int pmn_tablebase_probe_bounds(const pmn_tablebase *tb, const pmn_position *p, int *low,
                               int *high);
/* Let s answer from tb (kept, not owned; NULL: none): the solver and the
 * depth search then take the value of every position tb holds, where that
 * is the game's (no position before it can come again), instead of
 * searching it; such a value is exact, with no plies counted (tablebase
 * set).  A change of databases clears s's tables.  Returns -1 if tb was
 * built under other rules than s's. */
int pmn_searcher_use_tablebase(pmn_searcher *s, const pmn_tablebase *tb);

/* Search p by iterative deepening (principal variation search with a
 * transposition table) within the limits, and fill *a.  history, if not
 * NULL, lists the positions of the game before p since its last capture,
 * oldest first, so that a repetition of one of them is seen.  Returns 0;
 * PMN_ERR_NOMEM if memory runs out. */
int pmn_analyse(pmn_searcher *s, const pmn_position *p, const pmn_position *history,
                size_t nhistory, const pmn_search_limits *l, pmn_progress_fn fn, void *ctx,
                pmn_analysis *a);

/* ---- diagnostics ------------------------------------------------------- */

/* Everything libpmn finds wrong (or worth saying) in a record is a numbered
 * diagnostic with a fixed severity, from one table (diag.c) that pmn(1)
 * documents.  They reach the caller through a callback, in reading order. */
typedef enum pmn_severity {
    PMN_NOTE = 0,
    PMN_WARNING,
    PMN_ERROR,
    PMN_FATAL
} pmn_severity;

/* Every diagnostic: X(letter, number, severity, what it means).  The codes
 * are stable: a number is never reused for another meaning.  Hundreds: 0 the
 * input as a whole, 1 reading the text, 2 replaying the moves, 3 XML
 * archives, 4 rules.  The letter is the severity's: F fatal, E error,
 * W warning, N note.  Code PMN_E201 is the number 201, and so on. */
#define PMN_DIAGNOSTICS(X) \
    X(F, 001, FATAL, "the input cannot be read") \
    X(F, 002, FATAL, "out of memory") \
    X(F, 003, FATAL, "the output cannot be written") \
    X(F, 004, FATAL, "the input is no text: a program, an image, an archive") \
    X(F, 005, FATAL, "an endgame database that cannot be used") \
    X(F, 006, FATAL, "an archive index that cannot be used: not one, newer, damaged") \
    X(F, 007, FATAL, "a build across processes that cannot start or go on") \
    X(E, 101, ERROR, "text that cannot be read") \
    X(E, 102, ERROR, "a comment '{' that is never closed") \
    X(E, 103, ERROR, "a '(' that is never closed") \
    X(E, 104, ERROR, "a ')' with no '(' to close") \
    X(E, 105, ERROR, "a malformed tag pair") \
    X(E, 106, ERROR, "a capture count, judgement, NAG or variation that follows no move") \
    X(E, 107, ERROR, "a result inside a variation") \
    X(E, 108, ERROR, "the Game tag names an unknown game") \
    X(E, 109, ERROR, "a malformed Rules tag") \
    X(E, 110, ERROR, "a letter that names no hole") \
    X(W, 111, WARNING, "a move number out of sequence") \
    X(W, 112, WARNING, "a game without moves") \
    X(E, 114, ERROR, "a malformed Position tag") \
    X(E, 115, ERROR, "variations nested too deep") \
    X(E, 116, ERROR, "a running total of captures that decreases") \
    X(N, 117, NOTE, "text outside games, skipped: said once a run of lines") \
    X(W, 118, WARNING, "moves that end without a result") \
    X(E, 119, ERROR, "moves in more than one notation") \
    X(W, 120, WARNING, "missing move numbers") \
    X(W, 121, WARNING, "a missing ';' between full moves") \
    X(W, 122, WARNING, "a ';' that ends no full move") \
    X(E, 123, ERROR, "more problems in one game than are shown") \
    X(E, 124, ERROR, "a game beyond pmn's limits: moves, variations or a comment's length") \
    X(E, 125, ERROR, "a number out of range: a capture count, NAG or move number") \
    X(N, 126, NOTE, "text as web pages print it, read as meant: spaces, quotes, dashes, marks") \
    X(N, 127, NOTE, "a heading read as the game's tags") \
    X(N, 128, NOTE, "text after the moves, kept as a comment") \
    X(W, 129, WARNING, "a capture count written without '+', read as one") \
    X(W, 130, WARNING, "a NUL byte in a tag value or comment, kept as U+FFFD") \
    X(N, 131, NOTE, "a fix made by convert --fix") \
    X(W, 132, WARNING, "what the output's format cannot hold, written as near as it can") \
    X(N, 133, NOTE, "the input's format, found from its name or its first tag and move") \
    X(N, 134, NOTE, "moves without a result under a page's heading: the replay gives it") \
    X(W, 135, WARNING, "an input with no game: empty, or text without moves") \
    X(W, 136, WARNING, "endgame databases that cannot be used: the search goes on without them") \
    X(N, 137, NOTE, "a game an archive index holds already: stored once") \
    X(E, 201, ERROR, "illegal move: the hole is empty") \
    X(E, 202, ERROR, "illegal move: a single seed while a hole holds two or more") \
    X(E, 203, ERROR, "illegal move: a single seed into an occupied hole") \
    X(E, 204, ERROR, "a hole of the side not to move") \
    X(E, 205, ERROR, "the capture written differs from the capture made") \
    X(W, 206, WARNING, "a capture the record does not write") \
    X(E, 207, ERROR, "a move after the end of the game") \
    X(E, 208, ERROR, "the Result tag contradicts how the game ended") \
    X(E, 209, ERROR, "the result closing the moves differs from the Result tag") \
    X(W, 210, WARNING, "the game ended, but no result is given") \
    X(N, 211, NOTE, "an endless move, with its proof") \
    X(N, 212, NOTE, "the game ended by a repeated position") \
    X(N, 213, NOTE, "the record stops before the game ends: its result is not proved") \
    X(E, 214, ERROR, "illegal move: the opponent has no seeds and the move gives him none") \
    X(N, 215, NOTE, "the start position is not known: the moves are not verified") \
    X(E, 216, ERROR, "illegal move: a grand slam, which the rules refuse") \
    X(E, 217, ERROR, "a sowing joined by '-' that was not earned") \
    X(W, 218, WARNING, "an earned sowing written as a move of its own, not joined by '-'") \
    X(W, 219, WARNING, "a move of a set-up game that is not best play (check --solve)") \
    X(N, 220, NOTE, "a dual: another move as good as the one played (check --solve)") \
    X(E, 221, ERROR, "the final score written differs from the seeds the game ended with") \
    X(E, 222, ERROR, "the hole written for the last seed differs from where it falls") \
    X(E, 223, ERROR, "the seeds written as sown differ from the seeds the hole held") \
    X(N, 224, NOTE, "a game check --solve does not solve, and why") \
    X(W, 225, WARNING, "a problem that names no game, its moves illegal in the game assumed") \
    X(W, 301, WARNING, "text that XML cannot hold, written as U+FFFD") \
    X(E, 302, ERROR, "malformed XML") \
    X(E, 303, ERROR, "a document type declaration (DTD), refused") \
    X(E, 304, ERROR, "not a pmn archive") \
    X(E, 305, ERROR, "an element with no place where it stands") \
    X(E, 306, ERROR, "an attribute or element value that is not valid") \
    X(E, 307, ERROR, "an archive that does not match the schema") \
    X(E, 401, ERROR, "a rule file that is not well-formed XML, or has a DTD") \
    X(E, 402, ERROR, "a rule file that does not match its schema (grammar/rules.rng)") \
    X(E, 403, ERROR, "a rule option whose value is out of range") \
    X(E, 404, ERROR, "rules the engine cannot play: mechanisms that do not go together") \
    X(E, 405, ERROR, "a --rules option that a game's own rules cannot take")

#define PMN_DIAG_ENUM_(letter, number, severity, summary) PMN_##letter##number = number,
typedef enum pmn_diag_code { PMN_DIAGNOSTICS(PMN_DIAG_ENUM_) } pmn_diag_code;
#undef PMN_DIAG_ENUM_

typedef struct pmn_diag {
    int code;                 /* e.g. 201 for E201 */
    pmn_severity severity;
    pmn_at line, col;         /* 1-based; col counts characters; 0 if none */
    char message[400];        /* control characters escaped: pmn_text_escape */
} pmn_diag;

typedef void (*pmn_diag_fn)(void *ctx, const pmn_diag *d);

typedef struct pmn_diag_info {
    int code;
    pmn_severity severity;
    const char *summary;      /* what the code means, in a few words */
} pmn_diag_info;

const pmn_diag_info *pmn_diag_table(size_t *n);
/* Fill *d with diagnostic `code`, the severity the table gives it, and a
 * message; for callers that report problems of their own in the same form. */
void pmn_diag_make(pmn_diag *d, pmn_diag_code code, pmn_at line, pmn_at col,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
const pmn_diag_info *pmn_diag_lookup(int code);
/* text made safe to print on a terminal, as diagnostics' messages are: a
 * control character (C0, DEL, C1) or a byte that is not UTF-8 is written as
 * \x1b or \u009b.  Returns the length needed. */
size_t pmn_text_escape(const char *text, char *buf, size_t size);
/* s as a whole number of at most `max`, digits only (no sign, no space),
 * into *v: 0; -1, *v untouched, if it is not one.  Every number pmn reads
 * from a user or a file's attribute goes through it. */
int pmn_parse_uint(const char *s, unsigned long max, unsigned long *v);
/* The one of names[0..n) that word is likely a slip for (at most two edits,
 * one for a short word; or a word it begins), or NULL: "did you mean". */
const char *pmn_did_you_mean(const char *word, const char *const *names, size_t n);
const char *pmn_severity_string(pmn_severity s);   /* "note", "warning", ... */
/* "E201", "W206", "N210", "F001": the code with its severity's letter. */
void pmn_diag_code_name(int code, char buf[8]);
/* A game's diagnostics d[0..n), in the order they were found (reading and
 * replaying find them in two passes), put in the order of their places in
 * the file -- those of no line (0) last, ties as found -- with each problem
 * said once: the same words at the same place (libxml2's validator repeats
 * itself), and the schema's E307 on a line where the archive reader said
 * more exactly what is wrong (E305, E306), are dropped.  Returns how many
 * are kept, at the front of d.  pmn check prints each game's so. */
size_t pmn_diags_in_file_order(pmn_diag *d, size_t n);

/* ---- rule files -------------------------------------------------------- */

/* A rule set as an XML file (grammar/rules.rng, namespace PMN_RULES_NS):
 * its name, a title and a description in several languages, and the
 * mechanisms it combines, each attribute a rule option.  The built-in sets
 * are such files, built into libpmn (and installed with pmn). */
#define PMN_RULES_NS "urn:x-pmn:rules:1"

typedef struct pmn_rule_file pmn_rule_file;

/* Read a rule file; problems are reported through fn (codes 401-404, with
 * the line) and give NULL.  No network access, no DTD. */
pmn_rule_file *pmn_rule_file_read(FILE *in, const char *name, pmn_diag_fn fn, void *ctx);
pmn_rule_file *pmn_rule_file_parse(const char *text, size_t len, const char *name,
                                   pmn_diag_fn fn, void *ctx);
void pmn_rule_file_free(pmn_rule_file *f);
const pmn_rules *pmn_rule_file_rules(const pmn_rule_file *f);
/* The title (description 0) or description (1) in `lang`, else in English,
 * else the first given; NULL if the file has none. */
const char *pmn_rule_file_text(const pmn_rule_file *f, int description, const char *lang);
/* "en fr": the languages of its texts.  Returns the length needed. */
size_t pmn_rule_file_languages(const pmn_rule_file *f, char *buf, size_t size);
/* The i-th built-in rule file (owned by libpmn, never freed), and its XML
 * text; NULL past the last. */
const pmn_rule_file *pmn_rule_file_builtin(size_t i);
/* The built-in rule file of that name (no alias), with its index if index is
 * not NULL; NULL if there is none. */
const pmn_rule_file *pmn_rule_file_builtin_named(const char *name, size_t *index);
const char *pmn_rule_file_builtin_xml(size_t i);
/* The RELAX NG schema of rule files, as built into libpmn. */
const char *pmn_rules_schema(void);

/* ---- records ----------------------------------------------------------- */

/* Set-ups and replays of records: see their sections below. */
typedef struct pmn_setup_options pmn_setup_options;
typedef struct pmn_replay pmn_replay;

/* A game record as written: nothing the engine computes is stored here, so
 * that what was read can be written back.  All strings are NUL-terminated,
 * owned by the record, and freed by pmn_record_free().  Its arrays (tags,
 * comments, variations, lead comments) grow geometrically with an implicit
 * capacity, the power of two at or above their count: a record that a
 * function adds to (pmn_annotate_record) must come from a reader of libpmn,
 * or hold arrays allocated that large.  Dropping elements from the end is
 * always safe. */
typedef struct pmn_tag {
    char *name, *value;
    pmn_at line, col;         /* of its '[' */
    pmn_at value_col;         /* of the first character of its value */
} pmn_tag;

typedef struct pmn_move pmn_move;

typedef struct pmn_line {
    pmn_move *moves;
    size_t nmoves, cap;
    char **lead;              /* comments before the first move */
    size_t nlead;
} pmn_line;

#define PMN_MAX_NAGS 8

struct pmn_move {
    char text[8];             /* the hole as written */
    pmn_notation notation;    /* the notation it is written in */
    int side, hole;           /* what it names (the side of a number is the
                                 side to move, by turns from the start) */
    int joined;               /* 1: written after '-', another sowing of the
                                 turn of the move before it */
    unsigned number;          /* move number written before it; 0: none */
    unsigned char number_dots;/* 1 for "N.", 3 for "N..." */
    int claim;                /* seeds the record says it captured; -1: none */
    char claim_style;         /* '+' for (+N), 'x' for (xN) */
    int claim_total;          /* the running total written, where claim was
                                 made from one (--running-totals); else -1 */
    char judgement[3];        /* "", "!", "?", "!!", "??", "!?", "?!" */
    unsigned nags[PMN_MAX_NAGS];
    unsigned nnags;
    char **comments;          /* comments after the move */
    size_t ncomments;
    pmn_line *variations;     /* alternatives to this move */
    size_t nvariations;
    int claim_sown;           /* seeds the record says it sowed (Awari); -1: none */
    int claim_end_side, claim_end;   /* where the record says its last seed
                                 fell (PlayStrategy, Mancala World); side -1:
                                 either; claim_end -1: not said, 99: no hole */
    pmn_at line, col;         /* where the move is written */
    pmn_at claim_line, claim_col;
    pmn_at claim_end_line, claim_end_col;
};

typedef struct pmn_record {
    pmn_tag *tags;
    size_t ntags;
    pmn_line main;
    char result[8];           /* the result token closing the movetext, or "" */
    pmn_at line, col;         /* where the game begins */
    pmn_at result_line, result_col;
} pmn_record;

void pmn_record_init(pmn_record *rec);
void pmn_record_free(pmn_record *rec);        /* frees what it holds */
/* The value of the first tag of that name, or NULL. */
const char *pmn_record_tag(const pmn_record *rec, const char *name);
const pmn_tag *pmn_record_find_tag(const pmn_record *rec, const char *name);
/* Some sites write after each move the seeds its player has captured so
 * far.  Turn such running totals into the seeds each move captured;
 * a total that decreases is reported (E116) and dropped. */
void pmn_record_totals_to_counts(pmn_record *rec, pmn_diag_fn fn, void *ctx);

/* ---- reading PMN ------------------------------------------------------- */

/* A reader takes games one at a time from a stream: memory is bounded by the
 * largest game, not by the file.  It reads the stream in blocks of 64 KiB
 * (fread), so a game typed at a terminal is read when its block fills or
 * the input ends. */
typedef struct pmn_reader pmn_reader;

pmn_reader *pmn_reader_new(FILE *f, pmn_diag_fn fn, void *ctx);
/* The options each game is set up with (pmn_setup_record): the rules decide
 * what numbers and coordinates name, the start who moves first.  o must
 * live as long as the reader; NULL: none. */
void pmn_reader_set_setup(pmn_reader *rd, const pmn_setup_options *o);
void pmn_reader_free(pmn_reader *rd);
/* Read the next game into *rec (which it initialises; the caller frees it
 * with pmn_record_free).  Returns 1 for a game, 0 at the end of the input,
 * -1 on a read error or lack of memory (reported as a fatal diagnostic).
 * Faults in the text are reported and the game is kept as far as it could
 * be understood. */
int pmn_reader_next(pmn_reader *rd, pmn_record *rec);
/* What a replay proves of a game, as the quick pass below gives it (and
 * pmn_replay_result() holds it for any game). */
typedef struct pmn_game_facts {
    unsigned moves;           /* main-line moves */
    pmn_ending ending;        /* how it ended on the board; PMN_END_NONE: not over */
    pmn_outcome outcome;      /* PMN_ONGOING unless it ended */
    uint32_t captured[2];     /* seeds each side captured */
} pmn_game_facts;

/* As pmn_reader_next, for a checker: a game that a quick pass over its text
 * proves clean -- a Hawalis game written as the sample games are, every move
 * legal and numbered, every capture written and exact, its end and its
 * results agreeing, nothing that pmn_setup_record or pmn_replay_new would
 * report -- is not parsed: 2 is returned, *rec is left empty, and *facts
 * holds what its replay proves (pmn_reader_game_text gives its tags).  Any
 * other game is read as pmn_reader_next reads it (1).  pmn check counts
 * games this way at several times the speed. */
int pmn_reader_next_checked(pmn_reader *rd, pmn_record *rec, pmn_game_facts *facts);
/* As pmn_reader_next_checked, for input read a second time: proved says
 * that the next game is one that pmn_reader_next_checked proved clean (2)
 * in the same text.  Such a game is read again for its plies alone
 * (pmn_reader_game_holes), not replayed: 2, with *facts left as they are.
 * Any other game, or one no longer of that shape, is read as
 * pmn_reader_next_checked reads it. */
int pmn_reader_next_again(pmn_reader *rd, pmn_record *rec, pmn_game_facts *facts, int proved);
/* The plies of the game pmn_reader_next_checked proved clean last (it
 * returned 2): their holes in *holes, ply i South's where i is even (the
 * game starts from Hawalis's opening, a sowing a ply), and their number;
 * 0 after any other game.  Valid until the next read. */
size_t pmn_reader_game_holes(const pmn_reader *rd, const unsigned char **holes);
/* Keep the keys of the positions of the games pmn_reader_next_checked
 * proves clean (pmn_reader_game_keys), which the quick pass then computes
 * as it plays (an index of positions needs no second replay).  Before any
 * read; 0, or PMN_ERR_NOMEM. */
int pmn_reader_keep_keys(pmn_reader *rd);
/* The keys (pmn_position_key, the side to move's) of the positions of the
 * game pmn_reader_next_checked proved clean last: its start, then the
 * position after each ply, in *keys, and their number (its plies + 1); 0
 * after any other game (one read again for its plies alone), or when
 * pmn_reader_keep_keys was not asked.  Valid until the next read. */
size_t pmn_reader_game_keys(const pmn_reader *rd, const uint64_t **keys);
/* The text of the game the reader returned last, as it is in the input:
 * from its first token (at line *line) to the next game's, blanks at its
 * end left out (a game proved clean: its whole text).  Valid until the next
 * read. */
void pmn_reader_game_text(const pmn_reader *rd, const char **text, size_t *len,
                          pmn_at *line);
/* Leave out, unread and unreported, the games of each piece of text
 * (whole games, as pmn_reader_next_text cuts them: one, or several without
 * tags between them) for which keep(ctx, text, len) says 0 -- a selection
 * by tags, which needs no game it rules out parsed.  NULL: none. */
void pmn_reader_set_filter(pmn_reader *rd, int (*keep)(void *ctx, const char *text, size_t len),
                           void *ctx);
/* The tags of a game whose text the parser has not read: of the game
 * pmn_reader_next_checked proved clean last (it returned 2), or, from inside
 * the filter above, of the piece it is asked about -- when each is of the
 * shape the quick pass takes, [Name "value"] alone on a line, no escape,
 * quote, brace or NUL in the value, and moves follow them: 1, with *tags
 * (*n of them, with their places; the reader's, valid until the next read)
 * as the parser would read them; 0 when they are in another shape (the
 * parser must read the game), -1 when memory runs out. */
int pmn_reader_game_tags(pmn_reader *rd, const pmn_tag **tags, size_t *n);
/* The line the reader has reached, for diagnostics about the stream. */
pmn_at pmn_reader_line(const pmn_reader *rd);
/* The stream begins after `lines` lines of its file (a part of it read
 * apart): the lines of diagnostics count from there.  Before any read. */
void pmn_reader_set_lines_before(pmn_reader *rd, pmn_at lines);
/* Instead of games, the text of the next games, unparsed: whole games (one,
 * or several without tags between them) cut where the reader cuts them, so
 * that reading the pieces apart gives the games reading the stream does.
 * *text (the reader's, valid until the next call) holds *len bytes that
 * begin at line *line of the stream (blank lines before it are left out).
 * Returns 1, 0 at the end, -1 on a read error or lack of memory (reported). */
int pmn_reader_next_text(pmn_reader *rd, const char **text, size_t *len, pmn_at *line);
/* A part of the input for a thread of its own to read (pmn check --jobs):
 * the pieces of pmn_reader_next_text, into (*buf)[0..*len) (grown with
 * realloc, *cap its size; both may start 0 and NULL) while *len is under
 * `size`, with the blank lines the reader leaves out between them put
 * back, so that the part's lines are the input's from *first_line on (a
 * reader of it told pmn_reader_set_lines_before(*first_line - 1)).
 * Returns 1 when input may follow, 0 at its end (*len > 0: the last
 * part), -1 on a read error or lack of memory (reported, F002 for
 * memory). */
int pmn_reader_next_part(pmn_reader *rd, size_t size, char **buf, size_t *cap, size_t *len,
                         pmn_at *first_line);

/* ---- writing PMN ------------------------------------------------------- */

typedef struct pmn_write_options {
    pmn_notation notation;    /* of the moves written */
    char capture_style;       /* '+' for (+N), 'x' for (xN) */
    const char *result;       /* NULL: the record's own; else this result */
    unsigned width;           /* lines are wrapped before this column */
} pmn_write_options;

void pmn_write_options_init(pmn_write_options *o);   /* letters, '+', 80 */

/* Write a record as canonical PMN: the tag roster (Event, Site, Date, Round,
 * South, North, Result, "?" where missing) then Game, Rules, SetUp and
 * Position, then every other tag in the order read; a blank line; the
 * movetext with computed move numbers, ';' between full moves, the plies of
 * a move joined by '-', comments in braces, wrapped at o->width; the result.
 * Holes are named under the rules of the replay, and each move's side and
 * number come from it; replay NULL: rec is set up from its own tags and
 * replayed silently.  Writing what pmn_reader reads from this output gives
 * the same bytes.  Returns 0, or -1 on a write error. */
int pmn_write_record(FILE *out, const pmn_record *rec, const pmn_replay *replay,
                     const pmn_write_options *o);

/* ---- other programs' notations ----------------------------------------- */

/* Games in the notations of other programs and pages, PGN-like all four:
 *   OGN (Aualé)           [Variant "Oware Abapa"] [FEN "4-...-0-0-S"]
 *                         1. D d+2 ... 25-20: South's houses A-F, North's
 *                         a-f (the other case from PMN's), +N a capture, the
 *                         final score as the result
 *   PlayStrategy's PGN    [P1 ..] [P2 ..] [Variant "Oware"] 1. d1e2 c2a1:
 *                         the square sown and the square of its last seed,
 *                         a1-f1 South's row, a2-f2 North's, from South's left
 *   Mancala World         1. 64 64 2. 53 (20): the mover's hole and the hole
 *                         of the last seed, 1-6 from each owner's left; the
 *                         mover's running total of captures in parentheses
 *   Awari notation        1. D4 d5 x 2: as OGN, with the seeds sown; x N a
 *                         capture
 * read as records: Variant is the Game tag ("Oware Abapa": Oware), FEN the
 * SetUp and Position tags (in pmn's form where the rules are known), P1
 * and P2 South and North, a score result the result it gives with the score
 * kept in a Score tag; games without rules of their own are Oware's
 * (Mancala World) or Awale's (Awari).  Each move keeps its text as written,
 * with what it claims (capture, last seed's hole, seeds sown) for the
 * replay to check.  One game in memory at a time, as pmn_reader. */
typedef enum pmn_format {
    PMN_FORMAT_OGN, PMN_FORMAT_PLAYSTRATEGY, PMN_FORMAT_MANCALA_WORLD, PMN_FORMAT_AWARI,
    PMN_FORMAT_COUNT          /* how many there are: each has a descriptor of its own
                                 (src/lib/format_NAME.c), whence these: */
} pmn_format;
const char *pmn_format_name(pmn_format f);    /* "ogn", "playstrategy", ... */
const char *pmn_format_title(pmn_format f);   /* in words, for messages */
const char *pmn_format_extension(pmn_format f);   /* ".ogn", or NULL: none says it */
int pmn_format_from_name(const char *name, pmn_format *f);   /* 0, or -1 */
/* Which format a file's first bytes are in: 1 (and *f) for one of these,
 * 0 for PMN or anything else.  By its first tags and first move. */
int pmn_format_sniff(const char *text, size_t len, pmn_format *f);
typedef struct pmn_format_reader pmn_format_reader;
pmn_format_reader *pmn_format_reader_new(FILE *f, pmn_format format, pmn_diag_fn fn,
                                         void *ctx);
/* As pmn_reader_set_setup: the rules name the squares and numbers. */
void pmn_format_reader_set_setup(pmn_format_reader *rd, const pmn_setup_options *o);
/* As pmn_reader_next: 1 a game, 0 the end, -1 a read error or no memory. */
int pmn_format_reader_next(pmn_format_reader *rd, pmn_record *rec);
void pmn_format_reader_free(pmn_format_reader *rd);
/* Write rec in a format, as its replay numbers and names its moves: the
 * tags (the roster, in the format's names; OGN's Result the final score
 * where the board ended the game and the rules count seeds; FEN for a
 * set-up start in OGN and PlayStrategy), the moves with numbers, what the
 * format writes of each (from the replay: the last seed's hole, totals,
 * seeds sown), judgements and NAGs, comments and variations.  What the
 * format cannot hold is said (W132), once a game.  0, or -1 on a write
 * error. */
int pmn_write_format(FILE *out, pmn_format format, const pmn_record *rec,
                     const pmn_replay *replay, pmn_diag_fn fn, void *ctx);

/* ---- XML archives ------------------------------------------------------ */

/* The archive format is grammar/pmn.rng (RELAX NG), namespace PMN_XML_NS.
 * Both directions stream: one game is in memory at a time. */
#define PMN_XML_NS "urn:x-pmn:archive:1"

typedef struct pmn_xml_writer pmn_xml_writer;

/* Start an archive on out.  NULL when memory runs out. */
pmn_xml_writer *pmn_xml_writer_new(FILE *out);
/* Write rec with what its replay computed marked apart from what the record
 * claimed (replay NULL: rec is set up from its tags and replayed silently).
 * Text that XML cannot hold is reported through fn (W301).  Returns 0, or
 * -1 on a write error, with errno saying why. */
int pmn_xml_write_game(pmn_xml_writer *w, const pmn_record *rec, const pmn_replay *replay,
                       pmn_diag_fn fn, void *ctx);
/* End the archive and free the writer; -1 if anything failed to write
 * (errno: why the first write failed). */
int pmn_xml_writer_close(pmn_xml_writer *w);
/* A writer of games alone, as they stand in an archive, for a part of the
 * input written apart (by another thread): each game reaches out whole
 * when pmn_xml_write_game returns.  pmn_xml_writer_close frees it without
 * touching out (which may be closed by then). */
pmn_xml_writer *pmn_xml_writer_new_part(FILE *out);
/* Add to the archive of w the games a part's writer wrote (text[0..len)),
 * in order.  Returns 0, or -1 on a write error. */
int pmn_xml_writer_add_part(pmn_xml_writer *w, const char *text, size_t len);

typedef struct pmn_xml_reader pmn_xml_reader;

/* Read an archive from in (`name` is for messages).  With validate, each
 * game is checked against the RELAX NG schema, which is built into libpmn.
 * No network access, no DTD, no entities: such input is refused. */
pmn_xml_reader *pmn_xml_reader_new(FILE *in, const char *name, int validate,
                                   pmn_diag_fn fn, void *ctx);
/* As pmn_reader_next: 1 a game, 0 the end, -1 the archive cannot be read
 * on (reported). */
int pmn_xml_reader_next(pmn_xml_reader *r, pmn_record *rec);
void pmn_xml_reader_free(pmn_xml_reader *r);

/* The RELAX NG schema of the archives, as built into libpmn. */
const char *pmn_xml_schema(void);

/* ---- any input --------------------------------------------------------- */

/* The games of an input in any format pmn reads -- PMN, an XML archive,
 * one of pmn_format's notations -- found from its name and first bytes
 * unless the caller says which, as pmn check finds it.  What an input is
 * read as: */
enum {
    PMN_SOURCE_AUTO = -1,     /* to be found: pmn_source_detect */
    PMN_SOURCE_PMN,
    PMN_SOURCE_XML,
    PMN_SOURCE_FOREIGN        /* + a pmn_format: that notation */
};
/* By the name's end alone (".ogn": PMN_SOURCE_FOREIGN + PMN_FORMAT_OGN;
 * name may be NULL): a notation, or PMN_SOURCE_AUTO when it says none. */
int pmn_source_format_of_name(const char *name);
/* By the name, then the first bytes: '<' an XML archive; tags and a first
 * move in a notation (pmn_format_sniff, where f is seekable or goes back to
 * its start, as pmn_text_input's over a pipe does, and f is left where it
 * was); else PMN.  *by_name (may be NULL): the name said it. */
int pmn_source_detect(FILE *f, const char *name, int *by_name);

typedef struct pmn_source_options {
    int format;               /* PMN_SOURCE_*; AUTO: detected, and where it is
                                 another program's notation, said (N133) */
    const char *name;         /* the input's, for detection and messages; NULL: none */
    const pmn_setup_options *setup;   /* how games are set up (pmn_reader_set_setup);
                                         NULL: none; must outlive the source */
    pmn_at lines_before;      /* PMN: the stream is a part of its file, after so
                                 many lines (pmn_reader_set_lines_before) */
    int validate;             /* XML: each game against the schema */
    pmn_diag_fn note;         /* where what is said of the input as a whole (N133)
                                 goes, apart from its games'; NULL: fn */
    void *note_ctx;
} pmn_source_options;

typedef struct pmn_source pmn_source;
/* Games from f (o NULL: found, no setup), diagnostics through fn.  NULL
 * when memory runs out. */
pmn_source *pmn_source_new(FILE *f, const pmn_source_options *o, pmn_diag_fn fn, void *ctx);
/* What it reads f as: PMN_SOURCE_PMN, _XML, or _FOREIGN + the notation. */
int pmn_source_format(const pmn_source *src);
/* The PMN reader under it (for pmn_reader_next_checked and the like), or
 * NULL when it reads another format. */
pmn_reader *pmn_source_pmn(pmn_source *src);
/* As pmn_reader_next: 1 a game, 0 the end, -1 a read error or no memory. */
int pmn_source_next(pmn_source *src, pmn_record *rec);
void pmn_source_free(pmn_source *src);

/* ---- setting a record up --------------------------------------------- */

/* Words, used the same way in the API, the options and the man pages:
 *   a ply is one sowing: one hole lifted, and the laps that follow;
 *   a move is all that one player does in his turn: a ply, and the plies
 *   joined to it with '-' when a sowing earns another;
 *   a turn is a move, or a pass of a player who cannot move;
 *   a move number counts full moves, South's turn and North's: the turns
 *   0, 1, 2, ... from the start have numbers 1, 1, 2, ... when South starts.
 *
 * One function sets every record up, for every reader, writer and command:
 * its rules, and where its moves begin.  The rules are, in this order:
 *   1. Hawalis, the default;
 *   2. o->rules, if given (a rule file, say), which replaces what the
 *      record's tags name; else the record's Game tag, then its Rules tag;
 *   3. each of o->specs in turn (the --rules options of pmn).
 * The start is the record's Position tag; else the position o gives for
 * the record's Event, or for every game; else the opening position. */
struct pmn_setup_options {
    const pmn_rules *rules;        /* NULL, or rules that replace the tags' */
    const char *const *specs;      /* rule specifications applied over them */
    size_t nspecs;
    const char *position;          /* NULL, or the start of every game whose
                                      record gives none (a problem's diagram) */
    const char *const *positions;  /* "EVENT=POSITION" each: the start of the game
                                      whose Event tag is EVENT (in any case) and
                                      whose record gives none, before position:
                                      the problems of one page, "Problem 2" */
    size_t npositions;
};

typedef enum pmn_setup_status {
    PMN_SETUP_READY = 0,           /* the moves can be replayed */
    PMN_SETUP_UNKNOWN_RULES,       /* the tags name no rules pmn knows (E108, E109,
                                      E405): rules hold Hawalis, to write the record */
    PMN_SETUP_BAD_START,           /* the Position tag is malformed (E114) */
    PMN_SETUP_NO_START             /* a set-up position the record does not give (N215) */
} pmn_setup_status;

typedef struct pmn_setup {
    pmn_setup_status status;
    pmn_rules rules;
    pmn_position start;            /* the opening position where it is not known */
    int given;                     /* 1: start is a position the options gave */
    int assumed;                   /* 1: no tag nor option named the rules: the
                                      default game's (Hawalis) are assumed */
} pmn_setup;

/* Set rec up (o may be NULL) and report what is wrong through fn.  Returns
 * s->status: 0 when the moves can be replayed. */
int pmn_setup_record(const pmn_record *rec, const pmn_setup_options *o, pmn_setup *s,
                     pmn_diag_fn fn, void *ctx);

/* Text input as pmn reads it: a stream of UTF-8 over f (which it closes
 * when own), whatever f holds -- UTF-16 with or without a byte-order mark
 * is decoded, bytes that are not UTF-8 are read as Windows-1252 (Latin-1),
 * each said once through fn (N133) when the stream is closed, however far
 * ahead it was read; XML passes as it is, for libxml2 to
 * decode by its declaration.  It tells where it is (ftell) and goes back to
 * its start (fseek 0), where f can; over a pipe, it tells no place but goes
 * back to its start while only its first 64 KiB were read (so that a
 * format is found from a pipe's text as from a file's).  NULL when out of
 * memory. */
FILE *pmn_text_input(FILE *f, int own, pmn_diag_fn fn, void *ctx);

/* A Score tag against the seeds the game ended with: E221 (through fn)
 * and 1 when they differ; where they agree, drop: the tag is dropped, the
 * replay proving it (what pmn convert writes).  0 also where the replay
 * proves no score. */
int pmn_record_check_score(pmn_record *rec, const pmn_replay *replay, int drop, pmn_diag_fn fn,
                           void *ctx);

/* The Game, Rules and Position tags a writer writes for rec set up as s:
 * the record's own where they say what s says (0), else (1) a Game tag
 * that names s's rule set, the options over it in rules ("" for none),
 * so that the record read back is set up as s -- as when --rules gave
 * them over the record's own.  position: the Position tag's text, in pmn's
 * own form where it was in pmn's form ("" where there is none). */
int pmn_setup_tags(const pmn_record *rec, const pmn_setup *s, char *game, size_t gsize,
                   char *rules, size_t rsize, char *position, size_t psize);

/* The move number of a turn (counted from 0) when start_side moves first. */
unsigned pmn_move_number(int start_side, unsigned turn);

/* ---- replays ----------------------------------------------------------- */

/* A record replayed once against the engine, and kept as data: beside each
 * move of the record (main line and variations) what the replay found, for
 * every command to read (check, replay, convert, export, ...).  A replay
 * walks the same tree as the record: line->moves[i] is about the record's
 * line.moves[i], and its variations[v] about that move's variations[v]. */
typedef struct pmn_played pmn_played;

typedef struct pmn_played_line {
    pmn_played *moves;
    size_t nmoves;
} pmn_played_line;

struct pmn_played {
    int replayed;             /* 1: the engine played it; report and after are its */
    int mover;                /* whose turn it is: the engine's; else by turns */
    int side;                 /* whose hole it names: as written, but for numbers,
                                 which name the mover's */
    unsigned ply;             /* plies (sowings) before it since the start */
    unsigned turn;            /* turns before its move since the start */
    unsigned number;          /* its move number */
    int continues;            /* 1: another ply of the move before it */
    pmn_move_report report;
    pmn_position after;       /* the position after it */
    pmn_played_line *variations;   /* one for each variation of the move */
    size_t nvariations;
};

/* Does a writer write the move number of pl (the replay's, pl->number)
 * before it, so that a reader counts the moves as the replay does: before
 * South's, after a comment or variation (interrupted), where the same side
 * moves again or the number is not the one of the move before (before:
 * NULL at a line's start).  A sowing that continues a turn takes none in
 * PMN, which joins it with '-' (joins), and its turn's number again in
 * the notations that have no '-', whose readers join them so. */
int pmn_move_numbered(const pmn_played *pl, const pmn_played *before, int interrupted,
                      int joins);

/* ---- walking a record -------------------------------------------------- */

/* One walk over a record and its replay, for every writer (PMN, XML, the
 * other programs' notations, the HTML page): the walker visits the lines
 * and moves in order, numbers them, follows the position the replay
 * reached, and calls the visitor's functions, each of which returns
 * PMN_WALK_CONTINUE, PMN_WALK_PRUNE (skip what is below: a line's moves,
 * a move's variations) or PMN_WALK_ABORT (stop the walk).  A writer is a
 * set of such functions; it never walks the trees nor sets a game up. */
enum { PMN_WALK_CONTINUE = 0, PMN_WALK_PRUNE = 1, PMN_WALK_ABORT = 2 };

typedef struct pmn_walk_line {
    const pmn_line *line;
    const pmn_played_line *played;
    unsigned depth;            /* 0: the main line; a variation: its move's + 1 */
    long index;                /* the lines begun before it */
    long first;                /* the index its first move has */
    long parent;               /* the index of the move it is an alternative to;
                                  -1: the main line */
    long parent_mark;          /* that move's mark (0 for the main line) */
} pmn_walk_line;

typedef struct pmn_walk_node {
    const pmn_move *move;
    const pmn_played *played;  /* what the replay made of it */
    const pmn_played *prior;   /* the ply before it in its line; NULL: the first */
    const pmn_played *next;    /* the ply after it in its line; NULL: the last */
    const pmn_position *before;   /* the position it is played from, where the
                                  replay played every move of its path up to it;
                                  else NULL */
    const pmn_walk_line *in;   /* its line */
    long index;                /* the moves visited before it */
    long first_variation;      /* breadth order, a move with variations: the
                                  index of its first variation's line (the
                                  others follow it); else -1 */
    int numbered;              /* a writer writes its number (played->number)
                                  before it (pmn_move_numbered) */
    long mark;                 /* the visitor's own, 0 until visit_move sets it:
                                  the lines of its variations carry it */
} pmn_walk_node;

typedef struct pmn_walker {
    /* Before anything else: the record, and the replay the walk follows
     * (the caller's, or one the walker made). */
    int (*visit_game)(void *ctx, const pmn_record *rec, const pmn_replay *replay);
    /* A line, before its moves (its lead comments are the visitor's to
     * write); PRUNE: its moves are skipped, leave_line still called. */
    int (*visit_line)(void *ctx, const pmn_walk_line *l);
    /* A move, before its variations; PRUNE: its variations are skipped. */
    int (*visit_move)(void *ctx, pmn_walk_node *n);
    /* A move, after its variations (breadth order: at once after visit_move). */
    int (*leave_move)(void *ctx, const pmn_walk_node *n);
    int (*leave_line)(void *ctx, const pmn_walk_line *l);
    /* After everything. */
    int (*leave_game)(void *ctx, const pmn_record *rec, const pmn_replay *replay);
    int joins;                 /* the notation joins the sowings of a turn with
                                  '-' (PMN): numbered as pmn_move_numbered says */
    int breadth;               /* lines one after another (the main line, then
                                  each variation in the order its move is met),
                                  not each variation inside its move */
    int turn_after;            /* depth order: the variations of a turn's first
                                  sowing, alternatives to the whole turn, walked
                                  after its last sowing (before its leave_move),
                                  as PMN's text writes them and its reader puts
                                  them back; else inside their move (XML) */
} pmn_walker;

/* Walk rec and its replay (NULL: the record replayed as its tags set it
 * up, as pmn_setup_record and pmn_replay_new would) with the visitor w;
 * any of its functions may be NULL.  Returns 0, PMN_WALK_ABORT where a
 * function aborted, or -1 when memory runs out. */
int pmn_walk(const pmn_record *rec, const pmn_replay *replay, const pmn_walker *w, void *ctx);

typedef struct pmn_check_result {
    pmn_position start;       /* where the replay began */
    pmn_setup_status setup;   /* not READY: nothing was replayed */
    unsigned plies;           /* main-line plies replayed */
    unsigned moves;           /* main-line moves replayed (fully or in part) */
    unsigned written;         /* main-line moves the record writes */
    int stopped;              /* 1: the main line was not replayed to its end */
    unsigned unchecked;       /* main-line plies left after the one that stopped it */
    pmn_ending ending;        /* how the game ended on the board */
    pmn_outcome outcome;
    pmn_move_report last;     /* the report of the last ply replayed */
    pmn_position end;         /* the position after it */
    uint32_t captured[2];
    int errors;               /* errors found (0: the record is valid) */
} pmn_check_result;

/* Replay rec (main line and variations) from s, reporting every problem
 * through fn, in reading order.  NULL when memory runs out (reported as
 * F002).  Where s is not READY, nothing is replayed, but the moves are
 * still numbered and their sides taken as written. */
pmn_replay *pmn_replay_new(const pmn_record *rec, const pmn_setup *s, pmn_diag_fn fn,
                           void *ctx);
void pmn_replay_free(pmn_replay *r);
/* Make the fixes of rec that the replay from s proves (convert --fix), each
 * said through fn as N131: a letter of the wrong case whose other case
 * the engine plays, capturing what the record says, so that the replay goes
 * further; in a record that writes captures, those of the main line it
 * leaves out; where the game ended on the board, the result it proves.
 * Returns the number of fixes, or PMN_ERR_NOMEM. */
int pmn_record_fix(pmn_record *rec, const pmn_setup *s, pmn_diag_fn fn, void *ctx);
/* The setup the replay started from. */
const pmn_setup *pmn_replay_setup(const pmn_replay *r);
const pmn_played_line *pmn_replay_main(const pmn_replay *r);
const pmn_check_result *pmn_replay_result(const pmn_replay *r);
/* Did the main line replay to its last ply? */
int pmn_replay_complete(const pmn_replay *r);

/* Set rec up and replay it, keeping only the result: the number of errors
 * (negative: out of memory, reported). */
int pmn_check_record(const pmn_record *rec, const pmn_setup_options *o, pmn_diag_fn fn,
                     void *ctx, pmn_check_result *res);

/* ---- annotating ------------------------------------------------------- */

/* What an engine value is worth: the expected score (win 1, draw 1/2,
 * loss 0) of the side to move, a logistic curve in the estimate v (seeds)
 * flattened by the seeds in play n,  E = 1 / (1 + exp(-k v / n^p)),
 * fitted per rule set from self-play (pmn selfplay --fit). */
typedef struct pmn_model {
    const char *game;         /* the rule set it was fitted on */
    double k, p;
    unsigned long samples;    /* positions it was fitted on */
    double log_loss;          /* its mean log-loss over them */
    double base_loss;         /* that of the best constant (the mean score) */
} pmn_model;

typedef struct pmn_model_sample {
    double value;             /* the engine's estimate, side to move's view */
    unsigned in_play;         /* seeds on the board */
    double score;             /* what the side to move scored: 1, 1/2 or 0 */
} pmn_model_sample;

/* The model of r's game (built in: that of the game r is a variant of). */
const pmn_model *pmn_model_for(const pmn_rules *r);
/* The side to move's expected score: 1, 1/2, 0 where v is exact. */
double pmn_expected_score(const pmn_model *m, const pmn_value *v, unsigned in_play);
double pmn_model_expected(const pmn_model *m, double v, unsigned in_play);
/* The value a comment holds as "[%eval TEXT]" (pmn_value_eval's form)
 * into eval: 1, or 0 if it holds none. */
int pmn_comment_eval(const char *comment, char *eval, size_t size);
/* South's expected score of such a value with in_play seeds on the board:
 * 0, or -1 if the text is not a value. */
int pmn_eval_expected(const pmn_model *m, const char *eval, unsigned in_play, double *south);
/* Fit m->k and m->p (and the figures of the fit) to n samples, by maximum
 * likelihood; x is scratch room for n doubles.  -1 if n is 0. */
int pmn_model_fit(const pmn_model_sample *s, size_t n, double *x, pmn_model *m);

/* A player's choice among the moves of an analysis (all_moves): each
 * move's worth in seeds (a decided result outweighs any count of seeds),
 * and the one played.  pmn_choice_of returns its index, -1 if it is not
 * among them. */
typedef struct pmn_choice {
    double worth[PMN_MAX_SIDE_PITS];
    int nmoves, played;
} pmn_choice;
int pmn_choice_of(const pmn_analysis *a, int hole, pmn_choice *c);
/* The temperature t (seeds) under which choosing each move with odds
 * exp(worth / t) makes the n choices most likely: how much a player errs,
 * as the engine sees it.  *ll: their log-likelihood at t; *uniform: at a
 * choice at random. */
double pmn_temperature_fit(const pmn_choice *c, size_t n, double *ll, double *uniform);

/* Self-play: a game of r from the opening, the engine against itself. */
typedef struct pmn_selfplay_options {
    pmn_search_limits limits;   /* of each move's search: the stated strength */
    unsigned random_plies;      /* the first plies played at random (for variety) */
    uint64_t seed;              /* of those: the same games for the same seed */
    unsigned max_plies;         /* a longer game is left unfinished ("*"); 0: 2000 */
    double temperature;         /* 0: the best move; else each move drawn with odds
                                   exp(value / temperature), value in seeds */
} pmn_selfplay_options;

/* Play game number `game` (from 0) of the series o->seed makes into rec
 * (initialised here; its tags Event, Site, Date, Round, South, North,
 * Result and RandomPlies, each searched move's value in a comment
 * "[%eval +2]"; Game and Rules are the writer's, from the setup it is
 * written with).  samples (NULL, or room for cap) receives each searched
 * position whose value was not exact, scored by the result; *nsamples
 * their number (0 for an unfinished game).  0, or PMN_ERR_NOMEM. */
int pmn_selfplay(pmn_searcher *s, const pmn_rules *r, const pmn_selfplay_options *o,
                 unsigned long game, pmn_record *rec, pmn_model_sample *samples, size_t cap,
                 size_t *nsamples);

typedef struct pmn_annotate_options {
    pmn_search_limits limits;   /* of each position's search */
    double game_seconds;        /* > 0: a budget for the whole game, each position
                                   given what is left over the plies left (and
                                   limits.seconds ignored) */
    double threshold;           /* the drop of expected score that makes a '?!'
                                   (twice: '?', three times: '??'); 0: 0.05 */
    unsigned opening;           /* plies whose marks may not rest on estimates */
    uint64_t proof_nodes;       /* exact first: positions the margin solver may
                                   spend on one thread to prove a position's
                                   every move before the search judges it by
                                   estimates (where the rules have one, and
                                   limits.solve is not set); 0: no proof */
    const char *annotator;      /* the Annotator tag's value */
    pmn_notation notation;      /* of the moves named in comments */
    /* NULL, or called before each position's search: plies done of the
     * game's, and the seconds spent on it so far. */
    void (*progress)(void *ctx, size_t done, size_t plies, double seconds);
    void *progress_ctx;
} pmn_annotate_options;

typedef enum pmn_mark {
    PMN_MARK_NONE = 0,
    PMN_MARK_ONLY,              /* '!': the only move that keeps an exact result */
    PMN_MARK_INACCURACY,        /* '?!' */
    PMN_MARK_MISTAKE,           /* '?' */
    PMN_MARK_BLUNDER            /* '??' */
} pmn_mark;

/* "!", "?!", "?", "??"; "" for none. */
const char *pmn_mark_symbol(pmn_mark m);

/* What the engine found of one ply of the main line. */
typedef struct pmn_annotated_ply {
    size_t ply;                 /* its index in the main line */
    int mover, hole;            /* who played, and where */
    int best;                   /* the engine's best hole */
    pmn_value played, best_value;   /* of the move played and the best, mover's view */
    char eval[32];              /* the value after the move, South's view, as
                                   pmn_value_eval writes it */
    double expected_best, expected_played;  /* the mover's expected score */
    double loss;                /* the drop judged: expected_best - expected_played,
                                   the smaller of the last two depths searched */
    int seeds_lost;             /* best_value's margin less played's (>= 0) */
    pmn_mark mark;
    double accuracy;            /* of the move, percent (see pmn_annotate_record) */
    pmn_position before;        /* the position the move was played in */
    int pv[PMN_MAX_PV];         /* the engine's line from it */
    unsigned npv;
    unsigned depth;             /* the last look-ahead completed */
} pmn_annotated_ply;

typedef struct pmn_annotation_side {
    unsigned moves;             /* turns, as pmn check counts them */
    unsigned inaccuracies, mistakes, blunders;   /* of the sowings judged */
    double average_loss;        /* seeds lost against the best, a move */
    double accuracy;            /* percent: the mean of the sowings' */
    unsigned sowings;           /* judged: a turn's every sowing (Kalah's
                                   second sowings, Anywoli's) */
} pmn_annotation_side;

typedef struct pmn_annotation {
    pmn_annotated_ply *plies;   /* the main line's, as far as it replays */
    size_t nplies;
    pmn_annotation_side side[2];
    long decided;               /* the ply after which the game was decided, exactly
                                   (-1: before the first; -2: not known) */
    int winner;                 /* of the decided game */
    pmn_value decided_value;    /* its value then, the winner's view */
    const pmn_model *model;     /* the expected-score model used */
} pmn_annotation;

void pmn_annotation_free(pmn_annotation *a);

/* Annotate rec, set up as setup says, with the engine: each move of the main
 * line (as far as it replays) judged by how much it lowers its mover's
 * expected score (pmn_model_for the rules): '?!', '?', '??' at a drop of
 * threshold, twice and three times that (the smaller drop of the last two
 * depths searched, so that a mark does not hang on one depth), but for
 * the first o->opening plies, which estimates do not judge (as annotators
 * of chess leave the moves of the opening book alone); where both
 * values are exact, by the result alone: a win thrown to a draw, or a draw
 * to a loss, '?', a win to a loss '??', and a move that keeps the result is
 * never marked; '!' for the only move that keeps an exact result.  Each
 * move gets a comment "[%eval +2]" (pmn_value_eval: the value it leaves,
 * South's view); a judged one the sentence ("Mistake: l was best.") and a
 * variation with the engine's line (its lead comment "engine line"); the
 * move after which the game was decided, where values are exact, "from
 * here South wins ..."; the last move a summary per side ("pmn summary:
 * South, 55 moves: 2 inaccuracies, 1 mistake, 0 blunders, average loss 0.8
 * seeds, accuracy 91%"), where a move's accuracy is Lichess's formula,
 * 103.1668 exp(-0.04354 d) - 3.1669 (0 to 100), d the drop in percent of
 * expected score, and a side's the mean of its moves'.  And the Annotator
 * tag.  Judgements, comments and variations the record already has are
 * kept (where the record judged a move itself, the sentence begins
 * "engine: "), but those of an earlier run of pmn (Annotator "pmn ...")
 * are replaced.  out (NULL, or freed with pmn_annotation_free) receives
 * what was found.  Returns 0; PMN_ERR_NOMEM if memory runs out. */
int pmn_annotate_record(pmn_record *rec, const pmn_setup *setup, pmn_searcher *s,
                        const pmn_annotate_options *o, pmn_annotation *out);

/* A problem's solution (the main line of a game set up from a position)
 * against the engine's exact values of every move (pmn check --solve):
 * a move that is not best play is said (W219, with the best move and both
 * values), and so is a dual, another move as good as one of the side that
 * wins (N220).  rec and its replay as pmn_replay_new made them; s is a
 * searcher of the game's rules (with the databases it should read, if
 * any), whose table it uses; each position is solved with the positions
 * since the last capture as its history, within `nodes` positions (0: no
 * limit).  Returns 0; the number of the ply (from 1) whose position the
 * budget did not solve, the moves from it on not judged; or
 * PMN_ERR_NOMEM. */
int pmn_problem_check(const pmn_record *rec, const pmn_replay *replay, pmn_searcher *s,
                      uint64_t nodes, pmn_diag_fn fn, void *ctx);

/* ---- checking: pmn check in one call ---------------------------------- */

/* Each game of an input, in any format (pmn_source), set up, replayed,
 * its claimed score checked (E221) and, with `solve`, a problem's solution
 * held to the engine (W219, N220): handed over with its record, replay,
 * facts, tags and diagnostics in file order, each problem once -- what
 * pmn check says of it, for a program that embeds libpmn to say too. */
typedef struct pmn_check_options {
    pmn_source_options source;   /* the input and how its games are set up */
    int quick;                /* PMN: games the quick pass proves clean come without
                                 their record and replay (pmn_reader_next_checked),
                                 several times faster */
    int proved_tags;          /* with quick: such games come with their tags, read
                                 from their text (pmn_reader_game_tags); else without */
    int running_totals;       /* counts after moves are running totals
                                 (pmn_record_totals_to_counts) */
    int solve;                /* problems (a Position tag) against the engine */
    const char *tablebases;   /* with solve: the endgame databases' directory, read
                                 where it has those of a game's rules; NULL: none */
} pmn_check_options;

typedef struct pmn_checked_game {
    unsigned long number;     /* in its input, from 1 */
    int proved;               /* the quick pass proved it clean: rec is empty and
                                 replay NULL, facts and tags hold what it is */
    pmn_record rec;
    pmn_replay *replay;       /* NULL when proved, or when memory ran out (F002) */
    pmn_game_facts facts;     /* what the replay proves */
    const pmn_tag *tags;      /* the record's, or the reader's (proved, with
                                 proved_tags; else none); ntags of them */
    size_t ntags;
    const pmn_diag *diags;    /* in file order, each problem once; the checker's */
    size_t ndiags;
    unsigned count[PMN_FATAL + 1];   /* of diags, by severity */
} pmn_checked_game;

typedef struct pmn_checker pmn_checker;
/* A checker of f (o NULL: found, no setup, no quick pass).  Diagnostics of
 * the input as a whole -- N133 as it is opened, a read error at its end --
 * go to fn; a game's come with it.  NULL when memory runs out. */
pmn_checker *pmn_checker_new(FILE *f, const pmn_check_options *o, pmn_diag_fn fn, void *ctx);
/* The next game into *g: 1, or 0 at the end of the input, -1 on a read
 * error or lack of memory (said through fn).  What *g points to is valid
 * until the next call; free g with pmn_checked_game_free. */
int pmn_checker_next(pmn_checker *c, pmn_checked_game *g);
/* Read the next game without checking it (by the quick pass where quick
 * allows), its problems unsaid but for fatal ones (to fn): a selection by
 * number.  1, 0 or -1 as above. */
int pmn_checker_skip(pmn_checker *c);
/* The source it reads (pmn_source_pmn for the line reached, say). */
pmn_source *pmn_checker_source(pmn_checker *c);
void pmn_checked_game_free(pmn_checked_game *g);
void pmn_checker_free(pmn_checker *c);

#ifdef __cplusplus
}
#endif
#endif
