#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fcrand.sh --- seeded random fast-commit workloads, judged by the kernel.
#
# For each seed in FCRAND_SEEDS (default: the fixed seeds below) fcgen
# derives a filesystem (block size, metadata_csum, uninit_bg, 64bit,
# flex_bg, inline_data, bigalloc, meta_bg, dir_index, orphan_file, the
# fast-commit area's size) and a random sequence of operations, each
# fsynced or not; the workload runs on a loop mount with commit=600 (the
# fsyncs make the commits, most of them fast commits), then
# EXT4_IOC_SHUTDOWN without a log flush, and the copy of the image taken
# before the umount is the crash (klib.sh's kernel_crash_image).  The judge,
# as for every fast-commit journal here, is the kernel's own replay:
#   - copy A replayed by jrecover, which must exit 1;
#   - copy B replayed by the kernel (a read-write mount, then umount);
#   - e2fsck -fn after jrecover must report nothing that it does not also
#     report after the kernel's replay (klib.sh's fsck_problems; what only
#     the kernel's replay has is reported, not failed: the kernel has bugs
#     of its own);
#   - the two trees (paths, types, modes, owners, sizes, sha256 of the
#     contents and symlink targets, xattrs; link counts are e2fsck's
#     business) are the same.
# Where the kernel refuses to mount the crash image there is no judge:
# jrecover must then refuse too (exit 8) and leave the image as it was.
#
# One line per seed: "fcrand: seed S: pass" or "fcrand: seed S: FAIL:
# REASON" (the first thing that failed; where only the trees differ, it
# says whether e2fsck -fn found more after the kernel's replay, a hint
# that the kernel is the one that is wrong); the soak (tests/kernel/fcsoak.sh,
# make soak) runs this once per seed and collects those lines.
#
# Environment:
#   FCRAND_SEEDS  seeds to run (default: the short run's fixed seeds)
#   FCRAND_MKFS   "SIZE MKE2FS_OPTIONS": another filesystem for the same
#                 operations (default: the seed's own, fcgen mkfs SEED)
#   FCRAND_LIVE=1 also list the tree before the shutdown (as a report)
#   JRECOVER      the binary under test (lib.sh)
#
# Reproduce one seed: FCRAND_SEEDS=S make check TESTS=tests/kernel/fcrand.sh
# (or, from the build directory, top_builddir=. FCRAND_SEEDS=S sh
# ../tests/kernel/fcrand.sh).  Needs root and loop mounts, else 77.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

FCGEN=$top_builddir/tests/kernel/fcgen
need_built "$FCGEN"

# The short run of make check: a few fixed seeds, a few seconds each,
# chosen for what they cover, not for passing: 26 (4 KiB, no checksums,
# uninit_bg, no flex_bg, orphan_file), 27 (1 KiB, bigalloc), 28 (1 KiB,
# inline_data, no dir_index), 33 (1 KiB, metadata_csum, 64bit, meta_bg),
# 34 (4 KiB, metadata_csum, no flex_bg; some 30 fast commits replayed),
# 205 (1 KiB, inline_data: an inline directory grown by fast commits past
# i_block, into its extended-attribute space as the kernel grows it, not
# into a block; the soak found it), 21 (4 KiB, inline_data: a name that
# does not fit even then, the directory made a block): these as the classic
# generator makes them (cN).  Two of the widened generator, about a second
# each here: 1049 (2 KiB blocks, inline_data, bigalloc with 64 KiB
# clusters, writes by O_DSYNC, O_DIRECT, mmap+msync and sync_file_range)
# and 1069 (2 KiB blocks, data=writeback, 15 ops of fast commits at the
# end; writes by O_SYNC, O_DSYNC, O_DIRECT, mmap+msync).
FCRAND_FIXED="c21 c26 c27 c28 c33 c34 c205 1049 1069"
SEEDS=${FCRAND_SEEDS:-$FCRAND_FIXED}
FCRAND_CLASSIC=${FCGEN_CLASSIC:-}
KTREE_NLINK=0

