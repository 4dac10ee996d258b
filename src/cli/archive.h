/* archive.h - games of archives, for select, duplicates, split, stats (archive.c). */
#ifndef PMN_CLI_ARCHIVE_H
#define PMN_CLI_ARCHIVE_H

#include "io.h"
#include "records.h"

enum game_state { GAME_ENDED, GAME_NOT_OVER, GAME_STOPPED, GAME_UNKNOWN_RULES, GAME_BAD_START,
                  GAME_NO_START,
                  GAME_TAGS_ONLY   /* only its tags were read (archive.tags_only) */ };

#define MAX_DIAG_CODE 1000

/* A game of an archive as these commands see it. */
struct game {
    const char *file;
    struct diag_sink *sink;   /* its file's */
    unsigned long number;     /* in its file, from 1 */
    pmn_at line;
    const char *text;         /* as written (PMN input); NULL from an XML archive */
    size_t len;
    const pmn_tag *tags;      /* the record's, or read from text (quick pass) */
    size_t ntags;
    const pmn_record *rec;    /* NULL: proved clean by the reader's quick pass */
    const pmn_replay *replay; /* with rec */
    const unsigned char *holes;   /* without rec: its plies (pmn_reader_game_holes) */
    size_t nholes;
    const uint64_t *keys;     /* without rec, where archive.keys asks: the keys of its
                                 positions (pmn_reader_game_keys); nholes + 1 */
    size_t nkeys;
    const char *rules;        /* the name of its rule set */
    pmn_game_facts facts;     /* ending and outcome only where it ended */
    enum game_state state;
    unsigned count[PMN_FATAL + 1];   /* its diagnostics */
    unsigned char codes[MAX_DIAG_CODE / 8];
};

/* What a command does with an archive.  Its context begins with this
 * struct, which archive_file (a job_command's fn) is given. */
struct archive {
    /* Each game: 0 to read on, 1 to stop reading the input, -1 out of memory. */
    int (*game)(struct archive *a, struct game *g);
    int need_moves;           /* every game's record and replay: no quick pass */
    /* Only tags are needed: a game whose tags are simple and give its Result
     * is read no further (GAME_TAGS_ONLY; no facts, numbers or text). */
    int tags_only;
    /* No tag is looked at: games the quick pass proves clean come without
     * them (their result is what the pass proved, as written). */
    int no_tags;
    /* NULL, or a test of a game's tags (state GAME_TAGS_ONLY, nothing else
     * known) that is true when the game is not wanted, nor any game without
     * tags: the games it rules out are left unread. */
    int (*ruled_out)(struct archive *a, const struct game *g);
    /* NULL, or each diagnostic of a game (notes too), before the game is
     * given to game(); standard error has them all the same. */
    void (*diag)(struct archive *a, const pmn_diag *d);
    const struct rules_options *ro;
    int from;                 /* FORMAT_* of the inputs (--from); FORMAT_AUTO: found */
    /* NULL, or before each game of PMN input read again: did the quick
     * pass prove the next game in the earlier reading?  Then it is read
     * for its plies alone (pmn_reader_next_again; its facts unknown). */
    int (*proved)(struct archive *a);
    /* The games the quick pass proves come with the keys of their
     * positions (g->keys: pmn index files them so, without a replay). */
    int keys;
};

void archive_file(FILE *f, struct diag_sink *s, void *archive);

const char *game_tag(const struct game *g, const char *name);
/* Its Result tag, else the result after its moves; NULL: none. */
const char *game_result(const struct game *g);
int game_has_code(const struct game *g, int code);
const char *game_state_name(enum game_state s);
/* How a replay went, as a state. */
enum game_state game_state_of(const pmn_check_result *res);
/* How it ended, in words ("North has no legal move"), or its state. */
void game_ending_text(const struct game *g, char *buf, size_t size);
/* g as a JSON object on a line. */
void game_json(FILE *f, const struct game *g);

/* The identity of a game for duplicates: a hash of its rules and start
 * as text (game_start_text), then of each ply in turn (game_hash_ply of
 * game_ply_code), so that a game's hash after k plies is the hash of a game
 * of those k plies.  Needs the replay, or the plies of the quick pass (a
 * game of the quick pass is Hawalis from its opening: the same text for
 * all, which a caller may keep). */
size_t game_start_text(const struct game *g, char buf[1024]);
uint64_t game_hash_start(const char *start, size_t n);
static inline uint64_t game_hash_ply(uint64_t h, unsigned code)
{
    h ^= code + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 33);
}
/* Its plies (as far as the replay played them), and ply i in 9 bits: its
 * side and hole, and whether it continues a turn (inline: duplicates
 * hashes every prefix of every game, twice). */
static inline size_t game_plies(const struct game *g)
{
    return g->replay ? pmn_replay_main(g->replay)->nmoves : g->nholes;
}
static inline unsigned game_ply_code(const struct game *g, size_t i)
{
    if (!g->replay)   /* the quick pass: sides by turns from South, a sowing a ply */
        return (unsigned)((i % 2) * 64 + g->holes[i] + 1);
    const pmn_played *pl = &pmn_replay_main(g->replay)->moves[i];
    return (unsigned)(pl->side * 64 + g->rec->main.moves[i].hole + 1)
         | (unsigned)pl->continues << 8;
}

/* Games written out: as read (verbatim; a game of an XML archive as
 * canonical PMN), canonical PMN, an XML archive, a line each, or JSON Lines. */
enum { OUT_VERBATIM, OUT_PMN, OUT_XML, OUT_LIST, OUT_JSONL };
/* Their names, in that order (--format, opt_choice). */
extern const char *const output_format_names[];
struct game_output {
    int format;
    FILE *f;
    pmn_write_options wo;
    pmn_xml_writer *xml;
    unsigned long games;
    int failed;
};
/* Which formats need each game's record (no quick pass). */
#define OUTPUT_NEEDS_RECORD(fmt) ((fmt) == OUT_PMN || (fmt) == OUT_XML)
int output_begin(struct game_output *o);
int output_game(struct game_output *o, const struct game *g);
int output_end(struct game_output *o);

#endif
