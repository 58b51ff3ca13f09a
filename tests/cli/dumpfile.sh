#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# dumpfile.sh --- jrecover -j DUMP with dumps that are not the simple case
# (tests/integration/dump.sh has the current journal and the journal
# already replayed):
#  - a dump cut short (head -c) inside transaction 3 of 4, at a block
#    boundary inside it, at its commit block, and at the boundary between
#    transactions 2 and 3: jrecover replays transactions 1 and 2 and only
#    them.  The oracle is e2fsck replaying the same image with a journal
#    written with transactions 1 and 2 alone (the same jwrite script minus
#    the last two): the results must be identical outside the journal's
#    log blocks (which still hold transactions 3 and 4 on jrecover's side).
#    -l on the cut dump lists transactions 1 and 2 as replayed and ends
#    with "truncated" at tid 3; -n --json says the same; the message says
#    the dump ends and that the updates from transaction 3 on are lost.
#    The same cut dump replayed into a filesystem whose own journal is not
#    the dump's writes exactly the blocks of transactions 1 and 2 (e2fsck's
#    contents) and leaves the filesystem's journal and flags alone.
#  - files that are not journals: random bytes, an empty file, a dump cut
#    inside its superblock, /dev/null: refused with exit 8, nothing written;
#  - a dump of another filesystem (another UUID): refused with exit 8 and
#    nothing written, with -f too (a refusal that names --foreign-journal,
#    not -f), replayed with --foreign-journal (exit 1): exactly the blocks its log
#    replays change, to what e2fsck writes replaying it on its own
#    filesystem, and the target's journal and flags are left alone.
#  - a dump of a journal with a fast-commit area, listed on its own (-l, no
#    filesystem): its log and the area's scan are listed, exit 0 (this
#    crashed when the area's scan asked the missing filesystem for its
#    inode size).
# The dump files are never changed.
# (pending.sh, kept out of TESTS, checks the block a cut dump is said to end
# at when the cut falls inside a transaction's data blocks.)

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq

# The journal: four transactions, the fourth after the third.
#   T1 log B..B+3      T2 revoke B+1, log B+10, B+11
#   T3 log B+20..B+29  T4 log B+30
script() {
	jw_two "$B" "$JW_FEATURES"
	[ "$1" = 2 ] && return
	cat <<-EOF
	txn
	log $((B + 20))-$((B + 29))
	commit time=1700000003
	txn
	log $((B + 30))
	commit time=1700000004
	EOF
}

# The physical blocks of the journal inode but its superblock, one a line.
journal_log_blocks() {
	debugfs -R "blocks <8>" "$1" 2>/dev/null | tr ' ' '\n' | sed '/^$/d' |
		sed 1d | sort -n
}

# only_in ALLOWED DIFFS WHAT: every block listed in DIFFS must be in ALLOWED.
only_in() {
	sort -n "$2" > "$2.s"
	sort -n "$1" > "$1.s"
	_x=$(comm -23 "$2.s" "$1.s" | tr '\n' ' ')
	[ -z "$_x" ] || fail "$3: blocks $_x differ"
}

