#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# relog.sh --- one block logged again and again, revoked in between:
#   relog-last-log     B and C logged in each of 8 transactions, B revoked
#                      in transactions of their own after the 3rd and the
#                      6th: B and C replay from the 8th
#   relog-last-revoke  the same, then B revoked once more: every copy of B
#                      is hidden and B keeps its old contents
#   same-txn           B logged in T1; T2 logs B and C and revokes B (one
#                      jw with -b and -r): a revoke hides copies in its own
#                      transaction too, so B stays as it was, C replays
#   same-txn-relog     the same, then T3 logs B again: B replays from T3
#   revoke-many        T1 logs 10 blocks, T2 revokes 2000 blocks (several
#                      revoke blocks) including them, T3 logs 5 of them again
#   revoke-unlogged    revokes of blocks that are never logged
# in a 4 KiB 64-bit CSUM_V3 journal and a 1 KiB 32-bit one without
# checksums; then failed data checksums on relogged blocks (below).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"

	for last in log revoke; do
		img=relog-last-$last-$fmt.img
		mkimg_fmt "$img"
		# shellcheck disable=SC2046
		set -- $(free_blocks "$img" 8)
		b=$3
		c=$6
		for i in 1 2 3 4 5 6 7 8; do
			mkdata "r$i.bin" "$FMT_BS" 2 -s $((100 + i))
			jtxn "$img" -b "$b,$c" "r$i.bin"
			case $i in
			3|6) jtxn "$img" -r "$b" ;;
			esac
		done
		[ "$last" = revoke ] && jtxn "$img" -r "$b"
		oracle_compare "$img"
		if [ "$last" = revoke ]; then
			oracle_block "$img" "$b" old
		else
			oracle_block "$img" "$b" r8.bin 0
		fi
		oracle_block "$img" "$c" r8.bin 1
	done

	for relog in no yes; do
		img=same-txn-$fmt.img
		[ "$relog" = yes ] && img=same-txn-relog-$fmt.img
		mkimg_fmt "$img"
		# shellcheck disable=SC2046
		set -- $(free_blocks "$img" 4)
		b=$2
		c=$4
		mkdata s1.bin "$FMT_BS" 1 -s 201
		mkdata s2.bin "$FMT_BS" 2 -s 202
		mkdata s3.bin "$FMT_BS" 1 -s 203
		jtxn "$img" -b "$b" s1.bin
		jtxn "$img" -b "$b,$c" -r "$b" s2.bin
		[ "$relog" = yes ] && jtxn "$img" -b "$b" s3.bin
		oracle_compare "$img"
		if [ "$relog" = yes ]; then
			oracle_block "$img" "$b" s3.bin 0
		else
			oracle_block "$img" "$b" old
		fi
		oracle_block "$img" "$c" s2.bin 1
	done

	img=revoke-many-$fmt.img
	mkimg_fmt "$img"
	all=$(free_blocks "$img" 2000)
	# shellcheck disable=SC2086
	set -- $all
	shift 100
	mkdata m1.bin "$FMT_BS" 10 -s 301
	mkdata m3.bin "$FMT_BS" 5 -s 303
	m1=$(blist "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}")
	jtxn "$img" -b "$m1" m1.bin
	# shellcheck disable=SC2086
	jtxn "$img" -r "$(blist $all)"
	jtxn "$img" -b "$(blist "$6" "$7" "$8" "$9" "${10}")" m3.bin
	oracle_compare "$img"
	oracle_block "$img" "$1" old
	oracle_block "$img" "$5" old
	oracle_block "$img" "$6" m3.bin 0
	oracle_block "$img" "${10}" m3.bin 4

	img=revoke-unlogged-$fmt.img
	mkimg_fmt "$img"
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 6)
	mkdata u1.bin "$FMT_BS" 2 -s 401
	jtxn "$img" -r "$1,$2"
	jtxn "$img" -b "$3,$4" u1.bin
	jtxn "$img" -r "$5,$6"
	oracle_compare "$img"
	oracle_block "$img" "$3" u1.bin 0
	oracle_block "$img" "$4" u1.bin 1
done

# jrecover writes each block once, its last copy whose checksum holds;
# e2fsck writes every copy in log order, skipping those that fail.  With a
# failed checksum on the last copy (or on several) both must leave the
# copy before it, and both count every failed copy:
#   bad-last    B logged in T1..T3, T3's copy fails: B from T2
#   bad-middle  T2's fails: B from T3
#   bad-tail2   T2's and T3's fail: B from T1
#   bad-all     every copy fails: B as it was
# C, logged beside B in each, replays from T3 throughout.
set_format 4k-64-v3
for bad in last middle tail2 all; do
	img=bad-$bad.img
	# shellcheck disable=SC2086
	mkimg "$img" 16M $FMT_MKFS
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 2)
	b1= b2= b3=
	case $bad in
	last) b3=badcsum ;;
	middle) b2=badcsum ;;
	tail2) b2=badcsum b3=badcsum ;;
	all) b1=badcsum b2=badcsum b3=badcsum ;;
	esac
	"$JWRITE" "$img" <<EOF || die "jwrite failed"
features revoke 64bit csum3
txn
log $1 fill=0x11 $b1
log $2 fill=0x12
commit
txn
log $1 fill=0x21 $b2
log $2 fill=0x22
commit
txn
log $1 fill=0x31 $b3
log $2 fill=0x32
commit
EOF
	oracle_compare -e 4 "$img"
	case $bad in
	last) want=21 ;;
	middle) want=31 ;;
	tail2) want=11 ;;
	all) want= ;;
	esac
	got=$(getblk "${img%.img}.e2fsck.img" "$1" | od -An -tx1 -N1 | tr -d ' ')
	if [ -n "$want" ]; then
		[ "$got" = "$want" ] ||
			fail "$img: e2fsck left block $1 starting $got, not $want: fix the test"
	else
		oracle_block "$img" "$1" old
	fi
	got=$(getblk "${img%.img}.e2fsck.img" "$2" | od -An -tx1 -N1 | tr -d ' ')
	[ "$got" = 32 ] || fail "$img: e2fsck left block $2 starting $got, not 32"
done

end_test
