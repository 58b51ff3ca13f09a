#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-findings.sh --- journals on which jrecover and e2fsck 1.47.0 part
# ways.  The expectations are e2fsck's (the oracle).  make check runs it as
# an expected failure (XFAIL_TESTS in tests/oracle/Makefile.inc): it reports
# XFAIL while any case still differs, and XPASS, which .ci/run counts as a
# failure, once all agree; then it joins the other oracle tests.  By hand:
# make check TESTS=tests/oracle/jw-findings.sh.
#
#   fc-kernel-wrap  FAST_COMMIT journal (mke2fs -O fast_commit: s_maxlen
#                   1040, s_num_fc_blks 16), the log written as the kernel
#                   writes it, wrapping after block s_maxlen - 16 - 1 =
#                   1023 to s_first: T1's descriptor and data at 1021-1023,
#                   its commit block at 1.  e2fsck 1.47.0 wraps at s_maxlen
#                   (its recovery.c wrap() uses j_fc_last), reads the empty
#                   fast-commit area, finds no commit block and replays
#                   nothing: s_sequence 2, needs_recovery cleared, blocks B
#                   and B+1 untouched.  jrecover wraps at 1024, replays T1
#                   (B, B+1) and writes s_sequence 3.
#   fc-maxlen-wrap  the same journal with the log in e2fsck's shape: s_start
#                   1037, inside the fast-commit area, wrapping at s_maxlen
#                   1040.  e2fsck replays T1 (s_sequence 3); jrecover
#                   refuses with exit 8 ("Journal superblock s_start lies
#                   outside the log") and writes nothing, although e2fsck's
#                   recovery does not fail.
#   nrusers2        an internal journal (v2, no checksums) with s_nr_users 2.
#                   e2fsck, the filesystem having no s_journal_uuid, calls
#                   them "invalid V2 journal superblock fields", zeroes the
#                   superblock from byte 0x24 on (as for v1-users in
#                   jw-sb.sh), replays and runs a full check (so s_lastcheck
#                   is left out of the comparison).  jrecover refuses with
#                   exit 8 ("Journal is shared by more than one filesystem").

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

base fc4 16M -b 4096 -O 64bit,metadata_csum,fast_commit
base n4 16M -b 4096 -O ^64bit,^metadata_csum

b=$(free_of fc4)
len=$(jlen fc4.base)
jcase fc-kernel-wrap fc4 <<EOF
features revoke 64bit csum3 fast_commit
start $((len - 16 - 3))
txn
log $b $((b + 1))
commit
EOF
ocase fc-kernel-wrap
e2seq fc-kernel-wrap 2
e2old fc-kernel-wrap "$b" $((b + 1))

jcase fc-maxlen-wrap fc4 <<EOF
features revoke 64bit csum3 fast_commit
logend $len
start $((len - 3))
txn
log $b $((b + 1))
commit
EOF
ocase fc-maxlen-wrap
e2seq fc-maxlen-wrap 3
e2blk fc-maxlen-wrap 1 "$b" $((b + 1))

b=$(free_of n4)
jcase nrusers2 n4 <<EOF
features revoke
nrusers 2
txn
log $b $((b + 1))
revoke $((b + 1))
commit
EOF
ocase -x s_lastcheck nrusers2
e2seq nrusers2 3
e2field nrusers2 "Journal number of users" 0
e2blk nrusers2 1 "$b"
e2old nrusers2 $((b + 1))

end_test
