#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# stale.sh --- a saved journal replayed onto a filesystem that has moved on
# since (jrecover(8), -j, -s, --replay-stale-dump).  Every case hashes the
# image and the dump before and after.
#
#  - jrecover -s writes the journal byte for byte and one block more, its
#    record of the filesystem; debugfs logdump -f reads the dump exactly
#    as it reads debugfs's own dump of the journal, and a replay of the
#    dump onto the filesystem as it was is e2fsck's replay of the journal;
#  - with that record, a dump is refused (-n and the replay exit 8,
#    nothing written) once the filesystem was written (debugfs -w), had
#    its journal replayed (jrecover), or its journal dropped and made anew
#    (tune2fs): each refusal says what changed, what replaying would do
#    and how to go on; --replay-stale-dump then replays it (exit 1);
#  - without it (debugfs's dump of the journal): the times.  A jwrite
#    journal (commit times from 1700000000 on) replays while the
#    filesystem's write time is not later, with a note that only the
#    times were checked, and is refused once debugfs -w wrote the
#    filesystem; a journal whose sequence is past the filesystem's new
#    journal's is refused (made anew); debugfs's commit times, stored
#    shifted by 32 bits, are read as such and said so;
#  - as root, the case of the report: save, drop the journal, mount,
#    delete a directory, create 300 files, unmount, replay the dump:
#    refused, and the 300 files are still there.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "stale dumps: nothing to check without jrecover"
need_built "$JWRITE" "$IMGCMP"

# refused WHAT IMG DUMP WORDS...: -n and the replay of DUMP exit 8, write
# nothing to IMG or DUMP, and say each of WORDS.
refused() {
	_what=$1
	_img=$2
	_dump=$3
	shift 3
	_st=$(state_of "$_img" "$_dump")
	jrecover -n -j "$_dump" "$_img"
	[ "$RUN_RC" -eq 8 ] || fail "$_what: -n exited $RUN_RC, not 8"
	jrecover -j "$_dump" "$_img"
	[ "$RUN_RC" -eq 8 ] || fail "$_what: the replay exited $RUN_RC, not 8"
	[ "$(state_of "$_img" "$_dump")" = "$_st" ] ||
		fail "$_what: the refusal wrote to the image or the dump"
	for _w in "Saved journal is older than the filesystem" \
		  "nothing was written" \
		  "would put the log's old blocks back over everything done" \
		  "copy $_img first" "--replay-stale-dump -j $_dump $_img" "$@"; do
		grep -q -e "$_w" "$SCRATCH/.run.out" ||
			fail "$_what: the refusal does not say \"$_w\""
	done
	grep -q -- " -f " "$SCRATCH/.run.out" &&
		fail "$_what: the refusal offers -f"
}

set_format 1k-64-v3
mkimg base.img 16M $FMT_MKFS
# shellcheck disable=SC2046
set -- $(free_blocks base.img 8 4000)
"$JWRITE" base.img > /dev/null <<EOF || die "jwrite failed"
features revoke 64bit csum3
txn
log $1 $2 $3
commit
txn
log $4 $5
revoke $1
commit
EOF
show_journal base.img
JSB=$(jsb_offset base.img)

# ==== the dump and its record =========================================================
case_begin save "jrecover -s: the journal and its record"
jrecover -s rec.dump base.img
[ "$RUN_RC" -eq 0 ] || fail "save: -s exited $RUN_RC"
debugfs -R "dump <8> plain.dump" base.img 2>/dev/null
saved_is plain.dump rec.dump || fail "save: not the journal and one record block"
debugfs -R "logdump -f rec.dump" base.img 2>/dev/null | sed 's/rec\.dump/DUMP/' > ld.rec
debugfs -R "logdump -f plain.dump" base.img 2>/dev/null | sed 's/plain\.dump/DUMP/' > ld.plain
sed 's/^/    /' ld.rec
grep -q "commit block" ld.rec || fail "save: debugfs logdump -f finds no commit in the dump"
cmp -s ld.rec ld.plain || fail "save: debugfs reads the dump otherwise than the plain journal"
case_end

