/* games.c - an archive of random games (Hawalis by default) for
 * bench/run.sh and the tests, the same for a given seed on every machine.
 *
 *   bench/games [GAMES [SEED [RULES]]]     (default: 150000 games, seed 1,
 *                                           hawalis)
 *
 * Each game is played to its end by the engine, each move chosen at random
 * among the legal ones, and written as the Mancala World sample games are:
 * the seven tags, the letters, every capture as (+N), ';' between full
 * moves, lines of at most 79 columns, and the result the game ended with;
 * the sowings of a turn (Kalah, Anywoli) joined by '-'.
 * Some games end by an endless move or a repeated position, as played
 * games do; pmn check notes those. */
#include "pmn.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

/* xorshift64*: a stream fixed by its seed, unlike rand()'s. */
static uint64_t next_random(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1DULL;
}

static unsigned below(unsigned n)
{
    return (unsigned)(next_random() % n);
}

static const char *const players[] = {
    "Ahmed Al-Harthy", "Salim Al-Busaidi", "Fatma Juma", "Ralf Gering", "Miceu Tavares",
    "Benedikt Rosenau", "Khamis Said", "Mariam Nasser", "Ali Hamad", "Zuhura Mohamed",
    "Yusuf Omar", "Aisha Rashid",
};

/* Movetext is gathered here and cut into lines of at most 79 columns. */
struct out {
    char line[128];
    size_t len;
};

static void word(struct out *o, const char *w)
{
    size_t n = strlen(w);
    if (o->len && o->len + 1 + n > 79) {
        printf("%.*s\n", (int)o->len, o->line);
        o->len = 0;
    }
    if (o->len)
        o->line[o->len++] = ' ';
    memcpy(o->line + o->len, w, n);
    o->len += n;
}

static void game(const pmn_rules *r, unsigned long number)
{
    pmn_position start;
    pmn_position_start(r, &start);
    pmn_game *g = pmn_game_new(r, &start);
    if (!g) {
        fprintf(stderr, "games: out of memory\n");
        exit(1);
    }
    /* The moves first: the Result tag comes before them. */
    static char text[1 << 20];
    size_t len = 0;
    unsigned turn = 0;            /* the number of the last move written */
    int last_side = -1, again = 0;
    while (pmn_game_ending(g) == PMN_END_NONE && len < sizeof text - 64) {
        int moves[PMN_MAX_SIDE_PITS];
        int n = pmn_legal_moves(r, pmn_game_position(g), moves);
        int side = pmn_game_position(g)->to_move;
        int hole = moves[below((unsigned)n)];
        pmn_move_report rep;
        if (pmn_game_play(g, hole, &rep) != 0)
            break;
        if (again && side == last_side) {
            text[len++] = '-';    /* another sowing of the turn */
        } else if (side == PMN_SOUTH) {
            turn++;
            len += (size_t)sprintf(text + len, "%s%u. ", last_side == PMN_NORTH ? "; "
                                   : last_side == PMN_SOUTH ? " " : "", turn);
        } else if (last_side == PMN_NORTH || last_side < 0) {   /* South passed, or began */
            turn++;             /* a pass is a turn of its own */
            len += (size_t)sprintf(text + len, "%s%u... ", last_side < 0 ? "" : "; ", turn);
        } else {
            text[len++] = ' ';
        }
        last_side = side;
        again = rep.extra;
        text[len++] = (char)((side == PMN_SOUTH ? 'a' : 'A') + hole);
        if (rep.captured)
            len += (size_t)sprintf(text + len, " (+%u)", rep.captured);
    }
    text[len] = '\0';
    const char *result = pmn_outcome_string(pmn_game_outcome(g));
    unsigned south = below(sizeof players / sizeof *players);
    unsigned north = (south + 1 + below(sizeof players / sizeof *players - 1))
                   % (sizeof players / sizeof *players);
    printf("[Event \"Bench Club %lu\"]\n[Site \"Muscat\"]\n[Date \"2026.%02u.%02u\"]\n"
           "[Round \"%lu\"]\n[South \"%s\"]\n[North \"%s\"]\n[Result \"%s\"]\n"
           "[Game \"%s\"]\n\n", number / 1000 + 1, 1 + below(12), 1 + below(28),
           number % 1000 + 1, players[south], players[north], result, r->name);
    /* Words: a move number and its move stay apart only where a line ends. */
    struct out o = { .len = 0 };
    for (char *w = strtok(text, " "); w; w = strtok(NULL, " "))
        word(&o, w);
    word(&o, result);
    printf("%.*s\n\n", (int)o.len, o.line);
    pmn_game_free(g);
}

int main(int argc, char **argv)
{
    unsigned long games = argc > 1 ? strtoul(argv[1], NULL, 10) : 150000;
    state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    if (state == 0)
        state = 1;
    const char *rules = argc > 3 ? argv[3] : "hawalis";
    pmn_rules r;
    if (pmn_rules_init(&r, rules, NULL) < 0) {
        fprintf(stderr, "games: no rules '%s'\n", rules);
        return 1;
    }
    for (unsigned long i = 0; i < games; i++)
        game(&r, i);
    return fflush(stdout) == 0 ? 0 : 1;
}
