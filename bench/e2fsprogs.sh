#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# e2fsprogs.sh --- what an admin sees: stock e2fsck 1.47.0 against e2fsck
# with contrib/e2fsprogs' series (--with-librecover), on the benchmark's
# images (bench/mkbench): N = 2^20 and 2^25 revoke records and the
# LU-14958 shape, journal checksum v3.
#
#   bash bench/e2fsprogs.sh BUILDDIR WORKDIR [OUTFILE]
#
# BUILDDIR: this checkout's build (bench/mkbench, bench/sparsecmp and
# src/jrecover built: make check or make bench); WORKDIR: the directory
# contrib/e2fsprogs/compare-tests.sh left (stock/e2fsck/e2fsck and
# patched/e2fsck/e2fsck); images go to BENCH_SCRATCH (default
# WORKDIR/bench).  For each image and each e2fsck: the journal phase alone
# (-y -E journal_only) and the whole run (-fy), each on a fresh copy, wall
# seconds; stock bounded by BENCH_E2FSCK_TIMEOUT (150 s; a bound passed is
# "> 150" and its -fy run is skipped).  identical: the patched journal
# phase's image against stock's (bench/sparsecmp), or against jrecover's
# where stock did not finish; the exit statuses of the -fy runs are shown.
# BENCH_ROWS: which rows, of "20 25 lu" (the default, all three).
# Prints a markdown table (and writes it to OUTFILE when given, e.g. bench/results-e2fsprogs.md).

set -euo pipefail

build=$(cd "${1:?usage: $0 BUILDDIR WORKDIR [OUTFILE]}" && pwd)
work=$(cd "${2:?usage: $0 BUILDDIR WORKDIR [OUTFILE]}" && pwd)
out=${3:-}
STOCK=$work/stock/e2fsck/e2fsck
PATCHED=$work/patched/e2fsck/e2fsck
MKBENCH=$build/bench/mkbench
SPARSECMP=$build/bench/sparsecmp
JRECOVER=$build/src/jrecover
for p in "$STOCK" "$PATCHED" "$MKBENCH" "$SPARSECMP" "$JRECOVER"; do
	[ -x "$p" ] || { echo "e2fsprogs.sh: $p not built" >&2; exit 2; }
done
TO=${BENCH_E2FSCK_TIMEOUT:-150}
SCRATCH=${BENCH_SCRATCH:-$work/bench}
mkdir -p "$SCRATCH"
E2FSCK_CONFIG=/dev/null
export E2FSCK_CONFIG
NICE="nice -n 10"
LOG=$SCRATCH/log
: > "$LOG"

# timed VAR CMD...: wall seconds of CMD into VAR, its status into VAR_rc;
# "> TO" when timeout killed it.
timed() {
	local var=$1 t0 t1 rc
	shift
	t0=$(date +%s.%N)
	set +e
	"$@" >> "$LOG" 2>&1
	rc=$?
	set -e
	t1=$(date +%s.%N)
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		printf -v "$var" '> %s' "$TO"
	else
		printf -v "$var" '%.3f' "$(echo "$t1 - $t0" | bc)"
	fi
	printf -v "${var}_rc" '%s' "$rc"
}

fresh() {
	cp --sparse=always "$SCRATCH/base.img" "$SCRATCH/$1"
}

rows=()
# row LABEL N [mkbench -t T]
row() {
	local label=$1 n=$2 topt=${3:-}
	# shellcheck disable=SC2086
	eval "$("$MKBENCH" -p -c $topt -l 50 -H 1 "$n")"
	echo "== $label: N=$n T=$T, journal ${JOURNAL_MIB} MiB, image ${IMAGE_MIB} MiB" | tee -a "$LOG"
	rm -f "$SCRATCH/base.img"
	mke2fs -q -F -t ext4 -b 4096 -O 64bit,metadata_csum \
		-U 5a1d7e4b-3c2f-4e9a-8b1d-0c6f2e7a9b35 -J size="$JOURNAL_MIB" \
		-E lazy_itable_init=1,lazy_journal_init=1,hash_seed=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 \
		"$SCRATCH/base.img" "${IMAGE_MIB}M" >> "$LOG" 2>&1
	# shellcheck disable=SC2086
	"$MKBENCH" -c $topt -l 50 -H 1 "$SCRATCH/base.img" "$n" >> "$LOG" 2>&1
	"$SPARSECMP" -r "$SCRATCH/base.img" >> "$LOG" 2>&1

	fresh pj.img
	timed pj $NICE "$PATCHED" -y -E journal_only "$SCRATCH/pj.img"
	fresh pf.img
	timed pf $NICE "$PATCHED" -fy "$SCRATCH/pf.img"
	fresh sj.img
	timed sj $NICE timeout -k 10 "$TO" "$STOCK" -y -E journal_only "$SCRATCH/sj.img"
	sf='-'
	sf_rc='-'
	if [ "${sj#>}" = "$sj" ]; then
		fresh sf.img
		timed sf $NICE timeout -k 10 "$TO" "$STOCK" -fy "$SCRATCH/sf.img"
	fi
	if [ "${sj#>}" = "$sj" ]; then
		if "$SPARSECMP" "$SCRATCH/sj.img" "$SCRATCH/pj.img" >> "$LOG" 2>&1; then
			ident="yes (stock)"
		else
			ident="**NO** (stock)"
		fi
	else
		fresh jr.img
		$NICE "$JRECOVER" "$SCRATCH/jr.img" >> "$LOG" 2>&1 || true
		if "$SPARSECMP" "$SCRATCH/jr.img" "$SCRATCH/pj.img" >> "$LOG" 2>&1; then
			ident="yes (jrecover)"
		else
			ident="**NO** (jrecover)"
		fi
	fi
	rows+=("| $label | $n | $T | $sj | $pj | $sf | $pf | $sf_rc / $pf_rc | $ident | $(cut -d' ' -f1 /proc/loadavg) |")
	rm -f "$SCRATCH"/*.img
}

ROWS=${BENCH_ROWS:-"20 25 lu"}
for r in $ROWS; do
	case $r in
	20) row "bench 2^20" $((1 << 20)) ;;
	25) row "bench 2^25" $((1 << 25)) ;;
	lu) row "LU-14958" 30489150 "-t 1858" ;;
	*) echo "e2fsprogs.sh: unknown row $r (BENCH_ROWS: 20 25 lu)" >&2; exit 16 ;;
	esac
done

{
	echo "e2fsck 1.47.0 (Debian 12's source) stock and with contrib/e2fsprogs (--with-librecover, librecover $("$JRECOVER" --version 2>/dev/null | head -n 1 | sed 's/^jrecover //')), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs; wall seconds, under nice; stock bounded by $TO s; csum v3, L = 50, 1% hits."
	echo
	echo "| image | N | T | stock journal s | patched journal s | stock -fy s | patched -fy s | -fy exit stock / patched | identical | load |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
} | tee ${out:+"$out"}
