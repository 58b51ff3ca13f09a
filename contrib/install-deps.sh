#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# install-deps.sh --- install what building librecover needs, on Debian 12
# (bookworm), and with options what testing and packaging it need too.
# Run as root; safe to run again: when every package is already installed
# it does nothing and needs no network.
#
#   bash contrib/install-deps.sh               build, and run contrib/demo.sh
#   bash contrib/install-deps.sh --tests       also the test suite's tools
#                                              (contrib/run-tests.sh)
#   bash contrib/install-deps.sh --packaging   also the Debian packaging tools
#                                              (tests/packaging/debian.sh), and
#                                              debootstrap for the fresh root
#                                              of tests/packaging/rpm.sh
#
# This is the one list of packages: the README, contrib/run-tests.sh,
# contrib/demo.sh, tests/packaging/debian.sh and .ci/run all call it.

set -euo pipefail

PACKAGES=(
	# toolchain and build system
	gcc libc6-dev make autoconf automake libtool pkg-config
	# libraries: libext2fs, com_err (and compile_et); CMocka, which
	# configure wants unless --disable-tests
	libext2fs-dev comerr-dev libcmocka-dev
	# libblkid: jrecover takes UUID= and LABEL= as e2fsck does
	libblkid-dev
	# crc32c with the CPU's crc32 instruction (libext2fs's is the fallback)
	libisal-dev
	# mke2fs and debugfs for the demo image; e2fsck, the oracle
	e2fsprogs
	# coreutils (sha256sum, timeout), diffutils (cmp, diff) and mawk are
	# part of every Debian system and need no entry here
)
TEST_PACKAGES=(
	# tests/cli: jq parses --json, /usr/bin/time measures -l --json's memory,
	# bash-completion runs the completion with its helpers as well;
	# linking.sh builds a C++ caller of the library
	jq time bash-completion g++
	# tests/fuzz: run-fuzz.sh builds libFuzzer targets with clang
	# (-fsanitize=fuzzer needs libclang-rt's libFuzzer); llvm-14 ships the
	# llvm-symbolizer beside that clang, so a sanitizer report names
	# functions and lines (only a Recommends of clang-14)
	clang libclang-rt-14-dev llvm-14
	# the uthash baseline of the revoke-table benchmark
	uthash-dev
	# tests/kernel: getfattr and setfattr put xattrs in the trees compared
	attr
	# bench/run.sh counts the write requests of jrecover and e2fsck
	strace
	# tests/cross/big-endian.sh: an s390x build run under qemu-user, the
	# clock stopped by libfaketime (its s390x libraries it fetches itself;
	# the cross C library is only a Recommends of the cross compiler)
	gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user faketime libfaketime
)
PACKAGING_PACKAGES=(
	build-essential dpkg-dev debhelper fakeroot lintian
	# tests/packaging/rpm.sh: a fresh root, where rpm itself goes
	debootstrap
)

for arg in "$@"; do
	case $arg in
	--tests) PACKAGES+=("${TEST_PACKAGES[@]}") ;;
	--packaging) PACKAGES+=("${PACKAGING_PACKAGES[@]}") ;;
	-h|--help) sed -n '4,18p' "$0"; exit 0 ;;
	*) echo "usage: $0 [--tests] [--packaging]" >&2; exit 16 ;;
	esac
done

missing=()
for p in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all ${#PACKAGES[@]} packages already installed"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}" >&2
	echo "install-deps: run this script as root to install them" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	"${missing[@]}"