FCSEED=
wl_fcgen() {
	if ! "$FCGEN" run "$FCSEED" "$1" > "$SCRATCH/s$FCSEED.ops" 2>&1; then
		tail -n 3 "$SCRATCH/s$FCSEED.ops"
		return 1
	fi
	# Files unlinked while open (the orphan operation): a child of fcgen
	# holds them open across the shutdown; it goes before the umount.
	_h=$(sed -n 's/^holder \([0-9][0-9]*\) .*/\1/p' "$SCRATCH/s$FCSEED.ops")
	[ -z "$_h" ] || KW_AFTER="fc_release $_h"
}

# fc_release PID: ends fcgen's holder of open files, and waits (at most 10 s)
# until it is gone (or a zombie: its files are closed by then).
fc_release() {
	kill "$1" 2> /dev/null
	_n=0
	while [ "$_n" -lt 100 ] && [ -d "/proc/$1" ] &&
	      ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2> /dev/null; do
		sleep 0.1
		_n=$((_n + 1))
	done
	return 0
}

# seed_fail REASON: a failed check of this seed; the first one is the
# seed's reason.
seed_fail() {
	fail "seed $FCSEED: $*"
	[ -n "$SEED_REASON" ] || SEED_REASON=$*
}

# has_orphans IMG: IMG's superblock names a first orphan inode, or (orphan
# file) has orphan_present set.
has_orphans() {
	dumpe2fs -h "$1" 2> /dev/null |
		grep -q -e '^First orphan inode:' -e '^Filesystem features:.*orphan_present'
}

# first_line FILE: FILE's first line not about orphans (else its first),
# for a reason.
first_line() {
	{ grep -iv orphan "$1"; cat "$1"; } | head -n 1
}

