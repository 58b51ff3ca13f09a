#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# readahead.sh --- the scan's read-ahead thread (lib/readahead.c), which
# hints the kernel to read the log ahead of the scan into the page cache
# through a descriptor of its own.  On journals of the benchmark's shape
# (bench/mkbench: transactions of revoke blocks, a descriptor, 50 logged
# blocks and a commit), without checksums and with csum v3, and on one
# whose log wraps from the journal's end back to s_first (jwrite):
#   - the replay with the thread on (the default) leaves what e2fsck
#     leaves (oracle_compare);
#   - jrecover -n --json says it hinted at least the blocks the scan walked
#     (readahead_blocks >= log_blocks), also for a saved dump of the
#     journal (-j), whose blocks are contiguous;
#   - it hints nothing with LIBRECOVER_DEBUG=no_readahead
#     (RECOVER_FL_NO_READAHEAD), with an undo file (-z: the filesystem's
#     channel is the undo io manager's, not unix_io_manager's), or when the
#     file the channel names does not hold the journal where the channel
#     reads it (an image behind an offset, "IMG?offset=N"), but it does
#     for a superblock whose garbage fields the open cleared in memory;
#   - with fincore(1): after the image is dropped from the page cache,
#     jrecover -i (the scan alone, which reads only the descriptor, revoke
#     and commit blocks through its io channel) leaves at least the whole
#     walked log resident with the thread on; with it off the figure is
#     shown, not checked (the kernel's own read-ahead may fill it too).
# No timing is measured or asserted.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

MKBENCH=$top_builddir/bench/mkbench
need_built "$MKBENCH" "$JWRITE"

# json_field NAME: the number NAME has in the JSON of the last run.
json_field() {
	sed -n "s/.*\"$1\":\([0-9][0-9]*\).*/\1/p" "$SCRATCH/.run.out" |
		head -n 1
}

# hinted CASE EXPECT ARGS...: jrecover -n --json ARGS; EXPECT is "log"
# (readahead_blocks >= log_blocks > 0) or 0.
hinted() {
	_hc=$1
	_he=$2
	shift 2
	jrecover -n --json "$@"
	[ "$RUN_RC" -eq 1 ] || fail "$_hc: jrecover -n exited $RUN_RC, expected 1"
	_ra=$(json_field readahead_blocks)
	_lb=$(json_field log_blocks)
	case $_he in
	log)
		if [ -z "$_lb" ] || [ "$_lb" -eq 0 ] || [ -z "$_ra" ] ||
		   [ "$_ra" -lt "$_lb" ]; then
			fail "$_hc: read ahead ${_ra:-?} blocks of a log of ${_lb:-?}"
		fi ;;
	*)
		[ "$_ra" = "$_he" ] ||
			fail "$_hc: read ahead ${_ra:-?} blocks, expected $_he" ;;
	esac
	say "$_hc: readahead_blocks=$_ra log_blocks=$_lb"
}

# resident IMG: bytes of IMG in the page cache.
resident() {
	fincore -b -n -o RES "$1" 2>/dev/null | tr -d ' '
}

# evict IMG: drop IMG's clean pages from the page cache (after writing it
# back: dirty pages stay).  Fails when the file is still largely cached.
evict() {
	sync "$1" 2>/dev/null || sync
	dd if="$1" iflag=nocache count=0 status=none 2>/dev/null || return 1
}

# cache_case NAME IMG LOGBLOCKS: jrecover -i on IMG just evicted, the thread
# on and off; on, at least LOGBLOCKS blocks of IMG are resident after.
cache_case() {
	case_begin "$1-cache" "the walked log is in the page cache after -i"
	_bs=$(img_bs "$2")
	_log=$(($3 * _bs))
	for _m in on off; do
		copy_img "$2" cache.img
		evict cache.img || { say "cannot evict cache.img"; break; }
		_before=$(resident cache.img)
		case $_before in
		''|*[!0-9]*) say "fincore gave '$_before'"; break ;;
		esac
		if [ "$_before" -ge "$_log" ]; then
			say "cache.img stays cached ($_before bytes): not checked"
			break
		fi
		if [ $_m = on ]; then
			jrecover -i cache.img
		else
			JR_ENV=LIBRECOVER_DEBUG=no_readahead jrecover -i cache.img
		fi
		[ "$RUN_RC" -eq 0 ] || fail "$1: jrecover -i exited $RUN_RC"
		_after=$(resident cache.img)
		say "$1: read-ahead $_m: $_before bytes resident before -i," \
			"$_after after; the log is $_log bytes"
		[ $_m = off ] || [ "$_after" -ge "$_log" ] ||
			fail "$1: only $_after bytes of cache.img resident after -i" \
				"with read-ahead, less than the log's $_log"
	done
	case_end
}

