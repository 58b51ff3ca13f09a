#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-external.sh --- external journals (a journal_dev file, passed to both
# tools with -j; jwrite -j writes it), whose log wraps.  The journal
# superblock follows the device's ext2 superblock (block 2 with 1 KiB
# blocks, block 1 otherwise) and s_first is the block after it.  Both the
# filesystem and the journal device are compared.
#
#   ext-wrap-*      the log wraps from s_maxlen - K to s_first, the tids
#                   from ffff_fffe to 2; revokes on both sides of both
#                   wraps [1]
#   ext-badcommit   a corrupt commit block in the middle, past the wrap:
#                   the filesystem marked with errors [4]
#   ext-baddata     a bad data checksum in a wrapped transaction [4]
#   ext-baddesc     a bad descriptor checksum in a committed transaction:
#                   refused [8], with -f e2fsck's result [4]

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

base_ext e4 16M 4M -b 4096 -O 64bit,metadata_csum
base_ext e1 8M 4M -b 1024 -O ^64bit,^metadata_csum
base_ext e1m 8M 2M -b 1024 -O 64bit,metadata_csum

# wrapcase CASE BASE FEATURES K: tids S = ffff_fffe .. 2.
#   S   log B..B+9 / revoke B+20     S+1 log B+20 escape / revoke B+1
#   S+2 log B+1 B+21 uuid            S+3 revoke B+2 / log B+22
#   S+4 log B+2
# Replay: B, B+3..B+9 from S; B+1, B+21 from S+2; B+2 from S+4; B+20
# (escaped) from S+1; B+22 from S+3.
wrapcase() {
	b=$(free_of "$2")
	len=$(jlen "$2.jdev.base")
	jcase "$1" "$2" <<-EOF
	features $3
	sequence 4294967294
	start $((len - $4))
	txn
	log $b-$((b + 9))
	revoke $((b + 20))
	commit
	txn
	log $((b + 20)) escape
	revoke $((b + 1))
	commit
	txn
	log $((b + 1))
	log $((b + 21)) uuid
	commit
	txn
	revoke $((b + 2))
	log $((b + 22))
	commit
	txn
	log $((b + 2))
	commit
	EOF
	ocase "$1"
	wrapped "$1"
	e2seq "$1" 4
	e2state "$1" clean
	e2blk "$1" 4294967294 "$b" $((b + 3)) $((b + 9))
	e2blk "$1" 0 $((b + 1)) $((b + 21))
	e2blk "$1" 2 $((b + 2))
	e2esc "$1" 4294967295 $((b + 20))
	e2blk "$1" 1 $((b + 22))
}

wrapcase ext-wrap-4k-csum3-k5 e4 "revoke 64bit csum3" 5
wrapcase ext-wrap-4k-csum3-k13 e4 "revoke 64bit csum3" 13
wrapcase ext-wrap-1k-none-k1 e1 "revoke" 1
wrapcase ext-wrap-1k-csum1-k14 e1 "revoke csum1" 14
wrapcase ext-wrap-1k-csum2-k16 e1m "revoke 64bit csum2" 16

b=$(free_of e4)
len=$(jlen e4.jdev.base)
jcase ext-badcommit e4 <<EOF
features revoke 64bit csum3
start $((len - 3))
txn
log $b $((b + 1))
commit
txn
log $((b + 2))
commit badcsum
txn
log $((b + 3))
commit
EOF
ocase -e 4 ext-badcommit
wrapped ext-badcommit
e2seq ext-badcommit 3
e2state ext-badcommit "clean with errors"
e2blk ext-badcommit 1 "$b" $((b + 1))
e2old ext-badcommit $((b + 2)) $((b + 3))

jcase ext-baddata e4 <<EOF
features revoke 64bit csum3
start $((len - 2))
txn
log $b
log $((b + 1)) badcsum
log $((b + 2))
commit
EOF
ocase -e 4 ext-baddata
wrapped ext-baddata
e2seq ext-baddata 1
e2state ext-baddata "not clean"
e2blk ext-baddata 1 "$b" $((b + 2))
e2old ext-baddata $((b + 1))

jcase ext-baddesc e4 <<EOF
features revoke 64bit csum3
start $((len - 2))
txn
log $b
commit
txn
log $((b + 1)) baddesc
commit
EOF
ocase -e 8 ext-baddesc
e2state ext-baddesc "not clean"
e2old ext-baddesc "$b" $((b + 1))
force_case ext-baddesc

end_test
