/* annotate.h - pmn annotate's options, shared with html --annotate (annotate.c). */
#ifndef PMN_CLI_ANNOTATE_H
#define PMN_CLI_ANNOTATE_H

#include "cli.h"

/* pmn annotate's options, for the commands that annotate (annotate, html
 * --annotate): its defaults; then, once the options are read, the default
 * limit where none was given and the Annotator tag's value naming them
 * (into annotator, which ao then points to). */
void annotate_defaults(pmn_annotate_options *ao);
void annotate_finish(pmn_annotate_options *ao, char *annotator, size_t size);

#endif
