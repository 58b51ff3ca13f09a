#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-refuse.sh --- logs e2fsck 1.47.0 abandons: a descriptor or revoke
# block of a committed transaction that fails its tail checksum (and whose
# commit time is not older than the previous commit's, so it is no stale
# leftover), or a revoke block whose r_count is past the block (past the
# tail with csum v2/v3).  e2fsck then replays nothing, resets the journal
# and leaves the filesystem "not clean".  jrecover writes nothing and
# exits 8 (the image's hash unchanged, in both revoke-table modes); with -f
# it does what e2fsck does, byte for byte, and exits 4 (the CASE-f cases).
#
#   baddesc-*      T2's descriptor fails its checksum (T2's commit time
#                  newer, or the same as T1's)
#   baddesc-first  the very first descriptor
#   badrevoke-*    T2's revoke block fails its checksum
#   rcount-*       r_count one past the limit: the block size + 1 without a
#                  tail, the block size - 3 with one
# And next to them, the same damage where e2fsck never reads it, which
# must not be refused:
#   rcount-uncommitted     in the uncommitted last transaction [1]
#   rcount-after-corrupt   after a corrupt commit block ended the log [4]

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

bases m4 k1 n4 n1

# refused CASE: e2fsck's abandoned recovery, jrecover's refusal, then -f.
refused() {
	ocase -e 8 "$1"
	e2state "$1" "not clean"
	e2seq "$1" 1
	e2old "$1" "$b" $((b + 1)) $((b + 2))
	force_case "$1"
}

# damaged CASE BASE FEATURES T2-LINES...: T1 logs B; T2 as given; T3
# logs B+2 (B: set b=$(free_of BASE) before the call, for the T2 lines).
damaged() {
	_dc=$1
	_db=$2
	_df=$3
	shift 3
	[ "$b" = "$(free_of "$_db")" ] || die "damaged $_dc: b is not $_db's"
	{
		printf 'features %s\ntxn\nlog %s\ncommit time=1800000000\ntxn\n' \
			"$_df" "$b"
		for _dl; do
			say "$_dl"
		done
		printf 'txn\nlog %s\ncommit time=1800000002\n' $((b + 2))
	} | jcase "$_dc" "$_db"
}

b=$(free_of m4)
damaged baddesc-csum3 m4 "revoke 64bit csum3" \
	"log $((b + 1)) baddesc" "commit time=1800000001"
refused baddesc-csum3
b=$(free_of k1)
damaged baddesc-csum2 k1 "revoke csum2" \
	"log $((b + 1)) baddesc" "log $((b + 3))" "commit time=1800000001"
refused baddesc-csum2
b=$(free_of m4)
damaged baddesc-sametime m4 "revoke 64bit csum3" \
	"log $((b + 1)) baddesc" "commit time=1800000000"
refused baddesc-sametime

b=$(free_of m4)
jcase baddesc-first m4 <<EOF
features revoke 64bit csum3
txn
log $b $((b + 1)) baddesc
commit
txn
log $((b + 2))
commit
EOF
refused baddesc-first

b=$(free_of m4)
damaged badrevoke-csum3 m4 "revoke 64bit csum3" \
	"log $((b + 1))" "revoke $b badcsum" "commit time=1800000001"
refused badrevoke-csum3
b=$(free_of k1)
damaged badrevoke-csum2 k1 "revoke csum2" \
	"revoke $((b + 100))-$((b + 400)) badcsum" "log $((b + 1))" \
	"commit time=1800000001"
refused badrevoke-csum2

b=$(free_of n4)
damaged rcount-4097 n4 "revoke" \
	"log $((b + 1))" "rcount 4097" "revoke $b" "commit"
refused rcount-4097
b=$(free_of n1)
damaged rcount-1025 n1 "revoke" \
	"log $((b + 1))" "rcount 1025" "revoke $b" "commit"
refused rcount-1025
b=$(free_of m4)
damaged rcount-4093-csum3 m4 "revoke 64bit csum3" \
	"log $((b + 1))" "rcount 4093" "revoke $b" "commit time=1800000001"
refused rcount-4093-csum3
b=$(free_of k1)
damaged rcount-1021-csum2 k1 "revoke csum2" \
	"log $((b + 1))" "rcount 1021" "revoke $b" "commit time=1800000001"
refused rcount-1021-csum2

# --- the same damage out of e2fsck's reach ----------------------------------------
b=$(free_of n4)
jcase rcount-uncommitted n4 <<EOF
features revoke
txn
log $b
commit
txn
rcount 5000
revoke $b
nocommit
EOF
ocase rcount-uncommitted
e2seq rcount-uncommitted 3
e2blk rcount-uncommitted 1 "$b"

b=$(free_of m4)
jcase rcount-after-corrupt m4 <<EOF
features revoke 64bit csum3
txn
log $b
commit
txn
log $((b + 1))
commit badcsum
txn
rcount 5000
revoke $b
commit
EOF
ocase -e 4 rcount-after-corrupt
e2seq rcount-after-corrupt 3
e2state rcount-after-corrupt "clean with errors"
e2blk rcount-after-corrupt 1 "$b"
e2old rcount-after-corrupt $((b + 1))

end_test
