#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# e2fsprogs-versions.sh --- the same revoke-heavy journal in images whose
# journals differ only in length, replayed by e2fsck 1.47.0, stock e2fsck
# 1.47.4, e2fsck 1.47.4 with contrib/e2fsprogs' series, and jrecover.
#
# Why the length matters: e2fsck 1.47.0 (and 1.46.2, 1.47.2) makes its
# revoke hash with 1024 buckets.  1.47.4 sizes it from the journal
# superblock's s_maxlen / 16, rounded up to a power of two, at most 2^20,
# but reads that big-endian field without converting it: on a
# little-endian host the number of buckets follows the byte-swapped length
# (doc/e2fsprogs.md, "The revoke hash of each version").  This script
# prints, for each image, the buckets 1.47.4 computes from the image's own
# journal superblock, read with this host's byte order and with a
# big-endian host's, and times the four replays.
#
#   bash bench/e2fsprogs-versions.sh [--e2fsck-1.47.0 PATH] BUILDDIR WORKDIR [OUTFILE]
#
# BUILDDIR   this checkout's build, with bench/mkbench, bench/sparsecmp and
#            bench/jrecover built (make check, or make bench/mkbench
#            bench/sparsecmp bench/jrecover)
# WORKDIR    what `bash contrib/e2fsprogs/compare-tests.sh --version 1.47.4
#            WORKDIR` left (the full comparison, not --patched-only):
#            WORKDIR/stock/e2fsck/e2fsck is stock 1.47.4 and
#            WORKDIR/patched/e2fsck/e2fsck 1.47.4 with the series, linked
#            with the librecover compare-tests.sh installed in
#            WORKDIR/prefix (compare-tests.sh fetches the source with
#            contrib/e2fsprogs/fetch-source.sh WORKDIR/src 1.47.4, through a
#            private apt state: no root needed for that version)
# --e2fsck-1.47.0 PATH
#            e2fsck 1.47.0: a binary, or the WORKDIR of
#            `compare-tests.sh WORKDIR` (1.47.0 is its default version;
#            PATH/stock/e2fsck/e2fsck).  Default /sbin/e2fsck, which must
#            then be 1.47.0 (Debian 12's)
# OUTFILE    also write the report there (bench/results-e2fsprogs-versions.md)
#
# Each binary's version is checked (e2fsck -V), and that the patched
# e2fsck links librecover and the stock ones do not.
#
# First, no replay: the journal mke2fs (the host's) makes by default for a
# filesystem of each size in BENCH_FS_SIZES ("256M 1G 2G 16G 32G 64G
# 128G", the sizes where its choice changes; sparse files, a few seconds
# in all), and the buckets of each version for it.
#
# Then, for each journal size S (MiB) in BENCH_JOURNALS (default "min 64 256 1024
# 4096 1000": min is the smallest journal that holds the log, mkbench -p's
# JOURNAL_MIB), one image, all of the same size (big enough for the
# largest journal: mke2fs wants a journal under half the filesystem):
#   MKE2FS_CONFIG=bench/mke2fs.conf mke2fs -t ext4 -b 4096 -O 64bit,metadata_csum
#       -J size=S -E lazy_itable_init=1,lazy_journal_init=1 (fixed UUID and
#       hash seed)
#   bench/mkbench -c IMAGE N          (csum v3, T = N / 8192, L = 50, 1% hits)
# then, each on a fresh copy (cp --sparse=always, then sync):
#   e2fsck -y -E journal_only with each of the three e2fscks, under
#   `timeout BENCH_E2FSCK_TIMEOUT` (600 s; a bound passed reads "> 600")
#   jrecover (bench/jrecover: static, no libtool wrapper)
# each under /usr/bin/time (wall seconds taken here in ns, CPU seconds,
# peak RSS).  The patched e2fsck and jrecover take tens of milliseconds:
# each is run BENCH_REPEAT (3) times, the best wall time taken (the peak
# RSS is the largest); the stock ones run once.  Every e2fsck's result is
# compared with jrecover's, byte for byte (bench/sparsecmp: all but
# s_wtime, s_kbytes_written and the superblock checksum); a difference
# fails the run (exit 1).
#
# N is BENCH_N (default 2^18 = 262144 revoke records, T = 32).  Stock
# 1.47.4 with 16 buckets (a 256 MiB journal) walks chains of N / 16
# records, about 2^31 steps at 2^18: half a minute of CPU, far above the
# noise of the fast rows, and under the bound, so that its result is
# compared too.  On the project's shared 2-core machine the whole run
# took 2 min 21 s at load average 9.  At 2^19 (load 7 to 13) it took 18
# minutes: that row passed a 600 s bound, the 1 GiB row took 253 s, and
# 1.47.0 15 to 28 s a row, 5 to 25 times its 2^18 figures where the
# square law says 4 (likely, not measured: the records, twice 1.47.0's
# 15 MiB peak RSS at 2^18, no longer fit in the machine's shared 32 MiB
# L3 cache).
#
# Run it under nice on a shared machine (nice -n 5 bash bench/...): every
# tool then runs at the same priority.  Images go to BENCH_SCRATCH (default
# a new directory under TMPDIR or /tmp, removed at the end; each image is
# sparse, 9.5 GiB apparent and about 20 MiB of data at 2^18); the commands'
# output goes to SCRATCH/log, kept with BENCH_KEEP=1.

