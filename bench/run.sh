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
# with /usr/bin/time (wall, user+sys CPU, peak RSS), and checks that every
# result is byte-identical to jrecover's outside the superblock's
# s_wtime/s_kbytes_written/s_checksum.  A second image of the same shape
# with N = 0 gives the baseline RSS behind the bytes-per-record columns.
#
# Writes results.dat, results.md, results.png (gnuplot) and rtable.md
# (bench/rtable_bench) to BENCH_OUT.  Exit status: 0, or 1 when any
# comparison found a difference or a tool failed.

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
	REPEAT=${BENCH_REPEAT:-1}
else
	MIN=${BENCH_MIN:-20}
	MAX=${BENCH_MAX:-25}
	E2_TIMEOUT=${BENCH_E2FSCK_TIMEOUT:-600}
	REPEAT=${BENCH_REPEAT:-3}
fi
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
	trap 'rm -rf "$SCRATCH"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	[ "$APPEND" = 1 ] || : > "$LOG"
fi

log() {
	say "$*" | tee -a "$LOG"
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
			printf "dd if=%s of=/dev/null bs=2M iflag=skip_bytes,count_bytes skip=%d count=%d 2>/dev/null\n",
				img, p * 4096, (hi - lo + 1) * 4096
		}
	}'
}

# min_of X...: the smallest number (empty arguments vanish unquoted)
min_of() {
	printf '%s\n' "$@" | sort -g | head -n 1
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'
}

# ---- one row -----------------------------------------------------------------

# bench_one N CSUM
bench_one() {
	n=$1
	cs=$2
	if [ "$cs" = v3 ]; then
		MKFS_FEATURES=64bit,metadata_csum
		copt=-c
		csnum=3
	else
		MKFS_FEATURES=64bit,^metadata_csum
		copt=
		csnum=0
	fi
	topt=
	[ -n "$BENCH_T" ] && topt="-t $BENCH_T"
	# shellcheck disable=SC2086
	eval "$("$MKBENCH" -p $copt $topt -l "$BENCH_L" -H "$BENCH_HIT" "$n")"
	jblocks=$((JOURNAL_MIB * 256))
	load=$(cut -d' ' -f1 /proc/loadavg)
	log ""
	log "=== N=$n csum=$cs T=$T L=$L log blocks=$LOG_BLOCKS journal=${JOURNAL_MIB} MiB image=${IMAGE_MIB} MiB load=$load"

	# Room for the image and two copies at a time (data written: the
	# logged range and the log, plus metadata).
	need=$(( (LOG_BLOCKS + T * L) * 4 * 3 / 1024 + 512 ))
	avail=$(df -Pm "$SCRATCH" | awk 'NR == 2 { print $4 }')
	if [ "$avail" -lt "$need" ]; then
		log "SKIP: $need MiB needed in $SCRATCH, $avail MiB free"
		return
	fi

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
	dd_best='' dry_best=''
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		timed dd sh "$SCRATCH/dd.sh"
		timed dry "$JRECOVER" -n "$img"
		[ "$dry_rc" = 0 ] || { log "FAIL: jrecover -n exited $dry_rc"; NFAIL=$((NFAIL + 1)); }
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

	# e2fsck, bounded.
	e2_wall=- e2_cpu=- e2_rss=- e2_state=2 e2_ratio=-
	eval "e2_stop=\${E2_STOP_$cs:-0}"
	if [ "$RUN_E2FSCK" = 1 ] && [ "$e2_stop" = 0 ]; then
		copy "$img" "$SCRATCH/e2.img"
		timed e2 timeout -k 10 "$E2_TIMEOUT" e2fsck -y -E journal_only "$SCRATCH/e2.img"
		if [ "$e2_rc" = 124 ] || [ "$e2_rc" = 137 ]; then
			log "e2fsck passed the ${E2_TIMEOUT} s bound"
			# /usr/bin/time does not see a killed e2fsck's usage
			e2_state=1 e2_wall=$E2_TIMEOUT e2_cpu=- e2_rss=-
			eval "E2_STOP_$cs=1"
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
	# BENCH_APPEND: this row replaces an older one of the same N and csum.
	awk -v n="$n" -v c="$csnum" '/^#/ || $1 != n || $2 != c' "$DAT" > "$DAT.new" &&
		mv "$DAT.new" "$DAT"
	printf '%s %s %s %s %s  %s %s %s %s %s  %s %s %s %s %s  %s %s %s %s %s %s  %s %s %s  %s %s %s %s\n' \
		"$n" "$csnum" "$T" "$LOG_BLOCKS" "$jblocks" \
		"$jr_best" "$jr_bcpu" "$jr_brss" "$b0_rss" "$(bpr "$jr_brss" "$b0_rss")" \
		"$full_wall" "$full_cpu" "$full_rss" "$b1_rss" "$(bpr "$full_rss" "$b1_rss")" \
		"$e2_wall" "$e2_cpu" "$e2_rss" "$b2_rss" "$(bpr "$e2_rss" "$b2_rss")" "$e2_state" \
		"$dry_best" "$dd_best" "$(ratio "$dry_best" "$dd_best")" \
		"$ident" "$replayed" "$load" "$e2_ratio" >> "$DAT"
	# Rows in order of N, csum v3 first, whatever order they came in.
	{ grep '^#' "$DAT"; grep -v '^#' "$DAT" | sort -k1,1n -k2,2nr; } > "$DAT.new" &&
		mv "$DAT.new" "$DAT"
	log "jrecover ${jr_best} s (cpu ${jr_bcpu} s, ${jr_brss} KiB; baseline ${b0_rss} KiB)," \
	    "full ${full_wall} s (${full_rss} KiB), e2fsck ${e2_wall} s (state $e2_state)," \
	    "dry ${dry_best} s, dd ${dd_best} s, identical=$ident"
	write_md
}