# fc_seed SEED: SEED is a number, or cN for seed N as the classic generator
# makes it (FCGEN_CLASSIC=1: the generator before the widened operations
# and profiles, tests/kernel/README).
fc_seed() {
	FCGEN_CLASSIC=$FCRAND_CLASSIC
	case $1 in
	c*) FCGEN_CLASSIC=1 ;;
	esac
	export FCGEN_CLASSIC
	set -- "${1#c}"
	FCSEED=$1
	SEED_REASON=
	_b=s$1
	NCASES=$((NCASES + 1))
	if [ -n "${FCRAND_MKFS:-}" ]; then
		_fs=$FCRAND_MKFS
	else
		_fs=$("$FCGEN" mkfs "$1") || die "fcgen mkfs $1 failed"
	fi
	_size=${_fs%% *}
	_mkfs=${_fs#* }
	_mopts=$("$FCGEN" mount "$1") || die "fcgen mount $1 failed"
	_how=$("$FCGEN" shutdown "$1") || die "fcgen shutdown $1 failed"
	_c=
	[ "$FCGEN_CLASSIC" != 1 ] || _c=c
	say ""
	say "=== $("$FCGEN" describe "$1")"
	say "    mke2fs $_mkfs (size $_size), mount -o $_mopts, shutdown $_how"
	say "    reproduce: FCRAND_SEEDS=$_c$1${FCRAND_MKFS:+ FCRAND_MKFS='$FCRAND_MKFS'}" \
		"make check TESTS=tests/kernel/fcrand.sh"
	kernel_crash_image -c -k "$_how" -s "$_size" \
		${FCRAND_LIVE:+-t "$_b.live.tree"} \
		fcgen "$_b.img" "$_mkfs" "$_mopts"
	# The default flag flushes the log first: then nothing to replay, and
	# jrecover must say so (exit 0).
	_want=1
	case $(journal_state "$_b.img") in
	needs_recovery=no*) _want=0 ;;
	esac
	say "workload: $(tail -n 1 "$_b.ops"); fast commits: $(
		"$JRECOVER" -i "$_b.img" 2> /dev/null |
		sed -n 's/^Fast-commit area: *//p')"
	# The listing of the log, its fast-commit records included (the
	# library's walk with events: a path the replay does not take); it
	# reads only, and must end with an exit status of the replay's kind.
	"$JRECOVER" -l "$_b.img" > "$_b.list" 2>&1
	_lrc=$?
	say "jrecover -l: exit $_lrc, $(wc -l < "$_b.list") lines"
	[ "$_lrc" -lt 16 ] || seed_fail "jrecover -l exited $_lrc"

	# The kernel's replay: the judge.
	KMOUNT_MAY_FAIL=1
	if ! kernel_replay "$_b.img" "$_b.kernel.img"; then
		KMOUNT_MAY_FAIL=
		copy_img "$_b.img" "$_b.jr.img"
		jrecover "$_b.jr.img"
		if [ "$RUN_RC" -eq 1 ]; then
			# No judge; still say what jrecover's result is: does
			# e2fsck -fn find anything (orphans aside: they go with
			# the next mount), and is its tree the one before the
			# shutdown?
			_w=
			fsck_problems "$_b.jr.img" "$_b.jr.fsck"
			KMOUNT_MAY_FAIL=1
			if grep -qiv orphan "$_b.jr.fsck" &&
			   has_orphans "$_b.jr.img" &&
			   kernel_replay "$_b.jr.img" "$_b.jr-mounted.img"; then
				# Files held open leave more than orphan lines
				# (see below): what is left after a mount.
				fsck_problems "$_b.jr-mounted.img" "$_b.jr.fsck"
			fi
			KMOUNT_MAY_FAIL=
			if [ -s "$_b.jr.fsck" ]; then
				say "e2fsck -fn after jrecover (the kernel refused):"
				sed 's/^/    /' "$_b.jr.fsck"
			fi
			if ! grep -qiv orphan "$_b.jr.fsck"; then
				_w="; e2fsck -fn finds nothing after jrecover (orphans aside)"
				if [ -n "${FCRAND_LIVE:-}" ] &&
				   tree_list "$_b.jr.img" "$_b.jr.tree" &&
				   cmp -s "$_b.live.tree" "$_b.jr.tree"; then
					_w="$_w, whose tree is the one before the shutdown"
				fi
			fi
			# The kernel's known refusal (tests/kernel/README).
			if grep -q 'fsync after it' "$SCRATCH/$_b.ops"; then
				_w="$_w; a file was fsynced by its fd after its unlink"
			fi
			seed_fail "the kernel refuses the image; jrecover exited 1, not 8$_w"
		elif [ "$RUN_RC" -ne 8 ]; then
			seed_fail "the kernel refuses the image; jrecover exited $RUN_RC, not 8"
		elif ! cmp -s "$_b.img" "$_b.jr.img"; then
			seed_fail "the kernel refuses the image; jrecover refused but wrote"
		fi
		say "(report) seed $1: the kernel refuses to mount the crash image"
		return
	fi

	copy_img "$_b.img" "$_b.jr.img"
	jrecover "$_b.jr.img"
	if [ "$RUN_RC" -ne "$_want" ]; then
		# A refusal must at least have written nothing.
		_w=
		if [ "$RUN_RC" -eq 8 ] && ! cmp -s "$_b.img" "$_b.jr.img"; then
			_w=" (and it wrote to the image)"
		fi
		seed_fail "jrecover exited $RUN_RC, not $_want$_w: $(grep -v '^$' "$SCRATCH/.run.out" |
			head -n 1 | sed 's/^jrecover: [^:]*: //')"
		return
	fi

	fsck_problems "$_b.kernel.img" "$_b.kernel.fsck"
	_krc=$FSCK_RC
	fsck_problems "$_b.jr.img" "$_b.jr.fsck"
	_jrc=$FSCK_RC
	say "e2fsck -fn: $_krc after the kernel, $_jrc after jrecover"
	comm -13 "$_b.kernel.fsck" "$_b.jr.fsck" > "$_b.jr-only.fsck"
	comm -23 "$_b.kernel.fsck" "$_b.jr.fsck" > "$_b.kernel-only.fsck"
	if [ -s "$_b.kernel-only.fsck" ]; then
		say "(report) seed $1: e2fsck -fn after the kernel's replay only:"
		sed 's/^/    /' "$_b.kernel-only.fsck"
	fi
	if [ -s "$_b.jr-only.fsck" ] && has_orphans "$_b.jr.img"; then
		# Orphans are left to whoever mounts next (DESIGN): the kernel's
		# replay is a mount and released them.  So, where jrecover's
		# result has an orphan list, the same mount after jrecover, and
		# the reports compared again.  Files held open across the
		# shutdown (fcgen's orphan operation) leave more than orphan
		# lines to e2fsck -n, which does not walk the list: their
		# blocks and inodes, still in use, show as bitmap differences,
		# and the list's last inode (its next link, in i_dtime, is 0)
		# as "deleted inode has zero dtime", with no line naming
		# orphans when it is the only one; the mount releases them.
		say "e2fsck -fn after jrecover only, with orphans:"
		sed 's/^/    /' "$_b.jr-only.fsck"
		kernel_replay "$_b.jr.img" "$_b.jr-mounted.img"
		fsck_problems "$_b.jr-mounted.img" "$_b.jr-mounted.fsck"
		comm -13 "$_b.kernel.fsck" "$_b.jr-mounted.fsck" > "$_b.jr-only.fsck"
		[ -s "$_b.jr-only.fsck" ] ||
			say "(report) seed $1: the orphan lines go with the next mount"
	fi
	if [ -s "$_b.jr-only.fsck" ]; then
		say "e2fsck -fn after jrecover only:"
		sed 's/^/    /' "$_b.jr-only.fsck"
		seed_fail "e2fsck -fn after jrecover only: $(first_line "$_b.jr-only.fsck")"
	elif [ "$_jrc" -ge 8 ] && [ "$_krc" -lt 8 ]; then
		seed_fail "e2fsck -fn exits $_jrc after jrecover, $_krc after the kernel"
	fi

	tree_list "$_b.kernel.img" "$_b.kernel.tree" ||
		{ seed_fail "the kernel's replay does not mount"; return; }
	if ! tree_list "$_b.jr.img" "$_b.jr.tree"; then
		seed_fail "the image jrecover replayed does not mount"
		return
	fi
	KMOUNT_MAY_FAIL=
	if ! diff -u "$_b.kernel.tree" "$_b.jr.tree" > "$_b.tree.diff"; then
		sed 's/^/    /' "$_b.tree.diff" | head -n 60
		_n=$(grep -c '^[-+][^-+]' "$_b.tree.diff")
		_p=$(grep '^[-+][^-+]' "$_b.tree.diff" | head -n 1 | cut -d' ' -f1)
		_w=
		if [ ! -s "$_b.jr-only.fsck" ] && [ -s "$_b.kernel-only.fsck" ]; then
			_w="; e2fsck -fn finds more after the kernel than after jrecover"
		fi
		# With the tree before the shutdown: are the lines where the two
		# differ jrecover's as they were then (each of jrecover's in it,
		# none of the kernel's)?  The kernel is then the one that lost
		# what was synced, as its known bugs do (tests/kernel/README).
		if [ -n "${FCRAND_LIVE:-}" ] && [ -s "$_b.live.tree" ]; then
			sed -n 's/^+\([^+]\)/\1/p' "$_b.tree.diff" > "$_b.jr-lines"
			sed -n 's/^-\([^-]\)/\1/p' "$_b.tree.diff" > "$_b.k-lines"
			if ! grep -qvxF -f "$_b.live.tree" "$_b.jr-lines" &&
			   ! grep -qxF -f "$_b.live.tree" "$_b.k-lines"; then
				_w="$_w; jrecover's lines are the tree before the shutdown, the kernel's not"
			fi
		fi
		seed_fail "trees differ ($_n lines; first ${_p#[-+]}$_w)"
		if [ -n "${FCRAND_LIVE:-}" ] && cmp -s "$_b.live.tree" "$_b.jr.tree"
		then
			say "(report) seed $1: jrecover's tree is the one before the shutdown"
		fi
	fi
}

for s in $SEEDS; do
	case ${s#c} in
	''|*[!0-9]*) die "FCRAND_SEEDS: '$s' is not a seed" ;;
	esac
	_nf=$NFAIL
	fc_seed "$s"
	KMOUNT_MAY_FAIL=
	if [ "$NFAIL" -eq "$_nf" ]; then
		say "fcrand: seed $s: pass"
	else
		say "fcrand: seed $s: FAIL: $SEED_REASON"
	fi
done

kend_test
