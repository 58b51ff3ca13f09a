#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-csum.sh --- data blocks whose tag checksum (journal checksum v2: 16
# bits, v3: 32 bits) does not match.  e2fsck 1.47.0 skips such a block,
# replays everything else, says "Journal checksum error", and calls the
# recovery failed: the filesystem is left "not clean" and s_sequence as it
# was.  jrecover does the same and exits 4.
#
#   baddata-*       T1 logs B, B+1 (bad), B+2; T2 logs B+3
#   baddata-relog   T1's bad copy of B, T2's good copy: B from T2, but the
#                   recovery still failed [4]
#   baddata-revoked T1's bad copy of B is revoked by T2: a revoked block
#                   is never checked, so nothing failed [1]
#   baddata-escape  an escaped block with a bad checksum [4]
#   baddata-uncommitted
#                   the bad block is in the uncommitted last transaction:
#                   never looked at [1]
#   baddata-many    bad blocks in three transactions, one wrapped [4]
#   baddata-badcommit
#                   a bad data block in T1 and a corrupt commit in T2 [4]
#   baddata-dup-*   a block logged twice, the later copy bad: e2fsck has
#                   written the earlier copy when it skips the later one,
#                   so the block holds the earlier copy, not the old
#                   contents; in one transaction (B good then bad, C bad
#                   then good) and in two [4]

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

bases m4 k4 m1 k1

baddata() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	txn
	log $b
	log $((b + 1)) badcsum
	log $((b + 2))
	commit
	txn
	log $((b + 3))
	commit
	EOF
	ocase -e 4 "$1"
	e2seq "$1" 1
	e2state "$1" "not clean"
	e2blk "$1" 1 "$b" $((b + 2))
	e2blk "$1" 2 $((b + 3))
	e2old "$1" $((b + 1))
}

baddata baddata-csum2-4k32 k4 "revoke csum2"
baddata baddata-csum2-1k64 m1 "revoke 64bit csum2"
baddata baddata-csum3-4k64 m4 "revoke 64bit csum3"
baddata baddata-csum3-1k32 k1 "revoke csum3"

b=$(free_of m4)
jcase baddata-relog m4 <<EOF
features revoke 64bit csum3
txn
log $b badcsum
log $((b + 1))
commit
txn
log $b
commit
EOF
ocase -e 4 baddata-relog
e2seq baddata-relog 1
e2state baddata-relog "not clean"
e2blk baddata-relog 2 "$b"
e2blk baddata-relog 1 $((b + 1))

jcase baddata-revoked m4 <<EOF
features revoke 64bit csum3
txn
log $b badcsum
log $((b + 1))
commit
txn
revoke $b
commit
EOF
ocase baddata-revoked
e2seq baddata-revoked 4
e2state baddata-revoked clean
e2old baddata-revoked "$b"
e2blk baddata-revoked 1 $((b + 1))

b=$(free_of k1)
jcase baddata-escape k1 <<EOF
features revoke csum2
txn
log $b escape badcsum
log $((b + 1)) escape
commit
EOF
ocase -e 4 baddata-escape
e2seq baddata-escape 1
e2state baddata-escape "not clean"
e2old baddata-escape "$b"
e2esc baddata-escape 1 $((b + 1))

b=$(free_of m4)
jcase baddata-uncommitted m4 <<EOF
features revoke 64bit csum3
txn
log $b
commit
txn
log $((b + 1)) badcsum
nocommit
EOF
ocase baddata-uncommitted
e2seq baddata-uncommitted 3
e2state baddata-uncommitted clean
e2blk baddata-uncommitted 1 "$b"
e2old baddata-uncommitted $((b + 1))

len=$(jlen m4.base)
jcase baddata-many m4 <<EOF
features revoke 64bit csum3
sequence 4294967295
start $((len - 4))
txn
log $b-$((b + 3))
log $((b + 4)) badcsum
commit
txn
log $((b + 5)) badcsum uuid
log $((b + 6))
commit
txn
log $((b + 7)) badcsum
log $((b + 1)) badcsum
commit
EOF
ocase -e 4 baddata-many
wrapped baddata-many
e2seq baddata-many 4294967295
e2state baddata-many "not clean"
e2blk baddata-many 4294967295 "$b" $((b + 1)) $((b + 3))
e2blk baddata-many 0 $((b + 6))
e2old baddata-many $((b + 4)) $((b + 5)) $((b + 7))

jcase baddata-badcommit m4 <<EOF
features revoke 64bit csum3
txn
log $b
log $((b + 1)) badcsum
commit
txn
log $((b + 2))
commit badcsum
EOF
ocase -e 4 baddata-badcommit
e2seq baddata-badcommit 1
e2state baddata-badcommit "not clean"
e2blk baddata-badcommit 1 "$b"
e2old baddata-badcommit $((b + 1)) $((b + 2))

jcase baddata-dup-txn m4 <<EOF
features revoke 64bit csum3
txn
log $b
log $b badcsum
log $((b + 1)) badcsum
log $((b + 1))
commit
EOF
ocase -e 4 baddata-dup-txn
e2seq baddata-dup-txn 1
e2state baddata-dup-txn "not clean"
e2blk baddata-dup-txn 1 "$b" $((b + 1))

b=$(free_of k1)
jcase baddata-dup-later k1 <<EOF
features revoke csum2
txn
log $b $((b + 1))
commit
txn
log $((b + 1))
log $b badcsum
commit
EOF
ocase -e 4 baddata-dup-later
e2seq baddata-dup-later 1
e2state baddata-dup-later "not clean"
e2blk baddata-dup-later 1 "$b"
e2blk baddata-dup-later 2 $((b + 1))

end_test
