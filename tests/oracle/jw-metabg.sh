#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-metabg.sh --- the group descriptors e2fsck writes after its replay,
# on meta_bg and on the other layouts.
#
# e2fsck closes the filesystem after its replay with only the primary
# superblock to write (EXT2_FLAG_MASTER_SB_ONLY), which spares the backup
# superblocks and the old-style descriptor backups but not the meta_bg
# copies: each metagroup's descriptor block (as the replay left it, read
# back from the metagroup's first group) goes over its copies in the
# metagroup's second and last groups.  The kernel only ever updates the
# first, so after any use of the filesystem the copies are stale.
#
#   mb1-log, mb4-log  (1 KiB blocks, 32 groups; 4 KiB, 72 groups)
#                   debugfs (jo / jw -b / jc) logs the primary descriptor
#                   block with group 3 changed (free blocks count, checksum
#                   recomputed): the copies in groups 1 and 15, 17 and 31
#                   (1 KiB) or 1, 63 and 65 (4 KiB) get the replayed
#                   blocks [1]
#   mb1-stale, mb4-stale
#                   no descriptor logged (jwrite logs free blocks), but the
#                   copies are older than the first blocks (files written
#                   and a group changed since, the copies put back as
#                   mke2fs left them): every copy rewritten [1]
#   mb1-nolog       the same stale copies, needs_recovery set and an empty
#                   log: still rewritten [1]
#   mb1-errno       s_errno set, no log, needs_recovery clear: e2fsck moves
#                   s_errno into the superblock and writes the copies too [4]
#   NAME-log (and NAME-stale) on other layouts: 32-bit descriptors (32 a
#   block), sparse_super2, no sparse_super, no flex_bg, 128 groups (8
#   metagroups), bigalloc (1 KiB blocks: the primary at block 2), and
#   s_first_meta_bg 1 (fmb: metagroup 0 old-style, its backups not
#   written) [1]
#   plain*-log      no meta_bg (resize_inode, 4 KiB, sparse_super2, no
#                   sparse_super, 32-bit with 64 groups): the primary
#                   descriptor block logged; e2fsck writes the primaries
#                   only, the backups stay as they were [1]
#   shrink          the log holds a superblock (and first blocks) with
#                   fewer groups: the copies are those of the layout after
#                   the replay [1]
#   ji-alone        the journal inode invalid, rewritten from the
#                   superblock's backup, no log: e2fsck writes the inode
#                   and the primary superblock, no copy [1]
#   ji-log          the same with a log: the copies are rewritten [1]
#
# Besides the byte-for-byte comparison, each case checks what e2fsck did
# (each copy of a meta_bg descriptor block equal to the first, or each
# backup unchanged without meta_bg) and that jrecover -n counts the copies
# the layout has (JSON descriptor_copies).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

# descs IMG: "GROUP BLOCK" for each group holding a group descriptor block
# (the first of a run), as dumpe2fs shows them.
descs() {
	dumpe2fs "$1" 2>/dev/null | awk '
		/^Group [0-9]+:/ { g = $2; sub(/:/, "", g) }
		/Group descriptors? at / {
			s = $0
			sub(/.*Group descriptors? at /, "", s)
			sub(/-.*/, "", s)
			sub(/[^0-9].*/, "", s)
			print g, s
		}'
}

# geometry IMG: sets PER (descriptors a block), FIRST_MB (s_first_meta_bg,
# 0 without meta_bg) and META (1 with meta_bg).
geometry() {
	_h=$(dumpe2fs -h "$1" 2>/dev/null)
	_ds=$(say "$_h" | sed -n 's/^Group descriptor size: *//p')
	_bsz=$(img_bs "$1")
	PER=$((_bsz / ${_ds:-32}))
	META=0
	FIRST_MB=0
	case $(say "$_h" | sed -n 's/^Filesystem features: *//p') in
	*meta_bg*) META=1
		FIRST_MB=$(say "$_h" | sed -n 's/^First meta block group: *//p')
		FIRST_MB=${FIRST_MB:-0} ;;
	esac
}

