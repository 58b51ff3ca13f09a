# SPDX-License-Identifier: LGPL-2.1-or-later
# shellcheck shell=sh
# The ba_* variables are set through eval by ba_keep(), the settings
# (BENCH_L, ...) by run.sh:
# shellcheck disable=SC2154,SC2153
#
# before-after.sh -- sourced by bench/run.sh: the before/after comparison
# (BENCH_BEFORE=REVISION; see bench/README).  It uses run.sh's helpers
# (timed, copy, mkimage, csum_format, drop_cache, note, log, min_of) and
# its settings (SCRATCH, LOG, DAT, COLD, MKBENCH, SPARSECMP, JRECOVER).
#
# bench/jrecover of REVISION is built in a directory of its own (the
# revision's tree from git archive, then its own autogen.sh, configure,
# make and make bench/jrecover), and for each chosen row both binaries
# run on the same image, alternating in every round, so that whatever
# else the machine does in a round slows both alike.

BA_OLD=
BA_HASH=
BA_NEW=

# ba_clean_dat: remove the before/after lines of an earlier run from DAT
# (BENCH_APPEND, BENCH_ONLY): the table always comes from one run, against
# one revision.
ba_clean_dat() {
	[ -f "$DAT" ] || return 0
	awk '!/^# before/ && !/^# note: before\/after/ && $1 != "ba"' "$DAT" > "$DAT.new" &&
		mv "$DAT.new" "$DAT"
}

# ba_build REVISION: build bench/jrecover of REVISION; sets BA_OLD (the
# binary), BA_HASH (the full commit id) and BA_NEW (what the current
# binary was built from, as far as git can tell).  Returns 1, with a note,
# where there is no git, no work tree or no such revision (a release
# tarball), or the revision does not build.
ba_build() {
	_rev=$1
	if ! command -v git > /dev/null 2>&1; then
		note "before/after skipped: git not found"
		return 1
	fi
	_top=$(git -C "$top_srcdir" rev-parse --show-toplevel 2> /dev/null)
	if [ -z "$_top" ] || [ "$(cd "$_top" && pwd -P)" != "$(cd "$top_srcdir" && pwd -P)" ]; then
		note "before/after skipped: $top_srcdir is not a git work tree (a release tarball?)"
		return 1
	fi
	if ! BA_HASH=$(git -C "$top_srcdir" rev-parse -q --verify "$_rev^{commit}"); then
		note "before/after skipped: no revision $_rev in $top_srcdir"
		return 1
	fi
	BA_NEW=$(git -C "$top_srcdir" rev-parse --short HEAD)
	# bench/jrecover is built from lib/ and src/
	git -C "$top_srcdir" diff --quiet HEAD -- lib src 2> /dev/null ||
		BA_NEW="$BA_NEW+uncommitted-changes-to-lib/src"

	# BENCH_BEFORE_DIR keeps the build for the next run; each revision
	# in a directory named by its commit id, which a finished build
	# marks with the file "built".
	if [ -n "$BEFORE_DIR" ]; then
		mkdir -p "$BEFORE_DIR" || die "cannot create $BEFORE_DIR"
		_src=$(cd "$BEFORE_DIR" && pwd -P)/$BA_HASH
	else
		_src=$SCRATCH/before
	fi
	if [ -f "$_src/built" ] && [ -x "$_src/bench/jrecover" ]; then
		log "before/after: bench/jrecover of $_rev ($BA_HASH) already built in $_src"
	else
		log "before/after: building bench/jrecover of $_rev ($BA_HASH) in $_src"
		rm -rf "$_src"
		mkdir -p "$_src" || die "cannot create $_src"
		if ! git -C "$top_srcdir" archive --format=tar "$BA_HASH" | tar -x -C "$_src"; then
			note "before/after skipped: git archive of $_rev failed"
			return 1
		fi
		# the compiler and flags of the build under test, so that the
		# comparison is of the code alone
		_cc=$(sed -n 's/^CC = //p' "$top_builddir/Makefile")
		_cflags=$(sed -n 's/^CFLAGS = //p' "$top_builddir/Makefile")
		_t0=$(date +%s)
		# make all first: a lone "make bench/jrecover" skips the
		# generated headers (BUILT_SOURCES) some revisions need
		if ! (cd "$_src" && ./autogen.sh && ./configure ${_cc:+CC="$_cc"} CFLAGS="$_cflags" &&
		      make -j"$(nproc)" && make bench/jrecover) >> "$LOG" 2>&1; then
			note "before/after skipped: bench/jrecover of $_rev does not build (see results.log)"
			NFAIL=$((NFAIL + 1))
			return 1
		fi
		: > "$_src/built"
		log "before/after: built in $(( $(date +%s) - _t0 )) s"
	fi
	BA_OLD=$_src/bench/jrecover
	head -c 2 "$BA_OLD" | grep -q '#!' && die "$BA_OLD is a script"
	return 0
}

