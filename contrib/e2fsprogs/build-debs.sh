#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-debs.sh --- Debian 12's e2fsprogs 1.47.0-2 with contrib/e2fsprogs'
# series as Debian packages, built and installed in fresh roots, as root:
#
#   bash contrib/e2fsprogs/build-debs.sh WORKDIR
#
#   1. WORKDIR/base: debootstrap --variant=minbase bookworm, from the
#      Debian mirror the machine's apt sources name (kept and reused);
#   2. WORKDIR/build, a copy of it: this checkout's librecover packages
#      (dpkg-buildpackage, nocheck) installed there; e2fsprogs' source
#      (apt-get source), the series added to its debian/patches, librecover-dev
#      to its Build-Depends, --with-librecover to debian/rules'
#      COMMON_CONF_FLAGS, a changelog entry (1.47.0-2+librecover1); its
#      build dependencies (apt-get build-dep), dpkg-buildpackage -b
#      (DEB_BUILD_OPTIONS=nocheck: compare-tests.sh runs the tests;
#      DEB_BUILD_PROFILES=pkg.e2fsprogs.no-static: no e2fsck-static, as
#      librecover cannot be linked statically on Debian 12, whose
#      libisal-dev ships no libisal.a);
#   3. WORKDIR/install, another copy of base: the resulting e2fsprogs,
#      libext2fs2, libss2, libcom-err2, logsave and librecover0 installed
#      with apt; its /sbin/e2fsck must link librecover.so.0;
#   4. with BUILDDIR (a build of this checkout: bench/mkbench, bench/sparsecmp,
#      src/jrecover) as a second argument: the LU-14958 shape image
#      (bench/mkbench), e2fsck -fy of a copy in the installed root, timed,
#      and its e2fsck -y -E journal_only result against jrecover's
#      (sparsecmp).
# The debs are left in WORKDIR/debs (BUILD_DEBS_REUSE=1 installs those
# again, skipping step 2).  Ends with "N passed, N failed".

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "build-debs: run as root (debootstrap, chroot)" >&2; exit 77; }
work=${1:?usage: $0 WORKDIR [BUILDDIR]}
builddir=${2:-}
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ -n "$builddir" ] && builddir=$(cd "$builddir" && pwd)
NICE="nice -n 10"
pass=0
failed=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

