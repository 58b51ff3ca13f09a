#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# overlap.sh --- journals as debugfs's writer gets them wrong.  debugfs
# reserves room for a transaction from an estimate and starts the next one
# in the same session after that room; when a transaction takes more (a jw
# with both -b and -r, or a revoke list one record too long for its
# estimate), the next one overwrites its commit block.  The log then holds
# T1 without a commit, and where T1's commit should be, T2's descriptor:
# the scan stops at the unexpected sequence number, nothing replays, and
# the flags and the journal superblock are reset (exit 1).  T2 is intact
# after that point: a reader that skipped ahead would replay it.
#   overlap-both     jw -b A -r B, then jw -b C
#   overlap-revokes  jw -r with 1021 blocks (two revoke blocks in a 4 KiB
#                    32-bit journal, estimated as one), then jw -b C

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for fmt in 4k-64-none 1k-32-v3 4k-64-v2; do
	set_format "$fmt"
	img=overlap-both-$fmt.img
	mkimg_fmt "$img"
	# shellcheck disable=SC2046
	set -- $(free_blocks "$img" 4)
	mkdata o1.bin "$FMT_BS" 1 -s 801
	mkdata o2.bin "$FMT_BS" 1 -s 802
	jsession "$img" <<EOS
jo $JO_OPTS
jw -b $1 -r $2 o1.bin
jw -b $3 o2.bin
jc
EOS
	oracle_compare "$img"
	oracle_block "$img" "$1" old
	oracle_block "$img" "$3" old
done

set_format 4k-32-none
img=overlap-revokes.img
mkimg_fmt "$img"
all=$(free_blocks "$img" 1022)
# shellcheck disable=SC2086
set -- $all
shift 1021
mkdata o3.bin "$FMT_BS" 1 -s 803
# shellcheck disable=SC2046,SC2086
jsession "$img" <<EOS
jo $JO_OPTS
jw -r $(blist $(say $all | cut -d' ' -f1-1021))
jw -b $1 o3.bin
jc
EOS
oracle_compare "$img"
oracle_block "$img" "$1" old

end_test
