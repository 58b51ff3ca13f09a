# SPDX-License-Identifier: LGPL-2.1-or-later
#
# klib.sh --- journals written by this machine's kernel, for tests/kernel.
#
# Sourced by tests/kernel/*.sh instead of tests/lib/lib.sh (it
# sources lib.sh itself, so oracle_compare, fail, end_test, mkimg and the
# fixed UUIDs are all there):
#
#     . "${top_srcdir:-$(dirname "$0")/../..}/tests/kernel/klib.sh"
#
# It skips the test (77) unless it runs as root on a machine that can
# loop-mount ext4.  What it gives:
#
#   kernel_crash_image [-c] [-s SIZE] [-j JSIZE] [-k HOW] [-t TREE] [-p FUNC]
#                      WORKLOAD OUT.img [MKFS_OPTS [MOUNT_OPTS]]
#       Makes OUT.img (and, with -j, the external journal OUT.jdev of JSIZE)
#       in the state a crash leaves: mke2fs (lib.sh's mkimg, SIZE default
#       32M) with MKFS_OPTS, (with -p) the shell function FUNC called
#       with the new image, a loop mount with MOUNT_OPTS, the shell
#       function wl_WORKLOAD called with the mount point, (with -t) the
#       live tree listed into TREE, EXT4_IOC_SHUTDOWN (HOW: nologflush,
#       the default, or logflush), then a copy of the image taken before
#       the umount.  Dies unless the copy has needs_recovery set and a
#       journal with s_start != 0 (with -c a clean journal is taken too:
#       HOW default flushes the log before the shutdown).  The image as the umount leaves it is
#       kept too, as OUT.umounted.img (and .jdev).  A workload may set
#       KW_AFTER to a command run after the copy and before the umount
#       (to close the files it holds open, to wait for its writers); it
#       finds the image being written in KW_IMG (and the external
#       journal in KW_JDEV).
#   kernel_replay IMG OUT [JDEV OUTJ]
#       OUT (and OUTJ) = a copy of IMG (and JDEV) mounted read-write once,
#       so the kernel replays its journal (fast commits included) and
#       releases its orphan inodes, then unmounted.
#   tree_list IMG OUT [JDEV]
#       Mounts IMG read-only (loop device read-only too, and noload: a
#       journal that still needs replaying is an error) and writes to OUT
#       every path with its type, mode, link count, owner, size, the
#       sha256 of a regular file's contents or a symbolic link's target,
#       and its extended attributes, sorted by path (tree_of DIR OUT lists
#       a tree already mounted).  With KTREE_NLINK=0 the link counts are
#       left out (written as -), for judges that leave them to e2fsck.
#       With KMOUNT_MAY_FAIL set, returns 1 if IMG does not mount.
#   tree_compare A B WHAT
#       The listings A and B are the same; else a failure naming WHAT.
#   kernel_compare [-t TREE] [-O "ORACLE_OPTIONS"] IMG [JDEV]
#       lib.sh's oracle_compare of the crash image, then the kernel's
#       replay of it against jrecover's as trees (and against TREE).
#   journal_state IMG [JDEV]
#       Prints "needs_recovery=yes|no start=S errno=E" from dumpe2fs.
#   log_wraps IMG [JDEV]
#       True if the log, walked by debugfs's logdump, goes past the
#       journal's last block to its first.
#   revoke_stats IMG [JDEV]
#       "records=N hits=H": revoke records in the log, and how many name
#       a block the log also logs.
#   fsck_problems IMG OUT
#       Runs e2fsck -fn on IMG and writes to OUT the problems it reports,
#       one a line, sorted, without the volatile parts (the counts in
#       "count wrong" lines, the superblock's free totals, which no replay
#       writes and e2fsck does not count as errors, the lists of bitmap differences, the image's
#       name, the passes and the summary), so that the reports on two
#       replays of one image can be compared line by line; returns (and
#       sets FSCK_RC to) e2fsck's exit status.
#   kernel_counted, kend_test
#       Count one kernel journal compared with e2fsck; end the test
#       (lib.sh's end_test) with "kernel journals compared with e2fsck: N".
#
# Workloads (each one a wl_NAME function taking the mount point; all of
# them commit by fsync only, never sync(1)/syncfs, which would write the
# metadata home and let the log's tail move):
#   wl_mixed      creates, appends, overwrites, renames, hard and
#                 symbolic links, unlinks, truncates, fallocate (allocate,
#                 keep-size, punch, zero range), an extended attribute
#   wl_ext3       the same without fallocate, for indirect-mapped files
#   wl_djdel      files written, deleted, truncated and their blocks
#                 reused; a directory of a few blocks removed
#   wl_djflag     wl_djdel on files with the journal-data flag (chattr +j)
#   wl_lu14958    a 16 MiB file truncated 64 KiB at a time, each step a
#                 transaction (revoke records for the indirect blocks)
#   wl_rmtree     a directory of 10000 entries removed (a revoke record
#                 for each of its blocks)
#   wl_wrap       small transactions until the log wraps
#   wl_orphans    files unlinked (one also truncated) while held open
#   wl_writer     writers still fsyncing when the shutdown comes
#   wl_error      wl_mixed, then an error that aborts the journal (with
#                 pre_baddir as the -p FUNC and errors=remount-ro)
#   wl_fc_mixed   creates, appends, renames, links, unlinks, truncates and
#                 fallocate as the fast-commit engine takes them (on a
#                 filesystem with fast_commit most become fast commits)
#   wl_fc_stale   wl_fc_mixed, then extended attributes (fast-commit
#                 ineligible: full commits): the fast-commit area keeps
#                 blocks of an older transaction
#   wl_fc_none    every fsync in a fast-commit ineligible transaction: the
#                 area is never written
# For a filesystem with fast commits (mke2fs -O fast_commit), e.g.
#     kernel_crash_image fc_mixed fc.img "-O fast_commit"
#     kernel_replay fc.img fc.kernel.img
#     tree_list fc.kernel.img fc.kernel.tree
# gives the journal and the kernel's own replay of it, which is the judge
# for fast commits (e2fsck 1.47.0 is wrong on them).
#
# Why the copy before the umount is the crash state: the filesystem
# writes through the loop driver, which writes (buffered, direct I/O off)
# into the backing file's page cache; cp reads the same page cache, so it
# sees exactly what reached the "disk".  What the filesystem had not sent
# to the loop device (dirty buffers in the loop device's own cache) is
# what a power cut loses.  Before copying, the loop devices' in-flight
# request counts are waited to 0, so no write is half way through the
# copy.  The umount then writes the committed metadata still dirty in the
# device's cache home, which a crash never does.  The tests check this:
# with -t, the tree listed before the shutdown must be the tree of the
# kernel's replay of the copy (kernel_compare).
#
# Variables start with _k to stay out of the way of lib.sh's and the
# tests' own (sh has no locals).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

