#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# readonly.sh --- a filesystem the replay cannot write (jrecover(8), -n and
# EXIT STATUS; issue 29, case 10): -n exits with the status the replay
# would, and the refusal says what makes it writable for what it is.
#  - an immutable image (chattr +i): the replay exits 8; -n exits 8 too
#    (it said 1, "would replay"); both say "chattr -i IMG", neither
#    "blockdev"; -i still reads it (exit 0);
#  - a read-only loop device (losetup -r) over the image: the same, with
#    "blockdev --setrw DEVICE";
#  - the same image, writable: -n exits 1 and the replay 1, as e2fsck's
#    replay leaves it (-n's check of the open changed nothing).
# Every file's sha256 is the same after each refusal and after -n.  Each
# part needs root (chattr +i, losetup -r); one the machine refuses is
# skipped, and the test is (77) when both are.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"

set_format 4k-64-v3
mkimg_fmt dirty.img
std_workload dirty.img
copy_img dirty.img e2fsck.img
run e2fsck -y -E journal_only e2fsck.img

IMM=
LO=
cleanup() {
	[ -z "$IMM" ] || chattr -i "$IMM" 2> /dev/null
	[ -z "$LO" ] || losetup -d "$LO" 2> /dev/null
}
trap '_rc=$?; cleanup; (exit $_rc); _cleanup' EXIT

hashes() {
	for _f in *.img; do
		echo "$_f $(sha256_of "$_f") $(stat -c %Y "$_f")"
	done
}

# agree WHAT PATH WANT NOT: a replay of PATH and -n of it both exit 8,
# both name WANT (a fixed string) as the way to make it writable and
# neither says NOT; -i exits 0; nothing changes.
agree() {
	hashes > h.before
	NCASES=$((NCASES + 1))
	jr r.out r.err "$2"
	[ "$RUN_RC" -eq 8 ] || fail "$1: the replay exited $RUN_RC, not 8"
	grep -qF -- "$3" r.err || fail "$1: the replay does not say '$3'"
	! grep -qF -- "$4" r.err || fail "$1: the replay says '$4'"
	NCASES=$((NCASES + 1))
	jr n.out n.err -n "$2"
	[ "$RUN_RC" -eq 8 ] ||
		fail "$1: -n exited $RUN_RC where the replay exits 8"
	grep -qF -- "$3" n.err || fail "$1: -n does not say '$3'"
	grep -qF -- "the replay would refuse it" n.err ||
		fail "$1: -n does not say that the replay would refuse it"
	! grep -qF -- "$4" n.err || fail "$1: -n says '$4'"
	NCASES=$((NCASES + 1))
	jr i.out i.err -i "$2"
	[ "$RUN_RC" -eq 0 ] || fail "$1: -i exited $RUN_RC, not 0"
	hashes > h.after
	cmp -s h.before h.after || {
		diff h.before h.after | sed 's/^/    /'
		fail "$1: files changed"
	}
}

parts=0

# --- an immutable image ------------------------------------------------------------
copy_img dirty.img imm.img
if chattr +i imm.img 2> chattr.err; then
	IMM=imm.img
	parts=$((parts + 1))
	case_begin immutable "an immutable image"
	agree "immutable image" imm.img "chattr -i imm.img" "blockdev"
	chattr -i imm.img || die "chattr -i failed"
	IMM=
	case_end
else
	sed 's/^/    /' chattr.err
	say "chattr +i refused here: the immutable case skipped"
fi

# --- a read-only loop device ---------------------------------------------------------
copy_img dirty.img lo.img
if [ "$(id -u)" = 0 ] && command -v losetup > /dev/null 2>&1 &&
   LO=$(losetup -r -f --show lo.img 2> /dev/null); then
	parts=$((parts + 1))
	case_begin ro-device "a read-only loop device ($LO)"
	agree "read-only device" "$LO" "blockdev --setrw $LO" "chattr"
	losetup -d "$LO" || die "losetup -d failed"
	LO=
	case_end
else
	LO=
	say "no read-only loop device here: that case skipped"
fi

[ "$parts" -gt 0 ] || skip "neither chattr +i nor losetup -r works here"

# --- writable: -n and the replay as before ----------------------------------------------
case_begin writable "the same image, writable"
copy_img dirty.img rw.img
hashes > h.before
jr n.out n.err -n rw.img
[ "$RUN_RC" -eq 1 ] || fail "-n of a writable image exited $RUN_RC, not 1"
hashes > h.after
cmp -s h.before h.after || fail "-n of a writable image changed files"
jr r.out r.err rw.img
[ "$RUN_RC" -eq 1 ] || fail "the replay of a writable image exited $RUN_RC, not 1"
"$IMGCMP" -s e2fsck.img rw.img > cmp.out 2>&1 ||
	{ sed 's/^/    /' cmp.out; fail "the replay differs from e2fsck's"; }
case_end

end_test
