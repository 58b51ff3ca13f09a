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
#   mdt-mixed   klib.sh's wl_mixed: e2fsck replays the crash image (bit
#               clear), jrecover a copy with the bit.  Where the log holds
#               no copy of the superblock, the results differ in that bit
#               alone; where it holds one (written by a kernel that did not
#               have the bit), the replay writes that copy, as any replay
#               does, and the two results are the same.  Which one it was
#               is reported.
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

# --- mdt-mixed -----------------------------------------------------------------
kernel_crash_image mixed mdt-mixed.img "$MDT"
case_begin mdt-mixed "the kernel's journal, dirdata set before the replay"
show_journal mdt-mixed.img
copy_img mdt-mixed.img mdt-mixed.e2fsck.img
copy_img mdt-mixed.img mdt-mixed.jrecover.img
"$SBFEATURE" mdt-mixed.jrecover.img incompat +$DIRDATA || die "sbfeature failed"
[ "$KNOWN" = 1 ] && "$SBFEATURE" mdt-mixed.e2fsck.img incompat +$DIRDATA
run e2fsck -y -E journal_only mdt-mixed.e2fsck.img
[ "$RUN_RC" -eq 0 ] || fail "mdt-mixed: e2fsck exited $RUN_RC, not 0"
jrecover mdt-mixed.jrecover.img
[ "$RUN_RC" -eq 1 ] || fail "mdt-mixed: jrecover exited $RUN_RC, not 1"
ie=$(incompat_of mdt-mixed.e2fsck.img)
ij=$(incompat_of mdt-mixed.jrecover.img)
say "    s_feature_incompat: e2fsck's $ie, jrecover's $ij"
if [ "$KNOWN" = 0 ] && [ $((ij & DIRDATA)) -ne 0 ]; then
	[ $((ie | DIRDATA)) -eq $((ij)) ] ||
		fail "mdt-mixed: jrecover's s_feature_incompat $ij is not e2fsck's $ie plus dirdata"
	"$SBFEATURE" mdt-mixed.jrecover.img incompat -$DIRDATA || die "sbfeature failed"
	say "(report) mdt-mixed: the log held no superblock without the bit: it survived"
elif [ "$KNOWN" = 0 ]; then
	say "(report) mdt-mixed: the log held the kernel's superblock (no dirdata): replayed as it was"
fi
imgcmp_case "mdt-mixed: jrecover's image (dirdata cleared) differs from e2fsck's" \
	mdt-mixed.e2fsck.img mdt-mixed.jrecover.img -s -J "$(jsb_offset mdt-mixed.img)"
kernel_counted
case_end

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
