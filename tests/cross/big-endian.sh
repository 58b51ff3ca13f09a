#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# big-endian.sh --- the library built for a big-endian host (s390x, with
# Debian's cross compiler) and run under qemu-user: its unit tests pass;
# the fuzz targets' replayers leave, input by input, the same image bytes
# as the native (little-endian) build does, over the seed corpora and the
# saved crash inputs (tests/fuzz/); and the oracle tests and the kernel's
# fast-commit tests pass with the s390x jrecover as the binary under test.
# The journal is big-endian and ext4 little-endian, so every field the
# library reads or writes by hand is checked here on the host where a
# missing conversion shows.
#
# usage: tests/cross/big-endian.sh NATIVE_BUILDDIR [CROSS_BUILDDIR]
#   NATIVE_BUILDDIR  a configured build of this tree (built here as needed)
#   CROSS_BUILDDIR   where the s390x build and its libraries go
#                    (default: NATIVE_BUILDDIR/../build-s390x)
#
# Needs gcc-s390x-linux-gnu, qemu-user and faketime (contrib/install-deps.sh
# --tests).  The s390x libraries (libext2fs, libcom_err, libblkid, CMocka,
# libfaketime) are fetched with apt-get download into CROSS_BUILDDIR/sysroot,
# with an apt state of its own: the machine's apt and dpkg configuration are
# not touched.
# libfaketime stops the clock in both runs, as the replay stamps times.
#
# One difference is libext2fs's own and is kept out of the corpora: an
# INODE record whose i_extra_isize is below 4 and not a multiple of 4 (one
# the kernel and e2fsck both refuse, and librecover still replays).
# libext2fs 1.47.0's ext2fs_inode_csum_set() reads i_extra_isize of the
# on-disk copy without converting it, so a big-endian host takes 1 for 256
# and also sets i_checksum_hi.
#
# Exit: 0 all agree, 1 a difference or a failed test, 77 a tool missing,
# 99 the setup failed.

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
native=$(cd "${1:?usage: $0 NATIVE_BUILDDIR [CROSS_BUILDDIR]}" && pwd) || exit 99
cross=${2:-$native/../build-s390x}
triplet=s390x-linux-gnu

say() { echo "big-endian: $*"; }
die() { say "$*" >&2; exit 99; }

for tool in $triplet-gcc qemu-s390x faketime apt-get dpkg-deb; do
	command -v "$tool" > /dev/null ||
		{ say "SKIP: $tool not found (contrib/install-deps.sh --tests)"; exit 77; }
done
le_faketime=$(dpkg -L libfaketime 2>/dev/null | grep '/libfaketime.so.1$' | head -n 1)
[ -n "$le_faketime" ] || { say "SKIP: libfaketime.so.1 not found"; exit 77; }

mkdir -p "$cross" && cross=$(cd "$cross" && pwd) || die "cannot make $cross"
root=$cross/sysroot
apt=$cross/apt
libdirs=$root/lib/$triplet:$root/usr/lib/$triplet