KWORK=$top_builddir/tests/kernel/kwork
KMOUNTS=
KLOOPS=
KPIDS=
KJOURNALS=0

need_built "$KWORK"
[ "$(id -u)" = 0 ] || skip "not root: cannot loop-mount"
for _k in mount umount losetup; do
	command -v "$_k" > /dev/null 2>&1 || skip "$_k not found"
done

# Undo whatever is still mounted or attached, last first.
kcleanup() {
	for _kp in $KPIDS; do
		kill "$_kp" 2> /dev/null
	done
	for _km in $KMOUNTS; do
		umount "$_km" 2> /dev/null || umount -l "$_km" 2> /dev/null
	done
	for _kl in $KLOOPS; do
		losetup -d "$_kl" 2> /dev/null
	done
	KMOUNTS=
	KLOOPS=
	KPIDS=
}
trap '_rc=$?; kcleanup; (exit $_rc); _cleanup' EXIT

# kloop FILE [-r]: attach FILE to a free loop device, named in KLOOP.
# The first that fails (kprobe's) skips the test: no loop devices here.
# Later ones are failures of the test.
KLOOPED_ONCE=0
kloop() {
	KLOOP=$(losetup -f --show --direct-io=off ${2:+"$2"} "$1" \
		2> "$SCRATCH/.losetup.err") || {
		cat "$SCRATCH/.losetup.err"
		KLOOP=
		[ "$KLOOPED_ONCE" = 1 ] || skip "no loop device (losetup -f failed)"
		die "losetup -f $1 failed"
	}
	KLOOPED_ONCE=1
	KLOOPS="$KLOOP $KLOOPS"
	# A loop device just given up by another test (make -j) can still
	# hold that file's blocks in its page cache: read this file's.
	blockdev --flushbufs "$KLOOP" 2> /dev/null
}

# kunloop DEV: detach DEV.
kunloop() {
	losetup -d "$1" || die "losetup -d $1 failed"
	_kul=
	for _kud in $KLOOPS; do
		[ "$_kud" = "$1" ] || _kul="$_kul $_kud"
	done
	KLOOPS=$_kul
}

# kmount DEV OPTS: mount DEV (ext4, with OPTS) on a new directory named in
# KMNT.  The first mount that fails (kprobe's) skips the test: the machine
# does not allow loop mounts.  Later ones are failures of the test.
KMOUNTED_ONCE=0
kmount() {
	KMNT=$(mktemp -d "$SCRATCH/mnt.XXXXXX") || die "mktemp -d failed"
	_ktry=0
	while ! mount -t ext4 ${2:+-o "$2"} "$1" "$KMNT" 2> "$SCRATCH/.mount.err"
	do
		# Once mounts are known to work here, a failure may be a stale
		# page cache of a reused loop device (seen once in CI as
		# "Structure needs cleaning" on a fresh image): flush, retry.
		_ktry=$((_ktry + 1))
		if [ "$KMOUNTED_ONCE" = 1 ] && [ "$_ktry" -lt 3 ]; then
			sed 's/^/    /' "$SCRATCH/.mount.err"
			say "(mount of $1 failed: its cache flushed, tried again)"
			blockdev --flushbufs "$1" 2> /dev/null
			sleep 1
			continue
		fi
		cat "$SCRATCH/.mount.err"
		rmdir "$KMNT"
		[ "$KMOUNTED_ONCE" = 1 ] || skip "cannot mount a loop device here"
		# A caller that can take the kernel's refusal as an answer.
		[ -z "${KMOUNT_MAY_FAIL:-}" ] || return 1
		die "mount -t ext4 ${2:+-o $2 }$1 failed"
	done
	KMOUNTED_ONCE=1
	KMOUNTS="$KMNT $KMOUNTS"
}

