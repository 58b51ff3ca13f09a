#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# undo.sh --- jrecover -z FILE saves an e2undo file before writing
# (jrecover(8), -z): after the replay, e2undo FILE IMAGE gives back the
# image exactly as it was (sha256 before == after e2undo), on 1 KiB and
# 4 KiB filesystems, with and without metadata_csum.  Also:
#  - the replay through the undo io manager is still e2fsck's, byte for
#    byte (imgcmp -s against e2fsck -y -E journal_only);
#  - an existing undo file of that name (e2undo's header at its start) is
#    replaced (anything else is refused: outputs.sh);
#  - with an external journal device (-j DEVICE) -z is refused, exit 16,
#    before anything is opened: the replay resets the device's journal
#    superblock and an undo file covers the filesystem only, so e2undo
#    would give back the filesystem beside a journal whose log is gone.
#    Both the image and the device are left byte for byte as they were
#    and no undo file is made; -n -z -j DEVICE still runs (writes nothing);
#  - -n -z writes nothing to the image and no undo file;
#  - the replay says it replaces the old file, and leaves no temporary
#    file behind; a second -z run, with nothing left to do, leaves the
#    first run's undo file byte for byte as it was, and e2undo with it
#    still restores the original image;
#  - on a filesystem with dirdata (every Lustre MDT), which libext2fs
#    refuses at a first open: -s, then -z, then e2undo gives back the
#    image byte for byte;
#  - a replay that fails after writing (a file size limit makes a later
#    write fail) exits 12 (an error part way: run again once the cause is
#    fixed), keeps its undo file, and e2undo with it restores the image.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
command -v e2undo >/dev/null 2>&1 || skip "e2undo not found (e2fsprogs)"

# undo_case NAME IMG [JDEV]
undo_case() {
	u_img=$2
	u_jdev=${3:-}
	case_begin "$1"
	copy_img "$u_img" "$_case.e2fsck.img"
	[ -n "$u_jdev" ] && copy_img "$u_jdev" "$_case.e2fsck.jdev"
	run e2fsck -y -E journal_only ${u_jdev:+-j "$_case.e2fsck.jdev"} "$_case.e2fsck.img"

	u_sum=$(sha256_of "$u_img")
	u_jsum=
	[ -n "$u_jdev" ] && u_jsum=$(sha256_of "$u_jdev")

	# -n -z: a dry run writes nothing, not even the undo file, and says
	# -z is not used; it exits as the replay will.
	jrecover -n -z "$_case.dry.undo" ${u_jdev:+-j "$u_jdev"} "$u_img"
	[ "$RUN_RC" -eq "$(std_expect)" ] || fail "$_case: -n -z exited $RUN_RC, not $(std_expect)"
	[ "$(sha256_of "$u_img")" = "$u_sum" ] || fail "$_case: -n -z changed the image"
	[ -e "$_case.dry.undo" ] && fail "$_case: -n -z wrote an undo file"
	grep -q -- "-z $_case.dry.undo not used: -n writes nothing" "$SCRATCH/.run.out" ||
		fail "$_case: -n -z does not say -z is not used"

	# An old undo file of the same name (e2undo's header) is replaced.
	mkdata "$_case.old" 4096 4 -s 21
	{ printf 'E2UNDO02'; cat "$_case.old"; } > "$_case.undo"
	jrecover -z "$_case.undo" ${u_jdev:+-j "$u_jdev"} "$u_img"
	[ "$RUN_RC" -eq "$(std_expect)" ] ||
		fail "$_case: jrecover -z exited $RUN_RC, not $(std_expect)"
	[ -s "$_case.undo" ] || fail "$_case: jrecover -z left no undo file"
	grep -q "replacing undo file $_case.undo" "$SCRATCH/.run.out" ||
		fail "$_case: jrecover -z did not say it replaced $_case.undo"
	ls -a | grep -q "^\.$_case\.undo\." && fail "$_case: a temporary undo file was left behind"
	[ "$(sha256_of "$u_img")" != "$u_sum" ] || fail "$_case: jrecover -z changed nothing"
	if [ -n "$u_jdev" ]; then
		"$IMGCMP" -s "$_case.e2fsck.img" "$u_img" > cmp.out &&
		"$IMGCMP" "$_case.e2fsck.jdev" "$u_jdev" >> cmp.out
	else
		"$IMGCMP" -s -J "$(jsb_offset "$u_img")" "$_case.e2fsck.img" "$u_img" > cmp.out
	fi || { sed 's/^/    /' cmp.out; fail "$_case: the replay with -z differs from e2fsck's"; }

	# A second run finds nothing to do: the undo file of the first is
	# left exactly as it was, and still undoes the replay.
	u_usum=$(sha256_of "$_case.undo")
	jrecover -z "$_case.undo" ${u_jdev:+-j "$u_jdev"} "$u_img"
	[ "$RUN_RC" -eq 0 ] || fail "$_case: the second jrecover -z exited $RUN_RC, not 0"
	[ "$(sha256_of "$_case.undo")" = "$u_usum" ] ||
		fail "$_case: a second run with nothing to do changed the undo file"
	grep -q "undo file $_case.undo left as it was" "$SCRATCH/.run.out" ||
		fail "$_case: the second run did not say the undo file was left alone"

	run e2undo "$_case.undo" "$u_img"
	[ "$RUN_RC" -eq 0 ] || fail "$_case: e2undo exited $RUN_RC"
	if [ "$(sha256_of "$u_img")" != "$u_sum" ]; then
		fail "$_case: after e2undo the image is not what it was"
		copy_img "$u_img" "$_case.undone.img"
	fi
	if [ -n "$u_jdev" ]; then
		[ "$(sha256_of "$u_jdev")" != "$u_jsum" ] ||
			fail "$_case: the journal device was restored too, or never written"
		cmp -s "$u_jdev" "$_case.e2fsck.jdev" ||
			fail "$_case: e2undo of the filesystem changed the journal device"
	fi
	case_end
}

