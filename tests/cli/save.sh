#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# save.sh --- jrecover -s FILE writes the raw journal and nothing else
# (jrecover(8), -s):
#  - internal journal: FILE is byte for byte what debugfs -R "dump <8> FILE"
#    writes, then one block recording the filesystem (saved_is), on 4 KiB and 1 KiB filesystems, a journal that needs recovery
#    and one that does not, and a journal inode in 100+ extents (a two-level
#    extent tree) whose blocks all hold different contents, so a block read
#    from the wrong place shows;
#  - an external journal (-j DEV -s FILE): FILE is the whole device, then
#    the record;
#  - a dump (-j DUMP -s FILE): FILE is a copy of the dump, byte for byte;
#  - an existing FILE longer than the journal (an older dump: a journal
#    superblock at its start) is replaced (anything else is refused:
#    outputs.sh);
#  - the image (and the journal device, and the dump) keep their sha256,
#    the exit status is 0, and -q prints nothing;
#  - a FILE that cannot be created, or an image without a journal, is an
#    operational error (8).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"

# save_case NAME IMG [JDEV]: jrecover [-j JDEV] -s NAME.save IMG must exit
# 0, write NAME.save equal to NAME.want (a dump's copy) or to NAME.want and
# the record (a filesystem's journal), and change neither IMG nor JDEV.
save_case() {
	_name=$1
	_img=$2
	_jdev=${3:-}
	NCASES=$((NCASES + 1))
	_before=$(state_of "$_img" "$_jdev")
	jrecover ${_jdev:+-j "$_jdev"} -s "$_name.save" "$_img"
	[ "$RUN_RC" -eq 0 ] || fail "$_name: jrecover -s exited $RUN_RC, not 0"
	if [ ! -f "$_name.save" ]; then
		fail "$_name: jrecover -s wrote no file"
	elif case $_name in dump-*) ! cmp "$_name.want" "$_name.save" > cmp.out 2>&1 ;;
	     *) ! saved_is "$_name.want" "$_name.save" ;; esac; then
		sed 's/^/    /' cmp.out 2>/dev/null
		fail "$_name: the saved journal ($(wc -c < "$_name.save") bytes) differs from $_name.want ($(wc -c < "$_name.want") bytes)"
	fi
	[ "$(state_of "$_img" "$_jdev")" = "$_before" ] ||
		fail "$_name: jrecover -s changed the image or the journal"
}

# --- internal journals, compared with debugfs's dump ------------------------
for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	img=int-$fmt.img
	mkimg_fmt "$img"

	# A journal with nothing to replay.
	debugfs -R "dump <8> clean-$fmt.want" "$img" 2>/dev/null
	[ -s "clean-$fmt.want" ] || die "debugfs did not dump the journal"
	save_case "clean-$fmt" "$img"

	# The six transactions of std_workload, needing recovery.
	std_workload "$img"
	debugfs -R "dump <8> log-$fmt.want" "$img" 2>/dev/null
	cmp -s "clean-$fmt.want" "log-$fmt.want" && die "std_workload wrote no journal"
	save_case "log-$fmt" "$img"

	# An existing, longer dump is replaced.
	mkdata "pad-$fmt" 4096 100 -s 3
	cat "clean-$fmt.want" "pad-$fmt" > "log-$fmt.save"
	save_case "log-$fmt" "$img"

	# -q: nothing on stdout or stderr.
	NCASES=$((NCASES + 1))
	say "\$ jrecover -q -s quiet-$fmt.save $img"
	"$JRECOVER" -q -s "quiet-$fmt.save" "$img" > quiet.out 2>&1
	rc=$?
	[ "$rc" -eq 0 ] || fail "jrecover -q -s exited $rc"
	[ -s quiet.out ] && { sed 's/^/    /' quiet.out; fail "jrecover -q -s printed something"; }
	saved_is "log-$fmt.want" "quiet-$fmt.save" || fail "jrecover -q -s wrote another file"

	# A dump as the source: -s copies it.
	cp "log-$fmt.want" "dump-$fmt.journal"
	cp "log-$fmt.want" "dump-$fmt.want"
	dsum=$(sha256_of "dump-$fmt.journal")
	save_case "dump-$fmt" "$img" "dump-$fmt.journal"
	[ "$(sha256_of "dump-$fmt.journal")" = "$dsum" ] ||
		fail "dump-$fmt: jrecover -s changed the dump"
