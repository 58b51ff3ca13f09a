#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# malformed.sh --- journals that are wrong in one way each, written by
# tests/jwrite or edited byte by byte afterwards.  For each: jrecover's exact
# exit status, that its output names the problem (and the journal block,
# where the library knows it), and that the image is unchanged when the
# problem is found before anything is written.  Where e2fsck replays the
# journal the two results are compared byte for byte (oracle_compare);
# where it does not, what e2fsck does is shown in the log, for the record.
# tests/integration/MALFORMED.md is the table of the classes and outcomes.
#
# Journal layouts below: jwrite starts the log at journal block 1; a
# transaction is its descriptor, its data blocks, revoke blocks, then the
# commit block.
#
# MALFORMED_PENDING=1 also runs the cases where jrecover does not do what
# this test expects yet (reported, see MALFORMED.md): they fail until the
# library changes.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

need_built "$JWRITE"

# jpoke IMG N OFFSET HEX: overwrite bytes of journal block N.
jpoke() {
	poke "$1" $(($(jblk_off "$1" "$2") + $3)) "$4"
}

# jw IMG [jwrite options] < SCRIPT: a journal by jwrite, on a fresh copy of
# the base image.
jw() {
	_jwimg=$1
	shift
	copy_img base.img "$_jwimg"
	cat > "$SCRATCH/.jw"
	say "jwrite $* $_jwimg:"
	sed 's/^/    > /' "$SCRATCH/.jw"
	"$JWRITE" "$@" "$_jwimg" < "$SCRATCH/.jw" > "$SCRATCH/.jw.out" 2>&1 ||
		{ cat "$SCRATCH/.jw.out"; die "jwrite failed on $_jwimg"; }
}

# expect [-o OPT]... [-j JOURNAL] RC IMG TEXT...: jrecover (on a copy of
# IMG) exits RC and says every TEXT (stdout and stderr together); when RC
# is 8, the copy (and the journal file) are left byte for byte as they were.
expect() {
	_eo=
	_ej=
	while :; do
		case $1 in
		-o) _eo="$_eo $2"; shift 2 ;;
		-j) _ej=$2; shift 2 ;;
		*) break ;;
		esac
	done
	_erc=$1
	_eimg=$2
	shift 2
	NCASES=$((NCASES + 1))
	_ec=${_eimg%.img}.expect.img
	copy_img "$_eimg" "$_ec"
	_ebefore=$(state_of "$_ec" "$_ej")
	say ""
	say "=== case ${_eimg%.img}: expect jrecover$_eo ${_ej:+-j $_ej }to exit $_erc"
	# shellcheck disable=SC2086
	jrecover $_eo ${_ej:+-j "$_ej"} "$_ec"
	[ "$RUN_RC" -eq "$_erc" ] ||
		fail "${_eimg%.img}: jrecover$_eo exited $RUN_RC, expected $_erc"
	for _et; do
		grep -F -q -- "$_et" "$SCRATCH/.run.out" ||
			fail "${_eimg%.img}: jrecover does not say '$_et'"
	done
	if [ "$_erc" -eq 8 ]; then
		[ "$(state_of "$_ec" "$_ej")" = "$_ebefore" ] ||
			fail "${_eimg%.img}: jrecover exited 8 but changed the image"
	fi
	rm -f "$_ec"
}

# e2fsck_note IMG [e2fsck options]: what e2fsck -y -E journal_only does with
# IMG (on a copy), for the log only.  e2fsck ignores SIGTERM while it
# replays, hence timeout -k.
e2fsck_note() {
	_n=$1
	shift
	copy_img "$_n" "${_n%.img}.note.img"
	_nb=$(sha256_of "$_n")
	say "(for the record, e2fsck on ${_n%.img}:)"
	run timeout -k 2 60 e2fsck -y -E journal_only "$@" "${_n%.img}.note.img"
	if [ "$(sha256_of "${_n%.img}.note.img")" = "$_nb" ]; then
		say "    (e2fsck left the image unchanged)"
	else
		say "    (e2fsck changed the image)"
	fi
	rm -f "${_n%.img}.note.img"
}

