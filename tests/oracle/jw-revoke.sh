#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-revoke.sh --- revoke records: a record (block B, tid R) hides every
# copy of B logged at a tid <= R, in earlier transactions and in R itself
# (before or after the record); copies logged after R replay.
#
#   mix-*      one journal with the common shapes (below), in four formats
#   r64-4k64   a 64bit journal revoking B + 2^32 and B + 1 + 2^33 (past
#              the filesystem's end): they must not hide B and B + 1
#   r32-4k64   a 32-bit journal (4-byte records) on a 64-bit filesystem
#   rcount-*   r_count below the header (no records), exactly the header,
#              ending inside a record (that record does not count), and
#              the largest allowed (the whole block, or up to the tail)
#
# The mix shape (tids 1..10; X logged many times and revoked in between):
#   T1  log X Y Z P
#   T2  revoke X / revoke Q / log Q / revoke Q  (Q revoked before and
#       after its log in the same transaction: both records hide it)
#   T3  log X / revoke N..N+699 (never logged: several revoke blocks)
#   T4  log Y / revoke X            T5  log X (re-logged after the revoke)
#   T6  revoke Z / log R / revoke P / log S  (descriptors and revoke
#       blocks interleaved)
#   T7  (empty: a commit block alone)
#   T8  log X Q                     T9  revoke X / log Z
#   T10 log P / revoke Y / nocommit (uncommitted: its revoke counts not)
# Replay: X old (T8's copy revoked by T9), P old (revoked by T6), Y from
# T4, Z from T9, Q from T8 (logged again after T2's revokes), R and S from
# T6; s_sequence 11.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

bases m4 n4 n1 m1

mix() {
	b=$(free_of "$2")
	X=$b Y=$((b + 1)) Z=$((b + 2)) P=$((b + 3)) Q=$((b + 4))
	R=$((b + 5)) S=$((b + 6)) N=$((b + 100))
	jcase "$1" "$2" <<-EOF
	features $3
	txn
	log $X $Y $Z $P
	commit
	txn
	revoke $X
	revoke $Q
	log $Q
	revoke $Q
	commit
	txn
	log $X
	revoke $N-$((N + 699))
	commit
	txn
	log $Y
	revoke $X
	commit
	txn
	log $X
	commit
	txn
	revoke $Z
	log $R
	revoke $P
	log $S
	commit
	txn
	commit
	txn
	log $X $Q
	commit
	txn
	revoke $X
	log $Z
	commit
	txn
	log $P
	revoke $Y
	nocommit
	EOF
	ocase "$1"
	e2seq "$1" 11
	e2old "$1" "$X" "$P"
	e2blk "$1" 4 "$Y"
	e2blk "$1" 9 "$Z"
	e2blk "$1" 8 "$Q"
	e2blk "$1" 6 "$R" "$S"
}

mix mix-4k64-csum3 m4 "revoke 64bit csum3"
mix mix-1k32-none n1 "revoke"
mix mix-4k32-csum1 n4 "revoke csum1"
mix mix-1k64-csum2 m1 "revoke 64bit csum2"

# --- 64-bit records ------------------------------------------------------------
b=$(free_of m4)
jcase r64-4k64 m4 <<EOF
features revoke 64bit csum3
allow-past-end
txn
log $b $((b + 1))
commit
txn
revoke $((b + 4294967296)) $((b + 1 + 8589934592))
revoke $((b + 2))
commit
txn
log $((b + 2))
commit
EOF
ocase r64-4k64
e2seq r64-4k64 5
e2blk r64-4k64 1 "$b" $((b + 1))
e2blk r64-4k64 3 $((b + 2))

jcase r32-4k64 m4 <<EOF
features revoke csum3
txn
log $b $((b + 1))
commit
txn
revoke $((b + 1))
commit
EOF
ocase r32-4k64
e2seq r32-4k64 4
e2blk r32-4k64 1 "$b"
e2old r32-4k64 $((b + 1))

# --- r_count ---------------------------------------------------------------------
# rcount CASE BASE FEATURES RCOUNT: T1 logs B..B+3, T2's revoke block
# names B, B+1, B+2 but stores RCOUNT; expect the records that fit in it.
rcount() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	txn
	log $b-$((b + 3))
	commit
	txn
	rcount $4
	revoke $b $((b + 1)) $((b + 2))
	commit
	EOF
	ocase "$1"
	e2seq "$1" 4
}

# 4-byte records (no 64bit): 8 and 16 mean none, 22 one (the second would
# end at byte 24), 28 all three.
for rc in 8 16 22 28; do
	rcount "rcount$rc-4k32" n4 "revoke" "$rc"
done
e2blk rcount8-4k32 1 "$b" $((b + 1)) $((b + 2))
e2blk rcount16-4k32 1 "$b" $((b + 1)) $((b + 2))
e2old rcount22-4k32 "$b"
e2blk rcount22-4k32 1 $((b + 1)) $((b + 2))
e2old rcount28-4k32 "$b" $((b + 1)) $((b + 2))
# 8-byte records: 31 holds one (the second would end at 32), 32 two.
rcount rcount31-1k64-csum2 m1 "revoke 64bit csum2" 31
rcount rcount32-1k64-csum2 m1 "revoke 64bit csum2" 32
b=$(free_of m1)
e2old rcount31-1k64-csum2 "$b"
e2blk rcount31-1k64-csum2 1 $((b + 1)) $((b + 2))
e2old rcount32-1k64-csum2 "$b" $((b + 1))
e2blk rcount32-1k64-csum2 1 $((b + 2))
# The largest r_count allowed: the whole block without a tail (the zeroed
# rest of the block revokes block 0), up to the tail with csum v2/v3.
rcount rcountmax-4k32 n4 "revoke" 4096
b=$(free_of n4)
e2old rcountmax-4k32 "$b" $((b + 1)) $((b + 2))
rcount rcountmax-1k64-csum3 m1 "revoke 64bit csum3" 1020
b=$(free_of m1)
e2old rcountmax-1k64-csum3 "$b" $((b + 1)) $((b + 2))

end_test
