#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# paths.sh --- the files given to -z and -s belong to the operator
# (jrecover(8), -z and -s):
#  - refused, exit 16, before anything is opened: a -z or -s path that is
#    the image (given as itself, through a symbolic link, through a hard
#    link), the dump or the journal device of -j, the other option's file,
#    a directory, a FIFO, a device node, a symbolic link to nothing; -s -
#    onto a terminal (a pty from script(1));
#  - after every refusal, and every run below that writes nothing, the
#    sha256 of every path given (image, dump, journal device, the -z or -s
#    file) is what it was before, and no file is left behind in the
#    directory (no temporary .NAME.XXXXXX);
#  - -z KEEP missing.img (an open error, 8) and -z KEEP on a filesystem
#    with nothing to replay (0) leave KEEP as it was; -n -z, -i -z, -l -z,
#    -s -z do not use -z (they say so) and leave it alone;
#  - -s into an existing file on a filesystem without a journal (8)
#    leaves the file as it was;
#  - -s - writes the journal to standard output, byte for byte the file
#    -s FILE writes, and nothing else: the report (with the size and the
#    sha256, which are those of the bytes) goes to standard error, and so
#    does --json's object;
#  - -s through a symbolic link (one of our own) to an older dump replaces
#    that file and leaves the link; the copy has mode 0600 (the files a run
#    may replace at all, and links planted by others: outputs.sh);
#  - recover_save() itself (through tests/crash/crashrun -S) refuses the
#    image, links to it, a directory, a FIFO, the dump and the journal
#    device (RECOVER_ET_SAVE_PATH) and touches nothing.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq

set_format 4k-64-v3
img=img.img
mkimg_fmt "$img"
std_workload "$img"
debugfs -R "dump <8> dump.journal" "$img" 2>/dev/null
[ -s dump.journal ] || die "debugfs did not dump the journal"
std_external ext.img ext.jdev
mkimg_fmt clean.img
# shellcheck disable=SC2086
mkimg nojournal.img 16M $FMT_MKFS -O ^has_journal
# KEEP is an undo file (e2undo's header at its start), so that -z may
# replace it; old.journal and target.journal are dumps, for -s.
printf 'E2UNDO02 keep me\n' > keep.txt
debugfs -R "dump <8> clean.journal" clean.img 2>/dev/null
[ -s clean.journal ] || die "debugfs did not dump the clean journal"
ln -s img.img link.img
ln img.img hard.img
ln -s no-such-file dangling
mkdir dir
mkfifo fifo || die "mkfifo failed"
# A device node of our own (the same device as /dev/null): an old jrecover
# that this test catches would unlink or replace it, and that must not be
# the system's /dev/null.
chardev=
if mknod chardev c 1 3 2> /dev/null; then
	chardev=chardev
else
	say "(mknod not permitted: no device node case)"
fi

# The state of everything here: name, type and, for regular files, the
# sha256 (a FIFO or a directory is never opened: that would block or
# fail).
state() {
	for _f in * .[!.]*; do
		[ -e "$_f" ] || [ -L "$_f" ] || continue
		case $_f in
		*.out|*.err|.jw.*|before|after|state.diff) continue ;;
		esac
		if [ -L "$_f" ]; then
			say "$_f -> $(readlink "$_f")"
		elif [ -f "$_f" ]; then
			say "$_f $(sha256_of "$_f") $(stat -c %a "$_f")"
		else
			say "$_f $(stat -c %F "$_f")"
		fi
	done
}

# unchanged WHAT: nothing here changed since the last "state > before".
unchanged() {
	state > after
	if ! diff before after > state.diff; then
		sed 's/^/    /' state.diff
		fail "$1: files changed"
	fi
}

# refuse WHY ARGS...: jrecover ARGS exits 16, says WHY, touches nothing.
refuse() {
	_why=$1
	shift
	NCASES=$((NCASES + 1))
	state > before
	jr refuse.out refuse.err "$@"
	[ "$RUN_RC" -eq 16 ] || fail "jrecover $*: exited $RUN_RC, not 16"
	grep -q -- "$_why" refuse.err || fail "jrecover $*: does not say '$_why'"
	unchanged "jrecover $*"
}

itself="is the filesystem itself; nothing was written"
journal="is the journal given with -j; nothing was written"
notreg="exists and is not a regular file; nothing was written"

for o in -s -z; do
	refuse "$o img.img: $itself" $o img.img img.img
	refuse "$o link.img: $itself" $o link.img img.img
	refuse "$o hard.img: $itself" $o hard.img img.img
	refuse "$o img.img: $itself" $o img.img link.img
	refuse "$o dump.journal: $journal" $o dump.journal -j dump.journal img.img
	refuse "$o ext.jdev: $journal" $o ext.jdev -j ext.jdev ext.img
	refuse "$o ext.img: $itself" $o ext.img -j ext.jdev ext.img
	refuse "$o dir: $notreg" $o dir img.img
	refuse "$o fifo: $notreg" $o fifo img.img
	[ -n "$chardev" ] && refuse "$o chardev: $notreg" $o chardev img.img
	refuse "$o dangling: is a symbolic link to nothing" $o dangling img.img
