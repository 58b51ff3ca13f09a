#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# backup-sb.sh --- jrecover -b N [-B SIZE]: the filesystem read through a
# backup superblock, against e2fsck -b N [-B SIZE] -y -E journal_only on
# a copy of the same image (doc/e2fsprogs.md, "e2fsck -b").
#
# e2fsck -b reads the backup and its group descriptors, replays the journal
# the backup names, reopens the filesystem at the same backup and writes
# the primary superblock and descriptors from it.  libext2fs writes no
# backup marked as needing recovery; the kernel's online resize does (it
# copies the live primary).  The cases mark the backup with sbfeature -o,
# and each is run with the primary intact and zeroed (the real use):
#
#   flag-*        the backup marks needs_recovery, debugfs wrote a log: a
#                 replay, the primary from the backup without the flag;
#                 e2fsck then restarts, finds the flag again in the backup
#                 and stops ("unable to set superblock flags", exit 12):
#                 the image is what it leaves, jrecover exits 1
#   sblog-*       as flag-*, the log holding the superblock's block, the
#                 first descriptors' and the journal inode's table block
#   clean-*       no log, no flag: only the primary from the backup
#                 (e2fsck exits 0, jrecover 1: the filesystem changed)
#   noflag-log    a log, the backup not marked: e2fsck replays it and
#                 runs a full check; jrecover refuses (8), -f too, and
#                 writes nothing
#   badsb         -b at a block that holds no superblock: both exit 8 and
#                 write nothing
#   1k-*          1 KiB blocks, -b 8193; 4 KiB blocks, -b 32768; each with
#                 -B and without (the size found by trying, as e2fsck does)
#   metabg-*, ss2-*, fc-*
#                 meta_bg (every copy of each descriptor block rewritten),
#                 sparse_super2 (the backup in group 1), fast_commit with
#                 an empty fast-commit area (a full-commit log)
#
# Each comparison allows what the project's comparison allows (s_wtime,
# s_kbytes_written, the checksum): imgcmp -s.  -n and -i with -b write
# nothing; after the replay, jrecover without -b finds nothing to do.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

need_built "$JRECOVER" "$IMGCMP"
SBFEATURE=$top_builddir/tests/oracle/sbfeature
need_built "$SBFEATURE"

cd "$SCRATCH" || die "no scratch directory"

# log_two IMG: one transaction of two data blocks, in free blocks.
log_two() {
	# shellcheck disable=SC2046
	set -- "$1" $(free_blocks "$1" 2)
	mkdata two.bin "$(img_bs "$1")" 2 -s 21
	jtxn "$1" -b "$2,$3" two.bin
}

# each_way IMG E2FSCK_RC JRECOVER_RC OPTS...: IMG as it is, then with its
# primary superblock zeroed (IMG-zeroed.img).
each_way() {
	_ew=$1
	_ew_e=$2
	_ew_j=$3
	shift 3
	bsb_compare "$_ew_e" "$_ew_j" "$_ew" "$@"
	copy_img "$_ew" "${_ew%.img}-zeroed.img"
	zero_primary "${_ew%.img}-zeroed.img"
	bsb_compare "$_ew_e" "$_ew_j" "${_ew%.img}-zeroed.img" "$@"
}

# --- 4 KiB blocks, backup in group 1 at 32768 ---------------------------------
mkimg flag-4k.img 256M
log_two flag-4k.img
mark_backup flag-4k.img 32768 4096
each_way flag-4k.img 12 1 -b 32768 -B 4096
copy_img flag-4k.img flag-4k-nob.img
zero_primary flag-4k-nob.img
bsb_compare 12 1 flag-4k-nob.img -b 32768

# The log holds the blocks a kernel logs: the superblock's, the first
# group descriptors' and the journal inode's inode table block (the journal
# is looked up again after the replay, at the backup, as e2fsck does).
mkimg sblog-4k.img 256M
it=$(itb_of sblog-4k.img 8)
[ -n "$it" ] || die "no inode table block for inode 8"
for b in 0 1 "$it"; do
	dd if=sblog-4k.img bs=4096 skip="$b" count=1 status=none
done > sblog-4k.data || die "dd failed"
jtxn sblog-4k.img -b "0,1,$it" sblog-4k.data
mark_backup sblog-4k.img 32768 4096
each_way sblog-4k.img 12 1 -b 32768 -B 4096

mkimg clean-4k.img 256M
each_way clean-4k.img 0 1 -b 32768 -B 4096
copy_img clean-4k.img clean-4k-nob.img
zero_primary clean-4k-nob.img
bsb_compare 0 1 clean-4k-nob.img -b 32768

mkimg noflag-log.img 256M
log_two noflag-log.img
bsb_compare 1 8 noflag-log.img -b 32768 -B 4096
copy_img noflag-log.img noflag-log-f.img
zero_primary noflag-log-f.img
case_begin noflag-log-f "-f -b 32768: refused too"
copy_img noflag-log-f.img noflag-log-f.jrecover.img
jrecover -f -b 32768 noflag-log-f.jrecover.img
[ "$RUN_RC" -eq 8 ] || fail "noflag-log-f: jrecover -f -b exited $RUN_RC, not 8"
same_as noflag-log-f.jrecover.img "" noflag-log-f.img "" ||
	fail "noflag-log-f: jrecover -f -b changed the image"
case_end

# No superblock at block 100 (an inode table or bitmap).
copy_img flag-4k.img badsb.img
bsb_compare 8 8 badsb.img -b 100 -B 4096
copy_img flag-4k.img badsb-nob.img
bsb_compare 8 8 badsb-nob.img -b 100

# --- 1 KiB blocks, backup in group 1 at 8193 ----------------------------------
mkimg flag-1k.img 64M -b 1024
log_two flag-1k.img
mark_backup flag-1k.img 8193 1024
each_way flag-1k.img 12 1 -b 8193 -B 1024
copy_img flag-1k.img flag-1k-nob.img
zero_primary flag-1k-nob.img
bsb_compare 12 1 flag-1k-nob.img -b 8193

mkimg clean-1k.img 64M -b 1024
copy_img clean-1k.img clean-1k-nob.img
zero_primary clean-1k-nob.img
bsb_compare 0 1 clean-1k-nob.img -b 8193

# --- meta_bg: each metagroup's descriptor block in groups 0/1 and last -------
mkimg metabg.img 512M -O meta_bg,^resize_inode
log_two metabg.img
mark_backup metabg.img 32768 4096
each_way metabg.img 12 1 -b 32768 -B 4096

# --- sparse_super2: backups in group 1 and the last group ---------------------
mkimg ss2.img 512M -O sparse_super2
log_two ss2.img
mark_backup ss2.img 32768 4096
each_way ss2.img 12 1 -b 32768 -B 4096

# --- fast_commit, its area empty: the log of full commits ---------------------
mkimg fc.img 256M -O fast_commit
log_two fc.img
mark_backup fc.img 32768 4096
each_way fc.img 12 1 -b 32768 -B 4096

end_test
