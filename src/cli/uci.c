/* uci.c - pmn uci: pmn's analysis engine behind a game program, over the
 * UCI-like protocol that Aualé speaks to its Oware engines.
 *
 * The program writes commands on standard input, a line each; pmn answers
 * on standard output.  Positions and moves are written as Aualé writes
 * them, for any rule set: a position ("fen") is every hole's count, South's
 * holes in sowing order, then North's, then South's store (or captures)
 * and North's, then S or N for the side to move, joined by '-'
 * (4-4-4-4-4-4-4-4-4-4-4-4-0-0-S); a move is a letter, South's holes A,
 * B, ... and North's a, b, ... in sowing order -- the other case from
 * PMN's letters -- and a list of moves is written with or without spaces
 * (AfBc).  A search runs in a thread of its own, so that "stop", "isready"
 * and "quit" are answered while it runs. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "records.h"
#include "io.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define MAX_LINE 65536
#define MAX_HISTORY 4096

struct uci {
    pmn_rules rules;
    pmn_searcher *searcher;
    unsigned long hash_mb;
    char tbdir[4096];         /* the Tablebase option: DIR, or "" for the default place */
    pmn_tablebase *tb;        /* the searcher's databases, or NULL */
    int damaged;              /* databases closed (F005 said) had a value no position
                                 can have: exit status 3 */
    pmn_position pos;
    pmn_position history[MAX_HISTORY];   /* since the last capture, oldest first */
    size_t nhistory;
    pthread_mutex_t out;      /* a line at a time on standard output */
    pthread_t thread;
    int searching;            /* a thread runs (until joined) */
    atomic_int stop;          /* "stop": end the search */
    atomic_int waiting;       /* go infinite or ponder: bestmove only after stop */
    pmn_search_limits limits;
};

static void say(struct uci *u, const char *fmt, ...) CLI_PRINTF(2, 3);

static void say(struct uci *u, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&u->out);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&u->out);
}

/* ---- positions and moves as the protocol writes them ---------------- */

static char move_letter(int side, int hole)
{
    return (char)((side == PMN_SOUTH ? 'A' : 'a') + hole);
}

/* Play the letters of s (blanks between them or not) from u->pos. */
static int play_moves(struct uci *u, const char *s)
{
    for (; *s; s++) {
        if (isspace((unsigned char)*s))
            continue;
        int side = isupper((unsigned char)*s) ? PMN_SOUTH : PMN_NORTH;
        int hole = tolower((unsigned char)*s) - 'a';
        pmn_move_report rep;
        if (!isalpha((unsigned char)*s) || hole >= (int)u->rules.pits) {
            say(u, "info string no such move: %c", *s);
            return -1;
        }
        if (side != u->pos.to_move) {
            say(u, "info string %c: it is %s's turn", *s, pmn_side_name(u->pos.to_move));
            return -1;
        }
        pmn_position before = u->pos;
        int rc = pmn_play(&u->rules, &u->pos, hole, &rep);
        if (rc != 0) {
            say(u, "info string %c is not legal: %s", *s, pmn_legality_string((pmn_legality)rc));
            return -1;
        }
        /* The history the search needs to see a repetition: the positions
         * since seeds last left the board. */
        if (u->pos.captured[0] != before.captured[0] || u->pos.captured[1] != before.captured[1])
            u->nhistory = 0;
        else if (u->nhistory < MAX_HISTORY)
            u->history[u->nhistory++] = before;
    }
    return 0;
}