# ---- report --------------------------------------------------------------------

write_md() {
	awk '
	function p2(n,  k) { if (n == 0) return "0"; k = 0; while (n > 1 && n % 2 == 0) { n /= 2; k++ } return (n == 1) ? "2^" k : n * 2 ^ k }
	function mib(k) { return (k == "-") ? "-" : sprintf("%.1f", k / 1024) }
	function cs(c) { return c == 3 ? "v3" : "none" }
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
	/^# settings: / { e2to = $3; repeat = $4; quick = $5; nice = $6; next }
	/^# shape: / { shape = substr($0, 10); next }
	/^#/ { next }
	NF >= 28 {
		r++
		N[r] = $1; C[r] = $2; jr[r] = $6; full[r] = $11; e2[r] = $16; st[r] = $21
		bpr[r] = $10; fbpr[r] = $15; id[r] = $25
		e2w = ($21 == 0) ? $16 : ($21 == 1) ? "> " e2to : ($21 == 3) ? "failed" : "skipped"
		rat = ($21 == 0) ? $28 : ($21 == 1) ? sprintf("> %.0f", e2to / $6) : "-"
		idt = ($25 == 1) ? "yes (e2fsck, full)" : ($25 == 2) ? "yes (full only)" : "**NO**"
		line[r] = sprintf("| %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |",
			p2($1), cs($2), $3, $4, $5, $6, $7, mib($8), $10,
			$11, mib($13), $15, e2w, ($21 == 0) ? $17 : "-",
			($21 == 0) ? mib($18) : "-", $20, rat,
			$22, $23, $24, idt, $27)
	}
	END {
		print "# jrecover benchmark results"
		print ""
		print "Made by `make bench` (bench/run.sh" (quick ? ", BENCH_QUICK=1" : "") "), " date "; " host "."
		print "Shape: " shape "."
		print "Times are wall seconds with the image in the page cache; jrecover and jrecover -n / dd are the best of " repeat " runs, each on a fresh copy; the full table and e2fsck run once.  e2fsck is bounded by " e2to " s." (nice != "" && nice != 0 ? "  Every timed command ran under nice -n " nice " (the machine is shared)." : "") "  load = the 1-minute load average when the row started: other jobs on the machine (2 CPUs) inflate wall times, CPU times less so."
		print ""
		print "| N | csum | T | log blocks | journal blocks | jrecover s | CPU s | peak RSS MiB | B/rec | full s | full RSS MiB | full B/rec | e2fsck s | e2fsck CPU s | e2fsck RSS MiB | e2fsck B/rec | e2fsck/jrecover | -n s | dd s | -n/dd | identical | load |"
		print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
		for (i = 1; i <= r; i++) print line[i]
		print ""
		print "## Targets"
		print ""
		for (c = 3; c >= 0; c -= 3) {
			t20 = t25 = ""; e20 = ""; s20 = ""
			for (i = 1; i <= r; i++) if (C[i] == c) {
				if (N[i] == 1048576) { t20 = jr[i]; e20 = e2[i]; s20 = st[i] }
				if (N[i] == 33554432) t25 = jr[i]
			}
			printf "- csum %s: ", cs(c)
			if (t25 != "") printf "2^25 replayed in %s s (target < 5 s: %s); ", t25, (t25 + 0 < 5) ? "met" : "MISSED"
			if (t20 != "" && t25 != "") printf "2^25 / 2^20 time = %.1f (target <= 40: %s); ", t25 / t20, (t25 / t20 <= 40) ? "met" : "MISSED"
			if (t20 != "" && s20 == 0) printf "e2fsck / jrecover at 2^20 = %.0f (target >= 300: %s); ", e20 / t20, (e20 / t20 >= 300) ? "met" : "MISSED"
			if (t20 != "" && s20 == 1) printf "e2fsck / jrecover at 2^20 > %.0f (e2fsck passed the bound); ", e2to / t20
			mx = 0; fmx = 0
			for (i = 1; i <= r; i++) if (C[i] == c) { if (bpr[i] + 0 > mx) mx = bpr[i] + 0; if (fbpr[i] + 0 > fmx) fmx = fbpr[i] + 0 }
			printf "largest B/rec %.2f default (target <= 16: %s); %.2f with the full table (LIBRECOVER_DEBUG=full_revoke: its slots are 16.00 B/rec by construction, rtable.md; the REVOKE pass adds 8 bytes per revoke block, 0.02 B/rec here, and RSS is measured to the page)\n", mx, (mx <= 16) ? "met" : "MISSED", fmx
		}
		nid = 0; for (i = 1; i <= r; i++) if (id[i] == 0) nid++
		print "- identical results: " (nid ? nid " row(s) DIFFER" : "every row (see the last column)")
		print ""
		print "Columns: see bench/README.  Raw numbers: results.dat; log: results.log; plot: results.png."
	}' "$DAT" > "$MD"
}

