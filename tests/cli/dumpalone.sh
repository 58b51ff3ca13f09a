#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# dumpalone.sh --- a saved journal dump read on its own, with no filesystem
# (jrecover -i DUMP, -l DUMP, -s FILE DUMP, or -j DUMP without a DEVICE),
# and the replay plan of -l (what a replay does with each tag):
#  - -i and -l on the dump alone say what the same options say of the
#    filesystem the dump was saved from (and of -j DUMP IMG), in every
#    journal field, text and JSON; "filesystem" is null in JSON and the
#    text says the dump is a saved journal with no filesystem; -l's text
#    and JSON listings agree, and -l says what debugfs's logdump -f says
#    of the dump with no filesystem open;
#  - the plan against e2fsck: on a journal with a block logged twice, a
#    revoke record cancelling an earlier copy and a later copy past it,
#    an escaped block, bad data checksums (one on the later of two copies,
#    so the earlier copy stays) and an uncommitted last transaction, the
#    blocks marked "written" are exactly the blocks e2fsck -E journal_only
#    changes outside the superblock and the journal, each holding the
#    journal block the plan names; jrecover's replay is e2fsck's;
#    LIBRECOVER_DEBUG=full_revoke gives the same plan;
#  - a tag past the filesystem's end: "past_end" with the filesystem (whose
#    replay refuses, exit 8), not checked ("end_checked": false) alone;
#  - a corrupt revoke block in a committed transaction: every tag
#    "not_replayed", as the replay (exit 8) writes none;
#  - a replay or -n of a dump alone, as DEVICE or as -j without a DEVICE
#    (with -z too), or -i with the dump as DEVICE and a -j journal:
#    refused with exit 16 and a message naming -j; a file
#    that is neither a filesystem nor a dump: exit 8 (RECOVER_ET_NOT_DUMP
#    with -j alone);
#  - a dump whose superblock checksum fails, read alone: the checksum
#    error (exit 8), not the filesystem's bad magic; a replay of it alone
#    is still a usage error (16);
#  - -s of a dump alone writes a copy of it;
#  - nothing is ever written to the dump or the image (sha256 before and
#    after every run).
# Formats: 4 KiB blocks with 64bit and csum3, 1 KiB blocks without
# journal checksums (the dump's block size comes from its own superblock).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq

# unchanged WHAT FILE SUM: FILE still has sha256 SUM.
unchanged() {
	[ "$(sha256_of "$2")" = "$3" ] || fail "$1 changed $2"
}

# nofs FILE: -l --json objects without the field that says whether the
# filesystem's end was checked.
nofs() {
	jq -c 'del(.end_checked)' < "$1"
}

