#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mmp.sh --- multi-mount protection (the mmp feature), each case next to
# what e2fsck -y -E journal_only (and e2fsck -n) does on a copy:
#
#   clean      the MMP block is clean: jrecover waits once (2 x 5 + 1 s),
#              says so, replays, and leaves the block clean, as e2fsck does;
#              a second run, with nothing to replay, neither waits nor
#              writes
#              (the whole image then compared with e2fsck's, the MMP
#              block's time and checksum left out); -n, -i, -l and -s do
#              not wait and write nothing (e2fsck -n: no wait either)
#   tty        on a terminal: the seconds left counted down, then erased
#   interval   a clean block with a longer check interval of its node's:
#              the wait announced is the one made (11 s), as e2fsck's
#   foreign    another filesystem's dump (with -f too): refused at once,
#              no wait, the image untouched
#   static     a node died with the filesystem mounted (a sequence that no
#              longer changes): two waits, then the same replay
#   live       a live peer (tests/integration/mmppeer live) updates the
#              block every second: refused (the block changed since the
#              open, or during the wait), naming the peer's node and
#              device, nothing written (e2fsck: exit 8)
#   fsckdirdata the same on a filesystem with dirdata: the way out names
#              e2fsprogs that know dirdata where this libext2fs does not
#   fsck       EXT4_MMP_SEQ_FSCK left by a running or dead fsck, and
#   unknown    a sequence above it: refused at once with e2fsck's way out
#              (tune2fs -f -E clear_mmp), -n too (e2fsck -n refuses them);
#              -i, -l and -s only warn; the way out is then taken
#   badmagic, badcsum, badblock
#              a damaged MMP block: refused, nothing written (e2fsck -y
#              repairs the first two itself and exits 8 on the third)
#   sigint, sigterm
#              a signal during the wait ends it at once: exit 32, the block
#              clean again (and said to be the one thing written), the
#              journal still to replay
#   slow       a replay slowed down (tests/integration/mmpslow): the block
#              is rewritten during it, every update interval (1 s here)
#   stop       a replay stopped half way (as after SIGINT): block clean
#   takeover   another node writes the block during a replay: the replay
#              stops (EXT2_ET_MMP_CHANGE_ABORT) and leaves it the block
#   error      a corrupt revoke block, refused by the scan (exit 8) before
#              the MMP wait: the image untouched, MMP block included
#   undo       -z: the MMP block's writes go into the undo file too, and
#              e2undo gives back the image as it was
#   example    contrib/fsck-example (recover_open_fs on the caller's own
#              read-write handle) leaves the block clean too
#   logged     a journal that logs the MMP block itself: the replay
#              overwrites it, as e2fsck's does, and jrecover then reports
#              it damaged, after writing (exit 12, an error part way);
#              e2fsck fails to reopen (exit 12); the block holds the
#              journal's copy after both
#
# The cases run side by side: most of their time is libext2fs's sleeping.
# The loop mount of a replayed image is in mmp-mount.sh.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

MMPPEER=$top_builddir/tests/integration/mmppeer
MMPSLOW=$top_builddir/tests/integration/mmpslow
SBFEATURE=$top_builddir/tests/oracle/sbfeature
need_built "$MMPPEER" "$MMPSLOW" "$JWRITE" "$SBFEATURE"

SEQ_CLEAN=ff4d4d50
SEQ_FSCK=e24d4d50

# mmp_get IMG FIELD: a field of debugfs's dump_mmp (the MMP block).
mmp_get() {
	debugfs -R dump_mmp "$1" 2>/dev/null | sed -n "s/^$2: *//p" |
		sed 's/ --.*//'
}

mmp_blk() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^MMP block number: *//p'
}

needs_recovery() {
	dumpe2fs -h "$1" 2>/dev/null | grep -q '^Filesystem features:.*needs_recovery'
}

# only_mmp_changed IMG REF: IMG and REF differ at most in the MMP block.
only_mmp_changed() {
	_l=$("$IMGCMP" -l "$1" "$2" | tr '\n' ' ')
	case $_l in
	''|"$(mmp_blk "$2") ") return 0 ;;
	esac
	say "    blocks changed: $_l"
	return 1
}

