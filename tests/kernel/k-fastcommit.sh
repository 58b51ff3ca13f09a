#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-fastcommit.sh --- kernel journals of a filesystem with fast_commit.
#
# e2fsck 1.47.0 is known to be wrong on journals with fast commits, so it
# cannot be the judge there; the kernel's own replay (a read-write mount of
# a copy) is (tests/kernel/fc.sh has the finer cases).  For each workload
# (klib.sh's wl_fc_*) this test
#   - records what the kernel's replay leaves (its tree, which must be the
#     tree listed before the shutdown where the workload fsynced all it
#     did, and e2fsck -fn on it)
#     and what e2fsck leaves (exit status, e2fsck -fn, the tree when it is
#     consistent, and whether that tree is the kernel's): in the log only,
#     these are facts about other tools, not checks of jrecover;
#   - checks what jrecover does: with a head tag in the fast-commit area
#     (live or stale), -n exits 1 and writes nothing, the replay exits 1,
#     e2fsck -fn finds nothing to fix, and the tree is the kernel's (and
#     the one listed before the shutdown, where there is one); with an area
#     never written, it replays as e2fsck does (oracle_compare) and leaves
#     the kernel's tree.
#   fc_mixed  creates, appends, renames, links, unlinks, truncates and
#             fallocate, most committed as fast commits
#   fc_stale  the same, then full commits after them: the area keeps a
#             head tag of a transaction the log already holds (stale)
#   fc_none   every fsync in a fast-commit ineligible transaction: the
#             area is never written
#   fc_writer klib.sh's wl_writer: writers still fsyncing (fast commits)
#             when the shutdown comes

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

# fc_area IMG: "empty", or "head TID" for the first head tag of the
# fast-commit area, as debugfs's logdump reads it.
fc_area() {
	debugfs -c -R "logdump" "$1" 2> /dev/null | awk '
		/^\*\*\* Fast Commit Area/ { fc = 1; next }
		fc && /tag HEAD/ { print "head", $NF; found = 1; exit }
		END { if (!found) print "empty" }'
}

# last_tid IMG: the tid of the last transaction in the log, as logdump
# walks it.
last_tid() {
	debugfs -c -R "logdump" "$1" 2> /dev/null |
		sed -n 's/^Found expected sequence \([0-9]*\), type 2 .*/\1/p' |
		tail -n 1
}