for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	case $FMT_CSUM in
	v3) F="64bit csum3"; BAD=badcsum ;;
	*) F=; BAD= ;;
	esac
	bs=$FMT_BS
	case_begin "plan-$fmt"
	img=plan-$fmt.img
	mkimg_fmt "$img"
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 10)
	B=$1
	[ "${10}" -eq $((B + 9)) ] || die "no 10 contiguous free blocks in $img"
	jw "$img" <<-EOF
	features revoke $F
	txn
	log $B $((B + 1)) $((B + 2)) $((B + 6))
	log $((B + 3)) escape
	log $((B + 4)) $BAD
	commit
	txn
	log $B
	revoke $((B + 1)) $((B + 9))
	commit
	txn
	log $((B + 2)) $BAD
	log $((B + 1)) $((B + 5))
	revoke $((B + 6))
	commit
	txn
	log $((B + 7))
	nocommit
	EOF
	dump=plan-$fmt.dump
	debugfs -R "dump <8> $dump" "$img" 2>/dev/null
	[ -s "$dump" ] || die "debugfs did not dump the journal of $img"
	isum=$(sha256_of "$img")
	dsum=$(sha256_of "$dump")

	# -i: alone, with -j and no DEVICE, with the filesystem.
	jr alone.i alone.ierr -i --json "$dump"
	[ "$RUN_RC" -eq 0 ] || fail "plan-$fmt: -i DUMP exited $RUN_RC"
	jr j.i j.ierr -i --json -j "$dump"
	[ "$RUN_RC" -eq 0 ] || fail "plan-$fmt: -i -j DUMP exited $RUN_RC"
	jr fs.i fs.ierr -i --json "$img"
	jr fsj.i fsj.ierr -i --json -j "$dump" "$img"
	cmp -s alone.i j.i || fail "plan-$fmt: -i DUMP and -i -j DUMP differ"
	jq_is alone.i '"\(.filesystem) \(.needs_recovery) \(.journal.source) \(.journal.block_size)"' \
		"null null dump $bs" "plan-$fmt: -i --json DUMP"
	for k in journal log; do
		[ "$(jq -c ".$k" alone.i)" = "$(jq -c ".$k" fsj.i)" ] ||
			fail "plan-$fmt: -i DUMP and -i -j DUMP IMG differ in .$k"
	done
	[ "$(jq -c '.journal | del(.source)' alone.i)" = "$(jq -c '.journal | del(.source)' fs.i)" ] ||
		fail "plan-$fmt: -i DUMP and -i IMG differ in the journal superblock"
	[ "$(jq -c .log alone.i)" = "$(jq -c .log fs.i)" ] ||
		fail "plan-$fmt: -i DUMP and -i IMG differ in the log"
	jr alone.it alone.iterr -i "$dump"
	grep -q "^Filesystem: *none: $dump is a saved journal on its own" alone.it ||
		fail "plan-$fmt: -i DUMP does not say the dump is a saved journal on its own"
	jr fs.it fs.iterr -i "$img"
	grep -v -e '^Filesystem:' -e '^needs_recovery:' -e '^Journal source:' alone.it > a.lines
	grep -v -e '^Filesystem:' -e '^needs_recovery:' -e '^Journal source:' fs.it > f.lines
	diff -u f.lines a.lines > i.diff ||
		{ sed 's/^/    /' i.diff; fail "plan-$fmt: -i DUMP (+) and -i IMG (-) differ"; }

	# -l: alone, with -j and no DEVICE, with the filesystem; text and JSON.
	jr alone.l alone.lerr -l --json "$dump"
	[ "$RUN_RC" -eq 0 ] || fail "plan-$fmt: -l --json DUMP exited $RUN_RC"
	[ -s alone.lerr ] && fail "plan-$fmt: -l --json DUMP printed on stderr"
	jr j.l j.lerr -l --json -j "$dump"
	cmp -s alone.l j.l || fail "plan-$fmt: -l DUMP and -l -j DUMP differ"
	jr fs.l fs.lerr -l --json "$img"
	nofs alone.l > a.nofs
	nofs fs.l > f.nofs
	diff -u f.nofs a.nofs > l.diff ||
		{ sed 's/^/    /' l.diff; fail "plan-$fmt: -l DUMP (+) and -l IMG (-) differ"; }
	jq_is -s alone.l '[.[] | select(.type == "fate") | .end_checked] | unique | tostring' \
		'[false]' "plan-$fmt: -l DUMP end_checked"
	jq_is -s fs.l '[.[] | select(.type == "fate") | .end_checked] | unique | tostring' \
		'[true]' "plan-$fmt: -l IMG end_checked"
	[ "$(tail -n 1 alone.l | jq -r .type)" = end ] ||
		fail "plan-$fmt: -l --json DUMP does not end with the end object"
	jr alone.lt alone.lterr -l "$dump"
	[ "$RUN_RC" -eq 0 ] || fail "plan-$fmt: -l DUMP exited $RUN_RC"
	head -n 1 alone.lt | grep -q "^$dump: a saved journal (no filesystem)" ||
		fail "plan-$fmt: -l DUMP does not begin by saying it is a saved journal"
	grep -q '^Replay plan (no filesystem: tags past its end not checked):$' alone.lt ||
		fail "plan-$fmt: -l DUMP has no replay plan saying the end is not checked"
	list_full_json alone.l > a.fj
	list_full_text alone.lt > a.ft
	diff -u a.fj a.ft > lt.diff ||
		{ sed 's/^/    /' lt.diff; fail "plan-$fmt: -l DUMP text (+) and JSON (-) differ"; }
	LIBRECOVER_DEBUG=full_revoke $TIMEOUT "$JRECOVER" -l --json "$dump" > full.l 2>&1
	cmp -s alone.l full.l || fail "plan-$fmt: LIBRECOVER_DEBUG=full_revoke changes -l"

	# Against debugfs's own reading of the dump alone (logdump -f with
	# no filesystem open), as list.sh compares -l with logdump.
	debugfs -R "logdump -a -f $dump" 2>/dev/null > ld.raw
	grep -q '^Found expected sequence' ld.raw ||
		die "plan-$fmt: logdump -f shows nothing"
	logdump_norm_text < ld.raw > ld.norm
	list_norm alone.l > ld.list
	diff -u ld.norm ld.list > ld.diff ||
		{ sed 's/^/    /' ld.diff; fail "plan-$fmt: -l DUMP (+) and logdump -f DUMP (-) differ"; }

	# The fates the journal above must get.
	jq -r 'select(.type == "fate") | "\(.tid) \(.fs_block - '"$B"') \(.fate) \(.by_tid)"' \
		alone.l | tr '\n' ';' > fates
	if [ -n "$BAD" ]; then
		want="1 0 superseded 2;1 1 revoked 2;1 2 written null;1 6 revoked 3;1 3 written null;1 4 bad_checksum null;2 0 written null;3 2 bad_checksum null;3 1 written null;3 5 written null;"
	else
		want="1 0 superseded 2;1 1 revoked 2;1 2 superseded 3;1 6 revoked 3;1 3 written null;1 4 written null;2 0 written null;3 2 written null;3 1 written null;3 5 written null;"
	fi
	[ "$(cat fates)" = "$want" ] ||
		fail "plan-$fmt: the fates (tid block-$B fate by) are '$(cat fates)', expected '$want'"

	# The plan against e2fsck's replay, and jrecover's.
	copy_img "$img" e2fsck.img
	run e2fsck -y -E journal_only e2fsck.img
	copy_img "$img" jrecover.img
	jrecover jrecover.img
	"$IMGCMP" -s jrecover.img e2fsck.img > /dev/null ||
		fail "plan-$fmt: jrecover's replay is not e2fsck's"
	jsb=$(jsb_offset "$img")
	{ debugfs -R "blocks <8>" "$img" 2>/dev/null | tr ' ' '\n'
	  say $((jsb / bs)) $((1024 / bs)) | tr ' ' '\n'; } | sed '/^$/d' | sort -u > skip
	"$IMGCMP" -l "$img" e2fsck.img | sort -u > changed.all
	comm -23 changed.all skip > changed
	jq -r 'select(.type == "fate" and .fate == "written") | .fs_block' alone.l |
		sort -u > written
	say "e2fsck changed $(tr '\n' ' ' < changed); the plan writes $(tr '\n' ' ' < written)"
	cmp -s changed written ||
		fail "plan-$fmt: the blocks the plan writes are not those e2fsck changed"
	jq -r 'select(.type == "fate" and .fate == "written") | "\(.fs_block) \(.block) \(.flags)"' \
		alone.l > wlist
	while read -r fsb jb fl; do
		dd if="$dump" bs="$bs" skip="$jb" count=1 2>/dev/null > want.blk
		# An escaped block gets the journal magic back.
		[ $((fl & 1)) -eq 1 ] && poke want.blk 0 c03b3998
		getblk e2fsck.img "$fsb" | cmp -s - want.blk ||
			fail "plan-$fmt: block $fsb is not journal block $jb, as the plan says"
	done < wlist

	# -s of the dump alone: a copy of it.
	rm -f copy.dump
	jr s.out s.err -s copy.dump --json "$dump"
	[ "$RUN_RC" -eq 0 ] || fail "plan-$fmt: -s DUMP exited $RUN_RC"
	jq_is s.out '"\(.filesystem) \(.sha256)"' "null $dsum" "plan-$fmt: -s --json DUMP"
	[ "$(sha256_of copy.dump)" = "$dsum" ] || fail "plan-$fmt: -s DUMP did not copy the dump"

	# A replay or -n of the dump alone: a usage error naming -j.
	for args in "$dump" "-n $dump" "-j $dump" "-n -j $dump" "-z undo.e2undo $dump" "--json $dump" \
		    "-i -j $dump $dump"; do
		# shellcheck disable=SC2086
		jr r.out r.err $args
		[ "$RUN_RC" -eq 16 ] || fail "plan-$fmt: jrecover $args exited $RUN_RC, not 16"
		grep -q "$dump is a saved journal, not a filesystem: .* -j $dump DEVICE" r.err ||
			fail "plan-$fmt: jrecover $args does not say to give the dump with -j"
	done
	[ -e undo.e2undo ] && fail "plan-$fmt: -z with a dump alone left an undo file"
	unchanged "plan-$fmt: jrecover" "$dump" "$dsum"
	unchanged "plan-$fmt: jrecover" "$img" "$isum"
	case_end
