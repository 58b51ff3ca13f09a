#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# signals.sh --- stopping a replay half way: it must stop at a safe point,
# leave the journal needing recovery, and a later full replay must give
# what an uninterrupted one gives.
#
# 1. The library, deterministically: tests/crash/crashrun's progress
#    callback asks to stop at its n-th call, for every n of a replay (and
#    of one with RECOVER_FL_FULL_REVOKE, which has a REVOKE pass too).
#    recover_replay() must return RECOVER_ET_INTERRUPTED (its outcome
#    RECOVER_OUTCOME_INTERRUPTED, jrecover's exit 32), the filesystem
#    must still need recovery (needs_recovery set, the journal's s_start
#    unchanged), nothing may be written while the scan runs, and jrecover
#    run afterwards must end with the uninterrupted image.
# 2. jrecover: SIGINT and SIGTERM while it replays a large journal (jwrite
#    bulk), the signal sent once --progress's progress display shows the scan or
#    the replay under way: exit 32 and the same checks.  Without --progress
#    (stderr is not a terminal here) the signal is still noticed.
#
#    With -z, an interrupted replay that wrote keeps its undo file, with
#    which e2undo gives back the image as it was.
# 3. A save stopped half way leaves no partial copy, and an existing file
#    at that path as it was.
#
# Comparisons leave out s_wtime, s_kbytes_written and s_checksum (imgcmp -s).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

need_built "$CRASHRUN" "$JWRITE"

# jstart IMG: the journal's s_start, as jrecover -i reports it
jstart() {
	"$JRECOVER" -i "$1" 2>/dev/null | sed -n 's/^Journal start: *//p'
}

# flagged IMG: the filesystem's needs_recovery flag is set
flagged() {
	dumpe2fs -h "$1" 2>/dev/null | grep -q '^Filesystem features:.*needs_recovery'
}

# finish IMG WHAT: after an interruption, the journal still needs
# recovery; replaying it now gives the uninterrupted result U.
finish() {
	flagged "$1" || fail "$2: needs_recovery was cleared"
	[ "$(jstart "$1")" = "$START" ] ||
		fail "$2: s_start is $(jstart "$1"), was $START"
	jrecover "$1"
	[ "$RUN_RC" -eq 1 ] || fail "$2: replaying again exited $RUN_RC, not 1"
	"$IMGCMP" -s "$1" "$U" > "$SCRATCH/.cmp" ||
		{ sed 's/^/    /' "$SCRATCH/.cmp"
		  fail "$2: the finished image differs from an uninterrupted replay"; }
}

# ==== 1. the library, at every progress call =======================================
# Twelve transactions of 40 blocks, every third block of a range (so that
# the replay writes each block on its own, as it goes) and each logged
# again two transactions later; each transaction but the first revokes 20
# blocks, 10 of them logged before.
mkimg small.img 16M
# shellcheck disable=SC2046
set -- $(free_blocks small.img 1)
awk -v a="$1" 'BEGIN {
	print "features revoke 64bit csum3"
	for (t = 0; t < 12; t++) {
		print "txn"
		for (j = 0; j < 40; j++)
			print "log " a + 3 * (((t % 6) * 40 + j) % 200)
		for (j = 0; t && j < 20; j++)
			print "revoke " (j % 2 ? a + 3 * j * 7 : a + 1 + 3 * j)
		print "commit"
	}
}' > small.jw
"$JWRITE" small.img < small.jw > /dev/null || die "jwrite failed"
show_journal small.img
U=small.u.img
copy_img small.img "$U"
jrecover "$U"
[ "$RUN_RC" -eq 1 ] || die "the uninterrupted replay exited $RUN_RC"
START=$(jstart small.img)
[ -n "$START" ] && [ "$START" != 0 ] || die "small.img: no log to replay"

