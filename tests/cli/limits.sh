#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# limits.sh --- limits and signals are errors, not deaths, and what
# jrecover says about the disk after a failed write is what the disk holds
# (doc/design.md, "Outputs"; jrecover(8), EXIT STATUS; issue 29, cases 7,
# 8 and 9).  Every file here is hashed before and after each case.
#  - a file size limit (prlimit --fsize, SIGXFSZ left as the shell gives
#    it): -s FILE exits 8 saying so, leaves no new file (.FILE.XXXXXX) and
#    an earlier dump at FILE as it was; the replay exits 12 saying so; -z
#    exits 12, the undo file under its given name, and the e2undo command
#    jrecover prints gives back the image byte for byte.
#  - -s - | head -c 100: exit 8 and a message, no death by SIGPIPE.
#  - -z FILE on a full filesystem (a 100 KiB tmpfs; root): exit 12, and
#    the e2undo command printed gives back the image byte for byte (before:
#    it printed "e2undo FILE IMG", which failed with a short read).
#  - the flush after the superblock's update fails with EIO, the update
#    having reached the disk (tests/cli/outshim.so): exit 12, and jrecover
#    says needs_recovery is clear, as dumpe2fs finds it; the flush before
#    the update fails: it says needs_recovery is set, as it is.
# Before the fix the limit killed jrecover (exit 153, no message, the new
# file of -s left behind), SIGPIPE too (exit 141), the full filesystem's
# printed command failed, and the EIO case said "needs_recovery is set".

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
command -v e2undo > /dev/null 2>&1 || skip "e2undo not found (e2fsprogs)"
command -v prlimit > /dev/null 2>&1 || skip "prlimit not found (util-linux)"
SHIM=$top_builddir/tests/cli/.libs/outshim.so
need_built "$SHIM"

set_format 4k-64-v3
# T1 logs blocks 16 MiB into the image, T2 48 MiB into it.
# shellcheck disable=SC2086
mkimg far.img 64M $FMT_MKFS
jw far.img <<EOF
features revoke 64bit csum3
txn
log 4096-4103
commit
txn
log 12288-12351
commit
EOF
debugfs -R "dump <8> old.dump" far.img 2>/dev/null
[ -s old.dump ] || die "debugfs did not dump the journal"
cp old.dump out.dump
copy_img far.img far.orig

# Every file here (links as links), with its sha256.
hashes() {
	find . -mindepth 1 \( -name '*.out' -o -name 'h.*' -o -name '.jw.*' \
		-o -name '.run.out' -o -name '.mkfs.out' -o -name '*.log' \
		-o -name small \) -prune -o -print | LC_ALL=C sort |
	while read -r _f; do
		if [ -L "$_f" ]; then
			echo "$_f -> $(readlink "$_f")"
		else
			echo "$_f $(sha256_of "$_f")"
		fi
	done
}

# unchanged_but NAME...: every file but NAME... as it was (h.before, h.after).
unchanged_but() {
	_pat='^$'
	for _n in "$@"; do
		_pat="$_pat|^[.]/$(printf '%s' "$_n" | sed 's/[.]/[.]/g')[ ]"
	done
	grep -Ev "$_pat" h.before > h.b
	grep -Ev "$_pat" h.after > h.a
	diff h.b h.a > h.diff ||
		{ sed 's/^/    /' h.diff; fail "$_case: other files changed"; }
}

# limited BYTES ARGS...: jrecover ARGS under a file size limit of BYTES.
limited() {
	_l=$1
	shift
	say "\$ prlimit --fsize=$_l jrecover $*"
	prlimit --fsize="$_l" "$JRECOVER" "$@" > "$SCRATCH/.run.out" 2>&1
	RUN_RC=$?
	sed 's/^/    /' "$SCRATCH/.run.out"
	say "    [exit $RUN_RC]"
}

# undo_works IMG ORIG: the e2undo command jrecover printed, run, gives
# back ORIG byte for byte.
undo_works() {
	_cmd=$(sed -n 's/^jrecover: \(e2undo .*\) undoes what this run wrote$/\1/p' \
		"$SCRATCH/.run.out")
	if [ -z "$_cmd" ]; then
		fail "$_case: jrecover prints no e2undo command"
		return
	fi
	# shellcheck disable=SC2086
	run $_cmd
	[ "$RUN_RC" -eq 0 ] || fail "$_case: $_cmd exited $RUN_RC"
	cmp -s "$1" "$2" || fail "$_case: after $_cmd the image is not what it was"
}

no_temp() {
	_left=$(find . -maxdepth 2 -name ".$1.*")
	[ -z "$_left" ] || fail "$_case: a new file was left behind: $_left"
}

# --- a file size limit ----------------------------------------------------------
case_begin "-s FILE over the file size limit"
hashes > h.before
limited 1048576 -s out.dump far.img
hashes > h.after
[ "$RUN_RC" -eq 8 ] || fail "$_case: exited $RUN_RC, not 8"
grep -q "File too large while saving.*ulimit -f" "$SCRATCH/.run.out" ||
	fail "$_case: the message does not name the file size limit"
