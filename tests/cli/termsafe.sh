#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# termsafe.sh --- bytes from the disk never reach a terminal as they are
# (jrecover(8), OUTPUT; issue 29, case 5).  Strings chosen to act on a
# terminal (ESC ]2;...BEL sets its title, ESC [2J clears it) and other
# control bytes, DEL, a byte that is not UTF-8 and a C1 control in UTF-8,
# put where jrecover may print them:
#  - the volume name and the last-mounted directory (tune2fs -L, debugfs
#    ssv);
#  - the node and device names of the MMP block (tests/integration/
#    mmppeer), with e2fsck's sequence in it: the replay's refusal, -i and
#    -n's warning print them;
#  - a file name in a fast commit the kernel wrote (a file created and
#    fsynced on a loop mount with fast_commit, then the shutdown ioctl),
#    which -l prints (this case needs root and loop mounts: skipped
#    without them, the rest still run);
#  - the command line of the process holding a lock (flock(1) with such
#    an argument), which the "locked by another run" refusal prints.
# Every byte jrecover writes, on stdout and stderr, in text and with -v,
# is printable ASCII, a tab or a newline (LC_ALL=C); each string shows
# in its escaped form (\x1b, \x07, ...); --json has it as JSON escapes
# it (which also shows the string is on the disk).  Every file's sha256 is
# the same after each run.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
MMPPEER=$top_builddir/tests/integration/mmppeer
KWORK=$top_builddir/tests/kernel/kwork
need_built "$MMPPEER" "$KWORK"

# ESC ]2;pwned BEL, ESC [2J, SOH, DEL, 0xff (not UTF-8), U+009B (CSI as a
# C1 control, in UTF-8), U+00E9 (e acute, printable UTF-8): no space, no
# quote, so that debugfs and the shell take each as one word.
ESC=$(printf '\033')
EACUTE=$(printf '\303\251')
EVIL=$(printf 'n\033]2;pwned\007\033[2J\001\177\377\302\233\303\251z')
EVIL_ESC='n\x1b]2;pwned\x07\x1b[2J\x01\x7f\xff\xc2\x9b\xc3\xa9z'
# As a UTF-8 locale shows it: e acute as it is, the C1 control escaped.
EVIL_UTF8="n\\x1b]2;pwned\\x07\\x1b[2J\\x01\\x7f\\xff\\xc2\\x9b${EACUTE}z"
# The same in --json (jrecover(8), JSON OUTPUT).
EVIL_JSON="\"n\\u001b]2;pwned\\u0007\\u001b[2J\\u0001\\u007f\\udcff\\u009b${EACUTE}z\""

# clean FILE WHAT: FILE holds nothing but printable ASCII, tabs and
# newlines.
clean() {
	_bad=$(LC_ALL=C tr -d '\t\n\040-\176' < "$1" | wc -c)
	[ "$_bad" -eq 0 ] || {
		LC_ALL=C od -c "$1" | sed -n '1,12s/^/    /p'
		fail "$2: $_bad byte(s) that are not printable ASCII"
	}
}

hashes() {
	for _f in *.img; do
		[ -e "$_f" ] && echo "$_f $(sha256_of "$_f")"
	done
}

# look WHAT WANT ARGS...: jrecover ARGS; every byte of its output clean,
# WANT (a fixed string) somewhere in it, and no image changed.  RUN_RC is
# jrecover's status.
look() {
	_what=$1
	_want=$2
	shift 2
	NCASES=$((NCASES + 1))
	hashes > h.before
	jr o.out o.err "$@"
	cat o.out o.err > o.all
	clean o.all "$_what"
	[ -z "$_want" ] || grep -qF -- "$_want" o.all ||
		fail "$_what: '$_want' is not in the output"
	hashes > h.after
	cmp -s h.before h.after || fail "$_what: files changed"
}

set_format 4k-64-v3

# --- the volume name, the last-mounted directory, the MMP names ----------------
case_begin superblock "volume name, last-mounted directory, MMP names"
mkimg mmp.img 16M -O mmp
std_workload mmp.img
run tune2fs -L "$EVIL" mmp.img
run debugfs -w -R "ssv last_mounted /mnt/$EVIL" mmp.img
dumpe2fs -h mmp.img 2> /dev/null | grep -q "$ESC" ||
	die "tune2fs and debugfs did not put ESC into the superblock"
