#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# cli.sh --- the command line contract around the replay: usage errors exit
# 16, -h and -V exit 0, a missing or unusable image is an operational error
# (8) that writes nothing, and a filesystem without a journal needs nothing
# (0) -- e2fsck -E journal_only leaves it alone too.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"

# expect_rc RC DESCRIPTION ARGS...: run jrecover ARGS, check its status.
expect_rc() {
	_want=$1
	_what=$2
	shift 2
	NCASES=$((NCASES + 1))
	jrecover "$@"
	[ "$RUN_RC" -eq "$_want" ] ||
		fail "$_what: jrecover $* exited $RUN_RC, expected $_want"
}

expect_rc 0 "help" -h
expect_rc 0 "version" -V
grep -q '[0-9]\.[0-9]' "$SCRATCH/.run.out" || fail "version: no version number"
expect_rc 16 "no image" 
expect_rc 16 "unknown option" -Z x.img
expect_rc 16 "two images" a.img b.img
expect_rc 16 "-j without its argument" -j

expect_rc 8 "missing image" does-not-exist.img

mkdata junk.img 4096 256 -s 7
sum=$(sha256_of junk.img)
expect_rc 8 "not a filesystem" junk.img
[ "$(sha256_of junk.img)" = "$sum" ] ||
	fail "jrecover wrote to a file that is no filesystem"
expect_rc 8 "not a filesystem, -i" -i junk.img

set_format 4k-64-v3
# shellcheck disable=SC2086
mkimg nojournal.img 16M $FMT_MKFS -O ^has_journal
oracle_compare -e 0 nojournal.img

# An external journal device that is not the filesystem's (another UUID).
std_external ext.img ext.jdev
mkjdev other.jdev 4M 4096 9e8d7c6b-5a49-4838-a726-15f4e3d2c1b0
before=$(state_of ext.img other.jdev)
expect_rc 8 "the wrong external journal" -j other.jdev ext.img
[ "$(state_of ext.img other.jdev)" = "$before" ] ||
	fail "jrecover wrote with the wrong external journal"

end_test