partial=0
for flags in "" -F; do
	copy_img small.img count.img
	run "$CRASHRUN" $flags count.img
	[ "$RUN_RC" -eq 0 ] || die "crashrun $flags exited $RUN_RC"
	sum=$(tail -n 1 "$SCRATCH/.run.out")
	[ "$(crashrun_field outcome "$sum")" = recovered ] ||
		die "crashrun $flags: the replay's outcome is $(crashrun_field outcome "$sum"), not recovered"
	calls=$(crashrun_field progress "$sum")
	[ "$calls" -gt 3 ] || die "only $calls progress calls"
	say "crashrun $flags: $calls progress calls"
	n=1
	while [ "$n" -le "$calls" ]; do
		NCASES=$((NCASES + 1))
		t=stop$flags.$n.img
		copy_img small.img "$t"
		run "$CRASHRUN" $flags -s "$n" "$t"
		sum=$(tail -n 1 "$SCRATCH/.run.out")
		[ "$(crashrun_field result "$sum")" = RECOVER_ET_INTERRUPTED ] ||
			fail "stop at call $n$flags: recover_replay returned $(crashrun_field result "$sum")"
		[ "$(crashrun_field outcome "$sum")" = interrupted ] ||
			fail "stop at call $n$flags: the replay's outcome is $(crashrun_field outcome "$sum"), not interrupted"
		[ "$(crashrun_field needs_recovery "$sum")" = 1 ] ||
			fail "stop at call $n$flags: the journal no longer needs recovery"
		# Nothing written (the scan writes nothing): the image is as
		# it was.
		if [ "$(crashrun_field events "$sum")" = 0 ] &&
		   ! cmp -s "$t" small.img; then
			fail "stop at call $n$flags: nothing was written, yet the image changed"
		fi
		[ "$(crashrun_field flushes "$sum")" = 0 ] ||
			fail "stop at call $n$flags: the replay went on to flush"
		[ "$(crashrun_field events "$sum")" = 0 ] || partial=$((partial + 1))
		finish "$t" "stop at call $n$flags"
		rm -f "$t"
		n=$((n + 1))
	done
done

[ "$partial" -gt 0 ] ||
	fail "no stop came after some blocks were written: make the journal longer"
say "$partial of the stops came after some blocks were written"

# ==== 2. jrecover and signals =======================================================
# About 24000 blocks to replay: a second or so.
mkimg big.img 512M -J size=128
"$JWRITE" big.img > /dev/null <<EOF || die "jwrite failed"
features revoke 64bit csum3
bulk 200 100000 120
EOF
U=big.u.img
copy_img big.img "$U"
jrecover "$U"
[ "$RUN_RC" -eq 1 ] || die "the uninterrupted replay of big.img exited $RUN_RC"
START=$(jstart big.img)

# A shell without job control starts background commands with SIGINT
# ignored; give jrecover the default disposition, as a terminal would.
if env --default-signal=INT true 2>/dev/null; then
	DEFSIG="env --default-signal=INT"
else
	DEFSIG=
fi

