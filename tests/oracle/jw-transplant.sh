#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-transplant.sh --- a journal copied whole from one filesystem into the
# journal inode of another (issue 29, case 6).  The log carries the first
# filesystem's own metadata: its superblock, its first group descriptors
# and the inode table block holding its journal inode (debugfs writes them
# here, as the kernel logs them).  Replayed into the other filesystem, they
# leave a superblock and a journal inode that name the first one's journal:
# e2fsck, which checks the journal again after its replay, finds "an
# invalid journal", deletes it and checks the whole filesystem.  jrecover
# refuses such a log before anything is written
# (RECOVER_ET_LOG_MOVES_JOURNAL, exit 8), and -n says so too.
#
#   bigger-4k     32 MiB into 256 MiB (4 KiB blocks): refused [8]
#   bigger-1k     16 MiB into 128 MiB (1 KiB blocks): refused [8]
#   same-4k       32 MiB into another 32 MiB filesystem made the same way
#                 (its own files): the journal inode is where it was, so
#                 the log replays as e2fsck replays it [1]
#   inode-4k      the log rewrites only the inode table block of the
#                 journal inode, with an inode whose block map is another
#                 (a shorter journal): e2fsck finds "Journal superblock is
#                 corrupt" after its replay, clears it and checks the
#                 whole filesystem; refused [8]
#   ext-uuid      an external journal whose log rewrites the superblock
#                 with another journal UUID: e2fsck then finds that the
#                 "External journal does not support this filesystem" and
#                 exits 12; refused [8]

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

# carve IMG OUT BLOCK...: the blocks of IMG, one after another, into OUT.
carve() {
	_img=$1
	_out=$2
	shift 2
	_bs=$(img_bs "$_img")
	: > "$_out"
	for _b in "$@"; do
		dd if="$_img" bs="$_bs" skip="$_b" count=1 status=none >> "$_out" ||
			die "dd of block $_b failed"
	done
}

# selflog IMG: a transaction in IMG's own journal logging its superblock
# block, its first group descriptor block, the inode table block of its
# journal inode and one free block.
selflog() {
	_bs=$(img_bs "$1")
	_sb=$((1024 / _bs))
	_gd=$((_sb + 1))
	_it=$(itb_of "$1" 8)
	[ -n "$_it" ] || die "no inode table block for inode 8 in $1"
	_free=$(free_blocks "$1" 1)
	carve "$1" "$SCRATCH/.self" "$_sb" "$_gd" "$_it"
	mkdata "$SCRATCH/.one" "$_bs" 1 -s 7
	cat "$SCRATCH/.one" >> "$SCRATCH/.self"
	jtxn "$1" -b "$_sb,$_gd,$_it,$_free" "$SCRATCH/.self"
}

# e2fsck_finds CASE TEXT: the oracle's own reading, on a copy: after its
# replay e2fsck, checking the journal again, says TEXT (what makes the
# case: the journal it finds then is not the one it replayed).
e2fsck_finds() {
	copy_img "$1.img" "$1.check.img"
	run e2fsck -y -E journal_only ${3:+-j "$3"} "$1.check.img"
	grep -q "$2" "$SCRATCH/.run.out" ||
		fail "$1: e2fsck did not say \"$2\" after its replay (the case is not what it means)"
	rm -f "$1.check.img"
}

# refusal_says CASE: jrecover's refusal names its reason and says that
# nothing was written.
refusal_says() {
	jrecover ${2:+-j "$2"} "$1.img"
	grep -q 'another journal' "$SCRATCH/.run.out" ||
		fail "$1: jrecover's refusal does not say why"
	grep -q 'nothing was written' "$SCRATCH/.run.out" ||
		fail "$1: jrecover's refusal does not say that nothing was written"
}

# --- a journal from a smaller filesystem -------------------------------------

for c in "bigger-4k 32M 256M -b 4096" "bigger-1k 16M 128M -b 1024"; do
	# shellcheck disable=SC2086
	set -- $c
	mkimg "$1.src.img" "$2" $4 $5
	selflog "$1.src.img"
	mkimg "$1.img" "$3" $4 $5
	journal_transplant "$1.src.img" "$1.img"
	say "case $1: the journal of a $2 filesystem in a $3 one"
	e2fsck_finds "$1" "Superblock has an invalid journal"
	oracle_compare -e 8 -E 1 "$1.img"
	refusal_says "$1"
done

# --- the same geometry: the journal is where it was ---------------------------

mkimg same-4k.src.img 32M
selflog same-4k.src.img
mkimg same-4k.img 32M
mkdata same-4k.file 4096 3 -s 9
printf 'write %s f\n' "$SCRATCH/same-4k.file" | dfs_quiet same-4k.img
journal_transplant same-4k.src.img same-4k.img
say "case same-4k: the journal of a 32M filesystem in another 32M one"
oracle_compare same-4k.img

# --- only the journal inode's block, with another block map ------------------

# The inode table block of a 256M filesystem whose journal inode maps other
# blocks (made with a smaller journal), logged in this one's own journal at
# the same block number.
mkimg inode-4k.img 256M
mkimg inode-4k.other.img 256M -J size=8
it=$(itb_of inode-4k.img 8)
[ "$it" = "$(itb_of inode-4k.other.img 8)" ] ||
	die "inode 8 is not at the same block in both filesystems"
carve inode-4k.other.img inode-4k.itb "$it"
jtxn inode-4k.img -b "$it" "$SCRATCH/inode-4k.itb"
say "case inode-4k: the log rewrites the journal inode with another block map"
e2fsck_finds inode-4k "Journal superblock is corrupt"
oracle_compare -e 8 -E 1 inode-4k.img
refusal_says inode-4k

# --- an external journal: the log names another journal device ----------------

mkimg_ext ext-uuid.img 16M ext-uuid.jdev 4M -b 4096
copy_img ext-uuid.img ext-uuid.other.img
printf 'ssv journal_uuid %s\n' "$(cat /proc/sys/kernel/random/uuid)" |
	dfs_quiet ext-uuid.other.img
carve ext-uuid.other.img ext-uuid.sb 0
JO_EXT=$SCRATCH/ext-uuid.jdev jtxn ext-uuid.img -b 0 "$SCRATCH/ext-uuid.sb"
say "case ext-uuid: the log rewrites the superblock with another journal UUID"
copy_img ext-uuid.jdev ext-uuid.check.jdev
e2fsck_finds ext-uuid "External journal does not support this filesystem" \
	ext-uuid.check.jdev
oracle_compare -e 8 -E 12 ext-uuid.img ext-uuid.jdev
refusal_says ext-uuid ext-uuid.jdev

end_test