oracle_copy() {
	copy_img base.img "$1.e2fsck.img"
	run e2fsck -y -E journal_only "$1.e2fsck.img"
}

case_begin current "the dump onto the filesystem it was saved from, unchanged"
copy_img base.img current.img
dsum=$(sha256_of rec.dump)
jrecover -n -j rec.dump current.img
[ "$RUN_RC" -eq 1 ] || fail "current: -n exited $RUN_RC, not 1"
jrecover -j rec.dump current.img
[ "$RUN_RC" -eq 1 ] || fail "current: the replay exited $RUN_RC, not 1"
grep -q "carries no record\|older than" "$SCRATCH/.run.out" &&
	fail "current: a dump with its record is treated as stale or plain"
oracle_copy current
imgcmp_case "current: the dump's replay differs from e2fsck's of the journal" \
	current.e2fsck.img current.img -s -J "$JSB"
[ "$(sha256_of rec.dump)" = "$dsum" ] || fail "current: the dump changed"
case_end

case_begin written "the filesystem written since the save (debugfs -w)"
copy_img base.img written.img
debugfs -w -R "mkdir since" written.img 2>/dev/null
refused written written.img rec.dump "written since the dump was saved" \
	"checked against the record jrecover -s saved"
jrecover --replay-stale-dump -j rec.dump written.img
[ "$RUN_RC" -eq 1 ] || fail "written: --replay-stale-dump exited $RUN_RC, not 1"
grep -q "replayed although the filesystem changed since (--replay-stale-dump)" \
	"$SCRATCH/.run.out" || fail "written: the forced replay does not say so"
case_end

case_begin replayed "the filesystem's journal replayed since the save"
copy_img base.img replayed.img
jrecover replayed.img
[ "$RUN_RC" -eq 1 ] || fail "replayed: the journal's replay exited $RUN_RC"
refused replayed replayed.img rec.dump \
	"its journal was replayed, used, dropped or made anew since the dump was saved"
case_end

case_begin remade "the journal dropped and made anew since the save"
copy_img base.img remade.img
E2FSPROGS_FAKE_TIME=$FAKE_TIME tune2fs -f -O ^has_journal remade.img > /dev/null 2>&1 ||
	die "tune2fs cannot drop the journal"
E2FSPROGS_FAKE_TIME=$FAKE_TIME tune2fs -O has_journal remade.img > /dev/null 2>&1 ||
	die "tune2fs cannot make a journal"
refused remade remade.img rec.dump \
	"its journal was replayed, used, dropped or made anew since the dump was saved"
case_end

case_begin stdout "-s -: the record goes to standard output too"
"$JRECOVER" -s - base.img > out.dump 2> /dev/null || fail "stdout: -s - failed"
saved_is plain.dump out.dump || fail "stdout: not the journal and its record"
copy_img base.img stdout.img
debugfs -w -R "mkdir since" stdout.img 2>/dev/null
refused stdout stdout.img out.dump "written since the dump was saved"
case_end

# ==== dumps without the record: the times =============================================
case_begin plain "a plain dump (debugfs's), the filesystem as it was"
copy_img base.img plain.img
jrecover -j plain.dump plain.img
[ "$RUN_RC" -eq 1 ] || fail "plain: the replay exited $RUN_RC, not 1"
grep -q "the dump carries no record of plain.img (jrecover -s saves one): checked only the filesystem's mount and write times against the log's last commit time" \
	"$SCRATCH/.run.out" || fail "plain: the replay does not say only the times were checked"
oracle_copy plain
imgcmp_case "plain: the dump's replay differs from e2fsck's" \
	plain.e2fsck.img plain.img -s -J "$JSB"
case_end

case_begin plainwritten "a plain dump, the filesystem written after the log's last commit"
copy_img base.img plainw.img
debugfs -w -R "mkdir since" plainw.img 2>/dev/null
refused plainwritten plainw.img plain.dump "after the log's last commit" \
	"the dump carries no record"
