#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# progress.sh --- where progress goes (jrecover(8), --progress, -q), replaying a
# jwrite `bulk` journal (300 transactions, 300000 revoke records):
#  - --progress with standard error a pipe: it shows each pass by name with a
#    percentage, ending at 100.0%: scan and replay, and revoke too with
#    LIBRECOVER_DEBUG=full_revoke (or its bit, 1; by default the scan
#    gathers the revoke records, and LIBRECOVER_DEBUG=0 is the default;
#    the library reads it, jrecover passes nothing on); stdout has
#    only the report;
#  - --progress into a pipe or a file: plain lines, newline-terminated, with no \r
#    and no escape sequence, and few of them (a start and an end line per
#    pass in a run this short);
#  - --progress --json: the progress on stderr, stdout still one JSON object;
#  - no --progress, standard error a pipe (and a file): nothing on stderr;
#  - -q (also with --progress): nothing at all, on either stream;
#  - fsck's -y, -p and -a: a replay as without them (no progress on a pipe);
#  - on a terminal (script(1) gives one, when it is there) progress is the
#    default, and it is one line redrawn in place (\r, ESC[K), never wider
#    than the terminal (a 16-column one here);
#  - at 0.0% no line gives a rate or a time left;
#  - -C FD: e2fsck's machine lines "pass done total device" on FD, even
#    with -q, each pass ending with done = total, passes in order and done
#    never going back; -C 0 is --progress; a bad or closed FD is a usage error
#    that writes nothing.
# Every run replays a fresh copy and must give the same image.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq

img=bulk.img
mkimg "$img" 256M -J size=64
jw "$img" <<EOF
features revoke 64bit csum3
bulk 300 300000 16 hit=10
EOF

# piped NAME ARGS...: jrecover ARGS on a fresh copy of the image, stdout to
# NAME.out, stderr through a pipe to NAME.err; the status in RUN_RC.
piped() {
	p_n=$1
	shift
	copy_img "$img" "$p_n.img"
	say "\$ jrecover $* $p_n.img 2>&1 >$p_n.out | cat >$p_n.err"
	( $TIMEOUT "$JRECOVER" "$@" "$p_n.img" 2>&1 > "$p_n.out"
	  echo $? > "$p_n.rc" ) | cat > "$p_n.err"
	RUN_RC=$(cat "$p_n.rc")
	sed 's/^/    out: /' "$p_n.out"
	# the progress redraws one line with \r: show each redraw on its own
	tr '\r' '\n' < "$p_n.err" | sed '/^$/d; s/^/    err: /' | sed -n '1,30p'
	say "    [exit $RUN_RC]"
	NCASES=$((NCASES + 1))
	[ "$RUN_RC" -eq 1 ] || fail "$p_n: jrecover $* exited $RUN_RC, not 1"
	if [ -f first.img ]; then
		"$IMGCMP" -s first.img "$p_n.img" > /dev/null ||
			fail "$p_n: the result differs from the first run's"
		rm -f "$p_n.img"
	else
		mv "$p_n.img" first.img
	fi
}

