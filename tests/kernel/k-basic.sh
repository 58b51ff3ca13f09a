#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-basic.sh --- kernel journals of everyday workloads (klib.sh's
# wl_mixed: creates, appends, overwrites, renames, links, unlinks,
# truncates, fallocate, an extended attribute), each replayed by e2fsck
# and by jrecover (byte for byte) and by the kernel (as trees):
#   mixed-4k        ext4 defaults (4 KiB blocks, metadata_csum: journal
#                   checksums v3), shut down without flushing the log
#   mixed-4k.umounted  the same image after its umount: the umount wrote
#                   the committed metadata home, the log is still there
#   mixed-1k        1 KiB blocks
#   logflush        shut down with EXT4_GOING_FLAGS_LOGFLUSH (the running
#                   transaction committed first)
#   nocsum-32       32-bit, no metadata_csum: no journal checksums,
#                   4-byte block numbers in the tags

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

kernel_crash_image -t mixed-4k.live.tree mixed mixed-4k.img
kernel_compare -t mixed-4k.live.tree mixed-4k.img
oracle_compare mixed-4k.umounted.img
kernel_counted

kernel_crash_image -t mixed-1k.live.tree mixed mixed-1k.img "-b 1024"
kernel_compare -t mixed-1k.live.tree mixed-1k.img

kernel_crash_image -k logflush -t logflush.live.tree mixed logflush.img
kernel_compare -t logflush.live.tree logflush.img

kernel_crash_image -t nocsum-32.live.tree mixed nocsum-32.img \
	"-O ^64bit,^metadata_csum"
kernel_compare -t nocsum-32.live.tree nocsum-32.img

kend_test
