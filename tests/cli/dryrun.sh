#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# dryrun.sh --- jrecover -n reports what a replay would do, and the replay
# then does exactly that (jrecover(8), -n):
#  - the blocks it would write, the copies revoke records cancel, the copies
#    skipped on a bad data checksum (jwrite's badcsum on a csum3 journal)
#    and the tid range, in the text report and in --json, equal the numbers
#    of the real replay that follows, and the numbers the journal calls for:
#    known from the jwrite script, or worked out from the -l listing (a
#    copy logged at tid T is cancelled by a revoke record of its block at a
#    tid >= T; tids compared modulo 2^32 here never wrap) for a bulk
#    journal;
#  - -n exits with the status of the replay (1, or 4 where the replay
#    leaves problems; -i exits 0), and writes nothing: the image's sha256
#    is unchanged after -n, -n -v, -n --json and -i;
#  - -n's "would write N blocks (M bytes)" and --json's write_blocks and
#    write_bytes are what the replay then reports it wrote: each replayed
#    block once (its copy -l calls "written"), plus the journal superblock
#    and the filesystem superblock; copies_written + superseded = replayed.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq

# text_numbers FILE: "REPLAYED TRANSACTIONS FIRST-LAST REVOKED BADCSUM" from
# the report line of a replay or dry run.
text_numbers() {
	sed -n 's/^.*: \(would replay\|replayed\) \([0-9]*\) blocks\{0,1\} from \([0-9]*\) transactions\{0,1\} (tid \([0-9]*-[0-9]*\)); \([0-9]*\) skipped by revoke records, \([0-9]*\) on bad checksums.*$/\2 \3 \4 \5 \6/p' "$1"
}

# dry_case NAME IMG EXPECT_RC "REPLAYED TRANSACTIONS FIRST-LAST REVOKED BADCSUM"
dry_case() {
	d_n=$1
	d_img=$2
	d_rc=$3
	d_want=$4
	case_begin "$d_n" "expect $d_want, replay exit $d_rc"
	d_sum=$(sha256_of "$d_img")

	jrecover -i "$d_img"
	[ "$RUN_RC" -eq 0 ] || fail "$d_n: -i exited $RUN_RC"
	jrecover -n -v "$d_img"
	[ "$RUN_RC" -eq "$d_rc" ] || fail "$d_n: -n -v exited $RUN_RC, not $d_rc"
	jr "$d_n.n.txt" "$d_n.n.err" -n "$d_img"
	[ "$RUN_RC" -eq "$d_rc" ] || fail "$d_n: -n exited $RUN_RC, not $d_rc"
	d_bs=$(img_bs "$d_img")
	d_cw=$("$JRECOVER" -l --json "$d_img" |
		jq -s '[.[] | select(.type == "fate" and .fate == "written")] | length')
	d_w=$((d_cw + 2))
	grep -q "would write $d_w blocks ($((d_w * d_bs)) bytes), superblocks included; needs_recovery is set" "$d_n.n.txt" ||
		fail "$d_n: -n does not say it would write $d_w blocks"
	d_dry=$(text_numbers "$d_n.n.txt")
	[ "$d_dry" = "$d_want" ] || fail "$d_n: -n says '$d_dry', the journal calls for '$d_want'"
	grep -q "would replay" "$d_n.n.txt" || fail "$d_n: -n does not say 'would replay'"
	jr "$d_n.n.json" "$d_n.n.jerr" -n --json "$d_img"
	[ "$RUN_RC" -eq "$d_rc" ] || fail "$d_n: -n --json exited $RUN_RC, not $d_rc"
	jq_is "$d_n.n.json" '"\(.exit) \(.needs_recovery) \(.write_blocks) \(.write_bytes)"' \
		"$d_rc true $d_w $((d_w * d_bs))" "$d_n: -n --json"
	d_jdry=$(jq -r '"\(.replayed) \(.log.transactions) \(.log.first_tid)-\(.log.end_tid - 1) \(.revoked) \(.bad_checksum)"' "$d_n.n.json")
	[ "$d_jdry" = "$d_want" ] || fail "$d_n: -n --json says '$d_jdry', the journal calls for '$d_want'"
	jq_is "$d_n.n.json" '"\(.copies_written) \(.copies_written + .superseded)"' \
		"$d_cw $(echo "$d_want" | cut -d' ' -f1)" "$d_n: -n --json copies"
	[ "$(sha256_of "$d_img")" = "$d_sum" ] || fail "$d_n: -i or -n changed the image"

	copy_img "$d_img" "$d_n.text.img"
	jr "$d_n.r.txt" "$d_n.r.err" "$d_n.text.img"
	[ "$RUN_RC" -eq "$d_rc" ] || fail "$d_n: the replay exited $RUN_RC, not $d_rc"
	d_real=$(text_numbers "$d_n.r.txt")
	[ "$d_real" = "$d_dry" ] || fail "$d_n: the replay says '$d_real', -n said '$d_dry'"
	copy_img "$d_img" "$d_n.json.img"
	jr "$d_n.r.json" "$d_n.r.jerr" --json "$d_n.json.img"
	d_jreal=$(jq -r '"\(.replayed) \(.log.transactions) \(.log.first_tid)-\(.log.end_tid - 1) \(.revoked) \(.bad_checksum)"' "$d_n.r.json")
	[ "$d_jreal" = "$d_jdry" ] || fail "$d_n: the replay's --json says '$d_jreal', -n --json said '$d_jdry'"
	jq_is "$d_n.r.json" '"\(.exit) \(.write_blocks) \(.write_bytes) \(.fs_errors)"' \
		"$(jq -r '"\(.exit) \(.write_blocks) \(.write_bytes) \(.fs_errors)"' "$d_n.n.json")" \
		"$d_n: the replay against -n --json"
	# What -n reads is what the replay wrote: the same bytes both ways.
	"$IMGCMP" -s "$d_n.text.img" "$d_n.json.img" > /dev/null ||
		fail "$d_n: two replays of the same image differ"
	case_end
}

