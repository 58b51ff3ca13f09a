#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-dirdata.sh --- a Lustre MDT's filesystem: the dirdata feature, which
# Debian's libext2fs does not know (so e2fsck and debugfs refuse the
# filesystem), on a filesystem made with the options mkfs.lustre documents
# for an MDT: large inodes, large_dir, ea_inode, mmp, flex_bg, huge_file,
# quota, project, dir_nlink, extra_isize, 64bit, metadata_csum.
#
# A replay of full commits never reads a directory entry, so jrecover
# replays such a filesystem.  e2fsck is the judge on a copy whose primary
# superblock has the bit cleared (tests/oracle/sbfeature): the two results
# must differ in that bit alone (and in the superblock fields the oracle
# always allows: s_wtime, s_kbytes_written, the checksum).  jrecover's
# result keeps the bit, byte for byte, in the superblock it rewrites.
#
#   mdt-debugfs   the journal written by debugfs (jo/jw/jc), the bit set by
#                 debugfs's "feature dirdata" in the same session; mmp on
#                 (every read-write open waits 2 x 5 + 1 s, so e2fsck and
#                 jrecover run side by side); inodes of 1024 bytes
#   mdt-jwrite    the journal written by tests/jwrite: revoke records, a
#                 block logged twice, escaped blocks, checksum v3; inodes
#                 of 512 bytes; no mmp (its wait is the case above's)
#   mdt-selflog   the log holds the first descriptors' block and the
#                 journal inode's table block, as a kernel logs them
#   mdt-other     dirdata and compression, a bit no replay may ignore:
#                 refused, compression named (and not dirdata), nothing
#                 written; e2fsck refuses it too
#   mdt-readonly  -n, -i and -l on the dirdata filesystem write nothing
#                 and name the feature (say nothing of it, when libext2fs
#                 knows it)
#
# When the libext2fs jrecover runs with knows dirdata (Lustre's e2fsprogs;
# contrib/e2fsprogs/dirdata-libext2fs.sh builds one), nothing is special
# about it: the test then checks that jrecover says nothing about unknown
# features, and compares the images as above.  Which libext2fs
# jrecover has is asked of tests/oracle/sbfeature (linked as jrecover is:
# "sbfeature IMAGE opens"), and whether the judge e2fsck knows dirdata is
# asked of e2fsck itself: the two may differ (Debian's e2fsck judges a
# jrecover built against a libext2fs of its own), and an e2fsck that knows
# it replays the image with the bit set.  The log says which way each went.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

SBFEATURE=$top_builddir/tests/oracle/sbfeature
need_built "$JWRITE" "$SBFEATURE" "$IMGCMP"
DIRDATA=0x1000
MMP_CLEAN=504d4dff	# EXT4_MMP_SEQ_CLEAN (0xff4d4d50), little-endian
MDT_FEATURES=large_dir,ea_inode,flex_bg,huge_file,quota,project,dir_nlink,extra_isize,64bit,metadata_csum

incompat_of() {
	"$SBFEATURE" "$1" show | sed -n 's/.* incompat \(0x[0-9a-f]*\) .*/\1/p'
}

# Does jrecover's libext2fs know dirdata?  sbfeature, linked with the same
# one, opens an image with it as jrecover first does (no EXT2_FLAG_FORCE).
mkimg probe.img 8M
"$SBFEATURE" probe.img incompat +$DIRDATA || die "sbfeature failed"
"$SBFEATURE" probe.img opens > probe.opens 2>&1
case $? in
0)	KNOWN=1
	say "jrecover's libext2fs knows dirdata: nothing special expected" \
		"($(cat probe.opens))" ;;
3)	KNOWN=0
	say "jrecover's libext2fs does not know dirdata: jrecover goes past it" \
		"($(cat probe.opens))" ;;
*)	die "sbfeature opens: $(cat probe.opens)" ;;
esac
# And the judge's?  An e2fsck that does not know it refuses the image.
if e2fsck -n probe.img > probe.e2fsck 2>&1; then
	E2FSCK_KNOWN=1
	say "e2fsck knows dirdata: it replays the images with the bit set"
elif grep -q "unsupported feature(s): dirdata" probe.e2fsck; then
	E2FSCK_KNOWN=0
	say "e2fsck does not know dirdata: it replays copies with the bit cleared"
else
	die "e2fsck -n on a new image with dirdata: $(cat probe.e2fsck)"
fi

