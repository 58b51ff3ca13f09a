#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-ends.sh --- where and how the log ends: an uncommitted last
# transaction, garbage, a block with the wrong tid, stale blocks of an
# earlier lap of the log, a corrupt commit block in the middle, and stale
# commit blocks (older commit time) after a checksum failure.
#
# What e2fsck 1.47.0 does, and so jrecover (exit status in brackets):
#   uncommitted-*   the last transaction has no commit block: it is not
#                   replayed, its revoke records count not [1]
#   nocommit-only   no complete transaction: nothing replayed, the journal
#                   reset (s_sequence + 1) [1]
#   garbage-*       a block without the magic ends the log [1]
#   wrongtid-*      a header with another tid ends the log: the next tid
#                   skipped, an old tid, the same tid again [1]
#   lap-*           jwrite run twice: the second log ends (no terminator)
#                   where blocks of the first one follow; their tids do not
#                   continue the sequence [1], or do (lap-continue: that
#                   old transaction is part of the log as far as the format
#                   can tell, and is replayed) [1]
#   startzero       s_start 0 with a log behind it: nothing to replay,
#                   s_sequence + 1 [1]
#   firsttid        the first block's tid is not s_sequence [1]
#   badcommit-*     T2's commit block fails its checksum (v1 crc32, v2/v3
#                   crc32c, a zeroed v2/v3 checksum, the same commit time
#                   as T1's): the log ends after T1, T3 is lost, the
#                   filesystem is marked with errors, s_sequence T1 + 2 [4]
#   badcommit-last-*
#                   the same with the bad commit block last [4]
#   csum1-zero      COMPAT_CHECKSUM with h_chksum_type/size/[0] all zero:
#                   "no checksum", accepted [1]
#   csum1-type2     COMPAT_CHECKSUM, the right crc32 but h_chksum_type 2
#                   (md5): not a checksum e2fsck accepts, corrupt [4]
#   csum3-type4     csum v3 with h_chksum_type/size 4/4 (the kernel
#                   writes 0/0): covered by the checksum, accepted [1]
#   type7, type6    a block with the magic and the right tid but an
#                   unknown type (6: a fast-commit block, outside the
#                   fast-commit area) where T2's commit would be: the log
#                   ends, T2 is not replayed [1]
#   stale-*         a checksum failure (commit, descriptor, revoke block)
#                   in a transaction whose commit time is older than the
#                   previous transaction's: a leftover of an earlier lap,
#                   the log ends quietly before it [1]
#   async-*         ASYNC_COMMIT: a bad v3 commit checksum ends the log
#                   quietly [1]; v1: quietly if it is the last commit block
#                   (async-csum1-last; async-csum1-trailing: an uncommitted
#                   transaction follows) [1], corrupt if another commit
#                   follows [4]
#   baddesc-uncommitted, badrevoke-uncommitted
#                   a bad descriptor or revoke block checksum in the
#                   uncommitted last transaction is never looked at [1]

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

bases m4 n4 n1 m1

# --- uncommitted, garbage, wrong tids ------------------------------------------

b=$(free_of m4)
for f in "revoke 64bit csum3" "revoke"; do
	c=uncommitted-$(say "$f" | tr -d ' ')
	jcase "$c" m4 <<-EOF
	features $f
	txn
	log $b $((b + 1))
	commit
	txn
	log $((b + 2))
	revoke $b
	log $((b + 1))
	nocommit
	EOF
	ocase "$c"
	e2seq "$c" 3
	e2blk "$c" 1 "$b" $((b + 1))
	e2old "$c" $((b + 2))
done

jcase nocommit-only m4 <<EOF
features revoke 64bit csum3
sequence 77
txn
log $b
nocommit
EOF
ocase nocommit-only
e2seq nocommit-only 78
e2old nocommit-only "$b"

b=$(free_of n1)
jcase garbage-1k n1 <<EOF
features revoke
txn
log $b
commit
garbage
txn
log $((b + 1))
commit
EOF
ocase garbage-1k
e2seq garbage-1k 3
e2blk garbage-1k 1 "$b"
e2old garbage-1k $((b + 1))

# A garbage block where T2's descriptor would be; T2 follows it.
b=$(free_of m4)
jcase garbage-csum3 m4 <<EOF
features revoke 64bit csum3
txn
log $b
revoke $((b + 5))
commit
garbage
txn
log $((b + 1))
commit
EOF
ocase garbage-csum3
e2seq garbage-csum3 3
e2blk garbage-csum3 1 "$b"
e2old garbage-csum3 $((b + 1))

# wrongtid CASE BASE FEATURES TID: T1, then a transaction with TID.
wrongtid() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	sequence 1000
	txn
	log $b
	commit
	txn $4
	log $((b + 1))
	commit
	txn
	log $((b + 2))
	commit
	EOF
	ocase "$1"
	e2seq "$1" 1002
	e2blk "$1" 1000 "$b"
	e2old "$1" $((b + 1)) $((b + 2))
}

