#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# rpm.sh --- build the RPM packages (librecover.spec: librecover,
# librecover-devel, jrecover) from make dist's tarball in a fresh Debian 12
# root with Debian's rpm tools, as root, and check them:
#  1. make dist, in a copy of the tracked tree, makes the tarball (it holds
#     librecover.spec, written by configure);
#  2. a fresh root: $FRESH_ROOT_TAR (default /tmp/fresh-root.tar, a minimal
#     bookworm made by debootstrap) when it exists, else debootstrap
#     --variant=minbase makes one; apt installs rpm, rpmlint and the spec's
#     BuildRequires under their Debian names in it;
#  3. rpmbuild -ta builds the source and the three binary packages there
#     with README's command (--nodeps: that root's rpm database knows none
#     of the Debian packages that satisfy BuildRequires); rpmlint, with
#     librecover.rpmlintrc, must report no error or warning;
#  4. the files of the three packages are exactly those `make install
#     DESTDIR=...` puts in place from the same build (man pages possibly
#     compressed, and rpm's own additions aside: the %doc and %license
#     copies and /usr/lib/.build-id), each in the package the Debian split
#     gives it;
#  5. requires and provides: librecover provides its soname (read from
#     the library), librecover-devel provides pkgconfig(librecover) =
#     version and requires the exact librecover, pkgconfig(ext2fs) and
#     pkgconfig(com_err); jrecover requires the soname and the exact
#     librecover;
#  6. the packaged fsck-example.c (librecover-devel's documentation),
#     unpacked with the library, builds against them through the packaged
#     librecover.pc and replays a sample image (exit 1, then 0).
# .ci/run runs it.  Ends with "N passed, N failed"; exit 77 when not root
# or not on Debian.

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "rpm.sh: run as root (it builds in a chroot)"; exit 77; }
command -v dpkg >/dev/null 2>&1 || { echo "rpm.sh: not a Debian system"; exit 77; }

pass=0
failed=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() { echo "$pass passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

bash "$top/contrib/install-deps.sh" --packaging || exit 1

FRESH_ROOT_TAR=${FRESH_ROOT_TAR:-/tmp/fresh-root.tar}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d /tmp/librecover-rpm.XXXXXX)
root=$work/root
# Nothing of the root is removed while something is mounted in it (the
# /proc of the builds, or what a failed debootstrap left).
cleanup() {
	for m in dev/pts sys proc; do
		if mountpoint -q "$root/$m" 2>/dev/null; then
			umount "$root/$m" || { echo "rpm.sh: $root/$m still mounted, $work kept"; return; }
		fi
	done
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

echo "=== make dist"
src=$work/src
mkdir -p "$src"
(cd "$top" && git ls-files -z | tar --null -cf - -T -) | tar -xf - -C "$src"
if (cd "$src" && ./autogen.sh && ./configure --disable-tests && make dist) \
	> "$work/dist.log" 2>&1; then
	tarball=$(cd "$src" && echo librecover-*.tar.gz)
	ok "make dist made $tarball"
else
	tail -n 30 "$work/dist.log"
	bad "make dist failed"
	finish
fi
version=${tarball#librecover-}
version=${version%.tar.gz}

echo "=== a fresh root"
mkdir -p "$root"
t0=$(date +%s)
if [ -s "$FRESH_ROOT_TAR" ]; then
	tar -xf "$FRESH_ROOT_TAR" -C "$root" || { bad "$FRESH_ROOT_TAR does not unpack"; finish; }
	how="unpacked from $FRESH_ROOT_TAR"
else
	debootstrap --variant=minbase bookworm "$root" "$MIRROR" > "$work/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$work/debootstrap.log"; bad "debootstrap failed"; finish; }
	how="made by debootstrap"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$root/proc" || { bad "cannot mount /proc in the root"; finish; }
inroot() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C "$@"; }
# The BuildRequires, as Debian names them: gcc, make, pkgconfig,
# pkgconfig(ext2fs), pkgconfig(com_err), pkgconfig(blkid), pkgconfig(libisal),
# pkgconfig(cmocka); then cpio to unpack the packages.
if inroot sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	--no-install-recommends rpm rpmlint gcc libc6-dev make pkg-config \
	libext2fs-dev comerr-dev libblkid-dev libisal-dev libcmocka-dev e2fsprogs cpio' \
	> "$work/apt.log" 2>&1; then
	ok "fresh root $how, rpm tools installed ($(( $(date +%s) - t0 )) s)"
else
	tail -n 20 "$work/apt.log"
	bad "apt-get in the fresh root failed"
	finish
fi

