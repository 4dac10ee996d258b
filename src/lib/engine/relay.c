/* relay.c - the tables of the relay family's packed engine (relay.h). */
#include "front.h"
#include "relay.h"
#include "../base/util.h"

#include <string.h>

#ifdef PMN_RELAY
int relay_fits(const pmn_rules *r, const pmn_position *p, struct relay *f)
{
    if (r->cycle != PMN_CYCLE_OWN_ROWS || r->laps != PMN_LAPS_RELAY || r->stores
        || r->skip_origin || r->extra != PMN_EXTRA_NONE || r->goal != PMN_GOAL_IMMOBILISE
        || r->feed || r->grand_slam == PMN_GRAND_SLAM_REFUSED
        || r->grand_slam == PMN_GRAND_SLAM_LAST_RESORT || r->pits > 16
        || r->min_lift < 1 || r->min_lift > 0x80
        || (r->capture != PMN_CAPTURE_FRONT_AND_BACK && r->capture != PMN_CAPTURE_FRONT_ONLY
            && r->capture != PMN_CAPTURE_NONE))
        return 0;
    /* No byte may carry into the next: at most 127 seeds on the board. */
    if (pmn_position_seeds(r, p, 0) + pmn_position_seeds(r, p, 1) > 127)
        return 0;
    f->r = r;
    f->n = r->pits;
    f->w = r->holes_per_row;
    f->capture = r->capture != PMN_CAPTURE_NONE;
    f->back = r->capture == PMN_CAPTURE_FRONT_AND_BACK;
    f->lifts = (0x80u - r->min_lift) * BYTES;
    f->ones = 0;
    for (unsigned i = 0; i < f->n; i++)
        f->ones |= (holeset)1 << (8 * i);
    for (unsigned end = 0; end < 16; end++) {
        f->facing[end] = f->taken[end] = 0;
        if (!f->capture || end < f->w || end >= f->n)
            continue;
        unsigned facing = front_facing(f->w, end);
        f->facing[end] = f->taken[end] = (holeset)0xFF << (8 * facing);
        if (f->back)
            f->taken[end] |= (holeset)0xFF << (8 * back_of(f->w, facing));
    }
    memset(f->span, 0, sizeof f->span);
    memset(f->end, 0, sizeof f->end);
    for (unsigned a = 0; a < f->n; a++)
        for (unsigned h = 1; h <= f->n; h++) {
            unsigned i = (a + h) % f->n;
            f->span[a][h] = f->span[a][h - 1] | (holeset)1 << (8 * i);
            f->end[a][h] = (uint8_t)i;
        }
    return 1;
}
#endif
