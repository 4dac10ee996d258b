/* replay.c - pmn replay: a game move by move, as the board shows it. */
#include "cli.h"
#include "options.h"
#include "command.h"
#include "io.h"
#include "records.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How the replay names holes: as the input does (OGN's and the Awari
 * notation's letters the other case from PMN's, PlayStrategy's squares,
 * the Mancala World's numbers, each PMN record's own), or as --notation
 * says.  The board keeps letters but where --notation names another. */
struct naming {
    int given;                /* --notation */
    pmn_notation n;           /* --notation's */
    int swap_case;            /* OGN's and Awari's letters */
};

static struct naming naming_of(const struct naming *opt, int format)
{
    struct naming nm = *opt;
    nm.swap_case = !nm.given && (format == FORMAT_OGN + PMN_FORMAT_OGN
                                 || format == FORMAT_OGN + PMN_FORMAT_AWARI);
    return nm;
}

static void board(const pmn_rules *r, const pmn_position *p, const struct naming *nm)
{
    char buf[4096];
    pmn_board_format_as(r, p, nm->given ? nm->n : PMN_NOTATION_LETTERS, nm->swap_case, buf,
                        sizeof buf);
    fputs(buf, stdout);
}

/* A hole as the replay names it: "e", "OGN's E", "North's 4" (numbers name
 * a hole of either side alike). */
static void hole_named(const pmn_rules *r, const struct naming *nm, pmn_notation record,
                       int side, int hole, char *buf, size_t size)
{
    pmn_notation n = nm->given ? nm->n : record;
    size_t k = 0;
    if (n == PMN_NOTATION_NUMBERS)
        k = (size_t)snprintf(buf, size, "%s's ", pmn_side_name(side));
    pmn_hole_name_cased(r, n, nm->swap_case, side, hole, buf + k, size - k);
}

static void show_ply(const pmn_rules *r, const pmn_move *m, const pmn_played *pl,
                     const struct naming *nm)
{
    const pmn_move_report *rep = &pl->report;
    char text[32];
    if (nm->given)   /* the move in the notation asked for; else as written */
        pmn_hole_name(r, nm->n, pl->side, rep->hole, text, sizeof text);
    printf("\n%u%s %s%s: ", pl->number, pl->mover == PMN_SOUTH ? "." : "...",
           pl->continues ? "-" : "", nm->given ? text : m->text);
    if (rep->ending == PMN_END_ENDLESS) {
        printf("endless move: the sowing state of lap %llu repeats that of lap %llu; "
               "turned, lap %llu repeats lap %llu.\n",
               (unsigned long long)rep->loop_lap, (unsigned long long)rep->loop_from,
               (unsigned long long)rep->rotated_lap, (unsigned long long)rep->rotated_from);
    } else {
        char end[32];
        snprintf(end, sizeof end, "%s's store", pmn_side_name(rep->side));
        if (rep->end_hole >= 0)
            hole_named(r, nm, m->notation, rep->end_side, rep->end_hole, end, sizeof end);
        printf("captures %u, %llu lap%s, last seed in %s.", rep->captured,
               (unsigned long long)rep->laps, rep->laps == 1 ? "" : "s", end);
        if (rep->given)
            printf("  %s takes %u.", pmn_side_name(!rep->side), rep->given);
        if (rep->extra)
            printf("  %s sows again.", pmn_side_name(rep->side));
        if (rep->passed)
            printf("  %s cannot move and passes.", pmn_side_name(!rep->side));
        printf("  %s: South %u, North %u.\n", r->stores ? "Stores" : "Captured",
               pl->after.captured[PMN_SOUTH], pl->after.captured[PMN_NORTH]);
    }
    board(r, &pl->after, nm);
}

static void show_end(const pmn_rules *rules, const pmn_check_result *res)
{
    char how[128];
    if (res->stopped) {
        printf("\nThe replay stops at an error after %u move%s.\n", res->moves,
               res->moves == 1 ? "" : "s");
        return;
    }
    if (res->ending == PMN_END_NONE) {
        printf("\nThe record stops here: the game is not over.\n");
        return;
    }
    pmn_ending_explain(rules, res->ending, &res->end, how, sizeof how);
    printf("\nResult: %s, %s: %s.  Captured: South %u, North %u.\n",
           pmn_outcome_string(res->outcome),
           res->outcome == PMN_DRAWN ? "drawn"
           : res->outcome == PMN_SOUTH_WINS ? "South wins" : "North wins",
           how, res->captured[PMN_SOUTH], res->captured[PMN_NORTH]);
}

