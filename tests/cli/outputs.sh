#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# outputs.sh --- what -s and -z may replace (jrecover(8), -s and -z; issue
# "never turn an admin's mistake into data loss", part 1).  Every case
# hashes every file here before and after.
#  - -z onto another filesystem's image, onto a journal dump, onto a text
#    file, and -s onto an image, an undo file, a text file: exit 16, a
#    message saying what the file holds and how to choose another name,
#    nothing touched (e2fsck -z refuses such a file too);
#  - -s onto an empty file and onto an earlier dump, -z onto an empty file
#    and onto an earlier undo file: replaced (exit 0 / 1);
#  - -s - with standard output opened on the image (1<>img) or on the
#    dump given with -j (>>, 1<>), appending to
#    it (>>img), or appending to another image: exit 16, nothing touched;
#    -s - >> an earlier dump is allowed;
#  - as root, with a second user (nobody, through setpriv or runuser): a
#    link that user planted in a sticky, world-writable directory, naming
#    a root-owned 0600 file, is not followed by -s or -z (exit 16, the file
#    and the link as they were); a link of root's own there is followed;
#    recover_save() itself refuses it (tests/crash/crashrun -S).
# Loop devices and mounts: tests/integration/outloop.sh.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_built "$top_builddir/tests/crash/crashrun"
CRASHRUN=$top_builddir/tests/crash/crashrun

set_format 4k-64-v3
mkimg_fmt img.img
std_workload img.img
mkimg_fmt victim.img
mkimg other.img 16M -b 1024
debugfs -R "dump <8> old.dump" victim.img 2>/dev/null
[ -s old.dump ] || die "debugfs did not dump the journal"
printf 'E2UNDO02 an older undo file\n' > old.undo
printf 'notes of the admin\n' > notes.txt

# Every file here (links as links), with its sha256 and mode.
hashes() {
	find . -mindepth 1 \( -name '*.out' -o -name '*.err' -o -name 'h.*' \
		-o -name '.jw.*' -o -name '.run.out' \) -prune -o -print |
	LC_ALL=C sort | while read -r _f; do
		if [ -L "$_f" ]; then
			echo "$_f -> $(readlink "$_f")"
		elif [ -f "$_f" ]; then
			echo "$_f $(sha256_of "$_f") $(stat -c '%a %U' "$_f")"
		else
			echo "$_f $(stat -c '%F %a' "$_f")"
		fi
	done
}

# refused WHY CMD...: CMD (a jrecover run, as a shell command) exits 16,
# says WHY, and every file here is as it was.
refused() {
	_why=$1
	shift
	NCASES=$((NCASES + 1))
	hashes > h.before
	say "\$ $*"
	sh -c "$*" > o.out 2> o.err
	_rc=$?
	sed 's/^/    err: /' o.err
	say "    [exit $_rc]"
	[ "$_rc" -eq 16 ] || fail "$*: exited $_rc, not 16"
	grep -q -- "$_why" o.err || fail "$*: does not say '$_why'"
	grep -q -- "nothing was written: .*new file" o.err ||
		fail "$*: does not say how to choose another name"
	hashes > h.after
	diff h.before h.after > h.diff ||
		{ sed 's/^/    /' h.diff; fail "$*: files changed"; }
}

J=$JRECOVER
fs="holds an ext2/3/4 filesystem"
refused "-z victim.img: $fs" "$J -z victim.img img.img"
refused "-z other.img: $fs" "$J -z other.img img.img"
refused "-s victim.img: $fs" "$J -s victim.img img.img"
refused "-s other.img: $fs" "$J -s other.img img.img"
refused "-z old.dump: is a journal dump, not an e2undo file" "$J -z old.dump img.img"
refused "-z notes.txt: is neither empty nor an e2undo file" "$J -z notes.txt img.img"
refused "-s old.undo: is an e2undo file, not a journal dump" "$J -s old.undo img.img"
refused "-s notes.txt: is neither empty nor a journal dump" "$J -s notes.txt img.img"
# -s - onto the image itself, or another filesystem's.
refused "-s - (standard output): is the filesystem itself" "$J -s - img.img 1<>img.img"
refused "-s - (standard output): is the filesystem itself" "$J -s - img.img >>img.img"
refused "-s - (standard output): $fs" "$J -s - img.img >>victim.img"
refused "-s - (standard output): $fs" "$J -s - img.img 1<>other.img"
# -s - onto the journal given with -j (a dump), appended to or rewritten.
refused "-s - (standard output): is the journal given with -j" \
	"$J -s - -j old.dump img.img >>old.dump"
