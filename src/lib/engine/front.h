/* front.h - the front capture's geometry (Hawalis), internal to libpmn:
 * the opponent's hole that faces the mover's front hole, and the back hole
 * behind it.  Both engines capture by it -- the general one (engine.c) and
 * the relay family's packed one (relay.c) -- so it lies below them both,
 * not in the engine interface above them (play.h), which chooses between
 * them. */
#ifndef PMN_FRONT_H
#define PMN_FRONT_H

/* The opponent's hole facing the mover's front hole `end` (w <= end < 2w,
 * holes counted in sowing order, w a row), and the back hole behind it. */
static inline unsigned front_facing(unsigned w, unsigned end)
{
    return 3 * w - 1 - end;
}

static inline unsigned back_of(unsigned w, unsigned facing)
{
    return 2 * w - 1 - facing;
}

#endif
