#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# crash.sh --- crash safety of the replay, by fault injection.
#
# For each test journal: an uninterrupted replay gives the reference image
# U (and e2fsck -fn must find U clean).  crashrun counts the N writes and
# flushes of a replay through the fault-injecting io_manager; then for
# EVERY k in 0..N-1 and each way of going wrong at event k + 1
#   drop  a crash: events after k never reach the image (writes that
#         unix_io accepted before still do, at close)
#   exit  a crash: the process dies (_exit) before event k + 1, so what
#         unix_io only cached is lost too
#   power a power cut: writes reach the image only at a flush (a disk's
#         volatile cache), and of those not yet flushed only the newest
#         (event k) lands, so a later write can land without an earlier one
#   eio   event k + 1 fails with EIO (the library must stop and say so)
# a copy of the image is replayed up to the fault, then replayed again by
# jrecover, and must end as U (outside s_wtime, s_kbytes_written and
# s_checksum), agree with what e2fsck -E journal_only makes of the same
# interrupted image, and be clean for e2fsck -fn.
#
# One difference from U is e2fsck's own behaviour and is accepted: a crash
# after the journal superblock was reset but before needs_recovery was
# cleared leaves a journal with s_start = 0 still flagged; replaying that
# (jrecover or e2fsck) moves s_sequence on by one more.
#
# Journals: debugfs's (6 transactions with revokes, escaped blocks, a block
# logged again after its revoke), jwrite's (wrapping round the log end, a
# block logged in four transactions, revokes, long and short runs of
# blocks), jwrite's on an external journal device, and jwrite's on a
# meta_bg filesystem whose stale descriptor copies the replay rewrites.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

need_built "$CRASHRUN" "$JWRITE"

# jsb_seq IMG [JDEV]: s_sequence of the journal superblock
jsb_seq() {
	if [ -n "${2:-}" ]; then
		_js_f=$2 _js_o=$(jdev_sb_offset "$2")
	else
		_js_f=$1 _js_o=$JSB_OFF
	fi
	od -An -tu1 -j $((_js_o + 24)) -N4 "$_js_f" |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'
}

# same_but_sequence A B [JA JB]: A and B differ at most in the journal
# superblock's s_sequence (A's one more than B's) and s_checksum.
same_but_sequence() {
	if [ -n "${3:-}" ]; then
		"$IMGCMP" -q -s "$1" "$2" || return 1
		_sq_a=$3 _sq_b=$4 _sq_o=$(jdev_sb_offset "$3")
	else
		_sq_a=$1 _sq_b=$2 _sq_o=$JSB_OFF
	fi
	_sq_bs=$(img_bs "$_sq_a")
	_sq_l=$("$IMGCMP" -l -s "$_sq_a" "$_sq_b" | tr '\n' ' ')
	[ "$_sq_l" = "$((_sq_o / _sq_bs)) " ] || return 1
	dd if="$_sq_a" bs=1 skip="$_sq_o" count=1024 2>/dev/null > "$SCRATCH/.ja"
	dd if="$_sq_b" bs=1 skip="$_sq_o" count=1024 2>/dev/null > "$SCRATCH/.jb"
	# cmp -l numbers bytes from 1: s_sequence is 25-28, s_checksum 253-256
	_sq_x=$(cmp -l "$SCRATCH/.ja" "$SCRATCH/.jb" |
		awk '$1 < 25 || ($1 > 28 && $1 < 253) || $1 > 256' | wc -l)
	[ "$_sq_x" -eq 0 ] || return 1
	[ "$(jsb_seq "$_sq_a" ${3:+"$_sq_a"})" -eq \
	  $(($(jsb_seq "$_sq_b" ${3:+"$_sq_b"}) + 1)) ]
}

