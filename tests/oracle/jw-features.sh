#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-features.sh --- one journal shape in every journal feature set, on
# 1 KiB and 4 KiB blocks, 32- and 64-bit filesystems.
#
# Journal feature sets (jwrite's `features`):
#   (none)                 v2 superblock, no feature bits at all: revoke
#                          records still count (e2fsck does not look)
#   revoke [64bit]         8- or 12-byte tags, 4- or 8-byte revoke records
#   revoke [64bit] csum1   COMPAT_CHECKSUM: crc32 of the descriptor and data
#                          blocks in the commit block (no metadata_csum)
#   revoke [64bit] async csum1
#   revoke [64bit] csum2   10/14-byte tags, 16-bit data checksums, block tails
#   revoke [64bit] csum3   16-byte tags, 32-bit data checksums
#   revoke [64bit] async csum3
# 64bit goes with the 64bit filesystems, as the kernel sets it; checksums
# v2/v3 with metadata_csum, v1 without.  Then the crossings the kernel can
# also make or e2fsck accepts: a 64bit journal on a 32-bit filesystem, a
# 32-bit journal on a 64-bit one, csum3 without metadata_csum (the
# journal_checksum mount option), async without checksums.  And
# FAST_COMMIT (mke2fs -O fast_commit: a fast-commit area of s_num_fc_blks
# blocks at the journal's end, empty here), the log well before that area
# (where the log wraps with FAST_COMMIT: jw-findings.sh).
#
# The shape (B = the first block of a free run, tids 1, 2, 3):
#   T1 revoke B+1 / log B..B+599 (several descriptors in every format) /
#      revoke B+2 / log B+600 escape / log B+601 fill=0xab / log B+602 uuid /
#      revoke B+1000..B+1599 (several revoke blocks, blocks never logged)
#   T2 log B+1 (re-logged after T1's revoke) / log B+3 uuid /
#      log B+603 escape uuid / revoke B+599
#   T3 revoke B+3 (hides T2's copy) / log B+604
# Replay leaves B, B+4..B+598, B+600..B+602 from T1 (B+600 with its magic
# restored), B+1, B+603 from T2, B+604 from T3, and B+2, B+3, B+599 as
# they were; s_sequence 5.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

shape() {
	_b=$1
	cat <<-EOF
	features $2
	txn
	revoke $((_b + 1))
	log $_b-$((_b + 599))
	revoke $((_b + 2))
	log $((_b + 600)) escape
	log $((_b + 601)) fill=0xab
	log $((_b + 602)) uuid
	revoke $((_b + 1000))-$((_b + 1599))
	commit
	txn
	log $((_b + 1))
	log $((_b + 3)) uuid
	log $((_b + 603)) escape uuid
	revoke $((_b + 599))
	commit
	txn
	revoke $((_b + 3))
	log $((_b + 604))
	commit
	EOF
}

# check CASE B: e2fsck did what the shape above says.
check() {
	e2seq "$1" 5
	e2state "$1" clean
	e2blk "$1" 1 "$2" $(($2 + 4)) $(($2 + 300)) $(($2 + 598)) $(($2 + 602))
	e2blk "$1" 2 $(($2 + 1))
	e2blk "$1" 3 $(($2 + 604))
	e2esc "$1" 1 $(($2 + 600))
	e2esc "$1" 2 $(($2 + 603))
	e2fill "$1" 0xab $(($2 + 601))
	e2old "$1" $(($2 + 2)) $(($2 + 3)) $(($2 + 599))
}

# one CASE BASE FEATURES
one() {
	_fb=$(free_of "$2")
	shape "$_fb" "$3" | jcase "$1" "$2"
	ocase "$1"
	check "$1" "$_fb"
}

# Bases: BS-BITS-{m (metadata_csum), n (none)}.
for bs in 1k 4k; do
	if [ "$bs" = 1k ]; then size=8M; else size=16M; fi
	for bits in 32 64; do
		if [ "$bits" = 64 ]; then o=64bit; j64=64bit; else o=^64bit; j64=; fi
		bsz=1024
		[ "$bs" = 4k ] && bsz=4096
		base "b$bs${bits}n" "$size" -b "$bsz" -O "$o,^metadata_csum"
		base "b$bs${bits}m" "$size" -b "$bsz" -O "$o,metadata_csum"
		one "f-$bs$bits-none" "b$bs${bits}n" ""
		one "f-$bs$bits-revoke" "b$bs${bits}n" "revoke $j64"
		one "f-$bs$bits-csum1" "b$bs${bits}n" "revoke $j64 csum1"
		one "f-$bs$bits-async-csum1" "b$bs${bits}n" "revoke $j64 async csum1"
		one "f-$bs$bits-csum2" "b$bs${bits}m" "revoke $j64 csum2"
		one "f-$bs$bits-csum3" "b$bs${bits}m" "revoke $j64 csum3"
		one "f-$bs$bits-async-csum3" "b$bs${bits}m" "revoke $j64 async csum3"
	done
done

# The crossings.
one f-4k32-j64 b4k32n "revoke 64bit"
one f-1k32-j64-csum3 b1k32m "revoke 64bit csum3"
one f-4k64-j32 b4k64n "revoke"
one f-4k64-j32-csum2 b4k64m "revoke csum2"
one f-4k64n-csum3 b4k64n "revoke 64bit csum3"
one f-1k32n-csum2 b1k32n "revoke csum2"
one f-4k64-async b4k64n "revoke 64bit async"
base b4k64fc 16M -b 4096 -O 64bit,metadata_csum,fast_commit
one f-4k64-fc b4k64fc "revoke 64bit csum3 fast_commit"
base b1k32fc 8M -b 1024 -O ^64bit,^metadata_csum,fast_commit
one f-1k32-fc b1k32fc "revoke fast_commit"

end_test
