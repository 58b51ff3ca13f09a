#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The NAME_wall, NAME_rc, ... variables are set by timed() through eval:
# shellcheck disable=SC2154
#
# run.sh -- the end-to-end benchmark (`make bench`; see bench/README).
#
# For N = 2^MIN .. 2^MAX revoke records, with and without journal checksums
# (csum v3), it makes an ext4 image whose journal needs recovery (mke2fs,
# then bench/mkbench), reads it once into the page cache, and on fresh
# sparse copies of it times, in the same run:
#   jrecover                      (bench/jrecover, the real binary; best of
#                                  BENCH_REPEAT runs)
#   LIBRECOVER_DEBUG=full_revoke jrecover   (every record in the table)
#   e2fsck -y -E journal_only     (bounded by BENCH_E2FSCK_TIMEOUT; skipped
#                                  once a smaller N has hit the bound)
#   jrecover -n, and dd of the same journal blocks (the read phase)
#   the same three with the page cache dropped before each (root only)
#   the kernel: mount -t ext4 of a loop device on a copy, then umount
#                                 (root and loop devices only)
# with /usr/bin/time (wall, user+sys CPU, peak RSS), and checks that every
# result is byte-identical to jrecover's outside the superblock's
# s_wtime/s_kbytes_written/s_checksum (and, for the kernel, the fields a
# mount writes besides the replay: sparsecmp -k).  A second image of the
# same shape with N = 0 gives the baseline RSS behind the bytes-per-record
# columns.  Then the LU-14958 shape (30,489,150 records in 1858
# transactions, scaled down by BENCH_LU_DIV) the same way, and the write
# requests of jrecover, e2fsck and the kernel on two small images, one
# whose every transaction relogs the same blocks (strace, loop device
# statistics).
#
# Writes results.dat, results.md, results.png (gnuplot) and rtable.md
# (bench/rtable_bench) to BENCH_OUT, and prints the targets at the end.
# With BENCH_BEFORE=REVISION it also times bench/jrecover of REVISION
# against this tree's on the same images (bench/before-after.sh);
# BENCH_ONLY=before-after runs that comparison alone.
# Exit status: 0, or 1 when any comparison found a difference or a tool
# failed.

set -u
LC_ALL=C
export LC_ALL

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"

QUICK=${BENCH_QUICK:-0}
if [ "$QUICK" = 1 ]; then
	MIN=${BENCH_MIN:-16}
	MAX=${BENCH_MAX:-20}
	E2_TIMEOUT=${BENCH_E2FSCK_TIMEOUT:-60}
	K_TIMEOUT=${BENCH_KERNEL_TIMEOUT:-60}
	REPEAT=${BENCH_REPEAT:-1}
	LU_DIV=${BENCH_LU_DIV:-64}
	RELOG_T=${BENCH_RELOG_T:-64}
else
	MIN=${BENCH_MIN:-20}
	MAX=${BENCH_MAX:-25}
	E2_TIMEOUT=${BENCH_E2FSCK_TIMEOUT:-600}
	K_TIMEOUT=${BENCH_KERNEL_TIMEOUT:-300}
	REPEAT=${BENCH_REPEAT:-3}
	LU_DIV=${BENCH_LU_DIV:-1}
	RELOG_T=${BENCH_RELOG_T:-1858}
fi
# The LU-14958 shape (the real case behind issue 11): 30,489,150 revoke
# records in 1858 transactions of 50 logged blocks; N and T divided by
# LU_DIV.  BENCH_LU=0 leaves it out; BENCH_LU_CSUM: its journal formats.
RUN_LU=${BENCH_LU:-1}
LU_CSUMS=${BENCH_LU_CSUM:-v3}
LU_N=$((30489150 / LU_DIV))
LU_T=$((1858 / LU_DIV))
[ "$LU_T" -ge 1 ] || LU_T=1
# Cold-cache runs (drop_caches before each timed run), the kernel column
# and the write-request rows; each is skipped, with a note, where this
# machine cannot do it.
RUN_COLD=${BENCH_COLD:-1}
RUN_KERNEL=${BENCH_KERNEL:-1}
RUN_WRITES=${BENCH_WRITES:-1}
# The peak RSS the memory target allows twice of (MiB): jrecover's at
# 2^25 before issue 11's passes (19 MiB, csum v3 and none, the same
# as the N = 0 baseline of that shape: it follows the 204,800 logged
# blocks, not the records).  Issue 11 says ~5 MiB; this bench never
# measured that.
RSS_REF=${BENCH_RSS_REF_MIB:-19}
CSUMS=${BENCH_CSUM:-v3 none}
RUN_E2FSCK=${BENCH_E2FSCK:-1}
BENCH_L=${BENCH_L:-50}
BENCH_HIT=${BENCH_HIT:-1}
BENCH_T=${BENCH_T:-}
OUT=${BENCH_OUT:-$top_builddir/bench}
RUN_RTABLE=${BENCH_RTABLE:-1}
# A nice value (e.g. -10) for every timed command, on a machine shared with
# other work: the same for jrecover, dd and e2fsck.
NICE=${BENCH_NICE:-0}
# Before/after (bench/before-after.sh): bench/jrecover of the revision
# BENCH_BEFORE against this tree's, for N = 2^k, k in BENCH_BEFORE_N, the
# formats BENCH_BEFORE_CSUM and the LU-14958 row (BENCH_BEFORE_LU),
# BENCH_BEFORE_ROUNDS rounds, best taken; no slowdown = every new/old
# ratio within BENCH_BEFORE_TOL.  BENCH_ONLY=before-after: nothing else.
BEFORE=${BENCH_BEFORE:-}
BEFORE_DIR=${BENCH_BEFORE_DIR:-}
if [ "$QUICK" = 1 ]; then
	BA_K=${BENCH_BEFORE_N:-18 20}
else
	BA_K=${BENCH_BEFORE_N:-24 25}
fi
BA_CSUMS=${BENCH_BEFORE_CSUM:-$CSUMS}
BA_LU=${BENCH_BEFORE_LU:-$RUN_LU}
BA_ROUNDS=${BENCH_BEFORE_ROUNDS:-5}
BA_TOL=${BENCH_BEFORE_TOL:-1.10}
ONLY=${BENCH_ONLY:-}
case $ONLY in
'') ;;
before-after)
	[ -n "$BEFORE" ] || { printf '%s\n' "run.sh: BENCH_ONLY=before-after needs BENCH_BEFORE=REVISION" >&2; exit 2; }
	# the other rows of results.dat stay; the kernel, strace and
	# rtable_bench are not needed
	BENCH_APPEND=1 RUN_KERNEL=0 RUN_WRITES=0 RUN_RTABLE=0 ;;
*)	printf '%s\n' "run.sh: BENCH_ONLY=$ONLY: only before-after is known" >&2
	exit 2 ;;
esac

BIN=$top_builddir/bench
JRECOVER=$BIN/jrecover
MKBENCH=$BIN/mkbench
SPARSECMP=$BIN/sparsecmp
RTABLE_BENCH=$BIN/rtable_bench
TIME=/usr/bin/time
MKE2FS_CONFIG=$top_srcdir/bench/mke2fs.conf
E2FSCK_CONFIG=/dev/null
export MKE2FS_CONFIG E2FSCK_CONFIG
# Fixed identities, so that two runs make the same images.
FS_UUID=6a1c0e2b-7d4f-4c3a-9b58-2e1f0d9c8b7a
HASH_SEED=0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f

say() {
	printf '%s\n' "$*"
}

die() {
	say "run.sh: $*" >&2
	exit 2
}

