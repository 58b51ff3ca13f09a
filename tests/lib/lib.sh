# SPDX-License-Identifier: LGPL-2.1-or-later
#
# lib.sh --- the harness every shell test shares (tests/integration,
# tests/oracle, tests/cli, tests/crash, tests/kernel).
#
# Sourced (POSIX sh; dash runs it) as the first thing a test does:
#     . "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
# A test builds an image with a journal (debugfs's jo/jw/jc, or
# tests/jwrite), then calls oracle_compare: one copy is replayed by
# `e2fsck -y -E journal_only`, the other by jrecover, and the two results
# must be byte-identical except for s_wtime, s_wtime_hi, s_kbytes_written
# and s_checksum of the primary superblock (doc/testing.md, "The oracle").  Never -f: that would turn e2fsck's
# replay into a full check that repairs things.
#
# Environment:
#   top_srcdir, top_builddir  set by `make check`; guessed when run by hand
#   JRECOVER         the binary under test (default $top_builddir/src/jrecover)
#   JRECOVER_TIMEOUT seconds before a jrecover run counts as hung (300)
#   ORACLE_ONLY=1    run only the e2fsck side (to check the test's journals
#                    while jrecover does not build)
#   KEEP_SCRATCH=1   keep the scratch directory even when the test passes
#
# Exit status of a test: 0 pass, 1 fail, 77 skip, 99 hard error (automake).

if [ -z "${top_srcdir:-}" ]; then
	top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${top_builddir:=$top_srcdir}"

LC_ALL=C
export LC_ALL

# JR_TESTNAME: another name for the scratch directory (a harness running
# one test many times, e.g. tests/kernel/fcsoak.sh).
TESTNAME=${JR_TESTNAME:-$(basename "$0" .sh)}
SCRATCH=$top_builddir/tests/integration/tmp/$TESTNAME
JRECOVER=${JRECOVER:-$top_builddir/src/jrecover}
JWRITE=${JWRITE:-$top_builddir/tests/jwrite/jwrite}
IMGCMP=$top_builddir/tests/integration/imgcmp
MKDATA=$top_builddir/tests/integration/mkdata
CRASHRUN=$top_builddir/tests/crash/crashrun
JRECOVER_TIMEOUT=${JRECOVER_TIMEOUT:-300}
ORACLE_ONLY=${ORACLE_ONLY:-0}

# Reproducible images: fixed UUIDs, hash seed and clock for mke2fs and
# debugfs, and configuration files of our own instead of the host's.
FS_UUID=5d2c8f4e-1a6b-4e3f-9c07-b1e2d3f4a5b6
JDEV_UUID=0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0
HASH_SEED=3b9ac9ff-4c1d-4f2e-8a3b-6c5d4e3f2a1b
FAKE_TIME=1700000000
MKE2FS_CONFIG=$top_srcdir/tests/lib/mke2fs.conf
E2FSCK_CONFIG=/dev/null
export MKE2FS_CONFIG E2FSCK_CONFIG

NFAIL=0
NCASES=0

say() {
	printf '%s\n' "$*"
}

# A check failed: report it and go on, so one run shows every failure.
fail() {
	say "FAIL: $*"
	NFAIL=$((NFAIL + 1))
}

# The harness itself is broken (a tool misbehaved, a helper is missing).
die() {
	say "ERROR: $*"
	exit 99
}

skip() {
	say "SKIP: $*"
	# A test that already failed a check fails: a skip must not hide it.
	if [ "${NFAIL:-0}" -gt 0 ]; then
		say "$TESTNAME: $NFAIL check(s) failed before the skip"
		exit 1
	fi
	exit 77
}

# need_built PROG...: the test's own helper programs are built (make check
# builds them; run by hand, a test says what is missing).
need_built() {
	for _nb in "$@"; do
		[ -x "$_nb" ] || die "$_nb not built: run the tests with 'make check'"
	done
}

# case_begin NAME [TITLE]: a case of the test's own (oracle_compare makes
# its own): counted, announced in the log, and closed by case_end [NOTE],
# which says "ok" (with NOTE) or "FAILED" from the checks failed since.
# Sets _case = NAME.
case_begin() {
	_case=$1
	_failed_before=$NFAIL
	NCASES=$((NCASES + 1))
	say ""
	say "=== case $1${2:+: $2}"
}

case_end() {
	if [ "$NFAIL" -eq "$_failed_before" ]; then
		say "=== case $_case: ok${1:+ ($1)}"
	else
		say "=== case $_case: FAILED"
	fi
}

end_test() {
	if [ "$NFAIL" -gt 0 ]; then
		say "$TESTNAME: $NFAIL check(s) failed over $NCASES case(s)"
		exit 1
	fi
	say "$TESTNAME: all $NCASES case(s) passed"
	exit 0
}

_cleanup() {
	_rc=$?
	cd "$top_builddir" 2>/dev/null || cd /
	if [ "$_rc" -eq 0 ] || [ "$_rc" -eq 77 ]; then
		if [ "${KEEP_SCRATCH:-0}" = 1 ]; then
			say "scratch directory kept: $SCRATCH"
		else
			rm -rf "$SCRATCH"
		fi
	else
		say "scratch directory kept: $SCRATCH"
	fi
	exit "$_rc"
}

# --- setup -------------------------------------------------------------------

for _p in mke2fs debugfs e2fsck dumpe2fs sha256sum cmp dd diff; do
	command -v "$_p" >/dev/null 2>&1 ||
		skip "$_p not found (install e2fsprogs, coreutils, diffutils)"
done
if [ ! -x "$IMGCMP" ] || [ ! -x "$MKDATA" ]; then
	die "$IMGCMP or $MKDATA missing: run the tests with 'make check'"
