#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# escape.sh --- data blocks whose first four bytes are the jbd2 magic
# 0xC03B3998.  The writer stores them with the magic zeroed and the tag's
# ESCAPE flag set; replay must put the magic back.  Blocks that look like a
# whole journal block (descriptor, commit, revoke headers with plausible
# sequence numbers) make a reader that forgets the escape go wrong
# visibly.  Every checksum variant, since the data checksums (v2, v3) and
# v1's commit checksum cover the block as stored, escaped.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for fmt in 4k-64-none 4k-64-v1 4k-64-v2 4k-64-v3 1k-32-v3 1k-32-none; do
	set_format "$fmt"
	img=escape-$fmt.img
	mkimg_fmt "$img"
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 16)
	mkdata e1.bin "$FMT_BS" 3 -s 501 -m
	mkdata e2.bin "$FMT_BS" 1 -H 1:2		# descriptor of T2
	mkdata e3.bin "$FMT_BS" 1 -H 2:1		# commit of T1
	mkdata e4.bin "$FMT_BS" 1 -H 5:1		# revoke in T1
	mkdata e5.bin "$FMT_BS" 1 -m -f 0		# magic, then zeros
	mkdata e6.bin "$FMT_BS" 2 -s 506
	cat e1.bin e2.bin e3.bin e4.bin e5.bin e6.bin > t1.bin
	# T1: escaped blocks mixed with plain ones, the plain ones last.
	jtxn "$img" -b "$(blist "$1" "$2" "$3" "$5" "$6" "$7" "$8" "$9" "${10}")" \
		t1.bin
	# T2: a plain block first, then escaped ones.
	mkdata t2a.bin "$FMT_BS" 1 -s 511
	mkdata t2b.bin "$FMT_BS" 2 -s 512 -H 1:3
	cat t2a.bin t2b.bin > t2.bin
	jtxn "$img" -b "$(blist "${12}" "${13}" "${14}")" t2.bin
	oracle_compare "$img"
	oracle_block "$img" "$1" e1.bin 0
	oracle_block "$img" "$5" e2.bin 0
	oracle_block "$img" "$6" e3.bin 0
	oracle_block "$img" "$7" e4.bin 0
	oracle_block "$img" "$8" e5.bin 0
	oracle_block "$img" "$9" e6.bin 0
	oracle_block "$img" "${14}" t2.bin 2
done

end_test
