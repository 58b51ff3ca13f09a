#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-dirdata.sh --- kernel journals on a Lustre MDT's filesystem shape
# (mkfs.lustre's MDT options but mmp, whose waits tests/oracle/jw-dirdata.sh
# covers; quota and project only where this kernel mounts them: a kernel
# without CONFIG_QUOTA refuses both) with the dirdata feature, which neither this kernel's ext4 nor
# Debian's libext2fs knows.  The kernel mounts the filesystem with the bit
# clear (it would refuse it otherwise); the bit is set again in the crash
# image's primary superblock (tests/oracle/sbfeature) before the replay,
# as a Lustre MDT's superblock carries it.
#
#   mdt-mixed   klib.sh's wl_mixed, and
#   mdt-create  creates and writes only (no orphan list to log): e2fsck
#               replays the crash image (bit clear), jrecover a copy with
#               the bit.  Where the log holds no copy of the superblock,
#               the results differ in that bit alone; where it holds one
#               (written by a kernel that did not have the bit: wl_mixed's
#               unlinks and truncates log it), the replay writes that copy,
#               as any replay does, and the two results are the same.
#               Which one it was is reported; the bit lost without a logged
#               superblock is a failure.
#   mdt-fc      wl_fc_mixed on the same shape with fast_commit: with fast
#               commits to replay, jrecover refuses (exit 8, dirdata named,
#               nothing written), -n too; -i reads it.
#
# Needs root and loop mounts; skipped (77) otherwise.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

SBFEATURE=$top_builddir/tests/oracle/sbfeature
need_built "$SBFEATURE" "$IMGCMP"
DIRDATA=0x1000
MDT="-I 1024 -O large_dir,ea_inode,flex_bg,huge_file,dir_nlink,extra_isize,64bit,metadata_csum"

# Does this kernel mount quota and project?
mkimg quota.img 16M -O quota,project
kloop quota.img
KMOUNT_MAY_FAIL=1
if kmount "$KLOOP" ""; then
	MDT="$MDT,quota,project"
	kumount "$KMNT"
else
	say "(report) this kernel does not mount quota,project: the MDT shape goes without them"
fi
KMOUNT_MAY_FAIL=
kunloop "$KLOOP"

incompat_of() {
	"$SBFEATURE" "$1" show | sed -n 's/.* incompat \(0x[0-9a-f]*\) .*/\1/p'
}

# Where the installed libext2fs knows dirdata, the comparison is oracle_compare's.
mkimg probe.img 8M
"$SBFEATURE" probe.img incompat +$DIRDATA || die "sbfeature failed"
if dumpe2fs -h probe.img > /dev/null 2>&1; then
	KNOWN=1
else
	KNOWN=0
fi

# logs_sb IMG: true if the log holds a copy of block 0 (the superblock).
logs_sb() {
	debugfs -c -R "logdump -a" "$1" 2> /dev/null |
		grep -q "^  FS block 0 logged at"
}

# wl_mdtcreate MNT: directories and files written, nothing unlinked or
# truncated (no orphan list: the kernel has no reason to log its
# superblock).
wl_mdtcreate() {
	_kw=$1
	mkdir -p "$_kw/d1/d2" "$_kw/d3" &&
	"$KWORK" fsync "$_kw" "$_kw/d1" &&
	"$KWORK" write "$_kw/d1/a" 0 40000 1 &&
	"$KWORK" write "$_kw/d1/d2/b" 0 300000 2 &&
	"$KWORK" write "$_kw/d3/c" 0 100000 3 &&
	"$KWORK" fsync "$_kw/d3"
}

# kcase CASE WORKLOAD: the crash image, dirdata set on jrecover's copy.
kcase() {
	_c=$1
	kernel_crash_image "$2" "$_c.img" "$MDT"
	case_begin "$_c" "the kernel's journal ($2), dirdata set before the replay"
	show_journal "$_c.img"
	copy_img "$_c.img" "$_c.e2fsck.img"
	copy_img "$_c.img" "$_c.jrecover.img"
	"$SBFEATURE" "$_c.jrecover.img" incompat +$DIRDATA || die "sbfeature failed"
	[ "$KNOWN" = 1 ] && "$SBFEATURE" "$_c.e2fsck.img" incompat +$DIRDATA
	run e2fsck -y -E journal_only "$_c.e2fsck.img"
	[ "$RUN_RC" -eq 0 ] || fail "$_c: e2fsck exited $RUN_RC, not 0"
	jrecover "$_c.jrecover.img"
	[ "$RUN_RC" -eq 1 ] || fail "$_c: jrecover exited $RUN_RC, not 1"
	_ie=$(incompat_of "$_c.e2fsck.img")
	_ij=$(incompat_of "$_c.jrecover.img")
	say "    s_feature_incompat: e2fsck's $_ie, jrecover's $_ij"
	if [ "$KNOWN" = 0 ] && [ $((_ij & DIRDATA)) -ne 0 ]; then
		[ $((_ie | DIRDATA)) -eq $((_ij)) ] ||
			fail "$_c: jrecover's s_feature_incompat $_ij is not e2fsck's $_ie plus dirdata"
		"$SBFEATURE" "$_c.jrecover.img" incompat -$DIRDATA || die "sbfeature failed"
		say "(report) $_c: the results differ in the dirdata bit alone"
	elif [ "$KNOWN" = 0 ]; then
		# Lost: only a logged copy of the superblock may have done that.
		logs_sb "$_c.img" ||
			fail "$_c: jrecover lost the dirdata bit, and the log holds no superblock"
		say "(report) $_c: the log held the kernel's superblock (no dirdata): replayed as it was"
	fi
	imgcmp_case "$_c: jrecover's image (dirdata cleared) differs from e2fsck's" \
		"$_c.e2fsck.img" "$_c.jrecover.img" -s -J "$(jsb_offset "$_c.img")"
	kernel_counted
	case_end
}

kcase mdt-mixed mixed
kcase mdt-create mdtcreate

# --- mdt-fc: fast commits are not replayed on it --------------------------------
if [ "$KNOWN" = 0 ]; then
	kernel_crash_image fc_mixed mdt-fc.img "$MDT,fast_commit"
	case_begin mdt-fc "fast commits on a filesystem with dirdata"
	"$SBFEATURE" mdt-fc.img incompat +$DIRDATA || die "sbfeature failed"
	before=$(sha256_of mdt-fc.img)
	jrecover -i --json mdt-fc.img
	[ "$RUN_RC" -eq 0 ] || fail "mdt-fc: jrecover -i exited $RUN_RC"
	if grep -q '"fast_commit":{"state":"live"' "$SCRATCH/.run.out"; then
		for o in -n ""; do
			jrecover $o mdt-fc.img
			[ "$RUN_RC" -eq 8 ] || fail "mdt-fc: jrecover $o exited $RUN_RC, not 8"
			grep -q "Fast commits cannot be replayed.*unsupported feature(s): dirdata;" \
				"$SCRATCH/.run.out" ||
				fail "mdt-fc: jrecover $o does not refuse the fast commits naming dirdata"
		done
	else
		say "(report) mdt-fc: no live fast commits in this crash image; nothing to refuse"
	fi
	[ "$(sha256_of mdt-fc.img)" = "$before" ] || fail "mdt-fc: jrecover changed the image"
	case_end
fi

kend_test
