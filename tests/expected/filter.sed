# SPDX-License-Identifier: LGPL-2.1-or-later
#
# filter.sed --- what tests/cli/golden.sh takes out of jrecover's output
# before comparing it with tests/expected/*.out: only what changes from one
# run to the next.  Each rule says what it replaces; add one here (never in
# an expected file) when output gains a volatile field.
#
# The elapsed time at the end of a report: "...; 0.01 s" -> "...; N.NN s".
s/; [0-9][0-9]*\.[0-9][0-9]* s$/; N.NN s/
# The same in --json: "seconds":0.070 -> "seconds":N.NNN
s/"seconds":[0-9][0-9]*\.[0-9]*/"seconds":N.NNN/g
# How many journal blocks the scan's read-ahead thread hinted depends on
# how far it got before the scan ended: "Read ahead: 1023 journal blocks"
# -> "N journal blocks", "readahead_blocks":1023 -> "readahead_blocks":N
s/^\(Read ahead: *\)[0-9][0-9]* journal blocks$/\1N journal blocks/
s/"readahead_blocks":[0-9][0-9]*/"readahead_blocks":N/g
# getopt names the binary by its path (libtool's .libs/jrecover or
# lt-jrecover in a build tree, the installed path otherwise).
s|^[^ :]*/\(lt-\)\{0,1\}jrecover: |jrecover: |
