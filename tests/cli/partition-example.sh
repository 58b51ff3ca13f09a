#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# partition-example.sh --- contrib/partition-example (librecover through an
# io_manager of the program's own, on a filesystem inside a partition of a
# raw disk image, without copying it out) against jrecover on the extracted
# partition:
#  - a disk of two MBR partitions (the table's bytes written here: an
#    entry's start sector and sector count, little-endian, at 446 + 16 * i
#    + 8 and + 12, and 55 aa at 510), each holding an ext4 image whose
#    journal needs recovery: std_workload on 4 KiB/metadata_csum at 1 MiB,
#    and on 1 KiB/no checksums at an odd sector (not 4 KiB-aligned);
#  - the partition it replays, extracted with dd, is byte for byte what
#    jrecover makes of a separate copy of the same filesystem, with the
#    same exit status (1); the disk's other bytes (the MBR, the gaps, the
#    other partition, the tail) are unchanged, by their sha256; run again
#    it finds nothing to do (0);
#  - -n writes nothing and exits as the replay would (1);
#  - -v traces the manager's methods: a replay's open() gets
#    IO_FLAG_RW|IO_FLAG_EXCLUSIVE and the name "DISK:N" as given to
#    recover_open(), then set_blksize, reads, writes, flushes and close,
#    and nothing of discard, zeroout, cache_readahead or set_option; a dry
#    run's open() gets no flag and nothing is written (librecover(3), "The
#    io_manager contract", says what was seen);
#  - its flock on the disk: a replay is refused (8, nothing written) while
#    another process holds a shared lock on the disk, and a dry run is not;
#  - errors: an empty table entry, a disk with no table, a missing disk
#    (8); a partition number out of 1-4, a missing argument (16).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
EXAMPLE=$top_builddir/contrib/partition-example
[ -x "$EXAMPLE" ] || die "$EXAMPLE not built (make check builds it)"

# le32 N: N as four bytes, little-endian (printf's octal escapes, made
# here into its format on purpose).
# shellcheck disable=SC2059
le32() {
	printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $((($1 >> 8) & 255)))"
	printf "\\$(printf %03o $((($1 >> 16) & 255)))\\$(printf %03o $((($1 >> 24) & 255)))"
}

# mbr_entry START SECTORS: a 16-byte partition entry of type 0x83 (Linux).
mbr_entry() {
	printf '\000\000\000\000\203\000\000\000'
	le32 "$1"
	le32 "$2"
}

# fill FILE BYTES WORD: BYTES bytes of WORD and newlines, so that a stray
# write outside the partitions shows.
fill() {
	yes "$3" | head -c "$2" > "$1"
}

set_format 4k-64-v3
mkimg_fmt fs4k.img
std_workload fs4k.img
set_format 1k-32-none
mkimg_fmt fs1k.img
std_workload fs1k.img

# The disk: MBR, gap up to sector 2048, p1 (16 MiB), a gap of 37 sectors,
# p2 (16 MiB), 64 KiB of tail.
P1=2048
P2=$((P1 + 32768 + 37))
SECTORS=32768
{
	head -c 446 /dev/zero
	mbr_entry "$P1" "$SECTORS"
	mbr_entry "$P2" "$SECTORS"
	head -c 32 /dev/zero
	printf '\125\252'
} > mbr.bin
[ "$(wc -c < mbr.bin)" -eq 512 ] || die "the MBR is $(wc -c < mbr.bin) bytes, not 512"
fill gap1.bin $((P1 * 512 - 512)) gap1
fill gap2.bin $((37 * 512)) gap2
fill tail.bin 65536 tail
cat mbr.bin gap1.bin fs4k.img gap2.bin fs1k.img tail.bin > disk.img
say "disk.img: MBR, p1 at sector $P1 (fs4k.img), p2 at sector $P2 (fs1k.img)"

# part DISK START OUT: the 16 MiB partition at sector START, extracted.
part() {
	dd if="$1" of="$3" bs=512 skip="$2" count="$SECTORS" status=none ||
		die "dd of $1 at sector $2 failed"
}

# outside DISK P: the sha256 of DISK's bytes outside partition P, with the
# other partition's bytes counted as outside.
outside() {
	if [ "$2" = 1 ]; then
		{ head -c $((P1 * 512)) "$1"; tail -c +$(((P1 + SECTORS) * 512 + 1)) "$1"; } |
			sha256sum | cut -d' ' -f1
	else
		{ head -c $((P2 * 512)) "$1"; tail -c +$(((P2 + SECTORS) * 512 + 1)) "$1"; } |
			sha256sum | cut -d' ' -f1
	fi
}