# crash_case IMG [JDEV]
crash_case() {
	_img=$1
	_jdev=${2:-}
	case_begin "${_img%.img}"
	show_journal "$_img" "$_jdev"
	if [ -z "$_jdev" ]; then
		JSB_OFF=$(jsb_offset "$_img")
	fi

	# The reference: an uninterrupted replay by jrecover.
	_u=$_case.u.img
	_uj=${_jdev:+$_case.u.jdev}
	copy_img "$_img" "$_u"
	[ -n "$_jdev" ] && copy_img "$_jdev" "$_uj"
	jrecover ${_uj:+-j "$_uj"} "$_u"
	[ "$RUN_RC" -eq 1 ] || die "$_case: the uninterrupted replay exited $RUN_RC"
	run e2fsck -fn ${_uj:+-j "$_uj"} "$_u"
	[ "$RUN_RC" -eq 0 ] || die "$_case: e2fsck -fn finds the replayed image unclean: fix the test's journal"

	# Every write and flush of a replay through the fault manager.
	_c=$_case.count.img
	_cj=${_jdev:+$_case.count.jdev}
	copy_img "$_img" "$_c"
	[ -n "$_jdev" ] && copy_img "$_jdev" "$_cj"
	run "$CRASHRUN" -t ${_cj:+-j "$_cj"} "$_c"
	[ "$RUN_RC" -eq 0 ] || die "$_case: crashrun without a fault exited $RUN_RC"
	_sum=$(tail -n 1 "$SCRATCH/.run.out")
	_n=$(crashrun_field events "$_sum")
	say "$_case: $_n writes and flushes ($(crashrun_field writes "$_sum") writes, $(crashrun_field flushes "$_sum") flushes)"
	[ "$_n" -gt 2 ] || die "$_case: only $_n events: the replay wrote nothing?"
	"$IMGCMP" -s "$_c" "$_u" > "$SCRATCH/.cmp" ||
		{ sed 's/^/    /' "$SCRATCH/.cmp"
		  fail "$_case: a replay through the fault manager differs from one through unix_io"; }
	if [ -n "$_jdev" ] && ! "$IMGCMP" "$_cj" "$_uj" > "$SCRATCH/.cmp"; then
		sed 's/^/    /' "$SCRATCH/.cmp"
		fail "$_case: the external journal differs through the fault manager"
	fi

	for _mode in drop exit power eio; do
		_k=0
		while [ "$_k" -lt "$_n" ]; do
			crash_at "$_mode" "$_k"
			_k=$((_k + 1))
		done
	done
	case_end "$_n events x 4 modes"
}

# crash_at MODE K: one interrupted replay, then the checks.
crash_at() {
	_t=$_case.$1.$2.img
	_e=$_case.$1.$2.e2fsck.img
	_tj= _ej=
	copy_img "$_img" "$_t"
	if [ -n "$_jdev" ]; then
		_tj=$_case.$1.$2.jdev
		_ej=$_case.$1.$2.e2fsck.jdev
		copy_img "$_jdev" "$_tj"
	fi
	say ""
	say "--- $_case: $1 after event $2"
	run "$CRASHRUN" -m "$1" -k "$2" ${_tj:+-j "$_tj"} "$_t"
	case $1:$RUN_RC in
	exit:75|power:75) ;;
	drop:1|eio:1) ;;
	*:0) fail "$_case: $1 at event $(($2 + 1)): the library returned success" ;;
	*) fail "$_case: $1 at event $(($2 + 1)): crashrun exited $RUN_RC" ;;
	esac

	# What e2fsck makes of the interrupted image.
	copy_img "$_t" "$_e"
	[ -n "$_tj" ] && copy_img "$_tj" "$_ej"
	run e2fsck -y -E journal_only ${_ej:+-j "$_ej"} "$_e"

	# Replay the interrupted image again, with the real jrecover.
	jrecover ${_tj:+-j "$_tj"} "$_t"
	case $RUN_RC in
	0|1) ;;
	*) fail "$_case: $1 at event $(($2 + 1)): replaying again exited $RUN_RC" ;;
	esac
	# s_lastcheck: on a journal with data but needs_recovery clear, e2fsck
	# asks "Run journal anyway?" and then runs its full check, which
	# stamps it (and jrecover refuses).  The library flushes the reset
	# journal superblock before it clears the flag, so no power cut here
	# should leave that state; the field is left out all the same.
	if ! "$IMGCMP" -s -x s_lastcheck "$_t" "$_e" > "$SCRATCH/.cmp" ||
	   { [ -n "$_tj" ] && ! "$IMGCMP" "$_tj" "$_ej" >> "$SCRATCH/.cmp"; }; then
		sed 's/^/    /' "$SCRATCH/.cmp"
		fail "$_case: $1 at event $(($2 + 1)): jrecover and e2fsck finish the interrupted image differently"
	fi
	if "$IMGCMP" -s "$_t" "$_u" > "$SCRATCH/.cmp" &&
	   { [ -z "$_tj" ] || "$IMGCMP" "$_tj" "$_uj" >> "$SCRATCH/.cmp"; }; then
		say "    same as the uninterrupted replay"
	elif same_but_sequence "$_t" "$_u" $_tj $_uj; then
		say "    same as the uninterrupted replay but s_sequence + 1 (journal reset, flag not yet cleared: as e2fsck does)"
	else
		sed 's/^/    /' "$SCRATCH/.cmp"
		fail "$_case: $1 at event $(($2 + 1)): the finished image differs from the uninterrupted replay"
	fi
	run e2fsck -fn ${_tj:+-j "$_tj"} "$_t"
	[ "$RUN_RC" -eq 0 ] ||
		fail "$_case: $1 at event $(($2 + 1)): e2fsck -fn finds the finished image unclean"
	rm -f "$_t" "$_e" ${_tj:+"$_tj"} ${_ej:+"$_ej"}
}