wrongtid wrongtid-skip-csum3 m4 "revoke 64bit csum3" 1002
wrongtid wrongtid-old-none n4 "revoke" 999
wrongtid wrongtid-same-csum2 m1 "revoke 64bit csum2" 1000
# A commit block alone with the wrong tid, then the right transaction.
b=$(free_of n4)
jcase wrongtid-commit n4 <<EOF
txn
log $b
commit
raw c03b3998 00000002 00000007
txn 2
log $((b + 1))
commit
EOF
ocase wrongtid-commit
e2seq wrongtid-commit 3
e2blk wrongtid-commit 1 "$b"
e2old wrongtid-commit $((b + 1))

# --- stale laps ----------------------------------------------------------------
# lap CASE BASE FEATURES TID: the first jwrite run writes transactions
# TID and TID+1 from journal block 19 (B+10, B+11); the second writes tids
# 200..202 (3 + 3 + 5 log blocks) from block 8 with no terminator, so its
# log ends at block 19, where the first run's blocks are.
lap() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	sequence $4
	start 19
	txn
	log $((b + 10))
	commit
	txn
	log $((b + 11))
	commit
	EOF
	_lj=
	[ -f "$1.jdev" ] && _lj="-j $1.jdev"
	# shellcheck disable=SC2086
	"$JWRITE" $_lj "$1.img" <<-EOF || die "jwrite (second lap) failed"
	features $3
	noend
	sequence 200
	start 8
	txn
	log $b
	commit
	txn
	log $((b + 1))
	commit
	txn
	log $((b + 2)) $b
	revoke $((b + 1))
	commit
	EOF
}

lap lap-old-csum3 m4 "revoke 64bit csum3" 100
ocase lap-old-csum3
e2seq lap-old-csum3 204
e2blk lap-old-csum3 202 "$b" $((b + 2))
e2old lap-old-csum3 $((b + 1)) $((b + 10)) $((b + 11))
lap lap-continue-none n4 "revoke" 203
ocase lap-continue-none
e2seq lap-continue-none 206
e2blk lap-continue-none 202 "$b" $((b + 2))
e2blk lap-continue-none 203 $((b + 10))
e2blk lap-continue-none 204 $((b + 11))
e2old lap-continue-none $((b + 1))

# --- the start -------------------------------------------------------------------
b=$(free_of m4)
jcase startzero m4 <<EOF
features revoke 64bit csum3
sequence 5
start 0
txn
log $b
commit
EOF
ocase startzero
e2seq startzero 6
e2old startzero "$b"

jcase firsttid m4 <<EOF
features revoke 64bit csum3
sequence 10
txn 11
log $b
commit
EOF
ocase firsttid
e2seq firsttid 11
e2old firsttid "$b"

# --- corrupt commit blocks -----------------------------------------------------------
# badcommit CASE BASE FEATURES COMMIT-OPTIONS: T1 logs B, B+1; T2 logs
# B+2, B (its commit block damaged); T3 logs B+3.
badcommit() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	txn
	log $b $((b + 1))
	commit time=1800000000
	txn
	log $((b + 2)) $b
	commit $4
	txn
	log $((b + 3))
	commit time=1800000002
	EOF
	ocase -e 4 "$1"
	e2seq "$1" 3
	e2state "$1" "clean with errors"
	e2blk "$1" 1 "$b" $((b + 1))
	e2old "$1" $((b + 2)) $((b + 3))
}

badcommit badcommit-csum1 n4 "revoke csum1" "badcsum time=1800000001"
badcommit badcommit-csum1-1k n1 "revoke csum1" "badcsum time=1800000001"
badcommit badcommit-csum2 m4 "revoke csum2" "badcsum time=1800000001"
badcommit badcommit-csum2-64 m1 "revoke 64bit csum2" "badcsum time=1800000001"
badcommit badcommit-csum3 m4 "revoke 64bit csum3" "badcsum time=1800000001"
badcommit badcommit-csum3-1k m1 "revoke csum3" "badcsum time=1800000001"
badcommit badcommit-zero-csum3 m4 "revoke 64bit csum3" "zerocsum time=1800000001"
badcommit badcommit-sametime-csum3 m4 "revoke 64bit csum3" "badcsum time=1800000000"
badcommit badcommit-sametime-csum1 n4 "revoke csum1" "badcsum time=1800000000"

# badlast CASE BASE FEATURES: T2, the last transaction, has a bad commit.
badlast() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	txn
	log $b
	commit
	txn
	log $((b + 1))
	commit badcsum
	EOF
	ocase -e 4 "$1"
	e2seq "$1" 3
	e2state "$1" "clean with errors"
	e2blk "$1" 1 "$b"
	e2old "$1" $((b + 1))
}

badlast badcommit-last-csum3 m4 "revoke 64bit csum3"
badlast badcommit-last-csum1 n1 "revoke csum1"

b=$(free_of n4)
jcase csum1-type2 n4 <<EOF
features revoke csum1
txn
log $b
commit
txn
log $((b + 1))
commit type=2
EOF
ocase -e 4 csum1-type2
e2seq csum1-type2 3
e2state csum1-type2 "clean with errors"
e2blk csum1-type2 1 "$b"
e2old csum1-type2 $((b + 1))