no_temp out.dump
unchanged_but
case_end

case_begin "the replay over the file size limit"
hashes > h.before
limited 33554432 far.img
hashes > h.after
[ "$RUN_RC" -eq 12 ] || fail "$_case: exited $RUN_RC, not 12"
grep -q "File too large while replaying" "$SCRATCH/.run.out" &&
	grep -q "the replay stopped part way.*the file size limit, ulimit -f" \
		"$SCRATCH/.run.out" ||
	fail "$_case: the message does not name the file size limit"
unchanged_but far.img
copy_img far.orig far.img
case_end

case_begin "-z, the image over the file size limit"
hashes > h.before
limited 33554432 -z far.undo far.img
hashes > h.after
[ "$RUN_RC" -eq 12 ] || fail "$_case: exited $RUN_RC, not 12"
[ -f far.undo ] || fail "$_case: no undo file under its given name"
no_temp far.undo
unchanged_but far.img far.undo
undo_works far.img far.orig
rm -f far.undo
case_end

# --- standard output closed -------------------------------------------------------
case_begin "-s - into a pipe closed early"
say "\$ jrecover -s - far.img | head -c 100"
{ "$JRECOVER" -s - far.img 2> pipe.err; echo $? > pipe.rc; } | head -c 100 > pipe.head
rc=$(cat pipe.rc)
sed 's/^/    err: /' pipe.err
say "    [exit $rc]"
[ "$rc" -eq 8 ] || fail "$_case: exited $rc, not 8"
grep -q "standard output was closed before the copy was complete" pipe.err ||
	fail "$_case: jrecover does not say the copy is incomplete"
[ "$(wc -c < pipe.head)" -eq 100 ] || fail "$_case: head got $(wc -c < pipe.head) bytes"
rm -f pipe.err pipe.rc pipe.head
case_end

# --- -z on a full filesystem ---------------------------------------------------------
mkdir small
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=100k jrecover-limits small 2> /dev/null; then
	case_begin "-z on a full filesystem"
	hashes > h.before
	jrecover -z small/u.undo far.img
	hashes > h.after
	[ "$RUN_RC" -eq 12 ] || fail "$_case: exited $RUN_RC, not 12"
	[ -f small/u.undo ] || fail "$_case: no undo file under its given name"
	no_temp u.undo
	unchanged_but far.img
	undo_works far.img far.orig
	umount small
	case_end
else
	say "(not root, or no tmpfs: the full filesystem case is skipped)"
fi

# --- EIO on the flush around the superblock's update ---------------------------------
# The flushes of the image, counted by the shim in a run without a fault:
# the last one before the superblock's update, and the first after it.
copy_img far.orig far.img
JR_ENV="LD_PRELOAD=$SHIM OUTSHIM_EIO_FILE=far.img OUTSHIM_FSYNC_EIO=0 OUTSHIM_LOG=$SCRATCH/count.log"
jrecover far.img
JR_ENV=
sed 's/^/    shim: /' count.log
after=$(awk '/^write over byte 1024/ { w = 1 } /^flush/ && w { print $2; exit }' count.log)
before=$(awk '/^write over byte 1024/ { exit } /^flush/ { n = $2 } END { print n }' count.log)
[ "${after:-0}" -gt 0 ] && [ "${before:-0}" -gt 0 ] ||
	die "no flush around the superblock's update (the test is wrong)"

# eio_case NAME K FLAG: the K-th flush fails; the disk's needs_recovery is FLAG.
eio_case() {
	case_begin "$1"
	copy_img far.orig far.img
	JR_ENV="LD_PRELOAD=$SHIM OUTSHIM_EIO_FILE=far.img OUTSHIM_FSYNC_EIO=$2 OUTSHIM_LOG=$SCRATCH/eio.log"
	: > eio.log
	jrecover far.img
	JR_ENV=
	sed 's/^/    shim: /' eio.log
	grep -q "^flush $2: EIO" eio.log || fail "$_case: flush $2 did not fail (the test is wrong)"
	[ "$RUN_RC" -eq 12 ] || fail "$_case: exited $RUN_RC, not 12"
	if dumpe2fs -h far.img 2> /dev/null | grep -q '^Filesystem features:.*needs_recovery'; then
		disk=set
	else
		disk=clear
	fi
	say "    dumpe2fs -h far.img: needs_recovery $disk"
	[ "$disk" = "$3" ] || fail "$_case: needs_recovery is $disk on the disk, not $3 (the test is wrong)"
	grep -q "needs_recovery .*$disk" "$SCRATCH/.run.out" ||
		fail "$_case: jrecover does not say needs_recovery is $disk"
	[ "$disk" = clear ] && grep -q "needs_recovery is set" "$SCRATCH/.run.out" &&
		fail "$_case: jrecover says needs_recovery is set"
	case_end
}
eio_case "EIO on the flush after the superblock's update" "$after" clear
eio_case "EIO on the flush before the superblock's update" "$before" set

end_test
