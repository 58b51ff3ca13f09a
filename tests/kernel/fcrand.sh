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
# Where the kernel refuses to mount the crash image, the judge is the
# fsync'd tree (tests/kernel/fcjudge.sh: what fcgen's durability calls
# made durable, with the values of the tree listed before the shutdown).
# jrecover may refuse too (exit 8, the image left as it was); where it
# replays (exit 1) the seed passes only if (a) its tree holds the fsync'd
# tree, (b) e2fsck -fn finds nothing in its result but orphans (after a
# mount that releases them, where it finds more), and (c) the refusal has
# the signature of a documented kernel bug (tests/kernel/README, "Where
# the kernel refuses").  Every seed also checks fcgen's promises against
# the tree before the shutdown (a wrong model fails the seed).
#
# One line per seed: "fcrand: seed S: pass", "fcrand: seed S: pass (the
# kernel refuses: BUG)" or "fcrand: seed S: FAIL: REASON" (the first thing
# that failed; where only the trees differ, it says whether e2fsck -fn
# found more after the kernel's replay and which of the two results
# breaks the fsync'd tree, hints at whose is wrong); the soak
# (tests/kernel/fcsoak.sh, make soak) runs this once per seed and collects
# those lines.
#
# Environment:
#   FCRAND_SEEDS  seeds to run (default: the short run's fixed seeds)
#   FCRAND_MKFS   "SIZE MKE2FS_OPTIONS": another filesystem for the same
#                 operations (default: the seed's own, fcgen mkfs SEED)
#   FCRAND_LIVE   no longer needed: the tree before the shutdown is always
#                 listed (the fsync'd tree takes its values from it)
#   JRECOVER      the binary under test (lib.sh)
#
# Reproduce one seed: FCRAND_SEEDS=S make check TESTS=tests/kernel/fcrand.sh
# (or, from the build directory, top_builddir=. FCRAND_SEEDS=S sh
# ../tests/kernel/fcrand.sh).  Needs root and loop mounts, else 77.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"

. "$top_srcdir/tests/kernel/fcjudge.sh"

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
# end; writes by O_SYNC, O_DSYNC, O_DIRECT, mmap+msync).  And 2671 (1 KiB
# blocks, bigalloc with 16-block clusters, data=writeback: a file truncated
# in the window frees a cluster whose first blocks another file's ADD_RANGE
# takes; the replay once freed the whole cluster under the region and put a
# new extent tree block there, two files sharing it; the soak found it).
FCRAND_FIXED="c21 c26 c27 c28 c33 c34 c205 1049 1069 2671"
SEEDS=${FCRAND_SEEDS:-$FCRAND_FIXED}
FCRAND_CLASSIC=${FCGEN_CLASSIC:-}
KTREE_NLINK=0

