#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-wrap.sh --- kernel journals whose log wraps: a journal of 1024 blocks
# (the smallest mke2fs makes) and enough small fsync'd transactions
# (klib.sh's wl_wrap) that the live log runs from s_start to the
# journal's last block and on from its first.  The test checks the wrap
# on the crash image with debugfs's logdump (the walk goes back to a lower
# block), then replays it with e2fsck, jrecover and the kernel.
#   wrap-1k  1 KiB blocks, -J size=1
#   wrap-4k  4 KiB blocks, -J size=4, 32-bit without metadata_csum

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

for c in "wrap-1k:-b 1024 -J size=1" \
	"wrap-4k:-J size=4 -O ^64bit,^metadata_csum"; do
	name=${c%%:*}
	# The kernel may move the log's tail between the workload's last
	# look and the shutdown (a checkpoint, sooner on a loaded machine):
	# the image is made again, three times at most, until its log wraps.
	tries=0
	until kernel_crash_image -t "$name.live.tree" wrap "$name.img" \
		"${c#*:}" && log_wraps "$name.img"; do
		tries=$((tries + 1))
		[ "$tries" -lt 3 ] ||
			die "$name: the log does not wrap after 3 tries: fix the test"
		say "$name: the log does not wrap ($(journal_state "$name.img")): again"
	done
	say "$name: the log wraps ($(journal_state "$name.img"))"
	kernel_compare -t "$name.live.tree" "$name.img"
done

kend_test