# same_result A B: the two images are identical but for what a replay may
# set differently (imgcmp -s) and the MMP block's time and checksum; its
# node and device names are compared as strings (libext2fs writes them
# over what the block held, without clearing the bytes past their end).
same_result() {
	copy_img "$1" "$1.norm"
	copy_img "$2" "$2.norm"
	for _f in sequence node_name device_name magic; do
		[ "$(mmp_get "$1" $_f)" = "$(mmp_get "$2" $_f)" ] || {
			say "    MMP $_f: '$(mmp_get "$1" $_f)' and '$(mmp_get "$2" $_f)'"
			return 1
		}
	done
	_zero=$(printf '%0208d' 0)
	for _i in "$1.norm" "$2.norm"; do
		_o=$(($(mmp_blk "$_i") * 4096))
		poke "$_i" $((_o + 8)) "$_zero"
		poke "$_i" $((_o + 1020)) 00000000
	done
	"$IMGCMP" -s -J "$(jsb_offset "$1")" "$1.norm" "$2.norm" > "$1.cmp"
	_rc=$?
	sed 's/^/    /' "$1.cmp"
	rm -f "$1.norm" "$2.norm"
	return $_rc
}

# expect_mmp IMG SEQ NODE DEVICE WHAT: the MMP block says this.
expect_mmp() {
	_s=$(mmp_get "$1" sequence)
	_n=$(mmp_get "$1" node_name)
	_d=$(mmp_get "$1" device_name)
	[ "$_s" = "$2" ] || fail "$5: MMP sequence $_s, not $2"
	[ -z "$3" ] || [ "$_n" = "$3" ] || fail "$5: MMP node '$_n', not '$3'"
	[ -z "$4" ] || [ "$_d" = "$4" ] || fail "$5: MMP device '$_d', not '$4'"
}

# expect_out TEXT WHAT: the last command's output holds TEXT.
expect_out() {
	grep -F -q -- "$1" "$SCRATCH/.run.out" || fail "$2: no '$1' in the output"
}

# A shell without job control starts background commands with SIGINT
# ignored; give jrecover the default disposition, as a terminal would.
if env --default-signal=INT true 2>/dev/null; then
	DEFSIG="env --default-signal=INT"
else
	DEFSIG=
fi

# --- the images ---------------------------------------------------------------

E2FSPROGS_FAKE_TIME=$FAKE_TIME mke2fs -q -F -t ext4 -b 4096 -O mmp \
	-E mmp_update_interval=1 probe.img 8M > /dev/null 2>&1 ||
	skip "mke2fs -O mmp fails here"
case $(mmp_get probe.img sequence) in
"$SEQ_CLEAN") ;;
*) skip "this libext2fs has no MMP support (debugfs dump_mmp fails)" ;;
esac
rm -f probe.img

# base.img: one transaction of 640 blocks (ten progress calls of the
# replay); err.img: one whose revoke block has a bad r_count.  jwrite's
# own open takes the MMP block (11 s): both are made at once.
mkimg base.img 64M -O mmp -E mmp_update_interval=1
mkimg err.img 64M -O mmp -E mmp_update_interval=1
mkimg logged.img 64M -O mmp -E mmp_update_interval=1
# shellcheck disable=SC2046
set -- $(free_blocks base.img 642 3000)
FIRST=$1
eval "LAST=\${$#}"
[ "$#" -eq 642 ] && [ "$LAST" -eq $((FIRST + 641)) ] ||
	die "no 642 contiguous free blocks from 3000"
printf 'features revoke\ntxn\nlog %s-%s\ncommit\n' "$FIRST" $((FIRST + 639)) |
	"$JWRITE" base.img > jw1.out 2>&1 &
J1=$!
printf 'features revoke\ntxn\nlog %s\nrcount 9999\nrevoke %s\ncommit\n' \
	$((FIRST + 640)) $((FIRST + 641)) | "$JWRITE" err.img > jw2.out 2>&1 &
J2=$!
printf 'features revoke\ntxn\nlog %s %s\ncommit\n' "$(mmp_blk logged.img)" \
	$((FIRST + 640)) | "$JWRITE" logged.img > jw3.out 2>&1 &
J3=$!
wait $J1 || { cat jw1.out; die "jwrite failed on base.img"; }
wait $J2 || { cat jw2.out; die "jwrite failed on err.img"; }
wait $J3 || { cat jw3.out; die "jwrite failed on logged.img"; }
needs_recovery base.img || die "base.img does not need recovery"
[ "$(mmp_get base.img sequence)" = "$SEQ_CLEAN" ] ||
	die "jwrite left the MMP block of base.img not clean"
