#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# flags.sh --- the superblock flags around the log:
#   needs-recovery-empty     needs_recovery set, journal empty (s_start = 0):
#                            nothing to replay, but e2fsck clears the flag
#                            and resets the journal superblock (exit 1)
#   needs-recovery-replayed  the same over an old, already replayed log
#   log-without-flag         a log to replay (s_start != 0) but
#                            needs_recovery clear: e2fsck asks "Run journal
#                            anyway?", replays it, and then (even with
#                            -E journal_only) runs a full check, which sets
#                            s_lastcheck; the kernel would discard this log
#                            (jbd2_journal_wipe).  jrecover refuses (8,
#                            nothing written, -n 8 too, the message says
#                            why and names -f); e2fsck -n answers no and
#                            writes nothing (for the record); with -f
#                            jrecover replays, compared with e2fsck -y
#                            without s_lastcheck.  The same log saved as a
#                            dump and given with -j is replayed without -f
#                            (exit 1), to the same image as -f gives.
#   errno-only               journal s_errno set (the journal was aborted),
#                            nothing else: e2fsck marks the filesystem as
#                            having errors and clears s_errno
#   errno-with-log           s_errno set and a log to replay
# A journal with s_errno set leaves the filesystem marked with errors, a
# problem for fsck to look at, hence exit 4.  s_errno is poked by hand, so
# those cases use journals without checksums (no superblock checksum to fix).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

# set_errno IMG ERRNO-HEX: write the journal superblock's s_errno.
set_errno() {
	poke "$1" $(($(jsb_offset "$1") + 32)) "$2"
}

for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"

	img=needs-recovery-empty-$fmt.img
	mkimg_fmt "$img"
	printf 'feature needs_recovery\n' | dfs_quiet "$img"
	oracle_compare -e 1 "$img"

	img=needs-recovery-replayed-$fmt.img
	mkimg_fmt "$img"
	std_workload "$img"
	run e2fsck -y -E journal_only "$img" || die "e2fsck could not replay"
	printf 'feature needs_recovery\n' | dfs_quiet "$img"
	oracle_compare -e 1 "$img"

	img=log-without-flag-$fmt.img
	mkimg_fmt "$img"
	std_workload "$img"
	printf 'feature -needs_recovery\n' | dfs_quiet "$img"
	oracle_compare -e 8 "$img"
	oracle_compare -e "$(std_expect)" -o -f -x s_lastcheck -x s_lastcheck_hi "$img"

	NCASES=$((NCASES + 1))
	sum=$(sha256_of "$img")
	jrecover "$img"
	grep -q "not marked as needing recovery.*the kernel would discard this log at mount, e2fsck would replay it and then run a full check; -f replays it" \
		"$SCRATCH/.run.out" ||
		fail "log-without-flag-$fmt: the refusal does not explain itself"
	copy_img "$img" "e2fsck-n-$fmt.img"
	run e2fsck -n -E journal_only "e2fsck-n-$fmt.img"
	say "(for the record: e2fsck -n exited $RUN_RC and $(cmp -s "$img" "e2fsck-n-$fmt.img" && echo "wrote nothing" || echo "changed the image"))"
	[ "$(sha256_of "$img")" = "$sum" ] || fail "log-without-flag-$fmt: the image changed"

	# The same log as a dump: replayed whatever the flag (no -f).
	NCASES=$((NCASES + 1))
	jrecover -s "dump-$fmt.journal" "$img"
	[ "$RUN_RC" -eq 0 ] || fail "dump-without-flag-$fmt: -s exited $RUN_RC"
	copy_img "$img" "dump-without-flag-$fmt.img"
	copy_img "$img" "force-$fmt.img"
	jrecover -j "dump-$fmt.journal" "dump-without-flag-$fmt.img"
	[ "$RUN_RC" -eq "$(std_expect)" ] ||
		fail "dump-without-flag-$fmt: jrecover -j DUMP exited $RUN_RC, not $(std_expect)"
	jrecover -f "force-$fmt.img"
	"$IMGCMP" -s -J "$(jsb_offset "$img")" "force-$fmt.img" \
		"dump-without-flag-$fmt.img" > cmp.out ||
		{ sed 's/^/    /' cmp.out; fail "dump-without-flag-$fmt: the dump's replay differs from -f's"; }
done

set_format 4k-64-none
img=errno-only.img
mkimg_fmt "$img"
set_errno "$img" fffffffb
oracle_compare -e 4 "$img"

img=errno-needs-recovery.img
mkimg_fmt "$img"
printf 'feature needs_recovery\n' | dfs_quiet "$img"
set_errno "$img" fffffffb
oracle_compare -e 4 "$img"

img=errno-with-log.img
mkimg_fmt "$img"
std_workload "$img"
set_errno "$img" fffffffb
oracle_compare -e 4 "$img"

end_test
