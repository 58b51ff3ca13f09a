#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# dump.sh --- a journal saved to a file (debugfs -R "dump <8> FILE", the
# journal inode's contents in logical order) and replayed with
# jrecover -j FILE (jrecover(8), -j).  e2fsck cannot read such a file; the
# oracle is e2fsck replaying the filesystem's own journal, which holds the
# same log.  The dump file is never changed.
#   same   the filesystem's journal still holds the very log of the dump:
#          replaying the dump retires that journal too, so the result is
#          e2fsck's, byte for byte (and a later jrecover without -j finds
#          nothing to do)
#   reset  the filesystem's journal was reset after the dump was saved
#          (here: needs_recovery cleared and s_start set to 0 by hand, in
#          journals without checksums): only the dump's blocks are written.
#          The result may differ from e2fsck's only in the block of the
#          superblock and the block of the journal superblock, and those
#          two blocks must be as the reset left them (but for s_wtime,
#          s_kbytes_written and the superblock checksum).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for fmt in 4k-64-v3 1k-64-none 4k-64-v1 4k-32-v2; do
	set_format "$fmt"
	img=dump-same-$fmt.img
	mkimg_fmt "$img"
	std_workload "$img"
	debugfs -R "dump <8> dump-same-$fmt.journal" "$img" 2>/dev/null
	[ -s "dump-same-$fmt.journal" ] || die "debugfs did not dump the journal"
	sum=$(sha256_of "dump-same-$fmt.journal")
	oracle_compare -e "$(std_expect)" -o "-j dump-same-$fmt.journal" "$img"
	[ "$(sha256_of "dump-same-$fmt.journal")" = "$sum" ] ||
		fail "dump-same-$fmt: jrecover changed the dump file"
done

for fmt in 4k-64-none 1k-32-none; do
	set_format "$fmt"
	case=dump-reset-$fmt
	img=$case.img
	mkimg_fmt "$img"
	std_workload "$img"
	debugfs -R "dump <8> $case.journal" "$img" 2>/dev/null
	[ -s "$case.journal" ] || die "debugfs did not dump the journal"
	case_begin "$case" "jrecover -j DUMP after the journal was reset"
	show_journal "$img"

	copy_img "$img" "$case.e2fsck.img"
	run e2fsck -y -E journal_only "$case.e2fsck.img"
	# Reset the filesystem's journal, as if it had been dropped.
	copy_img "$img" "$case.reset.img"
	poke "$case.reset.img" $(($(jsb_offset "$img") + 28)) 00000000
	printf 'feature -needs_recovery\n' | dfs_quiet "$case.reset.img"
	[ "$ORACLE_ONLY" = 1 ] && continue

	copy_img "$case.reset.img" "$case.jrecover.img"
	sum=$(sha256_of "$case.journal")
	jrecover -j "$case.journal" "$case.jrecover.img"
	[ "$RUN_RC" -eq 1 ] || fail "$case: jrecover exited $RUN_RC, expected 1"
	[ "$(sha256_of "$case.journal")" = "$sum" ] ||
		fail "$case: jrecover changed the dump file"

	bs=$(img_bs "$img")
	sb_block=$((1024 / bs))
	jsb_block=$(($(jsb_offset "$img") / bs))
	say "(superblock in block $sb_block, journal superblock in block $jsb_block)"
	# The same blocks replayed as e2fsck replays them.
	for b in $("$IMGCMP" -l "$case.e2fsck.img" "$case.jrecover.img"); do
		case $b in
		"$sb_block"|"$jsb_block") ;;
		*) fail "$case: block $b differs from e2fsck's replay" ;;
		esac
	done
	# The superblock and the journal superblock as the reset left them.
	for b in $("$IMGCMP" -s -l "$case.reset.img" "$case.jrecover.img"); do
		case $b in
		"$sb_block"|"$jsb_block")
			fail "$case: jrecover changed block $b" \
				"(superblock or journal superblock)" ;;
		esac
	done
	if [ "$NFAIL" -ne "$_failed_before" ]; then
		say "\$ imgcmp -s -J $(jsb_offset "$img") $case.reset.img $case.jrecover.img"
		"$IMGCMP" -s -J "$(jsb_offset "$img")" "$case.reset.img" \
			"$case.jrecover.img" | sed 's/^/    /'
	fi
	case_end
done

end_test
