#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# safety.sh --- what jrecover refuses before it writes anything, and how it
# ends a replay that fails part way (jrecover(8), "Refusals" and "EXIT
# STATUS").  Every case hashes every path involved before and after.
#
# 1. Twenty random journals (jwrite) in which one tag of one transaction
#    names a block of the internal journal itself, a block of a later
#    transaction (or, one in five, a block past the log's end): e2fsck
#    writes it as it goes and then reads its overwritten log (before this
#    check, jrecover gave another image than e2fsck's on the sixteen that
#    name a later transaction's block, exit 1 without a word, and the
#    same image on the four past the log's end);
#    jrecover refuses the journal (-n and the replay exit 8, nothing
#    written) and -l lists that tag as refused, never as written.  A tag
#    naming the journal superblock's block is replayed, as e2fsck does
#    (the reset superblock is written over it either way): e2fsck's
#    result byte for byte.
# 2. s_journal_inum 8 beside a journal UUID: e2fsck looks for the
#    external journal ("Can't find external journal", exit 12) and writes
#    nothing; jrecover refuses too (exit 8), nothing written.
# 3. has_journal clear, needs_recovery set, a log in inode 8: e2fsck -n
#    exits 0 and e2fsck -y deletes the journal unreplayed; jrecover -n and
#    the replay exit 8 with what to do, -i and -s still read the log, and
#    after `debugfs -w -R "feature has_journal"` the replay is e2fsck's.
# 4. An image shorter than s_blocks_count: refused before any write
#    (e2fsck replays, then aborts on the same comparison).
# 5. As root: a sparse image on a small tmpfs runs out of space half way
#    through the replay: exit 12, "stopped part way", needs_recovery
#    still set; the same image moved where there is room replays to
#    e2fsck's result.  And -z with its undo file on a tmpfs with no inode
#    left: exit 8, nothing written, nothing left behind (under the
#    sanitizers, a leak on this path fails the exit status).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "jrecover's refusals: nothing to check without jrecover"
need_built "$JWRITE" "$IMGCMP"

# bmap IMG LBLK: the filesystem block of the journal inode's block LBLK
bmap() {
	debugfs -R "bmap <8> $2" "$1" 2>/dev/null
}

# flagged IMG: needs_recovery is set
flagged() {
	dumpe2fs -h "$1" 2>/dev/null | grep -q '^Filesystem features:.*needs_recovery'
}

# ==== 1. tags naming the journal's own blocks =========================================
set_format 1k-64-v3
mkimg base.img 16M $FMT_MKFS
maxlen=$(($(debugfs -R "stat <8>" base.img 2>/dev/null |
	sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -n 1) / 1024))
