#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-extid.sh --- is the journal the filesystem's?  External journal devices
# (written by jwrite -j) damaged in their identity, one way each, and
# internal journals whose superblock claims several users.  Replaying
# another filesystem's journal destroys this one: where e2fsck and the
# kernel refuse, jrecover refuses too (exit 8, nothing written, the
# message names the -j path and the check that failed); where e2fsck
# replays, jrecover -f gives e2fsck's result byte for byte.
# MALFORMED.md ("The journal's identity") is the table of these cases.
#
#   ext-magic       the device's ext2 magic destroyed         8 (e2fsck 12)
#   ext-nofeature   journal_dev cleared                       8 (e2fsck 12)
#   ext-uuid        the device's s_uuid changed               8 (e2fsck 12)
#   ext-blocksize   a 1 KiB device for a 4 KiB filesystem     8 (e2fsck
#                   drops the journal and makes an internal one)
#   ext-csum        metadata_csum device, bad s_checksum      8; -f as e2fsck
#   ext-nr0         s_nr_users 0                              8; -f as e2fsck
#   ext-users       s_users[0] another filesystem             8; -f as e2fsck
#   ext-nr2         s_nr_users 2 (a shared journal)           8 (e2fsck 12)
#   ext-nrff        s_nr_users 0xffffffff                     8 (e2fsck 12)
#   int-nr2, int-nrff  an internal journal claiming 2 / 0xffffffff users:
#                   its v2 fields are garbage, cleared as e2fsck clears them [1]
#   int-clean       the same, nothing to replay: nothing written [0]
# and -j paths that are missing, under a file, not a journal, or a filesystem.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

# refuse [-f] CASE TEXT...: jrecover (and with -f, jrecover -f too) on
# copies of CASE.img and CASE.jdev exits 8, says every TEXT, reports the
# error against CASE.jdev, and leaves both copies byte for byte as they were.
refuse() {
	_rf=
	if [ "$1" = -f ]; then
		_rf=-f
		shift
	fi
	_rc=$1
	shift
	for _ro in "" $_rf; do
		case_begin "$_rc" "expect jrecover ${_ro:+$_ro }to refuse (8)"
		copy_img "$_rc.img" "$_rc.r.img"
		copy_img "$_rc.jdev" "$_rc.r.jdev"
		jrecover $_ro -j "$_rc.r.jdev" "$_rc.r.img"
		[ "$RUN_RC" -eq 8 ] ||
			fail "$_rc: jrecover $_ro exited $RUN_RC, not 8"
		grep -q "^jrecover: $_rc.r.jdev: " "$SCRATCH/.run.out" ||
			fail "$_rc: the error is not reported against $_rc.r.jdev"
		for _rt; do
			grep -F -q -- "$_rt" "$SCRATCH/.run.out" ||
				fail "$_rc: jrecover $_ro does not say '$_rt'"
		done
		same_as "$_rc.r.img" "$_rc.r.jdev" "$_rc.img" "$_rc.jdev" ||
			fail "$_rc: jrecover $_ro exited 8 but changed the image or the journal"
		rm -f "$_rc.r.img" "$_rc.r.jdev"
	done
}

# e2note CASE: what e2fsck -y -E journal_only does with CASE, for the log.
e2note() {
	copy_img "$1.img" "$1.n.img"
	copy_img "$1.jdev" "$1.n.jdev"
	say "(for the record, e2fsck on $1:)"
	run e2fsck -y -E journal_only -j "$1.n.jdev" "$1.n.img"
	if same_as "$1.n.img" "$1.n.jdev" "$1.img" "$1.jdev"; then
		say "    (e2fsck left the image and the journal unchanged)"
	else
		say "    (e2fsck changed the image or the journal)"
	fi
	rm -f "$1.n.img" "$1.n.jdev"
}

CHECK_DEV="check that -j names this filesystem's journal device"

base_ext e4 16M 4M -b 4096 -O 64bit,metadata_csum
B=$(free_of e4)

# two transactions of plain blocks; header directives from the arguments
two() {
	for _d; do say "$_d"; done
	cat <<-EOF
	txn
	log $B $((B + 1))
	commit
	txn
	revoke $B
	log $((B + 2))
	commit
	EOF
}