# kumount MNT: unmount MNT and remove it.
kumount() {
	umount "$1" || die "umount $1 failed"
	rmdir "$1"
	_kul=
	for _kud in $KMOUNTS; do
		[ "$_kud" = "$1" ] || _kul="$_kul $_kud"
	done
	KMOUNTS=$_kul
}

# kquiet DEV...: wait until no request is in flight on the loop devices.
kquiet() {
	for _kqd in "$@"; do
		_kqf=/sys/block/${_kqd#/dev/}/inflight
		[ -r "$_kqf" ] || continue
		_kqn=0
		while [ "$(tr -s ' \t' '  ' < "$_kqf")" != " 0 0" ]; do
			_kqn=$((_kqn + 1))
			[ "$_kqn" -lt 500 ] || die "$_kqd still busy after 5 s"
			sleep 0.01
		done
	done
}

# Can this machine loop-mount ext4 at all?  Asked once, before the test
# starts, with a plain image: so a mount a test gets wrong later fails
# the test instead of skipping it.
kprobe() {
	mkimg .probe.img 8M
	kloop .probe.img
	kmount "$KLOOP" ""
	kumount "$KMNT"
	kunloop "$KLOOP"
	rm -f .probe.img
}

# journal_state IMG [JDEV]
journal_state() {
	if dumpe2fs -h "$1" 2> /dev/null | grep -q '^Filesystem features:.*needs_recovery'
	then
		_kr=yes
	else
		_kr=no
	fi
	dumpe2fs -h "${2:-$1}" 2> /dev/null > "$SCRATCH/.jstate"
	_ks=$(sed -n 's/^Journal start: *//p' "$SCRATCH/.jstate")
	_ke=$(sed -n 's/^Journal errno: *//p' "$SCRATCH/.jstate")
	say "needs_recovery=$_kr start=${_ks:-?} errno=${_ke:-0}"
}

# log_wraps IMG [JDEV]: see the header.
log_wraps() {
	debugfs -c -R "logdump${2:+ -f $2}" "$1" 2> /dev/null | head -c 4000000 |
		awk '/^Found expected sequence/ {
			b = $NF + 0
			if (seen && b < last) wrapped = 1
			last = b; seen = 1
		}
		END { exit wrapped ? 0 : 1 }'
}

# revoke_stats IMG [JDEV]: "records=N hits=H" for the log as debugfs's
# logdump -a reads it: N revoke records, H of them for a block that a
# transaction before the revoke logged (a block the revoke keeps from
# being replayed).
revoke_stats() {
	debugfs -c -R "logdump -a${2:+ -f $2}" "$1" 2> /dev/null |
		head -c 40000000 | awk '
		/^  FS block [0-9]+ logged at/ { logged[$3] = 1 }
		/^  Revoke FS block/ { n++; if ($4 in logged) h++ }
		END { printf "records=%d hits=%d\n", n, h }'
}

kernel_counted() {
	KJOURNALS=$((KJOURNALS + 1))
}

