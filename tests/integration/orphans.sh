#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# orphans.sh --- filesystems with orphan inodes (files unlinked while still
# open at the crash).  `e2fsck -E journal_only` replays the journal and then
# also releases the orphan inodes; jrecover, like the kernel's replay, only
# replays and leaves the orphans to whoever runs next.  So the oracle here
# is e2fsck alone against jrecover followed by e2fsck -E journal_only:
# the two results must be identical, and after jrecover the journal must
# need nothing (a second jrecover run exits 0 and writes nothing).
#   orphans-journaled  the unlinks and the orphan list (s_last_orphan, the
#                      chain through i_dtime) are in the journal, logged
#                      with every other block the change touched
#   orphans-on-disk    the orphan list is already on disk; the journal
#                      holds unrelated transactions (std_workload)
# e2fsck stamps the released inodes with its clock, so both e2fsck runs get
# the same fixed one (E2FSCK_TIME).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

# make_orphans IMG: write f1, f2 and f3, then unlink f1 and f2 and chain
# them into the orphan list, as the kernel leaves them.
make_orphans() {
	mkdata f.dat "$(img_bs "$1")" 5 -s 901
	printf 'write f.dat f1\nwrite f.dat f2\nwrite f.dat f3\n' |
		dfs_quiet "$1"
	_i1=$(debugfs -R "stat f1" "$1" 2>/dev/null |
		sed -n 's/^Inode: \([0-9]*\).*/\1/p')
	_i2=$(debugfs -R "stat f2" "$1" 2>/dev/null |
		sed -n 's/^Inode: \([0-9]*\).*/\1/p')
	if [ -z "$_i1" ] || [ -z "$_i2" ]; then
		die "cannot find the inodes of f1, f2"
	fi
	dfs_quiet "$1" <<EOS
unlink f1
unlink f2
sif <$_i1> links_count 0
sif <$_i2> links_count 0
sif <$_i1> dtime $_i2
sif <$_i2> dtime 0
ssv last_orphan $_i1
EOS
}

# orphan_compare IMG: the comparison described above.
orphan_compare() {
	e2fsck_alone "$1"
	dumpe2fs -h "$1" 2>/dev/null | grep -E '^First orphan' | sed 's/^/    /'
	grep -q 'Clearing orphaned inode' "$SCRATCH/.run.out" ||
		fail "$_case: e2fsck released no orphan inode: fix the test"
	if [ "$ORACLE_ONLY" != 1 ]; then
		alone_jrecover 'Clearing orphaned' "jrecover released orphan inodes"
		dumpe2fs -h "$_case.jrecover.img" 2>/dev/null |
			grep -q '^First orphan' ||
			fail "$_case: jrecover's result has lost its orphan list"
		e2fsck_after
	fi
	case_end
}

for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"

	img=orphans-journaled-$fmt.img
	mkimg_fmt "$img"
	copy_img "$img" after.img
	make_orphans after.img
	blocks=$("$IMGCMP" -l "$img" after.img)
	for b in $blocks; do getblk after.img "$b"; done > t.bin
	# shellcheck disable=SC2086
	jtxn "$img" -b "$(blist $blocks)" t.bin
	orphan_compare "$img"

	img=orphans-on-disk-$fmt.img
	mkimg_fmt "$img"
	make_orphans "$img"
	std_workload "$img"
	orphan_compare "$img"
done

end_test