done

# --- a tag past the filesystem's end ---------------------------------------------
set_format 4k-64-v3
case_begin "past-end"
mkimg_fmt past.img
B=$(free_blocks past.img 1)
end=$(dumpe2fs -h past.img 2>/dev/null | sed -n 's/^Block count: *//p')
jw past.img <<-EOF
allow-past-end
features revoke 64bit csum3
txn
log $B $((end + 5))
commit
EOF
debugfs -R "dump <8> past.dump" past.img 2>/dev/null
isum=$(sha256_of past.img)
dsum=$(sha256_of past.dump)
jr past.fs past.fserr -l --json past.img
jq_is past.fs "select(.type == \"fate\" and .fs_block == $((end + 5))) | \"\(.fate) \(.end_checked)\"" \
	"past_end true" "past-end: -l IMG"
jr past.al past.alerr -l --json past.dump
jq_is past.al "select(.type == \"fate\" and .fs_block == $((end + 5))) | \"\(.fate) \(.end_checked)\"" \
	"written false" "past-end: -l DUMP"
jrecover -n past.img
[ "$RUN_RC" -eq 8 ] || fail "past-end: jrecover -n IMG exited $RUN_RC, not 8"
unchanged "past-end: jrecover" past.img "$isum"
unchanged "past-end: jrecover" past.dump "$dsum"
case_end