fi
if [ "$ORACLE_ONLY" != 1 ] && [ ! -x "$JRECOVER" ]; then
	die "$JRECOVER not built (set ORACLE_ONLY=1 to check the e2fsck side only)"
fi
if command -v timeout >/dev/null 2>&1; then
	TIMEOUT="timeout -k 10 $JRECOVER_TIMEOUT"
else
	TIMEOUT=
fi

rm -rf "$SCRATCH"
mkdir -p "$SCRATCH" || die "cannot create $SCRATCH"
trap _cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$SCRATCH" || die "cannot enter $SCRATCH"
say "$TESTNAME: scratch directory $SCRATCH"
say "$(e2fsck -V 2>&1 | head -n 1)"

# --- running things ----------------------------------------------------------

# run CMD...: show the command, its output (indented) and exit status.
# The status is returned and kept in RUN_RC.
run() {
	say "\$ $*"
	"$@" > "$SCRATCH/.run.out" 2>&1
	RUN_RC=$?
	sed 's/^/    /' "$SCRATCH/.run.out"
	say "    [exit $RUN_RC]"
	return "$RUN_RC"
}

# jrecover ARGS...: run the binary under test, with a time limit and the
# environment variables in JR_ENV (NAME=VALUE ...).  A shim preloaded
# there (tests/cli/outshim.c) comes before the sanitizer build's ASan
# runtime, which then refuses to start unless told not to check the order.
jrecover() {
	if [ -n "${JR_ENV:-}" ]; then
		_jr_asan=
		case " $JR_ENV" in
		*" LD_PRELOAD="*) _jr_asan="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" ;;
		esac
		# shellcheck disable=SC2086
		run $TIMEOUT env $_jr_asan $JR_ENV "$JRECOVER" "$@"
	else
		run $TIMEOUT "$JRECOVER" "$@"
	fi
	case $RUN_RC in
	124|137) fail "jrecover $* hung (killed after $JRECOVER_TIMEOUT s)" ;;
	esac
	return "$RUN_RC"
}

sha256_of() {
	sha256sum < "$1" | cut -d' ' -f1
}

# The sha256 of an image and, if given, its external journal, as one word.
state_of() {
	if [ -n "${2:-}" ]; then
		say "$(sha256_of "$1")+$(sha256_of "$2")"
	else
		sha256_of "$1"
	fi
}

copy_img() {
	cp --sparse=always "$1" "$2" || die "cannot copy $1 to $2"
}

# same_as IMG JDEV REF_IMG REF_JDEV: true if IMG (and JDEV, when given) hold
# the same bytes as REF_IMG (and REF_JDEV).  cmp is cheaper than hashing.
same_as() {
	cmp -s "$1" "$3" || return 1
	[ -z "$2" ] || cmp -s "$2" "$4"
}

# crashrun_field NAME LINE: the value of NAME=... in the summary line that
# tests/crash/crashrun prints last.
crashrun_field() {
	say "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# wait_for_text PID FILE PATTERN [TRIES [PAUSE]]: wait until FILE has a
# line that matches PATTERN (grep), process PID has ended, or TRIES looks
# PAUSE seconds apart (no limit, 0.05 s by default) have not found one.
# Returns 0 when the line is there.
wait_for_text() {
	_wt=0
	until grep -q "$3" "$2" 2>/dev/null; do
		kill -0 "$1" 2>/dev/null || return 1
		_wt=$((_wt + 1))
		[ -z "${4:-}" ] || [ "$_wt" -lt "$4" ] || return 1
		sleep "${5:-0.05}"
	done
}

# --- loop mounts -------------------------------------------------------------

# need_loop_mounts: a test that mounts images through loop devices calls
# this first.  It skips (77) without root, mount or losetup, makes the
# mount point MNT, and makes sure that whatever loop_mount left mounted
# and attached is let go at exit.
need_loop_mounts() {
	[ "$(id -u)" = 0 ] || skip "not root: cannot mount"
	command -v mount > /dev/null 2>&1 && command -v losetup > /dev/null 2>&1 ||
		skip "mount or losetup not found"
	MNT=$SCRATCH/mnt
	mkdir -p "$MNT" || die "cannot create $MNT"
	LOOP=
	trap '_rc=$?; unmount; (exit $_rc); _cleanup' EXIT
}

# unmount: unmount MNT and detach LOOP, if loop_mount attached one.
unmount() {
	if [ -n "$LOOP" ]; then
		umount "$MNT" 2> /dev/null
		losetup -d "$LOOP" 2> /dev/null
		LOOP=
	fi
}

# loop_mount IMG [OPTS]: attach IMG to a loop device (LOOP; skips the test
# when there is none) and mount it on MNT with -o OPTS, shown in the log.
# Returns mount's status; on failure LOOP is detached again.
loop_mount() {
	LOOP=$(losetup -f --show "$1" 2> /dev/null) || {
		LOOP=
		skip "no loop device (losetup -f failed)"
	}
	# A loop device another test (make -j) just gave up can still hold
	# its file's blocks in its page cache.
	blockdev --flushbufs "$LOOP" 2> /dev/null
	say "\$ mount -t ext4 ${2:+-o $2 }$LOOP $MNT    ($1)"
	mount -t ext4 ${2:+-o "$2"} "$LOOP" "$MNT" 2> "$SCRATCH/.mount.err"
	_mrc=$?
	sed 's/^/    /' "$SCRATCH/.mount.err"
	say "    [exit $_mrc]"
	if [ "$_mrc" -ne 0 ]; then
		losetup -d "$LOOP"
		LOOP=
	fi
	return "$_mrc"
}

# --- images ------------------------------------------------------------------

# mkimg IMG SIZE [mke2fs options]: a reproducible ext4 image.  Any -E
# options are merged with the fixed hash seed (mke2fs keeps only the last
# -E); -b 4096 is added unless a block size is given.
mkimg() {
	_img=$1
	_size=$2
	shift 2
	_ext=hash_seed=$HASH_SEED
	_bs="-b 4096"
	_n=$#
	# Rotate the arguments: each is taken off the front and, unless it
	# is an -E, put back at the end.
	while [ "$_n" -gt 0 ]; do
		_a=$1
		shift
		_n=$((_n - 1))
		case $_a in
		-E)	_ext=$_ext,$1; shift; _n=$((_n - 1)) ;;
		-E*)	_ext=$_ext,${_a#-E} ;;
		-b*)	_bs=; set -- "$@" "$_a" ;;
		*)	set -- "$@" "$_a" ;;
		esac
	done
	rm -f "$_img"
	# shellcheck disable=SC2086
	E2FSPROGS_FAKE_TIME=$FAKE_TIME mke2fs -q -F -t ext4 $_bs -U "$FS_UUID" \
		-E "$_ext" "$@" "$_img" "$_size" > "$SCRATCH/.mkfs.out" 2>&1 ||
		{ cat "$SCRATCH/.mkfs.out"; die "mke2fs $* $_img $_size failed"; }
}