[ "$maxlen" -gt 100 ] || die "cannot tell the journal's length ($maxlen)"
# shellcheck disable=SC2046
set -- $(free_blocks base.img 64 4000)
FREE="$*"
refused=0
i=1
while [ "$i" -le 20 ]; do
	case_begin "own$i" "a tag names a block of the journal's own log"
	img=own$i.img
	copy_img base.img "$img"
	# Two to five transactions of one to six free blocks; one tag of one
	# of them (not the last) names journal block L of a later
	# transaction in the log (a descriptor, data or commit block that
	# e2fsck reads after it wrote over it), or, every fifth journal, a
	# block past the log's end.
	awk -v seed="$i" -v free="$FREE" -v max="$maxlen" 'BEGIN {
		srand(seed); split(free, f, " ")
		n = 2 + int(rand() * 4); t = int(rand() * (n - 1)); pos = 1
		for (x = 0; x < n; x++) {
			k[x] = 1 + int(rand() * 6); s[x] = pos
			pos += 2 + k[x] + (x == t)
		}
		x = t + 1 + int(rand() * (n - t - 1))
		l = s[x] + int(rand() * (2 + k[x]))
		if (seed % 5 == 0) l = pos + int(rand() * (max - pos))
		print n, t, l > "/dev/stderr"
		print "features revoke 64bit csum3"
		for (x = 0; x < n; x++) {
			print "txn"; line = "log"
			for (j = 0; j < k[x]; j++) line = line " " f[1 + int(rand() * 64)]
			if (x == t) line = line " OWN"
			print line; print "commit"
		}
	}' > "own$i.tmpl" 2> "own$i.plan"
	read -r ntx owntx lblk < "own$i.plan"
	pblk=$(bmap "$img" "$lblk")
	sed "s/OWN/$pblk/" "own$i.tmpl" > "own$i.jw"
	sed 's/^/    > /' "own$i.jw"
	"$JWRITE" "$img" < "own$i.jw" > /dev/null || die "jwrite failed on own$i"
	say "(transaction $((owntx + 1)) of $ntx logs journal block $lblk, filesystem block $pblk)"
	sum=$(sha256_of "$img")
	jrecover -n "$img"
	[ "$RUN_RC" -eq 8 ] || fail "own$i: jrecover -n exited $RUN_RC, not 8"
	jrecover "$img"
	[ "$RUN_RC" -eq 8 ] || fail "own$i: jrecover exited $RUN_RC, not 8"
	grep -q "Journal tag names a block of the journal itself" "$SCRATCH/.run.out" ||
		fail "own$i: the refusal does not say why"
	grep -q "nothing was written" "$SCRATCH/.run.out" ||
		fail "own$i: the refusal does not say nothing was written"
	[ "$(sha256_of "$img")" = "$sum" ] || fail "own$i: jrecover wrote to the image"
	jrecover -l "$img"
	grep -q "FS block $pblk from journal block [0-9]* (transaction [0-9]*): a block of the journal itself: the replay refuses the log" \
		"$SCRATCH/.run.out" || fail "own$i: -l does not list the tag as refused"
	grep -q "FS block $pblk from .*: written" "$SCRATCH/.run.out" &&
		fail "own$i: -l lists the tag as written"
	[ "$(sha256_of "$img")" = "$sum" ] || fail "own$i: -l wrote to the image"
	[ "$RUN_RC" -eq 8 ] || [ "$RUN_RC" -eq 0 ] || fail "own$i: -l exited $RUN_RC"
	# For the record: e2fsck replays it, overwriting its log as it goes.
	copy_img "$img" "own$i.e2fsck.img"
	run e2fsck -y -E journal_only "own$i.e2fsck.img"
	[ "$(sha256_of "$img")" = "$sum" ] && refused=$((refused + 1))
	rm -f "$img" "own$i.e2fsck.img"
	case_end
	i=$((i + 1))
done
say "$refused of 20 journals that overwrite their own log were refused"

# The journal superblock's block: replayed, then the reset superblock goes
# over it, in e2fsck and in jrecover alike.
copy_img base.img ownsb.img
jw_sb=$(bmap ownsb.img 0)
set -- $FREE
"$JWRITE" ownsb.img > /dev/null <<EOF || die "jwrite failed on ownsb"
features revoke 64bit csum3
txn
log $1 $jw_sb $2
commit
txn
log $3
commit
EOF
oracle_compare -e 1 ownsb.img

# ==== 2. inode 8 and a journal UUID ====================================================
copy_img base.img extuuid.img
set -- $FREE
"$JWRITE" extuuid.img > /dev/null <<EOF || die "jwrite failed on extuuid"
features revoke 64bit csum3
txn
log $1 $2
commit
EOF
debugfs -w -R "ssv journal_uuid 11111111-2222-3333-4444-555555555555" extuuid.img 2>/dev/null
dumpe2fs -h extuuid.img 2>/dev/null | grep -q '^Journal inode: *8' || die "extuuid: no journal inode"
# The oracle writes nothing and exits 12; jrecover refuses with 8.
oracle_compare -e 8 -E 12 extuuid.img
NCASES=$((NCASES + 1))
sum=$(sha256_of extuuid.img)
jrecover extuuid.img
grep -q "Filesystem uses an external journal" "$SCRATCH/.run.out" ||
	fail "extuuid: the refusal does not name the external journal"
