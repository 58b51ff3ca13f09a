#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-source.sh --- fetch e2fsprogs 1.47.0 as Debian 12 (bookworm) ships
# it, the ordinary way: `apt-get source e2fsprogs`.
#
#   bash contrib/e2fsprogs/fetch-source.sh DIR
#
# Leaves in DIR Debian's e2fsprogs_1.47.0.orig.tar.gz, its .debian.tar.xz
# and .dsc, and the unpacked tree e2fsprogs-1.47.0 (Debian's patch applied
# by dpkg-source).  apt-get source needs a deb-src entry; when the
# machine's apt sources have none, this script (run as root) adds one in
# /etc/apt/sources.list.d/librecover-deb-src.sources naming the same
# mirror and suites as the machine's own "deb" entry for Debian, then runs
# apt-get update.  Safe to run again: an existing tree is left alone.

set -euo pipefail

dir=${1:?usage: $0 DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

has_deb_src() {
	grep -Eqs '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources
}

add_deb_src() {
	local file=/etc/apt/sources.list.d/librecover-deb-src.sources uri suites
	if [ "$(id -u)" -ne 0 ]; then
		echo "fetch-source: no deb-src entry in the apt sources;" \
			"run as root to add one" >&2
		exit 1
	fi
	# The mirror and suites of the machine's own Debian entry: first a
	# deb822 .sources file, then a one-line sources.list entry.
	uri=$(awk '/^URIs:/ && $2 ~ /debian\/?$/ { print $2; exit }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	suites=$(awk -v u="$uri" '/^URIs:/ { cur = $2 }
		/^Suites:/ && cur == u { $1 = ""; print; exit }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	if [ -z "$uri" ]; then
		read -r uri suites < <(awk '$1 == "deb" && $2 !~ /^\[/ &&
			$2 ~ /debian\/?$/ { print $2, $3; exit }' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
			2>/dev/null || true)
	fi
	if [ -z "$uri" ]; then
		echo "fetch-source: no Debian mirror found in the apt sources" >&2
		exit 1
	fi
	suites=${suites:-bookworm}
	echo "fetch-source: adding deb-src $uri $suites in $file"
	cat > "$file" <<SRC
# added by librecover's contrib/e2fsprogs/fetch-source.sh
Types: deb-src
URIs: $uri
Suites: $suites
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update
}

if [ -d "$dir/e2fsprogs-1.47.0" ] && [ -f "$dir/e2fsprogs_1.47.0.orig.tar.gz" ]; then
	echo "fetch-source: $dir/e2fsprogs-1.47.0 already there"
	exit 0
fi
has_deb_src || add_deb_src
if ! command -v dpkg-source >/dev/null; then
	echo "fetch-source: dpkg-source missing (apt-get install dpkg-dev)" >&2
	exit 1
fi
cd "$dir"
apt-get source e2fsprogs=1.47.0-2