# ba_header: the lines of DAT that name the two binaries and the columns.
ba_header() {
	say "# before: $BEFORE $BA_HASH $BA_NEW $BA_ROUNDS $BA_TOL"
	say "# before: old = $("$BA_OLD" -V 2>&1 | head -n 1); $(git -C "$top_srcdir" log -1 --format='%h %s' "$BA_HASH" | cut -c 1-100)"
	say "# before/after rows: 1 ba  2 shape  3 N  4 csum  5 T  6 log_blocks  7 rounds"
	say "#   8 old_dry  9 new_dry  10 old_jr  11 new_jr  12 old_cold_dry  13 new_cold_dry"
	say "#   14 old_cold_jr  15 new_cold_jr  16 old_rss  17 new_rss (KiB)"
	say "#   18 old_jr_cpu  19 new_jr_cpu  20 identical(1, 0)  21 load  22 LU divisor"
}

# ba_keep WHICH MEASURE: after timed(), keep the best (smallest) wall and
# CPU time of WHICH (old, new) for MEASURE and its largest peak RSS.
ba_keep() {
	eval "_b=\${ba_${1}_$2:-} _c=\${ba_${1}_${2}_cpu:-} _r=\${ba_${1}_rss:-0}"
	[ -z "$_b" ] || [ "$(min_of "$_b" "$ba_wall")" != "$_b" ] && eval "ba_${1}_$2=$ba_wall"
	[ -z "$_c" ] || [ "$(min_of "$_c" "$ba_cpu")" != "$_c" ] && eval "ba_${1}_${2}_cpu=$ba_cpu"
	[ "$ba_rss" -gt "$_r" ] && eval "ba_${1}_rss=$ba_rss"
	return 0
}

# ba_check WHAT RC KIND: a failure unless a replay (KIND replay) exited 1
# (recovered), or a dry run (KIND dry) 0 or 1: -n exits with the status
# its replay would return, older jrecovers exited 0.
ba_check() {
	case $3:$2 in
	replay:1|dry:0|dry:1) ;;
	*)	log "FAIL: $1 exited $2"
		NFAIL=$((NFAIL + 1)) ;;
	esac
}

# ba_bin WHICH: the binary of WHICH (old, new)
ba_bin() {
	if [ "$1" = old ]; then say "$BA_OLD"; else say "$JRECOVER"; fi
}

# ba_dry MEASURE COLD: jrecover -n of each binary on img, in the order
# of the round; COLD=1: the page cache dropped before each.
ba_dry() {
	for w in $order; do
		[ "$2" = 1 ] && drop_cache
		timed ba "$(ba_bin "$w")" -n "$img"
		ba_check "$w jrecover -n ($1)" "$ba_rc" dry
		ba_keep "$w" "$1"
	done
}

# ba_replay MEASURE COLD KEEP: jrecover of each binary on a fresh copy of
# img, as ba_dry; KEEP=1 keeps the results as ba-old.img and ba-new.img.
ba_replay() {
	for w in $order; do
		copy "$img" "$SCRATCH/ba-run.img"
		[ "$2" = 1 ] && drop_cache
		timed ba "$(ba_bin "$w")" "$SCRATCH/ba-run.img"
		ba_check "$w jrecover ($1)" "$ba_rc" replay
		ba_keep "$w" "$1"
		if [ "$3" = 1 ]; then
			mv "$SCRATCH/ba-run.img" "$SCRATCH/ba-$w.img"
		else
			rm -f "$SCRATCH/ba-run.img"
		fi
	done
}

