#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-sb.sh --- the journal superblock: version 1, s_errno, and the
# filesystem's needs_recovery flag.
#
#   v1-*           a v1 superblock (block type 3: no feature fields, no
#                  checksums) with s_nr_users 0: a plain replay [1]
#   v1-users       a v1 superblock as mke2fs leaves the rest of it
#                  (s_nr_users 1).  e2fsck 1.47.0 calls that "invalid V2
#                  journal superblock fields", zeroes the superblock from
#                  byte 0x24 on, replays, and then runs a full check
#                  (passes 1-5) in spite of -E journal_only, which also
#                  sets s_lastcheck and s_mnt_count.  jrecover does the
#                  replay and the zeroing and no check [1]: the results
#                  are compared without s_lastcheck (the only difference
#                  on this clean filesystem).
#   errno-log-*    s_errno -5 (or 1) with a log: the log replays, the
#                  filesystem is marked with errors, s_errno cleared [4]
#   errno-nolog    s_errno with s_start 0 and needs_recovery set [4]
#   errno-norecover
#                  s_errno with s_start 0 and needs_recovery clear: e2fsck
#                  marks the filesystem with errors and clears s_errno [4]
#   errno-baddata, errno-badcommit
#                  s_errno and a bad data checksum ("not clean with
#                  errors", s_sequence kept) or a corrupt commit [4]
#   errno-baddesc  s_errno and a bad descriptor checksum: refused [8],
#                  with -f e2fsck's result [4]
#   norecover-log  a log (s_start != 0) but needs_recovery clear: e2fsck
#                  asks "Run journal anyway?", replays it (-y) and then
#                  runs a full check, as for v1-users; the kernel would
#                  discard such a log (jbd2_journal_wipe).  jrecover
#                  refuses [8]; with -f it replays [1], compared without
#                  s_lastcheck.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

bases n4 n1 m4

# v1 CASE BASE [nrusers 0]
v1() {
	b=$(free_of "$2")
	{
		say "version 1"
		[ -n "${3:-}" ] && say "$3"
		cat <<-EOF
		txn
		log $b $((b + 1))
		revoke $((b + 1))
		commit
		txn
		log $((b + 2)) escape
		commit
		EOF
	} | jcase "$1" "$2"
}

v1 v1-4k n4 "nrusers 0"
ocase v1-4k
e2seq v1-4k 4
e2blk v1-4k 1 "$b"
e2old v1-4k $((b + 1))
e2esc v1-4k 2 $((b + 2))
v1 v1-1k n1 "nrusers 0"
ocase v1-1k
e2seq v1-1k 4
v1 v1-4k-mcsum m4 "nrusers 0"
ocase v1-4k-mcsum
e2seq v1-4k-mcsum 4

v1 v1-users n4
ocase -x s_lastcheck v1-users
e2seq v1-users 4
e2field v1-users "Journal number of users" 0
e2blk v1-users 1 "$b"

# --- s_errno ------------------------------------------------------------------
errlog() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	errno $4
	txn
	log $b
	commit
	EOF
	ocase -e 4 "$1"
	e2seq "$1" 3
	e2state "$1" "clean with errors"
	e2blk "$1" 1 "$b"
}

errlog errno-log-csum3 m4 "revoke 64bit csum3" -5
errlog errno-log-none n1 "revoke" -5
errlog errno-log-positive m4 "revoke 64bit csum3" 1

b=$(free_of m4)
jcase errno-nolog m4 <<EOF
features revoke 64bit csum3
errno -5
sequence 40
start 0
EOF
ocase -e 4 errno-nolog
e2seq errno-nolog 41
e2state errno-nolog "clean with errors"

jcase errno-norecover m4 <<EOF
features revoke 64bit csum3
errno -5
norecover
sequence 40
start 0
EOF
ocase -e 4 errno-norecover
e2seq errno-norecover 40
e2state errno-norecover "clean with errors"

# errfail CASE T2-LINES...: s_errno -5, T1 logs B, then T2.
errfail() {
	_ec=$1
	shift
	b=$(free_of m4)
	{
		printf 'features revoke 64bit csum3\nerrno -5\n'
		printf 'txn\nlog %s\ncommit\ntxn\n' "$b"
		for _el; do
			say "$_el"
		done
	} | jcase "$_ec" m4
}

b=$(free_of m4)
errfail errno-baddata "log $((b + 1)) badcsum" "log $((b + 2))" commit
ocase -e 4 errno-baddata
e2seq errno-baddata 1
e2state errno-baddata "not clean with errors"
e2blk errno-baddata 1 "$b"
e2blk errno-baddata 2 $((b + 2))
e2old errno-baddata $((b + 1))
errfail errno-badcommit "log $((b + 1))" "commit badcsum"
ocase -e 4 errno-badcommit
e2seq errno-badcommit 3
e2state errno-badcommit "clean with errors"
e2blk errno-badcommit 1 "$b"
e2old errno-badcommit $((b + 1))
errfail errno-baddesc "log $((b + 1)) baddesc" commit
ocase -e 8 errno-baddesc
e2seq errno-baddesc 1
e2state errno-baddesc "not clean with errors"
e2old errno-baddesc "$b" $((b + 1))
force_case errno-baddesc

# --- needs_recovery clear ----------------------------------------------------------
jcase norecover-log m4 <<EOF
features revoke 64bit csum3
norecover
txn
log $b
commit
EOF
ocase -e 8 norecover-log
e2seq norecover-log 3
e2blk norecover-log 1 "$b"
copy_img norecover-log.img norecover-log-f.img
[ -f norecover-log.trace ] && cp norecover-log.trace norecover-log-f.trace
ocase -o -f -x s_lastcheck norecover-log-f

end_test