done

# --- a fragmented journal inode ---------------------------------------------
# A 1 KiB filesystem filled with 16 KiB files, every other one deleted, then
# given a journal by tune2fs: the journal gets the holes, 16 blocks at a
# time.  Every journal block but the superblock is then overwritten in place
# with its own pseudo-random contents (mkdata block L for logical block L).
img=frag.img
mkimg "$img" 8M -b 1024 -O ^has_journal,^metadata_csum
mkdata blob 1024 16 -s 5
i=1
: > cmds
while [ $i -le 400 ]; do
	say "write blob f$i" >> cmds
	i=$((i + 1))
done
dfs_quiet "$img" < cmds
i=1
: > cmds
while [ $i -le 400 ]; do
	say "rm f$i" >> cmds
	i=$((i + 2))
done
dfs_quiet "$img" < cmds
E2FSPROGS_FAKE_TIME=$FAKE_TIME tune2fs -O has_journal -J size=2 "$img" \
	> tune2fs.out 2>&1 || { cat tune2fs.out; die "tune2fs -O has_journal failed"; }
# The leaves of the extent tree: "LOGICAL_FIRST LOGICAL_LAST PHYSICAL_FIRST".
debugfs -R "ex <8>" "$img" 2>/dev/null > ex.out
awk 'NR > 1 && $0 ~ /^ *[0-9]+\/ *[0-9]+/ {
	split($1 $2, lv, "/")
	if (lv[1] + 0 != lv[2] + 0) next	# an index node, not a leaf
	sub(/^ *[0-9]+\/ *[0-9]+ +[0-9]+\/ *[0-9]+ +/, "")
	print $1, $3, $4 }' ex.out > extents
next=$(wc -l < extents)
say "journal inode of $img: $next extents"
[ "$next" -ge 50 ] || die "the journal of $img is not fragmented ($next extents)"
jblocks=$(awk '{ n += $2 - $1 + 1 } END { print n }' extents)
mkdata frag.fill 1024 "$jblocks" -s 9
while read -r l0 l1 p0; do
	# Logical block 0 is the journal superblock: keep it.
	[ "$l0" -eq 0 ] && { l0=1; p0=$((p0 + 1)); }
	[ "$l1" -ge "$l0" ] || continue
	dd if=frag.fill of="$img" bs=1024 skip="$l0" seek="$p0" \
		count=$((l1 - l0 + 1)) conv=notrunc 2>/dev/null ||
		die "cannot fill the journal of $img"
done < extents
debugfs -R "dump <8> frag.want" "$img" 2>/dev/null
[ "$(wc -c < frag.want)" -eq $((jblocks * 1024)) ] ||
	die "debugfs dumped $(wc -c < frag.want) bytes of a $jblocks-block journal"
cmp -s -i 1024 frag.want frag.fill ||
	die "the journal of $img does not hold what the test wrote"
save_case frag "$img"

# --- an external journal: the whole device ------------------------------------
for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	img=ext-$fmt.img
	jdev=ext-$fmt.jdev
	std_external "$img" "$jdev"
	cp "$jdev" "ext-$fmt.want"
	save_case "ext-$fmt" "$img" "$jdev"
done

# --- operational errors ---------------------------------------------------------
set_format 4k-64-v3
NCASES=$((NCASES + 1))
sum=$(sha256_of "int-4k-64-v3.img")
jrecover -s no-such-dir/x.save "int-4k-64-v3.img"
[ "$RUN_RC" -eq 8 ] || fail "-s into a missing directory exited $RUN_RC, not 8"
[ "$(sha256_of "int-4k-64-v3.img")" = "$sum" ] || fail "-s into a missing directory changed the image"

NCASES=$((NCASES + 1))
# shellcheck disable=SC2086
mkimg nojournal.img 16M $FMT_MKFS -O ^has_journal
sum=$(sha256_of nojournal.img)
jrecover -s nojournal.save nojournal.img
[ "$RUN_RC" -eq 8 ] || fail "-s of a filesystem without a journal exited $RUN_RC, not 8"
[ -s nojournal.save ] && fail "-s of a filesystem without a journal wrote a journal"
[ "$(sha256_of nojournal.img)" = "$sum" ] || fail "-s changed a filesystem without a journal"

end_test
