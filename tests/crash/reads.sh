#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# reads.sh --- how much of the journal a run reads, as the io_manager is
# asked for it (crashrun -r: faultio counts every read request touching the
# journal's extents, per journal block).
#
# The scan reads the journal superblock and the descriptor, revoke and
# commit blocks (and the block where the log ends), not the data blocks
# (a journal without COMPAT_CHECKSUM); the replay reads the copies it
# needs: with data checksums (csum v2/v3) every copy no revoke record
# cancels, whose checksum decides whether it is written; without, only the
# copies it writes.  A read the scan takes ahead may run past a descriptor
# into its data blocks when a run of log blocks between two descriptors'
# data is shorter than the one before it: bounded below by OVER, a
# transaction's worth, and zero once transactions look alike.
#   bulk-FMT     jwrite's bulk shape: 12 transactions alike (revoke blocks,
#                a descriptor, 40 logged blocks, a commit), 1% of the
#                records revoking earlier copies
#   relog-FMT    6 transactions logging the same 8 blocks again, with
#                revokes between: the replay writes each block once, its
#                last copy, in one write request for the run of blocks
# each as a dry run and a replay, in a 4 KiB 64-bit csum v3 journal and a
# 1 KiB 32-bit one without checksums.  Before this, the scan read the whole
# log and the replay read large chunks around each copy: about 1.3 to 2
# passes over the log.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

need_built "$CRASHRUN" "$JWRITE"
command -v jq >/dev/null 2>&1 || skip "jq not found"

# watch_args IMG: crashrun -r options covering the journal inode's extents
watch_args() {
	_bs=$(img_bs "$1")
	debugfs -c -R "stat <8>" "$1" 2>/dev/null |
		tr ',' '\n' | sed -n 's/.*([0-9]*-*[0-9]*):\([0-9]*\)-\([0-9]*\).*/\1 \2/p;s/.*([0-9]*):\([0-9]*\)$/\1 \1/p' |
		while read -r _a _b; do
			printf -- '-r %s:%s:%s ' $((_a * _bs)) \
				$(((_b - _a + 1) * _bs)) "$_bs"
		done
}

# count IMG EXPR: how many -l --json objects of IMG match the jq filter
count() {
	"$JRECOVER" -l --json "$1" | jq -s "[.[] | select($2)] | length"
}

# reads_case NAME IMG OVER MAXREQ [MAXWRITES]: check a dry run's and a
# replay's reads of IMG: at most MAXREQ read requests; and that the replay
# asks for at most MAXWRITES writes.
reads_case() {
	_n=$1
	_img=$2
	_over=$3
	_maxreq=$4
	_maxw=${5:-}
	NCASES=$((NCASES + 1))
	_w=$(watch_args "$_img")
	[ -n "$_w" ] || die "$_n: no journal extents"
	_hdr=$(count "$_img" '.type == "descriptor" or .type == "revoke_block" or .type == "commit"')
	_wr=$(count "$_img" '.type == "fate" and .fate == "written"')
	_sup=$(count "$_img" '.type == "fate" and .fate == "superseded"')
	_all=$(count "$_img" '.type == "tag"')
	# The superblock, the header blocks, the block ending the log, and
	# the copies read: written ones, and with data checksums every one
	# not revoked.
	_copies=$_wr
	[ "$FMT_CSUM" = none ] || _copies=$((_wr + _sup))
	_want=$((1 + _hdr + 1 + _copies))
	say "$_n: $_hdr header blocks, $_all tags, $_wr written, $_sup superseded: expect $_want blocks read"
	for _mode in -n ""; do
		copy_img "$_img" reads.img
		# shellcheck disable=SC2086
		_out=$("$CRASHRUN" $_mode $_w reads.img) ||
			{ fail "$_n $_mode: crashrun failed: $_out"; continue; }
		_line=$(say "$_out" | sed -n 's/^reads: //p')
		say "  crashrun $_mode: $_line; $(say "$_out" | tail -n 1)"
		_units=$(say "$_line" | tr ' ' '\n' | sed -n 's/^units=//p')
		_again=$(say "$_line" | tr ' ' '\n' | sed -n 's/^reread=//p')
		_req=$(say "$_line" | tr ' ' '\n' | sed -n 's/^requests=//p')
		if [ "$_units" -lt "$_want" ]; then
			fail "$_n $_mode: $_units journal blocks read, fewer than the $_want needed"
		elif [ "$_units" -gt $((_want + _over)) ]; then
			fail "$_n $_mode: $_units journal blocks read, more than $_want + $_over"
		fi
		[ "$_again" -le "$_over" ] ||
			fail "$_n $_mode: $_again journal blocks read twice (at most $_over)"
		[ "$_req" -le "$_maxreq" ] ||
			fail "$_n $_mode: $_req read requests for $_want blocks (at most $_maxreq)"
		_writes=$(say "$_out" | tail -n 1 | tr ' ' '\n' | sed -n 's/^writes=//p')
		if [ -z "$_mode" ] && [ -n "$_maxw" ] && [ "$_writes" -gt "$_maxw" ]; then
			fail "$_n: $_writes write requests (at most $_maxw)"
		fi
	done
}

for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	case $fmt in
	*v3) feat="revoke 64bit csum3" ;;
	*) feat="revoke" ;;
	esac

	img=bulk-$fmt.img
	# shellcheck disable=SC2086
	mkimg "$img" 64M $FMT_MKFS
	"$JWRITE" "$img" <<EOF || die "jwrite failed"
features $feat
bulk 12 12000 40 hit=1
EOF
	# A run is a transaction's revoke blocks, commit and next descriptor.
	# Large reads: a few requests a transaction.
	reads_case "bulk-$fmt" "$img" $((3 + 1000 * 8 / FMT_BS)) 40

	img=relog-$fmt.img
	# shellcheck disable=SC2086
	mkimg "$img" 64M $FMT_MKFS
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 16)
	"$JWRITE" "$img" <<EOF || die "jwrite failed"
features $feat
txn
log $1-$8
commit
txn
log $1-$8
revoke $2 $3
commit
txn
log $1-$8 $9
commit
txn
revoke $4
log $1-$4
commit
txn
log $1-$8
commit
txn
log $1 $2
commit
EOF
	# 31 copies to write in log order (as e2fsck does); each block once
	# here: $1-$9 in one write, the two superblocks, a flush's worth.
	reads_case "relog-$fmt" "$img" 8 40 4
done

end_test