for fmt in 1k-32-none 1k-64-v3 4k-32-none 4k-64-v3; do
	set_format "$fmt"
	img=$fmt.img
	mkimg_fmt "$img"
	std_workload "$img"
	undo_case "$fmt" "$img"
done

# undo_refused NAME IMG JDEV: -z with an external journal device.
undo_refused() {
	case_begin "$1"
	u_state=$(state_of "$2" "$3")
	jrecover -z "$_case.undo" -j "$3" "$2"
	[ "$RUN_RC" -eq 16 ] || fail "$_case: -z -j DEVICE exited $RUN_RC, not 16"
	[ "$(state_of "$2" "$3")" = "$u_state" ] ||
		fail "$_case: -z -j DEVICE changed the image or the journal device"
	[ -e "$_case.undo" ] && fail "$_case: -z -j DEVICE made an undo file"
	ls -A | grep -q "^\.$_case\.undo\." && fail "$_case: a temporary undo file was left behind"
	grep -q "is an external journal device, which the replay resets and an undo file does not cover" \
		"$SCRATCH/.run.out" || fail "$_case: the refusal does not say why"
	grep -q "Nothing was written" "$SCRATCH/.run.out" ||
		fail "$_case: the refusal does not say nothing was written"
	# A dry run writes nothing: -z is only noted as unused.
	jrecover -n -z "$_case.undo" -j "$3" "$2"
	[ "$RUN_RC" -eq "$(std_expect)" ] || fail "$_case: -n -z -j exited $RUN_RC, not $(std_expect)"
	[ "$(state_of "$2" "$3")" = "$u_state" ] || fail "$_case: -n -z -j changed something"
	# Without -z the replay is e2fsck's.
	copy_img "$2" "$_case.e2fsck.img"
	copy_img "$3" "$_case.e2fsck.jdev"
	run e2fsck -y -E journal_only -j "$_case.e2fsck.jdev" "$_case.e2fsck.img"
	jrecover -j "$3" "$2"
	[ "$RUN_RC" -eq "$(std_expect)" ] || fail "$_case: the replay exited $RUN_RC"
	{ "$IMGCMP" -s "$_case.e2fsck.img" "$2" > cmp.out &&
	  "$IMGCMP" "$_case.e2fsck.jdev" "$3" >> cmp.out; } ||
		{ sed 's/^/    /' cmp.out; fail "$_case: the replay differs from e2fsck's"; }
	case_end
}

for fmt in 1k-32-none 4k-64-v3; do
	set_format "$fmt"
	img=ext-$fmt.img
	jdev=ext-$fmt.jdev
	std_external "$img" "$jdev"
	undo_refused "ext-$fmt" "$img" "$jdev"
done