/* position [startpos | fen F] [moves M...] */
static void position(struct uci *u, char *args)
{
    char *moves = strstr(args, "moves");
    if (moves)
        *moves = '\0';
    char *word = strtok(args, " \t");
    pmn_position p;
    if (word && strcmp(word, "fen") == 0) {
        char *fen = strtok(NULL, " \t");
        pmn_error err;
        if (!fen) {
            say(u, "info string fen takes a position: %u counts and S or N, joined by '-'",
                2 * u->rules.pits + 2);
            return;
        }
        /* Aualé's FEN, or any position string pmn reads. */
        if (pmn_position_parse(&u->rules, fen, &p, &err) < 0) {
            say(u, "info string fen, column %zu: %s", err.column, err.message);
            return;
        }
    } else if (!word || strcmp(word, "startpos") == 0) {
        pmn_position_start(&u->rules, &p);
    } else {
        say(u, "info string position takes startpos or fen, not %s", word);
        return;
    }
    u->pos = p;
    u->nhistory = 0;
    if (moves)
        play_moves(u, moves + 5);
}

/* ---- searching ------------------------------------------------------- */

static int stop_asked(void *ctx)
{
    return atomic_load(&((struct uci *)ctx)->stop);
}

/* "score cp N" (centi-seeds) or "score mate N" (moves to the end, negative
 * when the side to move loses).  An exact margin whose plies are not
 * counted (the solver's, the databases') is a score in centi-seeds. */
static void score(const pmn_value *v, char *buf, size_t size)
{
    if (v->exact && v->outcome && !v->plies && v->has_margin)
        snprintf(buf, size, "cp %d", 100 * v->margin);
    else if (v->exact && v->outcome && !v->plies)
        /* A result with neither margin nor plies (under a majority, from
         * the databases): the least margin it is, one seed. */
        snprintf(buf, size, "cp %d", 100 * v->outcome);
    else if (v->exact && v->outcome)
        snprintf(buf, size, "mate %d", v->outcome * (int)((v->plies + 1) / 2));
    else if (v->exact)
        snprintf(buf, size, "cp 0");
    else
        snprintf(buf, size, "cp %d", 100 * (v->has_margin ? v->margin : v->score));
}

/* The principal variation in letters: each ply's mover, as it plays out. */
static void pv_letters(const struct uci *u, const pmn_analysis *a, char *buf, size_t size)
{
    pmn_position p = u->pos;
    size_t n = 0;
    for (unsigned i = 0; i < a->npv && n + 1 < size; i++) {
        pmn_move_report rep;
        int side = p.to_move;
        if (pmn_play(&u->rules, &p, a->pv[i], &rep) != 0)
            break;
        buf[n++] = move_letter(side, a->pv[i]);
        if (rep.ending != PMN_END_NONE)
            break;
    }
    buf[n] = '\0';
}

static void info(void *ctx, const pmn_analysis *a)
{
    struct uci *u = ctx;
    char sc[32], pv[PMN_MAX_PV + 1];
    score(&a->value, sc, sizeof sc);
    pv_letters(u, a, pv, sizeof pv);
    unsigned long ms = (unsigned long)(a->seconds * 1000);
    say(u, "info depth %u score %s nodes %llu time %lu nps %llu%s%s", a->depth, sc,
        (unsigned long long)a->nodes, ms,
        (unsigned long long)(a->seconds > 0 ? (double)a->nodes / a->seconds : 0),
        pv[0] ? " pv " : "", pv);
}

static void *search(void *ctx)
{
    struct uci *u = ctx;
    pmn_analysis a;
    if (pmn_analyse(u->searcher, &u->pos, u->history, u->nhistory, &u->limits, info, u, &a) != 0) {
        say(u, "info string out of memory");
        a.best = -1;
    }
    if (a.value.tablebase && !a.value.has_margin && a.value.outcome)
        say(u, "info string the value is the endgame databases' (exact: a %s, its margin not "
            "known under a majority)", a.value.outcome > 0 ? "win" : "loss");
    else if (a.value.tablebase)
        say(u, "info string the value is the endgame databases' (exact, plies not counted)");
    /* Infinite and ponder searches answer only when stopped. */
    while (atomic_load(&u->waiting) && !atomic_load(&u->stop)) {
        struct timespec t = { 0, 5000000 };
        nanosleep(&t, NULL);
    }
    if (a.best < 0) {
        say(u, "bestmove (none)");
    } else if (a.npv > 1) {
        pmn_position q = u->pos;
        pmn_move_report rep;
        pmn_play(&u->rules, &q, a.best, &rep);
        say(u, "bestmove %c ponder %c", move_letter(u->pos.to_move, a.best),
            move_letter(q.to_move, a.pv[1]));
    } else {
        say(u, "bestmove %c", move_letter(u->pos.to_move, a.best));
    }
    return NULL;
}

