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

#endif
