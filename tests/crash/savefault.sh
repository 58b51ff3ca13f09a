#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# savefault.sh --- a copy of the journal (recover_save(), jrecover -s) that
# fails half way leaves the operator's path as it was, and says why.
#
# recover_save() writes its new file through an io channel
# (recover_options.save_io_manager).  crashrun -S hands it the
# fault-injecting manager (tests/crash/faultio.c), counts the N writes and
# flushes of a whole copy, then for EVERY k in 0..N-1 goes wrong at event
# k + 1 in each way:
#   eio   that one write or flush fails with EIO
#   drop  it and every later one fail with EIO (a device gone)
#   exit  the process dies there (a crash: no cleanup can run)
# With eio and drop, recover_save() must return EIO (exit 1, the message
# naming it), remove its new file and leave FILE, an existing file with
# other contents, byte for byte as it was.  After a crash FILE must be as it
# was too; only the new file (.FILE.XXXXXX) may be left.  The image, and
# the journal device, never change.
#
# Journals: an internal one of 16 MiB (four 4 MiB pieces), and an external
# journal device of 4097 blocks, whose last piece is one block, which
# unix_io_manager keeps in its cache until the flush.
#
# Last, the write error a copy meets in the real world: jrecover -s under a
# file size limit (ulimit -f, SIGXFSZ ignored) must exit 8 with the errno
# ("File too large"), as a copy written with write(2) reported it, not as
# libext2fs's "short write", with the advice that names the limit, and
# leave FILE as it was (tests/cli/limits.sh: the same without SIGXFSZ
# ignored by the shell).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

need_built "$CRASHRUN"
[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"

# summary NAME: the value of NAME=... in crashrun's last line of output
summary() {
	crashrun_field "$1" "$(tail -n 1 "$SCRATCH/.run.out")"
}

# leftovers: the new files recover_save() left next to FILE
leftovers() {
	ls -A | grep '^\.FILE\.' || true
}

# save_faults NAME IMG WANT [JDEV]
save_faults() {
	_name=$1
	_img=$2
	_want=$3
	_jdev=${4:-}
	_before=$(state_of "$_img" "$_jdev")

	NCASES=$((NCASES + 1))
	say ""
	say "=== $_name: the whole copy"
	rm -f FILE
	run "$CRASHRUN" ${_jdev:+-j "$_jdev"} -S FILE "$_img"
	[ "$RUN_RC" -eq 0 ] || fail "$_name: crashrun -S exited $RUN_RC"
	# The journal, and the block recording the filesystem (jrecover(8), -s).
	saved_is "$_want" FILE ||
		fail "$_name: the copy ($(wc -c < FILE) bytes) is not the journal ($(wc -c < "$_want") bytes) and its record"
	_n=$(summary events)
	say "$_name: $_n writes and flushes"
	[ "${_n:-0}" -ge 2 ] || die "$_name: only ${_n:-no} events counted"

	# An earlier dump (a journal superblock's magic and v2 block type at its
	# start): a file -s may replace.
	printf '\300;9\230\0\0\0\004an earlier copy, which must stay\n' > kept
	for _mode in eio drop exit; do
		_k=0
		while [ "$_k" -lt "$_n" ]; do
			NCASES=$((NCASES + 1))
			cp kept FILE
			run "$CRASHRUN" -m "$_mode" -k "$_k" ${_jdev:+-j "$_jdev"} \
				-S FILE "$_img"
			_at="$_name, $_mode after event $_k"
			cmp -s FILE kept || fail "$_at: FILE changed"
			case $_mode in
			exit)
				[ "$RUN_RC" -eq 75 ] ||
					fail "$_at: crashrun exited $RUN_RC, not 75 (the crash)"
				rm -f $(leftovers)
				;;
			*)
				[ "$RUN_RC" -eq 1 ] ||
					fail "$_at: crashrun exited $RUN_RC, not 1"
				[ "$(summary result)" = 5 ] ||
					fail "$_at: recover_save returned $(summary result), not EIO (5)"
				grep -q 'Input/output error while saving to FILE' \
					"$SCRATCH/.run.out" ||
					fail "$_at: the error does not name EIO"
				[ -z "$(leftovers)" ] ||
					fail "$_at: the new file was left behind: $(leftovers)"
				;;
			esac
			_k=$((_k + 1))
		done
	done
	[ "$(state_of "$_img" "$_jdev")" = "$_before" ] ||
		fail "$_name: the image or the journal changed"
}

# --- an internal journal ------------------------------------------------------
mkimg int.img 64M -J size=16
std_workload int.img
debugfs -R "dump <8> int.want" int.img 2>/dev/null
[ "$(wc -c < int.want)" -eq $((16 << 20)) ] || die "debugfs did not dump the 16 MiB journal"
save_faults internal int.img int.want

# --- an external journal device ------------------------------------------------
mkimg_ext ext.img 32M ext.jdev 4097
[ "$(wc -c < ext.jdev)" -eq $((4097 * 4096)) ] ||
	die "the journal device is $(wc -c < ext.jdev) bytes, not 4097 blocks"
save_faults external ext.img ext.jdev ext.jdev

# --- jrecover -s under a file size limit ---------------------------------------
NCASES=$((NCASES + 1))
say ""
say "=== jrecover -s with ulimit -f 1024 (SIGXFSZ ignored)"
cp kept FILE
before=$(state_of int.img)
(trap '' XFSZ; ulimit -f 1024 && exec "$JRECOVER" -s FILE int.img) \
	> limit.out 2>&1
rc=$?
sed 's/^/    /' limit.out
say "    [exit $rc]"
[ "$rc" -eq 8 ] || fail "ulimit -f: jrecover -s exited $rc, not 8"
grep -q '^jrecover: FILE: File too large while saving the journal of int.img: .*(ulimit -f)' limit.out ||
	fail "ulimit -f: the message does not give the errno (File too large)"
cmp -s FILE kept || fail "ulimit -f: FILE changed"
[ -z "$(leftovers)" ] || fail "ulimit -f: the new file was left behind: $(leftovers)"
[ "$(state_of int.img)" = "$before" ] || fail "ulimit -f: the image changed"

end_test