# kernel_crash_image: see the header.
kernel_crash_image() {
	_ksize=32M
	_kjsize=
	_khow=nologflush
	_ktree=
	_kpre=
	_kclean=
	while :; do
		case ${1:-} in
		-c) _kclean=1; shift ;;
		-s) _ksize=$2; shift 2 ;;
		-j) _kjsize=$2; shift 2 ;;
		-k) _khow=$2; shift 2 ;;
		-t) _ktree=$2; shift 2 ;;
		-p) _kpre=$2; shift 2 ;;
		*) break ;;
		esac
	done
	_kwl=$1
	_kout=$2
	_kmkfs=${3:-}
	_kmopts=${4:-}
	_kbase=${_kout%.img}
	_kjl=
	_kjdev=

	say ""
	say "--- kernel journal $_kout: workload $_kwl, mke2fs ${_kmkfs:-(defaults)}," \
		"mount ${_kmopts:-(defaults)}${_kjsize:+, external journal of $_kjsize}"
	if [ -n "$_kjsize" ]; then
		# mke2fs -J device= wants the journal as a block device.
		case " $_kmkfs " in
		*" -b 1024 "*) _kjbs=1024 ;;
		*" -b 2048 "*) _kjbs=2048 ;;
		*) _kjbs=4096 ;;
		esac
		_kjdev=$_kbase.live.jdev
		# A UUID of its own: while this journal is a loop device, blkid
		# shows it to every e2fsck on the machine, and one looking for
		# the fixed JDEV_UUID of another test's image (run at the same
		# time by make -j) would take this device for that journal.
		mkjdev "$_kjdev" "$_kjsize" "$_kjbs" \
			"$(cat /proc/sys/kernel/random/uuid)"
		kloop "$_kjdev"
		_kjl=$KLOOP
		# shellcheck disable=SC2086
		mkimg "$_kbase.live.img" "$_ksize" -J device="$_kjl" $_kmkfs
		_kmopts=${_kmopts:+$_kmopts,}journal_path=$_kjl
	else
		# shellcheck disable=SC2086
		mkimg "$_kbase.live.img" "$_ksize" $_kmkfs
	fi
	if [ -n "$_kpre" ]; then
		"$_kpre" "$_kbase.live.img" || die "$_kpre failed"
	fi
	kloop "$_kbase.live.img"
	_kl=$KLOOP
	kmount "$_kl" "$_kmopts"
	_km=$KMNT
	KW_AFTER=
	KW_IMG=$_kbase.live.img
	# shellcheck disable=SC2034
	KW_JDEV=$_kjdev
	"wl_$_kwl" "$_km" || die "workload $_kwl failed"
	if [ -n "$_ktree" ]; then
		tree_of "$_km" "$_ktree"
		say "tree before the shutdown: $(wc -l < "$_ktree") paths in $_ktree"
	fi
	"$KWORK" shutdown "$_km" "$_khow" || die "the shutdown of $_km failed"
	kquiet "$_kl" ${_kjl:+"$_kjl"}
	copy_img "$_kbase.live.img" "$_kout"
	[ -z "$_kjl" ] || copy_img "$_kjdev" "$_kbase.jdev"
	if [ -n "$KW_AFTER" ]; then
		eval "$KW_AFTER" || die "$KW_AFTER failed"
	fi
	kumount "$_km"
	kunloop "$_kl"
	[ -z "$_kjl" ] || kunloop "$_kjl"
	mv "$_kbase.live.img" "$_kbase.umounted.img" || die "mv failed"
	[ -z "$_kjl" ] || mv "$_kjdev" "$_kbase.umounted.jdev" || die "mv failed"

	_kst=$(journal_state "$_kout" ${_kjl:+"$_kbase.jdev"})
	say "crash state of $_kout: $_kst"
	case $_kst in
	needs_recovery=no*)
		# The shutdown's default flag freezes the filesystem first: the
		# log is flushed and checkpointed, nothing left to replay.
		[ -n "$_kclean" ] ||
			die "$_kout: the workload left no journal to replay ($_kst)" ;;
	needs_recovery=yes\ start=0\ *)
		die "$_kout: the workload left no journal to replay ($_kst)" ;;
	needs_recovery=yes\ start=[1-9]*) ;;
	*) die "$_kout: cannot read its journal state ($_kst)" ;;
	esac
}

# kernel_replay IMG OUT [JDEV OUTJ]: see the header.
kernel_replay() {
	copy_img "$1" "$2"
	_kjl=
	if [ -n "${3:-}" ]; then
		copy_img "$3" "$4"
		kloop "$4"
		_kjl=$KLOOP
	fi
	kloop "$2"
	_kl=$KLOOP
	if ! kmount "$_kl" "${_kjl:+journal_path=$_kjl}"; then
		# Only with KMOUNT_MAY_FAIL set: the kernel refuses to recover.
		kunloop "$_kl"
		[ -z "$_kjl" ] || kunloop "$_kjl"
		say "kernel replay of $1: the kernel refuses to mount it"
		return 1
	fi
	kumount "$KMNT"
	kunloop "$_kl"
	[ -z "$_kjl" ] || kunloop "$_kjl"
	say "kernel replay of $1 into $2: $(journal_state "$2" ${3:+"$4"})"
}

# tree_of DIR OUT: the listing of the tree mounted at DIR (see tree_list).
tree_of() {
	(
		cd "$1" || exit 1
		_kn=%n
		[ "${KTREE_NLINK:-1}" = 1 ] || _kn=-
		find . -printf "%p\t%y\t%m\t$_kn\t%U:%G\t%s\n" | sort |
		while IFS='	' read -r _kp _kt _kmode _kn _ko _ksz; do
			case $_kt in
			f) _kh=$(sha256_of "$_kp") ;;
			l) _kh=$(readlink "$_kp" | sha256sum | cut -d' ' -f1) ;;
			*) _kh=- ;;
			esac
			_kx=$("$KWORK" xattrs "$_kp" | tr '\n' ' ') || exit 1
			printf '%s %s %s %s %s %s %s %s\n' "$_kp" "$_kt" \
				"$_kmode" "$_kn" "$_ko" "$_ksz" "$_kh" "$_kx"
		done
	) > "$2" || die "cannot list the tree at $1"
}

# tree_list IMG OUT [JDEV]: see the header.
tree_list() {
	case $(journal_state "$1" ${3:+"$3"}) in
	needs_recovery=no*) ;;
	*) die "tree_list $1: its journal still needs replaying" ;;
	esac
	kloop "$1" -r
	_kl=$KLOOP
	if ! kmount "$_kl" ro,noload; then
		# Only with KMOUNT_MAY_FAIL set.
		kunloop "$_kl"
		say "tree_list $1: the kernel refuses to mount it"
		return 1
	fi
	tree_of "$KMNT" "$2"
	kumount "$KMNT"
	kunloop "$_kl"
	say "tree of $1: $(wc -l < "$2") paths in $2"
}