/* Stop the search (stop, quit, a new position), or (at the end of the
 * input) let a search with limits reach them. */
static void end_search(struct uci *u, int stop)
{
    if (!u->searching)
        return;
    if (stop || atomic_load(&u->waiting))
        atomic_store(&u->stop, 1);
    pthread_join(u->thread, NULL);
    u->searching = 0;
}

/* go [depth D] [movetime MS] [nodes N] [infinite] [ponder]; the clock's
 * wtime, btime, winc, binc and movestogo: a share of the time left. */
static void go(struct uci *u, char *args)
{
    pmn_search_limits l;
    unsigned long clock[2] = { 0, 0 }, inc[2] = { 0, 0 }, togo = 0;
    int infinite = 0;
    memset(&l, 0, sizeof l);
    for (char *w = strtok(args, " \t"); w; w = strtok(NULL, " \t")) {
        if (strcmp(w, "infinite") == 0 || strcmp(w, "ponder") == 0) {
            infinite = 1;
            continue;
        }
        char *v = strtok(NULL, " \t");
        unsigned long n;
        if (!v || pmn_parse_uint(v, 1ul << 40, &n) < 0) {
            say(u, "info string go %s takes a number", w);
            return;
        }
        if (strcmp(w, "depth") == 0) l.depth = (unsigned)(n > 255 ? 255 : n);
        else if (strcmp(w, "movetime") == 0) l.seconds = n / 1000.0;
        else if (strcmp(w, "nodes") == 0) l.nodes = n;
        else if (strcmp(w, "wtime") == 0) clock[PMN_SOUTH] = n;
        else if (strcmp(w, "btime") == 0) clock[PMN_NORTH] = n;
        else if (strcmp(w, "winc") == 0) inc[PMN_SOUTH] = n;
        else if (strcmp(w, "binc") == 0) inc[PMN_NORTH] = n;
        else if (strcmp(w, "movestogo") == 0) togo = n;
        else say(u, "info string go: %s is not known, left alone", w);
    }
    int me = u->pos.to_move;
    if (!l.seconds && clock[me])
        l.seconds = (clock[me] / (togo ? togo + 1 : 30) + inc[me] * 0.8) / 1000.0;
    if (!infinite && !l.depth && !l.nodes && l.seconds <= 0)
        infinite = 1;   /* "go" alone: until stopped */
    l.stop = stop_asked;
    l.stop_ctx = u;
    u->limits = l;
    atomic_store(&u->stop, 0);
    atomic_store(&u->waiting, infinite);
    if (pthread_create(&u->thread, NULL, search, u) != 0) {
        say(u, "info string cannot start a search");
        return;
    }
    u->searching = 1;
}

/* ---- options --------------------------------------------------------- */

/* The databases of u's rules for its searcher: those of the Tablebase
 * option's directory, or of the default place when it has them.  When the
 * directory's cannot serve, an info string says why (or, for the command
 * line `cmd`, an error on standard error), and the search goes without. */
static int open_tablebase(struct uci *u, const char *cmd)
{
    pmn_searcher_use_tablebase(u->searcher, NULL);
    if (tablebase_close_checked(u->tb))   /* said on standard error: F005 */
        u->damaged = 1;
    u->tb = NULL;
    if (!u->tbdir[0] || cmd)
        return tablebase_option(cmd ? cmd : "uci", u->tbdir[0] ? u->tbdir : NULL, &u->rules,
                                u->searcher, &u->tb);
    pmn_error err;
    if (!(u->tb = pmn_tablebase_open(&u->rules, u->tbdir, &err))) {
        say(u, "info string Tablebase %s: %s", u->tbdir, err.message);
        return -1;
    }
    pmn_searcher_use_tablebase(u->searcher, u->tb);
    io_watch_mapped(u->tbdir);
    return 0;
}