# replay_case NAME PARTNUM START FSIMG: partition-example on a copy of the
# disk against jrecover on a copy of FSIMG.
replay_case() {
	case_begin "$1" "partition $2"
	cp disk.img "$1.disk"
	copy_img "$4" "$1.jrecover.img"
	r_out=$(outside "$1.disk" "$2")
	run $TIMEOUT "$EXAMPLE" "$1.disk" "$2"
	r_rc=$RUN_RC
	[ "$r_rc" -eq 1 ] || fail "$1: partition-example exited $r_rc, not 1"
	jrecover "$1.jrecover.img"
	[ "$RUN_RC" -eq "$r_rc" ] || fail "$1: jrecover exited $RUN_RC, partition-example $r_rc"
	part "$1.disk" "$3" "$1.part.img"
	# The two runs write the superblock at their own times: s_wtime (and
	# the checksum over it) may differ by a second; imgcmp -s allows that
	# and nothing else, as every oracle comparison here.
	"$IMGCMP" -s "$1.jrecover.img" "$1.part.img" > cmp.out 2>&1
	case $? in
	0) ;;
	1) sed 's/^/    /' cmp.out
	   fail "$1: the partition differs from jrecover's result" ;;
	*) sed 's/^/    /' cmp.out; die "imgcmp failed" ;;
	esac
	[ "$(outside "$1.disk" "$2")" = "$r_out" ] ||
		fail "$1: bytes outside partition $2 changed"
	run "$EXAMPLE" "$1.disk" "$2"
	[ "$RUN_RC" -eq 0 ] || fail "$1: run again, partition-example exited $RUN_RC, not 0"
	e2fsck -fn "$1.part.img" > /dev/null 2>&1 ||
		fail "$1: e2fsck -fn does not accept the replayed partition"
	case_end
}

replay_case p1-4k 1 "$P1" fs4k.img
replay_case p2-1k 2 "$P2" fs1k.img

# -n: exits as the replay would, and the disk keeps every byte.
case_begin dry "partition 1, -n"
sum=$(sha256_of disk.img)
run "$EXAMPLE" -n disk.img 1
[ "$RUN_RC" -eq 1 ] || fail "dry: partition-example -n exited $RUN_RC, not 1"
grep -q 'would replay 10 block(s) from 6 transaction(s)' "$SCRATCH/.run.out" ||
	fail "dry: partition-example -n does not say what it would replay"
[ "$(sha256_of disk.img)" = "$sum" ] || fail "dry: partition-example -n changed the disk"
case_end

# -v: the calls into the manager.
case_begin trace "partition 2, -v"
cp disk.img trace.disk
"$EXAMPLE" -v trace.disk 2 > trace.out 2> trace.err
t_rc=$?
say "partition-example -v trace.disk 2: exit $t_rc; the methods called:"
sed -n 's/^io: \([a-z_0-9]*\)(.*/\1/p' trace.err | sort | uniq -c | sed 's/^/    /'
[ "$t_rc" -eq 1 ] || fail "trace: partition-example -v exited $t_rc, not 1"
grep -qx 'io: open("trace.disk:2", IO_FLAG_RW|IO_FLAG_EXCLUSIVE)' trace.err ||
	fail "trace: open() was not given \"trace.disk:2\" with IO_FLAG_RW|IO_FLAG_EXCLUSIVE"
[ "$(grep -c '^io: open(' trace.err)" -eq 1 ] || fail "trace: open() called more than once"
for m in set_blksize read_blk64 write_blk64 flush close; do
	grep -q "^io: $m(" trace.err || fail "trace: $m() was not called"
done
for m in discard zeroout cache_readahead set_option; do
	grep -q "^io: $m(" trace.err && fail "trace: $m() was called"
done
tail -n 1 trace.err | grep -q '^io: close(' || fail "trace: close() is not the last call"
"$EXAMPLE" -v -n disk.img 2 > trace-n.out 2> trace-n.err
grep -qx 'io: open("disk.img:2", 0)' trace-n.err ||
	fail "trace: a dry run's open() was given flags"
grep -q '^io: write' trace-n.err && fail "trace: a dry run wrote"
case_end

# The disk's flock: held shared by another process (flock(1), util-linux).
case_begin lock "flock on the disk"
if command -v flock > /dev/null 2>&1; then
	cp disk.img lock.disk
	sum=$(sha256_of lock.disk)
	run flock -s lock.disk "$EXAMPLE" lock.disk 1
	[ "$RUN_RC" -eq 8 ] || fail "lock: a replay under another's lock exited $RUN_RC, not 8"
	grep -q 'held open exclusively' "$SCRATCH/.run.out" ||
		fail "lock: the refusal does not say the disk is busy"
	[ "$(sha256_of lock.disk)" = "$sum" ] || fail "lock: the refused replay wrote"
	run flock -s lock.disk "$EXAMPLE" -n lock.disk 1
	[ "$RUN_RC" -eq 1 ] || fail "lock: a dry run beside a shared lock exited $RUN_RC, not 1"
else
	say "flock(1) not found: the lock case is not run"
fi
case_end

# Operational and usage errors.
case_begin errors "exit 8 and 16"
run "$EXAMPLE" disk.img 3
[ "$RUN_RC" -eq 8 ] || fail "an empty entry: exit $RUN_RC, not 8"
grep -q 'partition 3: that partition table entry is empty' "$SCRATCH/.run.out" ||
	fail "an empty entry: the message does not say so"
run "$EXAMPLE" fs4k.img 1
[ "$RUN_RC" -eq 8 ] || fail "no partition table: exit $RUN_RC, not 8"
grep -q 'no MBR partition table' "$SCRATCH/.run.out" ||
	fail "no partition table: the message does not say so"
run "$EXAMPLE" does-not-exist.img 1
[ "$RUN_RC" -eq 8 ] || fail "a missing disk: exit $RUN_RC, not 8"
run "$EXAMPLE" disk.img 5
[ "$RUN_RC" -eq 16 ] || fail "partition 5: exit $RUN_RC, not 16"
run "$EXAMPLE" disk.img
[ "$RUN_RC" -eq 16 ] || fail "no partition number: exit $RUN_RC, not 16"
run "$EXAMPLE" -Z disk.img 1
[ "$RUN_RC" -eq 16 ] || fail "an unknown option: exit $RUN_RC, not 16"
case_end

end_test
