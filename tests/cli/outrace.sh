#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# outrace.sh --- an output is written through the descriptor this run made,
# never opened again by name (doc/design.md, "Outputs"; jrecover(8),
# THREAT MODEL; issue 29, cases 1 and 2).  The owner of the directory -s
# or -z writes into may replace jrecover's new file there at any moment,
# for instance by a symbolic link to a block device.  tests/cli/outshim.so
# (LD_PRELOAD) does it at the worst moment, every time: the new file is
# swapped for a link to dev.stand-in or dev.empty (scratch files standing
# in for the device) the instant it has been created.  Every path here is hashed
# before and after.
#  - -z: the run replays (exit 1); dev.empty is still empty; the undo file is made under its given name, a regular file of
#    this run (not the link), and e2undo with it gives the image back;
#    jrecover says that its new file was replaced and that it wrote the
#    undo data to another one; the link is left to its owner.
#  - -s: refused after the copy (exit 8), saying the new file was
#    replaced; dev.stand-in, the image and the earlier dump at the -s path
#    are byte for byte as they were.
#  - -z without /proc (root, unshare -m): refused, exit 8, every file as
#    it was.
# Before the fix (the new file closed and opened again by its name) -z
# wrote its undo file into dev.empty and renamed the link to the -z name,
# and -s wrote the journal over dev.stand-in and renamed the link to the
# -s name, saying "journal saved".

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
command -v e2undo > /dev/null 2>&1 || skip "e2undo not found (e2fsprogs)"
SHIM=$top_builddir/tests/cli/.libs/outshim.so
need_built "$SHIM"

set_format 4k-64-v3
mkimg_fmt img.img
std_workload img.img
mkimg_fmt other.img
# The device another user points the link at: a file of its own here.
# fstat() gives a block device the size 0, so that libext2fs's undo
# manager takes it for a new, empty undo file: -z's stand-in is empty.
mkdata dev.stand-in 4096 64 -s 29
: > dev.empty
debugfs -R "dump <8> old.dump" other.img 2>/dev/null
[ -s old.dump ] || die "debugfs did not dump the journal"
cp old.dump out.dump

# Every file here (links as links), with its sha256.
hashes() {
	find . -mindepth 1 \( -name '*.out' -o -name 'h.*' -o -name '.jw.*' \
		-o -name '.run.out' -o -name '.mkfs.out' -o -name 'shim.log' \) \
		-prune -o -print | LC_ALL=C sort | while read -r _f; do
		if [ -L "$_f" ]; then
			echo "$_f -> $(readlink "$_f")"
		elif [ -f "$_f" ]; then
			echo "$_f $(sha256_of "$_f")"
		else
			echo "$_f $(stat -c '%F' "$_f")"
		fi
	done
}

# hashes_except NAME...: the lines of h.before and h.after that are not
# about NAME..., as h.b and h.a.
hashes_except() {
	_pat=$(printf '%s\n' "$@" | sed 's|[.]|[.]|g; s|^|^[.]/|; s|$|[ ]|' |
	       paste -sd'|' -)
	grep -Ev "$_pat" h.before > h.b
	grep -Ev "$_pat" h.after > h.a
}

# shim_env PREFIX TARGET: the first new file named PREFIX... becomes a
# link to TARGET as soon as it exists.
shim_env() {
	JR_ENV="LD_PRELOAD=$SHIM OUTSHIM_SWAP=$1 OUTSHIM_TARGET=$SCRATCH/$2 OUTSHIM_LOG=$SCRATCH/shim.log"
}

# --- -z ------------------------------------------------------------------------
case_begin "-z, its new file swapped for a link"
sum=$(sha256_of img.img)
hashes > h.before
: > shim.log
shim_env .out.undo. dev.empty
jrecover -z out.undo img.img
JR_ENV=
hashes > h.after
sed 's/^/    shim: /' shim.log
grep -q "swapped .*out.undo" shim.log || fail "-z: the shim swapped nothing (the test is wrong)"
[ "$RUN_RC" -eq 1 ] || fail "-z: exited $RUN_RC, not 1"
[ -s dev.empty ] && fail "-z: dev.empty, the link's target, was written"
link=$(find . -maxdepth 1 -name '.out.undo.*' -type l)
[ -n "$link" ] && [ "$(readlink "$link")" = "$SCRATCH/dev.empty" ] ||
	fail "-z: the other user's link is not left as it was"
