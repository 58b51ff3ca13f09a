#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dirdata-libext2fs.sh --- librecover built and tested against a libext2fs
# that knows Lustre's dirdata feature, as Lustre's e2fsprogs builds do:
# there nothing may be special-cased (lib/feature.c, jrecover(8),
# "Features libext2fs does not know").
#
#   bash contrib/e2fsprogs/dirdata-libext2fs.sh [WORKDIR]
#
# WORKDIR defaults to build-e2fsprogs/ in the checkout (where .ci/run's
# e2fsprogs step fetches the source too).  Steps, each timed:
#   1. fetch-source.sh WORKDIR/src: Debian's e2fsprogs 1.47.0 source, left
#      alone when already there (compare-tests.sh fetches it there);
#   2. WORKDIR/dirdata/tree: the .dsc unpacked afresh, and
#      dirdata-libext2fs.patch applied (dirdata in
#      EXT2_LIB_FEATURE_INCOMPAT_SUPP; the bit's definition and its name
#      "dirdata" are upstream's already, and checked here);
#   3. WORKDIR/dirdata/e2fs: configured out of tree, and only libcom_err,
#      libe2p and libext2fs built (shared) and installed, with their
#      headers and .pc files, into WORKDIR/dirdata/prefix;
#   4. WORKDIR/dirdata/librecover: this checkout configured against that
#      prefix (PKG_CONFIG_PATH, and an rpath to it, so that jrecover and
#      the test helpers load that libext2fs while the system's e2fsck,
#      debugfs and mke2fs stay Debian's: e2fsck is still the judge), and
#      built with the helpers the tests need;
#   5. the tests: jrecover loads the private libext2fs (ldd);
#      tests/unit/features_test, tests/oracle/jw-dirdata.sh and
#      tests/cli/golden.sh pass, and each took the "libext2fs knows
#      dirdata" path (the line each logs; golden.sh leaves out its dirdata
#      case, whose text is that of a libext2fs without dirdata).
# Ends with "N passed, N failed" over the four checks of step 5 (0 and 0
# when skipped, 0 and 1 after a build failure).
# Exit status: 0 all passed, 1 a check failed, 2 a build failed, 77 when
# it cannot run (not root, no deb-src reachable).  Runs under nice, make -j2.
#
# DIRDATA_PATCH=0 leaves the patch out: the same build against stock
# libext2fs, where both tests pass by the other path, so the two checks
# of the path fail (the check that this script can tell).

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
case ${1:-} in
-h|--help) sed -n '4,39p' "$0"; exit 0 ;;
-*) echo "usage: $0 [WORKDIR]" >&2; exit 16 ;;
esac
[ $# -le 1 ] || { echo "usage: $0 [WORKDIR]" >&2; exit 16; }
work=${1:-$top/build-e2fsprogs}
N="nice -n 10"
JOBS=${JOBS:-2}
patched=${DIRDATA_PATCH:-1}

if [ "$(id -u)" -ne 0 ]; then
	echo "dirdata-libext2fs: SKIP: not root (fetch-source.sh may add a deb-src entry)"
	echo "0 passed, 0 failed"
	exit 77
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
d=$work/dirdata
prefix=$d/prefix
mkdir -p "$d"
: > "$d/times.txt"

step() {
	echo "== $*"
	STEP_START=$(date +%s)
	STEP_NAME=$1
}
step_end() {
	printf '%-12s %4d s\n' "$STEP_NAME" $(( $(date +%s) - STEP_START )) |
		tee -a "$d/times.txt"
}
die_build() {
	echo "dirdata-libext2fs: $*" >&2
	echo "0 passed, 1 failed"
	exit 2
}

# 1. the source
step fetch "Debian's e2fsprogs source in $work/src"
if ! bash "$here/fetch-source.sh" "$work/src"; then
	echo "dirdata-libext2fs: SKIP: no e2fsprogs source (no deb-src reachable?)"
	echo "0 passed, 0 failed"
	exit 77
fi
dsc=$(ls "$work"/src/e2fsprogs_1.47.0-*.dsc | head -n 1)
step_end

# 2. a fresh tree, patched
without=
[ "$patched" != 0 ] || without=" (DIRDATA_PATCH=0: without the patch)"
step unpack "$dsc into $d/tree$without"
rm -rf "$d/tree" "$d/e2fs" "$prefix" "$d/librecover"
dpkg-source --no-check -x "$dsc" "$d/tree" > "$d/unpack.log" 2>&1 ||
	die_build "dpkg-source -x ($d/unpack.log)"
grep -Eq '^#define[[:space:]]+EXT4_FEATURE_INCOMPAT_DIRDATA[[:space:]]+0x1000' \
	"$d/tree/lib/ext2fs/ext2_fs.h" ||
	die_build "lib/ext2fs/ext2_fs.h does not define EXT4_FEATURE_INCOMPAT_DIRDATA 0x1000"
grep -Eq 'EXT4_FEATURE_INCOMPAT_DIRDATA,' "$d/tree/lib/e2p/feature.c" &&
	grep -q '"dirdata"' "$d/tree/lib/e2p/feature.c" ||
	die_build "lib/e2p/feature.c does not name dirdata"
if [ "$patched" != 0 ]; then
	patch -d "$d/tree" -p1 < "$here/dirdata-libext2fs.patch" ||
		die_build "dirdata-libext2fs.patch does not apply"
fi
step_end

# 3. libcom_err, libe2p, libext2fs only
step libs "libcom_err, libe2p, libext2fs into $prefix"
mkdir -p "$d/e2fs"
(cd "$d/e2fs" && $N "$d/tree/configure" --prefix="$prefix" \
	--enable-elf-shlibs --disable-nls --disable-fuse2fs \
	> configure.log 2>&1) || die_build "e2fsprogs configure ($d/e2fs/configure.log)"
(cd "$d/e2fs" && $N make subs > make.log 2>&1 &&
	for l in lib/et lib/e2p lib/ext2fs; do
		$N make -C "$l" -j"$JOBS" >> make.log 2>&1 &&
			make -C "$l" install >> install.log 2>&1 || exit 1
	done) || die_build "e2fsprogs libraries ($d/e2fs/make.log, install.log)"
for f in lib/libext2fs.so.2 lib/libe2p.so.2 lib/libcom_err.so.2 \
	lib/pkgconfig/ext2fs.pc lib/pkgconfig/e2p.pc lib/pkgconfig/com_err.pc \
	include/ext2fs/ext2fs.h; do
	[ -e "$prefix/$f" ] || die_build "$prefix/$f not installed"
done
if [ "$patched" != 0 ]; then
	grep -q 'EXT4_FEATURE_INCOMPAT_DIRDATA)' "$prefix/include/ext2fs/ext2fs.h" ||
		die_build "the installed ext2fs.h does not count dirdata as supported"
fi
step_end

# 4. this checkout against them
step librecover "this checkout against $prefix, in $d/librecover"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --variable=libdir ext2fs)" = "$prefix/lib" ] ||
	die_build "pkg-config does not find $prefix's ext2fs.pc"
