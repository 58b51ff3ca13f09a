#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compare-tests.sh --- the judge of the patch series: e2fsprogs' own test
# suite, run on a stock build and on a build with the series and
# --with-librecover, out of tree, side by side, from the same source.
#
#   bash contrib/e2fsprogs/compare-tests.sh [--version V] [--journal-tests]
#        [--oracle] [--patched-only] WORKDIR
#
#   --version V      e2fsprogs V as Debian ships it (fetch-source.sh):
#                    1.47.0 (the default, Debian 12), 1.46.2, 1.47.2 or
#                    1.47.4; the series is contrib/e2fsprogs/series for
#                    1.47.0, contrib/e2fsprogs/V/series for the others
#   --journal-tests  run only e2fsprogs' journal tests (j_*, f_*jnl*,
#                    f_*journal*, t_*jnl*, d_*journal*) instead of all
#   --oracle         also run this checkout's oracle and integration tests
#                    with the patched e2fsck as the judge
#   --patched-only   build and test the patched tree only (no stock, no
#                    noop build): every test run must pass (.ci/run, with
#                    --journal-tests; the full comparison shows that stock
#                    passes all of those)
#
# Steps, each timed (WORKDIR/times.txt):
#   1. fetch-source.sh WORKDIR/src V: apt-get source e2fsprogs (for
#      1.47.0 Debian 12's 1.47.0-2: the orig tarball and Debian's patch),
#      adding a deb-src entry when there is none (root; another suite's
#      through a private apt state);
#   2. this checkout's librecover, built and installed in WORKDIR/prefix;
#   3. WORKDIR/tree: the source unpacked (dpkg-source -x, or by hand when
#      the mirror has no .asc: fetch-source.sh --unpack); WORKDIR/stock:
#      ./configure --disable-nls && make -j2, then its tests;
#   4. the series applied to the same tree (patch -p1, in series order),
#      and to a pristine copy of the orig tarball (without Debian's
#      patch), which is then removed; WORKDIR/patched: --with-librecover (pkg-config from WORKDIR/prefix,
#      an rpath to it), make -j2, its tests;
#   5. WORKDIR/noop: the patched tree without the option: its e2fsck,
#      debugfs and tune2fs are compared with stock's, stripped and without
#      their build-id (the debug info names the build directory and the
#      lines, which the series moves; the build-id hashes it);
#   6. the verdict: every test that passes in stock passes in patched.
# Output: a summary line per build ("stock: N passed, M failed"), the tests
# lost (passed in stock, failed in patched) and gained, WORKDIR/summary.txt.
# Exit status: 0 when no test is lost and the noop build matches stock,
# 1 otherwise, 2 on a build failure.  Runs under nice, make -j2.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
subset=
oracle=
patched_only=
version=1.47.0
usage="usage: $0 [--version V] [--journal-tests] [--oracle] [--patched-only] WORKDIR"
while [ $# -gt 0 ]; do
	case $1 in
	--journal-tests) subset=1; shift ;;
	--oracle) oracle=1; shift ;;
	--patched-only) patched_only=1; shift ;;
	--version) version=${2:?--version needs a version}; shift 2 ;;
	--version=*) version=${1#--version=}; shift ;;
	-h|--help) sed -n '4,46p' "$0"; exit 0 ;;
	-*) echo "$usage" >&2; exit 16 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "$usage" >&2; exit 16; }
# The series for the version: 1.47.0's at the top, the others' in a folder
# named after the version.
if [ "$version" = 1.47.0 ]; then
	series_dir=$here
else
	series_dir=$here/$version
fi
[ -f "$series_dir/series" ] ||
	{ echo "compare-tests: no series for e2fsprogs $version ($series_dir/series)" >&2; exit 16; }
mkdir -p "$1"
work=$(cd "$1" && pwd)
N="nice -n 10"
JOBS=${JOBS:-2}
: > "$work/times.txt"

step() {
	echo "== $*"
	STEP_START=$(date +%s)
	STEP_NAME=$1
}
step_end() {
	local s=$(( $(date +%s) - STEP_START ))
	printf '%-16s %4d s\n' "$STEP_NAME" "$s" | tee -a "$work/times.txt"
}
die_build() {
	echo "compare-tests: $* (see the log named above)" >&2
	exit 2
}

