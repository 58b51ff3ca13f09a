#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fcsoak.sh --- the long run of tests/kernel/fcrand.sh: many seeds, one
# process each (make soak runs it from the build directory).
#
#   SOAK_SEEDS=N   how many seeds (default 100)
#   SOAK_START=S   the first seed (default 1): seeds S .. S+N-1
#   JRECOVER=PATH  the jrecover under test (default: this build's)
#   SOAK_LOGS=DIR  where the log of each seed that fails, or passes where
#                  the kernel refuses, goes (default
#                  tests/integration/tmp/fcsoak-logs in the build directory)
#
# Prints one line per failing seed, "seed S: REASON (features)", and one
# per seed that passed where the kernel refuses the crash image, "seed S:
# pass (the kernel refuses: BUG) (features)" (fcrand.sh passes such a seed
# only where jrecover's result holds the fsync'd tree, e2fsck -fn finds
# nothing in it but orphans, and the refusal is a documented kernel bug:
# tests/kernel/README), and ends with the line "N passed (K of them where
# the kernel refuses, each a documented kernel bug), M failed".  A failing seed is reproduced with
#     FCRAND_SEEDS=S make check TESTS=tests/kernel/fcrand.sh
# Exit status: 0 if every seed passed, 1 if one failed, 77 where loop
# mounts are refused (the first seed skipped), 99 on a hard error of the
# harness.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
export top_srcdir top_builddir
[ -z "${JRECOVER:-}" ] || export JRECOVER

N=${SOAK_SEEDS:-100}
S=${SOAK_START:-1}
LOGS=${SOAK_LOGS:-$top_builddir/tests/integration/tmp/fcsoak-logs}
FCGEN=$top_builddir/tests/kernel/fcgen
case $N$S in
''|*[!0-9]*) echo "fcsoak: SOAK_SEEDS and SOAK_START must be numbers" >&2; exit 99 ;;
esac
[ -x "$FCGEN" ] || { echo "fcsoak: $FCGEN not built (make check-programs or make soak)" >&2; exit 99; }
mkdir -p "$LOGS" || exit 99

pass=0
refused=0
failed=0
i=0
# Stopped early: the count so far, in the same form.
trap 'echo "$pass passed ($refused of them where the kernel refuses, each a documented kernel bug), $failed failed (stopped before seed $((S + i)) was done)"; exit 130' INT TERM
while [ "$i" -lt "$N" ]; do
	s=$((S + i))
	i=$((i + 1))
	log=$LOGS/seed-$s.log
	FCRAND_SEEDS=$s JR_TESTNAME=fcsoak-$$ \
		sh "$top_srcdir/tests/kernel/fcrand.sh" \
		> "$log" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		why=$(sed -n "s/^fcrand: seed $s: pass (the kernel refuses: \(.*\))$/\1/p" "$log")
		if [ -n "$why" ]; then
			# Kept: the refusal is the kernel's, the log says why.
			refused=$((refused + 1))
			feat=$("$FCGEN" describe "$s" | sed 's/^seed [0-9]*: //; s/;.*//')
			echo "seed $s: pass (the kernel refuses: $why) ($feat)"
		else
			rm -f "$log"
		fi
		continue
	fi
	if [ "$rc" -eq 77 ] && [ "$pass$failed" = 00 ]; then
		tail -n 2 "$log"
		echo "fcsoak: skipped (no loop mounts here)"
		exit 77
	fi
	failed=$((failed + 1))
	why=$(sed -n "s/^fcrand: seed $s: FAIL: //p" "$log")
	[ -n "$why" ] || why="exit $rc: $(grep -v '^scratch directory' "$log" | tail -n 1)"
	feat=$("$FCGEN" describe "$s" | sed 's/^seed [0-9]*: //; s/;.*//')
	echo "seed $s: $why ($feat)"
done
echo "$pass passed ($refused of them where the kernel refuses, each a documented kernel bug), $failed failed"
[ "$failed" -eq 0 ]
