#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-tags.sh --- descriptor tags: escaped blocks (data starting with the
# jbd2 magic, stored with it zeroed and the ESCAPE flag set), tags carrying
# their own UUID (no SAME_UUID flag: 16 more bytes), several descriptors
# per transaction (maxtags), and descriptors filled to the last byte.
#
#   esc-*     maxtags 3 puts escaped blocks first, last and alone in a
#             descriptor, with and without a UUID, escaped fill=0 (magic
#             then zeros); T2 relogs an escaped block plainly and a plain
#             one escaped, and revokes an escaped one.  Every checksum
#             kind: v2/v3 data checksums and the v1 crc32 cover the block
#             as stored (escaped).
#   uuid-*    every tag of T1 with its UUID (fewer tags per descriptor),
#             T2 mixing both kinds.
#   maxtags-* 1, 2 and 7 tags per descriptor: dozens of descriptors in
#             one transaction.
#   full-*    exactly as many tags as fit in one descriptor (4 KiB csum3:
#             254 tags end at byte 4092, where the tail begins; 1 KiB
#             without checksums: 124 tags end at byte 1020), then one more
#             (a second descriptor with a single tag).
#   raw-*     descriptors written with jwrite's `raw` (no checksums,
#             8-byte tags, every tag SAME_UUID):
#     raw-nolast      126 tags, none with LAST_TAG: the tags run to the
#                     block's end (byte 1020 of 1024; a 127th would not
#                     fit), 126 data blocks follow
#     raw-unescaped   data blocks that look like a commit block and a
#                     revoke block of the same transaction, stored without
#                     ESCAPE: data, never headers, since the scan steps over
#                     the tags' data blocks
#     raw-escape      ESCAPE on a tag whose stored block does not start
#                     with zeros: the magic is written over its first 4
#                     bytes all the same

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

bases m4 n4 n1 m1

# --- escaped blocks ----------------------------------------------------------

esc() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	maxtags 3
	txn
	log $b escape
	log $((b + 1))
	log $((b + 2)) escape
	log $((b + 3)) escape uuid
	log $((b + 4)) fill=0 escape
	log $((b + 5)) escape uuid
	log $((b + 6)) escape
	commit
	txn
	log $((b + 1)) escape
	log $((b + 2))
	revoke $((b + 3))
	commit
	EOF
	ocase "$1"
	e2seq "$1" 4
	e2esc "$1" 1 "$b" $((b + 5)) $((b + 6))
	e2esc "$1" 2 $((b + 1))
	e2blk "$1" 2 $((b + 2))
	e2old "$1" $((b + 3))
	# fill=0 escaped: the magic, then zeros
	getblk "$1.e2fsck.img" $((b + 4)) | od -An -tx1 -v | tr -d ' \n' |
		sed 's/^c03b3998//' | tr -d 0 | grep -q . &&
		fail "$1: block $((b + 4)) is not the magic and zeros: fix the test"
}

esc esc-4k64-none m4 "revoke 64bit"
esc esc-4k32-csum1 n4 "revoke csum1"
esc esc-4k64-csum2 m4 "revoke 64bit csum2"
esc esc-4k64-csum3 m4 "revoke 64bit csum3"
esc esc-1k32-none n1 "revoke"
esc esc-1k64-csum3 m1 "revoke 64bit csum3"

# --- tags with their own UUID -------------------------------------------------

uuid() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	txn
	log $b-$((b + 199)) uuid
	commit
	txn
	log $((b + 200))-$((b + 209))
	log $((b + 210)) uuid
	log $((b + 211))-$((b + 260))
	log $((b + 10)) uuid escape
	log $((b + 261))-$((b + 299)) uuid
	commit
	EOF
	ocase "$1"
	e2seq "$1" 4
	e2blk "$1" 1 "$b" $((b + 9)) $((b + 11)) $((b + 199))
	e2blk "$1" 2 $((b + 200)) $((b + 210)) $((b + 260)) $((b + 299))
	e2esc "$1" 2 $((b + 10))
}

uuid uuid-1k64-csum3 m1 "revoke 64bit csum3"
uuid uuid-1k32-csum2 n1 "revoke csum2"
uuid uuid-4k32-none n4 "revoke"

