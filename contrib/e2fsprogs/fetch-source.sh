#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fetch-source.sh --- fetch e2fsprogs as a Debian release ships it, the
# ordinary way: `apt-get source e2fsprogs`.
#
#   bash contrib/e2fsprogs/fetch-source.sh DIR [VERSION]
#   bash contrib/e2fsprogs/fetch-source.sh --unpack DSC DEST
#
# VERSION is the upstream version, one of those the series has been made
# for (default 1.47.0):
#   1.47.0  1.47.0-2, Debian 12 (bookworm)
#   1.46.2  1.46.2-2, Debian 11 (bullseye)
#   1.47.2  1.47.2-3, Debian 13 (trixie)
#   1.47.4  1.47.4-1, sid
# Leaves in DIR Debian's e2fsprogs_VERSION.orig.tar.gz, its .debian.tar.xz
# and .dsc, and the unpacked tree e2fsprogs-VERSION (Debian's patches
# applied).  apt-get source needs a deb-src entry.  For bookworm, when the
# machine's apt sources have none, this script (run as root) adds one in
# /etc/apt/sources.list.d/librecover-deb-src.sources naming the same
# mirror and suites as the machine's own "deb" entry for Debian, then runs
# apt-get update.  For the other suites it leaves the machine's apt alone:
# a private apt state in DIR/apt (a deb-src entry for that suite on the
# same mirror, its own lists and cache), updated once.
#
# When the mirror has no signature (.asc) for the orig tarball, apt-get
# source fetches everything else and fails, and dpkg-source -x refuses the
# .dsc that names it: the tree is then unpacked by hand (--unpack: the orig
# tarball, the debian tarball, and debian/patches/series applied in order
# with patch -p1, as dpkg-source's 3.0 (quilt) format does), after
# checking the files it has against the .dsc's SHA-256 sums.
# Safe to run again: an existing tree is left alone.

set -euo pipefail

usage="usage: $0 DIR [VERSION] | --unpack DSC DEST"

# The Debian version and suite of each upstream version.
debian_version() {
	case $1 in
	1.47.0) echo "1.47.0-2 bookworm" ;;
	1.46.2) echo "1.46.2-2 bullseye" ;;
	1.47.2) echo "1.47.2-3 trixie" ;;
	1.47.4) echo "1.47.4-1 sid" ;;
	*) echo "fetch-source: no series for e2fsprogs $1" \
		"(1.46.2, 1.47.0, 1.47.2, 1.47.4)" >&2; return 1 ;;
	esac
}

# DSC into DEST: dpkg-source, or by hand when a signature file it names
# is missing.
unpack() {
	local dsc=$1 dest=$2 d f sum orig='' deb='' p
	d=$(dirname "$dsc")
	if dpkg-source --no-check -x "$dsc" "$dest"; then
		return 0
	fi
	echo "fetch-source: dpkg-source -x failed; unpacking $dsc by hand"
	# The files the .dsc lists and sums, but a missing signature.
	while read -r sum _ f; do
		case $f in
		*.asc) [ -e "$d/$f" ] || continue ;;
		*.orig.tar.*) orig=$d/$f ;;
		*.debian.tar.*) deb=$d/$f ;;
		esac
		echo "$sum  $d/$f" | sha256sum -c --quiet - ||
			{ echo "fetch-source: $f does not match $dsc" >&2; return 1; }
	done < <(awk '/^Checksums-Sha256:/ { on = 1; next }
		/^[^ ]/ { on = 0 } on && NF == 3' "$dsc")
	if [ -z "$orig" ] || [ -z "$deb" ]; then
		echo "fetch-source: $dsc names no orig or debian tarball" >&2
		return 1
	fi
	rm -rf "$dest"
	mkdir -p "$dest"
	tar -C "$dest" --strip-components=1 -xf "$orig"
	rm -rf "$dest/debian"
	tar -C "$dest" -xf "$deb"
	if [ -f "$dest/debian/patches/series" ]; then
		while read -r p _; do
			case $p in ''|'#'*) continue ;; esac
			patch -d "$dest" -p1 -s -F0 < "$dest/debian/patches/$p" ||
				{ echo "fetch-source: Debian's $p" >&2; return 1; }
		done < "$dest/debian/patches/series"
	fi
}

if [ "${1:-}" = --unpack ]; then
	[ $# -eq 3 ] || { echo "$usage" >&2; exit 16; }
	unpack "$2" "$3"
	exit
fi

dir=${1:?$usage}
version=${2:-1.47.0}
read -r debver suite < <(debian_version "$version") || exit 16
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

has_deb_src() {
	grep -Eqs '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources
}

# "URI SUITES" of the machine's own Debian entry: first a deb822 .sources
# file, then a one-line sources.list entry.
debian_mirror() {
	local uri suites
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
		return 1
	fi
	echo "$uri ${suites:-bookworm}"
}

add_deb_src() {
	local file=/etc/apt/sources.list.d/librecover-deb-src.sources uri suites
	if [ "$(id -u)" -ne 0 ]; then
		echo "fetch-source: no deb-src entry in the apt sources;" \
			"run as root to add one" >&2
		exit 1
	fi
	read -r uri suites < <(debian_mirror) || exit 1
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

if [ -d "$dir/e2fsprogs-$version" ] &&
   [ -f "$dir/e2fsprogs_$version.orig.tar.gz" ]; then
	echo "fetch-source: $dir/e2fsprogs-$version already there"
	exit 0
fi
if ! command -v dpkg-source >/dev/null; then
	echo "fetch-source: dpkg-source missing (apt-get install dpkg-dev)" >&2
	exit 1
fi
apt_opts=()
if [ "$suite" = bookworm ]; then
	has_deb_src || add_deb_src
else
	# A private apt state: the machine's sources, lists and caches are
	# not touched.
	read -r uri _ < <(debian_mirror) || exit 1
	state=$dir/apt
	mkdir -p "$state/sources.list.d" "$state/lists/partial" "$state/cache"
	cat > "$state/sources.list.d/$suite.sources" <<SRC
# written by librecover's contrib/e2fsprogs/fetch-source.sh
Types: deb-src
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	# A mirror that is a snapshot serves sid's Release file past its
	# Valid-Until (a week after it was made): apt then drops the suite.
	# Its signature is still checked, and each file by the .dsc's hashes.
	apt_opts=(-o Dir::Etc::SourceList=/dev/null
		-o Dir::Etc::SourceParts="$state/sources.list.d"
		-o Dir::State::Lists="$state/lists"
		-o Dir::Cache="$state/cache"
		-o Acquire::Check-Valid-Until=false)
	if ! ls "$state"/lists/*Sources* >/dev/null 2>&1; then
		echo "fetch-source: apt-get update of deb-src $uri $suite (private state $state)"
		apt-get "${apt_opts[@]}" update
	fi
fi
cd "$dir"
if ! apt-get "${apt_opts[@]}" source "e2fsprogs=$debver"; then
	# Everything but a missing signature (unpack() checks the files the
	# .dsc names), or a real failure.
	dsc=$dir/e2fsprogs_$debver.dsc
	if [ ! -f "$dsc" ]; then
		echo "fetch-source: apt-get source e2fsprogs=$debver failed" >&2
		exit 1
	fi
	unpack "$dsc" "$dir/e2fsprogs-$version"
fi