REPORT_ONLY=${BENCH_REPORT_ONLY:-0}
APPEND=${BENCH_APPEND:-0}
DAT=$OUT/results.dat
MD=$OUT/results.md
LOG=$OUT/results.log
NFAIL=0
mkdir -p "$OUT" || die "cannot create $OUT"

if [ "$REPORT_ONLY" != 1 ]; then
	for p in mke2fs e2fsck debugfs dd cp sync timeout nice awk "$TIME"; do
		command -v "$p" >/dev/null 2>&1 || die "$p not found"
	done
	for p in "$JRECOVER" "$MKBENCH" "$SPARSECMP"; do
		[ -x "$p" ] || die "$p not built: run 'make bench'"
	done
	case $JRECOVER in
	*/src/jrecover) die "use the bench's own binary, not the libtool wrapper" ;;
	esac
	head -c 2 "$JRECOVER" | grep -q '#!' && die "$JRECOVER is a script"
	SCRATCH=$(mktemp -d "${BENCH_TMP:-${TMPDIR:-/tmp}}/jrecover-bench.XXXXXX") ||
		die "cannot make a scratch directory"
	SCRATCH=$(cd "$SCRATCH" && pwd -P)	# as strace -y names files
	MNT=$SCRATCH/mnt
	LOOP=
	trap 'let_go; rm -rf "$SCRATCH"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	[ "$APPEND" = 1 ] || : > "$LOG"
fi

log() {
	say "$*" | tee -a "$LOG"
}

# let_go: unmount MNT and detach LOOP if kernel_replay left them.
let_go() {
	if [ -n "$LOOP" ]; then
		umount "$MNT" 2> /dev/null
		losetup -d "$LOOP" 2> /dev/null
		LOOP=
	fi
}

# drop_cache: write back and drop the page cache (cold runs).
drop_cache() {
	sync && echo 3 > /proc/sys/vm/drop_caches
}

# timed NAME CMD...: run CMD under /usr/bin/time; sets NAME_wall, NAME_cpu
# (user + sys), NAME_rss (KiB) and NAME_rc.  Output goes to the log.
timed() {
	_n=$1
	shift
	_t0=$(date +%s%N)
	"$TIME" -f '%e %U %S %M' -o "$SCRATCH/time.out" \
		nice -n "$NICE" "$@" >> "$LOG" 2>&1
	_rc=$?
	_t1=$(date +%s%N)
	# GNU time adds a "Command exited with non-zero status" line first.
	# Its wall clock has 10 ms steps: the wall time is taken here, in ns.
	# shellcheck disable=SC2046
	set -- $(tail -n 1 "$SCRATCH/time.out")
	eval "${_n}_rc=$_rc ${_n}_wall=$(awk "BEGIN { printf \"%.3f\", ($_t1 - $_t0) / 1e9 }") ${_n}_cpu=$(awk "BEGIN { print $2 + $3 }") ${_n}_rss=$4"
}

# copy IMG COPY: a sparse copy, written back to the disk before any timing
# starts so that the tool's own flush only writes what the tool wrote.
copy() {
	rm -f "$2"
	if ! cp --sparse=always "$1" "$2" || ! sync "$2"; then
		die "cannot copy $1"
	fi
}

# same A B WHAT: compare two results; a difference is a failure.
same() {
	if "$SPARSECMP" "$1" "$2" >> "$LOG" 2>&1; then
		return 0
	fi
	log "FAIL: $3: the images differ"
	NFAIL=$((NFAIL + 1))
	return 1
}

# mkimage IMG NRECORDS [mkbench options]: mke2fs with the sizes of the
# current plan, then mkbench.
mkimage() {
	_img=$1
	_n=$2
	shift 2
	rm -f "$_img"
	mke2fs -q -F -t ext4 -b 4096 -O "$MKFS_FEATURES" -U "$FS_UUID" \
		-J size="$JOURNAL_MIB" \
		-E lazy_itable_init=1,lazy_journal_init=1,hash_seed=$HASH_SEED \
		"$_img" "${IMAGE_MIB}M" >> "$LOG" 2>&1 ||
		die "mke2fs failed for $_img (see $LOG)"
	"$MKBENCH" "$@" "$_img" "$_n" > "$SCRATCH/mkbench.out" 2>> "$LOG" ||
		die "mkbench failed for $_img (see $LOG)"
	cat "$SCRATCH/mkbench.out" >> "$LOG"
}

# journal_dd IMG BLOCKS: a script reading journal blocks 0 .. BLOCKS-1 of
# IMG with dd, one dd per physically contiguous run (from debugfs's extent
# list of the journal inode).
journal_dd() {
	debugfs -R "stat <8>" "$1" 2>/dev/null |
	awk -v want="$2" -v img="$1" '
	/^EXTENTS:/ { on = 1; next }
	on {
		n = split($0, e, /, */)
		for (i = 1; i <= n; i++) {
			if (e[i] !~ /^\([0-9]+(-[0-9]+)?\):[0-9]+/) continue
			split(e[i], a, /[():-]+/)
			# a[2]=first logical, a[3]=last logical, a[4]=physical
			lo = a[2]; hi = (e[i] ~ /^\([0-9]+-/) ? a[3] : a[2]
			p = (e[i] ~ /^\([0-9]+-/) ? a[4] : a[3]
			if (lo >= want) continue
			if (hi >= want) hi = want - 1
			# %.0f, as mawk prints %d no higher than 2^31 - 1
			printf "dd if=%s of=/dev/null bs=2M iflag=skip_bytes,count_bytes skip=%.0f count=%.0f 2>/dev/null\n",
				img, p * 4096, (hi - lo + 1) * 4096
		}
	}'
}

# min_of X...: the smallest number (empty arguments vanish unquoted)
min_of() {
	printf '%s\n' "$@" | sort -g | head -n 1
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a != "-" && b != "-" && b > 0) printf "%.1f", a / b; else print "-" }'
}