set -euo pipefail

usage="usage: $0 [--e2fsck-1.47.0 PATH] BUILDDIR WORKDIR [OUTFILE]"
old=/sbin/e2fsck
while [ $# -gt 0 ]; do
	case $1 in
	--e2fsck-1.47.0) old=${2:?--e2fsck-1.47.0 needs a path}; shift 2 ;;
	--e2fsck-1.47.0=*) old=${1#--e2fsck-1.47.0=}; shift ;;
	-h|--help) echo "$usage"; exit 0 ;;
	--) shift; break ;;
	-*) echo "$usage" >&2; exit 16 ;;
	*) break ;;
	esac
done
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "$usage" >&2
	exit 16
fi

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
work=$(cd "$2" && pwd)
out=${3:-}
[ -d "$old" ] && old=$old/stock/e2fsck/e2fsck
E147=$work/stock/e2fsck/e2fsck
PAT=$work/patched/e2fsck/e2fsck
MKBENCH=$build/bench/mkbench
SPARSECMP=$build/bench/sparsecmp
JRECOVER=$build/bench/jrecover
TIME=/usr/bin/time

die() {
	echo "e2fsprogs-versions.sh: $*" >&2
	exit 2
}

for p in "$old" "$E147" "$PAT" "$MKBENCH" "$SPARSECMP" "$JRECOVER" "$TIME"; do
	[ -x "$p" ] || die "$p: not found or not executable"
done
# version PROG: "1.47.0" from e2fsck -V's first line
version() {
	"$1" -V 2>&1 | sed -n '1s/^e2fsck \([0-9.]*\).*/\1/p'
}
[ "$(version "$old")" = 1.47.0 ] || die "$old is not e2fsck 1.47.0 ($(version "$old")): give --e2fsck-1.47.0"
[ "$(version "$E147")" = 1.47.4 ] || die "$E147 is not e2fsck 1.47.4"
[ "$(version "$PAT")" = 1.47.4 ] || die "$PAT is not e2fsck 1.47.4"
links_librecover() {
	ldd "$1" 2> /dev/null | grep 'librecover\.so' > /dev/null
}
links_librecover "$PAT" || die "$PAT does not link librecover (not --with-librecover?)"
! links_librecover "$E147" || die "$E147 links librecover: not a stock build"
! links_librecover "$old" || die "$old links librecover: not a stock build"

N=${BENCH_N:-262144}
TO=${BENCH_E2FSCK_TIMEOUT:-600}
REPEAT=${BENCH_REPEAT:-3}
JOURNALS=${BENCH_JOURNALS:-"min 64 256 1024 4096 1000"}
if [ -n "${BENCH_SCRATCH:-}" ]; then
	SCRATCH=$BENCH_SCRATCH
	mkdir -p "$SCRATCH"
else
	SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/e2fsprogs-versions.XXXXXX")
