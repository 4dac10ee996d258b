/* judge.h - the annotator's judge, internal to libpmn: the mark a move
 * gets from the values of its position's moves.  annotate.c owns it;
 * the unit tests hold it to the cases where marks went wrong before. */
#ifndef PMN_JUDGE_H
#define PMN_JUDGE_H

#include "pmn.h"

/* The mark of playing `hole` in a position whose analysis is a (its moves
 * best first, the mover's view), for mover: judged as pmn_annotate_record
 * judges a move of one search iteration, the value the record showed
 * before it `shown` (the mover's view; NULL: none), in_play seeds on the
 * board, estimates not marked when opening is set.  PMN_MARK_NONE if the
 * analysis does not value hole. */
pmn_mark annotate_mark(const pmn_analysis *a, int hole, int mover, const pmn_value *shown,
                       const pmn_model *model, unsigned in_play, double threshold, int opening);

/* Where one of the best move of a (its moves best first, the mover's
 * view, as pmn_analyse gives them) and the played `hole` is proved and
 * the other only estimated, search the estimated one alone within l's
 * budget (history: the positions since the last capture before `before`,
 * with `before` itself at history[nhistory]) and put a proof found into
 * a, the moves reordered, the best's line and the position's value
 * mended.  1: a changed; 0: not; PMN_ERR_NOMEM. */
int annotate_prove_alike(pmn_searcher *s, const pmn_rules *r, const pmn_position *before,
                         const pmn_position *history, size_t nhistory,
                         const pmn_search_limits *l, int hole, pmn_analysis *a);

/* The most seeds in play of the layers the searcher's endgame databases
 * hold, or -1 where it reads none (search.c owns the searcher). */
int searcher_tablebase_seeds(const pmn_searcher *s);

#endif