# kernel_replay IMG: the kernel's replay of IMG, the way an admin gets it
# (mount -t ext4 -o loop): attach a loop device, then time mount (which
# replays the journal), umount, and the fsync of IMG (jrecover's and
# e2fsck's times include their own fsync).  noinit_itable: no lazy
# inode-table zeroing behind the mount.  Sets k_wall, k_rc (as timed()),
# k_wreq and k_wbytes: the write requests the loop device completed and
# their bytes, from its statistics.
kernel_replay() {
	k_wreq=- k_wbytes=- k_wall=- k_rc=99
	LOOP=$(losetup -f --show "$1" 2>> "$LOG") || { LOOP=; return; }
	# a loop device given up just before can still hold old pages
	blockdev --flushbufs "$LOOP" 2> /dev/null
	mkdir -p "$MNT"
	# the statistics count from the device's creation, not the attach
	_st=/sys/block/${LOOP#/dev/}/stat
	# shellcheck disable=SC2046
	set -- "$1" $(cat "$_st" 2> /dev/null)
	_w0=${6:-} _s0=${8:-}
	# shellcheck disable=SC2016	# expanded by the inner sh
	timed k sh -c 'mount -t ext4 -o noinit_itable "$1" "$2" && umount "$2" && sync "$3"' \
		sh "$LOOP" "$MNT" "$1"
	if [ "$k_rc" != 0 ]; then
		dmesg 2> /dev/null | tail -n 5 >> "$LOG"
	else
		# shellcheck disable=SC2046
		set -- $(cat "$_st" 2> /dev/null)
		[ $# -ge 7 ] && [ -n "$_s0" ] && k_wreq=$(($5 - _w0)) k_wbytes=$((($7 - _s0) * 512))
	fi
	let_go
}

# writes_of NAME FILE CMD...: run CMD (not timed) under strace and count
# its write system calls on FILE: sets NAME_wreq (requests), NAME_wbytes
# (bytes written), NAME_flush (fsync, fdatasync, sync_file_range calls)
# and NAME_rc.
writes_of() {
	_n=$1
	_f=$2
	shift 2
	strace -f -y -qq -s 0 -e signal=none -o "$SCRATCH/strace.out" \
		-e trace=write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,sync_file_range \
		"$@" >> "$LOG" 2>&1
	_rc=$?
	eval "$(awk -v f="<$_f>" -v n="$_n" '
	# with -f every line starts with the pid; a call another thread
	# interrupts is split into "<unfinished ...>" and "<... resumed>"
	{ pid = $1 }
	index($0, f) && / <unfinished \.\.\.>$/ { pend[pid] = ($0 ~ /sync/) ? "s" : "w"; next }
	/<\.\.\. [a-z0-9_]+ resumed>/ {
		if (!(pid in pend)) next
		k = pend[pid]; delete pend[pid]
	}
	!/<\.\.\. [a-z0-9_]+ resumed>/ {
		if (!index($0, f)) next
		k = ($0 ~ /^[0-9]+ +(fsync|fdatasync|sync_file_range)\(/) ? "s" : "w"
	}
	k == "s" { s++; next }
	$NF ~ /^[0-9]+$/ { r++; b += $NF }
	END { printf "%s_wreq=%d %s_wbytes=%.0f %s_flush=%d\n", n, r, n, b, n, s }' \
		"$SCRATCH/strace.out")"
	eval "${_n}_rc=$_rc"
}

# jsb_offset IMG: the journal superblock's byte offset in IMG (where
# journal block 0 is).
jsb_offset() {
	_b=$(debugfs -R "bmap <8> 0" "$1" 2> /dev/null)
	case $_b in
	''|*[!0-9]*) die "cannot find the journal superblock of $1" ;;
	esac
	echo $((_b * 4096))
}

# ---- one row -----------------------------------------------------------------

# csum_format CSUM: the mke2fs features (MKFS_FEATURES), mkbench option
# (copt) and results.dat code (csnum) of a journal format, v3 or none.
csum_format() {
	if [ "$1" = v3 ]; then
		MKFS_FEATURES=64bit,metadata_csum
		copt=-c
		csnum=3
	else
		MKFS_FEATURES=64bit,^metadata_csum
		copt=
		csnum=0
	fi
}

# plan_row N CSUM SHAPE: the journal format (csum_format) and the sizes
# of one row's image (mkbench -p: T, L, HIT, LOG_BLOCKS, JOURNAL_MIB,
# IMAGE_MIB); SHAPE "bench" (T from BENCH_T or N / 8192) or "lu" (the
# LU-14958 shape: T = LU_T).  Also sets load, the 1-minute load average.
plan_row() {
	csum_format "$2"
	topt=
	[ -n "$BENCH_T" ] && topt="-t $BENCH_T"
	[ "$3" = lu ] && topt="-t $LU_T"
	# shellcheck disable=SC2086
	eval "$("$MKBENCH" -p $copt $topt -l "$BENCH_L" -H "$BENCH_HIT" "$1")"
	load=$(cut -d' ' -f1 /proc/loadavg)
}

# room_for_row: whether SCRATCH has room for the planned image and two
# copies at a time (data written: the logged range and the log, plus
# metadata); if not, says so (SKIP) and returns 1.
room_for_row() {
	need=$(( (LOG_BLOCKS + T * L) * 4 * 3 / 1024 + 512 ))
	avail=$(df -Pm "$SCRATCH" | awk 'NR == 2 { print $4 }')
	[ "$avail" -ge "$need" ] && return 0
	log "SKIP: $need MiB needed in $SCRATCH, $avail MiB free"
	return 1
}

# bench_one N CSUM [SHAPE]: one row (SHAPE: bench, the default, or lu;
# see plan_row).
bench_one() {
	n=$1
	cs=$2
	shape=${3:-bench}
	plan_row "$n" "$cs" "$shape"
	jblocks=$((JOURNAL_MIB * 256))
	log ""
	log "=== $shape N=$n csum=$cs T=$T L=$L log blocks=$LOG_BLOCKS journal=${JOURNAL_MIB} MiB image=${IMAGE_MIB} MiB load=$load"
	room_for_row || return

	img=$SCRATCH/bench.img
	t0=$(date +%s)
	# shellcheck disable=SC2086
	mkimage "$img" "$n" $copt -t "$T" -l "$L" -H "$HIT"
	log "image made in $(( $(date +%s) - t0 )) s"
	"$SPARSECMP" -r "$img" > /dev/null || die "cannot read $img"

	# The read phase: dd of the journal blocks jrecover reads (the
	# journal superblock and the log) against jrecover -n.
	journal_dd "$img" $((LOG_BLOCKS + 1)) > "$SCRATCH/dd.sh"
	[ -s "$SCRATCH/dd.sh" ] || die "cannot map the journal of $img"
	ddbytes=$(sed 's/.* count=\([0-9]*\) .*/\1/' "$SCRATCH/dd.sh" | awk '{ s += $1 } END { printf "%.0f", s }')
	[ "$ddbytes" = $(( (LOG_BLOCKS + 1) * 4096 )) ] ||
		die "the dd script of $img reads $ddbytes bytes, not $(( (LOG_BLOCKS + 1) * 4096 ))"
	jsb=$(jsb_offset "$img")
	dd_best='' dry_best=''
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		timed dd sh "$SCRATCH/dd.sh"
		timed dry "$JRECOVER" -n "$img"
		# -n exits with the status its replay would return (1); older
		# jrecovers exited 0
		[ "$dry_rc" -le 1 ] || { log "FAIL: jrecover -n exited $dry_rc"; NFAIL=$((NFAIL + 1)); }
		# shellcheck disable=SC2086	# empty at first: no argument
		dd_best=$(min_of $dd_best "$dd_wall")
		# shellcheck disable=SC2086
		dry_best=$(min_of $dry_best "$dry_wall")
		i=$((i + 1))
	done

	# jrecover, the default (filtered) table: best of REPEAT fresh copies.
	jr_best=
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		copy "$img" "$SCRATCH/jr.img"
		timed jr "$JRECOVER" "$SCRATCH/jr.img"
		if [ "$jr_rc" != 1 ]; then
			log "FAIL: jrecover exited $jr_rc (1 expected)"
			NFAIL=$((NFAIL + 1))
		fi
		if [ -z "$jr_best" ] || [ "$(min_of "$jr_best" "$jr_wall")" != "$jr_best" ]; then
			jr_best=$jr_wall jr_bcpu=$jr_cpu jr_brss=$jr_rss
		fi
		i=$((i + 1))
	done
	replayed=$(grep -o 'replayed [0-9]* blocks' "$LOG" | tail -n 1 | cut -d' ' -f2)
	: "${replayed:=-}"

	# Cold cache: the page cache dropped before each run (the copy is
	# made, and written back, first); best of REPEAT, as warm.
	cdd=- cdry=- cjr=-
	if [ "$COLD" = 1 ]; then
		cdd='' cdry='' cjr=''
		i=0
		while [ "$i" -lt "$REPEAT" ]; do
			drop_cache
			timed cdd sh "$SCRATCH/dd.sh"
			drop_cache
			timed cdry "$JRECOVER" -n "$img"
			[ "$cdry_rc" -le 1 ] || { log "FAIL: cold jrecover -n exited $cdry_rc"; NFAIL=$((NFAIL + 1)); }
			copy "$img" "$SCRATCH/cold.img"
			drop_cache
			timed cjr "$JRECOVER" "$SCRATCH/cold.img"
			[ "$cjr_rc" = 1 ] || { log "FAIL: cold jrecover exited $cjr_rc (1 expected)"; NFAIL=$((NFAIL + 1)); }
			rm -f "$SCRATCH/cold.img"
			# shellcheck disable=SC2086	# empty at first: no argument
			cdd=$(min_of $cdd "$cdd_wall")
			# shellcheck disable=SC2086
			cdry=$(min_of $cdry "$cdry_wall")
			# shellcheck disable=SC2086
			cjr=$(min_of $cjr "$cjr_wall")
			i=$((i + 1))
		done
		"$SPARSECMP" -r "$img" > /dev/null	# warm again
		"$SPARSECMP" -r "$SCRATCH/jr.img" > /dev/null
	fi

	# The full table.
	copy "$img" "$SCRATCH/full.img"
	timed full env LIBRECOVER_DEBUG=full_revoke "$JRECOVER" "$SCRATCH/full.img"
	if [ "$full_rc" != 1 ]; then
		log "FAIL: jrecover (full table) exited $full_rc (1 expected)"
		NFAIL=$((NFAIL + 1))
	fi
	ident=1
	same "$SCRATCH/jr.img" "$SCRATCH/full.img" "N=$n $cs: full table vs default" || ident=0
	rm -f "$SCRATCH/full.img"

	# The kernel: bounded only afterwards (a mount cannot be interrupted):
	# once one took longer than K_TIMEOUT, the larger N skip it.
	k_state=4 k_ident=- kw=-
	if [ "$KERNEL" = 1 ]; then
		eval "k_stop=\${K_STOP_$cs:-0}"
		if [ "$k_stop" != 0 ] && [ "$n" -ge "$k_stop" ]; then
			k_state=2
		else
			copy "$img" "$SCRATCH/k.img"
			kernel_replay "$SCRATCH/k.img"
			if [ "$k_rc" != 0 ]; then
				log "FAIL: the kernel's mount of the image failed (exit $k_rc; see $LOG)"
				NFAIL=$((NFAIL + 1))
				k_state=3
			else
				kw=$k_wall k_state=0 k_ident=1
				if awk -v a="$k_wall" -v b="$K_TIMEOUT" 'BEGIN { exit !(a > b) }'; then
					log "the kernel took longer than ${K_TIMEOUT} s: larger N skip it"
					k_state=1
					eval "K_STOP_$cs=$n"
				fi
				if ! "$SPARSECMP" -k "$jsb" "$SCRATCH/jr.img" "$SCRATCH/k.img" >> "$LOG" 2>&1; then
					log "FAIL: N=$n $cs: the kernel's result differs from jrecover's"
					NFAIL=$((NFAIL + 1))
					k_ident=0
				fi
			fi
			rm -f "$SCRATCH/k.img"
		fi
	fi

	# e2fsck, bounded: once it passed the bound, larger N skip it.
	e2_wall=- e2_cpu=- e2_rss=- e2_state=2 e2_ratio=-
	eval "e2_stop=\${E2_STOP_$cs:-0}"
	if [ "$RUN_E2FSCK" = 1 ] && { [ "$e2_stop" = 0 ] || [ "$n" -lt "$e2_stop" ]; }; then
		copy "$img" "$SCRATCH/e2.img"
		timed e2 timeout -k 10 "$E2_TIMEOUT" e2fsck -y -E journal_only "$SCRATCH/e2.img"
		if [ "$e2_rc" = 124 ] || [ "$e2_rc" = 137 ]; then
			log "e2fsck passed the ${E2_TIMEOUT} s bound"
			# /usr/bin/time does not see a killed e2fsck's usage
			e2_state=1 e2_wall=$E2_TIMEOUT e2_cpu=- e2_rss=-
			eval "E2_STOP_$cs=$n"
		elif [ "$e2_rc" -gt 1 ]; then
			log "FAIL: e2fsck exited $e2_rc"
			NFAIL=$((NFAIL + 1))
			e2_state=3
		else
			e2_state=0
			e2_ratio=$(ratio "$e2_wall" "$jr_best")
			same "$SCRATCH/jr.img" "$SCRATCH/e2.img" "N=$n $cs: e2fsck vs jrecover" || ident=0
		fi
		rm -f "$SCRATCH/e2.img"
	fi
	[ "$e2_state" = 0 ] || [ "$ident" = 0 ] || ident=2	# checked against full only
	rm -f "$SCRATCH/jr.img" "$img"

	# Baseline: the same shape, same image and journal sizes, no records.
	# shellcheck disable=SC2086
	mkimage "$SCRATCH/base.img" 0 $copt -t "$T" -l "$L" -H "$HIT"
	copy "$SCRATCH/base.img" "$SCRATCH/b.img"
	timed b0 "$JRECOVER" "$SCRATCH/b.img"
	copy "$SCRATCH/base.img" "$SCRATCH/b.img"
	timed b1 env LIBRECOVER_DEBUG=full_revoke "$JRECOVER" "$SCRATCH/b.img"
	b2_rss=-
	if [ "$e2_state" = 0 ]; then
		copy "$SCRATCH/base.img" "$SCRATCH/b.img"
		timed b2 e2fsck -y -E journal_only "$SCRATCH/b.img"
	fi
	rm -f "$SCRATCH/b.img" "$SCRATCH/base.img"

	bpr() {
		awk -v a="$1" -v b="$2" -v n="$n" \
			'BEGIN { if (a == "-" || b == "-" || n == 0) print "-"; else printf "%.2f", (a - b) * 1024 / n }'
	}
	div=-
	[ "$shape" = lu ] && div=$LU_DIV
	# BENCH_APPEND: this row replaces an older one of the same N, csum
	# and shape (rows of older runs have no shape: bench).
	awk -v n="$n" -v c="$csnum" -v sh="$shape" \
		'/^#/ || $1 == "w" || $1 != n || $2 != c || (NF >= 29 ? $29 : "bench") != sh' \
		"$DAT" > "$DAT.new" && mv "$DAT.new" "$DAT"
	crep=-
	[ "$COLD" = 1 ] && crep=$REPEAT
	printf '%s %s %s %s %s  %s %s %s %s %s  %s %s %s %s %s  %s %s %s %s %s %s  %s %s %s  %s %s %s %s  %s %s %s %s  %s %s %s %s %s\n' \
		"$n" "$csnum" "$T" "$LOG_BLOCKS" "$jblocks" \
		"$jr_best" "$jr_bcpu" "$jr_brss" "$b0_rss" "$(bpr "$jr_brss" "$b0_rss")" \
		"$full_wall" "$full_cpu" "$full_rss" "$b1_rss" "$(bpr "$full_rss" "$b1_rss")" \
		"$e2_wall" "$e2_cpu" "$e2_rss" "$b2_rss" "$(bpr "$e2_rss" "$b2_rss")" "$e2_state" \
		"$dry_best" "$dd_best" "$(ratio "$dry_best" "$dd_best")" \
		"$ident" "$replayed" "$load" "$e2_ratio" \
		"$shape" "$cdd" "$cdry" "$cjr" \
		"$kw" "$k_state" "$k_ident" "$div" "$crep" >> "$DAT"
	sort_dat
	log "jrecover ${jr_best} s (cpu ${jr_bcpu} s, ${jr_brss} KiB; baseline ${b0_rss} KiB)," \
	    "full ${full_wall} s (${full_rss} KiB), e2fsck ${e2_wall} s (state $e2_state)," \
	    "dry ${dry_best} s, dd ${dd_best} s, identical=$ident;" \
	    "cold: dd ${cdd} s, dry ${cdry} s, jrecover ${cjr} s; kernel ${kw} s (state $k_state, identical $k_ident)"
	write_md
}

# sort_dat: the rows in order of N, csum v3 first, whatever order they
# came in; the write-request rows, then the before/after rows, last.
sort_dat() {
	{ grep '^#' "$DAT"; grep -v '^#' "$DAT" | grep -v '^w ' | grep -v '^ba ' | sort -k1,1n -k2,2nr
	  grep '^w ' "$DAT"; grep '^ba ' "$DAT"; } > "$DAT.new" && mv "$DAT.new" "$DAT"
}

# writes_one NAME CSUM N T SPAN: the write requests and bytes of
# jrecover, e2fsck and the kernel replaying the same image: T transactions
# of L logged blocks cycling through SPAN blocks (SPAN = L: every
# transaction relogs the same blocks), N revoke records.  Not timed.
writes_one() {
	wname=$1
	cs=$2
	n=$3
	t=$4
	span=$5
	csum_format "$cs"
	# shellcheck disable=SC2086
	eval "$("$MKBENCH" -p $copt -t "$t" -l "$BENCH_L" -s "$span" -H "$BENCH_HIT" "$n")"
	log ""
	log "=== writes: $wname N=$n csum=$cs T=$T L=$L distinct logged blocks=$span log blocks=$LOG_BLOCKS"
	img=$SCRATCH/w.img
	# shellcheck disable=SC2086
	mkimage "$img" "$n" $copt -t "$T" -l "$L" -s "$span" -H "$HIT"
	jsb=$(jsb_offset "$img")
	copy "$img" "$SCRATCH/wjr.img"
	writes_of wjr "$SCRATCH/wjr.img" "$JRECOVER" "$SCRATCH/wjr.img"
	[ "$wjr_rc" = 1 ] || { log "FAIL: jrecover exited $wjr_rc (1 expected)"; NFAIL=$((NFAIL + 1)); }
	replayed=$(grep -o 'replayed [0-9]* blocks' "$LOG" | tail -n 1 | cut -d' ' -f2)
	: "${replayed:=-}"
	wid=1
	we2_wreq=- we2_wbytes=- we2_flush=-
	if [ "$RUN_E2FSCK" = 1 ]; then
		copy "$img" "$SCRATCH/we2.img"
		writes_of we2 "$SCRATCH/we2.img" timeout -k 10 "$E2_TIMEOUT" \
			e2fsck -y -E journal_only "$SCRATCH/we2.img"
		if [ "$we2_rc" -gt 1 ]; then
			log "FAIL: e2fsck exited $we2_rc"
			NFAIL=$((NFAIL + 1))
			we2_wreq=- we2_wbytes=- we2_flush=-
			wid=0
		else
			same "$SCRATCH/wjr.img" "$SCRATCH/we2.img" "writes $wname: e2fsck vs jrecover" || wid=0
		fi
		rm -f "$SCRATCH/we2.img"
	fi
	kwreq=- kwbytes=- kid=-
	if [ "$KERNEL" = 1 ]; then
		copy "$img" "$SCRATCH/wk.img"
		kernel_replay "$SCRATCH/wk.img"
		if [ "$k_rc" = 0 ]; then
			kwreq=$k_wreq kwbytes=$k_wbytes kid=1
			"$SPARSECMP" -k "$jsb" "$SCRATCH/wjr.img" "$SCRATCH/wk.img" >> "$LOG" 2>&1 || {
				log "FAIL: writes $wname: the kernel's result differs from jrecover's"
				NFAIL=$((NFAIL + 1))
				kid=0
			}
		else
			log "FAIL: the kernel's mount of the image failed (exit $k_rc)"
			NFAIL=$((NFAIL + 1))
		fi
		rm -f "$SCRATCH/wk.img"
	fi
	rm -f "$SCRATCH/wjr.img" "$img"
	awk -v w="$wname" -v c="$csnum" '/^#/ || $1 != "w" || $2 != w || $3 != c' "$DAT" > "$DAT.new" &&
		mv "$DAT.new" "$DAT"
	printf 'w %s %s %s %s %s %s %s  %s %s %s  %s %s %s  %s %s  %s %s\n' \
		"$wname" "$csnum" "$n" "$T" "$L" "$span" "$replayed" \
		"$wjr_wreq" "$wjr_wbytes" "$wjr_flush" \
		"$we2_wreq" "$we2_wbytes" "$we2_flush" \
		"$kwreq" "$kwbytes" "$wid" "$kid" >> "$DAT"
	sort_dat
	log "writes $wname: jrecover $wjr_wreq requests, $wjr_wbytes bytes, $wjr_flush flushes;" \
	    "e2fsck $we2_wreq, $we2_wbytes, $we2_flush; kernel (loop device) $kwreq, $kwbytes;" \
	    "identical: e2fsck $wid, kernel $kid"
}

# ---- report --------------------------------------------------------------------

write_md() {
	# the memory reference is this script's (BENCH_RSS_REF_MIB), also for
	# BENCH_REPORT_ONLY on an older results.dat
	awk -v rssref="$RSS_REF" '
	function p2(n,  k, m) { if (n == 0) return "0"; k = 0; m = n; while (m > 1 && m % 2 == 0) { m /= 2; k++ } return (m == 1) ? "2^" k : n }
	function mib(k) { return (k == "-" || k == "") ? "-" : sprintf("%.1f", k / 1024) }
	function mb(x) { return (x == "-" || x == "") ? "-" : sprintf("%.1f", x / 1048576) }
	function cs(c) { return c == 3 ? "v3" : "none" }
	function v(x) { return (x == "") ? "-" : x }
	function rat(a, b) { return (a == "-" || a == "" || b == "-" || b == "" || b <= 0) ? "-" : sprintf("%.1f", a / b) }
	function rat2(a, b) { return (a == "-" || a == "" || b == "-" || b == "" || b <= 0) ? "-" : sprintf("%.2f", a / b) }
	function kst(st, w, id) { return (st == 0 || st == 1) ? w : (st == 2) ? "skipped" : (st == 3) ? "failed" : "-" }
	# header lines: "# jrecover benchmark (bench/run.sh), DATE; HOST" and,
	# for each BENCH_APPEND run, "# rows added DATE; HOST"
	/^# (jrecover benchmark|rows added)/ {
		l = $0
		added = sub(/^# rows added /, "", l)
		sub(/^# jrecover benchmark \(bench\/run.sh\), /, "", l)
		d = l; sub(/; .*/, "", d)
		h = l; sub(/^[^;]*; /, "", h)
		date = (date == "") ? "run " d : date (added ? ", rows replaced " : ", ") d
		host = h
		next
	}
	/^# settings: / { e2to = $3; repeat = $4; quick = $5; nice = $6; kto = $7; ludiv = $8; next }
	/^# shape: / { shape = substr($0, 10); next }
	/^# machine: / { machine = substr($0, 12); next }
	# each run writes "# load: at the start ..." and, when it ends, the
	# same with "; at the end ..."; a BENCH_APPEND run adds its own
	/^# load: / {
		if (index($0, "; at the end ") && nl && !ended[nl]) nl--
		L[++nl] = substr($0, 9); ended[nl] = index($0, "; at the end ") > 0
		next
	}
	/^# note: / { note[++nn] = substr($0, 9); if (index($0, "# note: before/after skipped")) baskip = 1; next }
	# before/after: "# before: REV HASH NEW ROUNDS TOL", "# before: old = ..."
	/^# before: old = / { baold = substr($0, 17); next }
	/^# before: / { barev = $3; bahash = $4; banew = $5; barounds = $6; batol = $7; next }
	/^#/ { next }
	$1 == "ba" && NF >= 22 {
		b_++
		for (j = 8; j <= 17; j++) B[b_, j] = $j
		Bn[b_] = $3; Bc[b_] = $4; Bs[b_] = $2; Bid[b_] = $20
		Bname[b_] = (($2 == "lu") ? (($22 > 1) ? "LU-14958 / " $22 : "LU-14958") : p2($3)) " " cs($4)
		bline[b_] = sprintf("| %s | %s | %s | %d | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
			($2 == "lu") ? (($22 > 1) ? "LU-14958 / " $22 : "LU-14958") : "bench", p2($3), cs($4), $5, $6 * 4 / 1024,
			$8, $9, rat2($9, $8), $10, $11, rat2($11, $10),
			$12, $13, rat2($13, $12), $14, $15, rat2($15, $14),
			mib($16), mib($17), rat2($17, $16), $18, $19, rat2($19, $18),
			($20 == 1) ? "yes" : "**NO**", $21)
		next
	}
	$1 == "w" && NF >= 18 {
		w++
		Wn[w] = $2; Wc[w] = $3; Wjr[w] = $9; We2[w] = $12
		wline[w] = sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
			$2, cs($3), p2($4), $5, $6, $7, $5 * $6, $8,
			$9, mb($10), $11, $12, mb($13), $14,
			($15 == "-") ? "-" : $15 " (" mb($16) " MiB)",
			rat($12, $9), ($17 == 1 ? "yes" : ($17 == 0 ? "**NO**" : "-")) " / " ($18 == 1 ? "yes" : ($18 == 0 ? "**NO**" : "-")))
		next
	}
	NF >= 28 {
		r++
		sh = (NF >= 29) ? $29 : "bench"
		N[r] = $1; C[r] = $2; jr[r] = $6; full[r] = $11; e2[r] = $16; st[r] = $21
		bpr[r] = $10; fbpr[r] = $15; id[r] = $25; S[r] = sh
		dd[r] = $23; dry[r] = $22; rss[r] = $8
		cdd[r] = v($30); cdry[r] = v($31); cjr[r] = v($32)
		kw[r] = v($33); kst_[r] = (NF >= 34) ? $34 : 4; kid[r] = v($35); div[r] = v($36)
		crep = (cdd[r] == "-") ? "-" : (NF >= 37) ? $37 : 1
		e2w = ($21 == 0) ? $16 : ($21 == 1) ? "> " e2to : ($21 == 3) ? "failed" : "skipped"
		ra = ($21 == 0) ? $28 : ($21 == 1) ? sprintf("> %.0f", e2to / $6) : "-"
		idt = ($25 == 1) ? "yes (e2fsck, full)" : ($25 == 2) ? "yes (full only)" : "**NO**"
		if (sh == "bench")
			line[r] = sprintf("| %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
				p2($1), cs($2), $3, $4, $5, $6, $7, mib($8), $10,
				$11, mib($13), $15, e2w, ($21 == 0) ? $17 : "-",
				($21 == 0) ? mib($18) : "-", $20, ra,
				$22, $23, $24, idt, $27)
		kk = kst(kst_[r], kw[r])
		if (kst_[r] == 1) kk = kk " (past " kto " s)"
		line2[r] = sprintf("| %s | %s | %s | %d | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
			(sh == "lu") ? ((div[r] > 1) ? "LU-14958 / " div[r] : "LU-14958") : "bench", p2($1), cs($2), $3, $4 * 4 / 1024,
			$23, $6, rat($6, $23), $22, rat($22, $23),
			cdd[r], cjr[r], rat(cjr[r], cdd[r]), cdry[r], rat(cdry[r], cdd[r]), crep,
			kk, rat(kw[r], $6), (kid[r] == 1) ? "yes" : (kid[r] == 0) ? "**NO**" : "-",
			e2w, ra, mib($8), $27)
	}
	# verdict TARGET MEASURED OK: one line of the targets
	function verdict(what, meas, ok) {
		printf "- %s: %s: **%s**\n", what, meas, ok
	}
	END {
		print "# jrecover benchmark results"
		print ""
		print "Made by `make bench` (bench/run.sh" (quick ? ", BENCH_QUICK=1" : "") "), " date "; " host "."
		if (machine != "") print "Machine: " machine "."
		for (i = 1; i <= nl; i++) print "Load" (i > 1 ? " (the run that replaced rows)" : "") ": " L[i] "."
		print "Shape: " shape "."
		print "Times are wall seconds with the image in the page cache unless marked cold; jrecover and jrecover -n / dd are the best of " repeat " runs, jrecover each on a fresh copy, and the cold ones the best of the runs the cold runs column gives; the full table, e2fsck and the kernel run once.  e2fsck is bounded by " e2to " s." (nice != "" && nice != 0 ? "  Every timed command ran under nice -n " nice " (the machine is shared)." : "") "  load = the 1-minute load average when the row started: other jobs on the machine inflate wall times, CPU times less so."
		for (i = 1; i <= nn; i++) print "Note: " note[i]
		if (!r && b_) {
			print ""
			print "No rows of the benchmark itself: this run measured only the comparison below (BENCH_ONLY=before-after)."
		}
		if (r) {
		print ""
		print "## jrecover, the full revoke table and e2fsck"
		print ""
		print "| N | csum | T | log blocks | journal blocks | jrecover s | CPU s | peak RSS MiB | B/rec | full s | full RSS MiB | full B/rec | e2fsck s | e2fsck CPU s | e2fsck RSS MiB | e2fsck B/rec | e2fsck/jrecover | -n s | dd s | -n/dd | identical | load |"
		print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= r; i++) if (S[i] == "bench") print line[i]
		print ""
		print "## Against dd of the same log blocks, cold cache, and the kernel"
		print ""
		print "dd reads the journal superblock and the log with bs=2M; jrecover is end to end (its fsync included), -n the dry run; cold: the page cache dropped before each run; kernel: mount -t ext4 of a loop device on a copy (the kernel replays the journal), umount, fsync of the image; kernel identical: its result against jrecover'"'"'s (sparsecmp -k, see bench/README)."
		print ""
		print "| shape | N | csum | T | log MiB | dd s | jrecover s | jrecover/dd | -n s | -n/dd | cold dd s | cold jrecover s | cold jrecover/dd | cold -n s | cold -n/dd | cold runs | kernel s | kernel/jrecover | kernel identical | e2fsck s | e2fsck/jrecover | peak RSS MiB | load |"
		print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= r; i++) if (S[i] == "bench") print line2[i]
		for (i = 1; i <= r; i++) if (S[i] != "bench") print line2[i]
		}
		if (w) {
			print ""
			print "## Write requests"
			print ""
			print "Counted on the image file: write system calls and bytes of jrecover and e2fsck (strace -f), flushes = fsync/fdatasync/sync_file_range; the kernel: write requests and bytes the loop device completed (after the block layer merged them).  Not timed.  identical: e2fsck / kernel result against jrecover'"'"'s."
			print ""
			print "| image | csum | N | T | L | distinct blocks | logged copies | replayed | jrecover writes | jrecover MiB | jrecover flushes | e2fsck writes | e2fsck MiB | e2fsck flushes | kernel writes | e2fsck/jrecover writes | identical |"
			print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
			for (i = 1; i <= w; i++) print wline[i]
		}
		if (b_) {
			print ""
			print "## Before and after"
			print ""
			print "old: bench/jrecover of " barev " (" baold "), built from that revision (git archive, its own autogen.sh, configure and make, with the same compiler and CFLAGS); new: this tree'"'"'s (HEAD " banew ").  Both on the same image in the same run: in each of " barounds " rounds each ran every measure once, one right after the other, the two taking turns at going first; each time is the best of the " barounds " rounds (wall s), the peak RSS the largest of all runs, CPU the best user + system time of the replays.  jrecover on a fresh copy each time; cold: the page cache dropped before each run.  new/old is the ratio (above 1: slower now).  identical: the two replays'"'"' results compared with sparsecmp."
			print ""
			print "| shape | N | csum | T | log MiB | -n old s | -n new s | new/old | jrecover old s | jrecover new s | new/old | cold -n old s | cold -n new s | new/old | cold jrecover old s | cold jrecover new s | new/old | peak RSS old MiB | peak RSS new MiB | new/old | CPU old s | CPU new s | new/old | identical | load |"
			print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
			for (i = 1; i <= b_; i++) print bline[i]
		}
		print ""
		print "## Targets (issue 11" (b_ ? "; issue 12: no slowdown" : "") ")"
		print ""
		for (c = 3; c >= 0; c -= 3) {
			b = 0; lu = 0; any = 0
			for (i = 1; i <= r; i++) if (C[i] == c) {
				any = 1
				if (S[i] == "bench" && (b == 0 || N[i] > N[b])) b = i
				if (S[i] == "lu") lu = i
			}
			if (!any) continue
			if (b) {
				at = "csum " cs(c) ", " p2(N[b]) (N[b] < 33554432 ? " (2^25 not in this run)" : "")
				x = rat2(jr[b], dd[b])
				verdict(at ", warm: end to end within 4x of dd", x "x (" jr[b] " s / " dd[b] " s)", (x != "-" && x + 0 <= 4) ? "PASS" : "MISS")
				x = rat2(dry[b], dd[b])
				verdict(at ", warm: dry run within 3x of dd", x "x (" dry[b] " s / " dd[b] " s)", (x != "-" && x + 0 <= 3) ? "PASS" : "MISS")
				if (cdd[b] != "-") {
					x = rat2(cdry[b], cdd[b])
					verdict(at ", cold: dry run within 1.3x of cold dd", x "x (" cdry[b] " s / " cdd[b] " s)", (x != "-" && x + 0 <= 1.3) ? "PASS" : "MISS")
					x = rat2(cjr[b], cdd[b])
					verdict(at ", cold: end to end within 2x of cold dd", x "x (" cjr[b] " s / " cdd[b] " s)", (x != "-" && x + 0 <= 2) ? "PASS" : "MISS")
				} else
					verdict(at ", cold cache targets", "not measured (see the notes)", "SKIPPED")
				x = rat2(rss[b] / 1024, rssref)
				verdict(at ": peak RSS within 2x of " rssref " MiB", mib(rss[b]) " MiB = " x "x", (x != "-" && x + 0 <= 2) ? "PASS" : "MISS")
			}
			if (lu) {
				at = "csum " cs(c) ", LU-14958 shape" (div[lu] > 1 ? " scaled down " div[lu] "x (BENCH_LU_DIV)" : "")
				x = rat2(jr[lu], dd[lu])
				verdict(at ": end to end within 4x of dd", x "x (" jr[lu] " s / " dd[lu] " s)", (x != "-" && x + 0 <= 4) ? "PASS" : "MISS")
			}
			kr = 0; kd = 0; ks = 0
			for (i = 1; i <= r; i++) if (C[i] == c) {
				if (kst_[i] == 0 || kst_[i] == 1) { kr++; if (kid[i] != 1) kd++ }
				if (kst_[i] == 3) kd++
				if (kst_[i] == 2) ks++
			}
			if (kr + kd)
				verdict("csum " cs(c) ": the kernel as a third column, through the identity check", kr " row(s) replayed by the kernel, " kd " differing or failed" (ks ? ", " ks " skipped past its bound" : ""), kd ? "MISS" : "PASS")
			else
				verdict("csum " cs(c) ": the kernel as a third column", "not measured (see the notes)", "SKIPPED")
		}
		for (i = 1; i <= w; i++) if (Wn[i] == "relog") {
			x = rat(We2[i], Wjr[i])
			verdict("relogging journal (csum " cs(Wc[i]) "): jrecover issues at least 10x fewer write requests than e2fsck", "e2fsck/jrecover = " x " (" We2[i] " / " Wjr[i] ")", (x != "-" && x + 0 >= 10) ? "PASS" : "MISS")
		}
		if (b_) {
			# the five measures: [old column, new column, name]; the
			# four times judge "no slowdown", the peak RSS on its own
			split("8 10 12 14 16", mo, " "); split("-n;jrecover;cold -n;cold jrecover;peak RSS", mn, ";")
			for (k = 1; k <= 2; k++) {
				miss = ""; worst = ""; wat = ""; nocold = 0
				for (i = 1; i <= b_; i++) for (j = (k == 1 ? 1 : 5); j <= (k == 1 ? 4 : 5); j++) {
					x = rat2(B[i, mo[j] + 1], B[i, mo[j]])
					if (x == "-") { if (j == 3 || j == 4) nocold = 1; continue }
					if (worst == "" || x + 0 > worst + 0) { worst = x; wat = Bname[i] " " mn[j] }
					if (x + 0 > batol + 0)
						miss = miss (miss == "" ? "" : ", ") Bname[i] " " mn[j] " " x "x (" \
							((j == 5) ? mib(B[i, mo[j] + 1]) " / " mib(B[i, mo[j]]) " MiB" : B[i, mo[j] + 1] " s / " B[i, mo[j]] " s") ")"
				}
				x = "worst " worst "x (" wat ")" (nocold ? "; no cold runs (not root, or BENCH_COLD=0)" : "")
				verdict((k == 1 ? "no slowdown against " barev " (" substr(bahash, 1, 12) "): every new/old time" : \
					"memory against " barev " (" substr(bahash, 1, 12) "): every new/old peak RSS") \
					(k == 1 ? " (best of " barounds " rounds)" : " (the largest of all runs)") \
					" within " batol ", the tolerance for the noise of a shared machine (bench/README)",
					(miss == "") ? x : "over it: " miss, (worst == "") ? "SKIPPED" : (miss == "") ? "PASS" : "MISS")
			}
		} else if (baskip)
			verdict("no slowdown against an earlier revision (BENCH_BEFORE)", "not measured (see the notes)", "SKIPPED")
		nid = 0; for (i = 1; i <= r; i++) if (id[i] == 0 || kid[i] == 0) nid++
		for (i = 1; i <= b_; i++) if (Bid[i] == 0) nid++
		print "- identical results: " (nid ? nid " row(s) DIFFER" : "every row (see the identical columns)")
		print ""
		print "Columns: see bench/README.  Raw numbers: results.dat; log: results.log; plot: results.png."
	}' "$DAT" > "$MD"
	e2fsprogs_md >> "$MD"
}