fi
SCRATCH=$(cd "$SCRATCH" && pwd)
LOG=$SCRATCH/log
: > "$LOG"
cleanup() {
	rm -f "$SCRATCH"/*.img "$SCRATCH/time.out"
	if [ "${BENCH_KEEP:-0}" != 1 ] && [ -z "${BENCH_SCRATCH:-}" ]; then
		rm -rf "$SCRATCH"
	fi
}
trap cleanup EXIT
E2FSCK_CONFIG=/dev/null
MKE2FS_CONFIG=$top/bench/mke2fs.conf
export E2FSCK_CONFIG MKE2FS_CONFIG

log() {
	echo "$*" | tee -a "$LOG" >&2
}

# The plan: T, L, log blocks, the smallest journal and the image for N.
eval "$("$MKBENCH" -p -c "$N")"
min_mib=$JOURNAL_MIB
max_mib=0
for s in $JOURNALS; do
	[ "$s" = min ] && s=$min_mib
	case $s in
	''|*[!0-9]*) die "BENCH_JOURNALS: $s is not a size in MiB (or min)" ;;
	esac
	[ "$s" -ge "$min_mib" ] || die "a journal of $s MiB cannot hold the log ($min_mib MiB at least)"
	[ "$s" -le 40000 ] || die "a journal of $s MiB is past jbd2's 10,240,000 blocks"
	if [ "$s" -gt "$max_mib" ]; then
		max_mib=$s
	fi
done
# One image size for every row: mkbench's own need (which counts the
# smallest journal) plus twice the largest journal, plus slack.
img_mib=$((IMAGE_MIB + 2 * max_mib + 256))

# This host's byte order, as od reads a 32-bit word.
if [ "$(printf '\001\000\000\000' | od -An -tu4 | tr -d ' ')" = 1 ]; then
	host_order=little-endian
else
	host_order=big-endian
fi

# buckets V: the revoke hash 1.47.4 makes when it reads V from s_maxlen
# (e2fsck/journal.c, debugfs/journal.c: the power of two at or above
# V / 16, computed as 1 << (floor(log2(V / 16 - 1)) + 1) in 32-bit
# unsigned arithmetic, and at most 2^20, the power of two above jbd2's
# largest journal of 10,240,000 blocks / 16).
buckets() {
	local q=$(($1 / 16)) m l=0
	m=$(((q - 1) & 0xffffffff))
	while [ $((m >>= 1)) -gt 0 ]; do
		l=$((l + 1))
	done
	local b=$((1 << (l + 1)))
	if [ "$b" -gt 640000 ]; then
		b=1048576
	fi
	echo "$b"
}

# read_maxlen IMAGE: s_maxlen, 4 bytes at offset 16 of the journal
# superblock (journal block 0), into be (as stored: big-endian), le (as a
# little-endian load reads it), native (as this host reads it) and hex (the
# bytes).
be='' le='' native='' hex=''
read_maxlen() {
	local jsb at
	jsb=$(debugfs -R "bmap <8> 0" "$1" 2> /dev/null)
	case $jsb in ''|*[!0-9]*) die "$1: cannot find the journal superblock" ;; esac
	at=$((jsb * 4096 + 16))
	be=$(od -An -tu4 --endian=big -j "$at" -N 4 "$1" | tr -d ' ')
	le=$(od -An -tu4 --endian=little -j "$at" -N 4 "$1" | tr -d ' ')
	native=$(od -An -tu4 -j "$at" -N 4 "$1" | tr -d ' ')
	hex=$(od -An -tx1 -j "$at" -N 4 "$1" | sed 's/^ *//')
}

x_wall='' x_cpu='' x_rss='' x_rc=''
# timed NAME CMD...: CMD under /usr/bin/time; NAME_wall (s), NAME_cpu
# (user + sys s), NAME_rss (KiB), NAME_rc.
timed() {
	local n=$1 t0 t1 rc
	shift
	t0=$(date +%s%N)
	set +e
	"$TIME" -f '%e %U %S %M' -o "$SCRATCH/time.out" "$@" >> "$LOG" 2>&1
	rc=$?
	set -e
	t1=$(date +%s%N)
	# shellcheck disable=SC2046
	set -- $(tail -n 1 "$SCRATCH/time.out")
	printf -v "${n}_wall" '%s' "$(awk "BEGIN { printf \"%.3f\", ($t1 - $t0) / 1e9 }")"
	printf -v "${n}_cpu" '%s' "$(awk "BEGIN { printf \"%.2f\", $2 + $3 }")"
	printf -v "${n}_rss" '%s' "$4"
	printf -v "${n}_rc" '%s' "$rc"
}

fresh() {
	rm -f "$SCRATCH/$1"
	cp --sparse=always "$SCRATCH/base.img" "$SCRATCH/$1"
	sync "$SCRATCH/$1"
}