# --- several descriptors per transaction --------------------------------------

maxtags() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	maxtags $4
	txn
	log $b-$((b + 40))
	log $((b + 41)) uuid
	log $((b + 42)) escape
	log $((b + 43))-$((b + 50))
	revoke $((b + 5))
	log $((b + 51))-$((b + 60))
	commit
	txn
	log $((b + 5))-$((b + 15))
	commit
	EOF
	ocase "$1"
	e2seq "$1" 4
	e2blk "$1" 1 "$b" $((b + 4)) $((b + 16)) $((b + 41)) $((b + 50)) $((b + 60))
	e2esc "$1" 1 $((b + 42))
	e2blk "$1" 2 $((b + 5)) $((b + 15))
}

maxtags maxtags1-4k64-csum3 m4 "revoke 64bit csum3" 1
maxtags maxtags2-1k32-csum2 n1 "revoke csum2" 2
maxtags maxtags7-4k32-none n4 "revoke" 7
maxtags maxtags7-4k32-csum1 n4 "revoke csum1" 7

# --- full descriptors ---------------------------------------------------------

full() {
	b=$(free_of "$2")
	jcase "$1" "$2" <<-EOF
	features $3
	txn
	log $b-$((b + $4 - 1))
	commit
	txn
	log $((b + $4))-$((b + $4 * 2))
	commit
	EOF
	ocase "$1"
	e2seq "$1" 4
	e2blk "$1" 1 "$b" $((b + $4 - 1))
	e2blk "$1" 2 $((b + $4)) $((b + $4 * 2))
	e2old "$1" $((b + $4 * 2 + 1))
}

full full-4k64-csum3 m4 "revoke 64bit csum3" 254
full full-1k32-none n1 "revoke" 124

# --- descriptors written by hand ---------------------------------------------

# tag B FLAGS: one 8-byte tag (blocknr, checksum 0, flags) in hex.
tag() {
	printf '%08x0000%04x' "$1" "$2"
}

b=$(free_of n1)
{
	printf 'features revoke\nraw c03b3998 00000001 00000001'
	i=0
	while [ "$i" -lt 126 ]; do
		printf ' %s' "$(tag $((b + i)) 2)"
		i=$((i + 1))
	done
	printf '\n'
	i=0
	while [ "$i" -lt 126 ]; do
		say garbage
		i=$((i + 1))
	done
	printf 'txn 1\ncommit\ntxn\nlog %s\ncommit\n' $((b + 200))
} | jcase raw-nolast n1
ocase raw-nolast
e2seq raw-nolast 4
e2blk raw-nolast 2 $((b + 200))
for blk in "$b" $((b + 125)); do
	getblk raw-nolast.img "$blk" > "$SCRATCH/.e2.old"
	getblk raw-nolast.e2fsck.img "$blk" | cmp -s - "$SCRATCH/.e2.old" &&
		fail "raw-nolast: e2fsck did not write block $blk: fix the test"
done
e2old raw-nolast $((b + 126))

b=$(free_of n4)
jcase raw-unescaped n4 <<EOF
features revoke
raw c03b3998 00000001 00000001 $(tag "$b" 2) $(tag $((b + 1)) 10)
raw c03b3998 00000002 00000001
raw c03b3998 00000005 00000001 00000014 $(printf '%08x' "$b")
txn 1
commit
txn
log $((b + 2))
commit
EOF
ocase raw-unescaped
e2seq raw-unescaped 4
e2blk raw-unescaped 2 $((b + 2))
[ "$(getblk raw-unescaped.e2fsck.img "$b" | od -An -tx1 -N12 | tr -d ' \n')" = \
  c03b39980000000200000001 ] ||
	fail "raw-unescaped: e2fsck did not write block $b as logged: fix the test"

jcase raw-escape n4 <<EOF
features revoke
raw c03b3998 00000001 00000001 $(tag "$b" 11)
raw 11223344 55667788
txn 1
commit
EOF
ocase raw-escape
e2seq raw-escape 3
[ "$(getblk raw-escape.e2fsck.img "$b" | od -An -tx1 -N8 | tr -d ' \n')" = \
  c03b399855667788 ] ||
	fail "raw-escape: e2fsck did not restore the magic in block $b: fix the test"

end_test