echo "=== rpmbuild -ta $tarball"
# README's command is the one run here (--noclean added, to keep the
# build tree for step 4).
readme_cmd=$(sed -n 's/^    \(rpmbuild -ta .*\)$/\1/p' "$top/README")
if [ "$readme_cmd" = "rpmbuild -ta --nodeps $tarball" ]; then
	ok "README gives the command run here, $readme_cmd"
else
	bad "README gives '$readme_cmd', not 'rpmbuild -ta --nodeps $tarball'"
fi
mkdir -p "$root/root/src"
cp "$src/$tarball" "$root/root/src/"
t0=$(date +%s)
if inroot sh -c "cd /root/src && rpmbuild -ta --nodeps --noclean $tarball" \
	> "$work/rpmbuild.log" 2>&1; then
	ok "rpmbuild built $(cd "$root/root/rpmbuild" && echo RPMS/*/*.rpm SRPMS/*.rpm) ($(( $(date +%s) - t0 )) s)"
else
	tail -n 40 "$work/rpmbuild.log"
	bad "rpmbuild -ta failed"
	finish
fi
rel=$(inroot sh -c "rpm -qp --qf '%{RELEASE}' /root/rpmbuild/SRPMS/librecover-$version-*.src.rpm")
arch=$(inroot rpm -E '%_arch')
isa=$(inroot rpm -E '%{?_isa}')
rpmdir=/root/rpmbuild/RPMS/$arch
rpmof() { echo "$rpmdir/$1-$version-$rel.$arch.rpm"; }
for p in librecover librecover-devel jrecover; do
	[ -f "$root$(rpmof $p)" ] || { bad "no $(rpmof $p)"; finish; }
done

echo "=== rpmlint"
tar -xzf "$src/$tarball" -C "$work" "librecover-$version/librecover.spec" \
	"librecover-$version/librecover.rpmlintrc"
cp "$work/librecover-$version/librecover.spec" "$work/librecover-$version/librecover.rpmlintrc" \
	"$root/root/src/"
inroot sh -c "cd /root/src && rpmlint -r librecover.rpmlintrc librecover.spec \
	/root/rpmbuild/SRPMS/*.src.rpm $rpmdir/*.rpm" > "$work/rpmlint.log" 2>&1
cat "$work/rpmlint.log"
if grep -qE ': [EW]: ' "$work/rpmlint.log"; then
	bad "rpmlint reports errors or warnings"
elif ! grep -q 'packages and 1 specfiles checked' "$work/rpmlint.log"; then
	bad "rpmlint did not check the packages and the spec"
else
	ok "rpmlint: no error or warning"
fi

echo "=== the packages' files against make install's"
builddir=/root/rpmbuild/BUILD/librecover-$version
if inroot make -C "$builddir" install DESTDIR=/tmp/inst > "$work/install.log" 2>&1; then
	(cd "$root/tmp/inst" && find . ! -type d | sed 's/^\.//' | sort) > "$work/installed"
else
	tail -n 20 "$work/install.log"
	bad "make install DESTDIR=/tmp/inst in the rpmbuild tree failed"
fi
docdir=$(inroot rpm -E '%_defaultdocdir')
: > "$work/packaged"
for p in librecover librecover-devel jrecover; do
	inroot rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$(rpmof $p)" |
		awk '$1 !~ /^d/ { print $2 }' |
		grep -v -e '^/usr/lib/\.build-id/' -e '^/usr/share/licenses/' \
			-e "^$docdir/librecover-$version/" \
			-e "^$docdir/librecover/\(README\|COPYING\)\$" |
		sed -e 's|^\(/usr/share/man/.*\)\.\(gz\|bz2\|xz\|zst\)$|\1|' |
		sed "s|^|$p |" >> "$work/packaged"
done
cut -d' ' -f2 "$work/packaged" | sort > "$work/packaged.files"
if [ -s "$work/installed" ] && diff -u "$work/installed" "$work/packaged.files" > "$work/files.diff"; then
	ok "the packages hold exactly make install's $(wc -l < "$work/installed") files"
else
	cat "$work/files.diff"
	bad "the packages' files differ from make install's (- installed only, + packaged only)"
