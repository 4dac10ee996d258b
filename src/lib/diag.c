/* diag.c - the table of diagnostics: every code pmn reports, once. */
#include "pmn.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>

/* Codes are stable: a code is never reused for another meaning.  Hundreds:
 * 0 the input as a whole, 1 reading the text, 2 replaying the moves, 3 XML
 * archives, 4 rule files. */
static const pmn_diag_info table[] = {
    { 1, PMN_FATAL, "the input cannot be read" },
    { 2, PMN_FATAL, "out of memory" },
    { 101, PMN_ERROR, "text that cannot be read" },
    { 102, PMN_ERROR, "a comment '{' that is never closed" },
    { 103, PMN_ERROR, "a '(' that is never closed" },
    { 104, PMN_ERROR, "a ')' with no '(' to close" },
    { 105, PMN_ERROR, "a malformed tag pair" },
    { 106, PMN_ERROR, "a capture count, judgement, NAG or variation that follows no move" },
    { 107, PMN_ERROR, "a result inside a variation" },
    { 108, PMN_ERROR, "the Game tag names an unknown game" },
    { 109, PMN_ERROR, "a malformed Rules tag" },
    { 110, PMN_ERROR, "a letter that names no hole" },
    { 111, PMN_WARNING, "a move number out of sequence" },
    { 112, PMN_WARNING, "a game without moves" },
    { 114, PMN_ERROR, "a malformed Position tag" },
    { 115, PMN_ERROR, "variations nested too deep" },
    { 116, PMN_ERROR, "a running total of captures that decreases" },
    { 117, PMN_WARNING, "text between games, skipped" },
    { 118, PMN_WARNING, "moves that end without a result" },
    { 119, PMN_ERROR, "moves in more than one notation" },
    { 120, PMN_WARNING, "missing move numbers" },
    { 121, PMN_WARNING, "a missing ';' between full moves" },
    { 122, PMN_WARNING, "a ';' that ends no full move" },
    { 123, PMN_ERROR, "more problems in one game than are shown" },
    { 201, PMN_ERROR, "illegal move: the hole is empty" },
    { 202, PMN_ERROR, "illegal move: a single seed while a hole holds two or more" },
    { 203, PMN_ERROR, "illegal move: a single seed into an occupied hole" },
    { 204, PMN_ERROR, "a hole of the side not to move" },
    { 205, PMN_ERROR, "the capture written differs from the capture made" },
    { 206, PMN_WARNING, "a capture the record does not write" },
    { 207, PMN_ERROR, "a move after the end of the game" },
    { 208, PMN_ERROR, "the Result tag contradicts how the game ended" },
    { 209, PMN_ERROR, "the result closing the moves differs from the Result tag" },
    { 210, PMN_WARNING, "the game ended, but no result is given" },
    { 211, PMN_NOTE, "an endless move, with its proof" },
    { 212, PMN_NOTE, "the game ended by a repeated position" },
    { 213, PMN_NOTE, "the record stops before the game ends: its result is not proved" },
    { 214, PMN_ERROR, "illegal move: the opponent has no seeds and the move gives him none" },
    { 215, PMN_NOTE, "the start position is not known: the moves are not verified" },
    { 216, PMN_ERROR, "illegal move: a grand slam, which the rules refuse" },
    { 217, PMN_ERROR, "a sowing joined by '-' that was not earned" },
    { 218, PMN_WARNING, "an earned sowing written as a move of its own, not joined by '-'" },
    { 301, PMN_WARNING, "text that XML cannot hold, written as U+FFFD" },
    { 302, PMN_ERROR, "malformed XML" },
    { 303, PMN_ERROR, "a document type declaration (DTD), refused" },
    { 304, PMN_ERROR, "not a pmn archive" },
    { 305, PMN_ERROR, "an element with no place where it stands" },
    { 306, PMN_ERROR, "an attribute or element value that is not valid" },
    { 307, PMN_ERROR, "an archive that does not match the schema" },
    { 401, PMN_ERROR, "a rule file that is not well-formed XML, or has a DTD" },
    { 402, PMN_ERROR, "a rule file that does not match its schema (grammar/rules.rng)" },
    { 403, PMN_ERROR, "a rule option whose value is out of range" },
    { 404, PMN_ERROR, "rules the engine cannot play: mechanisms that do not go together" },
};

const pmn_diag_info *pmn_diag_table(size_t *n)
{
    *n = COUNT(table);
    return table;
}

const pmn_diag_info *pmn_diag_lookup(int code)
{
    for (size_t i = 0; i < COUNT(table); i++)
        if (table[i].code == code)
            return &table[i];
    return NULL;
}

const char *pmn_severity_string(pmn_severity s)
{
    static const char *const name[] = { "note", "warning", "error", "fatal" };
    return (unsigned)s < COUNT(name) ? name[s] : "error";
}

void pmn_diag_code_name(int code, char buf[8])
{
    static const char letter[] = "NWEF";
    const pmn_diag_info *d = pmn_diag_lookup(code);
    snprintf(buf, 8, "%c%03d", d ? letter[d->severity] : 'E', code);
}

void pmn_report(pmn_diag_fn fn, void *ctx, int code, unsigned line, unsigned col,
                const char *fmt, ...)
{
    pmn_diag d;
    va_list ap;
    const pmn_diag_info *info = pmn_diag_lookup(code);
    if (!fn)
        return;
    d.code = code;
    d.severity = info ? info->severity : PMN_ERROR;
    d.line = line;
    d.col = col;
    va_start(ap, fmt);
    vsnprintf(d.message, sizeof d.message, fmt, ap);
    va_end(ap);
    fn(ctx, &d);
}