# copies IMG: "BLOCK PRIMARY" for each meta_bg copy (a descriptor block in
# a metagroup's second or last group), PRIMARY the block in the first.
copies() {
	geometry "$1"
	[ "$META" = 1 ] || return 0
	descs "$1" | awk -v per="$PER" -v fmb="$FIRST_MB" '
		int($1 / per) >= fmb {
			mg = int($1 / per)
			if ($1 % per == 0) first[mg] = $2
			else { n++; cb[n] = $2; cm[n] = mg }
		}
		END { for (i = 1; i <= n; i++) print cb[i], first[cm[i]] }'
}

# backups IMG: the descriptor blocks that are not primaries and not meta_bg
# copies: old-style backups (groups with a backup superblock).
backups() {
	geometry "$1"
	descs "$1" | awk -v per="$PER" -v fmb="$FIRST_MB" -v meta="$META" '
		$1 != 0 && (!meta || int($1 / per) < fmb) { print $2 }'
}

# stale IMG: make IMG's meta_bg copies older than its primaries, as a
# kernel leaves them: write files with debugfs (which updates every copy),
# then put the copies back as they were.
stale() {
	copy_img "$1" "$1.before"
	mkdata stale.bin "$(img_bs "$1")" 40 -s 21
	_last=$(($(dumpe2fs "$1" 2>/dev/null | grep -c '^Group [0-9]*:') - 1))
	# Files for metagroup 0; the last group's unused inodes for the last.
	dfs_quiet "$1" <<-EOF
	write stale.bin stale1
	mkdir staledir
	write stale.bin staledir/stale2
	set_bg $_last itable_unused 0
	set_bg $_last checksum calc
	EOF
	copies "$1" | while read -r _cb _pb; do
		getblk "$1.before" "$_cb" |
			dd of="$1" bs="$(img_bs "$1")" seek="$_cb" conv=notrunc \
				2>/dev/null
	done
	rm -f "$1.before"
	_nst=0
	while read -r _cb _pb; do
		getblk "$1" "$_cb" > "$SCRATCH/.c"
		getblk "$1" "$_pb" > "$SCRATCH/.p"
		cmp -s "$SCRATCH/.c" "$SCRATCH/.p" || _nst=$((_nst + 1))
	done <<-EOF
	$(copies "$1")
	EOF
	[ "$_nst" -gt 0 ] || die "$1: no stale descriptor copy: fix the test"
}