# e2fsprogs_md: the rows of e2fsck built with contrib/e2fsprogs, stock
# against patched, as bench/e2fsprogs.sh last wrote them (it builds
# e2fsprogs twice, so it is a run of its own): its title becomes a section.
e2fsprogs_md() {
	_f=$top_srcdir/bench/results-e2fsprogs.md
	[ -f "$_f" ] || return 0
	printf '\n'
	sed '1s/^# /## /' "$_f"
	printf '\n(From bench/results-e2fsprogs.md: `bash bench/e2fsprogs.sh BUILDDIR WORKDIR bench/results-e2fsprogs.md`, then `make bench` or BENCH_REPORT_ONLY=1.)\n'
}

plot() {
	command -v gnuplot >/dev/null 2>&1 || return 0
	(cd "$OUT" && gnuplot -e "datafile='results.dat'; outfile='results.png'; e2bound=$E2_TIMEOUT" \
		"$top_srcdir/bench/plot.gp") >> "$LOG" 2>&1 ||
		log "gnuplot failed (see $LOG)"
}

# ---- main ----------------------------------------------------------------------------

. "$top_srcdir/bench/before-after.sh"

HOST="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(e2fsck -V 2>&1 | head -n 1)"
HOST="$HOST, $("$JRECOVER" -V)"
DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
if [ -n "$BENCH_T" ]; then
	SHAPE="T = $BENCH_T transactions for every N"