MMP_BLK=$(mmp_blk base.img)
say "base.img: MMP block $MMP_BLK, update interval 1 s (checks every 5 s)"

# --- the cases --------------------------------------------------------------------
# Each runs in a directory of its own (the tools are run there on x.img, so
# that e2fsck's and jrecover's device names in the MMP block are the same)
# and exits with its number of failures.

# in_case NAME: set up the case's directory and its copies e/x.img, j/x.img.
in_case() {
	trap - EXIT INT TERM
	SCRATCH=$SCRATCH/$1
	NFAIL=0
	mkdir -p "$SCRATCH/e" "$SCRATCH/j" || exit 1
	cd "$SCRATCH" || exit 1
	copy_img "${2:-../base.img}" e/x.img
	copy_img "${2:-../base.img}" j/x.img
	say "=== case $1"
}

# e2fsck_bg ARGS: e2fsck ARGS x.img in e/, in the background (E2PID).
e2fsck_bg() {
	(cd e && e2fsck "$@" x.img > ../e2fsck.out 2>&1; echo $? > ../e2fsck.rc) &
	E2PID=$!
}

e2fsck_end() {
	wait "$E2PID"
	say "\$ e2fsck $* x.img"
	sed 's/^/    /' e2fsck.out
	E2RC=$(cat e2fsck.rc)
	say "    [exit $E2RC]"
}

# timed_jrecover ARGS: jrecover ARGS in j/, SECS set to how long it took.
timed_jrecover() {
	cd "${JDIR:-j}" || exit 1
	_t0=$(date +%s)
	jrecover "$@"
	SECS=$(($(date +%s) - _t0))
	cd .. || exit 1
	say "    [$SECS s]"
}

case_clean() {
	in_case clean
	e2fsck_bg -y -E journal_only
	timed_jrecover --json x.img
	[ "$RUN_RC" -eq 1 ] || fail "clean: jrecover exited $RUN_RC, not 1"
	expect_out "MMP: waiting 11 s to make sure no other node uses the filesystem" clean
	expect_out '"wait_planned_seconds":11,' clean
	# The wait is at least what was announced; how much longer it took
	# depends on the machine's load, which no test asserts.
	_w=$(sed -n 's/.*"wait_seconds":\([0-9]*\),"released":true.*/\1/p' "$SCRATCH/.run.out")
	[ -n "$_w" ] && [ "$_w" -ge 10 ] ||
		fail "clean: the JSON report does not count the wait and the release"
	[ "$SECS" -ge 10 ] || fail "clean: jrecover did not wait ($SECS s)"
	# A second run, on a copy: nothing to do, so no wait and nothing
	# written, the MMP block included.
	mkdir k && copy_img j/x.img k/x.img && copy_img j/x.img once.img
	JDIR=k timed_jrecover x.img
	[ "$RUN_RC" -eq 0 ] || fail "clean: a second run exited $RUN_RC, not 0"
	! grep -q "MMP: waiting" "$SCRATCH/.run.out" ||
		fail "clean, second run: waited with nothing to write"
	cmp -s k/x.img once.img ||
		fail "clean: the second run, with nothing to write, changed the image"
	e2fsck_end -y -E journal_only
	[ "$E2RC" -eq 0 ] || fail "clean: e2fsck exited $E2RC, not 0"
	expect_mmp e/x.img "$SEQ_CLEAN" "" x.img "clean: e2fsck"
	expect_mmp j/x.img "$SEQ_CLEAN" "$(mmp_get e/x.img node_name)" x.img \
		"clean: jrecover"
	same_result e/x.img j/x.img ||
		fail "clean: jrecover's image differs from e2fsck's"
	exit "$NFAIL"
}