[ "$(sha256_of extuuid.img)" = "$sum" ] || fail "extuuid: jrecover wrote"
copy_img extuuid.img extuuid.e2fsck.img
run e2fsck -y -E journal_only extuuid.e2fsck.img
grep -q "Can't find external journal" "$SCRATCH/.run.out" ||
	fail "extuuid: e2fsck no longer says it cannot find the external journal"
cmp -s extuuid.img extuuid.e2fsck.img || fail "extuuid: e2fsck wrote (the oracle changed)"

# ==== 3. has_journal clear, needs_recovery set, a log in inode 8 =======================
case_begin noflag "has_journal clear, needs_recovery set, a live log"
copy_img base.img noflag.img
set -- $FREE
"$JWRITE" noflag.img > /dev/null <<EOF || die "jwrite failed on noflag"
features revoke 64bit csum3
txn
log $1 $2 $3
commit
EOF
copy_img noflag.img noflag.withflag.img
debugfs -w -R "feature ^has_journal" noflag.img 2>/dev/null
flagged noflag.img || die "noflag: needs_recovery is not set"
sum=$(sha256_of noflag.img)
jrecover -n noflag.img
[ "$RUN_RC" -eq 8 ] || fail "noflag: jrecover -n exited $RUN_RC, not 8"
grep -q "has_journal flag is clear, but it needs recovery and its journal inode holds a log" \
	"$SCRATCH/.run.out" || fail "noflag: -n does not say what state this is"
grep -q "feature has_journal" "$SCRATCH/.run.out" || fail "noflag: -n does not say what to do"
jrecover noflag.img
[ "$RUN_RC" -eq 8 ] || fail "noflag: jrecover exited $RUN_RC, not 8"
[ "$(sha256_of noflag.img)" = "$sum" ] || fail "noflag: jrecover wrote"
jrecover -i noflag.img
[ "$RUN_RC" -eq 0 ] || fail "noflag: -i exited $RUN_RC"
jrecover -s noflag.dump noflag.img
[ "$RUN_RC" -eq 0 ] || fail "noflag: -s exited $RUN_RC"
debugfs -R "dump <8> noflag.journal" noflag.img 2>/dev/null
cmp -n "$(stat -c %s noflag.journal)" noflag.dump noflag.journal ||
	fail "noflag: -s did not save the journal inode's log"
[ "$(sha256_of noflag.img)" = "$sum" ] || fail "noflag: -i or -s wrote"
# e2fsck, for the record: -n exits 0 (a script would read it as clean),
# -y deletes the journal without replaying it.
copy_img noflag.img noflag.e2fsck.img
run e2fsck -n -E journal_only noflag.e2fsck.img
[ "$RUN_RC" -eq 0 ] || say "(e2fsck -n now exits $RUN_RC here)"
run e2fsck -y -E journal_only noflag.e2fsck.img
case_end
# What the message advises: set the flag again; then the replay is e2fsck's.
debugfs -w -R "feature has_journal" noflag.img 2>/dev/null
oracle_compare -e 1 noflag.img

# ==== 4. an image shorter than the filesystem ==========================================
case_begin short "the image ends before s_blocks_count"
copy_img base.img short.img
set -- $FREE
"$JWRITE" short.img > /dev/null <<EOF || die "jwrite failed on short"
features revoke 64bit csum3
txn
log $1 $2
commit
EOF
truncate -s 15M short.img
sum=$(sha256_of short.img)
jrecover -n short.img
[ "$RUN_RC" -eq 8 ] || fail "short: jrecover -n exited $RUN_RC, not 8"
jrecover short.img
[ "$RUN_RC" -eq 8 ] || fail "short: jrecover exited $RUN_RC, not 8"
grep -q "smaller than the filesystem" "$SCRATCH/.run.out" ||
	fail "short: the refusal does not say the image is short"