# The base image: 4 KiB blocks, metadata_csum, a 1024-block journal.
mkimg base.img 16M
# shellcheck disable=SC2046
set -- $(free_blocks base.img 700)
A=$1
B=$(($1 + 1))
C=$(($1 + 2))
D=$(($1 + 3))
E=$(($1 + 4))
[ $#  -eq 700 ] && [ "$((A + 699))" -eq "${700}" ] ||
	die "no run of 700 free blocks in base.img"
NBLOCKS=$(dumpe2fs -h base.img 2>/dev/null | sed -n 's/^Block count: *//p')
PAST=$((NBLOCKS + 100))

# Three transactions, no journal checksums:
#   T1 1 desc, 2-4 data (A B C), 5 commit
#   T2 6 revoke (A), 7 commit
#   T3 8 desc, 9 data (A), 10 commit
three() {
	jw "$1" <<EOF
features revoke 64bit
txn
log $A $B $C
commit
txn
revoke $A
commit
txn
log $A
commit
EOF
}

# ==== the journal superblock ===================================================
# Found at open: jrecover writes nothing (exit 8).

# sbcase IMG OFFSET HEX MESSAGE: the three transactions with bytes of the
# journal superblock overwritten; jrecover refuses with MESSAGE (exit 8,
# the image unchanged), and what e2fsck does is logged.
sbcase() {
	three "$1"
	jpoke "$1" 0 "$2" "$3"
	expect 8 "$1" "$4"
	e2fsck_note "$1"
}

sbcase sb-magic.img 0 00000000 \
	"Wrong magic number in the journal superblock"

sbcase sb-type.img 4 00000007 \
	"Journal superblock has an unknown block type"

# A version 1 superblock (block type 3) with v2 fields set: e2fsck clears
# them ("Found invalid V2 journal superblock fields"), replays, and then
# runs its full check, which stamps s_lastcheck.  Without the 64BIT
# feature the tags are read 8 bytes long: the log ends after a garbled
# descriptor, nothing is committed.
three sb-v1-fields.img
jpoke sb-v1-fields.img 0 4 00000003
oracle_compare -x s_lastcheck sb-v1-fields.img

sbcase sb-first-zero.img 20 00000000 \
	"Journal superblock has s_first or s_maxlen out of range"

sbcase sb-first-maxlen.img 20 00000400 \
	"Journal superblock has s_first or s_maxlen out of range"

sbcase sb-maxlen-one.img 16 00000001 \
	"Journal superblock has s_first or s_maxlen out of range"

sbcase sb-maxlen-long.img 16 00000800 \
	"Journal is shorter than its superblock claims"

sbcase sb-start-end.img 28 00000400 \
	"Journal superblock s_start lies outside the log"

sbcase sb-start-first.img 20 00000002 \
	"Journal superblock s_start lies outside the log"

sbcase sb-blocksize.img 12 00000400 \
	"Journal block size differs from the filesystem block size"

# e2fsck refuses these too (exit 12) and leaves the image as it was.
sbcase sb-incompat.img 40 00000103 \
	"Journal has an unknown incompatible feature"

sbcase sb-rocompat.img 44 00000001 \
	"Journal has an unknown read-only compatible feature"

sbcase sb-csum23.img 40 0000001b \
	"Journal superblock sets more than one checksum version"

jw sb-csum.img <<EOF
features revoke 64bit csum3
badsbcsum
txn
log $A $B
commit
EOF
expect 8 sb-csum.img "Journal superblock checksum does not match"
e2fsck_note sb-csum.img

# ---- a saved dump of the journal (-j FILE) ---------------------------------------
three dump.img
debugfs -R "dump <8> $SCRATCH/dump.full" dump.img > /dev/null 2>&1 ||
	die "cannot dump the journal of dump.img"
: > dump.empty
expect -j dump.empty 8 dump.img "Journal dump file is empty or ends inside its superblock"
head -c 1000 dump.full > dump.short
expect -j dump.short 8 dump.img "Journal dump file is empty or ends inside its superblock"
# Cut after T1 and T2 (journal blocks 0-7): T3 is lost, which is a problem
# left (4); the filesystem's own journal, which still holds T3, is kept
# (needs_recovery still set), so replaying it afterwards ends as if the
# whole journal had been replayed at once.
head -c $((8 * 4096)) dump.full > dump.cut
NCASES=$((NCASES + 1))
say ""
say "=== case dump.cut: expect jrecover -j dump.cut to exit 4"
copy_img dump.img dump.cut.img
jrecover -j dump.cut dump.cut.img
[ "$RUN_RC" -eq 4 ] || fail "dump.cut: jrecover exited $RUN_RC, expected 4"
grep -F -q "the dump ends at journal block 8" "$SCRATCH/.run.out" ||
	fail "dump.cut: jrecover does not say where the dump ends"
[ "$(getblk dump.cut.img "$A" | sha256sum)" = "$(getblk dump.img "$A" | sha256sum)" ] ||
	fail "dump.cut: block A was replayed, but T1's copy of it is revoked by T2"
dumpe2fs -h dump.cut.img 2>/dev/null | grep -q '^Filesystem features:.*needs_recovery' ||
	fail "dump.cut: the filesystem's own journal (which holds T3) was reset"
jrecover dump.cut.img
[ "$RUN_RC" -eq 1 ] ||
	fail "dump.cut: replaying the filesystem's own journal then exited $RUN_RC"
copy_img dump.img dump.whole.img
jrecover dump.whole.img
"$IMGCMP" -s dump.cut.img dump.whole.img > "$SCRATCH/.cmp" ||
	{ sed 's/^/    /' "$SCRATCH/.cmp"
	  fail "dump.cut: the cut dump, then the own journal, differ from the whole journal"; }
rm -f dump.cut.img dump.whole.img

# ==== descriptor blocks ============================================================

# No LAST_TAG: the tag loop ends where the next tag no longer fits.  339
# twelve-byte tags fill a 4 KiB descriptor exactly...
jw desc-full.img <<EOF
features revoke 64bit
txn
log $A-$((A + 338))
commit
EOF
jpoke desc-full.img 1 $((12 + 28 + 337 * 12 + 6)) 0002
oracle_compare desc-full.img

# ... 508 eight-byte tags leave 4 bytes that are not a tag ...
jw desc-spare.img <<EOF
features revoke
txn
log $A-$((A + 507))
commit
EOF
jpoke desc-spare.img 1 $((12 + 24 + 506 * 8 + 6)) 0002
oracle_compare desc-spare.img

# ... and 3 tags then zeros read as 144 more tags of block 0 (28 bytes
# each, with a UUID): the transaction swallows its commit block and never
# commits.
jw desc-zeros.img <<EOF
features revoke 64bit
txn
log $A $B $C
commit
txn
log $D
commit
EOF
jpoke desc-zeros.img 1 $((12 + 28 + 12 + 6)) 0002
oracle_compare desc-zeros.img

# A tag past the end of the filesystem: e2fsck 1.47.0 writes it (the image
# grows); jrecover refuses before writing anything.  T2's data blocks are
# journal blocks 6-8, the bad one 7.
jw past-end.img <<EOF
features revoke 64bit
allow-past-end
txn
log $A $B
commit
txn
log $C $PAST $D
commit
EOF
expect 8 past-end.img \
	"Descriptor tag names a block past the end of the filesystem" \
	"at journal block 7 (transaction 2, filesystem block $PAST)"

# The high 32 bits of a 64-bit tag count too.
jw past-end-high.img <<EOF
features revoke 64bit
allow-past-end
txn
log $A 0x100000005
commit
EOF
expect 8 past-end-high.img \
	"Descriptor tag names a block past the end of the filesystem" \
	"at journal block 3 (transaction 1, filesystem block 4294967301)"

# Not refused: a past-the-end tag that a revoke record cancels, and one in
# a transaction that never commits.
jw past-end-revoked.img <<EOF
features revoke 64bit
allow-past-end
txn
log $A $PAST
commit
txn
revoke $PAST
commit
EOF
oracle_compare past-end-revoked.img

jw past-end-uncommitted.img <<EOF
features revoke 64bit
allow-past-end
txn
log $A
commit
txn
log $PAST
nocommit
EOF
oracle_compare past-end-uncommitted.img

# ==== revoke blocks ===================================================================
# T1 1 desc, 2-5 data (A-D), 6 commit; T2 7 revoke (A B), 8 commit;
# T3 9 desc, 10 data (E), 11 commit.
revoke_case() {
	_rimg=$1
	_rfeat=$2
	_rcount=$3
	jw "$_rimg" <<EOF
features revoke 64bit $_rfeat
txn
log $A $B $C $D
commit
txn
rcount $_rcount
revoke $A $B
commit
txn
log $E
commit
EOF
}

# r_count past the block: e2fsck's recovery fails ("Invalid argument"), it
# replays nothing, resets the journal and marks the filesystem not clean.
# jrecover stops (8), or with -f does exactly that (4).
revoke_case rcount-over.img "" 5000
expect 8 rcount-over.img "Revoke block's r_count exceeds the block" \
	"at journal block 7 (transaction 2)"
oracle_compare -e 4 -o -f rcount-over.img

# With a checksum tail, r_count may not reach into it.
revoke_case rcount-tail.img csum3 4096
expect 8 rcount-tail.img "Revoke block's r_count exceeds the block" \
	"at journal block 7 (transaction 2)"
oracle_compare -e 4 -o -f rcount-tail.img

# Not a whole number of records: the partial one is ignored (16 + 8 + 3:
# A is revoked, B is not).
revoke_case rcount-ragged.img "" 27
oracle_compare rcount-ragged.img

# Shorter than the header: no records.
revoke_case rcount-short.img "" 8
oracle_compare rcount-short.img

# A bad r_count in a transaction that never commits does not matter.
jw rcount-uncommitted.img <<EOF
features revoke 64bit
txn
log $A $B
commit
txn
rcount 5000
revoke $A
nocommit
EOF
oracle_compare rcount-uncommitted.img

# ==== loops and misplaced starts =======================================================

# tids 5, 6, 5: the scan ends at the block whose tid is not the next one.
jw tids-repeat.img <<EOF
features revoke 64bit
sequence 5
txn 5
log $A $B
commit
txn 6
log $C
commit
txn 5
log $D
commit
EOF
oracle_compare tids-repeat.img

# A log that comes back to itself: s_maxlen 3 makes the log blocks 1 and 2;
# block 1 is a descriptor whose one data block is block 2, and then the
# scan is at block 1 again, the same tid, for ever.  e2fsck 1.47.0 never
# returns (and ignores SIGTERM meanwhile), so it is not run here.
jw loop.img <<EOF
features revoke 64bit
txn
log $A
nocommit
EOF
jpoke loop.img 0 16 00000003
expect 8 loop.img "Journal log wraps onto itself" \
	"at journal block 1 (transaction 1)"

# One transaction longer than the whole log (300 tags, s_maxlen 50).
# e2fsck's recovery fails ("JBD2: corrupted journal superblock"): it
# resets the journal and marks the filesystem not clean.  jrecover refuses,
# even with -f (see the pending cases).
jw txn-overlong.img <<EOF
features revoke 64bit
txn
log $A-$((A + 299))
commit
EOF
jpoke txn-overlong.img 0 16 00000032
expect 8 txn-overlong.img "Journal log wraps onto itself" \
	"(transaction 1)"
e2fsck_note txn-overlong.img

# s_start in the middle of things.  The journal:
#   T1 1 desc, 2-4 data (A B C), 5 commit
#   T2 6 desc, 7-8 data (D A), 9 revoke (B), 10 commit
#   T3 11 desc, 12 data (E), 13 commit
middle() {
	jw "$1" <<EOF
features revoke 64bit
txn
log $A $B $C
commit
txn
log $D $A
revoke $B
commit
txn
log $E
commit
EOF
	jpoke "$1" 0 28 "$(printf %08x "$2")"
	jpoke "$1" 0 24 "$(printf %08x "$3")"
}
middle start-data.img 3 1		# a data block: no magic, empty log
oracle_compare start-data.img
middle start-desc-oldtid.img 6 1	# T2's descriptor, T1's tid: empty log
oracle_compare start-desc-oldtid.img
middle start-commit.img 5 1		# T1's commit: an empty T1, then T2, T3
oracle_compare start-commit.img
middle start-revoke.img 9 2		# T2's revoke block: T2 revokes B only
oracle_compare start-revoke.img
middle start-data-tid.img 7 2		# T2's first data block, T2's tid
oracle_compare start-data-tid.img

# ==== checksums ===================================================================

# A descriptor or revoke block that fails its checksum in a transaction
# that commits: e2fsck's recovery fails (it replays nothing, resets the
# journal, marks the filesystem not clean); jrecover stops (8), or with -f
# does the same as e2fsck (4).  T2's descriptor/revoke is journal block 5.
jw desc-csum.img <<EOF
features revoke 64bit csum3
txn
log $A $B
commit
txn
log $C baddesc
commit
txn
log $D
commit
EOF
expect 8 desc-csum.img "Journal checksum error in a committed transaction" \
	"at journal block 5 (transaction 2)"
oracle_compare -e 4 -o -f desc-csum.img

jw revoke-csum.img <<EOF
features revoke 64bit csum2
txn
log $A $B
commit
txn
revoke $A badcsum
commit
txn
log $D
commit
EOF
expect 8 revoke-csum.img "Journal checksum error in a committed transaction" \
	"at journal block 5 (transaction 2)"
oracle_compare -e 4 -o -f revoke-csum.img

# A commit block that fails its checksum ends the log before its
# transaction; the filesystem is marked as having errors (4).  T2's commit
# is journal block 7.  With ASYNC_COMMIT the bad commit only ends the log.
for csum in csum3 csum2 csum1 "async csum3"; do
	img=commit-$(say "$csum" | tr ' ' '-').img
	jw "$img" <<EOF
features revoke 64bit $csum
txn
log $A $B
commit
txn
log $C
commit badcsum
txn
log $D
commit
EOF
	case $csum in
	async*)
		oracle_compare "$img" ;;
	*)
		oracle_compare -e 4 "$img"
		expect 4 "$img" "transaction 2 was corrupt (commit block at journal block 7)"
		;;
	esac
done

# A data block that fails its tag checksum is skipped (4).
jw data-csum.img <<EOF
features revoke 64bit csum3
txn
log $A
log $B badcsum
log $C
commit
EOF
oracle_compare -e 4 data-csum.img
expect 4 data-csum.img "skipped on bad data checksums" \
	"at journal block 3 (transaction 1, filesystem block $B)"

# ==== pending: what this test expects and jrecover does not do yet ==========
if [ "${MALFORMED_PENDING:-0}" = 1 ]; then
	# A transaction longer than the log: with -f, what e2fsck does (the
	# journal reset, the filesystem not clean), as for the other failed
	# recoveries.
	oracle_compare -e 4 -o -f txn-overlong.img
fi

end_test
