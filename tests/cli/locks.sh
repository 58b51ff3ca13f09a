#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# locks.sh --- one run at a time on an image or journal file (jrecover(8),
# CONCURRENCY): every run takes a flock(2) lock on the image and on a -j
# file for the whole run, exclusive for a replay, shared for -n, -i, -l
# and -s.
#  - a replay while another jrecover (-s - into a pipe nobody reads yet)
#    holds the image: refused at once, exit 8, naming that run's pid;
#    -i at the same time goes on (both only read);
#  - the same against a dump given with -j;
#  - a replay, -n and -i while another program (flock(1)) holds the image
#    exclusively: refused, exit 8, naming its pid;
#  - after the holder is gone, the replay goes through (exit 1) and its
#    result is e2fsck's.
# Every file's sha256 is the same after each refusal.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
command -v flock > /dev/null 2>&1 || skip "flock(1) not found (util-linux)"
[ -r /proc/locks ] || skip "no /proc/locks"

set_format 4k-64-v3
mkimg_fmt img.img
std_workload img.img
copy_img img.img e2fsck.img
run e2fsck -y -E journal_only e2fsck.img
mkimg_fmt target.img
debugfs -R "dump <8> j.dump" img.img 2>/dev/null
[ -s j.dump ] || die "debugfs did not dump the journal"

hashes() {
	for _f in img.img target.img j.dump target2.img; do
		[ -e "$_f" ] || continue
		echo "$_f $(sha256_of "$_f")"
	done
}

# lock_wait FILE yes|no: wait (at most 20 s) until /proc/locks lists a
# lock on FILE (yes), or lists none (no: a killed holder's lock goes when
# its last process has exited, which on a loaded machine can come after
# the shell has reaped its own child).
# /proc/locks names a file by MAJOR:MINOR:INODE (the two in hex): the
# whole of it, as an inode number alone may be another filesystem's.
lock_wait() {
	_dev=$(stat -c %d "$1")
	_id=$(printf '%02x:%02x:%s' $(((_dev >> 8) & 0xfff)) \
		$(((_dev & 0xff) | ((_dev >> 12) & 0xfff00))) "$(stat -c %i "$1")")
	_n=0
	while :; do
		if grep -q " $_id " /proc/locks; then _l=yes; else _l=no; fi
		[ "$_l" = "$2" ] && return 0
		_n=$((_n + 1))
		if [ "$_n" -gt 200 ]; then
			grep " $_id " /proc/locks | sed 's/^/    /'
			die "the lock on $1 ($_id): still '$_l' after 20 s"
		fi
		sleep 0.1
	done
}

# refused PID WHAT ARGS...: jrecover ARGS exits 8 naming PID, and no file
# here changed.
refused() {
	_pid=$1
	_what=$2
	shift 2
	NCASES=$((NCASES + 1))
	hashes > h.before
	jr l.out l.err "$@"
	[ "$RUN_RC" -eq 8 ] || fail "$_what: exited $RUN_RC, not 8"
	grep -q "locked by another run (pid $_pid[:)]" l.err ||
		fail "$_what: does not name the holder's pid $_pid"
	grep -q "nothing was written: wait for it to finish" l.err ||
		fail "$_what: does not say what to do"
	hashes > h.after
	cmp -s h.before h.after || fail "$_what: files changed"
}

# --- another jrecover, stuck writing into a full pipe -------------------------
mkfifo pipe || die "mkfifo failed"
for k in image dump; do
	if [ "$k" = image ]; then
		src="img.img" other="img.img" lockf=img.img
	else
		# The second run has a target of its own: only the dump is shared.
		copy_img target.img target2.img
		src="-j j.dump target.img" other="-j j.dump target2.img" lockf=j.dump
	fi
	# shellcheck disable=SC2086
	"$JRECOVER" -q -s - $src > pipe 2> holder.err &
	hpid=$!
	exec 3< pipe
	lock_wait "$lockf" yes
	# shellcheck disable=SC2086
	refused "$hpid" "a replay beside jrecover -s ($k)" $other
	grep -q "^jrecover: $lockf: locked" l.err ||
		fail "a replay beside jrecover -s ($k): does not name $lockf"
	NCASES=$((NCASES + 1))
	# shellcheck disable=SC2086
	jr l.out l.err -i $other
	[ "$RUN_RC" -eq 0 ] || fail "-i beside jrecover -s ($k) exited $RUN_RC, not 0"
	cat <&3 > /dev/null
	exec 3<&-
	wait "$hpid" || fail "the holder (jrecover -s - $src) exited $?"
done
rm -f target2.img

# --- another program ---------------------------------------------------------------
flock -x img.img sleep 30 &
fpid=$!
lock_wait img.img yes
# flock(1) holds the lock itself and runs sleep under it, which it forks
# after locking: wait for sleep too, or it may start after the look for
# it below and keep the lock for its 30 s.
_n=0
until cat /proc/[0-9]*/stat 2> /dev/null |
	awk -v p="$fpid" '$4 == p { f = 1 } END { exit !f }'; do
	_n=$((_n + 1))
	[ "$_n" -gt 200 ] && die "flock(1) did not start sleep within 20 s"
	sleep 0.1
done
refused "$fpid" "a replay beside flock -x" img.img
refused "$fpid" "-n beside flock -x" -n img.img
refused "$fpid" "-i beside flock -x" -i img.img
# The lock goes with the sleep flock(1) started (its child).
# (Its children from /proc: a minimal root has no ps.)
kids=$(cat /proc/[0-9]*/stat 2> /dev/null |
		awk -v p="$fpid" '$4 == p { print $1 }')
kill $kids "$fpid" 2> /dev/null
wait "$fpid" 2> /dev/null
lock_wait img.img no

NCASES=$((NCASES + 1))
jrecover img.img
[ "$RUN_RC" -eq 1 ] || fail "the replay after the holder left exited $RUN_RC, not 1"
"$IMGCMP" -s e2fsck.img img.img > cmp.out 2>&1 ||
	{ sed 's/^/    /' cmp.out; fail "the replay differs from e2fsck's"; }

end_test
