#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# completion.sh --- contrib/jrecover.bash-completion, sourced in bash:
#  - it registers itself (complete -p jrecover);
#  - "--j" completes to --journal and --json, and "-" to exactly the
#    options jrecover --help lists (short and long);
#  - after -j, -z, -s (and --journal=) it completes file names, and the
#    filesystem argument too;
#  - under /dev only block devices (and directories) are offered;
#  - nothing after -V or -h.
# Run without bash-completion's helpers (the fallback path), and again with
# them when the bash-completion package is installed.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

COMPLETION=$top_srcdir/contrib/jrecover.bash-completion
[ -f "$COMPLETION" ] || die "$COMPLETION missing"
command -v bash >/dev/null 2>&1 || skip "bash not found"

# complete WORD...: what the completion offers for the command line
# "jrecover WORD..." (the last word is the one being completed), one a line,
# sorted, in the file "got".  BASH_COMPLETION_LIB, when set, is sourced first.
complete_words() {
	say "\$ complete: jrecover $*"
	bash -c '
		[ -n "$BASH_COMPLETION_LIB" ] && . "$BASH_COMPLETION_LIB"
		. "$1"
		shift
		COMP_WORDS=(jrecover "$@")
		COMP_CWORD=$#
		COMP_LINE="jrecover $*"
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		_jrecover jrecover "${COMP_WORDS[COMP_CWORD]}" \
			"${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"
	' complete-test "$COMPLETION" "$@" 2> complete.err | sed '/^$/d' | sort > got
	sed 's/^/    /' got complete.err
}

# expect WHAT LINE...: the completion offered exactly these lines.
expect() {
	_what=$1
	shift
	NCASES=$((NCASES + 1))
	printf '%s\n' "$@" | sed '/^$/d' | sort > want
	diff -u want got > got.diff ||
		{ sed 's/^/    /' got.diff; fail "$_what: offered other words (+) than expected (-)"; }
}

# The options jrecover --help lists, one a line.
"$JRECOVER" --help | awk '/^ +-/ {
	for (i = 1; i <= 2; i++) {
		w = $i; sub(/,$/, "", w)
		if (w ~ /^--?[A-Za-z]/) print w
	} }' | sort > help.opts
[ "$(wc -l < help.opts)" -ge 10 ] || die "could not read the options of jrecover --help"

mkdir -p files/dir
: > files/image.img
: > files/journal.dump
: > files/undo.e2undo

for lib in "" /usr/share/bash-completion/bash_completion; do
	if [ -n "$lib" ]; then
		[ -f "$lib" ] || { say "(bash-completion not installed: fallback path only)"; break; }
		say "--- with bash-completion's helpers ($lib)"
	else
		say "--- without bash-completion"
	fi
	BASH_COMPLETION_LIB=$lib
	export BASH_COMPLETION_LIB

	NCASES=$((NCASES + 1))
	spec=$(bash -c '[ -n "$BASH_COMPLETION_LIB" ] && . "$BASH_COMPLETION_LIB"
		. "$1"; complete -p jrecover' x "$COMPLETION" 2>&1)
	say "complete -p jrecover: $spec"
	[ "$spec" = "complete -F _jrecover jrecover" ] ||
		fail "complete -p jrecover says '$spec'"

	complete_words --j
	expect "--j" --journal --json
	complete_words -
	sort help.opts > want.all
	NCASES=$((NCASES + 1))
	diff -u want.all got > got.diff ||
		{ sed 's/^/    /' got.diff; fail "'-' does not offer the options of --help (-)"; }
	complete_words --dry
	expect "--dry" --dry-run
	complete_words -n --pro
	expect "-n --pro" --progress

	complete_words -j files/jo
	expect "-j files/jo" files/journal.dump
	complete_words --journal files/jo
	expect "--journal files/jo" files/journal.dump
	complete_words --journal = files/jo
	expect "--journal=files/jo" files/journal.dump
	complete_words -z files/u
	expect "-z files/u" files/undo.e2undo
	complete_words -s files/d
	expect "-s files/d" files/dir
	complete_words -n files/i
	expect "the filesystem" files/image.img
	complete_words -j files/journal.dump files/
	expect "the filesystem after -j" files/dir files/image.img \
		files/journal.dump files/undo.e2undo

	# /dev/null is a character device: never a filesystem.
	complete_words /dev/nul
	expect "/dev/nul" ""
	complete_words -V ""
	expect "after -V" ""
	complete_words -h ""
	expect "after -h" ""
done

end_test
