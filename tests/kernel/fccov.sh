#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fccov.sh --- the branch coverage of lib/fc*.c, from the .gcda files a
# coverage build (configure --enable-coverage) left behind; make
# soak-coverage runs a soak, then this.
#
#   sh fccov.sh SRCDIR BUILDDIR [list]
#
# Prints one line per source file and one for them all, each
#     FILE: branches taken at least once: X of Y (Z%)
# counted by gcov -b (a branch is one outcome of a conditional jump the
# compiler made at -O0; "taken" is a count above zero), then the same
# leaving out the branches that only a failure can take: lines whose whole
# condition is an error code (if (err), if (!err)) or a pointer that
# malloc returned (if (!buf)), and the big-endian host's byte swaps (the
# s390x run of tests/cross).  That split is by the source line's text: a
# line with more in its condition (if (err || !x)) counts as reachable.
#
# Then the classification of tests/kernel/fc-reach.txt (FCCOV_CLASSES=FILE
# for another): each branch never taken that it names gets its class
# (crafted: only a corrupt or crafted log takes it; never: it cannot
# happen as the library is called; work: a workload could take it, said
# how), and the figure is given again over the branches a real journal can
# take: all but the untaken ones of class crafted, never, error and host
# (an entry is about a source line: its taken outcomes count as taken).
#
# FCCOV_FUZZ=DIR: the counts of a second run of the same build, written
# under GCOV_PREFIX=DIR (make soak-coverage FCCOV_FUZZ=1 runs the fuzz
# replayers of tests/fuzz over their corpora and regress inputs so): the
# reach of the two together is printed too, and how many of the crafted
# branches that run takes.
#
# With "list", every branch never taken first, as "FILE:LINE FUNCTION:
# branch N never taken|never executed [CLASS] [fuzz]" ("fuzz": the second
# run took it), the source line after it.
#
# The library is a shared one under libtool: its counts are in
# lib/.libs/*.gcda (lib/*.gcda for the static objects, used where the
# shared ones have none).  FCCOV_DATA=DIR: the counts are under DIR as
# GCOV_PREFIX=DIR wrote them (DIR then BUILDDIR's absolute path), for a soak
# run beside another with the same build; the .gcno are copied there.
# Exit status 0, 1 when no counts are found.