# tree_compare A B WHAT: see the header.
tree_compare() {
	NCASES=$((NCASES + 1))
	if diff -u "$1" "$2" > "$SCRATCH/.tree.diff"; then
		say "$3: trees identical ($1, $2)"
	else
		sed 's/^/    /' "$SCRATCH/.tree.diff" | head -n 60
		fail "$3: the trees differ ($1 against $2)"
	fi
}

# kernel_compare [-t LIVE_TREE] [-O "ORACLE_OPTIONS"] IMG [JDEV]
# The crash image through lib.sh's oracle_compare (with ORACLE_OPTIONS),
# then the kernel's replay of it against jrecover's, as trees; with -t,
# the kernel's tree must also be the one listed before the shutdown
# (everything the workload fsynced survived the crash).
kernel_compare() {
	_kct=
	_kco=
	while :; do
		case ${1:-} in
		-t) _kct=$2; shift 2 ;;
		-O) _kco=$2; shift 2 ;;
		*) break ;;
		esac
	done
	_kcb=${1%.img}
	# shellcheck disable=SC2086
	oracle_compare $_kco "$@"
	kernel_counted
	kernel_replay "$1" "$_kcb.kernel.img" ${2:+"$2" "$_kcb.kernel.jdev"}
	tree_list "$_kcb.kernel.img" "$_kcb.kernel.tree" ${2:+"$_kcb.kernel.jdev"}
	if [ -n "$_kct" ]; then
		tree_compare "$_kct" "$_kcb.kernel.tree" \
			"$_kcb: the tree before the shutdown against the kernel's replay"
	fi
	[ "$ORACLE_ONLY" = 1 ] && return
	tree_list "$_kcb.jrecover.img" "$_kcb.jrecover.tree" \
		${2:+"$_kcb.jrecover.jdev"}
	tree_compare "$_kcb.kernel.tree" "$_kcb.jrecover.tree" \
		"$_kcb: the kernel's replay against jrecover's"
}