for c in fc_mixed:fc_mixed fc_stale:fc_stale fc_none:fc_none fc_writer:writer
do
	wl=${c%%:*}
	live=
	[ "$wl" = fc_writer ] || live=$wl.live.tree
	kernel_crash_image ${live:+-t "$live"} "${c#*:}" "$wl.img" "-O fast_commit"
	area=$(fc_area "$wl.img")
	last=$(last_tid "$wl.img")
	case $area in
	empty) say "$wl: fast-commit area empty; log ends at tid $last" ;;
	head*) tid=${area#head }
	       if [ "$tid" -gt "${last:-0}" ]; then
		       say "$wl: fast commits of tid $tid after the log's last tid $last"
	       else
		       say "$wl: stale fast-commit blocks (tid $tid, log ends at $last)"
	       fi ;;
	esac

	# The kernel's replay: the judge for fast commits.  A writer still
	# fsyncing at the shutdown can leave a crash image the kernel itself
	# refuses to recover ("Structure needs cleaning"; seen in CI for
	# fc_writer): then there is no judge, and jrecover must either refuse
	# with nothing written or leave a filesystem e2fsck -fn finds clean.
	KMOUNT_MAY_FAIL=1
	if ! kernel_replay "$wl.img" "$wl.kernel.img"; then
		KMOUNT_MAY_FAIL=
		NCASES=$((NCASES + 1))
		say ""
		say "=== case $wl: a crash image the kernel refuses to recover"
		show_journal "$wl.img"
		copy_img "$wl.img" "$wl.jrecover.img"
		before=$(sha256_of "$wl.jrecover.img")
		jrecover "$wl.jrecover.img"
		case $RUN_RC in
		8)	[ "$(sha256_of "$wl.jrecover.img")" = "$before" ] ||
				fail "$wl: jrecover refused (8) but changed the image" ;;
		1|4)	run e2fsck -fn "$wl.jrecover.img"
			[ "$RUN_RC" -eq 0 ] ||
				fail "$wl: e2fsck -fn finds something to fix after jrecover" ;;
		*)	fail "$wl: jrecover exited $RUN_RC" ;;
		esac
		say "(report) $wl: the kernel refuses this image; jrecover exited $RUN_RC"
		continue
	fi
	KMOUNT_MAY_FAIL=
	run e2fsck -fn "$wl.kernel.img"
	say "(report) $wl: e2fsck -fn of the kernel's replay exited $RUN_RC"
	tree_list "$wl.kernel.img" "$wl.kernel.tree"
	# The judge must hold everything the workload fsynced.
	[ -z "$live" ] || tree_compare "$live" "$wl.kernel.tree" \
		"$wl: the tree before the shutdown against the kernel's replay"

	# What e2fsck does with it: report only.
	copy_img "$wl.img" "$wl.e2only.img"
	run e2fsck -y -E journal_only "$wl.e2only.img"
	e2rc=$RUN_RC
	e2state=$(journal_state "$wl.e2only.img")
	run e2fsck -fn "$wl.e2only.img"
	e2fn=$RUN_RC
	same=unknown
	if [ "$e2fn" -eq 0 ] && [ "${e2state%% *}" = needs_recovery=no ]; then
		tree_list "$wl.e2only.img" "$wl.e2only.tree"
		if cmp -s "$wl.kernel.tree" "$wl.e2only.tree"; then
			same=yes
		else
			same=no
			diff -u "$wl.kernel.tree" "$wl.e2only.tree" | head -n 30 |
				sed 's/^/    /'
		fi
	fi
	say "(report) $wl: e2fsck -y -E journal_only exited $e2rc ($e2state);" \
		"e2fsck -fn then exited $e2fn; its tree is the kernel's: $same"

	# What jrecover does.
	case $area in
	empty)
		oracle_compare "$wl.img"
		kernel_counted
		tree_list "$wl.jrecover.img" "$wl.jrecover.tree"
		tree_compare "$wl.kernel.tree" "$wl.jrecover.tree" \
			"$wl: kernel replay against jrecover's"
		;;
	*)
		NCASES=$((NCASES + 1))
		say ""
		say "=== case $wl: the fast-commit area replayed or ignored, as the kernel does"
		show_journal "$wl.img"
		copy_img "$wl.img" "$wl.jrecover.img"
		before=$(sha256_of "$wl.jrecover.img")
		jrecover -n "$wl.jrecover.img"
		[ "$RUN_RC" -eq 1 ] || fail "$wl: jrecover -n exited $RUN_RC, not 1"
		[ "$(sha256_of "$wl.jrecover.img")" = "$before" ] ||
			fail "$wl: jrecover -n changed the image"
		jrecover "$wl.jrecover.img"
		[ "$RUN_RC" -eq 1 ] || fail "$wl: jrecover exited $RUN_RC, not 1"
		run e2fsck -fn "$wl.jrecover.img"
		[ "$RUN_RC" -eq 0 ] ||
			fail "$wl: e2fsck -fn finds something to fix after jrecover"
		tree_list "$wl.jrecover.img" "$wl.jrecover.tree"
		tree_compare "$wl.kernel.tree" "$wl.jrecover.tree" \
			"$wl: kernel replay against jrecover's"
		[ -z "$live" ] || tree_compare "$live" "$wl.jrecover.tree" \
			"$wl: the tree before the shutdown against jrecover's"
		;;
	esac
done

kend_test