refused "-s - (standard output): is the journal given with -j" \
	"$J -s - -j old.dump img.img 1<>old.dump"

# What may be replaced: an empty file, an earlier dump, an undo file.
NCASES=$((NCASES + 1))
debugfs -R "dump <8> want.dump" img.img 2>/dev/null
: > empty.dump
jrecover -s empty.dump img.img
[ "$RUN_RC" -eq 0 ] || fail "-s onto an empty file exited $RUN_RC"
saved_is want.dump empty.dump || fail "-s onto an empty file: not the journal"
cp old.dump again.dump
jrecover -s again.dump img.img
[ "$RUN_RC" -eq 0 ] || fail "-s onto an earlier dump exited $RUN_RC"
saved_is want.dump again.dump || fail "-s onto an earlier dump: not the journal"
cp old.dump append.dump
say "\$ jrecover -s - img.img >> append.dump"
"$J" -s - img.img >> append.dump 2> o.err ||
	fail "-s - >> an earlier dump exited $?"
cmp -s -n "$(wc -c < old.dump)" old.dump append.dump &&
	tail -c +"$(($(wc -c < old.dump) + 1))" append.dump > append.tail &&
	saved_is want.dump append.tail ||
	fail "-s - >> an earlier dump: not the two journals one after the other"
rm -f empty.dump again.dump append.dump append.tail want.dump

NCASES=$((NCASES + 1))
copy_img img.img z1.img
copy_img img.img z2.img
sum=$(sha256_of img.img)
: > empty.undo
jrecover -z empty.undo z1.img
[ "$RUN_RC" -eq 1 ] || fail "-z onto an empty file exited $RUN_RC, not 1"
cp old.undo again.undo
jrecover -z again.undo z2.img
[ "$RUN_RC" -eq 1 ] || fail "-z onto an earlier undo file exited $RUN_RC, not 1"
run e2undo empty.undo z1.img
[ "$(sha256_of z1.img)" = "$sum" ] ||
	fail "-z onto an empty file: e2undo did not give the image back"
run e2undo again.undo z2.img
[ "$(sha256_of z2.img)" = "$sum" ] ||
	fail "-z onto an earlier undo file: e2undo did not give the image back"
rm -f z1.img z2.img empty.undo again.undo

# --- a link planted by another user ---------------------------------------------
as_other=
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
	if command -v setpriv > /dev/null 2>&1; then
		as_other="setpriv --reuid=nobody --regid=nogroup --clear-groups"
		setpriv --reuid=nobody --regid=nogroup --clear-groups true 2> /dev/null ||
			as_other="setpriv --reuid=65534 --regid=65534 --clear-groups"
	elif command -v runuser > /dev/null 2>&1; then
		as_other="runuser -u nobody --"
	fi
	$as_other true 2> /dev/null || as_other=
fi
if [ -z "$as_other" ]; then
	say "(not root, or no second user: the planted-link cases are skipped)"
else
	chmod 755 "$SCRATCH"
	mkdir -m 1777 shared
	cp old.dump secret
	chmod 600 secret
	say "\$ $as_other ln -s $SCRATCH/secret shared/out"
	$as_other ln -s "$SCRATCH/secret" shared/out ||
		die "the second user could not make a link"
	say "$(ls -l shared)"
	link="is a symbolic link in a sticky, world-writable directory"
	refused "-s shared/out: $link" "$J -s shared/out img.img"
	refused "-z shared/out: $link" "$J -z shared/out img.img"
	# The library itself, for other callers of recover_save().
	NCASES=$((NCASES + 1))
	hashes > h.before
	run "$CRASHRUN" -S shared/out img.img
	grep -q "symbolic link in a sticky world-writable directory" \
		"$SCRATCH/.run.out" || fail "recover_save(shared/out): not refused"
	hashes > h.after
	diff h.before h.after > h.diff ||
		{ sed 's/^/    /' h.diff; fail "recover_save(shared/out): files changed"; }
	# A link of our own there is ours to follow.
	NCASES=$((NCASES + 1))
	ln -s "$SCRATCH/secret" shared/mine
	jrecover -s shared/mine img.img
	[ "$RUN_RC" -eq 0 ] || fail "-s through our own link exited $RUN_RC"
	[ -L shared/mine ] || fail "-s through our own link replaced the link"
	debugfs -R "dump <8> want.dump" img.img 2>/dev/null
	saved_is want.dump secret || fail "-s through our own link: not the journal"
	[ "$(stat -c '%a %U' secret)" = "600 root" ] ||
		fail "-s through our own link: secret is now $(stat -c '%a %U' secret)"
fi

end_test