for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	case $FMT_CSUM in
	v3) JW_FEATURES="64bit csum3" ;;
	*) JW_FEATURES= ;;
	esac
	base=base-$fmt.img
	mkimg_fmt "$base"
	bs=$FMT_BS
	# shellcheck disable=SC2046
	set -- $(free_blocks "$base" 40)
	B=$1
	[ "${40}" -eq $((B + 39)) ] || die "no 40 contiguous free blocks in $base"

	full=full-$fmt.img
	copy_img "$base" "$full"
	script 4 | jw "$full"
	debugfs -R "dump <8> full-$fmt.dump" "$full" 2>/dev/null
	[ -s "full-$fmt.dump" ] || die "debugfs did not dump the journal"

	# The oracle: the first two transactions alone, replayed by e2fsck.
	two=two-$fmt.img
	copy_img "$base" "$two"
	script 2 | jw "$two"
	run e2fsck -y -E journal_only "$two" || die "e2fsck could not replay $two"

	# Where the transactions are, from jrecover -l on the whole journal
	# (list.sh checks -l against logdump).
	jr full.l full.err -l --json "$full"
	d3=$(jq -r 'select(.type == "descriptor" and .tid == 3) | .block' full.l)
	c3=$(jq -r 'select(.type == "commit" and .tid == 3) | .block' full.l)
	c2=$(jq -r 'select(.type == "commit" and .tid == 2) | .block' full.l)
	[ -n "$d3" ] && [ -n "$c3" ] && [ "$d3" -eq $((c2 + 1)) ] ||
		die "cannot find transaction 3 in the -l listing"
	journal_log_blocks "$full" > jblocks

	# name:bytes  (ends: the journal block the dump ends at, i.e. the
	# first block it does not hold in full)
	for cut in "mid:$(((d3 + 4) * bs + 100))" "commit:$((c3 * bs))" \
		   "boundary:$((d3 * bs))"; do
		name=${cut%%:*}
		bytes=${cut#*:}
		ends=$((bytes / bs))
		c=cut-$name-$fmt
		case_begin "$c" "the dump cut at byte $bytes (journal block $ends)"
		head -c "$bytes" "full-$fmt.dump" > "$c.dump"
		dsum=$(sha256_of "$c.dump")

		# -l: T1 and T2 replayed, then the end of the dump.
		jr "$c.l" "$c.lerr" -l --json -j "$c.dump" "$full"
		[ "$RUN_RC" -eq 0 ] || fail "$c: -l exited $RUN_RC"
		got=$(jq -r 'select(.type == "commit") | "\(.tid):\(.replayed)"' "$c.l" | tr '\n' ' ')
		[ "$got" = "1:true 2:true " ] ||
			fail "$c: -l lists commits $got, expected 1:true 2:true"
		got=$(jq -r 'select(.type == "end") | "\(.tid) \(.end)"' "$c.l")
		[ "$got" = "3 truncated" ] ||
			fail "$c: -l ends with '$got', expected '3 truncated'"

		# -n --json: the same, and nothing written.
		sum=$(sha256_of "$full")
		jr "$c.n" "$c.nerr" -n --json -j "$c.dump" "$full"
		[ "$RUN_RC" -eq 4 ] || fail "$c: -n exited $RUN_RC, not 4 (as the replay)"
		jq_is "$c.n" '"\(.log.first_tid) \(.log.end_tid) \(.log.transactions) \(.log.end)"' \
			"1 3 2 truncated" "$c: -n --json"
		jq_is "$c.n" '"\(.replayed) \(.revoked)"' "5 1" "$c: -n --json"
		[ "$(sha256_of "$full")" = "$sum" ] || fail "$c: -n changed the image"

		# The replay, into the filesystem whose journal the dump is.
		copy_img "$full" "$c.img"
		jrecover -j "$c.dump" "$c.img"
		case $RUN_RC in
		1|4) ;;
		*) fail "$c: jrecover exited $RUN_RC, expected 1 (or 4)" ;;
		esac
		grep -q "dump ends" "$SCRATCH/.run.out" ||
			fail "$c: jrecover did not say that the dump ends"
		grep -q "transaction 3 and any later ones are lost" "$SCRATCH/.run.out" ||
			fail "$c: jrecover did not say that the updates from transaction 3 on are lost"
		if [ "$name" != mid ]; then
			grep -q "dump ends at journal block $ends[^0-9]" "$SCRATCH/.run.out" ||
				fail "$c: jrecover did not say the dump ends at journal block $ends"
		fi
		# A cut dump holds less than the journal it came from: that
		# journal keeps its log (and needs_recovery) for a full replay.
		grep -q "own journal was not reset" "$SCRATCH/.run.out" ||
			fail "$c: jrecover did not leave the filesystem's own journal alone"
		[ "$RUN_RC" -eq 4 ] || fail "$c: a cut dump exited $RUN_RC, not 4"
		jsb=$(jsb_offset "$full")
		"$IMGCMP" -s -l "$two" "$c.img" |
			grep -vx -e "$((jsb / bs))" -e "$((1024 / bs))" > diffs
		say "blocks that differ from e2fsck's replay of T1+T2: $(tr '\n' ' ' < diffs)"
		only_in jblocks diffs "$c: outside the journal's log, jrecover's result and e2fsck's"
		[ "$(getblk "$full" $((jsb / bs)) | sha256sum)" = \
		  "$(getblk "$c.img" $((jsb / bs)) | sha256sum)" ] ||
			fail "$c: the filesystem's own journal superblock changed"
		[ "$(sha256_of "$c.dump")" = "$dsum" ] || fail "$c: jrecover changed the dump"

		# Into a filesystem whose journal is another: the blocks of T1
		# and T2 as e2fsck wrote them, nothing else.
		copy_img "$base" "$c.other.img"
		jrecover -j "$c.dump" "$c.other.img"
		[ "$RUN_RC" -eq 1 ] || [ "$RUN_RC" -eq 4 ] ||
			fail "$c: into another journal's filesystem, jrecover exited $RUN_RC"
		grep -q "own journal was not reset" "$SCRATCH/.run.out" ||
			fail "$c: jrecover did not say it left the journal alone"
		"$IMGCMP" -l "$base" "$c.other.img" > diffs
		printf '%s\n' "$B" $((B + 2)) $((B + 3)) $((B + 10)) $((B + 11)) > want
		diff -u want diffs > d.out ||
			{ sed 's/^/    /' d.out; fail "$c: into another journal's filesystem, other blocks (+) changed than T1 and T2's (-)"; }
		for b in $(cat want); do
			getblk "$two" "$b" > b.want
			getblk "$c.other.img" "$b" | cmp -s - b.want ||
				fail "$c: block $b is not what e2fsck wrote"
		done
		case_end
	done
done