# mkjdev JDEV SIZE BLOCKSIZE [UUID]: an external journal device (as a file).
mkjdev() {
	rm -f "$1"
	E2FSPROGS_FAKE_TIME=$FAKE_TIME mke2fs -q -F -O journal_dev -b "$3" \
		-U "${4:-$JDEV_UUID}" "$1" "$2" > "$SCRATCH/.mkfs.out" 2>&1 ||
		{ cat "$SCRATCH/.mkfs.out"; die "mke2fs -O journal_dev failed"; }
}

# mkimg_ext IMG SIZE JDEV JSIZE [mke2fs options]: an ext4 image using the
# external journal JDEV.  mke2fs -J device= wants a block device, so the
# link is made by hand, as mke2fs would: the filesystem names the journal
# (has_journal, s_journal_uuid) and the journal lists the filesystem as its
# one user (s_nr_users = 1, s_users[0] = the filesystem's UUID).
mkimg_ext() {
	_img=$1
	_size=$2
	_jdev=$3
	_jsize=$4
	shift 4
	mkimg "$_img" "$_size" -O ^has_journal "$@"
	_jbs=$(img_bs "$_img")
	mkjdev "$_jdev" "$_jsize" "$_jbs"
	printf 'feature has_journal\nssv journal_uuid %s\n' "$JDEV_UUID" |
		dfs_quiet "$_img"
	_jsb=$(jdev_sb_offset "$_jdev")
	poke "$_jdev" $((_jsb + 64)) 00000001
	poke "$_jdev" $((_jsb + 256)) "$(say "$FS_UUID" | tr -d -)"
}

# img_bs IMG: the block size of an ext2/3/4 image or journal device.
img_bs() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Block size: *//p'
}

# jblk_off IMG N: byte offset in IMG of block N of the internal journal.
# debugfs -c (no bitmaps read) here and in show_journal: in an image a
# kernel left at a crash, bitmaps need not match their checksums until
# the journal is replayed, and debugfs would not open it otherwise.
jblk_off() {
	_blk=$(debugfs -c -n -R "bmap <8> $2" "$1" 2>/dev/null)
	case $_blk in
	''|*[!0-9]*) die "cannot map journal block $2 of $1" ;;
	esac
	say $((_blk * $(img_bs "$1")))
}

# jsb_offset IMG: byte offset of the internal journal's superblock.
jsb_offset() {
	jblk_off "$1" 0
}

# jdev_sb_offset JDEV: byte offset of an external journal's superblock,
# which follows the ext2 superblock (ext2fs_journal_sb_start()).
jdev_sb_offset() {
	_b=$(img_bs "$1")
	if [ "$_b" -eq 1024 ]; then say 2048; else say "$_b"; fi
}