set -u
SRC=$(cd "$1" && pwd) || exit 1
BLD=$(cd "$2" && pwd) || exit 1
LIST=${3:-}
GCOV=${GCOV:-gcov}
CLASSES=${FCCOV_CLASSES:-$SRC/tests/kernel/fc-reach.txt}

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# branches PREFIX OUT: one line per branch of lib/fc*.c from the counts
# under PREFIX (empty: the build directory itself), tab-separated:
#     FILE LINE N FUNCTION TAKEN(0|1) KIND STATE SOURCE
# N is the branch's number on its line as gcov gives it, KIND error, host
# or empty, STATE "never taken" or "never executed" (or "taken").
# Exit status 1 when no counts were found.
branches() {
	_pre=$1 _out=$2 _found=0
	rm -rf "$work/g" && mkdir -p "$work/g/none" || exit 1
	for c in "$SRC"/lib/fc*.c; do
		f=$(basename "$c" .c)
		obj=
		# Where the counts are: the shared objects', else the static ones'.
		for d in lib/.libs lib; do
			if [ -s "$_pre$BLD/$d/$f.gcda" ] &&
			   [ -s "$BLD/$d/$f.gcno" ]; then
				obj=$_pre$BLD/$d
				[ -z "$_pre" ] || cp "$BLD/$d/$f.gcno" "$obj/" ||
					exit 1
				_found=1
				break
			fi
		done
		if [ -z "$obj" ]; then
			# Never run: every branch untaken; gcov counts them from
			# the .gcno alone (a directory without the .gcda).
			for d in lib/.libs lib; do
				if [ -s "$BLD/$d/$f.gcno" ]; then
					cp "$BLD/$d/$f.gcno" "$work/g/none/" || exit 1
					obj=$work/g/none
					break
				fi
			done
		fi
		if [ -z "$obj" ]; then
			echo "fccov: no coverage data for lib/$f.c in $BLD" >&2
			continue
		fi
		# From the build directory: the .gcno names the source as the
		# compiler was given it, relative to there.  -t: the annotated
		# sources on stdout (headers too: only this file's part is kept).
		(cd "$BLD" && "$GCOV" -b -t -o "$obj" "$c" 2> /dev/null) |
			awk -v want="lib/$f.c" '
				/^ *-: *0:Source:/ {
					src = $0
					sub(/^ *-: *0:Source:/, "", src)
					keep = substr(src, length(src) - length(want) + 1) == want
				}
				keep' > "$work/g/$f.gcov.out"
		[ -s "$work/g/$f.gcov.out" ] ||
			{ echo "fccov: gcov made nothing for lib/$f.c" >&2; continue; }
	done
	# A .gcov file: "COUNT:LINE:SOURCE" lines, "function NAME called ..."
	# before each function, "branch N taken M" or "branch N never
	# executed" after the line the branch is on.
	for g in "$work"/g/*.gcov.out; do
		awk -v file="$(basename "$g" .gcov.out).c" '
			/^function / { fn = $2; next }
			/^branch / {
				src = text
				sub(/^[ \t]+/, "", src)
				kind = ""
				if (src ~ /^(} else )?(if|while) \(!?err\)/ ||
				    src ~ /^return err \? err :/ ||
				    src ~ /^if \(!(buf|tmp|o|ch|d|mine|p|map)\)/ ||
				    src ~ /^if \(!o->jbuf \|\| !o->log\)/ ||
				    src ~ /ENOMEM/)
					kind = "error"
				else if (src ~ /big_endian_host/)
					kind = "host"
				taken = $3 == "taken" && $4 + 0 > 0
				state = taken ? "taken" : $3 == "taken" ? "never taken" : "never executed"
				printf "%s\t%d\t%d\t%s\t%d\t%s\t%s\t%s\n", file, line,
				    $2, fn, taken, kind, state, src
				next
			}
			/^ *[-#=0-9*]+: *[0-9]+:/ {
				split($0, a, ":")
				line = a[2] + 0
				text = substr($0, length(a[1]) + length(a[2]) + 3)
			}
		' "$g"
	done > "$_out"
	[ "$_found" = 1 ]
}

branches "${FCCOV_DATA:-}" "$work/main" ||
	{ echo "fccov: no .gcda under $BLD/lib: run something first" >&2; exit 1; }
: > "$work/fuzz"
if [ -n "${FCCOV_FUZZ:-}" ]; then
	branches "$FCCOV_FUZZ" "$work/fuzz" ||
		{ echo "fccov: no .gcda under $FCCOV_FUZZ$BLD/lib" >&2; exit 1; }
fi
: > "$work/classes"
[ ! -f "$CLASSES" ] || cp "$CLASSES" "$work/classes"

# The classes file: "CLASS FILE FUNCTION[:N,...] | SOURCE TEXT | WHY", '#'
# comments; TEXT is found as it is (not a pattern) in the branch's source
# line ("*": any line of the function), N limits the entry to those branch
# numbers of the line; the first entry that fits decides.
awk -v list="$LIST" -v fuzzrun="${FCCOV_FUZZ:+1}" -F '\t' '
	FILENAME == ARGV[1] {
		if ($0 ~ /^[ \t]*(#|$)/)
			next
		np = split($0, p, / \| /)
		split(p[1], h, / +/)
		ncl++
		ccls[ncl] = h[1]; cfile[ncl] = h[2]; cfn[ncl] = h[3]
		cbr[ncl] = ""
		if (cfn[ncl] ~ /:/) {
			cbr[ncl] = "," substr(cfn[ncl], index(cfn[ncl], ":") + 1) ","
			cfn[ncl] = substr(cfn[ncl], 1, index(cfn[ncl], ":") - 1)
		}
		ctext[ncl] = np >= 2 ? p[2] : ""
		next
	}
	FILENAME == ARGV[2] { fz[$1 ":" $2 ":" $3] = $5; next }
	{
		key = $1 ":" $2 ":" $3
		file = $1; taken = $5; kind = $6; cls = ""
		for (i = 1; i <= ncl; i++)
			if (cfile[i] == file && cfn[i] == $4 &&
			    (ctext[i] == "*" || index($8, ctext[i])) &&
			    (cbr[i] == "" || index(cbr[i], "," $3 ",")))
				{ cls = ccls[i]; break }
		if (cls == "")
			cls = kind
		N[file]++; T[file] += taken
		n++; t += taken
		if (kind == "") { rn++; rt += taken }
		f = fz[key] + 0
		if (taken || f)
			u++
		excl = cls == "crafted" || cls == "never" || cls == "error" ||
		    cls == "host"
		if (!taken) {
			c = cls == "" ? "unclassified" : cls
			U[c]++
			if (f)
				UF[c]++
			if (excl)
				nexcl++
			if (list != "")
				printf "lib/%s:%d %s: branch %d %s%s%s\n    %s\n",
				    file, $2, $4, $3, $7, " " c,
				    f ? " fuzz" : "", $8
		}
	}
	END {
		for (file in N)
			printf "lib/%s: branches taken at least once: %d of %d (%.1f%%)\n",
			    file, T[file], N[file], 100 * T[file] / N[file] | "sort"
		close("sort")
		printf "lib/fc*.c: branches taken at least once: %d of %d (%.1f%%)\n",
		    t, n, n ? 100 * t / n : 0
		printf "lib/fc*.c without error returns and the big-endian host'"'"'s: " \
		    "branches taken at least once: %d of %d (%.1f%%)\n", rt, rn,
		    rn ? 100 * rt / rn : 0
		if (fuzzrun)
			printf "lib/fc*.c, this run and the FCCOV_FUZZ run together: " \
			    "branches taken at least once: %d of %d (%.1f%%)\n",
			    u, n, n ? 100 * u / n : 0
		if (ncl) {
			printf "never taken, by class:"
			split("work unclassified crafted never error host", order, " ")
			for (i = 1; i <= 6; i++)
				if (U[order[i]])
					printf " %s %d%s", order[i], U[order[i]],
					    fuzzrun ? sprintf(" (FCCOV_FUZZ run: %d)",
					    UF[order[i]] + 0) : ""
			printf "\n"
			printf "lib/fc*.c over the branches a real journal can take " \
			    "(all but crafted, never, error, host): branches taken " \
			    "at least once: %d of %d (%.1f%%)\n", t, n - nexcl,
			    n - nexcl ? 100 * t / (n - nexcl) : 0
		}
	}
' "$work/classes" "$work/fuzz" "$work/main"