# --- dirdata: the README's safe order on a Lustre MDT ------------------------
# libext2fs refuses dirdata at the first open and the library opens the
# filesystem again without that check (lib/lifecycle.c): the undo file
# the first open's channel left (a header only, which the undo manager
# calls corrupt at the second open) is emptied first (src/undo.c).  Save,
# -z, replay: e2undo then gives back the image byte for byte.  (Before:
# "Undo file corrupt while opening IMG", exit 8, no undo file.)
case_begin "dirdata"
set_format 4k-64-v3
mkimg_fmt dirdata.img
std_workload dirdata.img
run debugfs -w -R "feature dirdata" dirdata.img
grep -q '^ *Filesystem features:.* dirdata ' "$SCRATCH/.run.out" ||
	die "debugfs did not set dirdata"
d_sum=$(sha256_of dirdata.img)
jrecover -s dirdata.save dirdata.img
[ "$RUN_RC" -eq 0 ] || fail "$_case: -s exited $RUN_RC, not 0"
jrecover -z dirdata.undo dirdata.img
[ "$RUN_RC" -eq "$(std_expect)" ] || fail "$_case: -z exited $RUN_RC, not $(std_expect)"
[ "$(sha256_of dirdata.img)" != "$d_sum" ] || fail "$_case: -z replayed nothing"
ls -A | grep -q '^\.dirdata\.undo\.' && fail "$_case: a new undo file was left behind"
if [ ! -s dirdata.undo ]; then
	fail "$_case: -z made no undo file"
else
	grep -q "e2undo dirdata.undo dirdata.img undoes what this run wrote" \
		"$SCRATCH/.run.out" || fail "$_case: -z does not name its undo file"
	run e2undo dirdata.undo dirdata.img
	[ "$RUN_RC" -eq 0 ] || fail "$_case: e2undo exited $RUN_RC"
	[ "$(sha256_of dirdata.img)" = "$d_sum" ] ||
		fail "$_case: after e2undo the image is not what it was"
fi
case_end

# --- a replay that fails after writing keeps its undo file --------------------
# The file size limit (prlimit --fsize, SIGXFSZ ignored) lets the replay
# write T1's blocks, 16 MiB into the image, and fails the write of T2's,
# 48 MiB in: jrecover exits 12 with the filesystem half written, and the
# undo file it keeps (the only way back) makes e2undo give back the image
# as it was.  (T2's 64 blocks go out in one direct write: four blocks or
# fewer would sit in libext2fs's write cache, fail only when it is
# flushed, and keep failing at close, so that the undo manager could not
# mark its file complete; e2undo then restores the blocks but marks the
# filesystem not clean.)
if command -v prlimit > /dev/null 2>&1; then
	NCASES=$((NCASES + 1))
	say ""
	say "=== case a write error half way"
	. "$top_srcdir/tests/cli/clilib.sh"
	set_format 4k-64-v3
	img=fail.img
	# shellcheck disable=SC2086
	mkimg "$img" 64M $FMT_MKFS
	jw "$img" <<EOF
features revoke 64bit csum3
txn
log 4096-4103
commit
txn
log 12288-12351
commit
EOF
	sum=$(sha256_of "$img")
	say "\$ prlimit --fsize=33554432 jrecover -z fail.undo $img (SIGXFSZ ignored)"
	(trap '' XFSZ; exec prlimit --fsize=33554432 "$JRECOVER" -z fail.undo "$img") \
		> fail.out 2>&1
	rc=$?
	sed 's/^/    /' fail.out
	say "    [exit $rc]"
	[ "$rc" -eq 12 ] || fail "write error: jrecover exited $rc, not 12"
	grep -q "the replay stopped part way" fail.out ||
		fail "write error: jrecover does not say it stopped part way"
	grep -q "nothing was written" fail.out &&
		fail "write error: jrecover says nothing was written"
	[ "$(sha256_of "$img")" != "$sum" ] ||
		fail "write error: nothing was written before it (the test is wrong)"
	if [ ! -s fail.undo ]; then
		fail "write error: the blocks written have no undo file"
	else
		grep -q "e2undo fail.undo $img undoes what this run wrote" fail.out ||
			fail "write error: jrecover does not say the undo file was kept"
		run e2undo fail.undo "$img"
		[ "$RUN_RC" -eq 0 ] || fail "write error: e2undo exited $RUN_RC"
		[ "$(sha256_of "$img")" = "$sum" ] ||
			fail "write error: after e2undo the image is not what it was"
	fi
	left=$(ls -A | grep '^\.fail\.undo\.')
	[ -z "$left" ] || fail "write error: a new undo file was left behind: $left"
else
	say "(prlimit not found: the write error case is not run)"
fi

end_test