# poke FILE OFFSET HEX: overwrite bytes in place, HEX like "c03b3998".
poke() {
	_hex=$3
	_esc=
	while [ -n "$_hex" ]; do
		_esc=$_esc\\$(printf '%o' "0x${_hex%"${_hex#??}"}")
		_hex=${_hex#??}
	done
	# shellcheck disable=SC2059
	printf "$_esc" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null ||
		die "cannot write at $2 in $1"
}

# getblk IMG BLOCK [COUNT]: copy blocks out of an image to stdout.
getblk() {
	dd if="$1" bs="$(img_bs "$1")" skip="$2" count="${3:-1}" 2>/dev/null
}

# free_blocks IMG N [GOAL]: N free blocks of IMG (contiguous if possible,
# from GOAL on), separated by spaces.
free_blocks() {
	_l=$(debugfs -R "ffb $2 ${3:-1}" "$1" 2>/dev/null |
		sed -n 's/^Free blocks found: *//p')
	[ -n "$_l" ] || die "no free blocks in $1"
	# shellcheck disable=SC2086
	say $_l
}

# itb_of IMG INO: the block of IMG's inode table holding inode INO.
itb_of() {
	debugfs -R "imap <$2>" "$1" 2>/dev/null |
		sed -n 's/.*located at block \([0-9]*\),.*/\1/p'
}

# journal_transplant SRC DST: SRC's journal blocks copied over DST's, in order,
# and DST's needs_recovery set, as a copy of one journal into another's
# inode leaves them.
journal_transplant() {
	_bs=$(img_bs "$1")
	debugfs -R "blocks <8>" "$1" 2>/dev/null | tr ' ' '\n' | grep . \
		> "$SCRATCH/.src.bl" || die "no journal blocks in $1"
	debugfs -R "blocks <8>" "$2" 2>/dev/null | tr ' ' '\n' | grep . \
		> "$SCRATCH/.dst.bl" || die "no journal blocks in $2"
	[ "$(wc -l < "$SCRATCH/.src.bl")" -le "$(wc -l < "$SCRATCH/.dst.bl")" ] ||
		die "the journal of $1 is longer than that of $2"
	paste "$SCRATCH/.src.bl" "$SCRATCH/.dst.bl" | while read -r _s _d; do
		[ -n "$_d" ] || break
		dd if="$1" of="$2" bs="$_bs" skip="$_s" seek="$_d" count=1 \
			conv=notrunc status=none || exit 1
	done || die "copying the journal of $1 into $2 failed"
	printf 'feature needs_recovery\n' | dfs_quiet "$2"
}

# --- backup superblocks (jrecover -b, e2fsck -b) ------------------------------

# mark_backup IMG BLOCK BS: set needs_recovery in the backup at BLOCK.
mark_backup() {
	"$top_builddir/tests/oracle/sbfeature" -o $(($2 * $3)) "$1" incompat +0x4 ||
		die "sbfeature failed on $1"
}

# zero_primary IMG: the primary superblock gone.
zero_primary() {
	dd if=/dev/zero of="$1" bs=1024 seek=1 count=1 conv=notrunc \
		2> /dev/null || die "dd failed"
}

# bsb_compare E2FSCK_RC JRECOVER_RC IMG OPTS...: e2fsck OPTS -y -E
# journal_only on a copy, jrecover OPTS on another; -n and -i first (no
# write).  JRECOVER_RC 8: jrecover must write nothing (e2fsck's result is
# not compared).  Else the two results must be the same, and jrecover
# without -b must then find nothing to do.
bsb_compare() {
	_ee=$1
	_je=$2
	_img=$3
	shift 3
	case_begin "${_img%.img}" "$*: expect e2fsck $_ee, jrecover $_je"
	_a=$_case.e2fsck.img
	_b=$_case.jrecover.img
	show_journal "$_img"
	copy_img "$_img" "$_a"
	copy_img "$_img" "$_b"
	run env E2FSCK_TIME=$FAKE_TIME e2fsck "$@" -y -E journal_only "$_a"
	[ "$RUN_RC" -eq "$_ee" ] ||
		fail "$_case: e2fsck exited $RUN_RC, the test expected $_ee"
	jrecover -n "$@" "$_b"
	[ "$RUN_RC" -eq "$_je" ] ||
		fail "$_case: jrecover -n exited $RUN_RC, expected $_je"
	same_as "$_b" "" "$_img" "" || {
		fail "$_case: jrecover -n changed the image"
		copy_img "$_img" "$_b"
	}
	jrecover -i "$@" "$_b"
	case $_je:$RUN_RC in
	*:0|8:8) ;;
	*) fail "$_case: jrecover -i exited $RUN_RC, not 0" ;;
	esac
	same_as "$_b" "" "$_img" "" || {
		fail "$_case: jrecover -i changed the image"
		copy_img "$_img" "$_b"
	}
	jrecover "$@" "$_b"
	[ "$RUN_RC" -eq "$_je" ] ||
		fail "$_case: jrecover exited $RUN_RC, expected $_je"
	if [ "$_je" -eq 8 ]; then
		same_as "$_b" "" "$_img" "" ||
			fail "$_case: jrecover exited 8 but changed the image"
		case_end
		return
	fi
	imgcmp_case "$_case: jrecover's image differs from e2fsck's" \
		"$_a" "$_b" -s
	copy_img "$_b" "$_case.once.img"
	jrecover "$_b"
	[ "$RUN_RC" -eq 0 ] ||
		fail "$_case: jrecover without -b after it exited $RUN_RC, not 0"
	same_as "$_b" "" "$_case.once.img" "" ||
		fail "$_case: jrecover without -b after it changed the image"
	rm -f "$_case.once.img"
	case_end
}

# blist N...: the block numbers as a list for jw -b / jw -r, runs written
# as ranges (debugfs reads command files in lines of at most 8 KiB).
blist() {
	say "$*" | tr ' ' '\n' | awk '
		NF == 0 { next }
		n && $1 == last + 1 { last = $1; next }
		{ flush(); first = last = $1; n = 1 }
		END { flush(); print out }
		function flush() {
			if (!n) return
			s = (first == last) ? first : first "-" last
			out = out (out == "" ? "" : ",") s
		}'
}

# mkdata FILE BLOCKSIZE COUNT [mkdata options]: reproducible block contents.
mkdata() {
	_f=$1
	shift
	_bs=$1
	_cnt=$2
	shift 2
	"$MKDATA" "$@" "$_bs" "$_cnt" > "$_f" || die "mkdata $* failed"
}

# --- filesystem formats ------------------------------------------------------

# set_format FMT, FMT = BS-BITS-CSUM such as 4k-64-v3:
#   BS   1k or 4k (block size)
#   BITS 32 or 64 (the 64bit feature; debugfs gives the journal 64BIT too)
#   CSUM none: no metadata_csum, jo           (no journal checksums)
#        v1:   no metadata_csum, jo -c        (COMPAT_CHECKSUM)
#        v2:   metadata_csum,    jo -c -v 2   (INCOMPAT_CSUM_V2)
#        v3:   metadata_csum,    jo -c        (INCOMPAT_CSUM_V3)
# Sets FMT_BS (bytes), FMT_MKFS (mke2fs options), FMT_CSUM, JO_OPTS.
# shellcheck disable=SC2034
set_format() {
	_bsn=${1%%-*}
	_rest=${1#*-}
	_bits=${_rest%%-*}
	FMT_CSUM=${_rest#*-}
	case $_bsn in
	1k) FMT_BS=1024 ;;
	2k) FMT_BS=2048 ;;
	4k) FMT_BS=4096 ;;
	*) die "bad format $1" ;;
	esac
	case $_bits in
	32) _o=^64bit ;;
	64) _o=64bit ;;
	*) die "bad format $1" ;;
	esac
	case $FMT_CSUM in
	none) _o=$_o,^metadata_csum; JO_OPTS= ;;
	v1) _o=$_o,^metadata_csum; JO_OPTS=-c ;;
	v2) _o=$_o,metadata_csum; JO_OPTS="-c -v 2" ;;
	v3) _o=$_o,metadata_csum; JO_OPTS=-c ;;
	*) die "bad format $1" ;;
	esac
	FMT_MKFS="-b $FMT_BS -O $_o"
}