# The read-only actions on a clean block: no wait, nothing written.
# On a terminal (script(1) gives one): the seconds left are counted down
# under the announcement, and the countdown is erased at the end.
case_tty() {
	in_case tty
	if ! command -v script > /dev/null 2>&1 ||
	   ! script -qec true /dev/null > /dev/null 2>&1; then
		say "(script(1) cannot give a terminal here: case skipped)"
		exit 0
	fi
	say "\$ script -qec 'jrecover x.img' /dev/null"
	(cd j && script -qec "$JRECOVER x.img" /dev/null > ../tty.out 2>&1 \
		< /dev/null)
	sed 's/^/    /' tty.out | tr -d '\033' | tr '\r' '\n' | head -n 40
	grep -q "MMP: waiting 11 s" tty.out ||
		fail "tty: the wait is not announced"
	tr '\r' '\n' < tty.out | grep -q "^jrecover: mmp    [0-9]* s left" ||
		fail "tty: no countdown on the terminal"
	tr '\r' '\n' < tty.out | grep -q "replayed" ||
		fail "tty: no replay"
	exit "$NFAIL"
}

case_readonly() {
	in_case readonly
	(cd e && e2fsck -n x.img > ../e2fsck.out 2>&1; echo $? > ../e2fsck.rc)
	say "\$ e2fsck -n x.img: exit $(cat e2fsck.rc)"
	cmp -s e/x.img ../base.img || fail "readonly: e2fsck -n changed the image"
	for _o in -n -i -l "-s saved" "--json -i"; do
		# shellcheck disable=SC2086
		timed_jrecover $_o x.img
		# -n exits as the replay would (1: the journal needs it).
		_want=0
		[ "$_o" = -n ] && _want=1
		[ "$RUN_RC" -eq "$_want" ] ||
			fail "readonly: jrecover $_o exited $RUN_RC, not $_want"
		! grep -q "MMP: waiting" "$SCRATCH/.run.out" ||
			fail "readonly: jrecover $_o waited for MMP"
		! grep -q "warning" "$SCRATCH/.run.out" ||
			fail "readonly: jrecover $_o warns about a clean MMP block"
		cmp -s j/x.img ../base.img ||
			fail "readonly: jrecover $_o changed the image"
	done
	expect_out "\"mmp\":{\"block\":$MMP_BLK,\"update_interval\":1,\"sequence\":4283256144,\"state\":\"clean\"" \
		"readonly, --json -i"
	exit "$NFAIL"
}

case_static() {
	in_case static
	"$MMPPEER" j/x.img set 0x1234 crashed crdev || exit 1
	timed_jrecover --json x.img
	[ "$RUN_RC" -eq 1 ] || fail "static: jrecover exited $RUN_RC, not 1"
	expect_out "MMP: waiting 22 s" static
	_w=$(sed -n 's/.*"wait_seconds":\([0-9]*\),"released":true.*/\1/p' "$SCRATCH/.run.out")
	[ -n "$_w" ] && [ "$_w" -ge 21 ] ||
		fail "static: the JSON report does not count a 22 s wait"
	expect_mmp j/x.img "$SEQ_CLEAN" "" x.img static
	exit "$NFAIL"
}

# A clean block whose node had a longer check interval (10 s): libext2fs
# does not look at it in a clean block, and the announced wait is the one
# made, 11 s, not 21 s; the result is e2fsck's.
case_interval() {
	in_case interval
	for _d in e j; do
		debugfs -w -R "set_mmp_value check_interval 10" $_d/x.img \
			> /dev/null 2>&1 || exit 1
	done
	[ "$(mmp_get j/x.img check_interval)" = 10 ] ||
		{ fail "interval: debugfs did not set the check interval"; exit "$NFAIL"; }
	e2fsck_bg -y -E journal_only
	timed_jrecover --json x.img
	[ "$RUN_RC" -eq 1 ] || fail "interval: jrecover exited $RUN_RC, not 1"
	expect_out "MMP: waiting 11 s to make sure no other node uses the filesystem" interval
	expect_out '"wait_planned_seconds":11,' interval
	e2fsck_end -y -E journal_only
	[ "$E2RC" -eq 0 ] || fail "interval: e2fsck exited $E2RC, not 0"
	same_result e/x.img j/x.img ||
		fail "interval: jrecover's image differs from e2fsck's"
	exit "$NFAIL"
}