# bench_case NAME MKBENCH_FLAGS: an image of the benchmark's shape.
bench_case() {
	_bn=$1
	_bf=$2
	# shellcheck disable=SC2086
	eval "$("$MKBENCH" -p $_bf -l 50 -H 1 65536)" ||
		die "mkbench -p failed"
	# shellcheck disable=SC2154
	mkimg "$_bn.img" "${IMAGE_MIB}M" -O 64bit,metadata_csum \
		-J size="$JOURNAL_MIB" -E lazy_itable_init=1,lazy_journal_init=1
	# shellcheck disable=SC2086,SC2154
	run "$MKBENCH" $_bf -t "$T" -l "$L" -H "$HIT" "$_bn.img" 65536 ||
		die "mkbench failed on $_bn.img"

	oracle_compare "$_bn.img"

	case_begin "$_bn-hints" "what the thread hints, and when it is off"
	copy_img "$_bn.img" hint.img
	hinted "$_bn" log hint.img
	JR_ENV=LIBRECOVER_DEBUG=no_readahead hinted "$_bn no_readahead" 0 \
		hint.img
	# A dump of the journal: its own file, contiguous.
	rm -f "$_bn.dump"
	jrecover -s "$_bn.dump" hint.img ||
		fail "$_bn: jrecover -s exited $RUN_RC"
	hinted "$_bn dump" log -j "$_bn.dump" hint.img
	# The same filesystem behind 1 MiB of zeroes: the channel reads it at
	# an offset, which the thread's own descriptor does not know.
	dd if=/dev/zero of=offset.img bs=1M count=1 status=none ||
		die "cannot write offset.img"
	cat hint.img >> offset.img || die "cannot write offset.img"
	hinted "$_bn offset" 0 "offset.img?offset=1048576"
	# The undo io manager reads the filesystem and its journal.
	rm -f "$_bn.undo"
	jrecover --json -z "$_bn.undo" hint.img
	[ "$RUN_RC" -eq 1 ] || fail "$_bn: jrecover -z exited $RUN_RC"
	_ra=$(json_field readahead_blocks)
	[ "$_ra" = 0 ] ||
		fail "$_bn: read ahead ${_ra:-?} blocks through the undo io manager"
	rm -f hint.img offset.img "$_bn.dump" "$_bn.undo"
	case_end

	if command -v fincore >/dev/null 2>&1; then
		# shellcheck disable=SC2154
		cache_case "$_bn" "$_bn.img" "$LOG_BLOCKS"
	else
		say "fincore not found (util-linux): the page-cache check is skipped"
	fi
	rm -f "$_bn.img"
}

bench_case bench-none ""
bench_case bench-v3 -c

# A log that wraps: it starts 40 blocks before the end of a 1024-block
# journal, and its 8 transactions of 20 logged blocks run on from s_first.
mkimg wrap.img 64M -O 64bit,metadata_csum -J size=4
jwrite_script() {
	say "version 2"
	say "features revoke 64bit csum3"
	say "start 984"
	say "bulk 8 400 20 hit=5"
}
jwrite_script > wrap.jw
run "$JWRITE" wrap.img < wrap.jw || die "jwrite failed on wrap.img"
oracle_compare wrap.img
case_begin wrap-hints "a log from the journal's end around to s_first"
copy_img wrap.img hint.img
hinted wrap log hint.img
_wraplog=$(json_field log_blocks)
_end=$(sed -n 's/.*"end_at":{"block":\([0-9]*\).*/\1/p' "$SCRATCH/.run.out")
if [ -z "$_end" ] || [ "$_end" -ge 984 ]; then
	fail "wrap: the log ends at journal block ${_end:-?}: it did not wrap"
fi
rm -f hint.img
case_end
if command -v fincore >/dev/null 2>&1; then
	cache_case wrap wrap.img "${_wraplog:-0}"
fi

# An internal journal's v2 superblock claiming 3 users: the open clears its
# fields after s_errno in memory (as e2fsck does), which the thread's check
# of the superblock on disk must allow for.
case_begin garbage "a superblock whose fields after s_errno are cleared"
mkimg garbage.img 64M -O 64bit -J size=4
printf 'version 2\nfeatures revoke 64bit\nnrusers 3\nbulk 2 10 5\n' > garbage.jw
run "$JWRITE" garbage.img < garbage.jw || die "jwrite failed on garbage.img"
hinted garbage log garbage.img
jrecover -n garbage.img
grep -q "claims 3 users" "$SCRATCH/.run.out" ||
	fail "garbage: jrecover did not take the superblock's fields as garbage"
case_end

end_test