# ---- the s390x libraries, from the machine's own Debian mirror -------------
if [ ! -f "$root/.done" ]; then
	rm -rf "$root" "$apt"
	mkdir -p "$root" "$apt/lists/partial" "$apt/cache/archives/partial" \
		"$apt/debs" || die "cannot make $apt"
	: > "$apt/status"
	opts=(-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
	      -o Dir::State::status="$apt/status" -o Debug::NoLocking=1
	      -o APT::Architecture=s390x -o APT::Architectures::=s390x)
	apt-get "${opts[@]}" -qq update > "$apt/update.log" 2>&1 ||
		{ cat "$apt/update.log"; die "apt-get update (s390x) failed"; }
	(cd "$apt/debs" && apt-get "${opts[@]}" -qq download libext2fs2 \
		libext2fs-dev libcom-err2 comerr-dev libcmocka0 libcmocka-dev \
		libblkid1 libblkid-dev libfaketime) > "$apt/download.log" 2>&1 ||
		{ cat "$apt/download.log"; die "apt-get download (s390x) failed"; }
	for deb in "$apt"/debs/*.deb; do
		dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x $deb failed"
	done
	# The development links point at /lib/...: into the sysroot instead.
	find "$root" -type l | while read -r link; do
		target=$(readlink "$link")
		case $target in
		/*) ln -sfn "$root$target" "$link" ;;
		esac
	done
	touch "$root/.done"
fi
be_faketime=$(find "$root" -name libfaketime.so.1 | head -n 1)
[ -n "$be_faketime" ] || die "no s390x libfaketime.so.1 in $root"

# ---- both builds -------------------------------------------------------------
progs="tests/fuzz/fuzz_replay tests/fuzz/fuzz_fc"
units="rtable jbd2 features fc fc_replay passes sha256 errname abi"
{ make -C "$native" -j2 all && make -C "$native" -j2 $progs; } \
	> "$cross/native-make.log" 2>&1 ||
	{ tail -n 30 "$cross/native-make.log"; die "the native build failed"; }
if [ ! -f "$cross/Makefile" ]; then
	(cd "$cross" &&
	 PKG_CONFIG_LIBDIR=$root/usr/lib/$triplet/pkgconfig:$root/usr/share/pkgconfig \
	 PKG_CONFIG_SYSROOT_DIR=$root \
	 "$top/configure" --host=$triplet --disable-shared \
		CPPFLAGS="-I$root/usr/include" \
		LDFLAGS="-L$root/usr/lib/$triplet -L$root/lib/$triplet -Wl,-rpath-link,$root/lib/$triplet -Wl,-rpath-link,$root/usr/lib/$triplet") \
		> "$cross/configure.log" 2>&1 ||
		{ tail -n 30 "$cross/configure.log"; die "configure --host=$triplet failed"; }
fi
{ make -C "$cross" -j2 all &&
  make -C "$cross" -j2 $progs $(for u in $units; do echo "tests/unit/${u}_test"; done)
} > "$cross/make.log" 2>&1 ||
	{ tail -n 30 "$cross/make.log"; die "the $triplet build failed"; }

# A program of the s390x build, run under qemu with the clock stopped.
be_run() {
	qemu-s390x -L /usr/$triplet -E LD_LIBRARY_PATH="$libdirs" \
		-E LD_PRELOAD="$be_faketime" -E "FAKETIME=2024-01-01 00:00:00" \
		-E FAKETIME_DONT_FAKE_MONOTONIC=1 -E FUZZ_DIGEST=1 \
		-E top_srcdir="$top" "$@"
}
le_run() {
	env LD_PRELOAD="$le_faketime" "FAKETIME=2024-01-01 00:00:00" \
		FAKETIME_DONT_FAKE_MONOTONIC=1 FUZZ_DIGEST=1 "$@"
}

failed=0
# ---- the unit tests ----------------------------------------------------------
for u in $units; do
	if be_run "$cross/tests/unit/${u}_test" > "$cross/${u}_test.log" 2>&1; then
		say "ok: ${u}_test passes on $triplet"
	else
		say "FAIL: ${u}_test on $triplet (log: $cross/${u}_test.log)"
		tail -n 20 "$cross/${u}_test.log"
		failed=1
	fi
done

# ---- the same bytes, input by input ----------------------------------------
for t in fuzz_replay fuzz_fc; do
	set --
	for d in "$top/tests/fuzz/corpus/$t" "$top/tests/fuzz/regress/$t"; do
		[ -d "$d" ] && set -- "$@" "$d"
	done
	le_run "$native/tests/fuzz/$t" "$@" 2> "$cross/$t-le.err" |
		grep -v ' input(s) run$' > "$cross/$t-le.txt"
	be_run "$cross/tests/fuzz/$t" "$@" 2> "$cross/$t-be.err" |
		grep -v ' input(s) run$' > "$cross/$t-be.txt"
	n=$(wc -l < "$cross/$t-le.txt")
	if [ "$n" -eq 0 ]; then
		say "FAIL: $t gave no digest (log: $cross/$t-le.err)"
		failed=1
	elif diff "$cross/$t-le.txt" "$cross/$t-be.txt" > "$cross/$t.diff"; then
		say "ok: $t: the $n inputs leave the same bytes on $triplet"
	else
		say "FAIL: $t: $(grep -c '^<' "$cross/$t.diff") of $n inputs leave other bytes on $triplet (- native, + $triplet):"
		head -n 20 "$cross/$t.diff"
		say "look at one: FUZZ_DIGEST=1 FUZZ_IMAGE=FILE runs it and writes its image"
		failed=1
	fi
done

# ---- jrecover itself against e2fsck and the kernel ---------------------------
# The oracle tests and the kernel's fast-commit tests of the native build,
# with the s390x jrecover as the binary under test (the images, e2fsck and
# the kernel are the host's).  Their summary goes to a log of its own, so
# that the native suite's test-suite.log stays as it was.
wrapper=$cross/jrecover-qemu
printf '#!/bin/sh\nexec qemu-s390x -L /usr/%s -E LD_LIBRARY_PATH=%s %s "$@"\n' \
	"$triplet" "$libdirs" "$cross/src/jrecover" > "$wrapper" &&
	chmod +x "$wrapper" || die "cannot write $wrapper"
tests=$(sed -n 's|^[[:space:]]*\(tests/oracle/[a-z0-9-]*\.sh\).*|\1|p' \
	"$top/tests/oracle/Makefile.inc")
tests="$(echo $tests) tests/kernel/fc.sh tests/kernel/fcrand.sh"
if JRECOVER=$wrapper make -C "$native" -j2 check TESTS="$tests" \
	TEST_SUITE_LOG=big-endian-suite.log > "$cross/suite.out" 2>&1; then
	say "ok: $(grep -c '^PASS' "$cross/suite.out") oracle and fast-commit test scripts pass with the $triplet jrecover ($(grep -c '^SKIP' "$cross/suite.out") skipped)"
else
	say "FAIL: the oracle and fast-commit tests with the $triplet jrecover:"
	grep -E '^(PASS|FAIL|ERROR|SKIP|XPASS)' "$cross/suite.out"
	say "their logs: $native/tests/oracle/*.log, $native/tests/kernel/fc*.log"
	failed=1
fi
exit "$failed"
