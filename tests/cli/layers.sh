#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# layers.sh --- the layering rule of doc/design.md, checked against the
# code: a file of lib/ calls and includes only files of its own row of the
# table "The layers, from the disk up" and of the rows before it.  The
# table is read from doc/design.md itself, so the map and the check cannot
# drift apart:
#  - every source file of lib/ has a row (a new file must be placed);
#  - the calls: for each object of the library (libtool's .lo names it),
#    the symbols it uses that another object defines (nm), each a call
#    from one file to another; one into a later row fails;
#  - the includes: each #include "X.h" of lib/*.c and lib/*.h naming a
#    header of lib/; one of a later row fails.
# Static inline functions of headers are not seen as calls (no symbol):
# their header's row is checked as an include.
#  - recover_stats is the API's alone: no file of lib/ but those of the
#    API's row names struct recover_stats, but the fsck entry, which gets
#    it through recover_get_stats() as any caller does (and the public
#    headers that declare it).  The passes and the lifecycle fill results
#    of their own.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

command -v nm >/dev/null 2>&1 || die "nm not found (binutils)"
DESIGN=$top_srcdir/doc/design.md
LIB=$top_srcdir/lib
[ -f "$DESIGN" ] || die "no $DESIGN"

# rows: "FILE ROW LAYER" for each file named in the table's files column,
# ROW counted from 1 at the table's first row (the disk's end).
awk -F'|' '
	/^## The layers, from the disk up/ { on = 1; next }
	on && /^## / { exit }
	on && /^\| / && $2 !~ /^ *layer *$/ {
		row++
		layer = $2; gsub(/^ +| +$/, "", layer); gsub(/ /, "_", layer)
		n = split($3, f, "`")
		for (i = 2; i <= n; i += 2) print f[i], row, layer
	}' "$DESIGN" > rows
[ -s rows ] || die "no layer table found in doc/design.md"
say "$(awk '{ print $2 }' rows | sort -un | wc -l) layers, $(wc -l < rows) files placed"

# row_of FILE: its row (empty when the table does not place it)
row_of() {
	awk -v f="$1" '$1 == f { print $2; exit }' rows
}
layer_of() {
	awk -v f="$1" '$1 == f { print $3; exit }' rows
}

# --- every file of lib/ has its row -----------------------------------------
NCASES=$((NCASES + 1))
for f in "$LIB"/*.c "$LIB"/*.h "$LIB"/*.sym "$LIB"/*.et; do
	b=$(basename "$f")
	[ -n "$(row_of "$b")" ] ||
		fail "lib/$b has no row in doc/design.md's table of layers"
done
# and every file the table names exists
while read -r f _ _; do
	[ -e "$LIB/$f" ] || fail "doc/design.md places $f, which lib/ does not have"
done < rows

# --- the calls, from the objects' symbols -----------------------------------
NCASES=$((NCASES + 1))
# The source file of each object: lib/X.lo is lib/X.c, or the com_err
# table's generated code (recover_err.et).
: > defs
: > uses
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
	if [ "$stem" = recover_err ]; then src=recover_err.et; else src=$stem.c; fi
	nm -g --defined-only "$obj" | awk -v s="$src" 'NF == 3 { print $3, s }' >> defs
	nm -u "$obj" | awk -v s="$src" '{ print $NF, s }' >> uses
	nobj=$((nobj + 1))
done
[ "$nobj" -gt 0 ] || die "no objects of the library under $top_builddir/lib (not built?)"
sort -k1,1 defs > defs.sorted
sort -k1,1 uses > uses.sorted
# "CALLER CALLEE SYMBOL" for each symbol one object takes from another
join -o 1.2,2.2,1.1 uses.sorted defs.sorted | awk '$1 != $2' | sort -u > calls
say "$nobj objects, $(wc -l < calls) symbols taken from another file"
ncalls=0
while read -r from to sym; do
	rf=$(row_of "$from")
	rt=$(row_of "$to")
	[ -n "$rf" ] && [ -n "$rt" ] || continue
	ncalls=$((ncalls + 1))
	[ "$rt" -le "$rf" ] ||
		fail "upward call: $from ($(layer_of "$from")) uses $sym of $to ($(layer_of "$to"))"
done < calls

# --- the includes -------------------------------------------------------------
NCASES=$((NCASES + 1))
nincl=0
for f in "$LIB"/*.c "$LIB"/*.h; do
	b=$(basename "$f")
	rf=$(row_of "$b")
	[ -n "$rf" ] || continue
	for h in $(sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		# config.h and the generated headers are no layer's
		[ -f "$LIB/$h" ] || continue
		rh=$(row_of "$h")
		[ -n "$rh" ] || continue
		nincl=$((nincl + 1))
		[ "$rh" -le "$rf" ] ||
			fail "upward include: $b ($(layer_of "$b")) includes $h ($(layer_of "$h"))"
	done
done
say "$ncalls calls between files and $nincl includes checked"

# --- recover_stats ------------------------------------------------------------
NCASES=$((NCASES + 1))
for f in "$LIB"/*.c "$LIB"/*.h; do
	b=$(basename "$f")
	case $(layer_of "$b") in
	API|fsck_entry|public_types) continue ;;
	esac
	grep -n "struct recover_stats" "$f" > stats.use &&
		fail "$b ($(layer_of "$b")) names struct recover_stats, which the API alone makes: $(head -1 stats.use)"
done

end_test