static int new_searcher(struct uci *u)
{
    pmn_searcher *s = pmn_searcher_new(&u->rules, u->hash_mb);
    if (!s) {
        say(u, "info string out of memory for a table of %lu MB", u->hash_mb);
        return -1;
    }
    pmn_searcher_free(u->searcher);
    u->searcher = s;
    if (!u->tb || pmn_searcher_use_tablebase(s, u->tb) != 0)
        open_tablebase(u, NULL);   /* the first, or other rules: their databases */
    return 0;
}

/* setoption name NAME [value VALUE] */
static void setoption(struct uci *u, char *args)
{
    char *name = strstr(args, "name"), *value = strstr(args, "value");
    if (!name) {
        say(u, "info string setoption name NAME value VALUE");
        return;
    }
    if (value) {
        *value = '\0';
        value += 5;
        value += strspn(value, " \t");
        value[strcspn(value, "\r\n")] = '\0';
    }
    name += 4;
    name += strspn(name, " \t");
    for (size_t n = strlen(name); n && isspace((unsigned char)name[n - 1]);)
        name[--n] = '\0';
    if (strcasecmp(name, "Hash") == 0 && value) {
        unsigned long mb;
        if (pmn_parse_uint(value, 65536, &mb) < 0 || mb == 0) {
            say(u, "info string Hash takes megabytes, 1 to 65536");
            return;
        }
        unsigned long old = u->hash_mb;
        u->hash_mb = mb;
        if (new_searcher(u) < 0)
            u->hash_mb = old;
    } else if (strcasecmp(name, "Tablebase") == 0) {
        /* A directory, or none (<empty>): the default place. */
        if (!value || strcmp(value, "<empty>") == 0)
            value = "";
        if (strlen(value) >= sizeof u->tbdir) {
            say(u, "info string Tablebase: the directory's name is too long");
            return;
        }
        strcpy(u->tbdir, value);
        open_tablebase(u, NULL);
    } else if (strcasecmp(name, "Rules") == 0 && value) {
        pmn_rules r;
        pmn_error err;
        if (pmn_rules_init(&r, value, &err) != 0) {
            say(u, "info string Rules %s: %s", value, err.message);
            return;
        }
        pmn_rules old = u->rules;
        u->rules = r;
        if (new_searcher(u) < 0) {
            u->rules = old;
            return;
        }
        pmn_position_start(&u->rules, &u->pos);
        u->nhistory = 0;
    } else {
        say(u, "info string no option %s", name);
    }
}

/* ---- the loop -------------------------------------------------------- */

static void identify(struct uci *u)
{
    say(u, "id name pmn %s (%s)", pmn_version(), u->rules.name);
    say(u, "id author the pmn developers");
    say(u, "option name Hash type spin default %lu min 1 max 65536", u->hash_mb);
    say(u, "option name Rules type string default %s", u->rules.name);
    say(u, "option name Tablebase type string default %s", u->tbdir[0] ? u->tbdir : "<empty>");
    say(u, "uciok");
}

