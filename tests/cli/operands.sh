#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# operands.sh --- the device as an e2fsck user gives it (jrecover(8),
# DESCRIPTION):
#  - UUID=, LABEL= (and -n with them) find the loop device over the image
#    through libblkid, and the replay through that name leaves the image
#    as a replay of a copy through its path does, byte for byte;
#  - a tag no device has: exit 8, "no device has", nothing written;
#  - a mount point given as the device: exit 8, "is where LOOP is
#    mounted", nothing written; a directory that is no mount point: exit 8,
#    "is a directory";
#  - a usage error prints the synopsis and points to --help (three
#    lines), not the whole help.
# Needs root and loop devices for the first three (skipped, 77, where
# refused).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"

# --- usage errors: short --------------------------------------------------------
NCASES=$((NCASES + 1))
jrecover --no-such-option x.img
[ "$RUN_RC" -eq 16 ] || fail "an unknown option exited $RUN_RC, not 16"
n=$(grep -c . "$SCRATCH/.run.out")
[ "$n" -eq 4 ] || fail "an unknown option printed $n lines, not 4"
grep -q -- "Try 'jrecover --help' for more information." "$SCRATCH/.run.out" ||
	fail "a usage error does not point to --help"

# --- a directory that is no mount point --------------------------------------------
NCASES=$((NCASES + 1))
mkdir plain
jrecover plain
[ "$RUN_RC" -eq 8 ] || fail "a directory: exited $RUN_RC, not 8"
grep -q "plain is a directory, not a device or an image" "$SCRATCH/.run.out" ||
	fail "a directory: not named as one"

need_loop_mounts
command -v blkid > /dev/null 2>&1 || skip "blkid not found (util-linux)"

LABEL=jr$$op
UUID=$(cat /proc/sys/kernel/random/uuid)
mkimg img.img 16M -O 64bit,metadata_csum -L "$LABEL" -U "$UUID"
std_workload img.img
copy_img img.img ref.img
jrecover ref.img
[ "$RUN_RC" -eq 1 ] || die "the reference replay exited $RUN_RC, not 1"
LOOP=$(losetup -f --show img.img 2> /dev/null) || {
	LOOP=
	skip "no loop device (losetup -f failed)"
}
# libblkid's cache may not know a device this new: ask it to look.
blkid -p "$LOOP" > /dev/null 2>&1
blkid "$LOOP" > /dev/null 2>&1

# --- tags --------------------------------------------------------------------------
NCASES=$((NCASES + 1))
before=$(sha256_of img.img)
jrecover -n "LABEL=$LABEL"
[ "$RUN_RC" -eq 1 ] || fail "-n LABEL=: exited $RUN_RC, not 1 (would replay)"
[ "$(sha256_of img.img)" = "$before" ] || fail "-n LABEL= changed the image"
jrecover "UUID=$UUID"
[ "$RUN_RC" -eq 1 ] || fail "UUID=: exited $RUN_RC, not 1"
grep -q "$LOOP" "$SCRATCH/.run.out" ||
	fail "UUID=: the report does not name $LOOP"
losetup -d "$LOOP"
LOOP=
imgcmp_case "the replay through UUID= is not the replay of the image" \
	img.img ref.img -s

NCASES=$((NCASES + 1))
copy_img ref.img none.img
before=$(sha256_of none.img)
jrecover "UUID=00000000-0000-4000-8000-$(printf '%012d' $$)"
[ "$RUN_RC" -eq 8 ] || fail "an unknown UUID: exited $RUN_RC, not 8"
grep -q "no device has UUID=" "$SCRATCH/.run.out" ||
	fail "an unknown UUID: not said"

# --- a mount point ------------------------------------------------------------------
NCASES=$((NCASES + 1))
copy_img img.img mounted.img
loop_mount mounted.img ro,noload || skip "cannot loop-mount an ext4 image here"
before=$(sha256_of mounted.img)
jrecover "$MNT"
[ "$RUN_RC" -eq 8 ] || fail "a mount point: exited $RUN_RC, not 8"
grep -q "is where $LOOP is mounted" "$SCRATCH/.run.out" ||
	fail "a mount point: its device not named"
unmount
[ "$(sha256_of mounted.img)" = "$before" ] || fail "the mount point's image changed"

end_test
