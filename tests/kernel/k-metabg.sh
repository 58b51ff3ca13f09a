#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-metabg.sh --- kernel journals on meta_bg filesystems (klib.sh's
# wl_mixed), each replayed by e2fsck and by jrecover (byte for byte) and by
# the kernel (as trees).  The kernel logs and writes only each metagroup's
# first descriptor block; e2fsck's replay rewrites the copies in the
# metagroup's second and last groups from it (tests/oracle/jw-metabg.sh
# has the details):
#   metabg-1k       1 KiB blocks, 256 blocks a group (128 groups, 8
#                   metagroups of 16)
#   metabg-4k       4 KiB blocks, 1024 blocks a group (80 groups, 2
#                   metagroups of 64)

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

# copies IMG: "METAGROUP BLOCK" for each meta_bg descriptor block of IMG
# (dumpe2fs's "Group descriptor at" lines), the metagroup's first first.
copies() {
	_h=$(dumpe2fs -h "$1" 2>/dev/null)
	_ds=$(say "$_h" | sed -n 's/^Group descriptor size: *//p')
	_fmb=$(say "$_h" | sed -n 's/^First meta block group: *//p')
	dumpe2fs "$1" 2>/dev/null | awk -v per=$(($(img_bs "$1") / ${_ds:-32})) \
		-v fmb="${_fmb:-0}" '
		/^Group [0-9]+:/ { g = $2; sub(/:/, "", g) }
		/Group descriptor at / && int(g / per) >= fmb {
			s = $0
			sub(/.*Group descriptor at /, "", s)
			sub(/[^0-9].*/, "", s)
			print int(g / per), s
		}'
}

# stale_copies IMG: how many of IMG's meta_bg copies (in a metagroup's
# second or last group) differ from their metagroup's first block.
stale_copies() {
	copies "$1" | while read -r _m _b; do
		say "$_m $(getblk "$1" "$_b" | sha256sum | cut -d' ' -f1)"
	done | awk '
		!($1 in first) { first[$1] = $2; next }
		$2 != first[$1] { n++ }
		END { print n + 0 }'
}

# metabg_case CASE: kernel_compare; and a check that the case shows what it
# is for: the kernel's log rewrites first blocks, and e2fsck's replay
# leaves no copy unlike its first (so it rewrote the copies).
metabg_case() {
	kernel_compare -t "$1.live.tree" "$1.img"
	_n=0
	while read -r _m _b; do
		getblk "$1.img" "$_b" > "$SCRATCH/.a"
		getblk "$1.e2fsck.img" "$_b" > "$SCRATCH/.b"
		cmp -s "$SCRATCH/.a" "$SCRATCH/.b" || _n=$((_n + 1))
	done <<-EOF
	$(copies "$1.img")
	EOF
	say "$1: the replay changed $_n meta_bg descriptor blocks"
	[ "$_n" -gt 0 ] || fail "$1: the log changed no descriptor block: fix the test"
	_n=$(stale_copies "$1.e2fsck.img")
	[ "$_n" -eq 0 ] ||
		fail "$1: e2fsck left $_n copies unlike their first: fix the test"
}

kernel_crash_image -t metabg-1k.live.tree mixed metabg-1k.img \
	"-b 1024 -g 256 -O meta_bg,^resize_inode"
metabg_case metabg-1k

kernel_crash_image -s 320M -t metabg-4k.live.tree mixed metabg-4k.img \
	"-b 4096 -g 1024 -O meta_bg,^resize_inode"
metabg_case metabg-4k

kend_test
