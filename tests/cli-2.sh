#!/bin/sh
# cli-2.sh - the second half of the command line's cases (tests/cli.sh), so
# that make -j2 runs the two halves side by side.
PMN_TEST_PART=2/2 exec sh "${top_srcdir:-.}/tests/cli.sh"
