#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-errors.sh --- kernel journals aborted on a filesystem error: a
# directory broken before the mount (klib.sh's pre_baddir), the everyday
# workload, then a read of that directory (wl_error) in a mount with
# errors=remount-ro.  ext4 records the error in its superblock, jbd2
# aborts the journal and writes s_errno = -EIO (-5) into the journal
# superblock, and the filesystem goes read-only; the shutdown follows.
# e2fsck's replay turns the journal's errno into the filesystem's error
# state; jrecover must do the same, and exit 4 (recovered, errors left:
# run e2fsck -f).  The kernel's replay (which clears s_errno the same way)
# and jrecover's are compared as trees too.
#   err-4k   internal journal
#   err-ext  external journal device (s_errno in the device's journal)

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

for c in err-4k: err-ext:8M; do
	name=${c%%:*}
	jsize=${c#*:}
	jdev=
	# shellcheck disable=SC2046
	kernel_crash_image -p pre_baddir $([ -z "$jsize" ] || echo "-j $jsize") \
		error "$name.img" "" errors=remount-ro
	[ -z "$jsize" ] || jdev=$name.jdev
	# shellcheck disable=SC2086
	st=$(journal_state "$name.img" $jdev)
	case $st in
	*errno=-5) ;;
	*) die "$name: the journal was not aborted with -EIO ($st): fix the test" ;;
	esac
	# shellcheck disable=SC2086
	kernel_compare -O "-e 4" "$name.img" $jdev
done

kend_test