else
	SHAPE="T = N / 8192 transactions (8192 records each)"
fi
SHAPE="$SHAPE, L = $BENCH_L logged blocks per transaction, $BENCH_HIT% of the records revoke earlier-logged blocks"

if [ "$REPORT_ONLY" = 1 ]; then
	[ -f "$DAT" ] || die "no $DAT to report"
	write_md
	plot
	exit 0
fi

# load_now: the load averages, how busy the CPUs are (top, over one
# second) and what is busy there.
load_now() {
	printf 'load average %s (1, 5, 15 min), ' "$(cut -d' ' -f1-3 /proc/loadavg | sed 's/ /, /g')"
	if command -v top > /dev/null 2>&1; then
		top -b -n 2 -d 1 -w 200 2> /dev/null | awk '
		/^top -/ { it++ }
		it == 2 && /^%Cpu/ { sub(/^%Cpu\(s\): */, ""); cpu = $0 }
		it == 2 && $1 ~ /^[0-9]+$/ && $9 + 0 >= 10 { s = s (n++ ? ", " : "") $12 " " $9 "%" }
		END { printf "CPUs over 1 s: %s; %s", cpu, n ? "processes at >= 10% CPU: " s : "no process at 10% CPU or more" }'
	else
		printf 'running/total tasks %s' "$(cut -d' ' -f4 /proc/loadavg)"
	fi
}

