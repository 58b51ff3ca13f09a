#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-ext3.sh --- kernel journals of ext3-style filesystems (no extents:
# indirect-mapped files; mounted with the ext4 driver, as a distribution
# kernel mounts ext3 today):
#   lu14958-1k  1 KiB blocks, klib.sh's wl_lu14958: a file of many
#               indirect blocks truncated in many small fsync'd
#               transactions (the LU-14958 shape), revoke records for the
#               freed indirect blocks, some of them allocated again later
#   rmtree-1k   1 KiB blocks, wl_rmtree: a directory of 10000 entries
#               removed, a revoke record for each of its blocks (about a
#               thousand)
#   ext3-4k     4 KiB blocks, wl_ext3 (everyday operations, then a file
#               shrunk in steps)
# The test checks that the lu14958 and rmtree logs have revoke records
# that cancel logged blocks (debugfs's logdump), then replays each with e2fsck,
# jrecover and the kernel.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

EXT3="-O ^extent,^flex_bg,^huge_file,^metadata_csum,^64bit,^dir_nlink,^extra_isize"

kernel_crash_image -s 48M -t lu14958-1k.live.tree lu14958 lu14958-1k.img \
	"-b 1024 $EXT3"
st=$(revoke_stats lu14958-1k.img)
say "lu14958-1k: revoke $st"
case $st in
records=0\ *|*hits=0)
	die "lu14958-1k: no revoke record cancels a logged block: fix the test" ;;
esac
kernel_compare -t lu14958-1k.live.tree lu14958-1k.img

kernel_crash_image -s 64M -t rmtree-1k.live.tree rmtree rmtree-1k.img \
	"-b 1024 -N 12000 $EXT3"
st=$(revoke_stats rmtree-1k.img)
say "rmtree-1k: revoke $st"
case $st in
records=0\ *|*hits=0)
	die "rmtree-1k: no revoke record cancels a logged block: fix the test" ;;
esac
kernel_compare -t rmtree-1k.live.tree rmtree-1k.img

kernel_crash_image -t ext3-4k.live.tree ext3 ext3-4k.img "$EXT3"
say "ext3-4k: revoke $(revoke_stats ext3-4k.img)"
kernel_compare -t ext3-4k.live.tree ext3-4k.img

kend_test
