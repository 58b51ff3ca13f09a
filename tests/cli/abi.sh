#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# abi.sh --- the shared library exports exactly what lib/librecover.sym
# lists, each under its version node, and nothing else, and the static
# archive holds those names global and no other: an accidental export (a
# helper left non-static, an internal function a static link would meet) or
# a symbol dropped from the build fails here, not in a caller's link.
# Every exported function is also declared in the public header (or one of
# the parts it includes) and named in librecover(3).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

SO=$top_builddir/lib/.libs/librecover.so
[ -f "$SO" ] || skip "no shared library built (configure --disable-shared?)"
command -v nm >/dev/null 2>&1 || die "nm not found (binutils)"
SYM=$top_srcdir/lib/librecover.sym

NCASES=$((NCASES + 1))
# Each name between "global:" and "local:" or the node's end, as
# "name@@NODE": a symbol is exported under the node that first lists it.
awk '/^[A-Za-z0-9_.]+ *\{/ { node = $1; sub(/ *\{.*/, "", node); next }
	/global:/ { g = 1; next } /local:|^\}/ { g = 0; next }
	g && /^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;/ {
		n = $1; sub(/;.*/, "", n); print n "@@" node }' "$SYM" |
	sort > listed.ver
sed 's/@.*//' listed.ver | sort > listed
nodes=$(sed 's/.*@@//' listed.ver | sort -u | tr '\n' ' ')
nm -D --defined-only "$SO" | awk '$2 != "A" { print $3 }' | sort > exported
sed 's/@.*//' exported | sort > exported.names
say "version nodes $nodes; $(wc -l < listed) symbols listed, $(wc -l < exported) exported"
if ! diff listed exported.names > /dev/null; then
	diff -u listed exported.names | sed 's/^/    /'
	fail "the exported symbols differ from lib/librecover.sym (- listed only, + exported only)"
fi
if ! diff listed.ver exported > /dev/null; then
	diff -u listed.ver exported | sed 's/^/    /'
	fail "symbols exported under another version node than lib/librecover.sym gives"
fi

# The static archive, where configure built one: the same names global and
# no other (Makefile.am relinks it with ld -r and objcopy), so that a
# program linking it statically meets none of the library's internal
# functions.  libtool's .la names the archive it built in old_library.
NCASES=$((NCASES + 1))
old=$(sed -n "s/^old_library='\(.*\)'$/\1/p" "$top_builddir/lib/librecover.la")
if [ -n "$old" ]; then
	AR_FILE=$top_builddir/lib/.libs/$old
	[ -f "$AR_FILE" ] || fail "lib/librecover.la names $old, which is not there"
	nm -g --defined-only "$AR_FILE" | awk 'NF == 3 { print $3 }' |
		sort -u > archived
	say "static archive: $(wc -l < archived) global symbols"
	if ! diff listed archived > /dev/null; then
		diff -u listed archived | sed 's/^/    /'
		fail "the static archive's global symbols differ from lib/librecover.sym (- listed only, + global only)"
	fi
else
	say "no static archive built (configure --disable-static)"
fi

NCASES=$((NCASES + 1))
for s in $(grep '^recover_' listed); do
	cat "$top_srcdir/lib/librecover.h" "$top_srcdir"/lib/recover_stats.h \
		"$top_srcdir"/lib/recover_walk.h "$top_srcdir"/lib/recover_fsck.h |
		grep -q "[ *]$s(" ||
		fail "$s is exported but not declared in librecover.h or its parts"
	grep -q "$s" "$top_srcdir/man/librecover.3.in" ||
		fail "$s is exported but librecover(3) does not name it"
done

end_test