# --- recovery fails: nothing of the log is written -------------------------------
case_begin "fails"
mkimg_fmt fails.img
B=$(free_blocks fails.img 1)
jw fails.img <<-EOF
features revoke 64bit csum3
txn
log $B
commit
txn
log $((B + 1))
revoke $((B + 2)) badcsum
commit
EOF
debugfs -R "dump <8> fails.dump" fails.img 2>/dev/null
jr fails.l fails.lerr -l --json fails.dump
jq_is -s fails.l '[.[] | select(.type == "fate") | .fate] | unique | tostring' \
	'["not_replayed"]' "fails: -l DUMP"
# T2's tags go with T2, which ends the log; T1's are listed.
jq_is -s fails.l '[.[] | select(.type == "fate")] | length' 1 "fails: -l DUMP fate count"
jrecover -n fails.img
[ "$RUN_RC" -eq 8 ] || fail "fails: jrecover -n IMG exited $RUN_RC, not 8"
case_end

# --- a damaged dump: its own error, not the filesystem's ---------------------------
case_begin "badsb"
mkimg_fmt badsb.img
B=$(free_blocks badsb.img 1)
jw badsb.img <<-EOF
features revoke 64bit csum3
badsbcsum
txn
log $B
commit
EOF
debugfs -R "dump <8> badsb.dump" badsb.img 2>/dev/null
bsum=$(sha256_of badsb.dump)
jr bad.fs bad.fserr -i -j badsb.dump badsb.img
[ "$RUN_RC" -eq 8 ] || fail "badsb: -i -j DUMP IMG exited $RUN_RC, not 8"
for args in "-i badsb.dump" "-l -j badsb.dump"; do
	# shellcheck disable=SC2086
	jr bad.out bad.err $args
	[ "$RUN_RC" -eq 8 ] || fail "badsb: jrecover $args exited $RUN_RC, not 8"
	grep -q "Journal superblock checksum does not match" bad.err ||
		fail "badsb: jrecover $args does not give the dump's own error"
done
jrecover badsb.dump
[ "$RUN_RC" -eq 16 ] || fail "badsb: jrecover DUMP exited $RUN_RC, not 16"
unchanged "badsb: jrecover" badsb.dump "$bsum"

# --- neither a filesystem nor a dump ---------------------------------------------
case_begin "not-a-dump"
mkdata random.bin 4096 64 -s 31
rsum=$(sha256_of random.bin)
for opt in -i -l ""; do
	# shellcheck disable=SC2086
	jrecover $opt random.bin
	[ "$RUN_RC" -eq 8 ] || fail "not-a-dump: jrecover $opt random.bin exited $RUN_RC, not 8"
done
jr nd.out nd.err -i --json -j random.bin
[ "$RUN_RC" -eq 8 ] || fail "not-a-dump: -i -j random.bin exited $RUN_RC, not 8"
jq_is nd.out .code RECOVER_ET_NOT_DUMP "not-a-dump: -i --json -j random.bin"
unchanged "not-a-dump: jrecover" random.bin "$rsum"

end_test