# desc_log CASE BASE GROUP: CASE.img = BASE.base with a journal (debugfs)
# logging its primary descriptor block of GROUP, with GROUP's free blocks
# count changed and its checksum recomputed.
desc_log() {
	copy_img "$2.base" "$1.img"
	copy_img "$2.base" "$1.scratch"
	geometry "$1.img"
	_grp=$3
	dfs_quiet "$1.scratch" <<-EOF
	set_bg $_grp free_blocks_count 7
	set_bg $_grp checksum calc
	EOF
	# meta_bg: the block in the metagroup's first group; else (and before
	# s_first_meta_bg) the primaries follow the superblock.
	_pd=$(descs "$1.scratch" | awk -v per="$PER" -v g="$_grp" \
		-v meta="$META" -v fmb="$FIRST_MB" '
		meta && int(g / per) >= fmb && $1 == int(g / per) * per {
			print $2; exit
		}
		(!meta || int(g / per) < fmb) && $1 == 0 {
			print $2 + int(g / per); exit
		}')
	[ -n "$_pd" ] || die "$1: no descriptor block for group $_grp"
	getblk "$1.scratch" "$_pd" > "$1.gd"
	getblk "$1.img" "$_pd" > "$1.gd0"
	cmp -s "$1.gd" "$1.gd0" &&
		die "$1: set_bg changed nothing in block $_pd: fix the test"
	rm -f "$1.scratch" "$1.gd0"
	jtxn "$1.img" -b "$_pd" "$1.gd"
}

# check_e2 CASE: what e2fsck did.  With meta_bg every copy holds its
# metagroup's first block; the old-style backups are as they were before.
check_e2() {
	_e=$1.e2fsck.img
	while read -r _cb _pb; do
		[ -n "$_cb" ] || continue
		getblk "$_e" "$_cb" > "$SCRATCH/.c"
		getblk "$_e" "$_pb" > "$SCRATCH/.p"
		cmp -s "$SCRATCH/.c" "$SCRATCH/.p" ||
			fail "$1: e2fsck left the copy at $_cb unlike $_pb: fix the test"
	done <<-EOF
	$(copies "$_e")
	EOF
	for _bb in $(backups "$_e"); do
		getblk "$_e" "$_bb" > "$SCRATCH/.c"
		getblk "$1.img" "$_bb" > "$SCRATCH/.p"
		cmp -s "$SCRATCH/.c" "$SCRATCH/.p" ||
			fail "$1: e2fsck rewrote the backup at $_bb: fix the test"
	done
}

# check_count CASE [IMG]: jrecover -n counts as many copies as the layout
# of e2fsck's result (or of IMG) has.
check_count() {
	_want=$(copies "${2:-$1.e2fsck.img}" | wc -l)
	_got=$("$JRECOVER" -n --json "$1.img" |
		sed -n 's/.*"descriptor_copies":\([0-9]*\).*/\1/p')
	[ "$_got" = "$_want" ] ||
		fail "$1: jrecover -n counts ${_got:-no} descriptor copies, the layout has $_want"
	say "$1: $_want descriptor copies"
}

# untouched CASE: e2fsck left every descriptor block but the primaries as
# it found them.
untouched() {
	for _ub in $(copies "$1.img" | cut -d' ' -f1) $(backups "$1.img"); do
		getblk "$1.e2fsck.img" "$_ub" > "$SCRATCH/.c"
		getblk "$1.img" "$_ub" > "$SCRATCH/.p"
		cmp -s "$SCRATCH/.c" "$SCRATCH/.p" ||
			fail "$1: e2fsck rewrote the descriptor block at $_ub: fix the test"
	done
	[ "$ORACLE_ONLY" = 1 ] && return
	_got=$("$JRECOVER" -n --json "$1.img" |
		sed -n 's/.*"descriptor_copies":\([0-9]*\).*/\1/p')
	[ "$_got" = 0 ] ||
		fail "$1: jrecover -n counts ${_got:-no} descriptor copies, not 0"
}

# mbcase [ocase options] CASE: compare, then the checks above.
mbcase() {
	ocase "$@"
	for _mc; do :; done
	check_e2 "$_mc"
	[ "$ORACLE_ONLY" = 1 ] || check_count "$_mc" ${MB_COUNT_OF:+"$MB_COUNT_OF"}
}

# layout [-s] NAME GROUP SIZE [mke2fs options]: NAME.base, then NAME-log
# (the primary descriptor block of GROUP logged by debugfs) and, with -s
# on meta_bg, NAME-stale (stale copies, jwrite logging free blocks).
layout() {
	_ls=0
	[ "$1" = -s ] && { _ls=1; shift; }
	_ln=$1
	_lg=$2
	shift 2
	mkimg "$_ln.base" "$@"
	desc_log "$_ln-log" "$_ln" "$_lg"
	mbcase "$_ln-log"
	geometry "$_ln.base"
	[ "$META" = 1 ] && [ "$_ls" = 1 ] || return 0
	stale "$_ln.base"
	# shellcheck disable=SC2046
	set -- $(free_blocks "$_ln.base" 2)
	jcase "$_ln-stale" "$_ln" <<-EOF
	txn
	log $1 $2
	commit
	EOF
	mbcase "$_ln-stale"
}


# --- meta_bg, 1 KiB and 4 KiB blocks -----------------------------------------
layout -s mb1 3 16M -b 1024 -g 512 -O meta_bg,^resize_inode
layout -s mb4 3 72M -b 4096 -g 256 -O meta_bg,^resize_inode

# s_errno, no log, needs_recovery clear; needs_recovery with an empty log.
jcase mb1-errno mb1 <<-EOF
features revoke 64bit csum3
errno -5
norecover
start 0
EOF
mbcase -e 4 mb1-errno
e2state mb1-errno "clean with errors"
jcase mb1-nolog mb1 <<-EOF
features revoke 64bit csum3
start 0
EOF
mbcase mb1-nolog

# --- the other layouts, with meta_bg ------------------------------------------
layout mb1-32 40 16M -b 1024 -g 256 -O meta_bg,^resize_inode,^64bit
layout mb1-ss2 20 16M -b 1024 -g 512 -O meta_bg,^resize_inode,sparse_super2
layout mb1-nosparse 20 16M -b 1024 -g 512 -O meta_bg,^resize_inode,^sparse_super
layout mb1-noflex 20 16M -b 1024 -g 512 -O meta_bg,^resize_inode,^flex_bg
layout -s mb1-many 100 32M -b 1024 -g 256 -O meta_bg,^resize_inode
layout -s mb1-bigalloc 3 64M -b 1024 -C 4096 -g 2048 -O meta_bg,^resize_inode,bigalloc

# s_first_meta_bg 1: metagroup 0 has old-style descriptors, whose backups
# (groups 1, 3, 5, 7, 9) e2fsck does not write; metagroup 1 has meta_bg
# copies.
mkimg fmb.base 16M -b 1024 -g 512 -O meta_bg,^resize_inode
dfs_quiet fmb.base <<-EOF
ssv first_meta_bg 1
EOF
desc_log fmb-log fmb 20
mbcase fmb-log
stale fmb.base
b=$(free_blocks fmb.base 1)
jcase fmb-stale fmb <<-EOF
txn
log $b
commit
EOF
mbcase fmb-stale

# --- the journal inode rewritten from the superblock's backup -------------------
# (a block-mapped journal: the backup holds its i_block and size).  With no
# log and needs_recovery clear, e2fsck writes the inode and the primary
# superblock alone: the stale copies stay.  With a log, the copies are
# rewritten as after any replay.
mkimg ji.base 16M -b 1024 -g 512 -O meta_bg,^resize_inode,^extent,^64bit
stale ji.base
copy_img ji.base ji-alone.img
dfs_quiet ji-alone.img <<-EOF
sif <8> links_count 0
EOF
ocase -E 0 ji-alone
untouched ji-alone
b=$(free_blocks ji.base 1)
jcase ji-log ji <<-EOF
txn
log $b
commit
EOF
dfs_quiet ji-log.img <<-EOF
sif <8> links_count 0
EOF
mbcase ji-log

# --- without meta_bg: the backups stay as they are ------------------------------
layout plain1 3 16M -b 1024 -g 1024
layout plain4 3 64M -b 4096 -g 2048
layout plain1-ss2 3 16M -b 1024 -g 1024 -O sparse_super2
layout plain1-nosparse 3 16M -b 1024 -g 1024 -O ^sparse_super,^resize_inode
layout plain1-many 40 64M -b 1024 -g 1024 -O ^resize_inode,^64bit

# --- a logged superblock with fewer groups --------------------------------------
# The superblock and the primary descriptor blocks of mb1 as resize2fs
# leaves them when it shrinks the filesystem to 12 MiB (groups 0-23:
# metagroup 1 loses its last group), logged: e2fsck's close after the
# replay goes by the shrunk layout, 3 copies where there were 4 (the
# blocks resize2fs moved are not logged: e2fsck -fn finds the same
# problems in both results).  jrecover -n counts the copies of the layout
# on disk before the replay: 4.
copy_img mb1.base shrink.scratch
run resize2fs shrink.scratch 12M
[ "$RUN_RC" -eq 0 ] || die "resize2fs failed"
geometry shrink.scratch
_mg1=$(descs shrink.scratch | awk -v per="$PER" '$1 == per { print $2 }')
{ getblk shrink.scratch 1 2; getblk shrink.scratch "$_mg1"; } > shrink.sb
rm -f shrink.scratch
copy_img mb1.base shrink.img
jtxn shrink.img -b "1-2,$_mg1" shrink.sb
MB_COUNT_OF=shrink.img
mbcase shrink
MB_COUNT_OF=
[ "$(copies shrink.e2fsck.img | wc -l)" -eq 3 ] ||
	fail "shrink: e2fsck's result has $(copies shrink.e2fsck.img | wc -l) copies, not 3: fix the test"

end_test