MACHINE="$(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) RAM, scratch on $(df -P "$SCRATCH" | awk 'NR == 2 { print $1 }') ($(stat -f -c %T "$SCRATCH"))"
LOAD0=$(load_now)

# What this machine can do: drop the page cache, mount loop devices,
# strace.  Each missing one leaves its columns out with a note.
NOTES=
note() {
	log "note: $*"
	NOTES="$NOTES# note: $*
"
}
COLD=0
if [ "$RUN_COLD" = 1 ]; then
	if [ "$(id -u)" = 0 ] && [ -w /proc/sys/vm/drop_caches ] && drop_cache 2> /dev/null; then
		COLD=1
	else
		note "cold-cache runs skipped: cannot write /proc/sys/vm/drop_caches (root only)"
	fi
fi
KERNEL=0
if [ "$RUN_KERNEL" = 1 ]; then
	if [ "$(id -u)" != 0 ]; then
		note "kernel column skipped: not root (loop mounts need root)"
	elif ! command -v losetup > /dev/null 2>&1 || ! command -v blockdev > /dev/null 2>&1; then
		note "kernel column skipped: losetup or blockdev not found"
	else
		# a small image through the same path first
		mke2fs -q -F -t ext4 "$SCRATCH/try.img" 16M >> "$LOG" 2>&1
		kernel_replay "$SCRATCH/try.img"
		rm -f "$SCRATCH/try.img"
		if [ "$k_rc" = 0 ]; then
			KERNEL=1
		else
			note "kernel column skipped: a loop mount of a fresh ext4 image failed here"
		fi
	fi
