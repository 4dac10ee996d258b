/* rulespecs.c - made from rules/ by make; do not edit. */
#include "lib/rulespec.h"
const struct builtin_rule_spec pmn_builtin_rule_spec[] = {
    { "hawalis", "rows=2,holes=7,seeds=2,cycle=own-rows,laps=relay,min-lift=2,singleton=into-empty,capture=front-and-back,no-move=loses,goal=immobilise,repetition=draw,endless=draw" },
    { "kalah", "rows=1,holes=6,seeds=4,stores=yes,cycle=both-sides,laps=single,capture=opposite,extra=store,no-move=collect,goal=most-seeds,either-empty=yes,repetition=draw" },
    { "oware", "rows=1,holes=6,seeds=4,cycle=both-sides,laps=single,skip-origin=yes,capture=two-three,grand-slam=no-capture,feed=yes,no-move=collect,goal=most-seeds,majority=yes,repetition=own-side" },
    { "awale", "rows=1,holes=6,seeds=4,cycle=both-sides,laps=single,skip-origin=yes,capture=two-three,grand-slam=refused,feed=yes,no-move=collect,goal=most-seeds,majority=yes,repetition=uncounted" },
    { "awari-lincke", "rows=1,holes=6,seeds=4,cycle=both-sides,laps=single,skip-origin=yes,capture=two-three,grand-slam=last-resort,feed=yes,no-move=collect,goal=most-seeds,majority=no,repetition=uncounted" },
    { "anywoli", "rows=1,holes=12,seeds=4,cycle=both-sides,laps=relay,capture=fours,extra=capture,no-move=pass,goal=most-seeds,last-seeds=previous-capturer,repetition=draw,endless=draw" },
};
const size_t pmn_builtin_spec_count = sizeof pmn_builtin_rule_spec / sizeof pmn_builtin_rule_spec[0];