mib() {
	awk "BEGIN { printf \"%.1f\", $1 / 1024 }"
}

# ratio A B: A / B to two significant places, "-" when A is not a number
ratio() {
	case $1 in
	''|-|'>'*) echo - ;;
	*) awk "BEGIN { r = $1 / $2; printf (r >= 100 ? \"%.0f\" : (r >= 10 ? \"%.1f\" : \"%.2f\")), r }" ;;
	esac
}

# run_e2fsck TAG PROG: one replay of a fresh copy under the bound; sets
# TAG_s (wall, or "> TO"), TAG_cpu, TAG_rss, TAG_state (ok, timeout,
# failed).
run_e2fsck() {
	local tag=$1 prog=$2 w c r rc
	fresh "$tag.img"
	echo "--- $prog -y -E journal_only ($tag)" >> "$LOG"
	timed x timeout -k 10 "$TO" "$prog" -y -E journal_only "$SCRATCH/$tag.img"
	w=$x_wall c=$x_cpu r=$x_rss rc=$x_rc
	echo "--- exit $rc, $w s" >> "$LOG"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		printf -v "${tag}_s" '> %s' "$TO"
		printf -v "${tag}_cpu" '%s' -
		printf -v "${tag}_rss" '%s' -
		printf -v "${tag}_state" timeout
		rm -f "$SCRATCH/$tag.img"
		return
	fi
	printf -v "${tag}_s" '%s' "$w"
	printf -v "${tag}_cpu" '%s' "$c"
	printf -v "${tag}_rss" '%s' "$r"
	# 0: nothing to fix, 1: the journal replayed (the filesystem changed)
	if [ "$rc" -le 1 ]; then
		printf -v "${tag}_state" ok
	else
		printf -v "${tag}_state" 'failed (exit %s)' "$rc"
	fi
}

# best TAG CMD-PREFIX...: REPEAT runs on fresh copies (the image path is
# appended), the best wall time; TAG_s, TAG_cpu (of that run), TAG_rss
# (the largest), TAG_state; the last run's image stays as TAG.img.
best() {
	local tag=$1 i bw='' bc='' br=0 st=ok
	shift
	for i in $(seq "$REPEAT"); do
		fresh "$tag.img"
		echo "--- $* ($tag, run $i)" >> "$LOG"
		timed x "$@" "$SCRATCH/$tag.img"
		echo "--- exit $x_rc, $x_wall s" >> "$LOG"
		[ "$x_rc" -le 1 ] || st="failed (exit $x_rc)"
		if [ -z "$bw" ] || awk "BEGIN { exit !($x_wall < $bw) }"; then
			bw=$x_wall bc=$x_cpu
		fi
		if [ "$x_rss" -gt "$br" ]; then
			br=$x_rss
		fi
	done
	printf -v "${tag}_s" '%s' "$bw"
	printf -v "${tag}_cpu" '%s' "$bc"
	printf -v "${tag}_rss" '%s' "$br"
	printf -v "${tag}_state" '%s' "$st"
}

# same TAG: TAG's result against jrecover's: yes, "-" (TAG did not
# finish), or a failure between ** (the caller counts those)
same() {
	local st_var=${1}_state
	if [ "${!st_var}" = timeout ]; then
		echo "-"
	elif [ "${!st_var}" != ok ]; then
		echo "**${!st_var}**"
	elif "$SPARSECMP" "$SCRATCH/jr.img" "$SCRATCH/$1.img" >> "$LOG" 2>&1; then
		echo yes
	else
		echo "**NO**"
	fi
}

# cell TAG: "wall (CPU)", or "> TO"
cell() {
	local s_var=${1}_s c_var=${1}_cpu
	case ${!s_var} in
	'>'*) echo "${!s_var}" ;;
	*) echo "${!s_var} (${!c_var})" ;;
	esac
}

# rss_cell KIB: MiB, or "-"
rss_cell() {
	case $1 in -) echo - ;; *) mib "$1" ;; esac
}

loadavg() {
	cut -d' ' -f1-3 /proc/loadavg
}

