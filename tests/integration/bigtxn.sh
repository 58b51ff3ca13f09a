#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bigtxn.sh --- transactions that need several descriptor blocks, and logs
# with many transactions:
#   desc-N-FMT   one transaction of N blocks.  In a 1 KiB journal without
#                checksums and 32-bit tags (8 bytes, the first followed by
#                the 16-byte UUID) a descriptor holds 124 tags, the last
#                ending 4 bytes short of the block end: N = 124 fills one
#                exactly, 125 spills one tag into a second, 248 and 300 need
#                two and three.  The other formats have 16-byte (v3),
#                14-byte (v2, 64-bit) and 8-byte (v1, 32-bit) tags.  The
#                4 KiB cases use a 128 MiB image with a 16 MiB journal.
#   many-FMT     60 small transactions, each logging a block and revoking
#                the one logged three transactions before.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

# desc_case FMT SIZE N
desc_case() {
	set_format "$1"
	img=desc-$3-$1.img
	# shellcheck disable=SC2086
	mkimg "$img" "$2" $FMT_MKFS
	mkdata big.bin "$FMT_BS" "$3" -s "$3"
	# shellcheck disable=SC2046
	jtxn "$img" -b "$(blist $(free_blocks "$img" "$3" 2000))" big.bin
	oracle_compare "$img"
}

for n in 124 125 248 300; do
	desc_case 1k-32-none 16M "$n"
done
desc_case 1k-64-v3 16M 300
desc_case 4k-64-v2 128M 1200
desc_case 4k-32-v1 128M 600

for fmt in 1k-64-v3 4k-32-none; do
	set_format "$fmt"
	img=many-$fmt.img
	mkimg_fmt "$img"
	blocks=$(free_blocks "$img" 60)
	i=0
	for b in $blocks; do
		i=$((i + 1))
		mkdata m.bin "$FMT_BS" 1 -s "$i"
		jtxn "$img" -b "$b" m.bin > /dev/null
		if [ "$i" -gt 3 ]; then
			# shellcheck disable=SC2086
			jtxn "$img" -r "$(say $blocks | cut -d' ' -f$((i - 3)))" \
				> /dev/null
		fi
	done
	oracle_compare "$img"
done

end_test
