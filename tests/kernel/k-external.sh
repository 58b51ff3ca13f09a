#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-external.sh --- kernel journals on an external journal device: the
# journal made with `mke2fs -O journal_dev` on a loop device, the
# filesystem with `mke2fs -J device=LOOP`, mounted with journal_path=.
# Both files are copied before the umount; e2fsck gets the copies with -j,
# jrecover with -j, the kernel with journal_path= on a loop device.
#   ext-4k   ext4 defaults, klib.sh's wl_mixed
#   ext-1k   1 KiB blocks (the journal superblock is then in the journal
#            device's block 2, after its ext2 superblock)
#   ext-v1   no metadata_csum, mount -o journal_checksum (v1 checksums)

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

for c in ext-4k:: "ext-1k:-b 1024:" "ext-v1:-O ^metadata_csum:journal_checksum"; do
	name=${c%%:*}
	c=${c#*:}
	kernel_crash_image -j 8M -t "$name.live.tree" mixed "$name.img" \
		"${c%%:*}" "${c#*:}"
	dumpe2fs -h "$name.img" 2> /dev/null | grep -q '^Journal UUID:' ||
		die "$name.img has no external journal: fix the test"
	kernel_compare -t "$name.live.tree" "$name.img" "$name.jdev"
done

kend_test