# fsck_problems IMG OUT: see the header.
fsck_problems() {
	e2fsck -fn "$1" > "$SCRATCH/.fsck.out" 2>&1
	FSCK_RC=$?
	_kimg=$1
	awk -v img="$_kimg" '
		index($0, img) == 1 { next }
		/^e2fsck [0-9]/ || /^Pass [0-9]/ || /^[ \t]*$/ { next }
		/^Running additional passes/ || /^Restarting e2fsck/ { next }
		# The superblock totals: no replay makes them right (the
		# kernel sums the group descriptors at mount), e2fsck -n
		# exits 0 for them.  The groups own counts stay.
		/^Free (blocks|inodes) count wrong \(/ { next }
		{
			sub(/[ \t]+$/, "")
			# The question and its answer ("Fix? no") go.
			sub(/  *[A-Z][A-Za-z\/ +-]*\? no$/, "")
			sub(/^[A-Z][A-Za-z\/ +-]*\? no$/, "")
			if ($0 == "") next
			gsub(/ \([0-9]+, counted=[0-9]+\)/, "")
			if (/^(Block|Inode) bitmap differences:/)
				$0 = substr($0, 1, index($0, ":"))
			print
		}' "$SCRATCH/.fsck.out" | LC_ALL=C sort -u > "$2"
	return "$FSCK_RC"
}

# kend_test: lib.sh's end_test, with the count of kernel journals.
kend_test() {
	say "kernel journals compared with e2fsck: $KJOURNALS"
	end_test
}

kprobe

# --- workloads ----------------------------------------------------------------

# wl_mixed MNT
wl_mixed() {
	_kw=$1
	mkdir -p "$_kw/d1/d2" "$_kw/d3" &&
	"$KWORK" fsync "$_kw" "$_kw/d1" &&
	"$KWORK" write "$_kw/d1/a" 0 40000 1 &&
	"$KWORK" write "$_kw/d1/d2/b" 0 300000 2 &&
	"$KWORK" append "$_kw/d1/a" 5000 3 &&
	"$KWORK" write "$_kw/d1/d2/b" 8192 12288 4 &&
	"$KWORK" write "$_kw/sparse" 1048576 4096 5 &&
	"$KWORK" fallocate "$_kw/falloc" alloc 0 262144 &&
	"$KWORK" fallocate "$_kw/falloc" keep 262144 131072 &&
	"$KWORK" fallocate "$_kw/d1/d2/b" punch 16384 65536 &&
	"$KWORK" fallocate "$_kw/d1/d2/b" zero 131072 16384 &&
	"$KWORK" write "$_kw/d3/c" 0 100000 6 &&
	"$KWORK" truncate "$_kw/d3/c" 20000 &&
	ln "$_kw/d1/a" "$_kw/d3/a-link" && "$KWORK" fsync "$_kw/d3" &&
	ln -s ../d1/d2/b "$_kw/d3/b-sym" && "$KWORK" fsync "$_kw/d3" &&
	mv "$_kw/d3/c" "$_kw/d1/c-moved" &&
	"$KWORK" fsync "$_kw/d3" "$_kw/d1" &&
	"$KWORK" write "$_kw/gone" 0 70000 7 &&
	rm "$_kw/gone" && "$KWORK" fsync "$_kw" &&
	"$KWORK" setxattr "$_kw/d1/a" user.test "kernel journal" &&
	"$KWORK" write "$_kw/d1/last" 0 9000 8
}

# wl_lu14958 MNT: the shape of the journals behind LU-14958 (millions of
# revoke records that made replay quadratic), small: on an ext3-style
# filesystem (indirect-mapped files), a 16 MiB file truncated 64 KiB at a
# time, each step its own transaction, so every few transactions free an
# indirect block and write a revoke record for it; then a new file that
# takes the freed blocks again (some logged once more after their revoke).
wl_lu14958() {
	_kw=$1
	"$KWORK" write "$_kw/big" 0 16777216 41 &&
	"$KWORK" shrink "$_kw/big" 65536 &&
	"$KWORK" write "$_kw/again" 0 4194304 42 &&
	"$KWORK" write "$_kw/small" 0 5000 43
}

# wl_rmtree MNT: a directory of 10000 entries with long names (about a
# thousand blocks with 1 KiB blocks) removed with rm -r: a revoke record
# for every directory block freed, about a thousand in a few large
# transactions, some for blocks logged while the directory grew.
wl_rmtree() {
	mkdir "$1/t" && "$KWORK" fsync "$1" || return 1
	_ki=0
	while [ "$_ki" -lt 10000 ]; do
		: > "$1/t/a-rather-long-file-name-to-take-more-directory-blocks-$_ki" ||
			return 1
		_ki=$((_ki + 1))
	done
	"$KWORK" fsync "$1/t" && rm -r "$1/t" && "$KWORK" fsync "$1" &&
	"$KWORK" write "$1/x" 0 100000 44
}

# wl_ext3 MNT: wl_mixed without fallocate (indirect-mapped files do not
# have it), for ext3-style filesystems.
wl_ext3() {
	_kw=$1
	mkdir -p "$_kw/d1/d2" "$_kw/d3" &&
	"$KWORK" fsync "$_kw" "$_kw/d1" &&
	"$KWORK" write "$_kw/d1/a" 0 40000 1 &&
	"$KWORK" write "$_kw/d1/d2/b" 0 3000000 2 &&
	"$KWORK" append "$_kw/d1/a" 5000 3 &&
	"$KWORK" write "$_kw/d1/d2/b" 8192 12288 4 &&
	"$KWORK" write "$_kw/sparse" 5000000 4096 5 &&
	"$KWORK" truncate "$_kw/d1/d2/b" 1000000 &&
	ln "$_kw/d1/a" "$_kw/d3/a-link" && "$KWORK" fsync "$_kw/d3" &&
	ln -s ../d1/d2/b "$_kw/d3/b-sym" && "$KWORK" fsync "$_kw/d3" &&
	mv "$_kw/d1/a" "$_kw/d1/a-moved" && "$KWORK" fsync "$_kw/d1" &&
	"$KWORK" write "$_kw/gone" 0 700000 7 &&
	rm "$_kw/gone" && "$KWORK" fsync "$_kw" &&
	"$KWORK" setxattr "$_kw/d3" user.test "ext3" &&
	"$KWORK" shrink "$_kw/d1/d2/b" 40000
}

# wl_wrap MNT: small fsync'd transactions until the log has wrapped
# past the journal's end (for a small journal: mke2fs -J size=1).  The
# kernel moves the log's tail, and writes it to the journal superblock's
# s_start, only when it needs room, a chunk at a time, so the log is
# wrapped (its head below its tail) only for a while.  The workload reads
# s_start from the image being written (KW_IMG) and, once it has moved,
# walks the live log with debugfs's logdump (log_wraps) every few
# transactions; once it wraps, a dozen more, and it stops if the log still
# wraps then.  The test checks the wrap again on the crash image.
# _kwrap_one MNT N: the Nth transaction: 1000 bytes appended to one of
# 16 files.
_kwrap_one() {
	"$KWORK" write "$1/w$(($2 % 16))" "$(($2 / 16))000" 1000 "$2"
}

wl_wrap() {
	_kw=$1
	_kjsb=$(jsb_offset "$KW_IMG")
	_kstart0=
	_kmoved=0
	_ki=0
	while [ "$_ki" -lt 4000 ]; do
		_kwrap_one "$_kw" "$_ki" || return 1
		_ki=$((_ki + 1))
		[ $((_ki % 4)) -eq 0 ] || continue
		if [ "$_kmoved" = 1 ]; then
			log_wraps "$KW_IMG" || continue
			# Wrapped: a dozen more (the head further from the
			# end), if it stays wrapped.
			_kj=0
			while [ "$_kj" -lt 12 ]; do
				_kwrap_one "$_kw" "$_ki" || return 1
				_ki=$((_ki + 1))
				_kj=$((_kj + 1))
			done
			log_wraps "$KW_IMG" || continue
			say "wl_wrap: the log wraps after $_ki transactions"
			return 0
		fi
		_ks=$(od -An -tu4 --endian=big -j $((_kjsb + 28)) -N4 "$KW_IMG" |
			tr -d ' ')
		if [ -z "$_kstart0" ]; then
			_kstart0=$_ks
		elif [ "$_ks" != "$_kstart0" ]; then
			_kmoved=1
			say "wl_wrap: log tail moved from $_kstart0 to $_ks after" \
				"$_ki transactions"
		fi
	done
	say "wl_wrap: no wrapped log after $_ki transactions"
	return 1
}

# wl_orphans MNT: files unlinked while still open at the crash, so their
# inodes are on the orphan list (or in the orphan file) in the log: the
# shell holds them open on descriptors 7 and 8 until KW_AFTER closes them
# after the copy.  One of them is also truncated while open.
wl_orphans() {
	_kw=$1
	mkdir "$_kw/o" && "$KWORK" fsync "$_kw" &&
	"$KWORK" write "$_kw/o/o1" 0 50000 51 &&
	"$KWORK" write "$_kw/o/o2" 0 300000 52 &&
	"$KWORK" write "$_kw/o/keep" 0 7000 53 &&
	exec 7< "$_kw/o/o1" 8< "$_kw/o/o2" &&
	KW_AFTER='exec 7<&- 8<&-' &&
	rm "$_kw/o/o1" "$_kw/o/o2" && "$KWORK" fsync "$_kw/o" &&
	"$KWORK" truncate "/proc/self/fd/8" 100000 &&
	"$KWORK" write "$_kw/o/after" 0 3000 54
}

# wl_writer MNT: two writers (kwork writer: a block written and fsynced
# again and again, every 8th also appended to a log file) still running
# at the shutdown, while the shell creates and removes files.  They stop
# on the shutdown's I/O error; KW_AFTER waits for them.
wl_writer() {
	_kw=$1
	mkdir "$_kw/wr" && "$KWORK" fsync "$_kw" || return 1
	"$KWORK" writer "$_kw/wr/w1" 64 4096 > "$SCRATCH/.writer1.out" \
		2> "$SCRATCH/.writer1.err" &
	KW_WPIDS=$!
	"$KWORK" writer "$_kw/wr/w2" 200 1024 > "$SCRATCH/.writer2.out" \
		2> "$SCRATCH/.writer2.err" &
	KW_WPIDS="$KW_WPIDS $!"
	KPIDS="$KPIDS $KW_WPIDS"
	KW_AFTER=kwait_writers
	_kn=0
	until grep -q running "$SCRATCH/.writer1.out" 2> /dev/null &&
	      grep -q running "$SCRATCH/.writer2.out" 2> /dev/null; do
		_kn=$((_kn + 1))
		[ "$_kn" -lt 500 ] || { say "wl_writer: the writers did not start"; return 1; }
		sleep 0.01
	done
	_kn=0
	while [ "$_kn" -lt 20 ]; do
		"$KWORK" write "$_kw/wr/s$_kn" 0 $((_kn * 3000 + 100)) "$_kn" &&
		rm -f "$_kw/wr/s$((_kn - 3))" && "$KWORK" fsync "$_kw/wr" ||
			return 1
		_kn=$((_kn + 1))
	done
	sleep 0.5
}

# kwait_writers: wait for wl_writer's writers to stop after the shutdown.
kwait_writers() {
	for _kp in $KW_WPIDS; do
		_kn=0
		while kill -0 "$_kp" 2> /dev/null; do
			_kn=$((_kn + 1))
			[ "$_kn" -lt 1000 ] ||
				{ say "kwait_writers: writer $_kp still running"; return 1; }
			sleep 0.01
		done
		wait "$_kp"
	done
	cat "$SCRATCH/.writer1.err" "$SCRATCH/.writer2.err"
	KPIDS=
}

# pre_baddir IMG: before the mount, a directory "bad" whose first block
# is zeroed (its checksum, and everything else, wrong), for wl_error.
pre_baddir() {
	printf 'mkdir bad\n' | dfs_quiet "$1"
	_kb=$(debugfs -R "bmap bad 0" "$1" 2> /dev/null)
	case $_kb in
	''|*[!0-9]*) say "pre_baddir: cannot map bad in $1"; return 1 ;;
	esac
	dd if=/dev/zero of="$1" bs="$(img_bs "$1")" seek="$_kb" count=1 \
		conv=notrunc 2> /dev/null
}

