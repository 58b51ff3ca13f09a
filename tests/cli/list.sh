#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# list.sh --- jrecover -l against debugfs -R "logdump -a", on journals made
# by debugfs (std_workload, four formats, and an external journal) and by
# jwrite (several descriptor blocks per transaction, escaped blocks,
# revoke records over several revoke blocks, 64-bit block numbers, a log
# that wraps from the journal's end to s_first while the tid wraps past
# 2^32, an uncommitted last transaction, csum v1/v2/v3, a v1 superblock):
#  - the same descriptor, revoke and commit blocks, in the same order, with
#    the same tids; the same tags (filesystem block, flags, journal block
#    of the data) and revoke records per transaction.  logdump prints only
#    the low 32 bits of a tag's block number, so those are compared;
#  - the text listing and the JSON listing say the same, down to tag counts,
#    commit times and where the log ends;
#  - jwrite's commit times come back as written; debugfs's are the time
#    the test ran, shifted left by 32 bits (its known fault, doc/testing.md);
#  - -l (text or JSON) leaves the image's sha256 unchanged and exits 0.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq

T_START=$(date +%s)

# list_case NAME IMG [JDEV]: the checks above on one journal.
list_case() {
	l_img=$2
	l_jdev=${3:-}
	case_begin "$1"
	show_journal "$l_img" "$l_jdev"
	l_sum=$(state_of "$l_img" "$l_jdev")

	jr "$_case.json" "$_case.jerr" -l --json ${l_jdev:+-j "$l_jdev"} "$l_img"
	[ "$RUN_RC" -eq 0 ] || fail "$_case: jrecover -l --json exited $RUN_RC"
	[ -s "$_case.jerr" ] && fail "$_case: jrecover -l --json printed on stderr"
	jq -e . "$_case.json" > /dev/null 2>&1 || fail "$_case: -l --json is not JSON lines"
	jr "$_case.txt" "$_case.terr" -l ${l_jdev:+-j "$l_jdev"} "$l_img"
	[ "$RUN_RC" -eq 0 ] || fail "$_case: jrecover -l exited $RUN_RC"
	[ "$(state_of "$l_img" "$l_jdev")" = "$l_sum" ] ||
		fail "$_case: jrecover -l changed the image or the journal"

	# Against logdump.
	logdump_norm "$l_img" "$l_jdev" > "$_case.logdump"
	list_norm "$_case.json" > "$_case.list"
	[ -s "$_case.logdump" ] || die "$_case: logdump shows nothing"
	if ! diff -u "$_case.logdump" "$_case.list" > "$_case.diff"; then
		sed 's/^/    /' "$_case.diff"
		fail "$_case: jrecover -l (+) and logdump -a (-) differ"
	fi

	# Text against JSON.
	list_full_json "$_case.json" > "$_case.fj"
	list_full_text "$_case.txt" > "$_case.ft"
	if ! diff -u "$_case.fj" "$_case.ft" > "$_case.diff"; then
		sed 's/^/    /' "$_case.diff"
		fail "$_case: the text listing (+) and the JSON listing (-) differ"
	fi

	# The counts a descriptor or revoke block announces are what follows.
	awk '$1 == "D" || $1 == "R" { if (n != "" && n != 0) bad = 1; n = $4; next }
		$1 == "T" || $1 == "r" { n-- }
		END { if (n != "" && n != 0) bad = 1; exit bad }' "$_case.fj" ||
		fail "$_case: a descriptor's tag count or a revoke block's record count is not what follows it"
	[ "$(jq -r 'select(.type == "end") | .type' "$_case.json" | wc -l)" -eq 1 ] ||
		fail "$_case: -l --json has not one end object"
	[ "$(tail -n 1 "$_case.json" | jq -r .type)" = end ] ||
		fail "$_case: -l --json does not end with the end object"
	case_end
}

