#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# golden.sh --- the exact text jrecover prints, against tests/expected/.
#
# Every other test checks what a message says by a pattern; this one keeps
# the whole text of each kind of output, so that a change of wording shows
# up as a diff of tests/expected/NAME.out for a reviewer to accept:
#
#   info, info-json      -i and -i --json of a two-transaction journal
#   list                 -l of the same
#   dry-run              -n of the same
#   replay, replay-verbose, replay-json
#                        the replay report (plain, -v, --json)
#   clean                a second run: nothing to replay
#   problems             a corrupt commit block: recovered with problems (4)
#   usage-noarg, usage-option, usage-dump-as-fs
#                        usage errors (16): no image, an unknown option, a
#                        saved journal given where a filesystem is expected
#   refuse-magic         a refusal at open: the journal superblock's magic
#   refuse-past-end      a refusal in the scan: a descriptor tag past the
#                        end of the filesystem
#   missing, missing-journal
#                        operational errors (8): no such image, no such -j
#   fsck-yes, fsck-preen-dry
#                        fsck's -y (a replay) and -p with -n (a usage error)
#   refuse-garbage, refuse-empty, refuse-devnull, refuse-readonly,
#   refuse-jdev-as-fs, refuse-ext-journal, refuse-feature, refuse-rofeature
#                        refusals at open, each with the next step: no
#                        filesystem there, an image that cannot be written,
#                        a journal device given as the filesystem, an
#                        external journal not given, an unknown incompat
#                        feature (compression) and ro_compat one (replica),
#                        named
#   dirdata              a replay on a filesystem with dirdata, which
#                        libext2fs does not know: the line naming it
#   dirdata-clean        the run after it, nothing to replay: no such line
#   refuse-undo-fs, refuse-save-other, refuse-foreign
#                        -z onto another filesystem's image, -s onto a
#                        file that is no dump (16), another filesystem's
#                        dump, with -f (8)
#
# Each file holds the command, its stdout, its stderr and its exit status,
# passed through tests/expected/filter.sed, which replaces what changes from
# run to run (elapsed times, the path of the binary in getopt's messages).
# The images are reproducible (lib.sh's fixed UUIDs and clock; the commit
# times are jwrite's time=), so nothing else may differ.
#
# After a deliberate change of output, write the files anew and review the
# diff (doc/testing.md, "Golden outputs"):
#     make check TESTS=tests/cli/golden.sh REGEN=1

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
SBFEATURE=$top_builddir/tests/oracle/sbfeature
need_built "$JWRITE" "$SBFEATURE"

EXPECTED=$top_srcdir/tests/expected
FILTER=$EXPECTED/filter.sed
[ -f "$FILTER" ] || die "$FILTER missing"
REGEN=${REGEN:-0}

# golden NAME ARGS...: run jrecover ARGS in the scratch directory and
# compare what it printed, filtered, with tests/expected/NAME.out (with
# REGEN=1: write that file).
golden() {
	_gn=$1
	shift
	NCASES=$((NCASES + 1))
	jr "$_gn.stdout" "$_gn.stderr" "$@"
	{
		say "\$ jrecover${*:+ $*}"
		say "--- stdout"
		cat "$_gn.stdout"
		say "--- stderr"
		cat "$_gn.stderr"
		say "--- exit $RUN_RC"
	} | sed -f "$FILTER" > "$_gn.out"
	if [ "$REGEN" = 1 ]; then
		cp "$_gn.out" "$EXPECTED/$_gn.out" ||
			die "cannot write $EXPECTED/$_gn.out"
		say "    (written to tests/expected/$_gn.out)"
	elif [ ! -f "$EXPECTED/$_gn.out" ]; then
		fail "$_gn: no tests/expected/$_gn.out (REGEN=1 writes it)"
	elif ! diff -u "$EXPECTED/$_gn.out" "$_gn.out" > "$_gn.diff"; then
		sed 's/^/    /' "$_gn.diff"
		fail "$_gn: the output (+) is not tests/expected/$_gn.out (-);" \
			"if the change is meant, REGEN=1 writes it anew"
	fi
}

# --- a journal of two transactions ----------------------------------------------
mkimg std.img 16M -O 64bit,metadata_csum
B=$(free_blocks std.img 20 | cut -d' ' -f1)
jw_two "$B" "64bit csum3" > std.jws
jw std.img < std.jws
debugfs -R "dump <8> std.journal" std.img 2>/dev/null
[ -s std.journal ] || die "debugfs did not dump the journal"