# mkimg_fmt IMG: a 16 MiB image (mkimg) in the current format (set_format).
mkimg_fmt() {
	# shellcheck disable=SC2086
	mkimg "$1" 16M $FMT_MKFS
}

# --- debugfs's journal writer ------------------------------------------------

# Output of debugfs that means a command failed (debugfs itself exits 0).
DFS_ERRORS='while |not open|already open|Need a file|Unknown|[Uu]sage'
DFS_ERRORS="$DFS_ERRORS|Illegal|Bad block|No free|not found"

# dfs_quiet IMG < COMMANDS: run debugfs -w commands, complain on error.
dfs_quiet() {
	cat > "$SCRATCH/.dfs.cmds"
	E2FSPROGS_FAKE_TIME=$FAKE_TIME debugfs -w -f "$SCRATCH/.dfs.cmds" "$1" \
		> "$SCRATCH/.dfs.out" 2>&1
	if grep -E -q "$DFS_ERRORS" "$SCRATCH/.dfs.out"; then
		sed 's/^/    /' "$SCRATCH/.dfs.out"
		die "debugfs failed on $1"
	fi
}

# jsession IMG < COMMANDS: one debugfs session writing to the journal, e.g.
#     jo -c / jw -b 100,101 FILE / jw -r 100 / jc
# shown in the log.  Keep each jw that is followed by another jw in the same
# session to -b alone or -r alone: debugfs reserves too little room for a jw
# with both and the next transaction overwrites its commit block.
jsession() {
	cat > "$SCRATCH/.dfs.session"
	say "debugfs -w $1:"
	sed 's/^/    > /' "$SCRATCH/.dfs.session"
	dfs_quiet "$1" < "$SCRATCH/.dfs.session"
}

# jtxn IMG JW-ARGS...: one transaction in a session of its own:
#     jo $JO_OPTS [-f $JO_EXT] / jw JW-ARGS / jc
# Separate sessions make debugfs find the log's head by scanning, which
# sidesteps its room estimate (see jsession).
jtxn() {
	_img=$1
	shift
	printf 'jo %s%s\njw %s\njc\n' "$JO_OPTS" "${JO_EXT:+ -f $JO_EXT}" "$*" |
		jsession "$_img"
}

# std_workload IMG: six transactions in six sessions, covering the common
# shapes at once: several blocks per descriptor, a revoke, a block logged
# again after its revoke, blocks whose first word is the jbd2 magic (stored
# escaped), a revoke of an escaped block, and a last lone block.
#   T1 log A0..A5            T4 log A6..A9 (escaped)
#   T2 revoke A1             T5 revoke A3, A6
#   T3 log A1, A2            T6 log A10
# Replay leaves A1, A2 from T3; A0, A4, A5 from T1; A7..A9 from T4; A10 from
# T6; A3 and A6 as they were.  With COMPAT_CHECKSUM (v1) e2fsck rejects T2
# (debugfs's checksum covers the revoke block) and replays T1 alone.
std_workload() {
	_img=$1
	_bs=$(img_bs "$_img")
	# shellcheck disable=SC2046
	set -- $(free_blocks "$_img" 24)
	mkdata w1.bin "$_bs" 6 -s 11
	mkdata w2.bin "$_bs" 2 -s 12
	mkdata w3.bin "$_bs" 4 -s 13 -m
	mkdata w4.bin "$_bs" 1 -s 14
	jtxn "$_img" -b "$(blist "$1" "$3" "$5" "$7" "$9" "${11}")" w1.bin
	jtxn "$_img" -r "$3"
	jtxn "$_img" -b "$3,$5" w2.bin
	jtxn "$_img" -b "${13},${14},${15},${16}" w3.bin
	jtxn "$_img" -r "$7,${13}"
	jtxn "$_img" -b "${20}" w4.bin
}

# The jrecover exit status std_workload calls for in the current format.
std_expect() {
	if [ "$FMT_CSUM" = v1 ]; then say 4; else say 1; fi
}

# std_external IMG JDEV: an image of the current format (set_format) with
# the external journal JDEV, and std_workload written to that journal.
std_external() {
	# shellcheck disable=SC2086
	mkimg_ext "$1" 16M "$2" 4M $FMT_MKFS
	JO_EXT=$2
	std_workload "$1"
	JO_EXT=
}

