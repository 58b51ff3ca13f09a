#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# debian.sh --- build the Debian packages and use them as an admin and a
# library user would, on Debian 12, as root:
#  1. contrib/install-deps.sh --packaging installs the packaging tools;
#  2. dpkg-buildpackage -us -uc -b, in a copy of the tracked tree, makes
#     jrecover, librecover0 and librecover-dev; lintian must report no
#     error or warning;
#  3. apt installs the three; /sbin/jrecover --version runs, and replays a
#     sample image (exit 1, then 0 on a second run, and e2fsck -fn finds
#     it clean, with the file the journal held in place);
#  4. the fsck-example.c librecover-dev installs (in
#     /usr/share/doc/librecover-dev/examples, the same as contrib's) builds
#     against it with the documented command, cc fsck-example.c
#     $(pkg-config --cflags --libs librecover), and replays another copy;
#  5. the packages are removed again (purged) unless they were installed
#     before the test.
# .ci/run runs it; in a brand-new Debian 12 root it needs nothing but git,
# gcc and make to start from.  Ends with
# "N passed, N failed".

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "debian.sh: run as root (apt installs the packages)"; exit 77; }
command -v dpkg >/dev/null 2>&1 || { echo "debian.sh: not a Debian system"; exit 77; }

pass=0
failed=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

bash "$top/contrib/install-deps.sh" --packaging || exit 1

work=$(mktemp -d /tmp/librecover-deb.XXXXXX)
preinstalled=$(dpkg-query -W -f='${Package} ${Status}\n' jrecover librecover0 \
	librecover-dev 2>/dev/null | grep -c ' installed$' || true)
cleanup() {
	if [ "$preinstalled" -eq 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -q jrecover \
			librecover-dev librecover0 > /dev/null 2>&1 || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

version=$(sed -n '1s/^librecover (\([^)]*\)).*/\1/p' "$top/debian/changelog")
src=$work/librecover-$version
mkdir -p "$src"
# The tracked files only: no build directory or scratch file of this tree.
(cd "$top" && git ls-files -z | tar --null -cf - -T -) | tar -xf - -C "$src"

echo "=== dpkg-buildpackage -us -uc -b"
if (cd "$src" && dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1; then
	ok "dpkg-buildpackage built $(cd "$work" && echo ./*.deb)"
else
	tail -n 40 "$work/build.log"
	bad "dpkg-buildpackage failed"
	echo "$pass passed, $failed failed"
	exit 1
fi

echo "=== lintian"
lintian --allow-root "$work"/librecover_*.changes > "$work/lintian.log" 2>&1
cat "$work/lintian.log"
if grep -qE '^[EW]: ' "$work/lintian.log"; then
	bad "lintian reports errors or warnings"
else
	ok "lintian: no error or warning"
fi

echo "=== apt-get install"
debs=()
for p in jrecover librecover0 librecover-dev; do
	debs+=("$work/${p}_${version}_$(dpkg --print-architecture).deb")
done
if DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${debs[@]}" \
	> "$work/apt.log" 2>&1; then
	ok "apt installed jrecover, librecover0 and librecover-dev"
else
	tail -n 20 "$work/apt.log"
	bad "apt-get install of the packages failed"
fi

if out=$(/sbin/jrecover --version) && [[ $out == "jrecover $version "* ]]; then
	ok "/sbin/jrecover --version: $out"
else
	bad "/sbin/jrecover --version printed '$out'"
fi

# A sample image: /hello.txt written through the journal only.
cd "$work"
truncate -s 16M base.img
mke2fs -q -F -t ext4 -b 4096 base.img
cp --sparse=always base.img changed.img
echo "replayed by the packaged jrecover" > hello.txt
debugfs -w -R "write hello.txt hello.txt" changed.img > /dev/null 2>&1
blocks=$( { cmp -l base.img changed.img || true; } |
	awk '{ b = int(($1 - 1) / 4096); if (b != last) print b; last = b }' | sort -n -u)
: > blocks.bin
for b in $blocks; do
	dd if=changed.img bs=4096 skip="$b" count=1 2>/dev/null >> blocks.bin
done
debugfs -w -f - base.img > /dev/null 2>&1 <<CMDS
jo
jw -b $(echo $blocks | tr ' ' ,) blocks.bin
jc
CMDS
cp --sparse=always base.img example.img

/sbin/jrecover base.img; rc=$?
[ "$rc" -eq 1 ] && ok "the packaged jrecover replayed the sample image (exit 1)" ||
	bad "the packaged jrecover exited $rc on the sample image, not 1"
/sbin/jrecover -q base.img; rc=$?
[ "$rc" -eq 0 ] && ok "a second run finds nothing to do (exit 0)" ||
	bad "a second run exited $rc, not 0"
if e2fsck -fn base.img > e2fsck.log 2>&1 &&
   [ "$(debugfs -R 'cat /hello.txt' base.img 2>/dev/null)" = "replayed by the packaged jrecover" ]; then
	ok "e2fsck -fn finds the replayed image clean, /hello.txt in place"
else
	cat e2fsck.log
	bad "the replayed image is not clean or lacks /hello.txt"
fi

echo "=== cc fsck-example.c \$(pkg-config --cflags --libs librecover)"
example=/usr/share/doc/librecover-dev/examples/fsck-example.c
if cmp -s "$example" "$top/contrib/fsck-example.c"; then
	ok "librecover-dev installs contrib/fsck-example.c as $example"
else
	bad "librecover-dev does not install contrib/fsck-example.c as $example"
fi
cp "$example" .
# shellcheck disable=SC2046
if cc -o fsck-example fsck-example.c $(pkg-config --cflags --libs librecover); then
	ok "the installed fsck-example.c builds against librecover-dev"
	./fsck-example example.img; rc=$?
	[ "$rc" -eq 1 ] && ok "fsck-example replayed a copy (exit 1)" ||
		bad "fsck-example exited $rc, not 1"
else
	bad "the installed fsck-example.c does not build against librecover-dev"
fi

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
