#!/bin/sh
# cli-1.sh - the first half of the command line's cases (tests/cli.sh), so
# that make -j2 runs the two halves side by side.
PMN_TEST_PART=1/2 exec sh "${top_srcdir:-.}/tests/cli.sh"