# Refusals that need only what is on disk come before the wait: another
# filesystem's dump (identity), with -f too; the image is untouched.
case_foreign() {
	in_case foreign
	mkimg j/other.img 32M -U 0badc0de-1234-4567-89ab-0123456789ab
	std_workload j/other.img
	debugfs -R "dump <8> j/other.dump" j/other.img 2> /dev/null
	[ -s j/other.dump ] || { fail "foreign: no dump"; exit "$NFAIL"; }
	for _f in "" -f; do
		timed_jrecover $_f -j other.dump x.img
		[ "$RUN_RC" -eq 8 ] || fail "foreign $_f: jrecover exited $RUN_RC, not 8"
		expect_out "Journal dump does not belong to this filesystem" "foreign $_f"
		expect_out ": nothing was written; check the journal path" "foreign $_f"
		! grep -q "MMP: waiting" "$SCRATCH/.run.out" ||
			fail "foreign $_f: waited for the MMP block before refusing"
		cmp -s j/x.img e/x.img || fail "foreign $_f: the image changed"
	done
	exit "$NFAIL"
}

case_live() {
	in_case live
	"$MMPPEER" e/x.img live peernode peerdev > e.peer &
	P1=$!
	"$MMPPEER" j/x.img live peernode peerdev > j.peer &
	P2=$!
	until grep -q live e.peer 2>/dev/null && grep -q live j.peer 2>/dev/null; do
		sleep 0.1
	done
	e2fsck_bg -y -E journal_only
	timed_jrecover --json x.img
	[ "$RUN_RC" -eq 8 ] || fail "live: jrecover exited $RUN_RC, not 8"
	expect_out "MMP: device currently active" live
	expect_out "node 'peernode' (device 'peerdev')" live
	expect_out "another node updated the MMP block since jrecover first read it" live
	expect_out "; nothing was written" live
	expect_out '"node":"peernode","device":"peerdev"' live
	# -n checks the block without waiting, as e2fsck -n does: a warning,
	# and the status the replay would have if no node held the block.
	timed_jrecover -n x.img
	[ "$RUN_RC" -eq 1 ] || fail "live: jrecover -n exited $RUN_RC, not 1"
	expect_out "may be in use on another node" "live, -n"
	e2fsck_end -y -E journal_only
	[ "$E2RC" -eq 8 ] || fail "live: e2fsck exited $E2RC, not 8"
	kill "$P1" "$P2"
	wait "$P1" "$P2"
	for _t in e j; do
		needs_recovery $_t/x.img || fail "live: $_t/x.img was replayed"
		only_mmp_changed $_t/x.img ../base.img ||
			fail "live: $_t/x.img changed beyond the MMP block"
		expect_mmp $_t/x.img "$(mmp_get $_t/x.img sequence)" peernode \
			peerdev "live: $_t/x.img"
	done
	exit "$NFAIL"
}

# case_refused NAME SETUP...: the block is refused at once, dry run or not;
# -i, -l and -s warn and go on.
case_refused() {
	_name=$1
	shift
	in_case "$_name"
	"$@" j/x.img || exit 1
	copy_img j/x.img e/x.img
	copy_img j/x.img before.img
	mkdir n && copy_img before.img n/x.img
	(cd n && e2fsck -n x.img > ../e2fsck-n.out 2>&1; echo $? > ../e2fsck-n.rc)
	say "\$ e2fsck -n x.img: exit $(cat e2fsck-n.rc)"
	sed 's/^/    /' e2fsck-n.out
	e2fsck_bg -y -E journal_only
	timed_jrecover x.img
	[ "$RUN_RC" -eq 8 ] || fail "$_name: jrecover exited $RUN_RC, not 8"
	! grep -q "MMP: waiting" "$SCRATCH/.run.out" ||
		fail "$_name: jrecover waited before refusing"
	expect_out "refused by multi-mount protection" "$_name"
	cp "$SCRATCH/.run.out" refusal.out
	timed_jrecover -n x.img
	[ "$RUN_RC" -eq 8 ] || fail "$_name: jrecover -n exited $RUN_RC, not 8"
	for _o in -i -l "-s saved"; do
		# shellcheck disable=SC2086
		timed_jrecover $_o x.img
		[ "$RUN_RC" -eq 0 ] || fail "$_name: jrecover $_o exited $RUN_RC, not 0"
		expect_out "warning: " "$_name, $_o"
	done
	cmp -s j/x.img before.img || fail "$_name: jrecover changed the image"
	e2fsck_end -y -E journal_only
	cp refusal.out "$SCRATCH/.run.out"
}