# show_journal IMG [JDEV]: what the test made, for the log.
show_journal() {
	say "--- journal of $1${2:+ (external: $2)}:"
	# debugfs's logdump never stops on some corrupt logs (a block of an
	# unknown type): its output is cut at 4 MB, which ends it by SIGPIPE.
	if [ -n "${2:-}" ]; then
		debugfs -c -R "logdump -a -f $2" "$1" 2>/dev/null |
			head -c 4000000 > "$SCRATCH/.ld"
		dumpe2fs -h "$2" 2>/dev/null |
			grep -E '^(Journal|Total journal)' > "$SCRATCH/.jh"
	else
		debugfs -c -R "logdump -a" "$1" 2>/dev/null |
			head -c 4000000 > "$SCRATCH/.ld"
		dumpe2fs -h "$1" 2>/dev/null |
			grep -E '^(Journal|Total journal)' > "$SCRATCH/.jh"
	fi
	dumpe2fs -h "$1" 2>/dev/null |
		grep -E '^(Filesystem features|Filesystem state|Block size)' |
		sed 's/^/    /'
	sed 's/^/    /' "$SCRATCH/.jh"
	_lines=$(wc -l < "$SCRATCH/.ld")
	if [ "$_lines" -le 150 ]; then
		sed 's/^/    /' "$SCRATCH/.ld"
		return
	fi
	# A long log: the block structure in full, the tags of the first
	# descriptor and revoke blocks only.
	say "    (logdump -a, $_lines lines, without most tag and revoke lines)"
	awk '/logged at journal block|Revoke FS block/ {
			if (++n > 40) { skipped++; next }
		}
		/^Dumping/ && n > 40 && skipped {
			print "  ... " skipped " more"; skipped = 0
		}
		{ print }
		END { if (skipped) print "  ... " skipped " more" }' \
		"$SCRATCH/.ld" | sed -n '1,400p' | sed 's/^/    /'
}

# --- the oracle --------------------------------------------------------------