# dirdata_case CASE [-m]: CASE.img has dirdata set.  e2fsck replays a copy
# (with the bit cleared, unless it knows dirdata), jrecover a copy as it
# is (-m: side by side, for the MMP waits); the results differ in the bit
# alone, if at all.
dirdata_case() {
	_c=$1
	if [ "$E2FSCK_KNOWN" = 1 ]; then
		case_begin "$_c" "jrecover and e2fsck on dirdata"
	else
		case_begin "$_c" "jrecover on dirdata, e2fsck with the bit cleared"
	fi
	show_journal "$_c.img"
	copy_img "$_c.img" "$_c.e2fsck.img"
	copy_img "$_c.img" "$_c.jrecover.img"
	[ "$E2FSCK_KNOWN" = 1 ] ||
		"$SBFEATURE" "$_c.e2fsck.img" incompat -$DIRDATA ||
		die "sbfeature failed"
	say "\$ e2fsck -y -E journal_only $_c.e2fsck.img & jrecover $_c.jrecover.img"
	e2fsck -y -E journal_only "$_c.e2fsck.img" > "$_c.e2fsck.out" 2>&1 &
	_pe=$!
	if [ "${2:-}" != -m ]; then
		wait "$_pe"
		_re=$?
	fi
	$TIMEOUT "$JRECOVER" "$_c.jrecover.img" > "$_c.jrecover.out" 2>&1
	_rj=$?
	if [ "${2:-}" = -m ]; then
		wait "$_pe"
		_re=$?
	fi
	sed 's/^/    e2fsck: /' "$_c.e2fsck.out"
	sed 's/^/    jrecover: /' "$_c.jrecover.out"
	say "    [e2fsck exit $_re, jrecover exit $_rj]"
	[ "$_re" -eq 0 ] || fail "$_c: e2fsck exited $_re, not 0"
	[ "$_rj" -eq 1 ] || fail "$_c: jrecover exited $_rj, not 1"
	! cmp -s "$_c.img" "$_c.e2fsck.img" ||
		fail "$_c: e2fsck replayed nothing: the test's journal is wrong"
	if [ "$KNOWN" = 1 ]; then
		! grep -q "does not know" "$_c.jrecover.out" ||
			fail "$_c: jrecover calls a feature libext2fs knows unknown"
	else
		grep -q "does not know the feature(s) dirdata:" "$_c.jrecover.out" ||
			fail "$_c: jrecover's report does not name dirdata"
	fi
	# The bit survived, and it is the only difference in the word (none
	# when e2fsck knows it).
	_ie=$(incompat_of "$_c.e2fsck.img")
	_ij=$(incompat_of "$_c.jrecover.img")
	say "    s_feature_incompat: e2fsck's $_ie, jrecover's $_ij"
	[ $((_ie | DIRDATA)) -eq $((_ij)) ] ||
		fail "$_c: jrecover's s_feature_incompat $_ij is not e2fsck's $_ie plus dirdata"
	# Apart from it, the same bytes (the checksum of each superblock is
	# checked against its own contents by imgcmp -s).  With mmp, the MMP
	# block's time, node and device names and checksum are left out too
	# (each tool wrote its own; both must have left it clean).
	copy_img "$_c.jrecover.img" "$_c.cleared.img"
	copy_img "$_c.e2fsck.img" "$_c.e2norm.img"
	"$SBFEATURE" "$_c.cleared.img" incompat -$DIRDATA || die "sbfeature failed"
	[ "$E2FSCK_KNOWN" = 0 ] ||
		"$SBFEATURE" "$_c.e2norm.img" incompat -$DIRDATA ||
		die "sbfeature failed"
	if [ "${2:-}" = -m ]; then
		_mb=$(dumpe2fs -h "$_c.e2fsck.img" 2>/dev/null |
			sed -n 's/^MMP block number: *//p')
		_zero=$(printf '%0208d' 0)
		for _i in "$_c.cleared.img" "$_c.e2norm.img"; do
			[ "$(getblk "$_i" "$_mb" | od -An -tx1 -j4 -N4 | tr -d ' ')" = \
			  "$MMP_CLEAN" ] || fail "$_c: $_i: the MMP block is not clean"
			poke "$_i" $((_mb * bs + 8)) "$_zero"
			poke "$_i" $((_mb * bs + 1020)) 00000000
		done
	fi
	imgcmp_case "$_c: jrecover's image, dirdata cleared, differs from e2fsck's" \
		"$_c.e2norm.img" "$_c.cleared.img" -s
	rm -f "$_c.cleared.img" "$_c.e2norm.img"
	if [ "${2:-}" = -m ]; then
		case_end
		return
	fi
	# A second run (not with mmp: another wait) finds nothing to do and writes nothing.
	copy_img "$_c.jrecover.img" "$_c.once.img"
	jrecover "$_c.jrecover.img"
	[ "$RUN_RC" -eq 0 ] || fail "$_c: a second jrecover run exited $RUN_RC, not 0"
	cmp -s "$_c.jrecover.img" "$_c.once.img" ||
		fail "$_c: a second jrecover run changed the image"
	rm -f "$_c.once.img"
	case_end
}