# --- the ext2 superblock of the device ------------------------------------------
# (the ext2 superblock is at byte 1024, its magic at +0x38, incompat
# features at +0x60, s_uuid at +0x68)
two "features revoke 64bit csum3" | jcase ext-magic e4
poke ext-magic.jdev $((1024 + 0x38)) 0000
refuse ext-magic "bad magic number" "$CHECK_DEV"
ocase -e 8 -E 12 ext-magic

two "features revoke 64bit csum3" | jcase ext-nofeature e4
poke ext-nofeature.jdev $((1024 + 0x60)) 00000000
refuse ext-nofeature "lacks the journal_dev feature" "$CHECK_DEV"
ocase -e 8 -E 12 ext-nofeature

two "features revoke 64bit csum3" | jcase ext-uuid e4
poke ext-uuid.jdev $((1024 + 0x68)) 01
refuse -f ext-uuid "UUID is not the filesystem's journal UUID" "$CHECK_DEV"
ocase -e 8 -E 12 ext-uuid

# A 1 KiB journal device for a 4 KiB filesystem, linked as mkimg_ext
# links them.  e2fsck reads the journal superblock at the filesystem's
# block size, finds none, drops the journal and makes an internal one.
mkimg ext-blocksize.img 16M -b 4096 -O ^has_journal,64bit,metadata_csum
mkjdev ext-blocksize.jdev 4M 1024
printf 'feature has_journal\nfeature needs_recovery\nssv journal_uuid %s\n' \
	"$JDEV_UUID" | dfs_quiet ext-blocksize.img
poke ext-blocksize.jdev $((2048 + 64)) 00000001
poke ext-blocksize.jdev $((2048 + 256)) "$(say "$FS_UUID" | tr -d -)"
refuse -f ext-blocksize "block size differs from the filesystem block size" \
	"$CHECK_DEV"
e2note ext-blocksize

# A device with metadata_csum whose ext2 superblock checksum is wrong:
# e2fsck asks "Fix?" and, told yes, rewrites it and replays (then runs its
# full check, which stamps s_lastcheck); the kernel refuses to mount.
# jrecover refuses; -f does what e2fsck -y does.
mkimg c4.base 16M -b 4096 -O ^has_journal,64bit,metadata_csum
rm -f c4.jdev.base
E2FSPROGS_FAKE_TIME=$FAKE_TIME mke2fs -q -F -O journal_dev,metadata_csum \
	-b 4096 -U "$JDEV_UUID" c4.jdev.base 4M > /dev/null 2>&1 ||
	die "mke2fs -O journal_dev,metadata_csum failed"
printf 'feature has_journal\nssv journal_uuid %s\n' "$JDEV_UUID" | dfs_quiet c4.base
poke c4.jdev.base $((4096 + 64)) 00000001
poke c4.jdev.base $((4096 + 256)) "$(say "$FS_UUID" | tr -d -)"
_set_free c4
B=$(free_of c4)
two "features revoke 64bit csum3" | jcase ext-csum-ok c4
ocase ext-csum-ok
two "features revoke 64bit csum3" | jcase ext-csum c4
poke ext-csum.jdev $((1024 + 0x3fc)) 00000000
refuse ext-csum "superblock checksum does not match" "$CHECK_DEV" \
	"-f rewrites the checksum"
ocase -e 1 -a -f -x s_lastcheck ext-csum
B=$(free_of e4)

# --- the users of the journal superblock -------------------------------------------
# The kernel mounts an external journal only with s_nr_users 1; e2fsck
# refuses more than one user, and replays with none or with a list that
# does not name the filesystem: there -f gives e2fsck's result.
two "features revoke 64bit csum3" "nrusers 0" | jcase ext-nr0 e4
refuse ext-nr0 "does not list this filesystem as its user" "$CHECK_DEV"
ocase -a -f ext-nr0

copy_img e4.base e4u.base
copy_img e4.jdev.base e4u.jdev.base
FREE_e4u=$B
poke e4u.jdev.base $((4096 + 256)) 01
two "features revoke 64bit csum3" | jcase ext-users e4u
refuse ext-users "does not list this filesystem as its user" "$CHECK_DEV"
ocase -a -f ext-users