golden info -i std.img
golden info-json -i --json std.img
golden list -l std.img
golden dry-run -n std.img
copy_img std.img replay.img
golden replay replay.img
golden clean replay.img
copy_img std.img verbose.img
golden replay-verbose -v verbose.img
copy_img std.img json.img
golden replay-json --json json.img

# --- a corrupt commit block: the log ends there, with problems left -------------
mkimg problems.img 16M -O 64bit,metadata_csum
jw problems.img <<EOF
features revoke 64bit csum3
txn
log $B
commit time=1700000001
txn
log $((B + 1))
commit badcsum time=1700000002
EOF
golden problems problems.img

# --- usage errors ------------------------------------------------------------------
golden usage-noarg
golden usage-option --no-such-option std.img
golden usage-dump-as-fs std.journal

# --- refusals ----------------------------------------------------------------------
copy_img std.img magic.img
poke magic.img "$(jsb_offset magic.img)" 00000000
golden refuse-magic magic.img

mkimg past-end.img 16M -O 64bit,metadata_csum
jw past-end.img <<EOF
features revoke 64bit
allow-past-end
txn
log $B
commit time=1700000001
txn
log $((B + 1)) 4196
commit time=1700000002
EOF
golden refuse-past-end past-end.img

# --- operational errors ---------------------------------------------------------
golden missing no-such.img
golden missing-journal -j no-such.jdev std.img

# --- fsck's habits ----------------------------------------------------------------
copy_img std.img yes.img
golden fsck-yes -y yes.img
golden fsck-preen-dry -p -n std.img

# --- refusals at open, each with the next step ------------------------------------
dd if=/dev/zero bs=65536 count=1 2>/dev/null | tr '\0' 'x' > garbage.img
golden refuse-garbage garbage.img
: > empty.img
golden refuse-empty empty.img
golden refuse-devnull /dev/null
# Not writable: as root (who may write anything) run as nobody.
copy_img std.img readonly.img
chmod 444 readonly.img
_t=$TIMEOUT
[ "$(id -u)" = 0 ] && TIMEOUT="setpriv --reuid=65534 --regid=65534 --clear-groups $TIMEOUT"
golden refuse-readonly readonly.img
TIMEOUT=$_t
mkjdev jdev.img 4M 4096
golden refuse-jdev-as-fs jdev.img
mkimg_ext ext.img 16M ext.jdev 4M
golden refuse-ext-journal ext.img
copy_img std.img compression.img
"$SBFEATURE" compression.img incompat +0x1 || die "sbfeature failed"
golden refuse-feature compression.img
copy_img std.img replica.img
"$SBFEATURE" replica.img ro_compat +0x800 || die "sbfeature failed"
golden refuse-rofeature replica.img

# --- a feature libext2fs does not know, which the replay goes past ----------------
copy_img std.img dirdata.img
"$SBFEATURE" dirdata.img incompat +0x1000 || die "sbfeature failed"
# Its text is that of a libext2fs that does not know dirdata (Debian's,
# upstream's).  One that knows it (Lustre's builds) opens the image as any
# other, and the line is not printed: sbfeature, linked with the same
# libext2fs, says which (tests/oracle/jw-dirdata.sh tests both).
"$SBFEATURE" dirdata.img opens > dirdata.opens 2>&1
case $? in
3)	golden dirdata dirdata.img
	golden dirdata-clean dirdata.img ;;
0)	say "dirdata: this libext2fs knows dirdata ($(cat dirdata.opens)):" \
		"the golden text of one that does not is not compared" ;;
*)	die "sbfeature opens: $(cat dirdata.opens)" ;;
esac
# --- files a run must not replace, a journal it must not replay -------------------
mkimg victim.img 16M
printf 'notes\n' > notes.txt
golden refuse-undo-fs -z victim.img std.img
golden refuse-save-other -s notes.txt std.img
mkimg other.img 16M -O 64bit,metadata_csum -U 0badc0de-1234-4567-89ab-0123456789ab
std_workload other.img
debugfs -R "dump <8> other.journal" other.img 2>/dev/null
[ -s other.journal ] || die "debugfs did not dump other.img's journal"
golden refuse-foreign -f -j other.journal std.img

end_test
