#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# demo.sh --- jrecover on a sample image whose journal needs recovery.
#
# Builds the project in build/ if that has not been done, then:
#  1. makes a 32 MiB ext4 image, and a copy of it in which debugfs creates
#     /docs and writes /docs/hello.txt;
#  2. logs every block that differs between the two into the first image's
#     journal as one committed transaction (debugfs jo/jw/jc), the way the
#     kernel would have before a crash, and sets needs_recovery;
#  3. shows the journal with `jrecover -i`, replays it with `jrecover`, and
#     shows that /docs/hello.txt is back and that `e2fsck -fn` finds the
#     filesystem clean;
#  4. replays a second copy with `e2fsck -E journal_only` and compares the
#     two results byte for byte.
# Everything happens in build/demo/, which is made afresh on each run.
# The image is reproducible (fixed UUID, hash seed and clock), so that the
# README's worked example can be this script's own output:
# tests/cli/readme.sh checks that it is.  BUILD names another build
# directory, DEMO_DIR another scratch directory.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
jrecover=${JRECOVER:-$build/src/jrecover}

if [ ! -x "$jrecover" ]; then
	echo "demo: building jrecover in $build"
	cd "$top"
	[ -x configure ] || ./autogen.sh
	mkdir -p "$build"
	cd "$build"
	"$top/configure" > configure.out 2>&1 ||
		{ cat configure.out; echo "demo: configure failed" >&2; exit 1; }
	make -j2
fi
# the byte-for-byte comparison program of the test suite
make -C "$build" -s tests/integration/imgcmp >/dev/null

demo=${DEMO_DIR:-$build/demo}
rm -rf "$demo"
mkdir -p "$demo"
cd "$demo"

step() {
	printf '\n### %s\n' "$*"
}
# show CMD ARGS...: the command line as a reader would type it (jrecover
# by its name, not its path), then its output.
show() {
	local shown=("$@")
	[ "$1" = "$jrecover" ] && shown[0]=jrecover
	printf '$ %s\n' "${shown[*]}"
	"$@"
}

step "1. a filesystem, and a copy with a directory and a file added"
# mke2fs and debugfs take their clock from E2FSPROGS_FAKE_TIME.
export E2FSPROGS_FAKE_TIME=1700000000
mke2fs -q -F -t ext4 -b 4096 -L demo -U 6f2d0c1e-3b4a-4c5d-9e8f-a1b2c3d4e5f6 \
	-E hash_seed=3b9ac9ff-4c1d-4f2e-8a3b-6c5d4e3f2a1b demo.img 32M > /dev/null
cp --sparse=always demo.img changed.img
cat > hello.txt <<'TXT'
Hello from the journal.  This file was written only to the journal of
demo.img; jrecover replayed it into place.
TXT
debugfs -w -f - changed.img > /dev/null 2>&1 <<'CMDS'
mkdir docs
write hello.txt docs/hello.txt
CMDS

step "2. every changed block logged in demo.img's journal (one transaction)"
bs=4096
# cmp -l numbers the differing bytes from 1; turn them into block numbers.
blocks=$( { cmp -l demo.img changed.img || true; } | awk -v bs=$bs '
	{ b = int(($1 - 1) / bs); if (b != last) print b; last = b }' |
	sort -n -u)
: > blocks.bin
for b in $blocks; do
	dd if=changed.img bs=$bs skip="$b" count=1 2>/dev/null >> blocks.bin
done
list=$(echo "$blocks" | paste -s -d, -)
echo "$(echo "$blocks" | wc -w) blocks: $list"
debugfs -w -f - demo.img > /dev/null 2>&1 <<CMDS
jo -c
jw -b $list blocks.bin
jc
CMDS
show debugfs -R "logdump" demo.img 2>/dev/null
echo "\$ dumpe2fs -h demo.img | grep ..."
dumpe2fs -h demo.img 2>/dev/null |
	grep -E "^(Filesystem features|Journal (features|sequence|start))"
show debugfs -R "ls /" demo.img 2>/dev/null
cp --sparse=always demo.img e2fsck.img

step "3. jrecover"
show "$jrecover" -i demo.img
rc=0
show "$jrecover" demo.img || rc=$?
echo "jrecover exited $rc (1: journal recovered, filesystem changed)"
show debugfs -R "cat /docs/hello.txt" demo.img 2>/dev/null
rc=0
show e2fsck -fn demo.img || rc=$?
echo "e2fsck -fn exited $rc (0: clean; the free counts in the superblock are"
echo "only hints, which the kernel and e2fsck recompute)"
rc=0
show "$jrecover" demo.img || rc=$?
echo "a second run exited $rc (0: nothing to do)"

step "4. the same journal replayed by e2fsck -E journal_only"
show e2fsck -y -E journal_only e2fsck.img || true
show "$build/tests/integration/imgcmp" -s demo.img e2fsck.img &&
	echo "identical, except s_wtime, s_kbytes_written and the superblock checksum"