# wl_error MNT: wl_mixed, then a read of the directory pre_baddir broke:
# ext4 reports the error and, mounted with errors=remount-ro, aborts the
# journal (s_errno = -EIO in the journal superblock, the error recorded
# in the ext4 superblock) and goes read-only; a last write fails.
wl_error() {
	wl_mixed "$1" || return 1
	if ls "$1/bad" > /dev/null 2>&1; then
		say "wl_error: reading the broken directory did not fail"
		return 1
	fi
	if "$KWORK" write "$1/after" 0 100 1 2> /dev/null; then
		say "wl_error: the filesystem is still writable after the error"
		return 1
	fi
}

# The fast-commit shapes: kept to what ext4 can log as fast commits
# (inode, data range, dentry add/delete) except where said.
wl_fc_mixed() {
	_kw=$1
	mkdir "$_kw/fc" && "$KWORK" fsync "$_kw" &&
	"$KWORK" write "$_kw/fc/a" 0 20000 11 &&
	"$KWORK" write "$_kw/fc/b" 0 200000 12 &&
	"$KWORK" append "$_kw/fc/a" 9000 13 &&
	"$KWORK" write "$_kw/fc/b" 40960 8192 14 &&
	mv "$_kw/fc/a" "$_kw/fc/a2" && "$KWORK" fsync "$_kw/fc/a2" &&
	ln "$_kw/fc/b" "$_kw/fc/b-link" && "$KWORK" fsync "$_kw/fc/b" &&
	"$KWORK" write "$_kw/fc/c" 0 50000 15 &&
	rm "$_kw/fc/c" && "$KWORK" fsync "$_kw/fc" &&
	"$KWORK" truncate "$_kw/fc/b" 100000 &&
	"$KWORK" fallocate "$_kw/fc/f" alloc 0 65536 &&
	"$KWORK" fallocate "$_kw/fc/f" keep 65536 32768 &&
	"$KWORK" write "$_kw/fc/d" 0 4096 16
}

