#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# pending.sh --- checks of documented behaviour that jrecover 0.1.0 first
# failed, kept as their own test since they were fixed:
#
# 1. (dumpfile.sh) Where a cut dump ends.  jrecover(8), -j: "A dump cut
#    short ... jrecover says where the dump ends and from which transaction
#    on the updates are lost."  When the cut falls inside a transaction's
#    data blocks, the message names the block where the scan stopped (the
#    commit block the transaction would have had, past the end of the file)
#    instead of the block where the dump ends: with transaction 2 in
#    journal blocks 7-27, a dump cut after block 11 is said to end at
#    journal block 28.  dumpfile.sh checks the cuts at a commit block and
#    between two transactions, where the two agree.
#
# 2. (json.sh) The log's block counts cover the replayed transactions.
#    librecover(3), recover_get_stats(): "log_blocks, descriptor_blocks,
#    revoke_blocks, logged_blocks and revoke_records of the replayed
#    transactions".  descriptor_blocks and revoke_blocks also count the
#    blocks of an uncommitted last transaction (which logged_blocks and
#    revoke_records leave out): -i and --json report 2 descriptor blocks
#    and 1 revoke block with 0 revoke records for one committed transaction
#    that logs a block and an uncommitted one that logs a block and
#    revokes another.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq

# --- 1. where a cut dump ends -----------------------------------------------------
for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	img=full-$fmt.img
	mkimg_fmt "$img"
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 30)
	jw "$img" <<-EOS
	features revoke
	txn
	log $1-$(($1 + 3))
	commit
	txn
	log $(($1 + 10))-$(($1 + 29))
	commit
	EOS
	debugfs -R "dump <8> $fmt.dump" "$img" 2>/dev/null
	jr l.json l.err -l --json "$img"
	d2=$(jq -r 'select(.type == "descriptor" and .tid == 2) | .block' l.json)
	[ -n "$d2" ] || die "no descriptor block for transaction 2"
	for extra in 0 100; do
		bytes=$(((d2 + 5) * FMT_BS + extra))
		ends=$((d2 + 5))
		NCASES=$((NCASES + 1))
		head -c "$bytes" "$fmt.dump" > cut.dump
		copy_img "$img" cut.img
		jrecover -j cut.dump cut.img
		grep -q "dump ends at journal block $ends[^0-9]" "$SCRATCH/.run.out" ||
			fail "$fmt, cut at byte $bytes: jrecover does not say the dump ends at journal block $ends"
		grep -q "transaction 2 and any later ones are lost" "$SCRATCH/.run.out" ||
			fail "$fmt, cut at byte $bytes: jrecover does not say the updates from transaction 2 on are lost"
	done
done

# --- 2. counts of the replayed transactions only -------------------------------------
set_format 4k-64-v3
img=uncommitted.img
mkimg_fmt "$img"
# shellcheck disable=SC2046
set -- $(free_blocks "$img" 10)
jw "$img" <<EOS
features revoke 64bit csum3
txn
log $1
commit
txn
log $2
revoke $3
nocommit
EOS
for opt in -i -n; do
	NCASES=$((NCASES + 1))
	jr c.json c.err "$opt" --json "$img"
	jq_is c.json '.log | "\(.transactions) \(.descriptor_blocks) \(.logged_blocks) \(.revoke_blocks) \(.revoke_records)"' \
		"1 1 1 0 0" "$opt --json: the counts of the one committed transaction"
done

end_test
