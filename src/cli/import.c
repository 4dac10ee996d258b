/* import.c - pmn import: an XML archive back to canonical PMN. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>

static void help(void)
{
    printf("Usage: pmn import [OPTIONS] [FILE...]\n\n"
           "Read XML archives as pmn export writes them (standard input if none, or -)\n"
           "and write their games as canonical PMN: PMN -> XML -> PMN gives the canonical\n"
           "PMN of the input.  What the engine computed is not read.  Archives are read\n"
           "one game at a time; no network, DTD or entity is ever used, and malformed\n"
           "XML is reported with its line and column.\n\n"
           "Options:\n"
           "      --validate         check the archive against its RELAX NG schema\n"
           "  -n, --notation=NAME    letters (the default), numbers or coordinates\n"
           "  -c, --capture-style=S  plus for (+N) (the default), or x for (xN)\n"
           "  -o, --output=FILE      write to FILE instead of standard output\n"
           "  -h, --help             show this help\n");
}

struct import {
    pmn_write_options wo;
    int validate;
    FILE *out;
    unsigned long games;
    int failed;
};

static void import_file(FILE *f, struct diag_sink *sink, void *ctx)
{
    struct import *im = ctx;
    pmn_xml_reader *x = pmn_xml_reader_new(f, sink->file, im->validate, print_diag, sink);
    pmn_record rec;
    if (!x) {
        pmn_diag d;
        pmn_diag_make(&d, PMN_F002, 0, 0, "out of memory");
        print_diag(sink, &d);
        return;
    }
    while (pmn_xml_reader_next(x, &rec) > 0) {
        if (im->games++)
            fputc('\n', im->out);
        if (pmn_write_record(im->out, &rec, NULL, &im->wo) < 0)
            im->failed = 1;
        pmn_record_free(&rec);
    }
    pmn_xml_reader_free(x);
}

int cmd_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "validate", no_argument, NULL, 'V' },
        { "notation", required_argument, NULL, 'n' },
        { "capture-style", required_argument, NULL, 'c' },
        { "output", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct import im = { .out = stdout };
    struct diag_sink sink = { "-", { 0 }, 1 };
    const char *output = NULL;
    int c, rc;
    pmn_write_options_init(&im.wo);

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:c:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'V': im.validate = 1; break;
        case 'n':
            if ((rc = notation_option("import", optarg, &im.wo)) != 0)
                return rc;
            break;
        case 'c':
            if ((rc = capture_style_option("import", optarg, &im.wo)) != 0)
                return rc;
            break;
        case 'o': output = optarg; break;
        case 'h': help(); return EXIT_CLEAN;
        default: return bad_option("import", c, argv);
        }
    }
    if (!(im.out = open_output(output)))
        return EXIT_FATAL;
    each_input(argv + optind, argc - optind, &sink, import_file, &im);
    return close_output(im.out, output, im.failed, exit_status(&sink));
}
