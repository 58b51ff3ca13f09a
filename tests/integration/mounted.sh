#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mounted.sh --- a mounted filesystem is refused for a replay, -n and -s,
# however it is named: exit 8, a message saying it is mounted, nothing
# written.  -i and -l only read, as debugfs's logdump: they read it, with
# a warning that the journal is live and what they show a snapshot, and
# write nothing.  A block device another program holds open with O_EXCL
# is refused whatever is asked.  The image is mounted read-only through a loop device (with
# noload when its journal needs recovery, so that the kernel does not
# replay it), and jrecover is pointed at the image file and at the loop
# device, for a replay, -n, -i, -l and -s.  Once unmounted, the same image
# replays.
#
# Needs root and loop mounts; skipped (77) where the machine has neither.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

need_loop_mounts
need_built "$JWRITE"
HOLDEXCL=$top_builddir/tests/integration/holdexcl
need_built "$HOLDEXCL"

# mount_ro IMG OPTS: IMG mounted read-only (skipped where that fails).
mount_ro() {
	loop_mount "$1" "ro${2:+,$2}" || skip "cannot mount a loop device here"
}

# refused IMG: a replay, -n and -s on IMG and on $LOOP exit 8 and say
# "mounted"; -i and -l exit 0 with the warning; nothing changes.
refused() {
	_before=$(sha256_of "$1")
	for _dev in "$1" "$LOOP"; do
		for _opt in -i -l; do
			NCASES=$((NCASES + 1))
			jrecover $_opt "$_dev"
			[ "$RUN_RC" -eq 0 ] ||
				fail "jrecover $_opt $_dev on a mounted filesystem exited $RUN_RC, not 0"
			grep -q "is mounted: its journal is live.*snapshot" "$SCRATCH/.run.out" ||
				fail "jrecover $_opt $_dev does not warn that the journal is live"
		done
		for _opt in "" -n "-s $SCRATCH/saved"; do
			NCASES=$((NCASES + 1))
			# shellcheck disable=SC2086
			jrecover $_opt "$_dev"
			[ "$RUN_RC" -eq 8 ] ||
				fail "jrecover $_opt $_dev on a mounted filesystem exited $RUN_RC, not 8"
			grep -q "mounted" "$SCRATCH/.run.out" ||
				fail "jrecover $_opt $_dev does not say the filesystem is mounted"
			[ ! -e "$SCRATCH/saved" ] ||
				fail "jrecover -s $_dev saved the journal of a mounted filesystem"
		done
	done
	[ "$(sha256_of "$1")" = "$_before" ] ||
		fail "$1 changed while mounted"
}

# A clean filesystem.
mkimg clean.img 64M
say ""
say "=== case clean, mounted read-only"
mount_ro clean.img
refused clean.img
unmount

# A journal that needs recovery: one transaction logging a free block.
mkimg dirty.img 64M
# shellcheck disable=SC2046
set -- $(free_blocks dirty.img 1)
"$JWRITE" dirty.img > /dev/null <<EOF || die "jwrite failed"
features revoke
txn
log $1
commit
EOF
say ""
say "=== case needs recovery, mounted read-only with noload"
mount_ro dirty.img noload
refused dirty.img
unmount

# Not mounted, but held open with O_EXCL by another program, as a running
# fsck holds it: refused as well (even -n and -i, which would read blocks
# the other program may be rewriting), and nothing written.
say ""
say "=== case needs recovery, the loop device held open exclusively"
LOOP=$(losetup -f --show dirty.img 2> /dev/null) || {
	LOOP=
	skip "no loop device (losetup -f failed)"
}
rm -f hold.in
mkfifo hold.in || die "mkfifo failed"
"$HOLDEXCL" "$LOOP" < hold.in > hold.out &
HOLDER=$!
exec 9> hold.in
_w=0
until grep -q held hold.out 2> /dev/null; do
	kill -0 "$HOLDER" 2> /dev/null || die "holdexcl could not hold $LOOP"
	_w=$((_w + 1))
	[ "$_w" -lt 1000 ] || die "holdexcl did not report holding $LOOP"
	sleep 0.01
done
before=$(sha256_of dirty.img)
for _opt in "" -n -i; do
	NCASES=$((NCASES + 1))
	# shellcheck disable=SC2086
	jrecover $_opt "$LOOP"
	[ "$RUN_RC" -eq 8 ] ||
		fail "jrecover $_opt on a device held exclusively exited $RUN_RC, not 8"
	grep -q "held open exclusively" "$SCRATCH/.run.out" ||
		fail "jrecover $_opt does not say the device is held open exclusively"
done
exec 9>&-
wait "$HOLDER"
[ "$(sha256_of dirty.img)" = "$before" ] ||
	fail "dirty.img changed while its loop device was held"
unmount
NCASES=$((NCASES + 1))
jrecover dirty.img
[ "$RUN_RC" -eq 1 ] || fail "dirty.img, unmounted: jrecover exited $RUN_RC, not 1"

end_test
