#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-transplant.sh --- a kernel's journal copied whole into the journal
# inode of another filesystem (issue 29, case 6; tests/oracle/
# jw-transplant.sh makes the same with debugfs).  The kernel logs its
# superblock, group descriptors and inode table blocks: replayed into a
# larger filesystem they leave a superblock under which the journal inode
# is invalid, and e2fsck deletes the journal after its replay and checks
# everything.  jrecover refuses, nothing written [8].  Into a filesystem
# made the same way (same size, same UUID, its own files) the journal
# inode stays where it is and the log replays as e2fsck replays it [1].
#
#   into-256m   the journal of a 32 MiB crash image in a 256 MiB image
#   into-32m    the same journal in another 32 MiB image

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

kernel_crash_image mixed src.img

mkimg into-256m.img 256M
journal_transplant src.img into-256m.img
say "case into-256m: a 32M filesystem's kernel journal in a 256M one"
copy_img into-256m.img into-256m.check.img
run e2fsck -y -E journal_only into-256m.check.img
grep -q 'Superblock has an invalid journal' "$SCRATCH/.run.out" ||
	fail "into-256m: e2fsck did not find the journal invalid after its replay (the case is not what it means)"
rm -f into-256m.check.img
oracle_compare -e 8 -E 1 into-256m.img
jrecover into-256m.img
grep -q 'another journal' "$SCRATCH/.run.out" ||
	fail "into-256m: jrecover's refusal does not say why"

mkimg into-32m.img 32M
mkdata into-32m.file 4096 3 -s 9
printf 'write %s f\n' "$SCRATCH/into-32m.file" | dfs_quiet into-32m.img
journal_transplant src.img into-32m.img
say "case into-32m: the same journal in another 32M filesystem"
oracle_compare into-32m.img
kernel_counted

kend_test