# e2fsprogs' tests, all or the journal ones, in build directory $1; leaves
# the names of the tests passed in $1/passed.txt and failed in failed.txt.
run_tests() {
	local b=$1
	rm -f "$b"/tests/*.ok "$b"/tests/*.failed
	if [ -n "$subset" ]; then
		# test_one of each journal test (make check builds the helpers).
		$N make -C "$b/tests" -j"$JOBS" test_one test_script \
			> "$b/check.log" 2>&1 || die_build "$b: tests/ helpers"
		$N make -C "$b" -j"$JOBS" -s all >> "$b/check.log" 2>&1 || true
		(cd "$b/tests" && for t in "$work"/tree/tests/j_* \
			"$work"/tree/tests/f_*jnl* "$work"/tree/tests/f_*journal* \
			"$work"/tree/tests/t_*jnl* "$work"/tree/tests/d_*journal*; do
			[ -d "$t" ] && $N ./test_one "$t"
		done) >> "$b/check.log" 2>&1 || true
	else
		# make check fails when a test does; the counts say which.
		$N make -C "$b" -j"$JOBS" check > "$b/check.log" 2>&1 || true
	fi
	# (ls fails when nothing matches: no test failed, say)
	(cd "$b/tests" && { ls -- *.ok 2>/dev/null || true; } | sed 's/\.ok$//' | sort) > "$b/passed.txt"
	(cd "$b/tests" && { ls -- *.failed 2>/dev/null || true; } | sed 's/\.failed$//' | sort) > "$b/failed.txt"
	[ -s "$b/passed.txt" ] || die_build "$b: no test ran ($b/check.log)"
}

# 1. the source
step fetch "apt-get source e2fsprogs in $work/src"
bash "$here/fetch-source.sh" "$work/src" "$version"
dsc=$(ls "$work"/src/e2fsprogs_"$version"-*.dsc | head -n 1)
step_end

# 2. librecover
step librecover "this checkout's librecover into $work/prefix"
mkdir -p "$work/librecover"
if [ ! -f "$top/configure" ]; then
	(cd "$top" && ./autogen.sh) > "$work/librecover/autogen.log" 2>&1
fi
(cd "$work/librecover" && $N "$top/configure" --prefix="$work/prefix" \
	> configure.log 2>&1 && $N make -j"$JOBS" > make.log 2>&1 &&
	make install > install.log 2>&1) ||
	die_build "librecover build in $work/librecover"
step_end
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

# 3. stock
step unpack "$dsc into $work/tree"
rm -rf "$work/tree" "$work/stock" "$work/patched" "$work/noop"
bash "$here/fetch-source.sh" --unpack "$dsc" "$work/tree" > "$work/unpack.log" 2>&1 ||
	die_build "dpkg-source -x ($work/unpack.log)"
step_end

build() {
	local b=$1
	shift
	mkdir -p "$b"
	(cd "$b" && $N "$work/tree/configure" --disable-nls "$@" > configure.log 2>&1 &&
		$N make -j"$JOBS" > make.log 2>&1) || die_build "build in $b"
}

if [ -z "$patched_only" ]; then
	step build-stock "$work/stock: configure --disable-nls && make -j$JOBS"
	build "$work/stock"
	step_end
	step test-stock "e2fsprogs' tests, stock"
	run_tests "$work/stock"
	step_end
fi

# 4. patched
step patch "the series for $version ($series_dir) onto $work/tree"
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	patch -d "$work/tree" -p1 -s -F0 < "$series_dir/$p" || die_build "patch $p"
	echo "   applied $p"
done < "$series_dir/series"
# The series must also apply to the upstream tarball without Debian's own
# patch (README): the same patches onto a pristine copy of the orig tarball.
orig=$(ls "$work"/src/e2fsprogs_"$version".orig.tar.* | grep -v '\.asc$' | head -n 1)
rm -rf "$work/orig"
mkdir -p "$work/orig"
tar -C "$work/orig" --strip-components=1 -xf "$orig" ||
	die_build "unpack $orig"
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	patch -d "$work/orig" -p1 -s -F0 < "$series_dir/$p" ||
		die_build "patch $p onto $(basename "$orig") without Debian's patch"
done < "$series_dir/series"
echo "   the series applies to $(basename "$orig") without Debian's patch too"
rm -rf "$work/orig"
step_end
step build-patched "$work/patched: --with-librecover"
build "$work/patched" --with-librecover LDFLAGS="-Wl,-rpath,$work/prefix/lib"
grep -q "journal replay through librecover" "$work/patched/configure.log" ||
	die_build "configure did not take --with-librecover"
step_end
step test-patched "e2fsprogs' tests, patched"
run_tests "$work/patched"
step_end

if [ -n "$patched_only" ]; then
	pp=$(wc -l < "$work/patched/passed.txt")
	pf=$(wc -l < "$work/patched/failed.txt")
	{
		echo "e2fsprogs $(basename "$dsc" .dsc | sed 's/^e2fsprogs_//'), patched only, ${subset:+journal tests only, }make -j$JOBS"
		echo "patched: $pp passed, $pf failed $(tr '\n' ' ' < "$work/patched/failed.txt")"
		cat "$work/times.txt"
	} | tee "$work/summary.txt"
	[ "$pf" -eq 0 ]
	exit
fi

# 5. without the option: upstream's programs
step build-noop "$work/noop: the patched tree without the option"
build "$work/noop"
noop_ok=1
# The code and data: the debug info's line numbers move with the lines the
# series adds, and the build-id is a hash that covers them.
for prog in e2fsck/e2fsck debugfs/debugfs misc/tune2fs; do
	strip -o "$work/noop.a" "$work/stock/$prog"
	strip -o "$work/noop.b" "$work/noop/$prog"
	objcopy --remove-section .note.gnu.build-id "$work/noop.a"
	objcopy --remove-section .note.gnu.build-id "$work/noop.b"
	if cmp -s "$work/noop.a" "$work/noop.b"; then
		echo "   $prog: identical to stock's (stripped, build-id aside)"
	else
		echo "   $prog: DIFFERS from stock's"
		noop_ok=
	fi
done
rm -f "$work/noop.a" "$work/noop.b"
step_end

# 6. the oracle cases of this checkout, judged by the patched e2fsck
oracle_rc=
if [ -n "$oracle" ]; then
	step oracle "this checkout's oracle tests, the patched e2fsck as judge"
	mkdir -p "$work/bin"
	ln -sf "$work/patched/e2fsck/e2fsck" "$work/bin/e2fsck"
	tests=$(cd "$top" && ls tests/oracle/jw-*.sh tests/oracle/oracle.sh \
		tests/integration/*.sh | grep -v -e mmp-mount -e mounted -e jw-findings |
		tr '\n' ' ')
	PATH="$work/bin:$PATH" $N make -C "$work/librecover" -j"$JOBS" check \
		TESTS="$tests" > "$work/oracle.log" 2>&1 && oracle_rc=0 || oracle_rc=$?
	grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR)' "$work/oracle.log" || true
	step_end
fi

# the verdict
np=$(wc -l < "$work/stock/passed.txt")
nf=$(wc -l < "$work/stock/failed.txt")
pp=$(wc -l < "$work/patched/passed.txt")
pf=$(wc -l < "$work/patched/failed.txt")
lost=$(comm -23 "$work/stock/passed.txt" "$work/patched/passed.txt" | tr '\n' ' ')
gained=$(comm -13 "$work/stock/passed.txt" "$work/patched/passed.txt" | tr '\n' ' ')
{
	echo "e2fsprogs $(basename "$dsc" .dsc | sed 's/^e2fsprogs_//'), ${subset:+journal tests only, }make -j$JOBS"
	echo "stock:   $np passed, $nf failed $(tr '\n' ' ' < "$work/stock/failed.txt")"
	echo "patched: $pp passed, $pf failed $(tr '\n' ' ' < "$work/patched/failed.txt")"
	echo "lost (pass in stock, fail in patched): ${lost:-none}"
	echo "gained (fail in stock, pass in patched): ${gained:-none}"
	if [ -n "$noop_ok" ]; then
		echo "without --with-librecover: e2fsck, debugfs, tune2fs identical to stock's (stripped, build-id aside)"
	else
		echo "without --with-librecover: a program differs from stock's"
	fi
	[ -n "$oracle" ] && echo "oracle tests with the patched e2fsck: make check exit $oracle_rc"
	cat "$work/times.txt"
} | tee "$work/summary.txt"
[ -z "$lost" ] && [ -n "$noop_ok" ] && [ "${oracle_rc:-0}" = 0 ]
