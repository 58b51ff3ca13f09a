#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# readme.sh --- README's worked example is contrib/demo.sh's own output:
# every line of the example's indented block (but "...", which marks an
# elision) is a line the demo prints, in the same order; only the replay's
# time in seconds may differ.  A changed message or a new field in -i then
# shows here until README is brought along.  Runs the demo against this
# build, in the scratch directory.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
command -v bash >/dev/null 2>&1 || skip "bash not found (contrib/demo.sh needs it)"

NCASES=$((NCASES + 1))
run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL BUILD="$top_builddir" \
	DEMO_DIR="$SCRATCH/demo" JRECOVER="$JRECOVER" \
	bash "$top_srcdir/contrib/demo.sh" || fail "contrib/demo.sh exited $RUN_RC"
cp "$SCRATCH/.run.out" demo.out

# The example: README's indented lines from "A worked example" to the
# paragraph after the block.
sed -n '/^A worked example$/,/^The demo finally replays/p' "$top_srcdir/README" |
	sed -n 's/^    //p' > example
[ "$(wc -l < example)" -ge 20 ] ||
	fail "found only $(wc -l < example) example lines in README: the parser is wrong"

# norm: trailing blanks dropped, a report's "; 0.01 s" made "; T s".
norm() {
	sed 's/[[:space:]]*$//; s/; [0-9][0-9]*\.[0-9][0-9] s$/; T s/' "$1"
}
norm example | grep -v '^\.\.\.$' | grep -v '^$' > example.norm
norm demo.out > demo.norm
# Each example line must come, in order, among the demo's lines.
awk '
	NR == FNR { want[++n] = $0; next }
	i < n && $0 == want[i + 1] { i++ }
	END {
		if (i < n) { print "first line not found in order: " want[i + 1]; exit 1 }
	}' example.norm demo.norm > match.out 2>&1 ||
	{ sed 's/^/    /' match.out; fail "README's worked example is not what contrib/demo.sh prints"; }
say "$(wc -l < example.norm) example lines found in the demo's output, in order"

end_test