# debugfs_times NAME: the commit times of a debugfs journal are the test's
# run time, in the high 32 bits of commit_sec (or, were debugfs fixed, the
# time itself), with nanoseconds below 10^9.
debugfs_times() {
	_now=$(date +%s)
	awk '$1 == "C" { print $4, $5 }' "$1.ft" | while read -r s ns; do
		_t=$s
		[ "$s" -gt 4294967295 ] && _t=$((s >> 32))
		if [ "$_t" -lt $((T_START - 60)) ] || [ "$_t" -gt $((_now + 60)) ] ||
		   [ "$ns" -ge 1000000000 ]; then
			say "bad"
		fi
	done | grep -q bad && fail "$1: a commit time is not when debugfs ran"
}

# --- debugfs's journals -------------------------------------------------------
for fmt in 4k-64-v3 1k-32-none 4k-32-v2 1k-64-v3; do
	set_format "$fmt"
	img=dfs-$fmt.img
	mkimg_fmt "$img"
	std_workload "$img"
	list_case "dfs-$fmt" "$img"
	debugfs_times "dfs-$fmt"
done

set_format 4k-64-none
std_external ext.img ext.jdev
list_case dfs-external ext.img ext.jdev

# --- jwrite's journals -------------------------------------------------------------
# jw_case NAME FMT [jwrite options] < SCRIPT: a fresh image of format FMT
# (BS-BITS-CSUM, see set_format), the journal the script describes.
jw_case() {
	l_jn=$1
	set_format "$2"
	shift 2
	mkimg_fmt "$l_jn.img"
	jw "$l_jn.img" "$@"
	list_case "$l_jn" "$l_jn.img"
}

# Commit times as written.
jw_times() {
	l_t=$1
	shift
	awk '$1 == "C" { print $2, $4, $5 }' "$l_t.fj" > "$l_t.times"
	printf '%s\n' "$@" > want.times
	diff -u want.times "$l_t.times" > times.diff ||
		{ sed 's/^/    /' times.diff; fail "$l_t: commit times (+) are not those written (-)"; }
}

# Several descriptors per transaction, escaped blocks, a fill, revoke
# records over several revoke blocks (252 a block with 1 KiB blocks and
# 32-bit records), csum v2 with 32-bit tags.
jw_case multi 1k-32-v2 <<EOF
features revoke csum2
maxtags 5
txn
log 3000-3016
log 3020 escape
log 3021 fill=0xc0
commit time=1700000100 nsec=5
txn
revoke 3100-3699
log 3001
commit time=1700000200 nsec=999999999
txn
log 3002 escape
revoke 3003
commit time=1700000300
EOF
jw_times multi "1 1700000100 5" "2 1700000200 999999999" "3 1700000300 0"

# The log wraps from the journal's last block to s_first while the tid wraps
# past 2^32; 64-bit block numbers (past the end of this filesystem, which
# -l does not mind) in tags and revoke records; csum v3; an uncommitted
# last transaction.
jw_case wrap 4k-64-v3 <<EOF
features revoke 64bit csum3
start 1018
sequence 4294967294
allow-past-end
maxtags 3
txn
log 2000-2007
log 2010 escape
revoke 0x100000005 2001
commit time=1700000005 nsec=123
txn
log 0x100000007 2001
commit time=1700000006
txn
log 2020
nocommit
EOF
jw_times wrap "4294967294 1700000005 123" "4294967295 1700000006 0"

# csum v1 (the crc32 in the commit block), a filesystem without
# metadata_csum, 1 KiB blocks.
jw_case csum1 1k-32-none <<EOF
features revoke csum1
txn
log 10000-10009
revoke 10020
commit time=1800000000
txn
log 10005 escape
commit time=1800000001
EOF
jw_times csum1 "1 1800000000 0" "2 1800000001 0"

# A version 1 journal superblock: no features, no revoke records.
jw_case v1 4k-32-none <<EOF
version 1
nrusers 0
txn
log 2000 2001
commit time=1700000000
txn
log 2001
commit time=1700000001
EOF
jw_times v1 "1 1700000000 0" "2 1700000001 0"

end_test
