#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# manexample.sh --- the program in librecover(3)'s EXAMPLES section, taken
# from the page itself (its first .EX/.EE block, roff escapes undone):
#  - it compiles with -std=gnu11 -pedantic -Wall -Wextra -Werror and links
#    against the library built here;
#  - on an image whose journal holds one transaction of three blocks it
#    prints what the page's second .EX/.EE block says, exits 1, and leaves
#    e2fsck -y -E journal_only's result byte for byte (imgcmp -s);
#  - run again it exits 0, and without an argument 16;
#  - the page names the installed complete example, examples/fsck-example.c.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without the library"
need_built "$MKDATA" "$IMGCMP"
LIBS_DIR=$top_builddir/lib/.libs
[ -f "$LIBS_DIR/librecover.so" ] || skip "no shared library built (configure --disable-shared?)"
command -v pkg-config >/dev/null 2>&1 || die "pkg-config not found"
MAN=$top_srcdir/man/librecover.3.in
CC=${CC:-cc}

# block N: the Nth .EX/.EE block of the EXAMPLES section, unescaped.
block() {
	sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$MAN" | awk -v want="$1" '
		/^\.EE/ { inside = 0; next }
		inside && n == want { print }
		/^\.EX/ { inside = 1; n++ }' |
		sed -e 's/\\e/\\/g' -e 's/\\-/-/g'
}

NCASES=$((NCASES + 1))
block 1 > replay.c
block 2 > expected.out
say "librecover(3) EXAMPLES: $(wc -l < replay.c) lines of program, output:"
sed 's/^/    /' expected.out
[ -s replay.c ] && [ -s expected.out ] || fail "librecover(3) has no EXAMPLES section with a program and its output"
grep -q 'examples/fsck\\-example\.c' "$MAN" ||
	fail "librecover(3) does not name the installed examples/fsck-example.c"

DEPS_CFLAGS=$(pkg-config --cflags ext2fs com_err) || die "pkg-config ext2fs com_err failed"
DEPS_LIBS=$(pkg-config --libs ext2fs com_err) || die "pkg-config ext2fs com_err failed"
# shellcheck disable=SC2086
run "$CC" -std=gnu11 -pedantic -Wall -Wextra -Werror ${BUILD_CFLAGS:-} \
	-I"$top_srcdir/lib" -I"$top_builddir/lib" $DEPS_CFLAGS -o replay replay.c \
	-L"$LIBS_DIR" -lrecover $DEPS_LIBS ${BUILD_LDFLAGS:-} ||
	fail "the EXAMPLES program does not compile cleanly"

NCASES=$((NCASES + 1))
if [ -x replay ]; then
	mkimg fs.img 16M
	# shellcheck disable=SC2046
	set -- $(free_blocks fs.img 3)
	mkdata t1.bin 4096 3 -s 21
	jtxn fs.img -b "$(blist "$1" "$2" "$3")" t1.bin
	copy_img fs.img oracle.img
	run e2fsck -y -E journal_only oracle.img
	[ "$RUN_RC" -le 1 ] || die "e2fsck -y -E journal_only exited $RUN_RC"

	run env LD_LIBRARY_PATH="$LIBS_DIR" ./replay fs.img
	[ "$RUN_RC" -eq 1 ] || fail "the EXAMPLES program exited $RUN_RC on a journal to replay, not 1"
	cmp -s "$SCRATCH/.run.out" expected.out ||
		fail "the EXAMPLES program printed '$(cat "$SCRATCH/.run.out")', not what the page says"
	"$IMGCMP" -s oracle.img fs.img > cmp.out ||
		{ sed 's/^/    /' cmp.out; fail "its replay differs from e2fsck's"; }
	run env LD_LIBRARY_PATH="$LIBS_DIR" ./replay fs.img
	[ "$RUN_RC" -eq 0 ] || fail "run again it exited $RUN_RC, not 0"
	run env LD_LIBRARY_PATH="$LIBS_DIR" ./replay
	[ "$RUN_RC" -eq 16 ] || fail "without an argument it exited $RUN_RC, not 16"
fi

end_test
