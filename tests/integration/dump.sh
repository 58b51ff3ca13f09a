#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# dump.sh --- a journal saved to a file (debugfs -R "dump <8> FILE", the
# journal inode's contents in logical order) and replayed with
# jrecover -j FILE.  e2fsck cannot read such a file, so the oracle is
# e2fsck replaying the filesystem's own journal, which holds the same log.
# Two cases (jrecover(8), -j):
#  - the dump is the filesystem's current journal (it was saved and the
#    journal was left as it was): jrecover retires that journal too, and
#    the result must be e2fsck's, byte for byte;
#  - it is not (here: the journal was already replayed and reset by
#    e2fsck): the dump's blocks are written again and the filesystem's own
#    journal and flags are left alone, so the result is again e2fsck's.
# The dump file itself is never changed.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/integration/lib.sh"

for fmt in 4k-64-v3 1k-64-none 4k-64-v1; do
	set_format "$fmt"
	case=dump-$fmt
	img=$case.img
	# shellcheck disable=SC2086
	mkimg "$img" 16M $FMT_MKFS
	std_workload "$img"
	debugfs -R "dump <8> $case.journal" "$img" 2>/dev/null
	[ -s "$case.journal" ] || die "debugfs did not dump the journal"
	NCASES=$((NCASES + 1))
	nfail=$NFAIL
	say ""
	say "=== case $case: jrecover -j DUMP against e2fsck's own replay"
	show_journal "$img"

	copy_img "$img" "$case.e2fsck.img"
	run e2fsck -y -E journal_only "$case.e2fsck.img"
	[ "$ORACLE_ONLY" = 1 ] && continue

	dump_sum=$(sha256_of "$case.journal")

	# The dump is the current journal.
	copy_img "$img" "$case.jrecover.img"
	jrecover -j "$case.journal" "$case.jrecover.img"
	[ "$RUN_RC" -eq "$(std_expect)" ] ||
		fail "$case: jrecover exited $RUN_RC, expected $(std_expect)"
	grep -q "current journal" "$SCRATCH/.run.out" ||
		fail "$case: jrecover did not say the dump is the current journal"
	diffs=$("$IMGCMP" -s -l "$case.e2fsck.img" "$case.jrecover.img")
	[ -z "$diffs" ] ||
		fail "$case: blocks $diffs differ from e2fsck's replay"

	# The dump is not the current journal: e2fsck already replayed it.
	copy_img "$case.e2fsck.img" "$case.again.img"
	jrecover -j "$case.journal" "$case.again.img"
	grep -q "left as they are" "$SCRATCH/.run.out" ||
		fail "$case: jrecover did not say it left the journal alone"
	diffs=$("$IMGCMP" -s -l "$case.e2fsck.img" "$case.again.img")
	[ -z "$diffs" ] ||
		fail "$case: blocks $diffs differ after replaying the dump again"
	[ "$(sha256_of "$case.journal")" = "$dump_sum" ] ||
		fail "$case: jrecover changed the dump file"

	if [ "$NFAIL" -eq "$nfail" ]; then
		say "=== case $case: ok"
	else
		say "\$ imgcmp -s -J $(jsb_offset "$img") $case.e2fsck.img $case.jrecover.img"
		"$IMGCMP" -s -J "$(jsb_offset "$img")" "$case.e2fsck.img" \
			"$case.jrecover.img" | sed 's/^/    /'
		say "=== case $case: FAILED"
	fi
done

end_test