# The journal mke2fs gives a filesystem of each size in BENCH_FS_SIZES by
# default (the same options as the images below, without -J), and the
# buckets 1.47.4 makes for it: no replay, only mke2fs on a sparse file.
drows=()
for fs in ${BENCH_FS_SIZES:-256M 1G 2G 16G 32G 64G 128G}; do
	rm -f "$SCRATCH/fs.img"
	mke2fs -q -F -t ext4 -b 4096 -O 64bit,metadata_csum \
		-E lazy_itable_init=1,lazy_journal_init=1 \
		"$SCRATCH/fs.img" "$fs" >> "$LOG" 2>&1 || die "mke2fs of a $fs filesystem failed"
	read_maxlen "$SCRATCH/fs.img"
	drows+=("| $fs | $((be / 256)) | $be | $hex | 1024 | $(buckets "$le") | $(buckets "$be") |")
	rm -f "$SCRATCH/fs.img"
done

# set by run_e2fsck and best, by name
old_s='' old_rss='' e147_s='' e147_rss=''
pat_s='' pat_rss='' jr_s='' jr_rss='' jr_state=''
bad=0
start_load=$(loadavg)
start_date=$(date -u '+%Y-%m-%d %H:%M UTC')
t_start=$(date +%s)
log "N=$N T=$T L=$L, log $LOG_BLOCKS blocks; journals (MiB): $JOURNALS (min = $min_mib); images ${img_mib} MiB; bound $TO s; load $start_load"
brows=() trows=() mrows=()
for s in $JOURNALS; do
	label="$s MiB"
	if [ "$s" = min ]; then
		s=$min_mib
		label="$s MiB (the smallest)"
	fi
	row_load=$(cut -d' ' -f1 /proc/loadavg)
	log "== journal $s MiB (load $row_load)"
	rm -f "$SCRATCH"/*.img
	mke2fs -q -F -t ext4 -b 4096 -O 64bit,metadata_csum \
		-U 5a1d7e4b-3c2f-4e9a-8b1d-0c6f2e7a9b35 -J size="$s" \
		-E lazy_itable_init=1,lazy_journal_init=1,hash_seed=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 \
		"$SCRATCH/base.img" "${img_mib}M" >> "$LOG" 2>&1
	"$MKBENCH" -c "$SCRATCH/base.img" "$N" >> "$LOG" 2>&1
	"$SPARSECMP" -r "$SCRATCH/base.img" >> "$LOG" 2>&1

	read_maxlen "$SCRATCH/base.img"
	[ "$be" -eq $((s * 256)) ] || die "the $s MiB journal has s_maxlen $be, not $((s * 256))"
	b_host=$(buckets "$native")
	brows+=("| $label | $be | $hex | $le | 1024 | $(buckets "$le") | $(buckets "$be") |")

	best jr "$JRECOVER"
	# the comparisons below mean something only if the replay wrote
	if "$SPARSECMP" "$SCRATCH/base.img" "$SCRATCH/jr.img" >> "$LOG" 2>&1; then
		die "jrecover left the $s MiB image as it was"
	fi
	run_e2fsck old "$old"
	run_e2fsck e147 "$E147"
	best pat "$PAT" -y -E journal_only
	id_old=$(same old)
	id_e147=$(same e147)
	id_pat=$(same pat)
	case "$id_old $id_e147 $id_pat" in *'**'*) bad=1 ;; esac
	log "   buckets $b_host (this host), 1.47.0 $old_s s, stock 1.47.4 $e147_s s, patched $pat_s s, jrecover $jr_s s; identical: $id_old / $id_e147 / $id_pat"
	[ "$jr_state" = ok ] || { log "   jrecover: $jr_state"; bad=1; }

	trows+=("| $label | $b_host | $(cell old) | $(cell e147) | $(cell pat) | $(cell jr) | $(ratio "$old_s" "$jr_s") | $(ratio "$e147_s" "$jr_s") | $(ratio "$pat_s" "$jr_s") | $id_old / $id_e147 / $id_pat | $row_load |")
	mrows+=("| $label | $b_host | $(rss_cell "$old_rss") | $(rss_cell "$e147_rss") | $(rss_cell "$pat_rss") | $(mib "$jr_rss") | $(ratio "$old_rss" "$jr_rss") | $(ratio "$e147_rss" "$jr_rss") | $(ratio "$pat_rss" "$jr_rss") |")
	rm -f "$SCRATCH"/*.img
done
end_load=$(loadavg)
elapsed=$(($(date +%s) - t_start))

{
	echo "# e2fsck 1.47.0, stock 1.47.4, 1.47.4 with contrib/e2fsprogs, and jrecover, by journal length"
	echo
	echo "Made by bench/e2fsprogs-versions.sh (its header says how; doc/e2fsprogs.md, \"The revoke hash of each version\", what it means), $start_date, $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), Linux $(uname -r), $host_order; $((elapsed / 60)) min $((elapsed % 60)) s in all.  Load averages (1, 5, 15 min): $start_load at the start, $end_load at the end; the load column is the 1-minute average at the start of each row."
	echo
	echo "- 1.47.0: $old ($("$old" -V 2>&1 | head -n 1))"
	echo "- stock 1.47.4: WORKDIR/stock/e2fsck/e2fsck, patched 1.47.4: WORKDIR/patched/e2fsck/e2fsck, built by contrib/e2fsprogs/compare-tests.sh --version 1.47.4 WORKDIR from Debian's 1.47.4 source (the patched one linked with the librecover compare-tests.sh built from its checkout)"
	echo "- jrecover: bench/jrecover, $("$JRECOVER" --version 2>/dev/null | head -n 1)"
	echo "- the journal: bench/mkbench -c, N = $N revoke records in T = $T transactions of L = $L logged blocks (1% of the records revoke logged blocks), $LOG_BLOCKS log blocks, csum v3, 4 KiB blocks; the same in every image, each image ${img_mib} MiB (sparse), only the journal's length (mke2fs -J size=S) differs"
	echo "- each tool on a fresh copy: \`e2fsck -y -E journal_only\` (stock ones once, bounded by $TO s: \"> $TO\" when passed), the patched e2fsck and \`jrecover IMAGE\` best of $REPEAT"
	echo
	echo "## The revoke hash"
	echo
	echo "s_maxlen is the journal's length in blocks, stored big-endian (bytes as on disk).  1.47.4 makes roundup_power_of_two(s_maxlen / 16) buckets (at most 2^20) from the field as a native 32-bit load reads it: the byte-swapped length on a little-endian host (this one is $host_order).  1.47.0 always makes 1024.  Computed by the script from each image's journal superblock."
	echo
	echo "| journal | s_maxlen (blocks) | bytes on disk | read on a little-endian host | buckets 1.47.0 | buckets 1.47.4, little-endian host | buckets 1.47.4, big-endian host |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${brows[@]}"
	echo
	echo "The journal mke2fs $(mke2fs -V 2>&1 | sed -n '1s/^mke2fs \([0-9.]*\).*/\1/p') makes by default (no -J; 4 KiB blocks) for a filesystem of each size, and its buckets (computed alike, from a fresh mke2fs image; not replayed):"
	echo
	echo "| filesystem | journal (MiB) | s_maxlen (blocks) | bytes on disk | buckets 1.47.0 | buckets 1.47.4, little-endian host | buckets 1.47.4, big-endian host |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${drows[@]}"
	echo
	echo "## Wall time"
	echo
	echo "Seconds, wall (CPU user + system in parentheses); ratios are wall time over jrecover's.  identical: each e2fsck's result against jrecover's, byte for byte (bench/sparsecmp), 1.47.0 / stock 1.47.4 / patched 1.47.4 (\"-\": it did not finish)."
	echo
	echo "| journal | buckets 1.47.4 (this host) | 1.47.0 s | stock 1.47.4 s | patched 1.47.4 s | jrecover s | 1.47.0 / jrecover | stock 1.47.4 / jrecover | patched / jrecover | identical | load |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${trows[@]}"
	echo
	echo "## Peak RSS"
	echo
	echo "MiB (/usr/bin/time's %M; the largest of the repeated runs), and the ratio to jrecover's."
	echo
	echo "| journal | buckets 1.47.4 (this host) | 1.47.0 MiB | stock 1.47.4 MiB | patched 1.47.4 MiB | jrecover MiB | 1.47.0 / jrecover | stock 1.47.4 / jrecover | patched / jrecover |"
	echo "|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${mrows[@]}"
} > "$SCRATCH/report.md"
cat "$SCRATCH/report.md"
[ -z "$out" ] || cp "$SCRATCH/report.md" "$out"
rm -f "$SCRATCH/report.md"
if [ "$bad" -ne 0 ]; then
	echo "e2fsprogs-versions.sh: a tool failed or left different bytes (see $LOG)" >&2
	BENCH_KEEP=1
	exit 1
fi