mmp_seq_fsck() { "$MMPPEER" "$1" set 0xE24D4D50 deadnode deaddev; }
mmp_seq_unknown() { "$MMPPEER" "$1" set 0xE24D4D60 oddnode odddev; }
mmp_bad_magic() {
	"$MMPPEER" "$1" set 0x1234 &&
	poke "$1" $((MMP_BLK * 4096)) 11111111
}
mmp_bad_csum() {
	"$MMPPEER" "$1" set 0xFF4D4D50 &&
	poke "$1" $((MMP_BLK * 4096 + 1020)) 11111111
}
mmp_bad_block() { "$MMPPEER" "$1" block 99999999; }

case_fsck() {
	case_refused fsck mmp_seq_fsck
	expect_out "node 'deadnode' (device 'deaddev')" fsck
	expect_out "run: tune2fs -f -E clear_mmp x.img" fsck
	[ "$E2RC" -eq 12 ] || fail "fsck: e2fsck exited $E2RC, not 12"
	[ "$(cat e2fsck-n.rc)" -eq 12 ] || fail "fsck: e2fsck -n did not refuse"
	cmp -s e/x.img before.img || fail "fsck: e2fsck changed the image"
	# The way out, once sure: tune2fs (1.47.0 replays the journal too).
	(cd j && tune2fs -f -E clear_mmp x.img > ../tune2fs.out 2>&1) ||
		{ cat tune2fs.out; fail "fsck: tune2fs -f -E clear_mmp failed"; }
	expect_mmp j/x.img "$SEQ_CLEAN" "" "" "fsck: after tune2fs"
	timed_jrecover x.img
	case $RUN_RC in
	0|1) ;;
	*) fail "fsck: after tune2fs -f -E clear_mmp jrecover exited $RUN_RC" ;;
	esac
	expect_mmp j/x.img "$SEQ_CLEAN" "" x.img "fsck: after tune2fs and jrecover"
	exit "$NFAIL"
}

# The same on a Lustre MDT (dirdata): where this system's libext2fs does not
# know dirdata, its tune2fs and e2fsck refuse the filesystem, so the way
# out names e2fsprogs that know it.
mmp_seq_fsck_dirdata() {
	mmp_seq_fsck "$1" && "$SBFEATURE" "$1" incompat +0x1000
}
case_fsckdirdata() {
	case_refused fsckdirdata mmp_seq_fsck_dirdata
	expect_out "run: tune2fs -f -E clear_mmp x.img" fsckdirdata
	"$SBFEATURE" before.img opens > opens.out 2>&1
	case $? in
	3) expect_out "e2fsprogs that know them (Lustre's builds, for dirdata)" \
		fsckdirdata ;;
	0) say "(this libext2fs knows dirdata: no other e2fsprogs to name)" ;;
	*) fail "fsckdirdata: sbfeature opens: $(cat opens.out)" ;;
	esac
	exit "$NFAIL"
}

case_unknown() {
	case_refused unknown mmp_seq_unknown
	expect_out "node 'oddnode' (device 'odddev')" unknown
	expect_out "run: tune2fs -f -E clear_mmp x.img" unknown
	[ "$E2RC" -eq 12 ] || fail "unknown: e2fsck exited $E2RC, not 12"
	[ "$(cat e2fsck-n.rc)" -eq 12 ] || fail "unknown: e2fsck -n did not refuse"
	exit "$NFAIL"
}

# e2fsck -y repairs a bad magic or checksum (it asks first: e2fsck -n
# refuses); jrecover only replays journals, and refuses.
case_damaged() {
	case_refused "$1" "$2"
	expect_out "is damaged" "$1"
	expect_out "run e2fsck, which repairs it" "$1"
	[ "$E2RC" -eq "$3" ] || fail "$1: e2fsck exited $E2RC, not $3"
	[ "$(cat e2fsck-n.rc)" -eq 12 ] || fail "$1: e2fsck -n did not refuse"
	exit "$NFAIL"
}