# wait_open PID FILE: until process PID has FILE open (jrecover sets its
# signal handlers before it opens the image), or 60 s; without /proc, 0.2 s.
wait_open() {
	if [ ! -d "/proc/$1/fd" ]; then
		sleep 0.2
		return
	fi
	_w=0
	while [ "$_w" -lt 12000 ] && kill -0 "$1" 2>/dev/null; do
		for _fd in /proc/"$1"/fd/*; do
			[ "$(readlink "$_fd" 2>/dev/null)" = "$2" ] && return
		done
		_w=$((_w + 1))
		sleep 0.005
	done
}

# interrupt SIGNAL WAIT: replay a copy of big.img and send SIGNAL once the
# progress display (--progress) shows WAIT ("scan": at once; "replay": once the
# replay pass is under way), or, WAIT empty, without --progress once jrecover has
# the image open.
# A replay that ends before the signal comes (a fast machine) leaves
# nothing to check; one that dies of the signal, or exits other than 32,
# fails.
interrupt() {
	_sig=$1
	_wait=$2
	_p=${_wait:+-p}
	_t=sig-$_sig-${_wait:-none}.img
	NCASES=$((NCASES + 1))
	copy_img big.img "$_t"
	say ""
	if [ -n "$_wait" ]; then
		say "=== case SIG$_sig during the $_wait (--progress)"
	else
		say "=== case SIG$_sig without --progress"
	fi
	# The last case's output goes first: the background job may not have
	# truncated it yet when the loop below first looks.
	rm -f "$SCRATCH/.sig.out" "$SCRATCH/.sig.err"
	$DEFSIG "$JRECOVER" $_p "$_t" > "$SCRATCH/.sig.out" 2> "$SCRATCH/.sig.err" &
	_pid=$!
	if [ -n "$_wait" ]; then
		wait_for_text "$_pid" "$SCRATCH/.sig.err" "$_wait" 20000 0.005
	else
		wait_open "$_pid" "$(pwd -P)/$_t"
	fi
	kill -"$_sig" "$_pid" 2>/dev/null
	wait "$_pid"
	_rc=$?
	tr '\r' '\n' < "$SCRATCH/.sig.err" | sed 's/\x1b\[K//g; /^$/d; s/^/    /'
	sed 's/^/    /' "$SCRATCH/.sig.out"
	say "    [exit $_rc]"
	if [ "$_rc" -eq 1 ]; then
		say "    (the replay ended before the signal came: nothing to check)"
		rm -f "$_t"
		return
	fi
	[ "$_rc" -eq 32 ] || { fail "SIG$_sig: jrecover exited $_rc, not 32"; return; }
	INTERRUPTED=$((INTERRUPTED + 1))
	grep -q 'interrupted' "$SCRATCH/.sig.err" ||
		fail "SIG$_sig: jrecover does not say it was interrupted"
	if grep -q 'nothing was written' "$SCRATCH/.sig.err" &&
	   ! cmp -s "$_t" big.img; then
		fail "SIG$_sig: jrecover says nothing was written, but the image changed"
	fi
	finish "$_t" "SIG$_sig"
	rm -f "$_t"
}

INTERRUPTED=0
interrupt INT scan
interrupt TERM scan
interrupt INT replay
interrupt TERM ""
interrupt HUP replay
say "$INTERRUPTED of 5 runs were interrupted"

# -z, stopped during the replay (SIGINT, and SIGHUP as a closed terminal
# sends it): if anything was written, the undo file is kept (it is the only
# way back) and e2undo gives back big.img; if nothing was, there is no undo
# file, the image is big.img, and no new file is left next to it.
for zsig in INT HUP; do
NCASES=$((NCASES + 1))
say ""
say "=== case SIG$zsig during the replay, with -z"
copy_img big.img sig-undo.img
rm -f "$SCRATCH/.sig.out" "$SCRATCH/.sig.err" sig.undo
$DEFSIG "$JRECOVER" --progress -z sig.undo sig-undo.img > "$SCRATCH/.sig.out" 2> "$SCRATCH/.sig.err" &
pid=$!
wait_for_text "$pid" "$SCRATCH/.sig.err" replay 20000 0.005
kill -$zsig "$pid" 2>/dev/null
wait "$pid"
rc=$?
tr '\r' '\n' < "$SCRATCH/.sig.err" | sed 's/\x1b\[K//g; /^$/d; s/^/    /'
say "    [exit $rc]"
case $rc in
1|32) ;;
*) fail "-z, SIG$zsig: jrecover exited $rc" ;;
esac
if [ -e sig.undo ]; then
	grep -q "e2undo sig.undo sig-undo.img undoes what this run wrote" "$SCRATCH/.sig.err" ||
		fail "-z, SIG$zsig: the undo file was kept without a word"
	run e2undo sig.undo sig-undo.img
	[ "$RUN_RC" -eq 0 ] || fail "-z, SIG$zsig: e2undo exited $RUN_RC"
	grep -qi incomplete "$SCRATCH/.run.out" &&
		fail "-z, SIG$zsig: e2undo calls the undo file incomplete"
	cmp -s sig-undo.img big.img ||
		fail "-z, SIG$zsig: after e2undo the image is not what it was"
else
	[ "$rc" -eq 32 ] || fail "-z: the replay ended, but left no undo file"
	cmp -s sig-undo.img big.img ||
		fail "-z, SIG$zsig: no undo file, but the image changed"
fi
left=$(ls -A | grep '^\.sig\.undo\.')
[ -z "$left" ] || fail "-z, SIG$zsig: a new undo file was left behind: $left"
rm -f sig-undo.img sig.undo
done

# ==== 3. a save stopped half way ====================================================
# recover_save() calls the progress function after every 4 MiB piece: the
# 128 MiB journal of big.img is 32 pieces.  Stopped at the third, it
# returns RECOVER_ET_INTERRUPTED and leaves no partial file behind.
NCASES=$((NCASES + 1))
say ""
say "=== case save stopped at the third piece"
run "$CRASHRUN" -S "$SCRATCH/full.dump" big.img
sum=$(tail -n 1 "$SCRATCH/.run.out")
[ "$RUN_RC" -eq 0 ] || fail "save: crashrun -S exited $RUN_RC"
[ "$(crashrun_field progress "$sum")" -eq 32 ] ||
	fail "save: $(crashrun_field progress "$sum") progress calls for 32 pieces of 4 MiB"
# The journal and one block recording the filesystem (jrecover(8), -s).
[ "$(stat -c %s "$SCRATCH/full.dump" 2>/dev/null)" = $(((128 << 20) + 4096)) ] ||
	fail "save: the dump is not the 128 MiB journal and its record"
rm -f "$SCRATCH/full.dump"
before=$(sha256sum < big.img)
run "$CRASHRUN" -S "$SCRATCH/part.dump" -s 3 big.img
sum=$(tail -n 1 "$SCRATCH/.run.out")
[ "$(crashrun_field result "$sum")" = RECOVER_ET_INTERRUPTED ] ||
	fail "save: stopped at piece 3, recover_save returned $(crashrun_field result "$sum")"
[ "$(crashrun_field progress "$sum")" -eq 3 ] ||
	fail "save: the copy went on after the progress function said stop"
[ ! -e "$SCRATCH/part.dump" ] ||
	fail "save: the partial copy was left behind ($(stat -c %s "$SCRATCH/part.dump") bytes)"
[ "$(sha256sum < big.img)" = "$before" ] || fail "save: the image changed"
# Onto an existing file: that file is left exactly as it was, and the new
# copy next to it is gone.
NCASES=$((NCASES + 1))
# An earlier dump (a journal superblock's magic and v2 block type first).
printf '\300;9\230\0\0\0\004an older copy\n' > "$SCRATCH/old.dump"
osum=$(sha256sum < "$SCRATCH/old.dump")
run "$CRASHRUN" -S "$SCRATCH/old.dump" -s 3 big.img
sum=$(tail -n 1 "$SCRATCH/.run.out")
[ "$(crashrun_field result "$sum")" = RECOVER_ET_INTERRUPTED ] ||
	fail "save over a file: recover_save returned $(crashrun_field result "$sum")"
[ "$(sha256sum < "$SCRATCH/old.dump")" = "$osum" ] ||
	fail "save over a file: the existing file was changed"
left=$(ls -A "$SCRATCH" | grep '^\.old\.dump\.')
[ -z "$left" ] || fail "save over a file: the new copy was left behind: $left"
# jrecover --progress shows the pass by name.
"$JRECOVER" --progress -s "$SCRATCH/p.dump" big.img > /dev/null 2> "$SCRATCH/.save.err" ||
	fail "save: jrecover --progress -s failed"
grep -q "save" "$SCRATCH/.save.err" || fail "save: jrecover --progress -s shows no progress"
rm -f "$SCRATCH/p.dump"

end_test