# --- mdt-debugfs: debugfs's journal, mmp on ------------------------------------
mkimg mdt-debugfs.img 64M -I 1024 -O "$MDT_FEATURES,mmp"
bs=$(img_bs mdt-debugfs.img)
# shellcheck disable=SC2046
set -- $(free_blocks mdt-debugfs.img 8)
mkdata d1.bin "$bs" 3 -s 31
mkdata d2.bin "$bs" 2 -s 32 -m
# One session: every debugfs -w open waits for the MMP block.
jsession mdt-debugfs.img <<EOF
jo -c
jw -b $(blist "$1" "$2" "$3") d1.bin
jc
jo -c
jw -b $(blist "$5" "$6") d2.bin
jc
feature dirdata
EOF
dirdata_case mdt-debugfs -m

# --- mdt-jwrite: the project's writer --------------------------------------------
base mdtj 32M -I 512 -O "$MDT_FEATURES"
b=$(free_of mdtj)
jcase mdt-jwrite mdtj <<EOF
features revoke 64bit csum3
txn
log $b-$((b + 3))
commit time=1800000000
txn
revoke $((b + 1))
log $((b + 4)) escape
commit time=1800000001
txn
log $((b + 2)) $((b + 5))
commit time=1800000002
EOF
run debugfs -w -R "feature dirdata" mdt-jwrite.img
[ "$(( $(incompat_of mdt-jwrite.img) & DIRDATA ))" -ne 0 ] ||
	die "debugfs did not set dirdata"
dirdata_case mdt-jwrite

# --- mdt-readonly: -n, -i and -l write nothing -----------------------------------
# (and name dirdata when libext2fs does not know it, say nothing when it does)
copy_img mdt-jwrite.img mdt-readonly.img
before=$(sha256_of mdt-readonly.img)
for o in -n -i -l; do
	NCASES=$((NCASES + 1))
	jrecover "$o" mdt-readonly.img
	case $o:$RUN_RC in
	-n:1|-i:0|-l:0) ;;
	*) fail "mdt-readonly: jrecover $o exited $RUN_RC" ;;
	esac
	if [ "$KNOWN" = 1 ]; then
		! grep -q "does not know" "$SCRATCH/.run.out" ||
			fail "mdt-readonly: jrecover $o calls dirdata unknown"
	else
		grep -q "does not know the feature(s) dirdata:" "$SCRATCH/.run.out" ||
			fail "mdt-readonly: jrecover $o does not name dirdata"
	fi
	[ "$(sha256_of mdt-readonly.img)" = "$before" ] ||
		fail "mdt-readonly: jrecover $o changed the image"
done

# --- mdt-selflog: the log holds the first descriptors' block and the
# journal inode's, as a kernel logs them: the journal is looked up again on
# the filesystem as the log leaves it (journal_check_left()), which must
# take the feature libext2fs does not know as the open of the filesystem
# does.  (Not the superblock's block: with the bit in the log's copy,
# e2fsck, which does not know it, could not open what it replayed.)
mkimg mdt-selflog.img 32M -I 512 -O "$MDT_FEATURES"
bs=$(img_bs mdt-selflog.img)
it=$(itb_of mdt-selflog.img 8)
[ -n "$it" ] || die "no inode table block for inode 8"
for b in 1 "$it"; do
	dd if=mdt-selflog.img bs="$bs" skip="$b" count=1 status=none
done > mdt-selflog.data || die "dd failed"
jsession mdt-selflog.img <<EOF
jo -c
jw -b 1,$it mdt-selflog.data
jc
feature dirdata
EOF
dirdata_case mdt-selflog

# --- mdt-other: a bit no replay may ignore ------------------------------------------
copy_img mdt-jwrite.img mdt-other.img
"$SBFEATURE" mdt-other.img incompat +0x1 || die "sbfeature failed"
case_begin mdt-other "dirdata and compression: refused, compression named"
before=$(sha256_of mdt-other.img)
copy_img mdt-other.img mdt-other.e2fsck.img
run e2fsck -y -E journal_only mdt-other.e2fsck.img
[ "$RUN_RC" -eq 8 ] || fail "mdt-other: e2fsck exited $RUN_RC, not 8"
jrecover mdt-other.img
[ "$RUN_RC" -eq 8 ] || fail "mdt-other: jrecover exited $RUN_RC, not 8"
grep -q "unsupported feature(s): compression;" "$SCRATCH/.run.out" ||
	fail "mdt-other: the refusal does not name compression (alone)"
[ "$(sha256_of mdt-other.img)" = "$before" ] ||
	fail "mdt-other: a refused replay changed the image"
case_end

end_test