fi
# Each file in the package the Debian split gives it.
misplaced=$(awk '
	$1 == "librecover" && $2 !~ /\/librecover\.so\.[0-9]/ ||
	$1 == "jrecover" && $2 !~ /(\/sbin\/jrecover|\/man8\/jrecover\.8|\/completions\/jrecover)$/ ||
	$1 == "librecover-devel" && $2 !~ /(\/include\/librecover\/|\/librecover\.so$|\/pkgconfig\/librecover\.pc$|\/man3\/|\/examples\/(fsck|partition)-example\.c$)/' \
	"$work/packaged")
if [ -z "$misplaced" ]; then
	ok "each file is in its package (library; headers, .pc, man3, example; program)"
else
	bad "files in the wrong package: $misplaced"
fi

echo "=== requires and provides"
libdir=$(inroot rpm -E '%_libdir')
soname=$(inroot readelf -d "/tmp/inst$libdir/librecover.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
echo "soname: $soname"
has() { # has PACKAGE requires|provides LINE-REGEX
	inroot rpm -qp --"$2" "$(rpmof "$1")" > "$work/deps" 2>/dev/null
	if grep -qE "$3" "$work/deps"; then
		ok "$1 $2 $(grep -E "$3" "$work/deps" | head -n 1)"
	else
		sed 's/^/    /' "$work/deps"
		bad "$1 does not $2 /$3/"
	fi
}
vr="$version-$rel"
qre() { printf '%s' "$1" | sed 's/[].[()*+?^$\\]/\\&/g'; }
if [ -n "$soname" ]; then
	has librecover provides "^$(qre "$soname")\\(\\)"
	has jrecover requires "^$(qre "$soname")\\(\\)"
else
	bad "no soname read from the installed library"
fi
has librecover provides "^librecover$(qre "$isa") = $(qre "$vr")\$"
has librecover-devel provides "^pkgconfig\\(librecover\\) = $(qre "$version")\$"
has librecover-devel requires "^librecover$(qre "$isa") = $(qre "$vr")\$"
has librecover-devel requires '^pkgconfig\(ext2fs\)'
has librecover-devel requires '^pkgconfig\(com_err\)'
has jrecover requires "^librecover$(qre "$isa") = $(qre "$vr")\$"

echo "=== the packaged fsck-example.c against the packaged library"
# Unpacked with rpm2cpio into a root of its own, /tmp/pkgs: pkg-config
# finds librecover.pc there and PKG_CONFIG_SYSROOT_DIR moves its paths.
inroot sh -c "mkdir -p /tmp/pkgs && cd /tmp/pkgs &&
	for p in $(rpmof librecover) $(rpmof librecover-devel); do rpm2cpio \$p | cpio -idm --quiet || exit 1; done" ||
	bad "rpm2cpio | cpio failed"
example=$(cd "$root/tmp/pkgs" && find . -path '*/examples/fsck-example.c' | sed 's/^\.//')
if [ -n "$example" ]; then
	if inroot sh -c "cd /tmp && cp /tmp/pkgs$example . &&
		export PKG_CONFIG_SYSROOT_DIR=/tmp/pkgs PKG_CONFIG_PATH=/tmp/pkgs$libdir/pkgconfig &&
		echo cc -o fsck-example fsck-example.c \$(pkg-config --cflags --libs librecover) &&
		cc -o fsck-example fsck-example.c \$(pkg-config --cflags --libs librecover)" \
		> "$work/example.log" 2>&1; then
		cat "$work/example.log"
		ok "the packaged $example builds against librecover-devel"
	else
		cat "$work/example.log"
		bad "the packaged $example does not build against the packaged library"
	fi
else
	bad "librecover-devel holds no examples/fsck-example.c"
fi
if [ -x "$root/tmp/fsck-example" ]; then
	# /hello.txt written through the journal only (debugfs jo/jw/jc).
	inroot sh -c 'cd /tmp && truncate -s 16M base.img && mke2fs -q -F -t ext4 -b 4096 base.img &&
		cp base.img changed.img && echo packaged > hello.txt &&
		debugfs -w -R "write hello.txt hello.txt" changed.img >/dev/null 2>&1 &&
		blocks=$(cmp -l base.img changed.img | awk "{ b = int((\$1 - 1) / 4096); if (b != last) print b; last = b }" | sort -n -u) &&
		: > blocks.bin && for b in $blocks; do dd if=changed.img bs=4096 skip=$b count=1 2>/dev/null >> blocks.bin; done &&
		printf "jo\njw -b %s blocks.bin\njc\n" "$(echo $blocks | tr " " ,)" | debugfs -w -f - base.img >/dev/null 2>&1' ||
		bad "the sample image could not be made"
	inroot env LD_LIBRARY_PATH="/tmp/pkgs$libdir" /tmp/fsck-example /tmp/base.img > "$work/run1.log" 2>&1; rc1=$?
	inroot env LD_LIBRARY_PATH="/tmp/pkgs$libdir" /tmp/fsck-example /tmp/base.img > "$work/run2.log" 2>&1; rc2=$?
	if [ "$rc1" -eq 1 ] && [ "$rc2" -eq 0 ] &&
	   [ "$(inroot debugfs -R 'cat /hello.txt' /tmp/base.img 2>/dev/null)" = packaged ]; then
		ok "it replays the sample image (exit 1, then 0), /hello.txt in place"
	else
		cat "$work/run1.log" "$work/run2.log"
		bad "fsck-example exited $rc1 then $rc2 (not 1 then 0), or /hello.txt is missing"
	fi
fi

finish
