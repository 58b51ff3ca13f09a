#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# disknames.sh --- one disk under two names (jrecover(8), CONCURRENCY;
# issue 29, cases 3 and 4): an image img.img and the loop device LO over
# it are one filesystem to the lock and to the in-use check.
#  - flock(1) holds img.img: a replay and -n through LO are refused (exit
#    8, "locked by another run", naming flock's pid);
#  - another program holds LO open with O_EXCL (as a run through LO, an
#    fsck or a mount does): a replay and -n of img.img are refused (exit
#    8, "held open exclusively");
#  - a replay of img.img held mid-way (its -C FD a full pipe): a replay
#    and -n through LO are refused, and LO cannot be opened with O_EXCL
#    (nothing can mount it); let go, it replays as e2fsck does;
#  - a replay through LO held mid-way: a replay and -n of img.img are
#    refused; let go, it replays as e2fsck does;
#  - img.img mounted read-write through LO in another mount namespace
#    (unshare -m), which this namespace's mount table does not show: a
#    replay, -n and -i of img.img and of LO are refused (exit 8).
# Every file's sha256 is the same after each refusal.  Needs root, loop
# devices and (for the last case) unshare -m; skipped (77) without them.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
[ "$(id -u)" = 0 ] || skip "not root: no loop devices"
command -v losetup > /dev/null 2>&1 || skip "losetup not found"
command -v flock > /dev/null 2>&1 || skip "flock(1) not found (util-linux)"
HOLDEXCL=$top_builddir/tests/integration/holdexcl
need_built "$HOLDEXCL"

set_format 4k-64-v3
mkimg_fmt dirty.img
std_workload dirty.img
copy_img dirty.img e2fsck.img
run e2fsck -y -E journal_only e2fsck.img
copy_img dirty.img img.img

# Whatever this test started is let go at exit, failed or not: the
# holders (by the pids kept here), the namespace's mount, the loop device.
LO=
PIDS=
cleanup() {
	for _p in $PIDS; do
		kill "$_p" 2> /dev/null
		wait "$_p" 2> /dev/null
	done
	[ -z "$LO" ] || losetup -d "$LO" 2> /dev/null
}
trap '_rc=$?; cleanup; (exit $_rc); _cleanup' EXIT
LO=$(losetup -f --show img.img 2> /dev/null) || {
	LO=
	skip "no loop device (losetup -f failed)"
}
# jrecover finds the file behind a loop device in sysfs: a root without
# /sys mounted (a bare chroot) cannot show it.
[ -e "/sys/block/${LO#/dev/}/loop/backing_file" ] ||
	skip "no /sys/block/${LO#/dev/}/loop/backing_file (sysfs not mounted)"
say "img.img is behind $LO"

hashes() {
	for _f in img.img dirty.img e2fsck.img; do
		echo "$_f $(sha256_of "$_f")"
	done
}

# refused WHAT PATTERN ARGS...: jrecover ARGS exits 8 with PATTERN in its
# message (grep -E), and no file here changed.
refused() {
	_what=$1
	_pat=$2
	shift 2
	NCASES=$((NCASES + 1))
	hashes > h.before
	jr r.out r.err "$@"
	[ "$RUN_RC" -eq 8 ] || fail "$_what: jrecover $* exited $RUN_RC, not 8"
	grep -Eq "$_pat" r.err ||
		fail "$_what: jrecover $* does not say /$_pat/"
	hashes > h.after
	cmp -s h.before h.after || {
		diff h.before h.after | sed 's/^/    /'
		fail "$_what: files changed"
	}
}

# img.img back to the journal that needs recovery (the same inode, so LO
# still sees it; LO's own cache dropped).
restore() {
	cat dirty.img > img.img || die "cannot restore img.img"
	blockdev --flushbufs "$LO" 2> /dev/null
	sync
}

# hold_midway ARGS...: jrecover -C 4 ARGS in the background, its -C lines
# going into a pipe already full (fd 4 of this shell, opened both ways so
# that neither end blocks on open): it stops at its first progress line,
# after the open and its locks, before any write.  HPID is its pid.
hold_midway() {
	rm -f full
	mkfifo full || die "mkfifo failed"
	exec 4<> full
	dd if=/dev/zero of=full bs=4096 count=1024 oflag=nonblock \
		> /dev/null 2>&1
	say "\$ jrecover -C 4 $* 4<>full (full) &"
	"$JRECOVER" -C 4 "$@" > holder.out 2> holder.err &
	HPID=$!
	PIDS="$PIDS $HPID"
	# Stopped once it writes to the pipe: the pipe's reader may see a
	# writer waiting in /proc/PID/wchan (pipe_write), or the open
	# device and flock in /proc; waiting for the blocked write is
	# simplest and exact.
	_n=0
	until grep -q pipe_write "/proc/$HPID/wchan" 2> /dev/null ||
	      grep -q '^pipe_w' "/proc/$HPID/wchan" 2> /dev/null; do
		kill -0 "$HPID" 2> /dev/null ||
			{ cat holder.err; die "jrecover $* ended before it was held"; }
		_n=$((_n + 1))
		[ "$_n" -lt 400 ] || die "jrecover $* did not stop on its -C pipe"
		sleep 0.05
	done
}

# let_go: the held run's pipe drained; it must replay as e2fsck does.
let_go() {
	cat <&4 > /dev/null &
	_cat=$!
	wait "$HPID"
	_hrc=$?
	PIDS=
	kill "$_cat" 2> /dev/null
	wait "$_cat" 2> /dev/null
	exec 4<&-
	sed 's/^/    holder err: /' holder.err
	NCASES=$((NCASES + 1))
	[ "$_hrc" -eq 1 ] || fail "$1: the held run exited $_hrc, not 1"
	"$IMGCMP" -s e2fsck.img img.img > cmp.out 2>&1 ||
		{ sed 's/^/    /' cmp.out; fail "$1: the held run's replay differs from e2fsck's"; }
}