# ba_one N CSUM SHAPE: one row of the before/after table (SHAPE: bench or
# lu, as in bench_one).
ba_one() {
	n=$1
	cs=$2
	shape=$3
	plan_row "$n" "$cs" "$shape"
	log ""
	log "=== before/after ($BEFORE against this tree): $shape N=$n csum=$cs T=$T L=$L log blocks=$LOG_BLOCKS rounds=$BA_ROUNDS load=$load"
	# the image and two copies: one replaying, one result kept
	room_for_row || return
	img=$SCRATCH/ba.img
	# shellcheck disable=SC2086
	mkimage "$img" "$n" $copt -t "$T" -l "$L" -H "$HIT"
	"$SPARSECMP" -r "$img" > /dev/null || die "cannot read $img"

	for _w in old new; do
		for _m in dry jr cdry cjr; do
			# "-": a cold figure where the cache cannot be dropped
			if [ "$COLD" = 1 ] || [ "$_m" = dry ] || [ "$_m" = jr ]; then
				eval "ba_${_w}_$_m= ba_${_w}_${_m}_cpu="
			else
				eval "ba_${_w}_$_m=- ba_${_w}_${_m}_cpu=-"
			fi
		done
		eval "ba_${_w}_rss=0"
	done
	ident=1
	i=0
	while [ "$i" -lt "$BA_ROUNDS" ]; do
		# old first in even rounds, new first in odd ones
		if [ $((i % 2)) = 0 ]; then order="old new"; else order="new old"; fi
		ba_dry dry 0
		# round 1 keeps both results and compares them
		ba_replay jr 0 $((i == 0))
		if [ "$i" = 0 ]; then
			same "$SCRATCH/ba-old.img" "$SCRATCH/ba-new.img" \
				"before/after N=$n $cs $shape: $BEFORE vs this tree" || ident=0
			rm -f "$SCRATCH/ba-old.img" "$SCRATCH/ba-new.img"
		fi
		if [ "$COLD" = 1 ]; then
			ba_dry cdry 1
			ba_replay cjr 1 0
			"$SPARSECMP" -r "$img" > /dev/null	# warm again
		fi
		i=$((i + 1))
	done
	rm -f "$img"
	div=-
	[ "$shape" = lu ] && div=$LU_DIV
	awk -v n="$n" -v c="$csnum" -v sh="$shape" '$1 != "ba" || $2 != sh || $3 != n || $4 != c' \
		"$DAT" > "$DAT.new" && mv "$DAT.new" "$DAT"
	printf 'ba %s %s %s %s %s %s  %s %s  %s %s  %s %s  %s %s  %s %s  %s %s  %s %s %s\n' \
		"$shape" "$n" "$csnum" "$T" "$LOG_BLOCKS" "$BA_ROUNDS" \
		"$ba_old_dry" "$ba_new_dry" "$ba_old_jr" "$ba_new_jr" \
		"$ba_old_cdry" "$ba_new_cdry" "$ba_old_cjr" "$ba_new_cjr" \
		"$ba_old_rss" "$ba_new_rss" "$ba_old_jr_cpu" "$ba_new_jr_cpu" \
		"$ident" "$load" "$div" >> "$DAT"
	sort_dat
	log "before/after: -n ${ba_old_dry} / ${ba_new_dry} s, jrecover ${ba_old_jr} / ${ba_new_jr} s," \
	    "cold -n ${ba_old_cdry} / ${ba_new_cdry} s, cold jrecover ${ba_old_cjr} / ${ba_new_cjr} s," \
	    "peak RSS ${ba_old_rss} / ${ba_new_rss} KiB (old / new), identical=$ident"
	write_md
}

# ba_rows: every row of the comparison.
ba_rows() {
	for k in $BA_K; do
		for cs in $BA_CSUMS; do
			ba_one $((1 << k)) "$cs" bench
		done
	done
	if [ "$BA_LU" = 1 ]; then
		for cs in $LU_CSUMS; do
			ba_one "$LU_N" "$cs" lu
		done
	fi
}
