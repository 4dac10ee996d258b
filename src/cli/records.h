/* records.h - rules, positions and records (records.c). */
#ifndef PMN_CLI_RECORDS_H
#define PMN_CLI_RECORDS_H

#include "io.h"

/* Apply one --rules SPEC (a specification, or a rule file) on *r, or
 * report it and return the exit status. */
int apply_rules_option(const char *cmd, pmn_rules *r, const char *spec);
/* Does a --rules value name a rule file (it ends in ".xml" or holds a '/')
 * rather than give a specification? */
int is_rule_file(const char *spec);
/* Read a rule file, reporting what is wrong with it; 0, or an exit status. */
int read_rule_file(const char *path, pmn_rule_file **out);

/* The position given as `what` (or the opening one when text is NULL),
 * read under rules *r. */
int position_option(const char *cmd, const char *what, pmn_rules *r,
                    const char *text, pmn_position *p);

/* The --rules options of a command: a rule file replaces each record's
 * own rules, specifications apply over them (pmn_setup_record). */
#define MAX_RULES_OPTIONS 16
struct rules_options {
    const char *spec[MAX_RULES_OPTIONS];
    const char *positions[MAX_RULES_OPTIONS];   /* --position EVENT=POSITION */
    pmn_rules file;
    pmn_setup_options setup;  /* points into the above */
};
int add_rules_option(const char *cmd, struct rules_options *o, const char *spec);
/* cli_setters: --rules over records' own, one more into a struct
 * rules_options; --rules of a rule set, applied over a pmn_rules (--from
 * and --to: format_option, options.h). */
int rules_over_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest);
/* --position: POSITION for every game, or EVENT=POSITION for the game of
 * that Event (may be repeated), into a struct rules_options. */
int start_position_option(const char *cmd, const struct cli_option *o, const char *arg,
                          void *dest);
int rules_set_option(const char *cmd, const struct cli_option *o, const char *arg, void *dest);
/* The formats records are read from and written in (--from, --to): PMN,
 * XML, and other programs' (FORMAT_OGN on, in pmn_format's order): the
 * library's PMN_SOURCE_* (pmn_source). */
enum { FORMAT_AUTO = PMN_SOURCE_AUTO, FORMAT_PMN = PMN_SOURCE_PMN, FORMAT_XML = PMN_SOURCE_XML,
       FORMAT_OGN = PMN_SOURCE_FOREIGN };
/* (FORMAT_OGN + f for each pmn_format f: the library's table is the list.) */
#define FOREIGN_FORMAT(format) ((pmn_format)((format) - FORMAT_OGN))
/* "pmn, ogn, ... or awari", from the library's table of notations
 * (pmn_format_name); help texts write it as {formats}, and the file names'
 * ends that say one (".ogn, .pgn") as {extensions}. */
const char *format_names(void);
const char *format_extensions(void);
/* Does one of these names say a format other than PMN (read by one job:
 * --jobs cuts PMN text only)? */
int names_foreign(char **names, int n);
/* The records of an input, in any format (FORMAT_AUTO: found by
 * pmn_source_detect, a notation said by N133; a part of a file read apart,
 * s->part, is PMN), their diagnostics through print_diag to s
 * (source_open) or through fn (source_open_to); failures to s.  0, or -1
 * (reported, src->src NULL) when memory runs out. */
struct source {
    pmn_source *src;
    int format;               /* FORMAT_*: what it is read as */
};
/* The options of the source of s's input, with the games set up by o (NULL:
 * none): format, the name, and where a part of a file (s->part) begins. */
pmn_source_options source_options(const struct diag_sink *s, const struct rules_options *o,
                                  int format);
int source_open(struct source *src, FILE *f, struct diag_sink *s, const struct rules_options *o,
                int format);
int source_open_to(struct source *src, FILE *f, struct diag_sink *s,
                   const struct rules_options *o, int format, pmn_diag_fn fn, void *ctx);
/* An XML archive, each game checked against the schema where validate
 * says (pmn import --validate). */
int source_open_xml(struct source *src, FILE *f, struct diag_sink *s, int validate);
int source_next(struct source *src, pmn_record *rec);
/* A Score tag (an OGN result: "25-20") against the seeds the replay ended
 * with: E221 where they differ; where they agree and drop is set, the tag
 * goes (the replay proves it).  Returns 1 if it differed. */
int check_score(pmn_record *rec, const pmn_replay *replay, struct diag_sink *s, int drop);
void source_close(struct source *src);

/* Set rec up with o and replay it, reporting through s (NULL: silently);
 * NULL when memory runs out (reported). */
pmn_replay *replay_record(const pmn_record *rec, const struct rules_options *o,
                          struct diag_sink *s);

#endif
