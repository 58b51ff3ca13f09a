#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# visible.sh --- old ext3 layouts: a journal in a visible file (/journal,
# s_journal_inum 12, no s_jnl_blocks backup, inode 8 unused) and version 1
# journal superblocks, with block-mapped journals.
#
# On a visible journal `e2fsck -E journal_only` replays, then goes beyond
# the replay: it records the journal inode's blocks in s_jnl_blocks
# ("Backing up journal inode block information") and moves the journal to
# inode 8 ("Moving journal from /journal to hidden inode").  jrecover only
# replays, so the oracle is, as for orphan inodes, e2fsck alone against
# jrecover followed by e2fsck -E journal_only (both with the same clock:
# e2fsck stamps the old inode's i_dtime); after jrecover the journal must
# need nothing.  The same logs in inode 8 are compared with e2fsck
# directly.  Last, a visible journal with an s_jnl_blocks backup and its
# inode cleared: e2fsck reads it through the backup and rewrites inode 12
# (then moves it), and so does jrecover (without the move).

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib/lib.sh"

need_built "$JWRITE"

EXT3="-O ^extent,^flex_bg,^64bit,^metadata_csum,^huge_file,^dir_nlink,^extra_isize"

# visible IMG: move the journal of IMG into a regular file /journal (its
# superblock, then blocks that are not zero, so the file has no holes) and
# make that the journal: inode 8 cleared and its blocks freed, no backup.
visible() {
	_bs=$(img_bs "$1")
	debugfs -R "dump <8> $SCRATCH/j8.bin" "$1" 2>/dev/null
	_n=$(($(wc -c < "$SCRATCH/j8.bin") / _bs))
	{
		head -c "$_bs" "$SCRATCH/j8.bin"
		head -c $(((_n - 1) * _bs)) /dev/zero | tr '\0' '\377'
	} > "$SCRATCH/jf.bin"
	_blocks=$(debugfs -R "blocks <8>" "$1" 2>/dev/null)
	printf 'write %s journal\n' "$SCRATCH/jf.bin" | dfs_quiet "$1"
	VIS_INO=$(debugfs -R "stat /journal" "$1" 2>/dev/null |
		sed -n 's/^Inode: \([0-9]*\).*/\1/p')
	[ -n "$VIS_INO" ] || die "cannot find /journal in $1"
	{
		for _b in $_blocks; do say "freeb $_b"; done
		say "clri <8>"
		say "ssv journal_inum $VIS_INO"
		say "ssv jnl_backup_type 0"
	} | dfs_quiet "$1"
}

# backup IMG: record /journal's i_block and size in s_jnl_blocks (what
# e2fsck's "Backing up journal inode block information" would write).
backup() {
	_bs=$(img_bs "$1")
	_loc=$(debugfs -R "imap <$VIS_INO>" "$1" 2>/dev/null |
		sed -n 's/.*located at block \([0-9]*\), offset \(0x[0-9a-f]*\).*/\1 \2/p')
	# shellcheck disable=SC2086
	set -- "$1" $_loc
	[ $# -eq 3 ] || die "cannot find inode $VIS_INO in $1"
	_at=$(($2 * _bs + $3))
	# i_size at 4, i_block[15] at 40, i_size_high at 108 (little-endian).
	_words=$(od -An -tu4 -v -j $((_at + 40)) -N 60 "$1")
	_size=$(od -An -tu4 -j $((_at + 4)) -N 4 "$1" | tr -d ' ')
	_high=$(od -An -tu4 -j $((_at + 108)) -N 4 "$1" | tr -d ' ')
	{
		_i=0
		for _w in $_words; do
			say "ssv jnl_blocks[$_i] $_w"
			_i=$((_i + 1))
		done
		say "ssv jnl_blocks[15] $_high"
		say "ssv jnl_blocks[16] $_size"
		say "ssv jnl_backup_type 1"
	} | dfs_quiet "$1"
}

# log IMG VERSION: two transactions by jwrite, the second revoking a block
# of the first.  Sets LOG_B (the first block logged).
log() {
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(free_blocks "$1" 3 3000)
	LOG_B=$3
	{
		say "version $2"
		[ "$2" = 1 ] && say "nrusers 0"
		say "txn"
		say "log $3 $4"
		say "commit"
		say "txn"
		say "revoke $4"
		say "log $5"
		say "commit"
	} > "$SCRATCH/log.jws"
	say "jwrite $1:"
	sed 's/^/    > /' "$SCRATCH/log.jws"
	"$JWRITE" -v "$1" < "$SCRATCH/log.jws" > "$SCRATCH/.jw.out" 2>&1 ||
		{ cat "$SCRATCH/.jw.out"; die "jwrite failed on $1"; }
	sed 's/^/    | /' "$SCRATCH/.jw.out"
}

# vis_compare IMG: the comparison described above.
vis_compare() {
	e2fsck_alone "$1"
	[ "$RUN_RC" -eq 0 ] || fail "$_case: e2fsck exited $RUN_RC, expected 0"
	grep -q 'Moving journal from /journal to hidden inode' \
		"$SCRATCH/.run.out" || fail "$_case: e2fsck did not move the journal: fix the test"
	# The replay happened: the first block logged changed.
	! cmp -s "$1" "$_case.e2fsck.img" || fail "$_case: e2fsck changed nothing"
	[ "$(getblk "$1" "$LOG_B" | sha256sum)" != \
	  "$(getblk "$_case.e2fsck.img" "$LOG_B" | sha256sum)" ] ||
		fail "$_case: e2fsck did not replay block $LOG_B: fix the test"
	if [ "$ORACLE_ONLY" != 1 ]; then
		alone_jrecover
		[ "$(debugfs -R "stat <$VIS_INO>" "$_case.jrecover.img" 2>/dev/null |
			sed -n 's/^Inode: [0-9]* *Type: \([a-z]*\).*/\1/p')" = regular ] ||
			fail "$_case: jrecover did not leave /journal where it was"
		e2fsck_after
	fi
	case_end
}

# One block group each: moving the journal makes e2fsck rewrite the backup
# superblocks too, which would carry the s_kbytes_written jrecover counted
# into them, a field the comparison leaves out of the primary only.
for v in 1 2; do
	for bs in 4096 1024; do
		c=visible-v$v-$bs
		# shellcheck disable=SC2086
		mkimg "$c.img" $((bs * 8))K $EXT3 -b "$bs"
		visible $c.img
		log $c.img $v
		vis_compare $c.img

		# The same log in the hidden inode 8: e2fsck only replays.
		c=hidden-v$v-$bs
		# shellcheck disable=SC2086
		mkimg "$c.img" $((bs * 8))K $EXT3 -b "$bs"
		log $c.img $v
		oracle_compare $c.img
	done
done

# A visible journal whose inode is cleared, with a backup of it: e2fsck
# reads it through the backup and rewrites inode 12 before the move.
for bs in 4096 1024; do
	c=visible-backup-$bs
	# shellcheck disable=SC2086
	mkimg "$c.img" $((bs * 8))K $EXT3 -b "$bs"
	visible "$c.img"
	backup "$c.img"
	log "$c.img" 2
	printf 'clri <%s>\n' "$VIS_INO" | dfs_quiet "$c.img"
	vis_compare "$c.img"
	if [ "$ORACLE_ONLY" != 1 ]; then
		copy_img "$c.img" "$c.try.img"
		jrecover "$c.try.img"
		grep -q "the journal inode was invalid: rewritten" "$SCRATCH/.run.out" ||
			fail "$c: jrecover did not use the backup"
	fi
done

end_test