b=$(free_of m4)
jcase csum3-type4 m4 <<EOF
features revoke 64bit csum3
txn
log $b
commit type=4 size=4
EOF
ocase csum3-type4
e2seq csum3-type4 3
e2blk csum3-type4 1 "$b"

# debugfs 1.47.0's logdump never gets past a block with the magic, the
# expected tid and a type it does not know: it prints the same two lines
# forever, and show_journal would fill the disk with them.  Cap what
# debugfs may print for these two cases.
# shellcheck disable=SC2317	# called by lib.sh's show_journal
debugfs() {
	command debugfs "$@" | head -c 200000
}
for t in 7 6; do
	jcase "type$t" m4 <<-EOF
	features revoke 64bit csum3
	txn
	log $b
	commit
	txn
	log $((b + 1))
	raw c03b3998 0000000$t 00000002
	commit
	EOF
	ocase "type$t"
	e2seq "type$t" 3
	e2blk "type$t" 1 "$b"
	e2old "type$t" $((b + 1))
done
unset -f debugfs

b=$(free_of n4)
jcase csum1-zero n4 <<EOF
features revoke csum1
txn
log $b
commit
txn
log $((b + 1))
commit zerocsum
EOF
ocase csum1-zero
e2seq csum1-zero 4
e2blk csum1-zero 1 "$b"
e2blk csum1-zero 2 $((b + 1))

# --- stale transactions after a checksum failure -------------------------------------
# stale CASE BASE FEATURES LOG-OPT REVOKE-OPT COMMIT-OPT: T2 (commit time
# older than T1's) fails a checksum; T3 would be newer again.
stale() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	txn
	log $b
	commit time=1800000000
	txn
	log $((b + 1)) $4
	revoke $b $5
	commit time=1700000000 $6
	txn
	log $((b + 2))
	commit time=1800000002
	EOF
	ocase "$1"
	e2seq "$1" 3
	e2state "$1" clean
	e2blk "$1" 1 "$b"
	e2old "$1" $((b + 1)) $((b + 2))
}

stale stale-commit-csum3 m4 "revoke 64bit csum3" "" "" badcsum
stale stale-commit-csum2 m1 "revoke csum2" "" "" badcsum
stale stale-commit-csum1 n4 "revoke csum1" "" "" badcsum
stale stale-desc-csum3 m4 "revoke 64bit csum3" baddesc "" ""
stale stale-revoke-csum3 m4 "revoke 64bit csum3" "" badcsum ""
stale stale-desc-csum2 m1 "revoke 64bit csum2" baddesc "" ""

# --- async commit ---------------------------------------------------------------------
# async CASE BASE FEATURES LAST: T2's commit is bad; LAST=1: T2 is the
# last transaction.
async() {
	b=$(free_of "$2")
	{
		cat <<-EOF
		features $3
		txn
		log $b
		commit
		txn
		log $((b + 1))
		commit badcsum
		EOF
		[ "$4" = 1 ] || printf 'txn\nlog %s\ncommit\n' $((b + 2))
	} | jcase "$1" "$2"
}

async async-csum3 m4 "revoke 64bit async csum3" 0
ocase async-csum3
e2seq async-csum3 3
e2state async-csum3 clean
e2blk async-csum3 1 "$b"
e2old async-csum3 $((b + 1)) $((b + 2))
async async-csum1-last n4 "revoke async csum1" 1
ocase async-csum1-last
e2seq async-csum1-last 3
e2state async-csum1-last clean
e2blk async-csum1-last 1 "$b"
e2old async-csum1-last $((b + 1))
b=$(free_of n4)
jcase async-csum1-trailing n4 <<EOF
features revoke async csum1
txn
log $b
commit
txn
log $((b + 1))
commit badcsum
txn
log $((b + 2))
revoke $b
nocommit
EOF
ocase async-csum1-trailing
e2seq async-csum1-trailing 3
e2state async-csum1-trailing clean
e2blk async-csum1-trailing 1 "$b"
e2old async-csum1-trailing $((b + 1)) $((b + 2))
async async-csum1-more n4 "revoke async csum1" 0
ocase -e 4 async-csum1-more
e2seq async-csum1-more 3
e2state async-csum1-more "clean with errors"
e2blk async-csum1-more 1 "$b"
e2old async-csum1-more $((b + 1)) $((b + 2))

# --- checksum failures past the end of the log ------------------------------------------
b=$(free_of m4)
jcase baddesc-uncommitted m4 <<EOF
features revoke 64bit csum3
txn
log $b
commit
txn
log $((b + 1)) baddesc
nocommit
EOF
ocase baddesc-uncommitted
e2seq baddesc-uncommitted 3
e2blk baddesc-uncommitted 1 "$b"
e2old baddesc-uncommitted $((b + 1))

jcase badrevoke-uncommitted m4 <<EOF
features revoke 64bit csum3
txn
log $b
commit
txn
revoke $b badcsum
nocommit
EOF
ocase badrevoke-uncommitted
e2seq badrevoke-uncommitted 3
e2blk badrevoke-uncommitted 1 "$b"

end_test