# --- files that are not journals --------------------------------------------
set_format 4k-64-v3
img=full-4k-64-v3.img
sum=$(sha256_of "$img")
mkdata random.dump 4096 64 -s 77
: > empty.dump
head -c 1000 full-4k-64-v3.dump > short.dump
for f in random.dump empty.dump short.dump /dev/null; do
	NCASES=$((NCASES + 1))
	for opt in "" -f -n -l -i; do
		jrecover $opt -j "$f" "$img"
		[ "$RUN_RC" -eq 8 ] || fail "$f: jrecover $opt -j $f exited $RUN_RC, not 8"
	done
	[ "$(sha256_of "$img")" = "$sum" ] || fail "$f: jrecover changed the image"
done

# --- a dump of another filesystem ---------------------------------------------
for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	case_begin "foreign-$fmt" "a dump of another filesystem"
	# shellcheck disable=SC2086
	mkimg "other-$fmt.img" 16M $FMT_MKFS -U 0badc0de-1234-4567-89ab-0123456789ab
	std_workload "other-$fmt.img"
	debugfs -R "dump <8> other-$fmt.dump" "other-$fmt.img" 2>/dev/null
	dsum=$(sha256_of "other-$fmt.dump")
	copy_img "other-$fmt.img" "other-$fmt.e2fsck.img"
	run e2fsck -y -E journal_only "other-$fmt.e2fsck.img" ||
		die "e2fsck could not replay other-$fmt.img"
	# The blocks its replay writes: logged by a committed transaction.
	jr other.l other.err -l --json "other-$fmt.img"
	jq -r 'select(.type == "tag") | .fs_block' other.l | sort -n -u > want.tags

	target=target-$fmt.img
	mkimg_fmt "$target"
	sum=$(sha256_of "$target")
	copy_img "$target" "target-$fmt.orig"
	jrecover -j "other-$fmt.dump" "$target"
	[ "$RUN_RC" -eq 8 ] || fail "foreign-$fmt: jrecover exited $RUN_RC without -f, not 8"
	[ "$(sha256_of "$target")" = "$sum" ] || fail "foreign-$fmt: jrecover without -f changed the image"
	jrecover -n -j "other-$fmt.dump" "$target"
	[ "$RUN_RC" -eq 8 ] || fail "foreign-$fmt: jrecover -n exited $RUN_RC without -f, not 8"

	# -f is not the way: a foreign journal needs its own option, and the
	# refusal names that one, not -f.
	jrecover -f -j "other-$fmt.dump" "$target"
	[ "$RUN_RC" -eq 8 ] || fail "foreign-$fmt: jrecover -f exited $RUN_RC, not 8"
	[ "$(sha256_of "$target")" = "$sum" ] || fail "foreign-$fmt: jrecover -f changed the image"
	grep -q -- "--foreign-journal" "$SCRATCH/.run.out" ||
		fail "foreign-$fmt: the refusal does not name --foreign-journal"
	grep -q -- " -f\b" "$SCRATCH/.run.out" &&
		fail "foreign-$fmt: the refusal advertises -f"

	jrecover --foreign-journal -j "other-$fmt.dump" "$target"
	[ "$RUN_RC" -eq "$(std_expect)" ] ||
		fail "foreign-$fmt: jrecover --foreign-journal exited $RUN_RC, not $(std_expect)"
	grep -q "own journal was not reset" "$SCRATCH/.run.out" ||
		fail "foreign-$fmt: jrecover did not say it left the journal alone"
	"$IMGCMP" -l "target-$fmt.orig" "$target" > diffs
	say "blocks changed: $(tr '\n' ' ' < diffs)"
	[ -s diffs ] || fail "foreign-$fmt: jrecover --foreign-journal changed nothing"
	only_in want.tags diffs "foreign-$fmt: besides the blocks the log replays"
	for b in $(cat want.tags); do
		getblk "other-$fmt.e2fsck.img" "$b" > b.want
		getblk "$target" "$b" | cmp -s - b.want ||
			fail "foreign-$fmt: block $b is not what e2fsck wrote on the dump's own filesystem"
	done
	[ "$(sha256_of "other-$fmt.dump")" = "$dsum" ] || fail "foreign-$fmt: jrecover changed the dump"
	case_end
done

case_begin fc-alone "a dump with a fast-commit area, listed without its filesystem"
mkimg fc.img 8M -b 1024 -O fast_commit
jw -d fc.dump fc.img <<-EOF
	version 2
	features revoke fast_commit
	fcblocks 16
	txn
	log $B fill=0x55
	commit time=1700000001
	EOF
dsum=$(sha256_of fc.dump)
jr list.out list.err -l fc.dump
[ "$RUN_RC" -eq 0 ] || fail "fc-alone: jrecover -l exited $RUN_RC, not 0"
grep -q "^Fast-commit area ends at journal block" list.out ||
	fail "fc-alone: -l does not list the fast-commit area's scan"
grep -q "FS block $B from journal block 2 (transaction 1): written" list.out ||
	fail "fc-alone: -l does not plan the log's one block"
[ "$(sha256_of fc.dump)" = "$dsum" ] || fail "fc-alone: jrecover changed the dump"
case_end

end_test