# shows NAME [PASS...]: the progress on NAME.err names each pass (default:
# scan and replay) with a percentage, and each reaches 100.0%.
shows() {
	s_n=$1
	shift
	[ $# -gt 0 ] || set -- scan replay
	tr '\r' '\n' < "$s_n.err" > "$s_n.lines"
	for pass in "$@"; do
		grep -E -q "^jrecover: $pass +[0-9]+\.[0-9]%" "$s_n.lines" ||
			fail "$s_n: no progress for the $pass pass on stderr"
		grep -E -q "^jrecover: $pass +100\.0%" "$s_n.lines" ||
			fail "$s_n: the $pass pass does not reach 100.0%"
	done
}

# plain NAME PASSES: NAME.err holds progress as plain lines: no \r, no
# ESC, every line ended by a newline, at least one line per pass and at
# most two (start, end), give or take two lines for a slow machine.
plain() {
	NCASES=$((NCASES + 1))
	if tr -d '\r\033' < "$1.err" | cmp -s - "$1.err"; then :; else
		fail "$1: progress into a pipe or file holds \\r or ESC"
	fi
	[ -s "$1.err" ] && [ "$(tail -c 1 "$1.err" | od -An -c | tr -d ' ')" != '\n' ] &&
		fail "$1: the last progress line is not ended by a newline"
	p_lines=$(grep -c -E '^jrecover: [a-z]+ +[0-9]+\.[0-9]%' "$1.err")
	[ "$p_lines" -ge "$2" ] ||
		fail "$1: $p_lines progress lines for $2 passes"
	[ "$p_lines" -le $(($2 * 2 + 2)) ] ||
		fail "$1: $p_lines progress lines for $2 passes in a short run: too many"
	[ "$(wc -l < "$1.err")" -eq "$p_lines" ] ||
		fail "$1: stderr holds lines that are not progress"
}

piped progress --progress
shows progress
plain progress 2

# With every revoke record kept (LIBRECOVER_DEBUG=full_revoke, as the
# kernel does) the records go through a REVOKE pass of their own, shown
# too; by default they are gathered during the scan.  The library reads
# the variable: by name, or as a mask.
for dbg in full_revoke 1 nosuch,full_revoke; do
	LIBRECOVER_DEBUG=$dbg
	export LIBRECOVER_DEBUG
	piped fullrevoke --progress
	unset LIBRECOVER_DEBUG
	shows fullrevoke scan revoke replay
	plain fullrevoke 3
	rm -f fullrevoke.*
done
# 0, the empty string and an unknown name are off.
for dbg in 0 "" nosuch; do
	LIBRECOVER_DEBUG=$dbg
	export LIBRECOVER_DEBUG
	piped fullrevoke0 --progress
	unset LIBRECOVER_DEBUG
	shows fullrevoke0
	grep -q "revoke" fullrevoke0.err &&
		fail "fullrevoke0: a revoke pass with LIBRECOVER_DEBUG='$dbg'"
	rm -f fullrevoke0.*
done
grep -q "replayed" progress.out || fail "progress: no report on stdout"
grep -q "%" progress.out && fail "progress: progress on stdout"

piped json --progress --json
shows json
plain json 2
jq -e '.exit == 1' json.out > /dev/null 2>&1 ||
	fail "json: stdout is not the JSON report alone"

piped plain
[ -s plain.err ] && fail "plain: without --progress, something was printed on a pipe"
grep -q "replayed" plain.out || fail "plain: no report on stdout"

# fsck's -y, -p and -a mean the replay itself, not progress: as without them.
for o in y p a; do
	piped "fsck$o" "-$o"
	[ -s "fsck$o.err" ] && fail "fsck$o: -$o printed something on a pipe (progress?)"
	grep -q "replayed" "fsck$o.out" || fail "fsck$o: -$o did not replay"
done

NCASES=$((NCASES + 1))
copy_img "$img" file.img
say "\$ jrecover file.img 2>file.err"
$TIMEOUT "$JRECOVER" file.img > file.out 2> file.err
rc=$?
[ "$rc" -eq 1 ] || fail "file: exited $rc, not 1"
[ -s file.err ] && fail "file: without --progress, something was printed to a file"

NCASES=$((NCASES + 1))
copy_img "$img" filep.img
say "\$ jrecover --progress filep.img 2>filep.err"
$TIMEOUT "$JRECOVER" --progress filep.img > filep.out 2> filep.err
rc=$?
sed 's/^/    err: /' filep.err
[ "$rc" -eq 1 ] || fail "filep: exited $rc, not 1"
shows filep
plain filep 2

piped quiet -q
[ -s quiet.out ] && fail "quiet: -q printed on stdout"
[ -s quiet.err ] && fail "quiet: -q printed on stderr"
piped quietp -q --progress
[ -s quietp.out ] && fail "quietp: -q --progress printed on stdout"
[ -s quietp.err ] && fail "quietp: -q --progress printed on stderr"

grep -E ' 0\.0%.*(blocks/s|left)' progress.err &&
	fail "progress: a rate or a time left at 0.0%"

# -C 3: the machine lines go to file descriptor 3, and only there.
NCASES=$((NCASES + 1))
copy_img "$img" fd.img
say "\$ jrecover -q -C 3 fd.img 3>fd.progress"
$TIMEOUT "$JRECOVER" -q -C 3 fd.img > fd.out 2> fd.err 3> fd.progress
rc=$?
sed -n '1,12s/^/    fd: /p' fd.progress
say "    ($(wc -l < fd.progress) lines) [exit $rc]"
[ "$rc" -eq 1 ] || fail "fd: jrecover -q -C 3 exited $rc, not 1"
{ [ -s fd.out ] || [ -s fd.err ]; } && fail "fd: -q -C 3 printed on stdout or stderr"
"$IMGCMP" -s first.img fd.img > /dev/null || fail "fd: the result differs"
awk '
	NF != 4 || $1 !~ /^[1-4]$/ || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ ||
	$4 != "fd.img" || $2 + 0 > $3 + 0 { print "bad line: " $0; bad = 1 }
	$1 < pass || ($1 == pass && $2 + 0 < done) { print "goes back: " $0; bad = 1 }
	{ pass = $1; done = $2 + 0 }
	END { exit bad }' fd.progress || fail "fd: the -C lines are not e2fsck's format, in order"
for p in 1 3; do
	awk -v p=$p '$1 == p && $2 == $3 { found = 1 } END { exit !found }' \
		fd.progress || fail "fd: pass $p never reaches done = total"
done
piped czero -C 0
shows czero
plain czero 2
NCASES=$((NCASES + 1))
sum=$(sha256_of "$img")
for bad in 9 x -1; do
	"$JRECOVER" -C "$bad" "$img" > /dev/null 2>&1
	rc=$?
	[ "$rc" -eq 16 ] || fail "-C $bad: exited $rc, not 16 (usage error)"
done
[ "$(sha256_of "$img")" = "$sum" ] || fail "-C with a bad descriptor wrote to the image"

# A terminal: script(1) runs jrecover on a pseudo-terminal.
if command -v script >/dev/null 2>&1 &&
   script -qec true /dev/null > /dev/null 2>&1; then
	NCASES=$((NCASES + 1))
	copy_img "$img" tty.img
	say "\$ script -qec 'jrecover tty.img' /dev/null"
	script -qec "$JRECOVER tty.img" /dev/null > tty.err 2>&1 < /dev/null
	tr '\r' '\n' < tty.err | sed '/^$/d; s/^/    tty: /' | sed -n '1,20p'
	shows tty
	grep -q "$(printf '\r')" tty.err ||
		fail "tty: the progress is not redrawn in place (no \\r)"
	grep -q "$(printf '\033')\\[K" tty.err ||
		fail "tty: the progress line is not erased (no ESC[K)"

	# A terminal 16 columns wide: no progress line wraps (even the shortest,
	# "jrecover: scan     0.0%", is wider).
	NCASES=$((NCASES + 1))
	copy_img "$img" ttyn.img
	script -qec "stty cols 16; $JRECOVER ttyn.img > ttyn.out" /dev/null \
		> ttyn.err 2>&1 < /dev/null
	grep -q '^jrecover: scan' ttyn.err || grep -q "$(printf '\r')jrecover: scan" ttyn.err ||
		fail "ttyn: no progress drawn on a 16-column terminal"
	w=$(tr '\r' '\n' < ttyn.err | sed "s/$(printf '\033')\\[K//g" |
		awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
	say "    widest progress line on a 16-column terminal: $w"
	[ "$w" -le 15 ] || fail "ttyn: a progress line of $w columns on a 16-column terminal"

	# -l on a terminal: progress when the listing goes to a file, none
	# when it goes through a pipe (a pager would be drawn over).
	NCASES=$((NCASES + 1))
	say "\$ script -qec 'jrecover -l $img > tty.list' /dev/null"
	script -qec "$JRECOVER -l $img > tty.list" /dev/null > ttyl.err 2>&1 < /dev/null
	grep -q "$(printf '\r')" ttyl.err ||
		fail "ttyl: -l into a file on a terminal shows no progress"
	[ -s tty.list ] || fail "ttyl: -l listed nothing"
	say "\$ script -qec 'jrecover -l $img | cat > /dev/null' /dev/null"
	script -qec "$JRECOVER -l $img | cat > /dev/null" /dev/null > ttyp.err 2>&1 < /dev/null
	grep -q "$(printf '\r')" ttyp.err &&
		fail "ttyp: -l into a pipe on a terminal draws progress"
	script -qec "$JRECOVER --progress -l $img | cat > /dev/null" /dev/null > ttypp.err 2>&1 < /dev/null
	grep -q "$(printf '\r')" ttypp.err ||
		fail "ttypp: --progress -l into a pipe on a terminal shows no progress"
else
	say "(script(1) cannot give a terminal here: terminal case skipped)"
fi

end_test
