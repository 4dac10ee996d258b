/* index.h - an archive index read as an archive (index.c). */
#ifndef PMN_CLI_INDEX_H
#define PMN_CLI_INDEX_H

#include "command.h"
#include "archive.h"

/* The games of the index db that the criteria of c may take (a --reaches
 * looked up, each game found replayed to it: the rest the command's own
 * criteria judge), read from their text as archive_file reads a file's,
 * each handed to a->game as it was read (its file, line and number).
 * EXIT_CLEAN, or EXIT_FATAL when the index cannot be read (said). */
int index_archive(struct common *c, const char *db, struct archive *a);

#endif
