#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# oracle-bulk.sh -- the benchmark's journal shape against the oracle, in
# `make check`: an image made like bench/run.sh's (bench/mkbench, csum v3)
# with 2^18 revoke records over 32 transactions, replayed by
# `e2fsck -y -E journal_only` and by jrecover, default and with
# LIBRECOVER_DEBUG=full_revoke, on three copies; the results must be
# byte-identical outside s_wtime, s_wtime_hi, s_kbytes_written and
# s_checksum.  e2fsck's quadratic revoke table makes this the slow part
# (about 5 s here).
#
# Environment: top_builddir, top_srcdir (set by make check); JRECOVER (the
# binary under test, default $top_builddir/src/jrecover); ORACLE_BULK_N
# (records, default 262144); KEEP_SCRATCH=1 keeps the work directory.
# Exit: 0 pass, 1 fail, 77 skip, 99 error.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
LC_ALL=C
export LC_ALL

N=${ORACLE_BULK_N:-262144}
JRECOVER=${JRECOVER:-$top_builddir/src/jrecover}
MKBENCH=$top_builddir/bench/mkbench
SPARSECMP=$top_builddir/bench/sparsecmp
MKE2FS_CONFIG=$top_srcdir/bench/mke2fs.conf
E2FSCK_CONFIG=/dev/null
export MKE2FS_CONFIG E2FSCK_CONFIG

say() {
	printf '%s\n' "$*"
}

die() {
	say "ERROR: $*"
	exit 99
}

nfail=0
fail() {
	say "FAIL: $*"
	nfail=$((nfail + 1))
}

for p in mke2fs e2fsck; do
	command -v "$p" >/dev/null 2>&1 || { say "SKIP: $p not found"; exit 77; }
done
for p in "$JRECOVER" "$MKBENCH" "$SPARSECMP"; do
	[ -x "$p" ] || die "$p is not built (run make check)"
done

W=$(mktemp -d "${TMPDIR:-/tmp}/oracle-bulk.XXXXXX") || die "no scratch directory"
# shellcheck disable=SC2317	# run by the trap
cleanup() {
	rc=$?
	if [ "$rc" -ne 0 ] || [ "${KEEP_SCRATCH:-0}" = 1 ]; then
		say "scratch directory kept: $W"
	else
		rm -rf "$W"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# run CMD...: show the command and its output; the status is in RC.
run() {
	say "\$ $*"
	"$@" > "$W/out" 2>&1
	RC=$?
	sed 's/^/    /' "$W/out"
	say "    [exit $RC]"
}

eval "$("$MKBENCH" -p -c "$N")" || die "mkbench -p failed"
say "shape: $N records, T=$T transactions of L=$L logged blocks, $LOG_BLOCKS log blocks, image $IMAGE_MIB MiB (sparse)"
run mke2fs -q -F -t ext4 -b 4096 -O 64bit,metadata_csum \
	-U 6a1c0e2b-7d4f-4c3a-9b58-2e1f0d9c8b7a -J size="$JOURNAL_MIB" \
	-E lazy_itable_init=1,lazy_journal_init=1,hash_seed=0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f \
	"$W/orig.img" "${IMAGE_MIB}M"
[ "$RC" = 0 ] || die "mke2fs failed"
run "$MKBENCH" -c "$W/orig.img" "$N"
[ "$RC" = 0 ] || die "mkbench failed"
DATA_FIRST=$(sed -n 's/.*DATA_FIRST=\([0-9]*\).*/\1/p' "$W/out")
[ -n "$DATA_FIRST" ] || die "mkbench printed no DATA_FIRST"

for c in e2 jr full; do
	cp --sparse=always "$W/orig.img" "$W/$c.img" || die "cannot copy the image"
done

run e2fsck -y -E journal_only "$W/e2.img"
[ "$RC" -le 1 ] || fail "e2fsck exited $RC"
run "$JRECOVER" "$W/jr.img"
[ "$RC" = 1 ] || fail "jrecover exited $RC (1: replayed)"
# Revoke records must cancel copies, or this tests little.
n=$(sed -n 's/.*; \([0-9]*\) skipped by revoke records.*/\1/p' "$W/out")
if [ -z "$n" ] || [ "$n" -eq 0 ]; then
	fail "jrecover reported no copies skipped by revoke records"
fi
run env LIBRECOVER_DEBUG=full_revoke "$JRECOVER" "$W/full.img"
[ "$RC" = 1 ] || fail "jrecover (full table) exited $RC (1: replayed)"

run "$SPARSECMP" "$W/e2.img" "$W/jr.img"
[ "$RC" = 0 ] || fail "jrecover's result differs from e2fsck's"
run "$SPARSECMP" "$W/e2.img" "$W/full.img"
[ "$RC" = 0 ] || fail "jrecover's result with the full table differs from e2fsck's"

# The replay must have changed the image, and the comparison must be able
# to see one changed byte: otherwise the checks above prove nothing.
run "$SPARSECMP" "$W/orig.img" "$W/e2.img"
[ "$RC" = 1 ] || fail "e2fsck's replay changed nothing (or the comparison is blind)"
off=$((DATA_FIRST * 4096 + 100))
b=$(od -An -tu1 -j "$off" -N 1 "$W/full.img" | tr -d ' ')
[ -n "$b" ] || die "cannot read $W/full.img"
# shellcheck disable=SC2059
printf "\\$(printf '%o' $((255 - b)))" |
	dd of="$W/full.img" bs=1 seek="$off" conv=notrunc 2>/dev/null ||
	die "cannot poke $W/full.img"
run "$SPARSECMP" "$W/e2.img" "$W/full.img"
[ "$RC" = 1 ] || fail "the comparison missed a changed byte"

if [ "$nfail" -gt 0 ]; then
	say "oracle-bulk: $nfail check(s) failed"
	exit 1
fi
say "oracle-bulk: $N revoke records: e2fsck, jrecover and jrecover (full table) agree"
exit 0