fi
if [ "$RUN_WRITES" = 1 ] && ! command -v strace > /dev/null 2>&1; then
	note "write-request rows skipped: strace not found"
	RUN_WRITES=0
fi
BA=0
if [ -n "$BEFORE" ]; then
	[ "$APPEND" = 1 ] && ba_clean_dat
	ba_build "$BEFORE" && BA=1
fi

if [ "$APPEND" = 1 ] && [ -f "$DAT" ]; then
	say "# rows added $DATE; $HOST" >> "$DAT"
else
	cat > "$DAT" <<EOF
# jrecover benchmark (bench/run.sh), $DATE; $HOST
# times in s, RSS in KiB, B/rec = (RSS - baseline RSS) * 1024 / N
# 1 N  2 csum(3=v3,0=none)  3 T  4 log_blocks  5 journal_blocks
# 6 jr_wall  7 jr_cpu  8 jr_rss  9 jr_base_rss  10 jr_bpr
# 11 full_wall  12 full_cpu  13 full_rss  14 full_base_rss  15 full_bpr
# 16 e2_wall  17 e2_cpu  18 e2_rss  19 e2_base_rss  20 e2_bpr
# 21 e2_state(0 done,1 past the bound,2 skipped,3 failed)
# 22 dry_wall  23 dd_wall  24 dry/dd
# 25 identical(1 e2fsck+full, 2 full only, 0 differ)  26 replayed  27 load  28 e2/jr
# 29 shape(bench, lu)  30 cold_dd  31 cold_dry  32 cold_jr  33 kernel_wall
# 34 kernel_state(0 done,1 past the bound,2 skipped,3 failed,4 not run)
# 35 kernel_identical(1, 0, -)  36 LU scale-down divisor
# 37 cold runs per figure (best taken; rows without it: 1)
# write-request rows: w NAME csum N T L distinct_blocks replayed
#   jr_requests jr_bytes jr_flushes e2_requests e2_bytes e2_flushes
#   kernel_requests kernel_bytes e2_identical kernel_identical
# settings legend: e2fsck bound (s), jrecover repeats, quick mode, nice,
#   kernel bound (s), LU divisor, RSS reference (MiB)
# settings: $E2_TIMEOUT $REPEAT $QUICK $NICE $K_TIMEOUT $LU_DIV $RSS_REF
# shape: $SHAPE
EOF
fi
{ say "# machine: $MACHINE"; printf '%s' "$NOTES"; say "# load: at the start $LOAD0"; } >> "$DAT"
[ "$BA" = 1 ] && ba_header >> "$DAT"
if [ -n "$ONLY" ]; then
	log "jrecover benchmark: $ONLY only, scratch $SCRATCH"
