#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fsck-example.sh --- contrib/fsck-example (librecover on a filesystem the
# program holds open with libext2fs, then its own read-only check) against
# jrecover and e2fsck on the same journals:
#  - the image it leaves is jrecover's and e2fsck's, byte for byte (outside
#    the superblock's write time, write count and checksum, which imgcmp -s
#    checks separately), and e2fsck -fn accepts it;
#  - its exit status is jrecover's: 1 replayed, 4 problems left (a block
#    skipped on a bad checksum, a corrupt commit), 0 nothing to do, 8 an
#    operational error or a recovery e2fsck would abandon (then 4 with -f);
#    16 a usage error;
#  - on a replayed image its own check passes ("ok"), and run again it
#    finds nothing to do (0);
#  - -n writes nothing, and both exit as the replay would.
# Journals: std_workload on 4 KiB/metadata_csum and 1 KiB/no checksums,
# an external journal, a dump, jwrite's bad data checksum, bad commit
# checksum and bad revoke block checksum, and a filesystem with nothing
# to replay.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
EXAMPLE=$top_builddir/contrib/fsck-example
[ -x "$EXAMPLE" ] || die "$EXAMPLE not built (make check builds it)"

# example_case NAME RC IMG [JOPT [JPATH]] [-- EXTRA OPTION]: RC is the status
# expected of both programs.  JOPT is -j with JPATH (copied per run for a
# device, shared for a dump, which is never written).
example_case() {
	e_n=$1
	e_rc=$2
	e_img=$3
	shift 3
	e_jdev=
	e_dump=
	e_opt=
	while [ $# -gt 0 ]; do
		case $1 in
		-jdev) e_jdev=$2; shift 2 ;;
		-dump) e_dump=$2; shift 2 ;;
		*) e_opt="$e_opt $1"; shift ;;
		esac
	done
	case_begin "$e_n" "expect $e_rc"
	for who in example jrecover e2fsck; do
		copy_img "$e_img" "$e_n.$who.img"
		[ -n "$e_jdev" ] && copy_img "$e_jdev" "$e_n.$who.jdev"
	done
	e_sum=$(sha256_of "$e_img")
	e_j=
	[ -n "$e_jdev" ] && e_j="-j $e_n.example.jdev"
	[ -n "$e_dump" ] && e_j="-j $e_dump"
	# shellcheck disable=SC2086
	run $TIMEOUT "$EXAMPLE" $e_opt $e_j "$e_n.example.img"
	e_erc=$RUN_RC
	cp "$SCRATCH/.run.out" "$e_n.example.out"
	[ "$e_erc" -eq "$e_rc" ] || fail "$e_n: fsck-example exited $e_erc, expected $e_rc"
	e_j=
	[ -n "$e_jdev" ] && e_j="-j $e_n.jrecover.jdev"
	[ -n "$e_dump" ] && e_j="-j $e_dump"
	# shellcheck disable=SC2086
	jrecover $e_opt $e_j "$e_n.jrecover.img"
	[ "$RUN_RC" -eq "$e_erc" ] || fail "$e_n: jrecover exited $RUN_RC, fsck-example $e_erc"

	# A dry run exits as the replay would, and writes nothing.
	e_kind=$e_rc
	case " $e_opt " in *" -n "*) e_kind=dry ;; esac
	case $e_kind in
	1|4)
		grep -q ": ok$" "$e_n.example.out" ||
			[ "$e_rc" -eq 4 ] || fail "$e_n: fsck-example's check did not pass"
		"$IMGCMP" -s "$e_n.jrecover.img" "$e_n.example.img" > cmp.out ||
			{ sed 's/^/    /' cmp.out; fail "$e_n: fsck-example's image differs from jrecover's"; }
		if [ -n "$e_jdev" ]; then
			cmp -s "$e_n.jrecover.jdev" "$e_n.example.jdev" ||
				fail "$e_n: fsck-example's journal device differs from jrecover's"
		fi
		# e2fsck cannot read a dump; -f (abandoned recovery) is its
		# normal behaviour.
		if [ -z "$e_dump" ]; then
			run e2fsck -y -E journal_only ${e_jdev:+-j "$e_n.e2fsck.jdev"} "$e_n.e2fsck.img"
			"$IMGCMP" -s "$e_n.e2fsck.img" "$e_n.example.img" > cmp.out ||
				{ sed 's/^/    /' cmp.out; fail "$e_n: fsck-example's image differs from e2fsck's"; }
		fi
		run e2fsck -fn ${e_jdev:+-j "$e_n.example.jdev"} "$e_n.example.img"
		[ "$RUN_RC" -le 4 ] || fail "$e_n: e2fsck -fn cannot check fsck-example's result (exit $RUN_RC)"
		# Again: nothing left to replay.
		e_j=
		[ -n "$e_jdev" ] && e_j="-j $e_n.example.jdev"
		# shellcheck disable=SC2086
		run "$EXAMPLE" $e_j "$e_n.example.img"
		case $e_rc:$RUN_RC in
		1:0|4:4) ;;
		*) fail "$e_n: fsck-example run again exited $RUN_RC" ;;
		esac
		;;
	*)
		[ "$(sha256_of "$e_n.example.img")" = "$e_sum" ] ||
			fail "$e_n: fsck-example exited $e_erc but changed the image"
		;;
	esac
	case_end
}

for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	img=std-$fmt.img
	mkimg_fmt "$img"
	std_workload "$img"
	example_case "std-$fmt" 1 "$img"
	example_case "dry-$fmt" "$(std_expect)" "$img" -n
done

set_format 4k-64-v3
mkimg_fmt clean.img
example_case clean 0 clean.img

# A dump of std_workload's journal, while the filesystem still holds it.
debugfs -R "dump <8> std.dump" std-4k-64-v3.img 2>/dev/null
example_case dump 1 std-4k-64-v3.img -dump std.dump

std_external ext.img ext.jdev
example_case external 1 ext.img -jdev ext.jdev

# jwrite: a bad data checksum (4), a corrupt commit (4), a revoke block that
# fails its checksum (e2fsck abandons the recovery: 8, or 4 with -f).
mkimg_fmt base.img
# shellcheck disable=SC2046
set -- $(free_blocks base.img 10)
B=$1
copy_img base.img badcsum.img
jw badcsum.img <<EOF
features revoke 64bit csum3
txn
log $B $((B + 1))
log $((B + 2)) badcsum
commit
EOF
example_case badcsum 4 badcsum.img

copy_img base.img badcommit.img
jw_badcommit "$B" > badcommit.jws
jw badcommit.img < badcommit.jws
example_case badcommit 4 badcommit.img

copy_img base.img abandon.img
jw abandon.img <<EOF
features revoke 64bit csum3
txn
log $B
commit
txn
revoke $((B + 3)) badcsum
commit
EOF
example_case abandon 8 abandon.img
example_case abandon-force 4 abandon.img -f

# Operational and usage errors.
NCASES=$((NCASES + 1))
run "$EXAMPLE" does-not-exist.img
[ "$RUN_RC" -eq 8 ] || fail "a missing image: fsck-example exited $RUN_RC, not 8"
run "$EXAMPLE"
[ "$RUN_RC" -eq 16 ] || fail "no image: fsck-example exited $RUN_RC, not 16"
run "$EXAMPLE" -Z clean.img
[ "$RUN_RC" -eq 16 ] || fail "an unknown option: fsck-example exited $RUN_RC, not 16"

end_test
