#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-datajournal.sh --- kernel journals with file data in the log, and
# deletes (klib.sh's wl_djdel and wl_djflag):
#   dj-mount     the data=journal mount option: every file's data logged,
#                deleted, the blocks reused and logged again; ext4 writes
#                no revoke record under this option (measured, and so the
#                kernel's ext4_forget reads: it forgets freed blocks
#                instead), so the log is blocks logged over and over
#   dj-mount-32  the same, 32-bit without metadata_csum (no checksums)
#   dj-ordered   the same workload in data=ordered: the removed directory
#                is metadata, and its blocks get revoke records
#   dj-flag      files with the journal-data flag (chattr +j) in a
#                data=ordered mount: freeing their data blocks writes
#                revoke records for them, and later transactions log the
#                reused blocks again.  Setting the flag needs
#                CAP_SYS_RESOURCE; without it the case is left out (said
#                in the log).
#   dj-flag-32   the same, 32-bit without metadata_csum: 4-byte revoke
#                records
# Where revoke records are expected the test checks (debugfs's logdump)
# that some cancel a block logged before them; each journal is replayed
# by e2fsck, jrecover and the kernel.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

caps=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status 2> /dev/null)
if [ -n "$caps" ] && [ $((0x$caps >> 24 & 1)) = 1 ]; then
	flag="dj-flag:djflag:: dj-flag-32:djflag:-O^64bit,^metadata_csum:"
else
	flag=
	say "no CAP_SYS_RESOURCE (CapEff $caps): chattr +j is refused," \
		"the dj-flag cases are left out"
fi

for c in dj-mount:djdel::data=journal \
	dj-mount-32:djdel:-O^64bit,^metadata_csum:data=journal \
	dj-ordered:djdel:: $flag; do
	name=${c%%:*}
	c=${c#*:}
	wl=${c%%:*}
	c=${c#*:}
	mkfs=${c%%:*}
	kernel_crash_image -t "$name.live.tree" "$wl" "$name.img" "$mkfs" \
		"${c#*:}"
	st=$(revoke_stats "$name.img")
	say "$name: revoke $st"
	case $name:$st in
	dj-mount*) ;;
	*:records=0\ *|*:*hits=0)
		die "$name: no revoke record cancels a logged block: fix the test" ;;
	esac
	kernel_compare -t "$name.live.tree" "$name.img"
done

kend_test