done
refuse "is the file of both -z and -s" -z keep.txt -s keep.txt img.img
if command -v script > /dev/null 2>&1; then
	NCASES=$((NCASES + 1))
	state > before
	say "\$ script -q -e -c 'jrecover -s - img.img' /dev/null"
	script -q -e -c "$JRECOVER -s - img.img" /dev/null < /dev/null > tty.out 2>&1
	rc=$?
	sed 's/^/    /' tty.out
	[ "$rc" -eq 16 ] || fail "-s - onto a terminal exited $rc, not 16"
	grep -q "standard output is a terminal" tty.out ||
		fail "-s - onto a terminal does not say why"
	unchanged "-s - onto a terminal"
else
	say "(script(1) not found: -s - onto a terminal not checked)"
fi

# The library refuses the same paths itself (recover_save(), called by
# tests/crash/crashrun -S without jrecover's checks in front of it).
need_built "$CRASHRUN"
for args in "img.img img.img" "link.img img.img" "hard.img img.img" \
	"dir img.img" "fifo img.img" "dump.journal -j dump.journal img.img" \
	"ext.jdev -j ext.jdev ext.img"; do
	NCASES=$((NCASES + 1))
	state > before
	# shellcheck disable=SC2086
	run "$CRASHRUN" -S $args
	grep -q "Save path is not a regular file, or is the filesystem or its journal" \
		"$SCRATCH/.run.out" || fail "recover_save($args): not refused"
	unchanged "recover_save($args)"
done

# --- runs that write nothing ---------------------------------------------------
NCASES=$((NCASES + 1))
state > before
jr z.out z.err -z keep.txt missing.img
[ "$RUN_RC" -eq 8 ] || fail "-z keep.txt missing.img exited $RUN_RC, not 8"
unchanged "-z keep.txt missing.img"

NCASES=$((NCASES + 1))
state > before
jr z.out z.err -z keep.txt clean.img
[ "$RUN_RC" -eq 0 ] || fail "-z keep.txt clean.img exited $RUN_RC, not 0"
grep -q "nothing was written: undo file keep.txt left as it was" z.err ||
	fail "-z keep.txt clean.img does not say keep.txt was left alone"
unchanged "-z keep.txt clean.img"

for m in -n -i -l "-s new.journal"; do
	NCASES=$((NCASES + 1))
	state > before
	# shellcheck disable=SC2086
	jr z.out z.err $m -z keep.txt img.img
	case $m:$RUN_RC in
	-n:1|-i:0|-l:0|-s*:0) ;;
	*) fail "$m -z keep.txt exited $RUN_RC" ;;
	esac
	grep -q -- "-z keep.txt not used: ${m%% *} writes nothing" z.err ||
		fail "$m -z keep.txt does not say -z is not used"
	rm -f new.journal
	unchanged "$m -z keep.txt"
done

NCASES=$((NCASES + 1))
cp clean.journal old.journal
state > before
jr s.out s.err -s old.journal nojournal.img
[ "$RUN_RC" -eq 8 ] || fail "-s old.journal nojournal.img exited $RUN_RC, not 8"
unchanged "-s old.journal on a filesystem without a journal"
rm -f old.journal

# --- -s - -----------------------------------------------------------------------
for fmt in text json; do
	NCASES=$((NCASES + 1))
	j=
	[ "$fmt" = json ] && j=--json
	say "\$ jrecover $j -s - img.img > stdout.$fmt 2> stderr.$fmt"
	"$JRECOVER" $j -s - img.img > "stdout.$fmt" 2> "stderr.$fmt"
	rc=$?
	sed 's/^/    err: /' "stderr.$fmt"
	[ "$rc" -eq 0 ] || fail "-s - ($fmt) exited $rc, not 0"
	saved_is dump.journal "stdout.$fmt" ||
		fail "-s - ($fmt): standard output is not the journal and its record ($(wc -c < "stdout.$fmt") bytes)"
	want="$(wc -c < "stdout.$fmt") bytes, sha256 $(sha256_of "stdout.$fmt")"
	if [ "$fmt" = text ]; then
		grep -q "journal written to standard output: $want\$" "stderr.$fmt" ||
			fail "-s -: the report does not say '$want'"
	else
		jq_is "stderr.$fmt" '"\(.saved) \(.bytes) bytes, sha256 \(.sha256)"' \
			"- $want" "-s - --json"
	fi
done

# -s FILE says the same of the file.
NCASES=$((NCASES + 1))
jr s.out s.err -s saved.journal img.img
cmp -s saved.journal stdout.text || fail "-s saved.journal: not the journal and its record"
grep -q "journal saved to saved.journal: $want\$" s.out ||
	fail "-s FILE: the report does not say '$want'"
[ "$(stat -c %a saved.journal)" = 600 ] ||
	fail "-s FILE: the copy has mode $(stat -c %a saved.journal), not 600"

# Through a symbolic link: the file it names is replaced, the link stays.
NCASES=$((NCASES + 1))
cp clean.journal target.journal
ln -s target.journal via.journal
jr s.out s.err -s via.journal img.img
[ "$RUN_RC" -eq 0 ] || fail "-s via a link exited $RUN_RC"
[ -L via.journal ] || fail "-s via a link replaced the link"
cmp -s target.journal stdout.text || fail "-s via a link: the file it names is not the journal"

# No temporary file was left behind by any of the runs.
NCASES=$((NCASES + 1))
left=$(ls -A | grep '^\..*\.[A-Za-z0-9]\{6\}$')
[ -z "$left" ] || fail "temporary files left behind: $left"

end_test
