/* explorer.h - the opening explorer of an archive index (index.c), for
 * the commands beside pmn index that show it: pmn html's panel. */
#ifndef PMN_CLI_EXPLORER_H
#define PMN_CLI_EXPLORER_H

#include "pmn.h"
#include "store.h"

#include <stdio.h>

/* What was played from p (its board and side to move, under any rule set
 * of its board; the seeds captured aside), as one JSON object on out:
 * {"games", "south", "draws", "north", "moves": [{"move", "games",
 * "south", "draws", "north", "score" (of the side to move), "first",
 * "last"}...], "latest": [{"file", "game", "line", "south", "north",
 * "result", "date", "event"}...]} with the latest `top` games.  0; -1
 * the store failed (store_error says why), nothing written, or the object
 * cut short; -2 out of memory, nothing written. */
int index_explore_json(struct store *st, const pmn_rules *r, const pmn_position *p,
                       unsigned long top, FILE *out);

#endif
