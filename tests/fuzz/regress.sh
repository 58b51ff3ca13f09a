#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# regress.sh --- run every fuzz target's replayer (the target built without
# libFuzzer) over its seed corpus, tests/fuzz/corpus/TARGET/, and over the
# inputs that once made it fail, tests/fuzz/regress/TARGET/.  An input
# fails by crashing or by breaking one of the target's checks (abort);
# under the sanitizer build (contrib/run-tests.sh --asan) by any report.
#
# Environment: top_srcdir, top_builddir (set by make check).

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
rc=0
for t in fuzz_decode fuzz_replay fuzz_fc; do
	bin=$top_builddir/tests/fuzz/$t
	[ -x "$bin" ] || { echo "ERROR: $bin not built"; exit 99; }
	set --
	for d in "$top_srcdir/tests/fuzz/corpus/$t" \
		 "$top_srcdir/tests/fuzz/regress/$t"; do
		[ -d "$d" ] && set -- "$@" "$d"
	done
	[ $# -gt 0 ] || { echo "ERROR: no inputs for $t"; exit 99; }
	echo "\$ $bin $*"
	"$bin" "$@"
	st=$?
	if [ "$st" -ne 0 ]; then
		echo "FAIL: $t exited $st"
		rc=1
	fi
done
exit "$rc"