two "features revoke 64bit csum3" "nrusers 2" | jcase ext-nr2 e4
refuse -f ext-nr2 "Journal is shared by more than one filesystem"
ocase -e 8 -E 12 ext-nr2

two "features revoke 64bit csum3" "nrusers 4294967295" | jcase ext-nrff e4
refuse -f ext-nrff "s_nr_users is larger than its user list"
ocase -e 8 -E 12 ext-nrff

# --- -j paths that are no journal ---------------------------------------------------
# Every error is reported against the -j path.
# pathcase NAME JPATH TEXT...: jrecover -j JPATH on a copy of ext-nr0.img
# exits 8 and says "jrecover: JPATH: " and every TEXT.
pathcase() {
	_pn=$1
	_pj=$2
	shift 2
	case_begin "$_pn" "-j $_pj"
	copy_img ext-nr0.img "$_pn.img"
	_pb=$(sha256_of "$_pn.img")
	jrecover -j "$_pj" "$_pn.img"
	[ "$RUN_RC" -eq 8 ] || fail "$_pn: jrecover exited $RUN_RC, not 8"
	grep -q -F "jrecover: $_pj: " "$SCRATCH/.run.out" ||
		fail "$_pn: the error is not reported against $_pj"
	for _pt; do
		grep -F -q -- "$_pt" "$SCRATCH/.run.out" ||
			fail "$_pn: jrecover does not say '$_pt'"
	done
	[ "$(sha256_of "$_pn.img")" = "$_pb" ] || fail "$_pn: the image changed"
	rm -f "$_pn.img"
}
pathcase missing no-such.jdev "No such file or directory"
pathcase notdir ext-nr0.jdev/journal "Not a directory"
# A filesystem (another one) named as the journal.
copy_img e4.base other-fs.img
pathcase fs-as-journal other-fs.img "Not an external journal device" \
	"$CHECK_DEV"
# Neither a device nor a dump: 64 KiB of 0x5a bytes.
mkdata junk.bin 4096 16 -f 90
pathcase junk junk.bin "Wrong magic number in the journal superblock" \
	"check that -j names a journal device or a saved journal dump"
if [ "$(id -u)" -ne 0 ]; then
	copy_img e4.jdev.base unreadable.jdev
	chmod 000 unreadable.jdev
	pathcase unreadable unreadable.jdev "Permission denied"
	chmod 600 unreadable.jdev
else
	say "(running as root: the unreadable -j path is not tried)"
fi

# --- internal journals claiming several users ----------------------------------------
# Not a shared journal (an internal journal has one user) but a damaged
# superblock: e2fsck clears every field after s_errno ("Found invalid V2
# journal superblock fields"), replays what is left and then runs its
# full check (s_lastcheck); jrecover does the same replay.  With CSUM_V3
# and 64BIT cleared the tags are read 8 bytes long and the log ends at
# the first, garbled, descriptor: nothing is replayed but the journal is
# reset.  With REVOKE alone the log reads the same without its features.
base i4 16M -b 4096 -O 64bit,metadata_csum
B=$(free_of i4)
two "features revoke" "nrusers 2" | jcase int-nr2 i4
ocase -x s_lastcheck int-nr2
e2blk int-nr2 1 $((B + 1))
e2blk int-nr2 2 $((B + 2))
two "features revoke 64bit csum3" "nrusers 4294967295" | jcase int-nrff i4
ocase -x s_lastcheck int-nrff
NCASES=$((NCASES + 1))
jrecover -i int-nrff.img
grep -F -q "claims 4294967295 users, but an internal journal has one" \
	"$SCRATCH/.run.out" || fail "int-nrff: jrecover -i does not say what is wrong"
# The same on a clean journal: nothing to replay, nothing written (e2fsck
# clears the fields and runs its full check).
copy_img i4.base int-clean.img
poke int-clean.img $(($(jsb_offset int-clean.img) + 64)) 00000002
assert_noop int-clean.img
grep -F -q "claims 2 users, but an internal journal has one" "$SCRATCH/.run.out" &&
grep -F -q "nothing to replay, so they stay on disk" "$SCRATCH/.run.out" ||
	fail "int-clean: jrecover does not say what is wrong"

end_test
