#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mmp-mount.sh --- after jrecover, the kernel mounts a filesystem with
# multi-mount protection at once: the MMP block was left clean.  Checked
# through a read-write loop mount (the kernel checks MMP only then) after
# a replay followed by a dry run, and after a replay interrupted during the
# MMP wait (the kernel then replays the journal itself).  For contrast, the block a dead fsck leaves (EXT4_MMP_SEQ_FSCK, what
# jrecover used to leave) makes the kernel refuse the mount.
#
# Needs root and loop mounts; skipped (77) where the machine has neither.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

need_loop_mounts
need_built "$JWRITE"
MMPPEER=$top_builddir/tests/integration/mmppeer
need_built "$MMPPEER"

# Can this machine loop-mount an ext4 image at all?
mkimg probe.img 16M
loop_mount probe.img || skip "cannot mount a loop device here"
unmount
rm -f probe.img

mkimg base.img 64M -O mmp -E mmp_update_interval=1
# shellcheck disable=SC2046
set -- $(free_blocks base.img 8 3000)
"$JWRITE" base.img > /dev/null <<EOF || die "jwrite failed"
features revoke
txn
log $*
commit
EOF

# must_mount IMG OPTS WHAT
must_mount() {
	NCASES=$((NCASES + 1))
	if loop_mount "$1" "$2"; then
		say "    mounted: $(ls "$MNT" | tr '\n' ' ')"
		unmount
	else
		fail "$3: the kernel refuses to mount it"
	fi
}

# The replay, a dry run on the result, and an interrupted replay: side by
# side, for the waits.
copy_img base.img replayed.img
copy_img base.img stopped.img
if env --default-signal=INT true 2>/dev/null; then
	DEFSIG="env --default-signal=INT"
else
	DEFSIG=
fi
$DEFSIG "$JRECOVER" stopped.img > stopped.out 2>&1 &
SPID=$!
"$JRECOVER" replayed.img > replayed.out 2>&1 &
RPID=$!
_w=0
until grep -q "MMP: waiting" stopped.out 2> /dev/null; do
	_w=$((_w + 1))
	[ "$_w" -lt 300 ] || break
	sleep 0.05
done
kill -INT "$SPID"
wait "$SPID"
SRC=$?
wait "$RPID"
RRC=$?
sed 's/^/    /' stopped.out replayed.out
[ "$SRC" -eq 32 ] || fail "the interrupted replay exited $SRC, not 32"
[ "$RRC" -eq 1 ] || fail "the replay exited $RRC, not 1"
jrecover -n replayed.img
[ "$RUN_RC" -eq 0 ] || fail "the dry run exited $RUN_RC, not 0"

say ""
say "=== case replayed"
must_mount replayed.img "" "after the replay"
say ""
say "=== case interrupted during the MMP wait"
must_mount stopped.img "" "after an interrupted replay"

say ""
say "=== case the block a dead fsck leaves (what jrecover used to leave)"
NCASES=$((NCASES + 1))
copy_img replayed.img deadfsck.img
"$MMPPEER" deadfsck.img set 0xE24D4D50 deadnode deaddev || die "mmppeer failed"
if loop_mount deadfsck.img "" ; then
	unmount
	fail "the kernel mounts a filesystem whose MMP block says fsck is running"
fi

end_test