[ "$(sha256_of short.img)" = "$sum" ] || fail "short: jrecover wrote"
[ "$(stat -c %s short.img)" = $((15 << 20)) ] || fail "short: the image's size changed"
copy_img short.img short.e2fsck.img
run e2fsck -y -E journal_only short.e2fsck.img
[ "$RUN_RC" -eq 8 ] || fail "short: e2fsck exited $RUN_RC (the oracle changed)"
case_end

# ==== 5. no space left ==================================================================
if [ "$(id -u)" != 0 ] || ! command -v mount > /dev/null 2>&1; then
	say "(not root: the full-filesystem cases are not run)"
	end_test
fi
TMNT=$SCRATCH/tmnt
mkdir -p "$TMNT"
trap '_rc=$?; umount "$TMNT" 2>/dev/null; (exit $_rc); _cleanup' EXIT
# About 3000 blocks to write into holes of a sparse 32 MiB image.
mkimg sparse.img 32M -b 1024 -O metadata_csum,64bit
"$JWRITE" sparse.img > /dev/null <<EOF || die "jwrite failed on sparse"
features revoke 64bit csum3
bulk 30 3000 100
EOF
used=$(du -k sparse.img | cut -f1)
if ! mount -t tmpfs -o size=$((used + 600))k tmpfs "$TMNT" 2> /dev/null; then
	say "(tmpfs cannot be mounted here: the full-filesystem cases are not run)"
	end_test
fi
case_begin enospc "the image's filesystem fills up half way"
cp --sparse=always sparse.img "$TMNT/sparse.img" || die "cannot copy to the tmpfs"
jrecover "$TMNT/sparse.img"
[ "$RUN_RC" -eq 12 ] || fail "enospc: jrecover exited $RUN_RC, not 12"
grep -q "the replay stopped part way" "$SCRATCH/.run.out" ||
	fail "enospc: jrecover does not say it stopped part way"
grep -q "nothing was written" "$SCRATCH/.run.out" &&
	fail "enospc: jrecover says nothing was written"
flagged "$TMNT/sparse.img" || fail "enospc: needs_recovery was cleared"
# Moved where there is room, the rerun finishes it: e2fsck's result.
cp --sparse=always "$TMNT/sparse.img" sparse.rerun.img
rm -f "$TMNT/sparse.img"
jrecover sparse.rerun.img
[ "$RUN_RC" -eq 1 ] || fail "enospc: the rerun exited $RUN_RC, not 1"
copy_img sparse.img sparse.e2fsck.img
run e2fsck -y -E journal_only sparse.e2fsck.img
imgcmp_case "enospc: the rerun differs from e2fsck's replay" sparse.e2fsck.img \
	sparse.rerun.img -s -J "$(jsb_offset sparse.img)"
case_end
umount "$TMNT"

case_begin undofull "-z FILE on a filesystem with no inode left"
if mount -t tmpfs -o size=64k,nr_inodes=2 tmpfs "$TMNT" 2> /dev/null; then
	: > "$TMNT/x" 2> /dev/null
	copy_img base.img undofull.img
	set -- $FREE
	"$JWRITE" undofull.img > /dev/null <<EOF || die "jwrite failed on undofull"
features revoke 64bit csum3
txn
log $1 $2
commit
EOF
	sum=$(sha256_of undofull.img)
	before=$(ls -A "$TMNT")
	jrecover -z "$TMNT/u.undo" undofull.img
	[ "$RUN_RC" -eq 8 ] || fail "undofull: jrecover -z exited $RUN_RC, not 8"
	grep -q "while creating a new undo file" "$SCRATCH/.run.out" ||
		fail "undofull: jrecover does not say why"
	[ "$(sha256_of undofull.img)" = "$sum" ] || fail "undofull: jrecover wrote"
	[ "$(ls -A "$TMNT")" = "$before" ] || fail "undofull: files were left on the full filesystem"
	umount "$TMNT"
else
	say "(tmpfs with nr_inodes cannot be mounted: not run)"
fi
case_end

end_test