# oracle_compare [-e RC] [-E RC] [-x FIELD]... [-o OPT]... IMG [JDEV]
#   -e RC  expected jrecover exit status (default 1: recovered, fs changed;
#          0: nothing to do; 4: recovered with problems left; 8: refused)
#   -E RC  expected e2fsck exit status (default 0; e2fsck 1.47.0 exits 0
#          after a journal_only replay, even an aborted one)
#   -x FIELD  leave this ext4 superblock field out of the comparison too,
#          where e2fsck does more than replay (say why in the test)
#   -o OPT give jrecover this option too (for the replay, -n and the
#          LIBRECOVER_DEBUG=full_revoke run), e.g. -o -f
#   -a OPT the same, and for -i and the second run too (where the journal
#          stays one that jrecover accepts only with OPT), e.g. -a -f
# IMG (and JDEV) are left untouched.  Replays CASE.e2fsck.img with e2fsck
# and CASE.jrecover.img with jrecover (CASE = IMG without .img), checks that
# -i and -n write nothing, compares the results, checks that a second
# jrecover run is a no-op, and checks that e2fsck -fn exits the same on both
# results.
oracle_compare() {
	_exp=1
	_expf=0
	_skipx=
	_jopts=
	_aopts=
	while :; do
		case ${1:-} in
		-a) _aopts="$_aopts $2"; _jopts="$_jopts $2"; shift 2 ;;
		-e) _exp=$2; shift 2 ;;
		-x) _skipx="$_skipx -x $2"; shift 2 ;;
		-o) _jopts="$_jopts $2"; shift 2 ;;
		-E) _expf=$2; shift 2 ;;
		*) break ;;
		esac
	done
	_img=$1
	_jdev=${2:-}
	case_begin "${_img%.img}" "expect jrecover $_exp, e2fsck $_expf"
	_a=$_case.e2fsck.img
	_b=$_case.jrecover.img
	_aj=
	_bj=
	show_journal "$_img" "$_jdev"

	copy_img "$_img" "$_a"
	copy_img "$_img" "$_b"
	if [ -n "$_jdev" ]; then
		_aj=$_case.e2fsck.jdev
		_bj=$_case.jrecover.jdev
		copy_img "$_jdev" "$_aj"
		copy_img "$_jdev" "$_bj"
		_jsb=$(jdev_sb_offset "$_jdev")
	else
		_jsb=$(jsb_offset "$_img")
	fi

	# The oracle.
	run e2fsck -y -E journal_only ${_aj:+-j "$_aj"} "$_a"
	E2FSCK_RC=$RUN_RC
	[ "$E2FSCK_RC" -eq "$_expf" ] ||
		fail "$_case: e2fsck exited $E2FSCK_RC, the test expected $_expf"
	# Make sure the journal is the kind the test meant to make.
	case $_exp in
	0) same_as "$_a" "$_aj" "$_img" "$_jdev" ||
		fail "$_case: e2fsck changed the image, the test expected no change" ;;
	1|4) ! same_as "$_a" "$_aj" "$_img" "$_jdev" ||
		fail "$_case: e2fsck changed nothing, the test expected a replay" ;;
	esac

	if [ "$ORACLE_ONLY" = 1 ]; then
		run e2fsck -fn ${_aj:+-j "$_aj"} "$_a"
		say "(e2fsck -fn of the e2fsck result exited $RUN_RC; report only)"
		case_end
		return
	fi

	# -i and -n write nothing; -i succeeds, -n exits as the replay will.
	# shellcheck disable=SC2086
	jrecover -i $_aopts ${_bj:+-j "$_bj"} "$_b"
	case $_exp:$RUN_RC in
	*:0|8:8) ;;
	*) fail "$_case: jrecover -i exited $RUN_RC, not 0" ;;
	esac
	same_as "$_b" "$_bj" "$_img" "$_jdev" ||
		{ fail "$_case: jrecover -i changed the image"; copy_back; }
	# shellcheck disable=SC2086
	jrecover -n $_jopts ${_bj:+-j "$_bj"} "$_b"
	[ "$RUN_RC" -eq "$_exp" ] ||
		fail "$_case: jrecover -n exited $RUN_RC (a replay would exit $_exp)"
	same_as "$_b" "$_bj" "$_img" "$_jdev" ||
		{ fail "$_case: jrecover -n changed the image"; copy_back; }

	# The replay.
	# shellcheck disable=SC2086
	jrecover $_jopts ${_bj:+-j "$_bj"} "$_b"
	JRECOVER_RC=$RUN_RC
	[ "$JRECOVER_RC" -eq "$_exp" ] ||
		fail "$_case: jrecover exited $JRECOVER_RC, expected $_exp"

	if [ "$_exp" -eq 8 ]; then
		same_as "$_b" "$_bj" "$_img" "$_jdev" ||
			fail "$_case: jrecover exited 8 but changed the image"
		case_end
		return
	fi

	# The comparison.
	if [ -n "$_jdev" ]; then
		# shellcheck disable=SC2086
		imgcmp_case "$_case: jrecover's image differs from e2fsck's" \
			"$_a" "$_b" -s $_skipx
		imgcmp_case "$_case: jrecover's external journal differs from e2fsck's" \
			"$_aj" "$_bj" -J "$_jsb"
	else
		# shellcheck disable=SC2086
		imgcmp_case "$_case: jrecover's image differs from e2fsck's" \
			"$_a" "$_b" -s $_skipx -J "$_jsb"
	fi

	# LIBRECOVER_DEBUG=full_revoke keeps every revoke record, as the kernel
	# does, instead of only those that can cancel a logged block: the
	# result must not change.
	_c=$_case.full-revoke.img
	_cj=
	copy_img "$_img" "$_c"
	if [ -n "$_jdev" ]; then
		_cj=$_case.full-revoke.jdev
		copy_img "$_jdev" "$_cj"
	fi
	JR_ENV=LIBRECOVER_DEBUG=full_revoke
	# shellcheck disable=SC2086
	jrecover $_jopts ${_cj:+-j "$_cj"} "$_c"
	JR_ENV=
	[ "$RUN_RC" -eq "$JRECOVER_RC" ] ||
		fail "$_case: with LIBRECOVER_DEBUG=full_revoke jrecover exited" \
			"$RUN_RC, without it $JRECOVER_RC"
	if ! "$IMGCMP" -s "$_b" "$_c" > "$SCRATCH/.cmp" ||
	   { [ -n "$_jdev" ] && ! "$IMGCMP" "$_bj" "$_cj" >> "$SCRATCH/.cmp"; }
	then
		sed 's/^/    /' "$SCRATCH/.cmp"
		fail "$_case: LIBRECOVER_DEBUG=full_revoke changes jrecover's result"
	fi
	rm -f "$_c" ${_cj:+"$_cj"}

	# Replaying again finds nothing to do and writes nothing.
	copy_img "$_b" "$_case.once.img"
	if [ -n "$_jdev" ]; then copy_img "$_bj" "$_case.once.jdev"; fi
	# shellcheck disable=SC2086
	jrecover $_aopts ${_bj:+-j "$_bj"} "$_b"
	[ "$RUN_RC" -eq 0 ] ||
		fail "$_case: a second jrecover run exited $RUN_RC, not 0"
	same_as "$_b" "$_bj" "$_case.once.img" "$_case.once.jdev" ||
		fail "$_case: a second jrecover run changed the image"
	rm -f "$_case.once.img" "$_case.once.jdev"

	# What a full check thinks of each result: it may find problems (the
	# journals hold made-up blocks), but the same ones in both.  This also
	# catches a wrong superblock checksum, a field imgcmp leaves out.
	run e2fsck -fn ${_aj:+-j "$_aj"} "$_a"
	_fa=$RUN_RC
	run e2fsck -fn ${_bj:+-j "$_bj"} "$_b"
	[ "$RUN_RC" -eq "$_fa" ] ||
		fail "$_case: e2fsck -fn exits $RUN_RC on jrecover's result, $_fa on e2fsck's"
	case_end
}

# imgcmp_case MESSAGE A B [imgcmp options]: compare two images (or journal
# devices) with imgcmp, shown in the log.  A difference fails the case with
# MESSAGE and shows where the superblocks differ; imgcmp's own failure ends
# the test.  Returns 0 when they are the same.
imgcmp_case() {
	_im=$1
	_ia=$2
	_ib=$3
	shift 3
	say "\$ imgcmp $* $_ia $_ib"
	"$IMGCMP" "$@" "$_ia" "$_ib" > "$SCRATCH/.cmp"
	_crc=$?
	sed 's/^/    /' "$SCRATCH/.cmp"
	case $_crc in
	0) say "    identical (outside the fields left out)" ;;
	1) fail "$_im"
	   _show_sb_diff "$_ia" "$_ib"
	   return 1 ;;
	*) die "imgcmp failed on $_ia $_ib" ;;
	esac
}

# After -i or -n wrote to the copy, restore it so the replay starts clean.
copy_back() {
	copy_img "$_img" "$_b"
	[ -n "$_jdev" ] && copy_img "$_jdev" "$_bj"
}

