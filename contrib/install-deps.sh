#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# install-deps.sh --- install what building and testing librecover needs,
# on Debian 12 (bookworm).  Run as root; safe to run again: when every
# package is already installed it does nothing and needs no network.
#
# This is the one list of packages: the README, contrib/run-tests.sh,
# contrib/demo.sh and .ci/run all call this script.

set -euo pipefail

PACKAGES=(
	# toolchain and build system
	gcc libc6-dev make autoconf automake libtool pkg-config
	# libraries: libext2fs, com_err (and compile_et), uthash, CMocka
	libext2fs-dev comerr-dev uthash-dev libcmocka-dev
	# the oracle (e2fsck), mke2fs and debugfs for the integration tests
	e2fsprogs
	# tests/cli: jq parses --json, /usr/bin/time measures -l --json's memory,
	# bash-completion runs the completion with its helpers as well
	jq time bash-completion
	# tests/fuzz: run-fuzz.sh builds libFuzzer targets with clang
	# (-fsanitize=fuzzer needs libclang-rt's libFuzzer)
	clang libclang-rt-14-dev
	# tests/kernel: getfattr and setfattr put xattrs in the trees compared
	attr
	# coreutils (sha256sum, timeout), diffutils (cmp, diff) and mawk are
	# part of every Debian system and need no entry here
)

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