case_end

case_begin sequence "a plain dump, the filesystem's journal made anew"
mkimg seq.img 16M $FMT_MKFS
"$JWRITE" seq.img > /dev/null <<EOF || die "jwrite failed"
features revoke 64bit csum3
sequence 1000
txn
log $1 $2
commit
EOF
debugfs -R "dump <8> seq.dump" seq.img 2>/dev/null
E2FSPROGS_FAKE_TIME=$FAKE_TIME tune2fs -f -O ^has_journal seq.img > /dev/null 2>&1 ||
	die "tune2fs cannot drop the journal"
E2FSPROGS_FAKE_TIME=$FAKE_TIME tune2fs -O has_journal seq.img > /dev/null 2>&1 ||
	die "tune2fs cannot make a journal"
refused sequence seq.img seq.dump "its own journal (sequence 1) is not the dump's"
case_end

case_begin shifted "debugfs's commit time, shifted by 32 bits"
set_format 4k-64-v3
mkimg_fmt dfs.img
std_workload dfs.img
debugfs -R "dump <8> dfs.dump" dfs.img 2>/dev/null
copy_img dfs.img dfs.ok.img
jrecover -n -j dfs.dump dfs.ok.img
[ "$RUN_RC" -eq 1 ] || fail "shifted: -n exited $RUN_RC, not 1"
grep -q "the commit time is stored shifted by 32 bits, as debugfs writes it" \
	"$SCRATCH/.run.out" || fail "shifted: jrecover does not say how it read the commit time"
later=$(($(date +%s) + 100000))
E2FSPROGS_FAKE_TIME=$later debugfs -w -R "mkdir since" dfs.img 2>/dev/null
refused shifted dfs.img dfs.dump "after the log's last commit"
case_end

# ==== the report's case, with the kernel ==============================================
if [ "$(id -u)" != 0 ] || ! command -v losetup > /dev/null 2>&1; then
	say "(not root: the mount case is not run)"
	end_test
fi
MNT=$SCRATCH/mnt
mkdir -p "$MNT"
LOOP=
trap '_rc=$?; [ -n "$LOOP" ] && { umount "$MNT" 2>/dev/null; losetup -d "$LOOP"; }; (exit $_rc); _cleanup' EXIT
case_begin mounted "save, drop, mount, delete /d, create 300 files, replay the dump"
set_format 4k-64-v3
mkimg k.img 64M $FMT_MKFS
dfs_quiet k.img <<EOF
mkdir d
write /dev/null d/f
EOF
# shellcheck disable=SC2046
set -- $(free_blocks k.img 4 10000)
"$JWRITE" k.img > /dev/null <<EOF || die "jwrite failed"
features revoke 64bit csum3
txn
log $1 $2 $3
commit
EOF
jrecover -s k.dump k.img
[ "$RUN_RC" -eq 0 ] || fail "mounted: -s exited $RUN_RC"
tune2fs -f -O ^has_journal k.img > /dev/null 2>&1 || die "tune2fs cannot drop the journal"
if LOOP=$(losetup -f --show k.img 2> /dev/null) &&
   mount -t ext4 "$LOOP" "$MNT" 2> /dev/null; then
	rm -rf "$MNT/d"
	i=1
	while [ "$i" -le 300 ]; do
		: > "$MNT/n$i"
		i=$((i + 1))
	done
	umount "$MNT"
	losetup -d "$LOOP"
	LOOP=
	refused mounted k.img k.dump "mounted since the dump was saved" \
		"written since the dump was saved"
	n=$(debugfs -R "ls -l /" k.img 2>/dev/null | grep -c ' n[0-9]*$')
	[ "$n" -eq 300 ] || fail "mounted: $n of the 300 files made since are left"
	debugfs -R "stat /d" k.img 2>&1 | grep -q "File not found" ||
		fail "mounted: /d came back"
else
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	LOOP=
	say "(the image cannot be loop-mounted here: the mount case is not run)"
fi
case_end

end_test
