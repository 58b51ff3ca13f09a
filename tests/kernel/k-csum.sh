#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# k-csum.sh --- kernel journals with the checksum mount options.  Which
# journal features the kernel turns on depends on metadata_csum:
#   csum-v1     no metadata_csum, mount -o journal_checksum: COMPAT_CHECKSUM
#               (v1: a crc32 of the transaction in its commit block)
#   async-v1    no metadata_csum, journal_async_commit (which implies
#               journal_checksum): v1 and ASYNC_COMMIT
#   async-v3    metadata_csum, journal_async_commit: CSUM_V3, ASYNC_COMMIT
# journal_async_commit is refused with data=ordered, so those two use
# data=writeback.  Each journal's features are checked (dumpe2fs), then
# replayed by e2fsck, jrecover and the kernel (klib.sh's kernel_compare).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

# has_jfeatures IMG FEATURE...: the journal of IMG has every FEATURE (as
# dumpe2fs names them) and no other checksum feature.
has_jfeatures() {
	_img=$1
	shift
	_f=$(dumpe2fs -h "$_img" 2> /dev/null | sed -n 's/^Journal features: *//p')
	say "$_img: journal features: $_f"
	for _w in "$@"; do
		case " $_f " in
		*" $_w "*) ;;
		*) die "$_img: the kernel did not set $_w ($_f): fix the test" ;;
		esac
	done
	for _w in journal_checksum journal_checksum_v2 journal_checksum_v3 \
		journal_async_commit; do
		case " $* " in
		*" $_w "*) continue ;;
		esac
		case " $_f " in
		*" $_w "*) die "$_img: unexpected $_w ($_f): fix the test" ;;
		esac
	done
}

kernel_crash_image -t csum-v1.live.tree mixed csum-v1.img \
	"-O ^metadata_csum" journal_checksum
has_jfeatures csum-v1.img journal_checksum
kernel_compare -t csum-v1.live.tree csum-v1.img

kernel_crash_image -t async-v1.live.tree mixed async-v1.img \
	"-O ^metadata_csum" journal_async_commit,data=writeback
has_jfeatures async-v1.img journal_checksum journal_async_commit
kernel_compare -t async-v1.live.tree async-v1.img

kernel_crash_image -t async-v3.live.tree mixed async-v3.img "" \
	journal_async_commit,data=writeback
has_jfeatures async-v3.img journal_checksum_v3 journal_async_commit
kernel_compare -t async-v3.live.tree async-v3.img

kend_test