FCSEED=
wl_fcgen() {
	# fcgen also writes what the workload made durable (its promises,
	# read by fsyncd_judge).
	if ! FCGEN_PROMISES=$SCRATCH/s$FCSEED.promises \
	     "$FCGEN" run "$FCSEED" "$1" > "$SCRATCH/s$FCSEED.ops" 2>&1; then
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

# whose_broken: which of the two results ($_b.jr.broken, $_b.kernel.broken,
# written by fsyncd_judge) breaks the fsync'd tree, in words.
whose_broken() {
	_nj=$(grep -c . "$_b.jr.broken")
	_nk=$(grep -c . "$_b.kernel.broken")
	if [ "$_nj" -eq 0 ] && [ "$_nk" -eq 0 ]; then
		echo "both keep it"
	elif [ "$_nj" -eq 0 ]; then
		echo "jrecover's result keeps it, the kernel's breaks $_nk promises"
	elif [ "$_nk" -eq 0 ]; then
		echo "jrecover's result breaks $_nj promises, the kernel's keeps it"
	else
		echo "jrecover's result breaks $_nj promises, the kernel's $_nk"
	fi
}

# dmesg_now: the time stamp of the kernel's last message (dmesg's clock).
dmesg_now() {
	dmesg 2> /dev/null | tail -n 1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'
}

# kernel_said T0 LOOP: the kernel's messages about LOOP (loopN) after T0
# (dmesg_now before the mount), without their time stamps.
kernel_said() {
	dmesg 2> /dev/null | awk -v t0="${1:-0}" -v dev="$2" '
		{
			t = $0
			sub(/^\[ */, "", t)
			sub(/\].*/, "", t)
			if (t + 0 <= t0 + 0)
				next
			if (index($0, "(" dev ")") || index($0, "(device " dev ")") ||
			    index($0, " " dev "-8"))
				print substr($0, index($0, "]") + 2)
		}'
}

# fc_orphans: the inodes of files the workload held open (fcgen's orphan
# operation) whose unlink is in the fast commits that are replayed: a
# valid DEL_ENTRY record in jrecover -l's listing ($_b.list) with the
# orphan's name.
fc_orphans() {
	sed -n 's/^[0-9]* orphan \([^ ]*\) .*/\1/p' "$_b.ops" |
		sed 's|.*/||' > "$_b.orphan-names"
	[ -s "$_b.orphan-names" ] || return 0
	awk 'NR == FNR { o["\"" $0 "\""] = 1; next }
	     /tag DEL_ENTRY, / && !/\(not valid\)$/ {
		n = $0
		sub(/.*, name /, "", n)
		if (n in o) {
			i = $0
			sub(/.*, ino /, "", i)
			sub(/,.*/, "", i)
			print i
		}
	     }' "$_b.orphan-names" "$_b.list" | sort -u
}

# kernel_refusal: the documented kernel bug (tests/kernel/README, "Where
# the kernel refuses") whose signature this seed's refusal has, in words,
# or nothing.
kernel_refusal() {
	if grep -q 'ext4_append:.*already allocated' "$_b.dmesg"; then
		echo "a directory grown by fast commits (ext4_append: block already allocated)"
	elif grep -q '^[0-9]* orphan .*fsync after it' "$_b.ops"; then
		echo "an open file written, unlinked, then fsynced by its fd"
	elif [ -n "$(fc_orphans)" ]; then
		echo "files unlinked while held open across the crash, their unlink in the fast commits"
	fi
}

# refused_replayed KNOWN: the kernel refused the crash image, jrecover
# replayed it (exit 1).  It passes on three things only: (a) jrecover's
# tree holds the fsync'd tree (but for blocks the log's full commits write
# back stale, which stale_copies shows), (b) e2fsck -fn finds nothing in its result
# but orphans (after a mount that releases them, where it finds more), and
# (c) the kernel's refusal is a documented kernel bug (KNOWN, the name
# kernel_refusal gave it).  Sets SEED_KNOWN, or fails the seed.
refused_replayed() {
	_why=
	_stale=
	KMOUNT_MAY_FAIL=1
	if tree_list "$_b.jr.img" "$_b.jr.tree"; then
		if ! fsyncd_judge "$_b.jr.tree" "$_b.jr.broken"; then
			say "the fsync'd tree, broken by jrecover's result:"
			sed 's/^/    /' "$_b.jr.broken" | head -n 20
			if stale_copies "$_b.jr.broken"; then
				_stale="; blocks of fsynced files the log writes back stale"
				say "(report) seed $FCSEED: each file holds what was fsynced but for blocks the log's full commits write back (older copies, no revoke record after them): the kernel's bug, every jbd2 replay does it"
			else
				_why="$_why; (a) jrecover's tree breaks $(grep -c . "$_b.jr.broken") promises of the fsync'd tree, first $(head -n 1 "$_b.jr.broken")"
			fi
		fi
		cmp -s "$_b.live.tree" "$_b.jr.tree" &&
			say "(report) seed $FCSEED: jrecover's tree is the one before the shutdown"
	else
		_why="$_why; (a) the image jrecover replayed does not mount"
	fi
	fsck_problems "$_b.jr.img" "$_b.jr.fsck"
	if [ -s "$_b.jr.fsck" ]; then
		say "e2fsck -fn after jrecover (the kernel refused):"
		sed 's/^/    /' "$_b.jr.fsck"
	fi
	cp "$_b.jr.fsck" "$_b.jr-left.fsck"
	if grep -qiv orphan "$_b.jr.fsck"; then
		# Files held open leave more than orphan lines (bitmap
		# differences, "deleted inode has zero dtime"): what is left
		# after a mount, which releases the orphans.
		if kernel_replay "$_b.jr.img" "$_b.jr-mounted.img"; then
			fsck_problems "$_b.jr-mounted.img" "$_b.jr-left.fsck"
			say "e2fsck -fn after jrecover and a mount:"
			sed 's/^/    /' "$_b.jr-left.fsck"
		else
			_why="$_why; (b) the kernel does not mount jrecover's result"
		fi
	fi
	KMOUNT_MAY_FAIL=
	# Orphans go with the next mount (DESIGN): lines naming them, and
	# "deleted inode has zero dtime" of a file held open whose unlink
	# the fast commits carry (fc_orphans: no orphan list names it, since
	# the orphan list's changes are not in a fast commit; the kernel's
	# replay would leave the same).  e2fsck's guess that a time past
	# 2310-04-04 is one before 1970 is no fault where the workload set
	# times of either kind (setattr: before 1970, or up to 2445).
	fc_orphans | sed 's/.*/Deleted inode & has zero dtime./' > "$_b.fc-orphans"
	grep -iv orphan "$_b.jr-left.fsck" | grep -vxF -f "$_b.fc-orphans" |
	if grep -q '^[0-9]* setattr .* times ' "$_b.ops"; then
		grep -v '^Timestamp(s) on inode [0-9]* beyond 2310-04-04 are likely pre-1970\.$'
	else
		cat
	fi > "$_b.jr-problems"
	if [ -s "$_b.jr-problems" ]; then
		_why="$_why; (b) e2fsck -fn after jrecover: $(head -n 1 "$_b.jr-problems")"
	fi
	[ -n "$1" ] || _why="$_why; (c) the refusal is none of the documented kernel bugs"
	if [ -n "$_why" ]; then
		seed_fail "the kernel refuses the image; jrecover replays it, but${_why#;}"
	else
		SEED_KNOWN=$1$_stale
	fi
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
	SEED_KNOWN=
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
	kernel_crash_image -c -k "$_how" -s "$_size" -t "$_b.live.tree" \
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

	# fcgen's promises must hold in the tree before the shutdown itself,
	# else its model is wrong and the fsync'd tree means nothing.
	if ! fsyncd_judge "$_b.live.tree" "$_b.model.broken"; then
		sed 's/^/    /' "$_b.model.broken" | head -n 20
		seed_fail "fcgen's promises do not hold before the shutdown: $(head -n 1 "$_b.model.broken")"
	fi
	say "the fsync'd tree: $(grep -c '^have' "$_b.promises") paths there," \
		"$(grep -c '^gone' "$_b.promises") gone, of $(wc -l < "$_b.live.tree") before the shutdown"

	# The kernel's replay: the judge.
	_t0=$(dmesg_now)
	KMOUNT_MAY_FAIL=1
	if ! kernel_replay "$_b.img" "$_b.kernel.img"; then
		KMOUNT_MAY_FAIL=
		kernel_said "$_t0" "${KLOOP##*/}" > "$_b.dmesg"
		if [ -s "$_b.dmesg" ]; then
			say "the kernel on ${KLOOP##*/} while it refused:"
			sed 's/^/    /' "$_b.dmesg" | head -n 20
		fi
		_known=$(kernel_refusal)
		say "(report) seed $1: the kernel refuses to mount the crash image${_known:+ (documented: $_known)}"
		copy_img "$_b.img" "$_b.jr.img"
		jrecover "$_b.jr.img"
		case $RUN_RC in
		1)
			refused_replayed "$_known" ;;
		8)
			# jrecover refuses too: it must have written nothing;
			# where the area is full, that is the documented case.
			if ! cmp -s "$_b.img" "$_b.jr.img"; then
				seed_fail "the kernel refuses the image; jrecover refused but wrote"
			elif "$JRECOVER" -i "$_b.img" 2> /dev/null |
			     grep -q 'the end of the area'; then
				SEED_KNOWN="a fast-commit area filled to its last block"
			fi ;;
		*)
			seed_fail "the kernel refuses the image; jrecover exited $RUN_RC" ;;
		esac
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
	if diff -u "$_b.kernel.tree" "$_b.jr.tree" > "$_b.tree.diff"; then
		# The same tree: the judge is satisfied; where both results
		# break the fsync'd tree, say so (either both replays lost what
		# was synced, or a rule of the fsync'd tree is too strict).
		if ! fsyncd_judge "$_b.jr.tree" "$_b.jr.broken"; then
			say "(report) seed $1: both results break the fsync'd tree:"
			sed 's/^/    /' "$_b.jr.broken" | head -n 20
			! stale_copies "$_b.jr.broken" ||
				say "(report) seed $1: but for blocks the log's full commits write back stale (older copies, no revoke record after them)"
		fi
	else
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
		if [ -s "$_b.live.tree" ]; then
			sed -n 's/^+\([^+]\)/\1/p' "$_b.tree.diff" > "$_b.jr-lines"
			sed -n 's/^-\([^-]\)/\1/p' "$_b.tree.diff" > "$_b.k-lines"
			if ! grep -qvxF -f "$_b.live.tree" "$_b.jr-lines" &&
			   ! grep -qxF -f "$_b.live.tree" "$_b.k-lines"; then
				_w="$_w; jrecover's lines are the tree before the shutdown, the kernel's not"
			fi
		fi
		# And the fsync'd tree: whose result breaks it?
		fsyncd_judge "$_b.jr.tree" "$_b.jr.broken"
		fsyncd_judge "$_b.kernel.tree" "$_b.kernel.broken"
		_w="$_w; the fsync'd tree: $(whose_broken)"
		if [ -s "$_b.jr.broken" ]; then
			say "the fsync'd tree, broken by jrecover's result:"
			sed 's/^/    /' "$_b.jr.broken" | head -n 20
			if stale_copies "$_b.jr.broken"; then
				_w="$_w (blocks the log's full commits write back stale, as every jbd2 replay does)"
				say "(report) seed $1: jrecover's result holds what was fsynced but for blocks the log's full commits write back (older copies, no revoke record after them)"
			fi
		fi
		if [ -s "$_b.kernel.broken" ]; then
			say "the fsync'd tree, broken by the kernel's result:"
			sed 's/^/    /' "$_b.kernel.broken" | head -n 20
		fi
		seed_fail "trees differ ($_n lines; first ${_p#[-+]}$_w)"
		if cmp -s "$_b.live.tree" "$_b.jr.tree"
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
	if [ "$NFAIL" -eq "$_nf" ] && [ -n "$SEED_KNOWN" ]; then
		say "fcrand: seed $s: pass (the kernel refuses: $SEED_KNOWN)"
	elif [ "$NFAIL" -eq "$_nf" ]; then
		say "fcrand: seed $s: pass"
	else
		say "fcrand: seed $s: FAIL: $SEED_REASON"
	fi
done

kend_test