/* --svg: the board after ply K (0: the start) as an SVG document, its last
 * ply marked. */
static int draw(const pmn_record *rec, const pmn_replay *replay, long ply, pmn_notation notation)
{
    const pmn_setup *setup = pmn_replay_setup(replay);
    const char *south = pmn_record_tag(rec, "South"), *north = pmn_record_tag(rec, "North");
    const pmn_position *p = &setup->start;
    pmn_svg_options o;
    char title[512];
    pmn_svg_options_init(&o);
    o.notation = notation;
    int n = snprintf(title, sizeof title, "%s - %s, ", south ? south : "?", north ? north : "?");
    if (ply == 0) {
        snprintf(title + n, sizeof title - (size_t)n, "the start");
    } else {
        const pmn_played *pl = &pmn_replay_main(replay)->moves[ply - 1];
        const pmn_move_report *rep = &pl->report;
        p = &pl->after;
        o.lifted_side = pl->side;
        o.lifted_hole = rep->hole;
        if (rep->ending != PMN_END_ENDLESS) {
            o.end_side = rep->end_hole >= 0 ? rep->end_side : rep->side;
            o.end_hole = rep->end_hole;
        }
        snprintf(title + n, sizeof title - (size_t)n, "after ply %ld (%u%s %s%s)", ply,
                 pl->number, pl->mover == PMN_SOUTH ? "." : "...", pl->continues ? "-" : "",
                 rec->main.moves[ply - 1].text);
    }
    o.title = title;
    size_t len = pmn_board_svg(&setup->rules, p, &o, NULL, 0);
    char *buf = malloc(len + 1);
    if (!buf)
        return -1;
    pmn_board_svg(&setup->rules, p, &o, buf, len + 1);
    fputs(buf, stdout);
    free(buf);
    return 0;
}

/* Show game n: every ply of its main line, or (ply >= 0) the board after
 * that many plies (svg: as an SVG document).  Returns -1 if there are
 * fewer. */
static int replay_game(const pmn_record *rec, unsigned long n, struct diag_sink *sink,
                       const struct rules_options *ro, long ply, int svg,
                       const struct naming *nm)
{
    pmn_notation notation = nm->given ? nm->n : PMN_NOTATION_LETTERS;
    char spec[512];
    const char *south = pmn_record_tag(rec, "South"), *north = pmn_record_tag(rec, "North");
    pmn_replay *replay = replay_record(rec, ro, sink);
    release_diags(sink);
    if (!replay)
        return 0;
    const pmn_setup *setup = pmn_replay_setup(replay);
    const pmn_check_result *res = pmn_replay_result(replay);
    const pmn_played_line *main_line = pmn_replay_main(replay);
    if (setup->status == PMN_SETUP_UNKNOWN_RULES) {
        pmn_replay_free(replay);
        return 0;
    }
    if (svg && setup->status == PMN_SETUP_READY && (unsigned long)ply <= res->plies) {
        int rc = draw(rec, replay, ply, notation);
        pmn_replay_free(replay);
        return rc < 0 ? 0 : 0;
    }
    pmn_rules_format(&setup->rules, spec, sizeof spec);
    /* Names as a terminal can show them: a control character of a record
     * (an escape sequence, a bell) is written as its escape. */
    char sbuf[256], nbuf[256], fbuf[512];
    printf("Game %lu: %s - %s (%s:%llu)\nRules: %s\n", n,
           south ? escaped(south, sbuf, sizeof sbuf) : "?",
           north ? escaped(north, nbuf, sizeof nbuf) : "?", escaped(sink->file, fbuf, sizeof fbuf),
           rec->line, spec);
    if (setup->status != PMN_SETUP_READY) {
        pmn_replay_free(replay);
        return 0;
    }
    if (ply <= 0) {
        printf("\nStart: %s to move.\n", pmn_side_name(setup->start.to_move));
        board(&setup->rules, &setup->start, nm);
    }
    for (size_t i = 0; i < main_line->nmoves && main_line->moves[i].replayed; i++)
        if (ply < 0 || (unsigned long)ply == i + 1)
            show_ply(&setup->rules, &rec->main.moves[i], &main_line->moves[i], nm);
    int rc = 0;
    if (ply < 0) {
        show_end(&setup->rules, res);
    } else if ((unsigned long)ply > res->plies) {
        fprintf(stderr, "pmn replay: error: --ply %ld: game %lu has %u pl%s that could be "
                "replayed\n", ply, n, res->plies, res->plies == 1 ? "y" : "ies");
        rc = -1;
    }
    pmn_replay_free(replay);
    return rc;
}

