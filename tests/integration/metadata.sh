#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# metadata.sh --- journals with real filesystem changes in them, the way a
# kernel in data=journal mode would write them.  A copy of the image is
# changed with debugfs (directories made, files written, one removed), and
# every block the change touched (superblock, group descriptors, bitmaps,
# inode table, directory and extent blocks, file data) is logged from the
# copy into the original's journal:
#   T1  mkdir d1, d1/d2; write f1 (40 blocks) and f1b: every changed block
#   T2  rm d1/f1, write d1/d2/f2 (25 blocks): every changed block, and
#       revoke records for f1's blocks that f2 did not take over (freed
#       blocks are revoked, as jbd2 does)
# After the replay the filesystem is the second copy, except for the
# revoked blocks, which keep their contents from before T1.  The replay
# overwrites the superblock itself with a logged copy, which must not lose
# the flag and journal updates that follow.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

# file_blocks IMG PATH: the blocks of a file, one a line.
file_blocks() {
	debugfs -R "blocks $2" "$1" 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]+$'
}

for fmt in 4k-64-v3 1k-32-none 1k-64-v2 4k-32-none; do
	set_format "$fmt"
	img=meta-$fmt.img
	mkimg_fmt "$img"
	mkdata f1.dat "$FMT_BS" 40 -s 701
	mkdata f1b.dat "$FMT_BS" 3 -s 703
	mkdata f2.dat "$FMT_BS" 25 -s 702

	copy_img "$img" step1.img
	dfs_quiet step1.img <<EOS
mkdir d1
mkdir d1/d2
write f1.dat d1/f1
write f1b.dat f1b
EOS
	copy_img step1.img step2.img
	dfs_quiet step2.img <<EOS
rm d1/f1
write f2.dat d1/d2/f2
EOS

	t1=$("$IMGCMP" -l "$img" step1.img)
	t2=$("$IMGCMP" -l step1.img step2.img)
	for b in $t1; do getblk step1.img "$b"; done > t1.bin
	for b in $t2; do getblk step2.img "$b"; done > t2.bin
	file_blocks step1.img d1/f1 | sort > f1.blocks
	file_blocks step2.img d1/d2/f2 | sort > f2.blocks
	freed=$(comm -23 f1.blocks f2.blocks | sort -n)
	say "T1 logs $(say "$t1" | wc -w) blocks; T2 logs $(say "$t2" | wc -w)" \
		"and revokes $(say "$freed" | wc -w)"
	[ -n "$freed" ] || die "f2 took over every block of f1: no revokes"

	# shellcheck disable=SC2086
	jtxn "$img" -b "$(blist $t1)" t1.bin
	# shellcheck disable=SC2086
	jtxn "$img" -b "$(blist $t2)" -r "$(blist $freed)" t2.bin
	oracle_compare "$img"

	# Spot checks of the oracle: the last block T2 logged (file data; the
	# first is the superblock, which the replay goes on to update) and a
	# revoked one.
	n=$(say "$t2" | wc -w)
	oracle_block "$img" "$(say "$t2" | sed -n "${n}p")" t2.bin $((n - 1))
	# shellcheck disable=SC2086
	set -- $freed
	oracle_block "$img" "$1" old
done

end_test
