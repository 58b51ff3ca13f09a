#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# uncommitted.sh --- a last transaction without its commit block (debugfs
# jw -c), as after a crash in the middle of a commit:
#   tail-log     T1 committed, T2 logs blocks but is not committed: only T1
#                replays
#   tail-revoke  T1 logs B, uncommitted T2 revokes it: the revoke does not
#                count, B replays from T1
#   tail-both    T1 committed, T2 committed, uncommitted T3 logs one of T2's
#                blocks again and a new one
# (An uncommitted first transaction leaves s_start = 0: see clean.sh.)
# The uncommitted transaction is written in the same debugfs session as the
# last committed one, right after it.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for fmt in 4k-64-none 4k-64-v3 1k-32-v2 1k-64-v1; do
	set_format "$fmt"

	img=tail-log-$fmt.img
	mkimg_fmt "$img"
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 4)
	mkdata c1.bin "$FMT_BS" 2 -s 601
	mkdata c2.bin "$FMT_BS" 2 -s 602
	jsession "$img" <<EOS
jo $JO_OPTS
jw -b $1,$2 c1.bin
jw -c -b $2,$3 c2.bin
jc
EOS
	oracle_compare "$img"
	oracle_block "$img" "$2" c1.bin 1
	oracle_block "$img" "$3" old

	# v1 checksums the revoke block, so e2fsck would stop at T2 for the
	# wrong reason; the case only makes sense with the other formats.
	if [ "$FMT_CSUM" != v1 ]; then
		img=tail-revoke-$fmt.img
		mkimg_fmt "$img"
		# shellcheck disable=SC2046
		set -- $(free_blocks "$img" 4)
		mkdata c1.bin "$FMT_BS" 2 -s 611
		jsession "$img" <<EOS
jo $JO_OPTS
jw -b $1,$2 c1.bin
jw -c -r $1
jc
EOS
		oracle_compare "$img"
		oracle_block "$img" "$1" c1.bin 0
	fi

	img=tail-both-$fmt.img
	mkimg_fmt "$img"
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 6)
	mkdata c1.bin "$FMT_BS" 2 -s 621
	mkdata c2.bin "$FMT_BS" 2 -s 622
	mkdata c3.bin "$FMT_BS" 2 -s 623
	jtxn "$img" -b "$1,$2" c1.bin
	jsession "$img" <<EOS
jo $JO_OPTS
jw -b $3,$4 c2.bin
jw -c -b $4,$5 c3.bin
jc
EOS
	oracle_compare "$img"
	oracle_block "$img" "$4" c2.bin 1
	oracle_block "$img" "$5" old
done

end_test
