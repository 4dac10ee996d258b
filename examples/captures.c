/* captures.c - an example of libpmn: the captures of each game.
 *
 * Reads games in any format pmn reads -- PMN, XML archives, other
 * programs' notations, found as pmn check finds them (pmn_source) -- from
 * files (standard input if none), sets each game up and replays it once,
 * then walks the replay beside the record: every move of the main line that
 * captured, with its number and what it took, and how the game ended.
 * Problems in the records go to standard error.
 *
 * Build against an installed libpmn:
 *     cc -o captures captures.c $(pkg-config --cflags --libs pmn)
 */
#include <pmn.h>

#include <stdio.h>

static void print_problem(void *ctx, const pmn_diag *d)
{
    char code[8];
    pmn_diag_code_name(d->code, code);
    fprintf(stderr, "%s:%llu:%llu: %s[%s]: %s\n", (const char *)ctx, d->line, d->col,
            pmn_severity_string(d->severity), code, d->message);
}

static void print_captures(const pmn_record *rec, const pmn_replay *replay)
{
    const pmn_rules *rules = &pmn_replay_setup(replay)->rules;
    const pmn_played_line *main_line = pmn_replay_main(replay);
    for (size_t i = 0; i < main_line->nmoves; i++) {
        const pmn_played *pl = &main_line->moves[i];
        char hole[8];
        if (!pl->replayed || !pl->report.captured)
            continue;
        pmn_hole_name(rules, PMN_NOTATION_LETTERS, pl->side, rec->main.moves[i].hole, hole,
                      sizeof hole);
        printf("  %u%s %s takes %u\n", pl->number, pl->mover == PMN_SOUTH ? "." : "...", hole,
               pl->report.captured);
    }
}

static int summarise(FILE *f, const char *name)
{
    pmn_source_options o = { .format = PMN_SOURCE_AUTO, .name = name };
    pmn_source *src = pmn_source_new(f, &o, print_problem, (void *)name);
    pmn_record rec;
    int games = 0;
    while (src && pmn_source_next(src, &rec) > 0) {
        pmn_setup setup;
        pmn_setup_record(&rec, NULL, &setup, print_problem, (void *)name);
        pmn_replay *replay = pmn_replay_new(&rec, &setup, print_problem, (void *)name);
        if (replay) {
            const pmn_check_result *res = pmn_replay_result(replay);
            const char *south = pmn_record_tag(&rec, "South");
            const char *north = pmn_record_tag(&rec, "North");
            printf("%s - %s (%s), %u moves\n", south ? south : "?", north ? north : "?",
                   setup.rules.name, res->written);
            print_captures(&rec, replay);
            if (res->ending != PMN_END_NONE) {
                char how[128];
                pmn_ending_explain(&setup.rules, res->ending, &res->end, how, sizeof how);
                printf("  %s: %s\n", pmn_outcome_string(res->outcome), how);
            }
        }
        pmn_replay_free(replay);
        pmn_record_free(&rec);
        games++;
    }
    pmn_source_free(src);
    return games;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return summarise(stdin, "<stdin>") > 0 ? 0 : 1;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        summarise(f, argv[i]);
        fclose(f);
    }
    return 0;
}
