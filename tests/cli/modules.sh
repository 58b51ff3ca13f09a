#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# modules.sh --- a module of lib/ is a file pair and a prefix, so that a
# reader finds the file from a name (doc/design.md, "The layers"):
#  - every global the library's objects define, but the exported API of
#    lib/librecover.sym (recover_*, the com_err table), is named for its
#    file: among the stems of lib/*.c, the longest that the name is or
#    starts with followed by '_' is the file that defines it
#    (life_mmp_begin is life_mmp.c's, fc_scan_area fc.c's, as no
#    fc_scan.c exists);
#  - a header of lib/ declares the globals of the file it is named for,
#    and no other file's (the public headers declare the API).
# The names come from the objects (nm), as tests/cli/layers.sh reads them.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

command -v nm >/dev/null 2>&1 || die "nm not found (binutils)"
LIB=$top_srcdir/lib

sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' \
	"$LIB/librecover.sym" | sort > exported
for f in "$LIB"/*.c; do basename "$f" .c; done > stems

# "SYMBOL STEM" for each global an object of the library defines
: > defs
nobj=0
for lo in "$top_builddir"/lib/*.lo; do
	[ -f "$lo" ] || continue
	obj=$(sed -n "s/^pic_object='\\(.*\\)'$/\\1/p" "$lo")
	[ -n "$obj" ] && [ "$obj" != none ] ||
		obj=$(sed -n "s/^non_pic_object='\\(.*\\)'$/\\1/p" "$lo")
	obj=$top_builddir/lib/$obj
	[ -f "$obj" ] || continue
	stem=$(basename "$lo" .lo)
	stem=${stem#*_la-}
	[ -f "$LIB/$stem.c" ] || continue	# the generated com_err table
	nm -g --defined-only "$obj" | awk -v s="$stem" 'NF == 3 { print $3, s }' >> defs
	nobj=$((nobj + 1))
done
[ "$nobj" -gt 0 ] || die "no objects of the library under $top_builddir/lib (not built?)"
sort -u defs | awk 'NR == FNR { x[$1] = 1; next } !($1 in x)' exported - > internal
say "$nobj objects, $(wc -l < internal) internal globals"

# --- each name leads to its file -----------------------------------------------
NCASES=$((NCASES + 1))
awk 'NR == FNR { stem[$1] = 1; next }
	{
		best = ""
		for (s in stem)
			if (($1 == s || index($1, s "_") == 1) &&
			    length(s) > length(best))
				best = s
		if (best != $2)
			print $1, $2, (best == "" ? "no file" : best ".c")
	}' stems internal > misnamed
while read -r sym file leads; do
	fail "$sym is defined in lib/$file.c but its name leads to $leads"
done < misnamed

# --- each prototype in its file's header ----------------------------------------
NCASES=$((NCASES + 1))
nproto=0
while read -r sym file; do
	for h in "$LIB"/*.h; do
		b=$(basename "$h" .h)
		# a declaration: the name and '(' on a line that is no comment,
		# no call (return ...) and no mention inside a comment
		grep -E "(^|[ *])$sym\(" "$h" | grep -v 'return ' |
			grep -v "/\\*.*$sym(" |
			grep -Evq '^[[:space:]]*(/?\*|//)' || continue
		nproto=$((nproto + 1))
		[ "$b" = "$file" ] ||
			fail "$sym (lib/$file.c) is declared in lib/$b.h, not lib/$file.h"
	done
done < internal
say "$nproto declarations checked"

end_test
