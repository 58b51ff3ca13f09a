#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# run-fuzz.sh --- build the libFuzzer targets (make fuzz) and run each for
# a bounded time from its seed corpus; fail on any crash, leak, timeout or
# sanitizer report.
#
# usage: tests/fuzz/run-fuzz.sh [TARGET...]     (default: every target)
# Environment:
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_JOBS     parallel fuzzing processes per target (default 1)
#   BUILDDIR      the configured build directory (default: the current
#                 directory if it has a Makefile, else the source tree)
#   FUZZ_OUT      where to keep the grown corpora and any crash inputs
#                 (default: BUILDDIR/tests/fuzz/out); a crash input is
#                 copied to the source tree's tests/fuzz/regress/TARGET/ by
#                 hand once the bug is understood
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev) and, for
# symbolized reports, the llvm-symbolizer beside it (llvm-14).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${BUILDDIR:-}" ]; then
	build=$BUILDDIR
elif [ -f Makefile ] && grep -q '^fuzz:' Makefile; then
	build=$(pwd)
else
	build=$top
fi
build=$(cd "$build" && pwd)
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
out=${FUZZ_OUT:-$build/tests/fuzz/out}
[ $# -gt 0 ] || set -- fuzz_decode fuzz_replay fuzz_fc

command -v clang >/dev/null 2>&1 ||
	{ echo "run-fuzz: clang not found (contrib/install-deps.sh)" >&2; exit 1; }
echo "run-fuzz: make fuzz in $build"
make -C "$build" fuzz || { echo "run-fuzz: make fuzz failed" >&2; exit 1; }

# Symbolized reports: the llvm-symbolizer installed beside the clang that
# built the targets (Debian: /usr/lib/llvm-14/bin, package llvm-14).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
	sym=$(dirname "$(readlink -f "$(command -v clang)")")/llvm-symbolizer
	[ -x "$sym" ] || sym=$(clang -print-prog-name=llvm-symbolizer)
	case $sym in
	/*) [ -x "$sym" ] && export ASAN_SYMBOLIZER_PATH="$sym" ;;
	esac
fi
[ -n "${ASAN_SYMBOLIZER_PATH:-}" ] ||
	echo "run-fuzz: no llvm-symbolizer found: reports will not be symbolized" >&2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
failed=0
for t in "$@"; do
	bin=$build/tests/fuzz/$t.libfuzzer
	seeds=$top/tests/fuzz/corpus/$t
	grown=$out/$t/corpus
	crashes=$out/$t/crashes
	mkdir -p "$grown" "$crashes"
	echo "run-fuzz: $t for ${seconds}s ($jobs job(s)), crashes to $crashes/"
	set -- -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$crashes/"
	[ "$jobs" -gt 1 ] && set -- "$@" -jobs="$jobs" -workers="$jobs"
	before=$(ls "$crashes" | wc -l)
	"$bin" "$@" "$grown" "$seeds" > "$out/$t/log" 2>&1
	st=$?
	after=$(ls "$crashes" | wc -l)
	grep -E '^(stat::|#[0-9]+.*DONE)' "$out/$t/log" | tail -n 8
	if [ "$st" -ne 0 ] || [ "$after" -ne "$before" ]; then
		echo "run-fuzz: $t FAILED (exit $st); the report:"
		grep -E -A 40 'ERROR: |SUMMARY|check failed|deadly signal' \
			"$out/$t/log" | head -n 80
		ls -l "$crashes"
		# The new inputs as hex, so the log alone reproduces the failure:
		# xxd -r -p FILE.hex > INPUT, then run the target on INPUT.
		ls -t "$crashes" | head -n $((after - before)) | while read -r f; do
			n=$(wc -c < "$crashes/$f")
			echo "run-fuzz: $t input $f ($n bytes), as hex (xxd -r -p):"
			if [ "$n" -le 65536 ]; then
				od -A n -v -t x1 "$crashes/$f" | tr -d ' \n' |
					fold -w 128
				echo
			else
				echo "(larger than 64 KiB: kept in $crashes/ only)"
			fi
		done
		failed=$((failed + 1))
	else
		echo "run-fuzz: $t: no crash in ${seconds}s"
	fi
done
[ "$failed" -eq 0 ]
