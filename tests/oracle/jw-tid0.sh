#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-tid0.sh --- a commit block that fails its checksum in the transaction
# whose tid is 0 (the log has wrapped through 2^32).
#
# e2fsck and the kernel record "the log ends at tid E" and "the commit of
# tid F failed" with 0 meaning "none", so a bad commit in tid 0 records
# neither: without ASYNC_COMMIT the log ends there (tid 0 and later are
# not replayed) but no transaction is called corrupt, s_errno stays 0 and
# the filesystem is not marked as having errors; with ASYNC_COMMIT the scan
# goes on and tid 0 is replayed with the rest.  The same damage in tid 1
# is the control: there the filesystem is marked (jrecover exit 4).
#
# Shape (B = a free block): tids S, S+1, ... each log one block,
#   txn S: B   txn S+1: B+1   txn S+2: B+2   txn S+3: B+3
# and the commit of the transaction with tid BAD fails its checksum.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

# shape CASE BASE FEATURES S BAD
shape() {
	_b=$(free_of "$2")
	{
		say "features $3"
		say "sequence $4"
		for _i in 0 1 2 3; do
			_t=$((($4 + _i) % 4294967296))
			say "txn"
			say "log $((_b + _i))"
			if [ "$_t" -eq "$5" ]; then
				say "commit badcsum"
			else
				say "commit"
			fi
		done
	} | jcase "$1" "$2"
}

bases m4 n4
bm=$(free_of m4)
bn=$(free_of n4)

# tid 0 is the third transaction: S, S+1 replayed, the log ends at tid 0.
for f in "m4 csum3" "m4 csum2" "n4 csum1"; do
	# shellcheck disable=SC2086
	set -- $f
	c=tid0-$2
	shape "$c" "$1" "revoke 64bit $2" 4294967294 0
	ocase "$c"
	e2seq "$c" 1
	e2state "$c" clean
	b=$(free_of "$1")
	e2blk "$c" 4294967294 "$b"
	e2blk "$c" 4294967295 $((b + 1))
	e2old "$c" $((b + 2))
	e2old "$c" $((b + 3))
done

# tid 0 is the first transaction: nothing is replayed, no error either.
shape tid0-first m4 "revoke 64bit csum3" 0 0
ocase tid0-first
e2seq tid0-first 1
e2state tid0-first clean
e2old tid0-first "$bm"

# ASYNC_COMMIT: the scan goes on past tid 0 and replays it.
shape tid0-async m4 "revoke 64bit async csum3" 4294967294 0
ocase tid0-async
e2seq tid0-async 3
e2state tid0-async clean
e2blk tid0-async 0 $((bm + 2))
e2blk tid0-async 1 $((bm + 3))

# The control: the same damage in tid 1 marks the filesystem.
shape tid1-csum3 m4 "revoke 64bit csum3" 4294967294 1
ocase -e 4 tid1-csum3
e2state tid1-csum3 "clean with errors"
e2blk tid1-csum3 0 $((bm + 2))
e2old tid1-csum3 $((bm + 3))
shape tid1-csum1 n4 "revoke csum1" 4294967294 1
ocase -e 4 tid1-csum1
e2blk tid1-csum1 0 $((bn + 2))

end_test
