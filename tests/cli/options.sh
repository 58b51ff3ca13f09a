#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# options.sh --- the options jrecover --help lists are the options
# jrecover(8) documents, and the other way round: short and long forms, and
# whether each takes an argument.  Also: every option --help lists is one
# jrecover accepts (getopt would call anything else a usage error), and the
# SYNOPSIS names no option the OPTIONS section lacks.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
MAN=$top_srcdir/man/jrecover.8.in
[ -f "$MAN" ] || die "$MAN missing"

# Both lists come out as lines "SHORT LONG ARG": SHORT is "-x" or "-" when
# there is none, ARG is "arg" or "-".

# --help: "  -j, --journal PATH   text" and "      --json   text".
run "$JRECOVER" --help || fail "jrecover --help exited $RUN_RC"
awk '
	/^ +-/ {
		s = "-"; l = "-"; a = "-"; i = 1
		if ($1 ~ /^-[^-],?$/) { s = substr($1, 1, 2); i = 2 }
		if ($i ~ /^--[a-z]/) { l = $i; i++ }
		if ($i ~ /^[A-Z][A-Z_]*$/) a = "arg"
		print s, l, a
	}' "$SCRATCH/.run.out" | sort > help.opts

# jrecover.8, section OPTIONS: the line after each .TP, such as
#   .BR \-j ", " \-\-journal " \fIpath\fR"     or     .B \-\-json
# with \- for -, and \fI...\fR around an argument.
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$MAN" | awk '
	prev == ".TP" {
		line = $0
		gsub(/\\-/, "-", line)
		arg = (line ~ /\\fI/) ? "arg" : "-"
		gsub(/\\f[A-Z]/, "", line)
		gsub(/"/, " ", line)
		gsub(/,/, " ", line)
		n = split(line, w, " ")
		s = "-"; l = "-"
		for (i = 2; i <= n; i++) {
			if (w[i] ~ /^-[A-Za-z]$/) s = w[i]
			else if (w[i] ~ /^--[a-z][a-z-]*$/) l = w[i]
		}
		print s, l, arg
	}
	{ prev = $1 }' | sort > man.opts

say "--- options in jrecover --help:"
sed 's/^/    /' help.opts
say "--- options in jrecover(8):"
sed 's/^/    /' man.opts

NCASES=$((NCASES + 1))
[ "$(wc -l < help.opts)" -ge 10 ] ||
	fail "found only $(wc -l < help.opts) options in --help: the parser is wrong"
[ "$(wc -l < man.opts)" -ge 10 ] ||
	fail "found only $(wc -l < man.opts) options in jrecover.8: the parser is wrong"
if ! diff -u help.opts man.opts > opts.diff; then
	sed 's/^/    /' opts.diff
	fail "jrecover --help (-) and jrecover(8) (+) document different options"
fi

# Every option --help lists is accepted: "OPT [ARG] -h" prints the help and
# exits 0 only if getopt knew OPT (an unknown one is a usage error, 16).
while read -r s l a; do
	for o in $s $l; do
		[ "$o" = - ] && continue
		NCASES=$((NCASES + 1))
		if [ "$a" = arg ]; then
			set -- "$o" x
		else
			set -- "$o"
		fi
		case $o in
		-V|--version) ;;
		*) set -- "$@" -h ;;
		esac
		"$JRECOVER" "$@" > /dev/null 2>&1
		rc=$?
		[ "$rc" -eq 0 ] || fail "jrecover $* exited $rc: $o is in --help but not accepted"
	done
done < help.opts

# The SYNOPSIS uses only options the OPTIONS section documents.
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g; s/\\f[A-Z]//g' |
	grep -o -- '--*[A-Za-z][a-z-]*' | sort -u > synopsis.opts
NCASES=$((NCASES + 1))
while read -r o; do
	awk -v o="$o" '$1 == o || $2 == o { found = 1 } END { exit !found }' \
		man.opts || fail "the SYNOPSIS names $o, which OPTIONS does not document"
done < synopsis.opts

end_test
