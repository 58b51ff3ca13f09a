#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# corrupt.sh --- journals damaged after debugfs wrote them (one byte
# flipped in a journal block, found with bmap <8> N).  Three transactions
# each time: T1 logs A0, A1 (journal blocks 1-4), T2 logs A2, A3 (5-8),
# T3 logs A4 (9-11).  What e2fsck 1.47.0 does, and so jrecover:
#   data-csum-v2/v3    T2's first data block fails its tag checksum:
#                      e2fsck skips that block, replays the others, says
#                      "Journal checksum error", marks the filesystem not
#                      clean and leaves s_sequence as it was (exit 4)
#   commit-csum-v2/v3  T2's commit block fails its checksum: the log ends
#                      after T1, the filesystem is marked with errors (4)
#   data-v1            a data block of T2 changed under COMPAT_CHECKSUM: T2's
#                      commit checksum fails, same as above (4)
#   commit-none        T2's commit block without its magic, no checksums: the
#                      log simply ends after T1, as after a crash (1)
#   desc-csum-v3, revoke-csum-v3
#                      T2's descriptor (or revoke) block fails its checksum:
#                      e2fsck abandons the recovery, replays nothing, resets
#                      the journal and marks the filesystem not clean.
#                      jrecover refuses (exit 8, nothing written) unless -f,
#                      when it does the same as e2fsck (exit 4)
#   jsb-csum-v3        the journal superblock fails its checksum: e2fsck
#                      calls it corrupt, makes a new journal with a random
#                      sequence and runs a full check, so there is nothing to
#                      compare (e2fsck exits 1); jrecover refuses (8)
#   past-end           a tag names a block past the end of the filesystem:
#                      e2fsck writes it, growing the image; jrecover refuses
#                      before writing anything (8)

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

# three_txns IMG [revoke]: the three transactions described above (T2
# revokes A0 instead of logging, with "revoke").
three_txns() {
	# shellcheck disable=SC2046
	set -- "$1" "${2:-}" $(free_blocks "$1" 6)
	mkdata c1.bin "$FMT_BS" 2 -s 1001
	mkdata c2.bin "$FMT_BS" 2 -s 1002
	mkdata c3.bin "$FMT_BS" 1 -s 1003
	jtxn "$1" -b "$3,$4" c1.bin
	if [ "$2" = revoke ]; then
		jtxn "$1" -r "$3"
	else
		jtxn "$1" -b "$5,$6" c2.bin
	fi
	jtxn "$1" -b "$7" c3.bin
}

# flip IMG JBLOCK OFFSET [HEX]: overwrite a byte of journal block JBLOCK
flip() {
	poke "$1" $(($(jblk_off "$1" "$2") + $3)) "${4:-ff}"
}

for csum in v2 v3; do
	set_format 4k-64-$csum
	img=data-csum-$csum.img
	mkimg_fmt "$img"
	three_txns "$img"
	flip "$img" 6 100
	oracle_compare -e 4 "$img"

	img=commit-csum-$csum.img
	mkimg_fmt "$img"
	three_txns "$img"
	flip "$img" 8 100
	oracle_compare -e 4 "$img"
done

set_format 1k-32-v1
img=data-v1.img
mkimg_fmt "$img"
three_txns "$img"
flip "$img" 6 100
oracle_compare -e 4 "$img"

set_format 4k-32-none
img=commit-none.img
mkimg_fmt "$img"
three_txns "$img"
flip "$img" 8 0 00
oracle_compare -e 1 "$img"

set_format 4k-64-v3
for what in desc revoke; do
	img=$what-csum-v3.img
	mkimg_fmt "$img"
	if [ "$what" = revoke ]; then
		three_txns "$img" revoke
	else
		three_txns "$img"
	fi
	flip "$img" 5 600
	oracle_compare -e 8 "$img"
	copy_img "$img" "$what-csum-v3-force.img"
	oracle_compare -e 4 -o -f "$what-csum-v3-force.img"
done

img=jsb-csum-v3.img
mkimg_fmt "$img"
three_txns "$img"
flip "$img" 0 600
oracle_compare -e 8 -E 1 "$img"

set_format 4k-64-none
img=past-end.img
mkimg_fmt "$img"
three_txns "$img"
# The first tag of T2's descriptor (journal block 5, after the 12-byte
# header) gets block 4112 of a 4096-block filesystem.
flip "$img" 5 12 00001010
oracle_compare -e 8 "$img"

end_test
