#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-orphans.sh --- kernel journals with orphan inodes: files unlinked
# while still open at the crash (klib.sh's wl_orphans).  jrecover, like
# the kernel's jbd2 replay, only replays the journal and leaves the
# orphans to whoever comes next; `e2fsck -E journal_only` replays and then
# releases them.  So, as in tests/integration/orphans.sh, the oracle is
# e2fsck alone against jrecover followed by e2fsck -E journal_only (both
# with the same fixed clock), byte for byte; and jrecover's result must
# still hold the orphans (the e2fsck after it releases some) and need no
# more replaying.  The kernel's replay (which releases the orphans at
# mount) and jrecover's are compared as trees.
#   orphans-list  the orphan list (s_last_orphan and the inodes' chain)
#   orphans-file  the orphan_file feature: the orphans in a file of
#                 inode numbers instead.  e2fsck 1.47.0 -E journal_only
#                 releases them but leaves the free block and inode counts
#                 wrong and the orphan file's block not clean (e2fsck -fn
#                 then exits 4; the kernel's replay is clean): the same
#                 with and without jrecover first, which is what counts
#                 here.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

# korphan_compare IMG: the comparison described above.
korphan_compare() {
	e2fsck_alone "$1"
	grep -q 'orphaned inode' "$SCRATCH/.run.out" ||
		die "$_case: e2fsck released no orphan inode: fix the test"
	if [ "$ORACLE_ONLY" != 1 ]; then
		alone_jrecover 'orphaned' "jrecover released orphan inodes"
		copy_img "$_case.jrecover.img" "$_case.jrecover-only.img"
		e2fsck_after
		grep -q 'orphaned inode' "$SCRATCH/.run.out" ||
			fail "$_case: no orphans left after jrecover"
		# What a full check thinks of each: the same (with orphan_file,
		# e2fsck 1.47.0 -E journal_only leaves wrong free counts and an
		# orphan file block not clean, in both).
		run e2fsck -fn "$_case.e2fsck.img"
		_fa=$RUN_RC
		run e2fsck -fn "$_case.jrecover.img"
		[ "$RUN_RC" -eq "$_fa" ] ||
			fail "$_case: e2fsck -fn exits $RUN_RC after jrecover + e2fsck, $_fa after e2fsck alone"
	fi
	case_end
	kernel_counted
}

for c in orphans-list: orphans-file:-Oorphan_file; do
	name=${c%%:*}
	kernel_crash_image -t "$name.live.tree" orphans "$name.img" "${c#*:}"
	korphan_compare "$name.img"
	kernel_replay "$name.img" "$name.kernel.img"
	tree_list "$name.kernel.img" "$name.kernel.tree"
	tree_compare "$name.live.tree" "$name.kernel.tree" \
		"$name: the tree before the shutdown against the kernel's replay"
	[ "$ORACLE_ONLY" = 1 ] && continue
	tree_list "$name.jrecover-only.img" "$name.jrecover.tree"
	tree_compare "$name.kernel.tree" "$name.jrecover.tree" \
		"$name: the kernel's replay against jrecover's"
done

kend_test