else
	log "jrecover benchmark: N = 2^$MIN .. 2^$MAX, csum: $CSUMS, scratch $SCRATCH"
fi
log "$HOST"
log "$MACHINE"
log "at the start: $LOAD0"

k=$MIN
[ -n "$ONLY" ] && k=$((MAX + 1)) RUN_LU=0
while [ "$k" -le "$MAX" ]; do
	for cs in $CSUMS; do
		bench_one $((1 << k)) "$cs"
	done
	k=$((k + 1))
done
if [ "$RUN_LU" = 1 ]; then
	for cs in $LU_CSUMS; do
		bench_one "$LU_N" "$cs" lu
	done
fi
if [ "$RUN_WRITES" = 1 ]; then
	# The bench shape (T = 8, 65,536 records), and a journal that
	# relogs the same BENCH_L blocks in every one of RELOG_T transactions.
	for cs in $CSUMS; do
		writes_one bench "$cs" 65536 8 $((8 * BENCH_L))
		writes_one relog "$cs" 0 "$RELOG_T" "$BENCH_L"
	done
fi
[ "$BA" = 1 ] && ba_rows
say "# load: at the start $LOAD0; at the end $(load_now)" >> "$DAT"
write_md
[ -n "$ONLY" ] || plot

if [ "$RUN_RTABLE" = 1 ] && [ -x "$RTABLE_BENCH" ]; then
	log "rtable micro-benchmark -> $OUT/rtable.md"
	if [ "$QUICK" = 1 ]; then
		nice -n "$NICE" "$RTABLE_BENCH" -q > "$OUT/rtable.md" 2>> "$LOG"
	else
		nice -n "$NICE" "$RTABLE_BENCH" > "$OUT/rtable.md" 2>> "$LOG"
	fi || { log "FAIL: rtable_bench"; NFAIL=$((NFAIL + 1)); }
fi

log ""
sed -n '/^## Targets/,/^- identical/p' "$MD" | tee -a "$LOG"
log "results: $MD"
[ "$NFAIL" = 0 ] || { log "$NFAIL failure(s)"; exit 1; }
exit 0
