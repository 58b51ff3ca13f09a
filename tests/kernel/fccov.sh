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
# With "list", then every branch never taken, as "FILE:LINE FUNCTION:
# branch N never taken|never executed [error|host]", the source line
# after it.
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

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
found=0
mkdir "$work/none" || exit 1
for c in "$SRC"/lib/fc*.c; do
	f=$(basename "$c" .c)
	obj=
	# Where the counts are: the shared objects', else the static ones'.
	for d in lib/.libs lib; do
		if [ -s "${FCCOV_DATA:-}$BLD/$d/$f.gcda" ] &&
		   [ -s "$BLD/$d/$f.gcno" ]; then
			obj=${FCCOV_DATA:-}$BLD/$d
			[ -z "${FCCOV_DATA:-}" ] || cp "$BLD/$d/$f.gcno" "$obj/" ||
				exit 1
			found=1
			break
		fi
	done
	if [ -z "$obj" ]; then
		# Never run: every branch untaken; gcov counts them from the
		# .gcno alone (a directory without the .gcda).
		for d in lib/.libs lib; do
			if [ -s "$BLD/$d/$f.gcno" ]; then
				cp "$BLD/$d/$f.gcno" "$work/none/" || exit 1
				obj=$work/none
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
			keep' > "$work/$f.gcov.out"
	[ -s "$work/$f.gcov.out" ] ||
		{ echo "fccov: gcov made nothing for lib/$f.c" >&2; continue; }
done
[ "$found" = 1 ] || { echo "fccov: no .gcda under $BLD/lib: run something first" >&2; exit 1; }

# A .gcov file: "COUNT:LINE:SOURCE" lines, "function NAME called ..." before
# each function, "branch N taken M" or "branch N never executed" after the
# line the branch is on.
for g in "$work"/*.gcov.out; do
	awk -v file="lib/$(basename "$g" .gcov.out).c" -v list="$LIST" '
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
			n++
			if (kind == "")
				rn++
			if ($3 == "taken" && $4 + 0 > 0) {
				t++
				if (kind == "")
					rt++
			} else if (list != "") {
				printf "%s:%d %s: branch %d %s%s\n    %s\n", file, line,
				    fn, $2, $3 == "taken" ? "never taken" : "never executed",
				    kind == "" ? "" : " " kind, src
			}
			next
		}
		/^ *[-#=0-9*]+: *[0-9]+:/ {
			split($0, a, ":")
			line = a[2] + 0
			text = substr($0, length(a[1]) + length(a[2]) + 3)
		}
		END { printf "=%s %d %d %d %d\n", file, t, n, rt, rn }
	' "$g"
done > "$work/all"

grep -v '^=' "$work/all"
grep '^=' "$work/all" | sed 's/^=//' | awk '
	{ printf "%s: branches taken at least once: %d of %d (%.1f%%)\n", $1, $2, $3,
	    $3 ? 100 * $2 / $3 : 0; T += $2; N += $3; RT += $4; RN += $5 }
	END { printf "lib/fc*.c: branches taken at least once: %d of %d (%.1f%%)\n", T, N,
	    N ? 100 * T / N : 0
	    printf "lib/fc*.c without error returns and the big-endian host'"'"'s: " \
		"branches taken at least once: %d of %d (%.1f%%)\n", RT, RN,
		RN ? 100 * RT / RN : 0 }'
