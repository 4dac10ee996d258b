/* notation.c - names of holes: letters, numbers, board coordinates. */
#include "pmn.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const names[] = { "letters", "numbers", "coordinates" };

const char *pmn_notation_name(pmn_notation n)
{
    return (unsigned)n < 3 ? names[n] : "letters";
}

int pmn_notation_from_name(const char *name, pmn_notation *n)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *n = (pmn_notation)i;
            return 0;
        }
    return -1;
}

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

/* Hawalis number 1 is the first front-row hole: the solutions count from
 * the player's front row, the letters from his back row.  A two-row game
 * counts its holes in sowing order, from 1. */
static unsigned number_shift(const pmn_rules *r)
{
    return r->rows == 2 ? r->holes_per_row : 0;
}

int pmn_hole_number(const pmn_rules *r, int hole)
{
    return (int)(((unsigned)hole + r->pits - number_shift(r)) % r->pits) + 1;
}

int pmn_hole_from_number(const pmn_rules *r, unsigned long number, int *hole)
{
    if (number < 1 || number > r->pits)
        return -1;
    *hole = (int)((number - 1 + number_shift(r)) % r->pits);
    return 0;
}

/* Seen from South: his back row a..g runs left to right on rank 1, his
 * front row h..n right to left on rank 2; North's front row H..N left to
 * right on rank 3, his back row A..G right to left on rank 4. */
void pmn_hole_coordinates(const pmn_rules *r, int side, int hole, int *file, int *rank)
{
    if (r->rows == 1) {   /* rank 1 South's row left to right, rank 2 North's */
        *rank = side == PMN_NORTH;
        *file = side == PMN_NORTH ? (int)r->pits - 1 - hole : hole;
        return;
    }
    int w = (int)r->holes_per_row, front = hole >= w, i = front ? hole - w : hole;
    if (side == PMN_SOUTH) {
        *rank = front ? 1 : 0;
        *file = front ? w - 1 - i : i;
    } else {
        *rank = front ? 2 : 3;
        *file = front ? i : w - 1 - i;
    }
}

int pmn_hole_from_coordinates(const pmn_rules *r, int file, int rank, int *side, int *hole)
{
    int w = (int)r->holes_per_row;
    if (r->rows == 1) {
        if (file < 0 || file >= w || rank < 0 || rank > 1)
            return -1;
        *side = rank;
        *hole = rank ? w - 1 - file : file;
        return 0;
    }
    if (file < 0 || file >= w || rank < 0 || rank > 3)
        return -1;
    *side = rank < 2 ? PMN_SOUTH : PMN_NORTH;
    switch (rank) {
    case 0: *hole = file; break;
    case 1: *hole = w + (w - 1 - file); break;
    case 2: *hole = w + file; break;
    default: *hole = w - 1 - file; break;
    }
    return 0;
}

size_t pmn_hole_name_cased(const pmn_rules *r, pmn_notation n, int swap_case, int side,
                           int hole, char *buf, size_t size)
{
    size_t len = pmn_hole_name(r, n, side, hole, buf, size);
    if (swap_case && n == PMN_NOTATION_LETTERS && size >= 2)
        buf[0] = (char)(isupper((unsigned char)buf[0]) ? tolower((unsigned char)buf[0])
                                                       : toupper((unsigned char)buf[0]));
    return len;
}

size_t pmn_hole_name(const pmn_rules *r, pmn_notation n, int side, int hole, char *buf,
                     size_t size)
{
    int file, rank;
    switch (n) {
    case PMN_NOTATION_NUMBERS:
        return (size_t)snprintf(buf, size, "%d", pmn_hole_number(r, hole));
    case PMN_NOTATION_COORDINATES:
        pmn_hole_coordinates(r, side, hole, &file, &rank);
        return (size_t)snprintf(buf, size, "%c%d", 'a' + file, rank + 1);
    default:   /* most often, for every move written: no snprintf */
        if (size >= 2) {
            buf[0] = pmn_hole_letter(side, hole);
            buf[1] = '\0';
        } else if (size == 1) {
            buf[0] = '\0';
        }
        return 1;
    }
}