# A signal during the wait: the run stops then, before the replay, and
# leaves the MMP block it had written clean again.
case_signal() {
	in_case "sig$1"
	cd j || exit 1
	$DEFSIG "$JRECOVER" --json x.img > ../out 2> ../err &
	_pid=$!
	wait_for_text "$_pid" ../err "MMP: waiting"
	_t0=$(date +%s)
	sleep 1
	kill -"$1" "$_pid"
	wait "$_pid"
	_rc=$?
	SECS=$(($(date +%s) - _t0))
	cd .. || exit 1
	sed 's/^/    /' err out
	say "    [exit $_rc after the signal, $SECS s later]"
	[ "$_rc" -eq 32 ] || fail "SIG$1: jrecover exited $_rc, not 32"
	# The library's own count of the wait, against the 11 s it planned:
	# the signal came about a second into it.
	_w=$(sed -n 's/.*"wait_seconds":\([0-9]*\),"released":true.*/\1/p' out)
	[ -n "$_w" ] && [ "$_w" -lt 11 ] ||
		fail "SIG$1: the wait was not ended by the signal (or the block not released)"
	grep -q "interrupted; nothing was written but the MMP block, which jrecover rewrote to take it and left clean again" err ||
		fail "SIG$1: does not say that the MMP block alone was written"
	expect_mmp j/x.img "$SEQ_CLEAN" "" x.img "SIG$1"
	needs_recovery j/x.img || fail "SIG$1: the journal was replayed"
	only_mmp_changed j/x.img ../base.img ||
		fail "SIG$1: more than the MMP block was written"
	exit "$NFAIL"
}

# slow_start OUT: mmpslow replays j/x.img in the background (_pid; 500 ms a
# progress call), its output in OUT; returns once it is replaying.
# slow_end OUT: wait for it (its status in _rc) and show OUT.
slow_start() {
	cd j || exit 1
	"$MMPSLOW" 500 x.img > "../$1" 2>&1 &
	_pid=$!
	wait_for_text "$_pid" "../$1" replaying
}

slow_end() {
	wait "$_pid"
	_rc=$?
	cd .. || exit 1
	sed 's/^/    /' "$1"
}

# mmpslow: the replay takes 11 progress calls x 500 ms.
case_slow() {
	in_case slow
	slow_start slow.out
	_s1=$(mmp_get x.img sequence)
	_t1=$(mmp_get x.img time)
	sleep 2.5
	_s2=$(mmp_get x.img sequence)
	_t2=$(mmp_get x.img time)
	slow_end slow.out
	say "    MMP block during the replay: $_s1 at $_t1, then $_s2 at $_t2"
	[ "$_rc" -eq 0 ] || fail "slow: the replay failed"
	[ "$_s1" = "$SEQ_FSCK" ] && [ "$_s2" = "$SEQ_FSCK" ] ||
		fail "slow: the MMP block did not say a fsck was at work"
	[ "${_t2:-0}" -gt "${_t1:-0}" ] ||
		fail "slow: the MMP block was not updated during the replay"
	expect_mmp j/x.img "$SEQ_CLEAN" "" x.img slow
	grep -q "released=1" slow.out || fail "slow: not released"
	exit "$NFAIL"
}

case_stop() {
	in_case stop
	(cd j && "$MMPSLOW" 100 x.img 3 > ../stop.out 2>&1)
	sed 's/^/    /' stop.out
	grep -q "result=Interrupted .*released=1 seq=0x$SEQ_CLEAN" stop.out ||
		fail "stop: not interrupted with the MMP block released"
	expect_mmp j/x.img "$SEQ_CLEAN" "" x.img stop
	needs_recovery j/x.img || fail "stop: the journal no longer needs recovery"
	timed_jrecover x.img
	[ "$RUN_RC" -eq 1 ] || fail "stop: the replay afterwards exited $RUN_RC"
	# The wait is at least the 11 s planned; time() counts whole seconds
	# and a loaded machine sleeps longer, so 12 s or more is no fault.
	grep -E -q "MMP: waited (1[1-9]|[2-9][0-9]) s; the MMP block is clean again" \
		"$SCRATCH/.run.out" ||
		fail "stop: no 'MMP: waited 11 s or more; ... clean again' in the output"
	exit "$NFAIL"
}

case_takeover() {
	in_case takeover
	slow_start take.out
	"$MMPPEER" x.img set 0x42 othernode otherdev
	slow_end take.out
	[ "$_rc" -eq 1 ] || fail "takeover: the replay did not fail"
	grep -q "result=MMP:_filesystem_still_in_use .*released=0 seq=0x00000042 node=othernode" \
		take.out || fail "takeover: not stopped with EXT2_ET_MMP_CHANGE_ABORT"
	expect_mmp j/x.img 00000042 othernode otherdev takeover
	needs_recovery j/x.img || fail "takeover: the journal no longer needs recovery"
	exit "$NFAIL"
}