if [ ! -f "$top/configure" ]; then
	(cd "$top" && ./autogen.sh) > "$d/autogen.log" 2>&1 ||
		die_build "autogen.sh ($d/autogen.log)"
fi
mkdir -p "$d/librecover"
helpers="tests/oracle/sbfeature tests/jwrite/jwrite tests/integration/imgcmp
	tests/integration/mkdata tests/unit/features_test"
# shellcheck disable=SC2086
(cd "$d/librecover" && $N "$top/configure" \
	LDFLAGS="-Wl,-rpath,$prefix/lib" > configure.log 2>&1 &&
	$N make -j"$JOBS" > make.log 2>&1 &&
	$N make -j"$JOBS" $helpers >> make.log 2>&1) ||
	die_build "librecover build in $d/librecover (configure.log, make.log)"
step_end

# 5. the checks
step tests "jrecover's libext2fs, features_test, jw-dirdata.sh, golden.sh"
pass=0
fail=0
check() {
	if [ "$1" = ok ]; then
		echo "PASS: $2"
		pass=$((pass + 1))
	else
		echo "FAIL: $2${3:+ ($3)}"
		fail=$((fail + 1))
	fi
}
b=$d/librecover
# jrecover itself (through libtool's wrapper) loads the private libext2fs.
lib=$(cd "$b" && ./libtool --mode=execute ldd src/jrecover 2>/dev/null |
	sed -n 's/^[[:space:]]*libext2fs\.so\.2 => \([^ ]*\) .*/\1/p')
echo "jrecover loads libext2fs from ${lib:-nowhere}"
[ "$lib" = "$prefix/lib/libext2fs.so.2" ] && r=ok || r=
check "$r" "jrecover loads $prefix/lib/libext2fs.so.2"

$N make -C "$b" check-TESTS \
	TESTS="tests/unit/features_test tests/oracle/jw-dirdata.sh tests/cli/golden.sh" \
	> "$d/check.log" 2>&1 || true
grep -E '^(PASS|FAIL|ERROR|SKIP|XPASS|XFAIL):' "$d/check.log" || true
# Each passed, and said which way it went.
for t in tests/unit/features_test tests/oracle/jw-dirdata.sh tests/cli/golden.sh; do
	log=$b/${t%.sh}.log
	trs=$b/${t%.sh}.trs
	case $t in
	*features_test) want="this libext2fs knows dirdata: nothing special-cased" ;;
	*golden.sh) want="dirdata: this libext2fs knows dirdata (opens: libext2fs $prefix/lib/libext2fs.so.2): the golden text of one that does not is not compared" ;;
	*) want="jrecover's libext2fs knows dirdata: nothing special expected (opens: libext2fs $prefix/lib/libext2fs.so.2)" ;;
	esac
	# (golden.sh logs no such line where libext2fs does not know dirdata)
	grep -F -e "this libext2fs" -e "jrecover's libext2fs" -e "e2fsck knows" \
		-e "e2fsck does not know" "$log" 2>/dev/null | sed 's/^/    /' ||
		true
	if ! grep -q '^:test-result: PASS' "$trs" 2>/dev/null; then
		check "" "$t" "$(sed -n 's/^:test-result: //p' "$trs" 2>/dev/null |
			head -n 1) see $log"
	elif ! grep -qxF "$want" "$log"; then
		check "" "$t" "passed, but not by the path where libext2fs knows dirdata; see $log"
	else
		check ok "$t, libext2fs knowing dirdata"
	fi
done
step_end
cat "$d/times.txt"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