# --- flock(1) holds the image ------------------------------------------------
case_begin image-flocked "the image locked: runs through $LO refused"
flock -x img.img sleep 60 &
FPID=$!
PIDS="$PIDS $FPID"
_n=0
# Locked, and its child (sleep, which holds the lock too) started: both
# are there to be stopped at the end of the case.
kids=
until grep -q ":$(stat -c %i img.img) " /proc/locks && [ -n "$kids" ]; do
	_n=$((_n + 1))
	[ "$_n" -lt 400 ] || die "flock(1) did not lock img.img and start sleep"
	sleep 0.05
	kids=$(cat /proc/[0-9]*/stat 2> /dev/null |
		awk -v p="$FPID" '$4 == p { print $1 }')
done
refused "replay through $LO" "locked by another run \\(pid ${FPID}[:)]" "$LO"
refused "-n through $LO" "locked by another run \\(pid ${FPID}[:)]" -n "$LO"
# The lock goes when both are gone, which can come after the shell has
# reaped flock(1).
# shellcheck disable=SC2086
kill $kids "$FPID" 2> /dev/null
wait "$FPID" 2> /dev/null
PIDS=
_n=0
while grep -q ":$(stat -c %i img.img) " /proc/locks; do
	_n=$((_n + 1))
	[ "$_n" -lt 400 ] || die "the lock of flock(1) on img.img outlived it"
	sleep 0.05
done
case_end

# --- another program holds the loop device exclusively -----------------------
case_begin device-held "$LO held with O_EXCL: runs on img.img refused"
restore
rm -f hold.in
mkfifo hold.in || die "mkfifo failed"
"$HOLDEXCL" "$LO" < hold.in > hold.out &
XPID=$!
PIDS="$PIDS $XPID"
exec 9> hold.in
_n=0
until grep -q held hold.out 2> /dev/null; do
	kill -0 "$XPID" 2> /dev/null || die "holdexcl could not hold $LO"
	_n=$((_n + 1))
	[ "$_n" -lt 400 ] || die "holdexcl did not report holding $LO"
	sleep 0.05
done
refused "replay of img.img" "held open exclusively" img.img
refused "-n of img.img" "held open exclusively" -n img.img
exec 9>&-
wait "$XPID"
PIDS=
case_end

# --- a replay of the image, held mid-way --------------------------------------
case_begin image-run "a replay of img.img held: runs through $LO refused"
restore
hold_midway img.img
refused "replay through $LO" "locked by another run \\(pid ${HPID}[:)]" "$LO"
refused "-n through $LO" "locked by another run \\(pid ${HPID}[:)]" -n "$LO"
# Nor can anything else claim LO (a mount, an fsck) while it runs.
NCASES=$((NCASES + 1))
if "$HOLDEXCL" "$LO" < /dev/null > hx.out 2> hx.err; then
	fail "a replay of img.img runs, yet $LO can be opened with O_EXCL (mounted)"
else
	grep -q "busy" hx.err || { cat hx.err; fail "holdexcl $LO failed, but not as busy"; }
fi
let_go "the replay of img.img"
case_end

# --- a replay through the loop device, held mid-way ---------------------------
case_begin device-run "a replay through $LO held: runs on img.img refused"
restore
hold_midway "$LO"
refused "replay of img.img" "locked by another run \\(pid ${HPID}[:)]" img.img
refused "-n of img.img" "locked by another run \\(pid ${HPID}[:)]" -n img.img
let_go "the replay through $LO"
case_end

# --- mounted read-write in another mount namespace ----------------------------
case_begin other-namespace "img.img mounted through $LO in another namespace"
restore
mkdir -p mnt
rm -f ns.in ns.out
mkfifo ns.in || die "mkfifo failed"
# The namespace lives as long as its shell, which waits for ns.in to end;
# its mount goes with it.
unshare -m sh -c "mount -t ext4 -o rw,noinit_itable '$LO' mnt &&
	sync && echo mounted; read _x" < ns.in > ns.out 2> ns.err &
NPID=$!
PIDS="$PIDS $NPID"
exec 8> ns.in
_n=0
until grep -q mounted ns.out 2> /dev/null; do
	if ! kill -0 "$NPID" 2> /dev/null; then
		sed 's/^/    /' ns.err
		skip "cannot mount $LO in a new mount namespace (unshare -m)"
	fi
	_n=$((_n + 1))
	[ "$_n" -lt 400 ] || die "the namespace did not mount $LO"
	sleep 0.05
done
grep -q " $PWD/mnt " /proc/self/mounts &&
	die "the namespace's mount is visible here: unshare -m did not separate"
for _a in "" -n -i; do
	# shellcheck disable=SC2086
	refused "jrecover $_a img.img" "held open exclusively|in use" $_a img.img
	# shellcheck disable=SC2086
	refused "jrecover $_a $LO" "held open exclusively|in use" $_a "$LO"
done
exec 8>&-
wait "$NPID"
PIDS=
# The namespace gone, its mount with it: the image replays again (the
# kernel replayed the log at mount; what is left is the flag it sets).
NCASES=$((NCASES + 1))
jrecover img.img
[ "$RUN_RC" -le 1 ] || fail "img.img after the namespace's unmount: exit $RUN_RC"
case_end

end_test