# --- debugfs's journal ----------------------------------------------------------
set_format 4k-64-v3
img=debugfs.img
mkimg_fmt "$img"
std_workload "$img"
crash_case "$img"

# --- jwrite's journal: wrapping, a block logged four times ---------------------
img=jwrite.img
mkimg "$img" 16M -b 1024 -O ^metadata_csum,^64bit
# shellcheck disable=SC2046
set -- $(free_blocks "$img" 40)
"$JWRITE" "$img" <<EOF || die "jwrite failed"
features revoke csum1
start 1010
txn
log $1-${10}
commit
txn
log $3 $5 escape
revoke $4
commit
txn
revoke $3 ${11}
log ${20}-${30}
commit
txn
log $3 $4 ${31}
commit
txn
log $3
commit
EOF
crash_case "$img"

# --- the same on an external journal device --------------------------------------
img=external.img
mkimg_ext "$img" 16M external.jdev 8M -O ^metadata_csum
# shellcheck disable=SC2046
set -- $(free_blocks "$img" 20)
"$JWRITE" -j external.jdev "$img" <<EOF || die "jwrite failed"
features revoke 64bit
txn
log $1-$8
commit
txn
revoke $2
log $9 $3
commit
txn
log $2 $3
commit
EOF
crash_case "$img" external.jdev

# --- meta_bg: the descriptor copies the end of the replay rewrites ---------------
# Copies older than their first block (files written since, the copies put
# back as mke2fs left them, as the kernel leaves them): the replay rewrites
# them before its first flush.
img=metabg.img
mkimg "$img" 16M -b 1024 -g 512 -O meta_bg,^resize_inode
copy_img "$img" metabg.before
mkdata metabg.bin 1024 30 -s 31
dfs_quiet "$img" <<EOF
write metabg.bin f1
mkdir d
write metabg.bin d/f2
EOF
for blk in $(dumpe2fs "$img" 2>/dev/null | awk '
	/^Group [0-9]+:/ { g = $2; sub(/:/, "", g) }
	/Group descriptor at / && g % 16 {
		s = $0; sub(/.*Group descriptor at /, "", s); print s + 0
	}'); do
	getblk metabg.before "$blk" |
		dd of="$img" bs=1024 seek="$blk" conv=notrunc 2>/dev/null
done
rm -f metabg.before
# The copy in group 1 (after its backup superblock) is not block 2's.
getblk "$img" 2 > metabg.first
getblk "$img" 514 | cmp -s - metabg.first &&
	die "$img: the copies are not stale: fix the test"
rm -f metabg.first metabg.bin
# shellcheck disable=SC2046
set -- $(free_blocks "$img" 6)
"$JWRITE" "$img" <<EOF || die "jwrite failed"
features revoke 64bit csum3
txn
log $1-$4
commit
txn
log $5 $6
commit
EOF
crash_case "$img"

end_test
