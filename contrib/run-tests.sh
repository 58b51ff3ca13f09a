#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# run-tests.sh --- install the dependencies, build, and run the test suite
# (unit tests, and the integration tests that replay journals with e2fsck
# and with jrecover and compare the results byte for byte).
#
#   bash contrib/run-tests.sh         build in build/, with --enable-werror
#   bash contrib/run-tests.sh --asan  build in build-asan/, with the address
#                                     and undefined-behaviour sanitizers
#                                     (and libext2fs's crc32c, not ISA-L's)
#
# Builds are out of tree, so both can live side by side.  On failure the
# suite's test-suite.log is printed; each failing test's own log names the
# image offsets where jrecover and e2fsck differ, and its scratch directory
# (build*/tests/integration/tmp/TEST) is kept.  Set SKIP_DEPS=1 to skip the
# package check.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
mode=plain
case ${1:-} in
"") ;;
--asan) mode=asan ;;
-h|--help) sed -n '4,17p' "$0"; exit 0 ;;
*) echo "usage: $0 [--asan]" >&2; exit 16 ;;
esac

if [ "${SKIP_DEPS:-0}" != 1 ]; then
	bash "$top/contrib/install-deps.sh" --tests
fi

cd "$top"
if [ ! -x configure ] || [ configure.ac -nt configure ] ||
   [ Makefile.am -nt configure ]; then
	./autogen.sh
fi

jobs=${JOBS:-2}
if [ "$mode" = asan ]; then
	build=$top/build-asan
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	export ASAN_OPTIONS=detect_leaks=1
	# Leaks inside libext2fs that are not librecover's (each explained).
	export LSAN_OPTIONS=suppressions=$top/tests/lsan.supp
	# The sanitizer build also covers the fallback crc32c (libext2fs's):
	# the plain build uses ISA-L's.
	config=(CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer"
		LDFLAGS="-fsanitize=address,undefined" --with-isal=no)
else
	build=$top/build
	config=(--enable-werror)
fi

mkdir -p "$build"
cd "$build"
# A stale summary must not outlive a build that fails this time.
rm -f test-suite.log
echo "run-tests: configuring in $build"
"$top/configure" "${config[@]}" > configure.out 2>&1 ||
	{ cat configure.out; echo "run-tests: configure failed" >&2; exit 1; }
make -j"$jobs"
status=0
make -j"$jobs" check || status=$?
if [ "$status" -ne 0 ]; then
	echo "run-tests: make check failed; test-suite.log follows"
	[ -f test-suite.log ] && cat test-suite.log
fi
exit "$status"