# The superblock fields of both results side by side, where they differ.
_show_sb_diff() {
	# Leave out the fields the comparison skips.
	_skip='^(Last write time|Lifetime writes|Checksum):'
	dumpe2fs -h "$1" 2>/dev/null | grep -E -v "$_skip" > "$SCRATCH/.sb.a"
	dumpe2fs -h "$2" 2>/dev/null | grep -E -v "$_skip" > "$SCRATCH/.sb.b"
	say "    dumpe2fs -h, e2fsck's result (-) against jrecover's (+):"
	diff -u "$SCRATCH/.sb.a" "$SCRATCH/.sb.b" | sed -n '3,$p' |
		sed 's/^/    /'
}

# e2fsck_alone IMG [TITLE]: begin a case (CASE = IMG without .img) for an
# image where e2fsck -E journal_only does more than replay (it releases
# orphan inodes, moves a visible journal), so that the comparison is
# e2fsck alone against jrecover followed by e2fsck: shows the journal,
# makes CASE.e2fsck.img and CASE.jrecover.img, and replays the first with
# e2fsck (its output stays in $SCRATCH/.run.out for the test to check).
# Then the test runs alone_jrecover and its own checks, calls
# e2fsck_after, and ends the case with case_end.
e2fsck_alone() {
	case_begin "${1%.img}" "${2:-e2fsck alone against jrecover, then e2fsck}"
	show_journal "$1"
	copy_img "$1" "$_case.e2fsck.img"
	copy_img "$1" "$_case.jrecover.img"
	run env E2FSCK_TIME=$FAKE_TIME e2fsck -y -E journal_only "$_case.e2fsck.img"
}

# alone_jrecover [PATTERN MESSAGE]: after e2fsck_alone, jrecover replays
# CASE.jrecover.img (exit 1) without printing a line that matches PATTERN
# (grep; MESSAGE says what such a line would mean), and a second run finds
# nothing to do (assert_noop, not counted as a case of its own).
alone_jrecover() {
	jrecover "$_case.jrecover.img"
	[ "$RUN_RC" -eq 1 ] || fail "$_case: jrecover exited $RUN_RC, expected 1"
	if [ -n "${1:-}" ] && grep -q "$1" "$SCRATCH/.run.out"; then
		fail "$_case: $2"
	fi
	assert_noop "$_case.jrecover.img"
	NCASES=$((NCASES - 1))
}

# e2fsck_after: e2fsck -E journal_only on CASE.jrecover.img (its output in
# $SCRATCH/.run.out), whose result must be the same as e2fsck's alone.
e2fsck_after() {
	run env E2FSCK_TIME=$FAKE_TIME e2fsck -y -E journal_only \
		"$_case.jrecover.img"
	imgcmp_case "$_case: e2fsck alone and jrecover + e2fsck differ" \
		"$_case.e2fsck.img" "$_case.jrecover.img" -s
}

# assert_noop IMG [JDEV]: jrecover finds nothing to do (exit 0) and leaves
# the image and the journal as they were.
assert_noop() {
	NCASES=$((NCASES + 1))
	[ "$ORACLE_ONLY" = 1 ] && return
	_before=$(state_of "$1" "${2:-}")
	jrecover ${2:+-j "$2"} "$1"
	[ "$RUN_RC" -eq 0 ] || fail "$1: jrecover exited $RUN_RC, expected 0"
	[ "$(state_of "$1" "${2:-}")" = "$_before" ] ||
		fail "$1: jrecover changed an image that needed nothing"
}

# assert_readonly OPTION IMG [JDEV]: jrecover OPTION (-i, -l) exits 0 and
# leaves the image and the journal as they were.
assert_readonly() {
	NCASES=$((NCASES + 1))
	[ "$ORACLE_ONLY" = 1 ] && return
	_before=$(state_of "$2" "${3:-}")
	jrecover "$1" ${3:+-j "$3"} "$2"
	[ "$RUN_RC" -eq 0 ] || fail "$2: jrecover $1 exited $RUN_RC, expected 0"
	[ "$(state_of "$2" "${3:-}")" = "$_before" ] ||
		fail "$2: jrecover $1 changed the image"
}

# oracle_block IMG BLOCK FILE INDEX | oracle_block IMG BLOCK old
# After oracle_compare IMG: check that e2fsck's result holds block INDEX
# (from 0) of FILE at BLOCK, or (old) what IMG held there before the replay.
# This checks the test's own reading of the journal it made, not jrecover
# (which the comparison covers); a failure here means the test is wrong.
oracle_block() {
	_ob_bs=$(img_bs "$1")
	getblk "${1%.img}.e2fsck.img" "$2" > "$SCRATCH/.ob.got"
	if [ "$3" = old ]; then
		getblk "$1" "$2" > "$SCRATCH/.ob.want"
	else
		dd if="$3" bs="$_ob_bs" skip="$4" count=1 2>/dev/null \
			> "$SCRATCH/.ob.want"
	fi
	cmp -s "$SCRATCH/.ob.got" "$SCRATCH/.ob.want" ||
		fail "${1%.img}: e2fsck left block $2 other than the test" \
			"expects (${3}${4:+ block $4}): fix the test"
}

# saved_is WANT SAVE: SAVE, written by jrecover -s from a filesystem's
# journal, is WANT (the journal) byte for byte followed by one journal
# block holding the record of the filesystem that a later replay of the
# dump checks (jrecover(8), -s): "jrecover-facts" at its start.
saved_is() {
	_sw=$(wc -c < "$1")
	_ss=$(wc -c < "$2")
	_sx=$((_ss - _sw))
	case $_sx in
	1024|2048|4096|8192|16384|32768|65536) ;;
	*) return 1 ;;
	esac
	cmp -s -n "$_sw" "$1" "$2" &&
		[ "$(dd if="$2" bs=1 skip="$_sw" count=14 2>/dev/null)" = jrecover-facts ]
}