run "$MMPPEER" mmp.img set 0xE24D4D50 "$EVIL" "d$EVIL"
[ "$RUN_RC" -eq 0 ] || die "mmppeer could not write the MMP block"
look "replay (MMP refusal)" "node 'n\\x1b]2;pwned" mmp.img
[ "$RUN_RC" -eq 8 ] || fail "the replay exited $RUN_RC, not 8 (MMP refusal)"
grep -qF -- "$EVIL_ESC" o.all || fail "the refusal does not show the node name escaped"
grep -qF -- "d$EVIL_ESC" o.all || fail "the refusal does not show the device name escaped"
look "-i" "node 'n\\x1b]2;pwned" -i mmp.img
look "-i -v" "" -i -v mmp.img
look "-n" "" -n mmp.img
look "-l" "" -l mmp.img
# In a UTF-8 locale, the same but for e acute, shown as it is.
if locale -a 2> /dev/null | grep -Eqi '^c\.utf-?8$'; then
	NCASES=$((NCASES + 1))
	say "\$ LC_ALL=C.UTF-8 jrecover -i mmp.img"
	LC_ALL=C.UTF-8 $TIMEOUT "$JRECOVER" -i mmp.img > u.all 2>&1
	sed 's/^/    /' u.all
	_bad=$(LC_ALL=C tr -d "\t\n\040-\176$EACUTE" < u.all | wc -c)
	[ "$_bad" -eq 0 ] ||
		fail "-i in C.UTF-8: $_bad byte(s) neither printable ASCII nor e acute"
	grep -qF -- "$EVIL_UTF8" u.all ||
		fail "-i in C.UTF-8: the node name is not shown as '$EVIL_UTF8'"
else
	say "no C.UTF-8 locale: the UTF-8 case skipped"
fi
# --json has the node name, escaped as JSON.
NCASES=$((NCASES + 1))
jr j.out j.err --json -i mmp.img
grep -qF -- "\"node\":$EVIL_JSON" j.out ||
	fail "--json -i: .mmp.node is not the node name, JSON-escaped"
case_end

# --- the command line of a lock's holder -----------------------------------------
if command -v flock > /dev/null 2>&1 && [ -r /proc/locks ]; then
	case_begin holder "the command line of the process holding the lock"
	mkimg_fmt lock.img
	flock -x lock.img sh -c 'exec sleep 60' "$EVIL" &
	FPID=$!
	_n=0
	kids=
	until grep -q ":$(stat -c %i lock.img) " /proc/locks && [ -n "$kids" ]; do
		_n=$((_n + 1))
		[ "$_n" -lt 400 ] || die "flock(1) did not lock lock.img and start sh"
		sleep 0.05
		kids=$(cat /proc/[0-9]*/stat 2> /dev/null |
		awk -v p="$FPID" '$4 == p { print $1 }')
	done
	look "locked by a hostile command line" "locked by another run (pid $FPID" \
		lock.img
	[ "$RUN_RC" -eq 8 ] || fail "the locked replay exited $RUN_RC, not 8"
	grep -qF -- "$EVIL_ESC" o.all || fail "the holder's command line is not shown escaped"
	# shellcheck disable=SC2086
	kill $kids "$FPID" 2> /dev/null
	wait "$FPID" 2> /dev/null
	case_end
else
	say "flock(1) or /proc/locks missing: case skipped"
fi

# --- a file name in a fast commit ------------------------------------------------
# Each way out of this case before its end ends the test (the cases above
# counted): a machine without loop mounts or fast commits skips only it.
fc_case() {
	if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null 2>&1; then
		say "not root or no losetup: case skipped"
		return
	fi
	mkimg live.img 32M -O fast_commit
	mkdir -p mnt
	LO=$(losetup -f --show live.img 2> /dev/null) || {
		LO=
		say "no loop device (losetup -f failed): case skipped"
		return
	}
	mount -t ext4 "$LO" mnt 2> mount.err || {
		sed 's/^/    /' mount.err
		say "cannot mount a loop device here: case skipped"
		return
	}
	mkdir mnt/d && "$KWORK" fsync mnt || die "mkdir failed"
	# The file alone fsynced (not its directory): its creation goes into
	# the fast commit, name and all.
	"$KWORK" write -n "mnt/d/$EVIL" 0 4096 7 &&
		"$KWORK" fsync "mnt/d/$EVIL" || die "kwork write failed"
	"$KWORK" shutdown mnt nologflush || die "the shutdown failed"
	copy_img live.img fc.img
	cleanup
	rm -f live.img
	# The name is in the log: -l --json has it among the fast-commit tags.
	case_begin fc-name "a file name in the kernel's fast commit, listed by -l"
	jr j.out j.err -l --json fc.img
	if ! grep -qF -- "\"name\":${EVIL_JSON%%\\u009b*}" j.out; then
		say "the kernel wrote no fast-commit record with the name: case skipped"
		NCASES=$((NCASES - 1))
		return
	fi
	look "-l" "$EVIL_ESC" -l fc.img
	look "-l -v" "" -l -v fc.img
	case_end
}

LO=
cleanup() {
	if [ -n "$LO" ]; then
		umount mnt 2> /dev/null
		losetup -d "$LO" 2> /dev/null
		LO=
	fi
}
trap '_rc=$?; cleanup; (exit $_rc); _cleanup' EXIT
fc_case

end_test
