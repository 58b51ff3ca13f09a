#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# crafted.sh --- fuzz_fc's crafted inputs (tests/fuzz/corpus/fuzz_fc/
# crafted-*) are what tests/fuzz/mkfccrafted writes, byte for byte, and
# none is missing or left over; each still gives the result mkfccrafted
# says (replayed, refused, bad-record) when fuzz_fc replays it; and the
# fixture still has the inode numbers mkfccrafted writes records for
# ("d" 11 holding "a" 12 and "b" 13, "c" 14: checked with debugfs ncheck,
# skipped without debugfs).  regress.sh replays them with the rest of the
# corpus.  After a change to mkfccrafted.c, write them again with
#     tests/fuzz/mkfccrafted $top_srcdir/tests/fuzz/corpus/fuzz_fc
#
# Environment: top_srcdir, top_builddir (set by make check).

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
gen=$top_builddir/tests/fuzz/mkfccrafted
fuzz=$top_builddir/tests/fuzz/fuzz_fc
corpus=$top_srcdir/tests/fuzz/corpus/fuzz_fc
for b in "$gen" "$fuzz"; do
	[ -x "$b" ] || { echo "ERROR: $b not built"; exit 99; }
done
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
rc=0

mkdir "$tmp/new" && "$gen" "$tmp/new" && "$gen" -l > "$tmp/list" ||
	{ echo "ERROR: mkfccrafted failed"; exit 99; }

# The same files, the same bytes.
for f in "$tmp"/new/*; do
	n=$(basename "$f")
	if ! cmp -s "$f" "$corpus/$n"; then
		echo "FAIL: $n: not as mkfccrafted writes it (missing or different)"
		rc=1
	fi
done
for f in "$corpus"/crafted-*; do
	[ -e "$f" ] || continue
	n=$(basename "$f")
	if [ ! -e "$tmp/new/$n" ]; then
		echo "FAIL: $n: mkfccrafted writes no such input"
		rc=1
	fi
done

# What each replay returns (FUZZ_VERBOSE: "..., N replayed: MESSAGE").
while read -r n want; do
	msg=$(FUZZ_VERBOSE=1 "$fuzz" "$tmp/new/$n" 2>&1 |
		sed -n 's/^fuzz_fc: area .* replayed: //p')
	case $msg in
	ok) got=replayed ;;
	*"cannot be replayed"*) got=refused ;;
	*"outside the filesystem"*) got=bad-record ;;
	*) got="'$msg'" ;;
	esac
	if [ "$got" != "$want" ]; then
		echo "FAIL: $n: $got, not $want"
		rc=1
	fi
done < "$tmp/list"

# The fixture's inode numbers.
if command -v debugfs > /dev/null 2>&1; then
	printf '\000' > "$tmp/empty"
	FUZZ_DIGEST=1 FUZZ_IMAGE="$tmp/img" "$fuzz" "$tmp/empty" > /dev/null 2>&1
	got=$(debugfs -R "ncheck 11 12 13 14" "$tmp/img" 2>/dev/null |
		tr '\t' ' ' | grep -v '^Inode' | sed 's|//*|/|g' | sort -n |
		tr '\n' ' ')
	want="11 /d 12 /d/a 13 /d/b 14 /c "
	if [ "$got" != "$want" ]; then
		echo "FAIL: the fixture's inodes are '$got', not '$want'"
		rc=1
	fi
else
	echo "debugfs not found: the fixture's inode numbers not checked"
fi
[ "$rc" -ne 0 ] || echo "PASS: $(wc -l < "$tmp/list") crafted inputs"
exit "$rc"