mirror=$(awk '/^URIs:/ && $2 ~ /debian\/?$/ { print $2; exit }' \
	/etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ { print $2; exit }' \
	/etc/apt/sources.list 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}

mounted=()
cleanup() {
	local m
	for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || true; done
}
trap cleanup EXIT
in_root() {
	local root=$1
	shift
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}
fresh_root() {
	local root=$work/$1
	rm -rf "$root"
	cp -a "$work/base" "$root"
	mount --bind /proc "$root/proc"
	mounted+=("$root/proc")
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
	cat > "$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb-src $mirror bookworm main
EOF
	in_root "$root" apt-get update -q > "$work/$1-update.log" 2>&1
}

# 1. the base root
if [ ! -x "$work/base/usr/bin/apt-get" ]; then
	echo "== debootstrap bookworm $work/base ($mirror)"
	rm -rf "$work/base"
	$NICE debootstrap --variant=minbase bookworm "$work/base" "$mirror" \
		> "$work/debootstrap.log" 2>&1
fi

# 2. the build root (BUILD_DEBS_REUSE=1: the debs of an earlier run, kept
# in WORKDIR/debs, are installed again instead)
if [ "${BUILD_DEBS_REUSE:-0}" = 1 ] && ls "$work"/debs/e2fsprogs_*.deb > /dev/null 2>&1; then
	echo "== reusing the packages in $work/debs"
else
echo "== $work/build: librecover's packages, then e2fsprogs'"
fresh_root build
b=$work/build
mkdir -p "$b/src/librecover"
git -C "$top" archive HEAD | tar -x -C "$b/src/librecover"
in_root "$b" apt-get install -y -q --no-install-recommends build-essential \
	dpkg-dev debhelper fakeroot autoconf automake libtool > "$work/tools.log" 2>&1
in_root "$b" apt-get build-dep -y -q /src/librecover > "$work/lr-deps.log" 2>&1
if in_root "$b" sh -c 'cd /src/librecover && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b' \
	> "$work/lr-build.log" 2>&1; then
	ok "librecover packages built"
else
	bad "librecover packages ($work/lr-build.log)"; echo "$pass passed, $failed failed"; exit 1
fi
in_root "$b" sh -c 'apt-get install -y -q /src/librecover0_*.deb /src/librecover-dev_*.deb' \
	> "$work/lr-install.log" 2>&1
in_root "$b" sh -c 'cd /src && apt-get source -q e2fsprogs=1.47.0-2' > "$work/source.log" 2>&1
e=$b/src/e2fsprogs-1.47.0
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	cp "$here/$p" "$e/debian/patches/$p"
	echo "$p" >> "$e/debian/patches/series"
done < "$here/series"
sed -i 's/^Build-Depends: /Build-Depends: librecover-dev, /' "$e/debian/control"
sed -i 's/^\t\$(BACKTRACE_CONF_FLAGS) \${EXTRA_CONF_FLAGS}$/\t$(BACKTRACE_CONF_FLAGS) --with-librecover ${EXTRA_CONF_FLAGS}/' \
	"$e/debian/rules"
grep -q -- '--with-librecover' "$e/debian/rules" || { bad "debian/rules not changed"; exit 1; }
{
	echo "e2fsprogs (1.47.0-2+librecover1) bookworm; urgency=medium"
	echo
	echo "  * Journal replay of e2fsck, tune2fs and debugfs through librecover"
	echo "    (librecover's contrib/e2fsprogs series, --with-librecover)."
	echo
	echo " -- librecover developers <librecover@example.org>  $(date -R)"
	echo
	cat "$e/debian/changelog"
} > "$e/debian/changelog.new"
mv "$e/debian/changelog.new" "$e/debian/changelog"
in_root "$b" apt-get build-dep -y -q /src/e2fsprogs-1.47.0 > "$work/e2-deps.log" 2>&1
t0=$(date +%s)
if in_root "$b" sh -c 'cd /src/e2fsprogs-1.47.0 && DEB_BUILD_OPTIONS="nocheck parallel=2" DEB_BUILD_PROFILES=pkg.e2fsprogs.no-static nice dpkg-buildpackage -us -uc -b' \
	> "$work/e2-build.log" 2>&1; then
	ok "e2fsprogs packages built in $(( $(date +%s) - t0 )) s"
else
	bad "e2fsprogs packages ($work/e2-build.log)"; echo "$pass passed, $failed failed"; exit 1
fi
rm -rf "$work/debs"
mkdir -p "$work/debs"
cp "$b"/src/*.deb "$work/debs/"
ls "$work/debs"
fi

# 3. the install root
echo "== $work/install: the packages installed"
fresh_root install
i=$work/install
mkdir -p "$i/debs"
cp "$work"/debs/e2fsprogs_*.deb "$work"/debs/libext2fs2_*.deb "$work"/debs/libss2_*.deb \
	"$work"/debs/libcom-err2_*.deb "$work"/debs/logsave_*.deb \
	"$work"/debs/librecover0_*.deb "$i/debs/"
if in_root "$i" sh -c 'apt-get install -y -q --allow-downgrades /debs/*.deb' > "$work/install.log" 2>&1; then
	ok "installed: $(in_root "$i" dpkg-query -W -f='${Package} ${Version}, ' e2fsprogs libext2fs2 librecover0)"
else
	bad "apt install ($work/install.log)"
fi
in_root "$i" ldd /sbin/e2fsck > "$work/ldd.log" 2>&1 || true
if grep -q 'librecover.so.0' "$work/ldd.log"; then
	ok "/sbin/e2fsck links librecover.so.0"
else
	bad "/sbin/e2fsck does not link librecover"
fi

# 4. the LU-14958 shape, replayed by the installed e2fsck
if [ -n "$builddir" ]; then
	echo "== the LU-14958 shape in $i/tmp"
	eval "$("$builddir/bench/mkbench" -p -c -t 1858 -l 50 -H 1 30489150)"
	img=$i/tmp/lu.img
	rm -f "$img"
	mke2fs -q -F -t ext4 -b 4096 -O 64bit,metadata_csum -J size="$JOURNAL_MIB" \
		-E lazy_itable_init=1,lazy_journal_init=1 "$img" "${IMAGE_MIB}M"
	$NICE "$builddir/bench/mkbench" -c -t 1858 -l 50 -H 1 "$img" 30489150 > /dev/null
	cp --sparse=always "$img" "$i/tmp/lu-j.img"
	cp --sparse=always "$img" "$i/tmp/lu-jr.img"
	t0=$(date +%s.%N)
	rc=0
	in_root "$i" timeout 600 e2fsck -fy /tmp/lu.img > "$work/lu-fy.log" 2>&1 || rc=$?
	t1=$(date +%s.%N)
	fy=$(echo "$t1 - $t0" | bc)
	[ "$rc" -le 1 ] && ok "e2fsck -fy of the LU-14958 shape: exit $rc in $fy s" ||
		bad "e2fsck -fy of the LU-14958 shape: exit $rc ($work/lu-fy.log)"
	t0=$(date +%s.%N)
	in_root "$i" e2fsck -y -E journal_only /tmp/lu-j.img > "$work/lu-j.log" 2>&1 || true
	t1=$(date +%s.%N)
	"$builddir/src/jrecover" "$i/tmp/lu-jr.img" > "$work/lu-jr.log" 2>&1 || true
	if "$builddir/bench/sparsecmp" "$i/tmp/lu-j.img" "$i/tmp/lu-jr.img" > "$work/lu-cmp.log" 2>&1; then
		ok "its journal replay ($(echo "$t1 - $t0" | bc) s) is jrecover's, byte for byte"
	else
		bad "its journal replay differs from jrecover's ($work/lu-cmp.log)"
	fi
	rm -f "$img" "$i/tmp/lu-j.img" "$i/tmp/lu-jr.img"
fi
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
