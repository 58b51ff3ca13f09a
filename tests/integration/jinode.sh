#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jinode.sh --- a damaged journal inode, and the superblock's backup of it.
#
# The ext4 superblock keeps a copy of the journal inode's i_block and size
# (s_jnl_blocks, s_jnl_backup_type = 1).  When the journal inode fails its
# checks (unlinked, not a regular file, too small, a block map that stops
# short or leaves the filesystem, a bad inode checksum), e2fsck builds an
# inode from that copy, writes it over the journal inode and replays the
# journal through it.  The copy holds no inode flags: for an extent-mapped
# journal (ext4) the extent header is read as a block map, the copy fails
# too, and e2fsck deletes the journal, runs a full check and makes a new
# journal; jrecover refuses such a journal and writes nothing.
#
# Each replayed case is compared with e2fsck -y -E journal_only (which here
# replays and writes the inode, nothing more), and then both ways through
# a full check: jrecover followed by `e2fsck -fy` must leave what
# `e2fsck -fy` alone leaves.

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib/lib.sh"

# full_compare CASE: e2fsck -fy of the original against jrecover's result
# put through e2fsck -fy.  The full check stamps the time of the check.
full_compare() {
	[ "$ORACLE_ONLY" = 1 ] && return
	copy_img "$1.img" "$1.full-e2fsck.img"
	copy_img "$1.img" "$1.full-jrecover.img"
	run e2fsck -fy "$1.full-e2fsck.img"
	_fe=$RUN_RC
	jrecover "$1.full-jrecover.img"
	run e2fsck -fy "$1.full-jrecover.img"
	[ "$RUN_RC" -eq "$_fe" ] ||
		fail "$1: e2fsck -fy after jrecover exited $RUN_RC, alone $_fe"
	say "\$ imgcmp -s -x s_lastcheck -x s_mtime $1.full-e2fsck.img $1.full-jrecover.img"
	"$IMGCMP" -s -x s_lastcheck -x s_lastcheck_hi "$1.full-e2fsck.img" \
		"$1.full-jrecover.img" > "$SCRATCH/.cmp"
	case $? in
	0) say "    identical after the full checks" ;;
	1) sed 's/^/    /' "$SCRATCH/.cmp"
	   fail "$1: jrecover + e2fsck -fy differs from e2fsck -fy alone" ;;
	*) die "imgcmp failed" ;;
	esac
	rm -f "$1.full-e2fsck.img" "$1.full-jrecover.img"
}

# inode_is CASE FIELD VALUE: debugfs's stat of the journal inode in
# jrecover's result shows FIELD VALUE (e.g. "Links:" 1).
jinode_stat() {
	debugfs -R "stat <$2>" "$1" 2>/dev/null
}

# mkcase NAME FS-OPTIONS DEBUGFS-DAMAGE [empty]: an image with the standard
# workload in its journal (or, with "empty", none) and the journal inode
# damaged by the debugfs commands given.
mkcase() {
	# shellcheck disable=SC2086
	mkimg "$1.img" 16M $2
	if [ "${4:-}" != empty ]; then
		CASE_BLOCKS=$(free_blocks "$1.img" 2 2000)
		mkdata "$1.data" "$(img_bs "$1.img")" 2
		# shellcheck disable=SC2086
		jtxn "$1.img" -b "$(blist $CASE_BLOCKS)" "$1.data"
	fi
	printf '%s\n' "$3" | dfs_quiet "$1.img"
}

# --- ext3 (a block-mapped journal): the backup is used ------------------------

JO_OPTS=
EXT3="-O ^extent,^flex_bg,^64bit,^metadata_csum,^huge_file,^dir_nlink,^extra_isize"
for damage in "clri <8>" "sif <8> block[0] 12345" "sif <8> links_count 0" \
	      "sif <8> mode 040600" "sif <8> size 4096" \
	      "sif <8> block[IND] 99999"; do
	n=$((${n:-0} + 1))
	mkcase ext3-$n "$EXT3" "$damage"
	say "case ext3-$n: $damage"
	oracle_compare ext3-$n.img
	# shellcheck disable=SC2086
	set -- $CASE_BLOCKS
	oracle_block ext3-$n.img "$1" ext3-$n.data 0
	oracle_block ext3-$n.img "$2" ext3-$n.data 1
	full_compare ext3-$n
done

# metadata_csum on a block-mapped journal: a bad inode checksum is enough
# (e2fsck reads the journal inode with its checksum checked), and the inode
# written back gets a good one.
mkcase csum "-O ^extent,^64bit,metadata_csum" "sif <8> checksum 0x1234"
oracle_compare csum.img
full_compare csum

# 1 KiB blocks: the backup's indirect blocks go deeper.
mkcase small1k "$EXT3 -b 1024" "clri <8>"
oracle_compare small1k.img
full_compare small1k

# An empty journal behind a damaged inode: e2fsck still writes the inode.
mkcase empty "$EXT3" "clri <8>" empty
oracle_compare empty.img
[ "$ORACLE_ONLY" = 1 ] || jinode_stat empty.jrecover.img 8 | grep -q "Links: 1" ||
	fail "empty: the journal inode was not rewritten"