hashes_except img.img out.undo "${link#./}"
diff h.b h.a > h.diff || { sed 's/^/    /' h.diff; fail "-z: other files changed"; }
if [ -L out.undo ] || [ ! -f out.undo ]; then
	fail "-z: out.undo is not a regular file of this run"
else
	grep -q "was replaced" "$SCRATCH/.run.out" ||
		fail "-z: jrecover does not say its new undo file was replaced"
	grep -q "e2undo out.undo img.img undoes what this run wrote" "$SCRATCH/.run.out" ||
		fail "-z: jrecover does not name the undo file"
	run e2undo out.undo img.img
	[ "$RUN_RC" -eq 0 ] || fail "-z: e2undo exited $RUN_RC"
	[ "$(sha256_of img.img)" = "$sum" ] ||
		fail "-z: after e2undo the image is not what it was"
fi
find . -maxdepth 1 -name '.out.undo.*' ! -type l | grep -q . &&
	fail "-z: a new undo file of this run was left behind"
case_end

# --- -s ------------------------------------------------------------------------
case_begin "-s, its new file swapped for a link"
hashes > h.before
: > shim.log
shim_env .out.dump. dev.stand-in
jrecover -s out.dump img.img
JR_ENV=
hashes > h.after
sed 's/^/    shim: /' shim.log
grep -q "swapped .*out.dump" shim.log || fail "-s: the shim swapped nothing (the test is wrong)"
[ "$RUN_RC" -eq 8 ] || fail "-s: exited $RUN_RC, not 8"
grep -q "was replaced" "$SCRATCH/.run.out" ||
	fail "-s: jrecover does not say its new file was replaced"
link=$(find . -maxdepth 1 -name '.out.dump.*' -type l)
[ -n "$link" ] || fail "-s: the other user's link is gone"
hashes_except "${link#./}"
diff h.b h.a > h.diff ||
	{ sed 's/^/    /' h.diff; fail "-s: files changed (dev.stand-in, out.dump or the image)"; }
find . -maxdepth 1 -name '.out.dump.*' ! -type l | grep -q . &&
	fail "-s: a new file of this run was left behind"
case_end

# --- no /proc -------------------------------------------------------------------
# Without /proc no name can mean the new file alone: -z is refused before
# anything is written, its new file removed.  (-s, and the replay itself,
# stop earlier there: libext2fs's mount check needs /proc/mounts.)
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null 2>&1 &&
   unshare -m --propagation private true 2> /dev/null; then
	case_begin "-z without /proc"
	hashes > h.before
	say "\$ unshare -m sh -c 'umount -l /proc; jrecover -z noproc.undo img.img'"
	unshare -m --propagation private sh -c \
		'umount -l /proc && exec "$0" -z noproc.undo img.img' "$JRECOVER" \
		> noproc.out 2>&1
	rc=$?
	sed 's/^/    /' noproc.out
	say "    [exit $rc]"
	hashes > h.after
	# The sanitizer build: without /proc the runtime cannot even read
	# ASAN_OPTIONS (it reads /proc/self/environ), and LeakSanitizer's check
	# at exit fails and sets the status; the message and the files are
	# still checked.
	if grep -q "LeakSanitizer has encountered a fatal error" noproc.out; then
		say "    (sanitizer build: LeakSanitizer needs /proc; exit status not checked)"
	else
		[ "$rc" -eq 8 ] || fail "$_case: exited $rc, not 8"
	fi
	grep -q "cannot be named by its descriptor.*nothing was written" noproc.out ||
		fail "$_case: jrecover does not say why"
	diff h.before h.after > h.diff ||
		{ sed 's/^/    /' h.diff; fail "$_case: files changed"; }
	case_end
else
	say "(not root, or no unshare: the case without /proc is skipped)"
fi

end_test