case_error() {
	in_case error ../err.img
	e2fsck_bg -y -E journal_only
	timed_jrecover x.img
	[ "$RUN_RC" -eq 8 ] || fail "error: jrecover exited $RUN_RC, not 8"
	expect_out "r_count exceeds the block" error
	# Refused by the scan, before the MMP wait: nothing written at all.
	! grep -q "MMP: waiting" "$SCRATCH/.run.out" ||
		fail "error: waited for the MMP block before refusing"
	cmp -s j/x.img ../err.img || fail "error: the image changed"
	e2fsck_end -y -E journal_only
	expect_mmp e/x.img "$SEQ_CLEAN" "" x.img "error: e2fsck"
	exit "$NFAIL"
}

case_logged() {
	in_case logged ../logged.img
	_b=$(mmp_blk ../logged.img)
	e2fsck_bg -y -E journal_only
	timed_jrecover x.img
	[ "$RUN_RC" -eq 12 ] || fail "logged: jrecover exited $RUN_RC, not 12"
	expect_out "the replay stopped part way" logged
	expect_out "MMP: invalid magic number while replaying the journal of x.img" logged
	expect_out "is damaged" logged
	! grep -q "refused by multi-mount protection" "$SCRATCH/.run.out" ||
		fail "logged: jrecover says it refused, after a replay"
	e2fsck_end -y -E journal_only
	[ "$E2RC" -eq 12 ] || fail "logged: e2fsck exited $E2RC, not 12"
	getblk e/x.img "$_b" > e.mmp
	getblk j/x.img "$_b" > j.mmp
	cmp -s e.mmp j.mmp ||
		fail "logged: the MMP block differs between e2fsck and jrecover"
	exit "$NFAIL"
}

case_undo() {
	in_case undo
	timed_jrecover -z ../x.undo x.img
	[ "$RUN_RC" -eq 1 ] || fail "undo: jrecover -z exited $RUN_RC, not 1"
	expect_mmp j/x.img "$SEQ_CLEAN" "" x.img undo
	run e2undo x.undo j/x.img
	[ "$RUN_RC" -eq 0 ] || fail "undo: e2undo exited $RUN_RC"
	cmp -s j/x.img ../base.img || fail "undo: e2undo did not give back the image"
	exit "$NFAIL"
}

case_example() {
	in_case example
	cd j || exit 1
	run "$top_builddir/contrib/fsck-example" x.img
	cd .. || exit 1
	[ "$RUN_RC" -eq 1 ] || fail "example: fsck-example exited $RUN_RC, not 1"
	expect_mmp j/x.img "$SEQ_CLEAN" "" x.img example
	exit "$NFAIL"
}

PIDS=
CASES="clean interval foreign readonly static live fsck fsckdirdata unknown"
CASES="$CASES badmagic"
CASES="$CASES badcsum badblock"
CASES="$CASES sigINT sigTERM slow stop takeover error logged undo example tty"
for c in $CASES; do
	case $c in
	badmagic) (case_damaged badmagic mmp_bad_magic 0) > "$c.log" 2>&1 & ;;
	badcsum) (case_damaged badcsum mmp_bad_csum 0) > "$c.log" 2>&1 & ;;
	badblock) (case_damaged badblock mmp_bad_block 8) > "$c.log" 2>&1 & ;;
	sig*) (case_signal "${c#sig}") > "$c.log" 2>&1 & ;;
	*) ("case_$c") > "$c.log" 2>&1 & ;;
	esac
	PIDS="$PIDS $!"
done
set -- $PIDS
for c in $CASES; do
	wait "$1"
	_rc=$?
	shift
	cat "$c.log"
	NCASES=$((NCASES + 1))
	[ "$_rc" -eq 0 ] || fail "case $c: $_rc check(s) failed"
done

# The replays that started from another MMP state end as the clean one.
for c in static slow stop example; do
	say "\$ compare $c/j/x.img with clean/e/x.img"
	same_result clean/e/x.img $c/j/x.img ||
		fail "$c: jrecover's image differs from e2fsck's replay"
done

end_test