# listing_numbers IMG: "REPLAYED TRANSACTIONS FIRST-LAST REVOKED 0" worked out
# from jrecover -l --json (for journals without bad checksums).
listing_numbers() {
	"$JRECOVER" -l --json "$1" | jq -r '
		if .type == "tag" then "T \(.tid) \(.fs_block)"
		elif .type == "revoke" then "r \(.tid) \(.fs_block)"
		elif .type == "commit" and .replayed then "C \(.tid)"
		else empty end' | awk '
		$1 == "C" { ok[$2] = 1; if (first == "") first = $2; last = $2; n++ }
		$1 == "T" { tid[++t] = $2; blk[t] = $3 }
		$1 == "r" { r[++nr] = $2 " " $3 }
		END {
			# Only committed transactions count, revokes included.
			for (i = 1; i <= nr; i++) {
				split(r[i], a, " ")
				if (ok[a[1]] && a[1] > rev[a[2]]) rev[a[2]] = a[1]
			}
			for (i = 1; i <= t; i++) {
				if (!ok[tid[i]]) continue
				if ((blk[i] in rev) && rev[blk[i]] >= tid[i]) cancelled++
				else written++
			}
			printf "%d %d %s-%s %d 0\n", written, n, first, last, cancelled
		}'
}

set_format 4k-64-v3

# --- std_workload (debugfs): T1..T6, 13 copies, 3 cancelled -----------------------
img=std.img
mkimg_fmt "$img"
std_workload "$img"
want=$(listing_numbers "$img")
[ "$want" = "10 6 1-6 3 0" ] || fail "std: the listing says '$want', std_workload is '10 6 1-6 3 0'"
dry_case std "$img" 1 "10 6 1-6 3 0"

# --- csum3 with bad data checksums, tids from 1000 ------------------------------------
img=csum.img
mkimg_fmt "$img"
# shellcheck disable=SC2046
set -- $(free_blocks "$img" 30)
B=$1
# T1000 logs B..B+7 with B+2 and B+5 bad; T1001 revokes B, B+2 (bad: its
# copy is not written either way; the revoke counts first) and logs B+10,
# B+11 (bad); T1002 logs B again, B+12, and revokes B+12 in the same
# transaction; T1003 logs B+13, uncommitted.
#   written: T1000 B+1 B+3 B+4 B+6 B+7 (5), T1001 B+10 (1), T1002 B (1) = 7
#   cancelled by revoke: T1000 B, B+2; T1002 B+12 = 3
#   bad checksum: T1000 B+5, T1001 B+11 = 2
jw "$img" <<EOF
features revoke 64bit csum3
sequence 1000
txn
log $B $((B + 1))
log $((B + 2)) badcsum
log $((B + 3)) $((B + 4))
log $((B + 5)) badcsum
log $((B + 6)) $((B + 7))
commit
txn
revoke $B $((B + 2))
log $((B + 10))
log $((B + 11)) badcsum
commit
txn
log $B $((B + 12))
revoke $((B + 12))
commit
txn
log $((B + 13))
nocommit
EOF
dry_case csum "$img" 4 "7 3 1000-1002 3 2"

# --- a bulk journal: 200 transactions, 20000 revoke records, half of them
# naming a block logged earlier -------------------------------------------------------
img=bulk.img
mkimg "$img" 64M -J size=16
jw "$img" <<EOF
features revoke 64bit csum3
bulk 200 20000 8 hit=50
EOF
want=$(listing_numbers "$img")
say "bulk: the listing calls for '$want'"
case $want in
*" 0 0") fail "bulk: no copy cancelled: the journal is not what the test meant" ;;
esac
dry_case bulk "$img" 1 "$want"

end_test