plot() {
	command -v gnuplot >/dev/null 2>&1 || return 0
	(cd "$OUT" && gnuplot -e "datafile='results.dat'; outfile='results.png'; e2bound=$E2_TIMEOUT" \
		"$top_srcdir/bench/plot.gp") >> "$LOG" 2>&1 ||
		log "gnuplot failed (see $LOG)"
}

# ---- main ----------------------------------------------------------------------------

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
# settings legend: e2fsck bound (s), jrecover repeats, quick mode, nice
# settings: $E2_TIMEOUT $REPEAT $QUICK $NICE
# shape: $SHAPE
EOF
fi
log "jrecover benchmark: N = 2^$MIN .. 2^$MAX, csum: $CSUMS, scratch $SCRATCH"
log "$HOST"

k=$MIN
while [ "$k" -le "$MAX" ]; do
	for cs in $CSUMS; do
		bench_one $((1 << k)) "$cs"
	done
	k=$((k + 1))
done
write_md
plot

if [ "$RUN_RTABLE" = 1 ] && [ -x "$RTABLE_BENCH" ]; then
	log "rtable micro-benchmark -> $OUT/rtable.md"
	if [ "$QUICK" = 1 ]; then
		nice -n "$NICE" "$RTABLE_BENCH" -q > "$OUT/rtable.md" 2>> "$LOG"
	else
		nice -n "$NICE" "$RTABLE_BENCH" > "$OUT/rtable.md" 2>> "$LOG"
	fi || { log "FAIL: rtable_bench"; NFAIL=$((NFAIL + 1)); }
fi

log "results: $MD"
[ "$NFAIL" = 0 ] || { log "$NFAIL failure(s)"; exit 1; }
exit 0
