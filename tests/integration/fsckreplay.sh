#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fsckreplay.sh --- recover_fsck_replay(), an fsck tool's replay on the
# filesystem it holds open (tests/integration/fsckreplay: ext2fs_open2()
# through the undo io manager, as e2fsck -z, then e2fsck's own bookkeeping
# around the replay), against e2fsck -y -E journal_only on the same input:
#  - the image (and journal device) it leaves is e2fsck's, byte for byte
#    outside the superblock's write time, write count and checksum;
#  - what it hands back is what e2fsck reports: errnum 0 and no failed
#    commit on a good log; EBADMSG (EFSBADCRC, "Journal checksum error")
#    and one "skipped" line per copy skipped on a bad data checksum, the
#    line e2fsck prints; the tid of a corrupt commit block (e2fsck's
#    "Journal transaction T was corrupt"); EBADMSG for a revoke block
#    that fails its checksum (e2fsck abandons the recovery);
#  - the undo file restores the input: e2undo gives back the image as it
#    was, byte for byte.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without the library"
DRIVER=$top_builddir/tests/integration/fsckreplay
[ -x "$DRIVER" ] || die "$DRIVER not built (make check builds it)"
command -v e2undo >/dev/null 2>&1 || skip "e2undo not found (e2fsprogs)"

# errno_of NAME: the number of an errno name, as <errno.h> has it here.
errno_of() {
	printf '#include <errno.h>\n%s\n' "$1" | ${CC:-cc} -E -P - | tail -n 1
}

# fsck_case NAME IMG [JDEV] -- EXPECTED: EXPECTED is a basic regular
# expression the whole of one line of the driver's output must match
# (errnum ...); the driver's output stays in NAME.out, e2fsck's in
# NAME.e2fsck.out.
fsck_case() {
	n=$1
	img=$2
	jd=
	[ "$3" != "--" ] && { jd=$3; shift; }
	want=$4
	case_begin "$n" "$want"
	for who in lib e2fsck; do
		copy_img "$img" "$n.$who.img"
		[ -n "$jd" ] && copy_img "$jd" "$n.$who.jdev"
	done
	rm -f "$n.undo"
	run $TIMEOUT "$DRIVER" -z "$n.undo" ${jd:+-j "$n.lib.jdev"} "$n.lib.img"
	[ "$RUN_RC" -eq 0 ] || fail "$n: fsckreplay exited $RUN_RC"
	cp "$SCRATCH/.run.out" "$n.out"
	grep -qx "$want" "$n.out" || fail "$n: fsckreplay did not say '$want'"
	run e2fsck -y -E journal_only ${jd:+-j "$n.e2fsck.jdev"} "$n.e2fsck.img"
	cp "$SCRATCH/.run.out" "$n.e2fsck.out"
	"$IMGCMP" -s "$n.e2fsck.img" "$n.lib.img" > cmp.out ||
		{ sed 's/^/    /' cmp.out; fail "$n: the image differs from e2fsck's"; }
	if [ -n "$jd" ]; then
		cmp -s "$n.e2fsck.jdev" "$n.lib.jdev" ||
			fail "$n: the journal device differs from e2fsck's"
	fi
	run e2undo "$n.undo" "$n.lib.img"
	cmp -s "$img" "$n.lib.img" ||
		fail "$n: e2undo did not give the input back"
	case_end
}

GOOD='errnum 0 failed_commit 0 tid 0 outcome 2 transactions [1-9][0-9]*'
for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	mkimg_fmt "std-$fmt.img"
	std_workload "std-$fmt.img"
	fsck_case "std-$fmt" "std-$fmt.img" -- "$GOOD"
done

set_format 4k-64-v3
std_external ext.img ext.jdev
fsck_case external ext.img ext.jdev -- "$GOOD"

# jwrite: a bad data checksum, a corrupt commit, a revoke block that fails
# its checksum.
mkimg_fmt base.img
# shellcheck disable=SC2046
set -- $(free_blocks base.img 10)
B=$1
copy_img base.img badcsum.img
jw badcsum.img <<JWS
features revoke 64bit csum3
txn
log $B $((B + 1))
log $((B + 2)) badcsum
commit
JWS
fsck_case badcsum badcsum.img -- \
	"errnum $(errno_of EBADMSG) failed_commit 0 tid 0 outcome 3 transactions 1"
NCASES=$((NCASES + 1))
grep -q "^skipped bad_csum [0-9]* $((B + 2)) " badcsum.out ||
	fail "badcsum: the copy of block $((B + 2)) was not reported skipped"
[ "$(grep -c '^skipped' badcsum.out)" -eq 1 ] ||
	fail "badcsum: not exactly one copy reported skipped"
grep -q "JBD2: Invalid checksum recovering data block $((B + 2)) in log" \
	badcsum.e2fsck.out || fail "badcsum: e2fsck did not report block $((B + 2))"

copy_img base.img badcommit.img
jw_badcommit "$B" > badcommit.jws
jw badcommit.img < badcommit.jws
fsck_case badcommit badcommit.img -- \
	"errnum 0 failed_commit 1 tid [0-9]* outcome 3 transactions [0-9]*"
NCASES=$((NCASES + 1))
t=$(sed -n 's/.*Journal transaction \([0-9]*\) was corrupt.*/\1/p' badcommit.e2fsck.out)
[ -n "$t" ] || fail "badcommit: e2fsck reported no corrupt transaction"
grep -q "^errnum 0 failed_commit 1 tid $t " badcommit.out ||
	fail "badcommit: the failed tid is not e2fsck's $t"

copy_img base.img abandon.img
jw abandon.img <<JWS
features revoke 64bit csum3
txn
log $B
commit
txn
revoke $((B + 3)) badcsum
commit
JWS
fsck_case abandon abandon.img -- \
	"errnum $(errno_of EBADMSG) failed_commit 0 tid 0 outcome 3 transactions [0-9]*"
NCASES=$((NCASES + 1))
grep -q "Journal checksum error found" abandon.e2fsck.out ||
	fail "abandon: e2fsck did not report a journal checksum error"

end_test
