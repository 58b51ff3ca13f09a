#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# valgrind.sh --- run test scripts with every jrecover they start under
# valgrind memcheck; fail on any memcheck error or definite/indirect leak.
#
# usage: tests/valgrind.sh [TEST.sh...]
#   default: the integration tests (the tests/integration/*.sh that
#   tests/integration/Makefile.inc adds to TESTS); any test that runs the
#   binary as $JRECOVER works (tests/cli/*.sh, for one).
# Environment:
#   BUILDDIR  the configured build directory (default: the current
#             directory if it has config.status, else the source tree)
#   VG_OUT    where the logs go (default BUILDDIR/tests/valgrind): TEST.log
#             is the test's own output, vg/TEST.PID.log valgrind's report
#             for one jrecover run (empty when clean)
#   VALGRIND  the valgrind command (default: valgrind)
#   JRECOVER_TIMEOUT  passed to the tests (default 1200 s: jrecover is
#             many times slower under memcheck)
#
# The script first builds jrecover and the tests' helper programs (make all
# and the integration tests' check_PROGRAMS).
#
# jrecover is built by libtool: src/jrecover is then a wrapper script, and
# valgrind runs the real binary, src/.libs/jrecover, with lib/.libs first in
# LD_LIBRARY_PATH (checked with ldd, so an installed librecover is not the
# one tested).  The tests use the build directory's scratch directories,
# as make check does: do not run both at once in one build directory.
# Not part of make check or .ci/run (too slow); run it by hand, e.g.
#   nice tests/valgrind.sh
#   nice tests/valgrind.sh tests/integration/malformed.sh

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${BUILDDIR:-}" ]; then
	build=$BUILDDIR
elif [ -f Makefile ] && [ -f config.status ]; then
	build=$(pwd)
else
	build=$top
fi
build=$(cd "$build" && pwd)
out=${VG_OUT:-$build/tests/valgrind}
valgrind=${VALGRIND:-valgrind}

command -v "$valgrind" >/dev/null 2>&1 ||
	{ echo "valgrind.sh: $valgrind not found (apt-get install valgrind)" >&2; exit 1; }
# jrecover, and the helpers of the integration tests (check_PROGRAMS that
# make alone does not build).
make -C "$build" all tests/integration/imgcmp tests/integration/mkdata \
	tests/jwrite/jwrite tests/crash/crashrun > /dev/null ||
	{ echo "valgrind.sh: make failed in $build" >&2; exit 1; }

# The real binary, and the library it must load.
if [ -x "$build/src/.libs/jrecover" ] &&
   head -c 2 "$build/src/jrecover" | grep -q '^#!'; then
	real=$build/src/.libs/jrecover
	libpath=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
else
	real=$build/src/jrecover
	libpath=${LD_LIBRARY_PATH:-}
fi
if LD_LIBRARY_PATH=$libpath ldd "$real" | grep -q 'librecover'; then
	LD_LIBRARY_PATH=$libpath ldd "$real" |
		grep -q "librecover.*=> $build/lib/.libs/" ||
		{ echo "valgrind.sh: $real does not load $build/lib/.libs/librecover" >&2
		  exit 1; }
fi

if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046
	set -- $(grep -o 'tests/integration/[a-z0-9_-]*\.sh' \
		"$top/tests/integration/Makefile.inc" | grep -v '/lib\.sh$' | sort -u)
	[ $# -gt 0 ] || { echo "valgrind.sh: no tests found" >&2; exit 1; }
fi

rm -rf "$out"
mkdir -p "$out/vg" || exit 1
wrapper=$out/jrecover
cat > "$wrapper" <<EOF
#!/bin/sh
# jrecover under valgrind memcheck (written by tests/valgrind.sh)
LD_LIBRARY_PATH='$libpath'
export LD_LIBRARY_PATH
exec '$valgrind' --error-exitcode=99 --leak-check=full \\
	--errors-for-leak-kinds=definite,indirect --track-origins=no -q \\
	--log-file='$out/vg/%q{VG_TEST}.%p.log' '$real' "\$@"
EOF
chmod +x "$wrapper"

# report LOG: valgrind's log but for its warning about an ioctl it does not
# know, LOOP_GET_STATUS64 (0x4c05) from libext2fs's ext2fs_check_if_mounted
# when the machine has loop devices: not an error, and memcheck counts it
# as none.
report() {
	grep -v -e 'Warning: noted but unhandled ioctl 0x4c05 ' \
		-e 'This could cause spurious value errors to appear\.' \
		-e 'See README_MISSING_SYSCALL_OR_IOCTL for guidance' "$1"
}

echo "valgrind.sh: $($valgrind --version) on $real"
ntests=0
nbad=0
for t in "$@"; do
	case $t in
	/*) path=$t ;;
	*) path=$top/$t ;;
	esac
	name=$(basename "$t" .sh)
	ntests=$((ntests + 1))
	start=$(date +%s)
	VG_TEST=$name JRECOVER=$wrapper top_srcdir=$top top_builddir=$build \
		JRECOVER_TIMEOUT=${JRECOVER_TIMEOUT:-1200} \
		sh "$path" > "$out/$name.log" 2>&1
	st=$?
	runs=$(find "$out/vg" -name "$name.*.log" | wc -l)
	dirty=0
	for f in "$out/vg/$name".*.log; do
		[ -f "$f" ] && report "$f" | grep -q . && dirty=$((dirty + 1))
	done
	case $st in
	0) verdict=PASS ;;
	77) verdict=SKIP ;;
	*) verdict="FAIL (exit $st)"; nbad=$((nbad + 1)) ;;
	esac
	[ "$dirty" -eq 0 ] || nbad=$((nbad + 1))
	echo "$verdict: $name: $runs jrecover run(s) under valgrind," \
		"$dirty with errors ($(( $(date +%s) - start )) s)"
done

echo "valgrind.sh: $ntests test(s); valgrind reports:"
found=0
for f in $(find "$out/vg" -name '*.log' -size +0 | sort); do
	report "$f" | grep -q . || continue
	found=$((found + 1))
	echo "--- $f"
	report "$f" | head -n 60
done
[ "$found" -gt 0 ] ||
	echo "  none (every log in $out/vg is empty, but for ioctl 0x4c05 warnings)"
[ "$nbad" -eq 0 ]