/* One command; 1 at quit. */
static int command(struct uci *u, char *line)
{
    line += strspn(line, " \t");
    line[strcspn(line, "\r\n")] = '\0';
    char *args = line + strcspn(line, " \t");
    if (*args)
        *args++ = '\0';
    if (!*line)
        return 0;
    if (strcmp(line, "quit") == 0) {
        end_search(u, 1);
        return 1;
    }
    if (strcmp(line, "isready") == 0) {
        say(u, "readyok");
    } else if (strcmp(line, "stop") == 0 || strcmp(line, "ponderhit") == 0) {
        end_search(u, 1);
    } else if (strcmp(line, "uci") == 0) {
        identify(u);
    } else if (strcmp(line, "debug") == 0) {
        /* nothing more to say */
    } else {
        end_search(u, 1);   /* what follows changes what a search reads */
        if (strcmp(line, "ucinewgame") == 0) {
            pmn_searcher_clear(u->searcher);
            pmn_position_start(&u->rules, &u->pos);
            u->nhistory = 0;
        } else if (strcmp(line, "position") == 0) {
            position(u, args);
        } else if (strcmp(line, "go") == 0) {
            go(u, args);
        } else if (strcmp(line, "setoption") == 0) {
            setoption(u, args);
        } else {
            say(u, "info string unknown command: %s", line);
        }
    }
    return 0;
}

static const struct cli_option options[] = {
    { "rules", 'r', "SPEC", "the rule set played (default oware); the Rules\n"
      "option of the protocol changes it", COMMON_AT(rules_set_option, pmn_rules, rules), NULL, 0 },
    OPT_HASH,
    OPT_TABLEBASE,
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    (void)ctx;
    pmn_rules_init(&c->rules, "oware", NULL);
}

static int ready(struct common *c, void *ctx)
{
    struct uci *u = ctx;
    if (c->nfiles)
        return usage_error(c->cmd->name, "no file is read: commands come on standard input");
    if (c->tablebase && strlen(c->tablebase) >= sizeof u->tbdir)
        return usage_error(c->cmd->name, "--tablebase: the directory's name is too long");
    return 0;
}

static int run(struct common *c, void *ctx)
{
    struct uci *u = ctx;   /* on the heap: its history is large */
    int rc;
    u->rules = c->rules;
    u->hash_mb = c->hash_mb;
    pthread_mutex_init(&u->out, NULL);
    pmn_position_start(&u->rules, &u->pos);
    if (new_searcher(u) < 0)
        return EXIT_FATAL;
    if (c->tablebase) {
        /* Databases the command line names must serve. */
        strcpy(u->tbdir, c->tablebase);
        if ((rc = open_tablebase(u, c->cmd->name)) != 0) {
            pmn_searcher_free(u->searcher);
            pthread_mutex_destroy(&u->out);
            return rc;
        }
    }
    char *line = malloc(MAX_LINE);
    int quit = 0;
    while (line && !quit && fgets(line, MAX_LINE, stdin))
        quit = command(u, line);
    end_search(u, quit);
    free(line);
    pmn_searcher_free(u->searcher);
    if (tablebase_close_checked(u->tb))   /* said on standard error: F005 */
        u->damaged = 1;
    pthread_mutex_destroy(&u->out);
    return !line || u->damaged ? EXIT_FATAL : EXIT_CLEAN;
}

const struct command uci_command = {
    "uci", "be the engine of a game program (Aualé's UCI-like protocol)",
    "[OPTIONS]",
    "Speak the UCI-like protocol that Aualé uses to talk to its engine, on\n"
    "standard input and output: uci, isready, ucinewgame, setoption (Hash,\n"
    "Rules, Tablebase), position startpos|fen F [moves M], go depth D|\n"
    "movetime MS|nodes N|infinite|ponder (and wtime, btime, winc, binc,\n"
    "movestogo), stop, ponderhit, quit.  Answers info depth ... score ... pv\n"
    "... and bestmove.  The Tablebase option names a directory of endgame\n"
    "databases (as --tablebase; <empty>: the default place).\n"
    "A position is every hole's count, South's then North's, the stores\n"
    "or captures, and S or N, joined by '-' (4-4-4-4-4-4-4-4-4-4-4-4-0-0-S);\n"
    "a move is a letter, South's holes A, B, ... and North's a, b, ...  The\n"
    "search is pmn analyse's.",
    options,
    "Exit status: 0; 3 when the databases of --tablebase cannot serve; 64 a\n"
    "wrong command line.",
    sizeof(struct uci), 0, init, ready, run,
};
