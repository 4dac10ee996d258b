/* notation.c - names of holes in the letter notation. */
#include "pmn.h"

char pmn_hole_letter(int side, int hole)
{
    return (char)((side == PMN_SOUTH ? 'a' : 'A') + hole);
}

int pmn_hole_from_letter(const pmn_rules *r, char c, int *side, int *hole)
{
    if (c >= 'a' && c < 'a' + (int)r->pits) {
        *side = PMN_SOUTH;
        *hole = c - 'a';
        return 0;
    }
    if (c >= 'A' && c < 'A' + (int)r->pits) {
        *side = PMN_NORTH;
        *hole = c - 'A';
        return 0;
    }
    return -1;
}