wl_fc_stale() {
	wl_fc_mixed "$1" &&
	"$KWORK" setxattr "$1/fc/b" user.full "forces a full commit" &&
	"$KWORK" setxattr "$1/fc/d" user.full "and another one"
}

# wl_djdel MNT: data journaling with deletes: files written, some deleted
# or truncated, new files in the freed blocks, a directory of a few
# blocks removed, each step its own transaction.  Freeing a metadata
# block (the directory's) writes a revoke record for it, except under the
# data=journal mount option, where ext4 never revokes: it forgets the
# freed blocks, and the later copy in the log wins.
wl_djdel() {
	_kw=$1
	mkdir -p "$_kw/d/big" && "$KWORK" fsync "$_kw" "$_kw/d" &&
	for _ki in 1 2 3 4 5 6; do
		"$KWORK" write "$_kw/d/f$_ki" 0 $((_ki * 20000)) "$_ki" || return 1
	done &&
	_ki=0 &&
	while [ "$_ki" -lt 150 ]; do
		: > "$_kw/d/big/an-entry-with-a-long-name-to-fill-blocks-$_ki" ||
			return 1
		_ki=$((_ki + 1))
	done &&
	"$KWORK" fsync "$_kw/d/big" &&
	rm "$_kw/d/f2" "$_kw/d/f4" && "$KWORK" fsync "$_kw/d" &&
	"$KWORK" write "$_kw/d/g1" 0 60000 31 &&
	"$KWORK" write "$_kw/d/f1" 0 8192 32 &&
	"$KWORK" truncate "$_kw/d/f5" 5000 &&
	rm -r "$_kw/d/big" && "$KWORK" fsync "$_kw/d" &&
	rm "$_kw/d/f6" && "$KWORK" fsync "$_kw/d" &&
	"$KWORK" write "$_kw/d/g2" 0 120000 33 &&
	"$KWORK" fallocate "$_kw/d/g2" punch 8192 16384 &&
	rm "$_kw/d/g1" && "$KWORK" fsync "$_kw/d" &&
	"$KWORK" write "$_kw/d/g3" 0 50000 34
}

# wl_djflag MNT: wl_djdel with the journal-data flag (chattr +j, which
# new files inherit from their directory; needs CAP_SYS_RESOURCE) on the
# files in a data=ordered mount: their data blocks are logged, and
# freeing one writes a revoke record for it.
wl_djflag() {
	mkdir "$1/d" && chattr +j "$1/d" && wl_djdel "$1"
}

wl_fc_none() {
	_kw=$1
	# An extended attribute change makes the running transaction fast-
	# commit ineligible, and an fsync in such a transaction is a full
	# commit.  So nothing here fsyncs but kwork setxattr, which changes an
	# attribute of what it fsyncs (kwork -n: no fsync of its own).
	mkdir "$_kw/x" "$_kw/y" &&
	"$KWORK" setxattr "$_kw" user.step 1 &&
	"$KWORK" write -n "$_kw/x/a" 0 30000 21 &&
	"$KWORK" setxattr "$_kw/x/a" user.step 2 &&
	mv "$_kw/x" "$_kw/y/x2" &&
	"$KWORK" setxattr "$_kw/y" user.step 3 &&
	"$KWORK" append -n "$_kw/y/x2/a" 10000 22 &&
	"$KWORK" truncate -n "$_kw/y/x2/a" 25000 &&
	"$KWORK" setxattr "$_kw/y/x2/a" user.step 4
}