struct replay {
    unsigned long game;       /* --game N, or 0: every one */
    unsigned long ply;        /* --ply K, or NO_PLY */
    int svg;
};

#define NO_PLY ULONG_MAX
static const struct cli_bounds game_bounds = { 1, CLI_NO_MAX, "a game number", 0 },
    ply_bounds = { 0, 1e12, "a number of plies", 0 };   /* below NO_PLY and LONG_MAX */

static const struct cli_option options[] = {
    { "game", 'g', "N", "only the N-th game of the file (from 1)",
      ULONG_AT(struct replay, game), &game_bounds, 0 },
    { "ply", 'k', "K", "only the board after K plies (0: the start position);\n"
      "a ply is one sowing: a move of several sowings\nis as many plies",
      ULONG_AT(struct replay, ply), &ply_bounds, 0 },
    { "svg", 'S' + 256, NULL, "with --ply, the board as an SVG 1.1 picture (of the\n"
      "first game, or the one --game names)", FLAG_AT(struct replay, svg), NULL, 0 },
    OPT_NOTATION,
    OPT_FROM,
    OPT_RULES_OVER,
    OPT_START_POSITION,
    OPT_RUNNING_TOTALS,
    OPT_END,
};

static void init(struct common *c, void *ctx)
{
    struct replay *r = ctx;
    (void)c;
    r->ply = NO_PLY;
}

static int ready(struct common *c, void *ctx)
{
    struct replay *r = ctx;
    if (r->svg && r->ply == NO_PLY)
        return usage_error(c->cmd->name, "--svg draws one board: say which with --ply K");
    if (r->svg && r->game == 0)
        r->game = 1;   /* one picture: the first game */
    if (c->nfiles > 1)
        return usage_error(c->cmd->name, "expected one FILE, got %d", c->nfiles);
    return 0;
}

static int run(struct common *c, void *ctx)
{
    struct replay *r = ctx;
    unsigned long game = r->game;
    long ply = r->ply == NO_PLY ? -1 : (long)r->ply;
    int status = EXIT_CLEAN;
    struct naming given = { c->notation_given, c->wo.notation, 0 };
    FILE *f = open_input(c->nfiles ? c->files[0] : "-", &c->sink);
    if (!f)
        return EXIT_FATAL;
    struct source src;
    source_open(&src, f, &c->sink, &c->ro, c->from);
    pmn_record rec;
    unsigned long n = 0;
    int found = 0;
    c->sink.hold = 1;
    struct naming nm = naming_of(&given, src.format);
    while (src.src && source_next(&src, &rec) > 0) {
        n++;
        if (c->running_totals)
            pmn_record_totals_to_counts(&rec, print_diag, &c->sink);
        if (game == 0 || game == n) {
            if (found++)
                printf("\n");
            if (replay_game(&rec, n, &c->sink, &c->ro, ply, r->svg, &nm) < 0)
                status = EXIT_USAGE;
        }
        pmn_record_free(&rec);
        if (game && game == n)
            break;
    }
    source_close(&src);
    /* Closed before the held diagnostics are said and freed: the close
     * may still say one (N133, how the text was decoded). */
    close_input(f);
    release_diags(&c->sink);
    free(c->sink.held);
    c->sink.held = NULL;
    if (game && !found && !c->sink.count[PMN_FATAL]) {
        char file[1024];
        fprintf(stderr, "pmn replay: error: --game %lu: %s holds %lu game%s\n", game,
                escaped(c->sink.file, file, sizeof file), n, n == 1 ? "" : "s");
        return EXIT_USAGE;
    }
    return status != EXIT_CLEAN ? status : exit_status(&c->sink);
}

const struct command replay_command = {
    "replay", "show a game move by move: the board, captures and laps",
    "[OPTIONS] [FILE]",
    "Replay the games of a PMN file (standard input if none, or -) and print the\n"
    "board after each ply (each sowing) of the main line, with what it captured,\n"
    "its laps, where its last seed fell, the captured totals, and how the game\n"
    "ended.  Holes are named as the input names them (OGN's South A-F), or as\n"
    "--notation says.  Problems in the record are reported on standard error as\n"
    "by pmn check.",
    options, NULL, sizeof(struct replay), CMD_NOTES, init, ready, run,
};
