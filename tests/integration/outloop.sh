#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# outloop.sh --- -s and -z never write over the file behind a loop device,
# the device by another path, or a mounted filesystem's file (jrecover(8),
# -s and -z).  With lo.img attached to LOOP:
#  - -s lo.img LOOP, -z lo.img LOOP (the file behind the device being
#    replayed), -s LOOP lo.img, -s via a hard link to lo.img, -s a second
#    node of the same device: exit 16, nothing touched;
#  - -s - LOOP > LOOP, -s - lo.img > LOOP, -s - LOOP 1<>lo.img: exit 16;
#  - -s other.img img.img where other.img is mounted (through a loop
#    device): exit 16, "the file behind a loop device".
# Every file's sha256 (and the loop device's) is the same before and after.
# Needs root and loop devices (77 otherwise).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_loop_mounts

set_format 4k-64-v3
mkimg_fmt lo.img
std_workload lo.img
mkimg_fmt img.img
mkimg_fmt mounted.img
ln lo.img hard.img

LO=$(losetup -f --show lo.img 2> /dev/null) || skip "no loop device (losetup -f failed)"
trap '_rc=$?; losetup -d "$LO" 2> /dev/null; unmount; (exit $_rc); _cleanup' EXIT
# jrecover finds the file behind a loop device in sysfs: a root without
# /sys mounted (a bare chroot) cannot show it.
[ -e "/sys/block/${LO#/dev/}/loop/backing_file" ] ||
	skip "no /sys/block/${LO#/dev/}/loop/backing_file (sysfs not mounted)"
node=
if mknod node b "$(stat -c '%t' "$LO" | xargs printf '%d')" \
	"$(stat -c '%T' "$LO" | xargs printf '%d')" 2> /dev/null; then
	node=node
fi

hashes() {
	for _f in lo.img img.img mounted.img hard.img; do
		echo "$_f $(sha256_of "$_f")"
	done
	echo "$LO $(sha256_of "$LO")"
	ls -A | grep -v "^h\.\|^o\.\|^\.run" | LC_ALL=C sort
}

refused() {
	_why=$1
	shift
	NCASES=$((NCASES + 1))
	hashes > h.before
	say "\$ $*"
	sh -c "$*" > o.out 2> o.err
	_rc=$?
	sed 's/^/    err: /' o.err
	say "    [exit $_rc]"
	[ "$_rc" -eq 16 ] || fail "$*: exited $_rc, not 16"
	grep -q -- "$_why" o.err || fail "$*: does not say '$_why'"
	hashes > h.after
	diff h.before h.after > h.diff ||
		{ sed 's/^/    /' h.diff; fail "$*: files changed"; }
}

J=$JRECOVER
itself="is the filesystem itself"
refused "-s lo.img: $itself" "$J -s lo.img $LO"
refused "-z lo.img: $itself" "$J -z lo.img $LO"
refused "-s hard.img: $itself" "$J -s hard.img $LO"
refused "-s $LO: $itself" "$J -s $LO lo.img"
[ -n "$node" ] && refused "-s node: $itself" "$J -s node $LO"
refused "-s - (standard output): $itself" "$J -s - $LO > $LO"
refused "-s - (standard output): $itself" "$J -s - lo.img > $LO"
refused "-s - (standard output): $itself" "$J -s - $LO 1<>lo.img"
# Any loop device's file, and what a mount lives on.
refused "-s lo.img: is the file behind a loop device" "$J -s lo.img img.img"
if loop_mount mounted.img ro,noload; then
	refused "-z mounted.img: is the file behind a loop device" \
		"$J -z mounted.img img.img"
	unmount
fi

end_test
