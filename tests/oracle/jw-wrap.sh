#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-wrap.sh --- logs that wrap from the journal's last block back to
# s_first, tids that wrap past 2^32, and both at once.
#
# The shape (B = a free block, tids S .. S+4):
#   S    log B B+1 B+2 / revoke B+3       desc, 3 data, revoke, commit
#   S+1  log B+3 escape / log B+4 uuid / revoke B+1
#                                         desc, 2 data, revoke, commit
#   S+2  log B+1 B+5                      desc, 2 data, commit
#   S+3  revoke B                         revoke, commit
#   S+4  log B+6..B+40                    desc, 35 data, commit
# 54 log blocks, then the end.  `start` is K blocks before the journal's
# end, so the wrap falls after the log's Kth block: K = 1 puts S's
# descriptor last and its data at s_first, K = 5 the revoke block, K = 6
# S's commit, K = 11 S+1's commit, K = 16 S+3's revoke block, K = 20 S+4's
# data, K = 54 S+4's commit (the end is s_first).  With S = 4294967294 the
# tids run ffff_fffe, ffff_ffff, 0, 1, 2: S+1 revoking B+1 hides S's copy
# across the tid wrap, S+2's copy (tid 0) replays.
# Replay: B (revoked by S+3) and nothing else as it was; B+1, B+5 from S+2;
# B+2 from S; B+3 (escaped), B+4 from S+1; B+6..B+40 from S+4;
# s_sequence S+6.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

# shape CASE BASE FEATURES S K: write the shape into CASE (K = 0: no wrap).
shape() {
	_b=$(free_of "$2")
	_len=$(jlen "$2.base")
	{
		say "features $3"
		say "sequence $4"
		[ "$5" -gt 0 ] && say "start $((_len - $5))"
		cat <<-EOF
		txn
		log $_b $((_b + 1)) $((_b + 2))
		revoke $((_b + 3))
		commit
		txn
		log $((_b + 3)) escape
		log $((_b + 4)) uuid
		revoke $((_b + 1))
		commit
		txn
		log $((_b + 1)) $((_b + 5))
		commit
		txn
		revoke $_b
		commit
		txn
		log $((_b + 6))-$((_b + 40))
		commit
		EOF
	} | jcase "$1" "$2"
}

# check CASE BASE S K
check() {
	_b=$(free_of "$2")
	[ "$4" -gt 0 ] && wrapped "$1"
	e2seq "$1" $(($3 + 6))
	e2state "$1" clean
	e2old "$1" "$_b"
	e2blk "$1" $(($3 + 2)) $((_b + 1)) $((_b + 5))
	e2blk "$1" "$3" $((_b + 2))
	e2esc "$1" $(($3 + 1)) $((_b + 3))
	e2blk "$1" $(($3 + 1)) $((_b + 4))
	e2blk "$1" $(($3 + 4)) $((_b + 6)) $((_b + 23)) $((_b + 40))
}

# one CASE BASE FEATURES S K
one() {
	shape "$@"
	ocase "$1"
	check "$1" "$2" "$4" "$5"
}

bases m4 n4 n1 m1

# Both wraps, the log's wrap at every kind of block.
for k in 1 2 5 6 11 16 20 54; do
	one "both-4k-csum3-k$k" m4 "revoke 64bit csum3" 4294967294 "$k"
done
# Each wrap alone.
one wrap-4k-csum3 m4 "revoke 64bit csum3" 1 4
one tid-4k-csum3 m4 "revoke 64bit csum3" 4294967294 0
# Other formats.
for k in 1 4 6 20; do
	one "both-1k-none-k$k" n1 "" 4294967293 "$k"
done
one both-4k-csum1-k4 n4 "revoke csum1" 4294967294 4
one both-4k-csum1-k20 n4 "revoke csum1" 4294967294 20
one both-4k-csum2-k20 m4 "revoke 64bit csum2" 4294967295 20
one both-1k-async-csum3-k6 m1 "revoke 64bit async csum3" 4294967294 6
one both-4k-async-csum1-k6 n4 "revoke async csum1" 4294967294 6
# Across 2^31, where a signed comparison of raw tids would go wrong.
one sign-4k-none-k6 n4 "revoke" 2147483646 6

# One transaction larger than the room left before the end: its
# descriptors and data wrap (several descriptors with 1 KiB blocks).
b=$(free_of m1)
len=$(jlen m1.base)
jcase big-1k-csum3 m1 <<EOF
features revoke 64bit csum3
sequence 4294967295
start $((len - 50))
txn
log $b-$((b + 299))
revoke $((b + 7))
commit
txn
log $((b + 300))
commit
EOF
ocase big-1k-csum3
wrapped big-1k-csum3
e2seq big-1k-csum3 2
e2blk big-1k-csum3 4294967295 "$b" $((b + 6)) $((b + 8)) $((b + 299))
e2old big-1k-csum3 $((b + 7))
e2blk big-1k-csum3 0 $((b + 300))

# The journal's geometry as the superblock gives it: s_first 17 (the log
# wraps back to block 17, not 1), and s_maxlen 1000 in a journal inode of
# 1024 blocks (the log wraps after block 999).
derive g4 m4
jsb=$(jsb_offset g4.base)
poke g4.base $((jsb + 20)) 00000011
one first17-4k-csum3-k6 g4 "revoke 64bit csum3" 4294967294 6
e2field first17-4k-csum3-k6 "Journal first block" 17
one first17-4k-csum3-k20 g4 "revoke 64bit csum3" 4294967294 20
derive g1 n1
jsb=$(jsb_offset g1.base)
poke g1.base $((jsb + 16)) 000003e8
one maxlen1000-1k-none-k11 g1 "revoke" 4294967293 11
e2field maxlen1000-1k-none-k11 "Total journal blocks" 1000

# Revoke records against copies on both sides of the tid wrap:
#   ...fffc log X Y Z W      ...fffd log X / revoke A (never logged yet)
#   ...fffe log Y A          ...ffff log Z
#   0       revoke X Y       (hides every copy of X and Y so far)
#   1       log X            2  revoke Z    3  log W    4  log A
#   5       revoke A         (hides A at tids ...fffe and 4)
#   6       log Y
# Replay: X from 1, Y from 6, Z and A as they were, W from 3.
b=$(free_of n4)
X=$b Y=$((b + 1)) Z=$((b + 2)) W=$((b + 3)) A=$((b + 4))
jcase tidrevoke-4k n4 <<EOF
features revoke
sequence 4294967292
start $(($(jlen n4.base) - 7))
txn
log $X $Y $Z $W
commit
txn
log $X
revoke $A
commit
txn
log $Y $A
commit
txn
log $Z
commit
txn
revoke $X $Y
commit
txn
log $X
commit
txn
revoke $Z
commit
txn
log $W
commit
txn
log $A
commit
txn
revoke $A
commit
txn
log $Y
commit
EOF
ocase tidrevoke-4k
wrapped tidrevoke-4k
e2seq tidrevoke-4k 8
e2blk tidrevoke-4k 1 "$X"
e2blk tidrevoke-4k 6 "$Y"
e2blk tidrevoke-4k 3 "$W"
e2old tidrevoke-4k "$Z" "$A"

end_test