# The report says so, in text and JSON; a second run finds a good inode.
if [ "$ORACLE_ONLY" != 1 ]; then
	NCASES=$((NCASES + 1))
	copy_img empty.img empty.try.img
	jrecover -i empty.try.img
	grep -q "^Journal inode: *invalid" "$SCRATCH/.run.out" ||
		fail "empty: -i does not report the invalid journal inode"
	if command -v jq > /dev/null 2>&1; then
		"$JRECOVER" --json -n empty.try.img > empty.json
		[ "$(jq -r .journal_inode_backup empty.json)" = true ] ||
			fail "empty: --json does not say journal_inode_backup"
		"$JRECOVER" --json -i empty.jrecover.img > empty2.json
		[ "$(jq -r .journal_inode_backup empty2.json)" = false ] ||
			fail "empty: after the replay --json still says journal_inode_backup"
	fi
fi

# A log whose transaction rewrites the inode table block holding inode 8:
# e2fsck writes the inode first, then replays the logged copy over it.
# shellcheck disable=SC2086
mkimg itable.img 16M $EXT3
itb=$(debugfs -R "imap <8>" itable.img 2>/dev/null |
	sed -n 's/.*located at block \([0-9]*\),.*/\1/p')
[ -n "$itb" ] || die "cannot find the inode table block of inode 8"
getblk itable.img "$itb" > itable.data
jtxn itable.img -b "$itb" itable.data
printf 'clri <8>\n' | dfs_quiet itable.img
oracle_compare itable.img
oracle_block itable.img "$itb" itable.data 0

# --- the backup is not usable: refused, nothing written -----------------------

# ext4: an extent-mapped journal (the backup is read as a block map).
mkcase ext4 "" "clri <8>"
oracle_compare -e 8 -E 1 ext4.img
mkcase ext4-empty "" "sif <8> links_count 0" empty
oracle_compare -e 8 -E 1 ext4-empty.img
# No backup kept.
mkcase nobackup "$EXT3" "clri <8>
ssv jnl_backup_type 0"
oracle_compare -e 8 -E 1 nobackup.img
# s_journal_inum past the last inode: e2fsck tries no backup.
mkcase badinum "$EXT3" "ssv journal_inum 99999"
oracle_compare -e 8 -E 1 badinum.img
if [ "$ORACLE_ONLY" != 1 ]; then
	copy_img ext4.img msg.img
	jrecover msg.img
	grep -q "Journal inode is invalid and the superblock's backup of it is unusable" \
		"$SCRATCH/.run.out" || fail "ext4: not the message expected"
	copy_img ext4-empty.img msg.img
	jrecover -n msg.img
	[ "$RUN_RC" -eq 8 ] || fail "ext4-empty: jrecover -n exited $RUN_RC, not 8"
fi

# --- a journal inode whose blocks cannot be read -----------------------------

# The inode maps a journal block to the filesystem's last block, and the
# image file ends before it (a short read, as from a bad sector).  e2fsck -y
# then rewrites the unreadable block and goes on, so no hint may promise
# that -f gives e2fsck's result.  The unreadable journal superblock: -f
# cannot help.  An unreadable commit block: -f resets the journal.
# says_hint CASE RC [OPT]: jrecover exits RC and its message carries no
# promise of e2fsck's result.
says_hint() {
	NCASES=$((NCASES + 1))
	copy_img "$1.img" "$1.try.img"
	jrecover ${3:+"$3"} "$1.try.img"
	[ "$RUN_RC" -eq "$2" ] ||
		fail "$1: jrecover ${3:+$3 }exited $RUN_RC, expected $2"
	! grep -q "as e2fsck would" "$SCRATCH/.run.out" ||
		fail "$1: the hint promises e2fsck's result"
}
if [ "$ORACLE_ONLY" != 1 ]; then
	last=$(($(dumpe2fs -h ext3-1.img 2>/dev/null |
		sed -n 's/^Block count: *//p') - 1))
	for k in 0 4; do
		mkcase unread$k "$EXT3" "sif <8> block[$k] $last"
		truncate -s $((last * 4096)) unread$k.img
	done
	says_hint unread0 8
	grep -q "the journal superblock cannot be read" "$SCRATCH/.run.out" ||
		fail "unread0: not the hint expected"
	says_hint unread0 8 -f
	says_hint unread4 8
	grep -q "e2fsck would rewrite the unreadable block" "$SCRATCH/.run.out" ||
		fail "unread4: not the hint expected"
	# With -f the replay would go on, but the image is shorter than the
	# filesystem: refused before anything is written (e2fsck replays,
	# then aborts on the same comparison).
	says_hint unread4 8 -f
	grep -q "smaller than the filesystem" "$SCRATCH/.run.out" ||
		fail "unread4: -f does not refuse the short image"
	cmp -s unread4.img unread4.try.img || fail "unread4: -f wrote to the short image"
	copy_img unread4.img unread4.note.img
	run e2fsck -y -E journal_only unread4.note.img
	say "(for the record: e2fsck rewrites block $last and stops on the image size)"
fi

end_test
