/* games.h - the two sample games of the Mancala World Hawalis page
 * (CC BY-SA 2.5, Wikimanqala), as plies: a letter, then the seeds the record
 * says it captured, if any. */
#ifndef PMN_TEST_GAMES_H
#define PMN_TEST_GAMES_H

/* Miceu Tavares - Ralf Gering, June 11, 2009: North wins 27 : 28. */
static const char game1[] =
    "i4 L6 d6 J6 i2 H h N j D n K k2 E c E2 d3 F1 g I1 a J h N e A f D b "
    "K1 n E d1 F1 f1 I1 a L e M b D c E i1 N d3 J2 e2 C l1 D m E n F a A b "
    "B c C d D e E l G m H b I c J d F e K1 l L m M1 b N c A d B e C h G1 "
    "i H j D k1 E l F m G3 f H g I h J i K1";

/* "miumiu" - Benedikt Rosenau, June 29, 2009: North's 13th move is endless. */
static const char game2[] =
    "h4 K6 a I i4 C6 k N6 n M b2 G1 g2 J2 c K e F1 f C g L h N k A";

#endif
