#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-writer.sh --- kernel journals cut while writers were still running
# (klib.sh's wl_writer: two processes writing and fsyncing in a loop,
# and the shell creating and removing files, when EXT4_IOC_SHUTDOWN
# comes): the log ends wherever the shutdown found it.  Replayed by
# e2fsck, jrecover and the kernel; the kernel's tree must be jrecover's.
# (There is no tree "before the shutdown" to compare with: the writers
# were changing it.)
#   writer-4k  ext4 defaults
#   writer-dj  1 KiB blocks, data=journal (the writers' data in the log
#              too, so the log fills faster: on the machine this was
#              written on its tail moved, and the log wrapped, while they
#              ran)

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

for c in writer-4k:: "writer-dj:-b 1024:data=journal"; do
	name=${c%%:*}
	c=${c#*:}
	kernel_crash_image writer "$name.img" "${c%%:*}" "${c#*:}"
	kernel_compare "$name.img"
done

kend_test
