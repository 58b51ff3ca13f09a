#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# linking.sh --- the library links the way librecover(3) says, as an
# outside program would build against an installed copy:
#  - `make install DESTDIR=...` puts the headers in include/librecover/,
#    librecover.pc in lib/pkgconfig/ and no libtool archive (.la), a man
#    page for each exported function (a .so link to librecover(3)), and
#    the version configure put in the man pages;
#  - make install puts contrib/fsck-example.c (and partition-example.c,
#    which builds the same way) in $(docdir)/examples, and
#    that installed copy builds with exactly the command its header and
#    librecover(3) give, `cc fsck-example.c $(pkg-config --cflags --libs
#    librecover)` (librecover.pc's Requires bring ext2fs and com_err, whose
#    error_message() callers use), and replays a journal (exit 1, then 0);
#  - `pkg-config --static --libs librecover` names only libraries that
#    exist as archives (libNAME.a where the -L directories or the
#    compiler look), and fsck-example.c links fully statically (cc
#    -static) against the installed librecover.a with those flags and
#    replays a journal with checksums (v3): the archive's crc32c is
#    libext2fs's, as Debian has no libisal.a (Makefile.am);
#  - a C++ program including <librecover.h> compiles and links with g++
#    (the com_err header sits inside the extern "C" block) and, after the
#    two table initialisations librecover(3) asks for, error_message()
#    knows both librecover's and libext2fs's codes;
#  - the version macros of the installed <recover_version.h> (which
#    <librecover.h> includes) agree with recover_version() at run time and
#    with `pkg-config --modversion librecover`, and
#    LIBRECOVER_CHECK_VERSION is true for that version and older ones and
#    false for newer ones, in #if and in code alike;
#  - `make uninstall DESTDIR=...` then leaves no file behind (libraries,
#    .so links, man page links, completion and example included).
# The installed tree's prefix is moved into the scratch directory by
# rewriting the prefix= line of a copy of librecover.pc, as a package built
# with another --prefix would have it.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
command -v pkg-config >/dev/null 2>&1 || die "pkg-config not found"
CC=${CC:-cc}
CXX=${CXX:-g++}
# The build's own flags come along (a sanitizer build's library wants its
# runtime in the programs that load it); the documented pkg-config flags
# are the ones under test.
XFLAGS=${BUILD_CFLAGS:-}
XLDFLAGS=${BUILD_LDFLAGS:-}
command -v "$CXX" >/dev/null 2>&1 ||
	die "$CXX not found: it is a test dependency (contrib/install-deps.sh)"

DEST=$SCRATCH/inst
NCASES=$((NCASES + 1))
# A make of our own inside make check: the parent's jobserver is not ours.
run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -C "$top_builddir" install DESTDIR="$DEST" ||
	die "make install DESTDIR=$DEST failed"
PREFIX=$(sed -n 's/^prefix=//p' "$top_builddir/lib/librecover.pc")
LIBDIR=$DEST$(sed -n 's/^libdir=//p' "$top_builddir/lib/librecover.pc" |
	sed "s|\${exec_prefix}|$PREFIX|")
ROOT=$DEST$PREFIX
for f in include/librecover/librecover.h include/librecover/recover_err.h \
	include/librecover/recover_stats.h include/librecover/recover_walk.h \
	include/librecover/recover_fsck.h include/librecover/recover_version.h; do
	[ -f "$ROOT/$f" ] || fail "$f is not installed under $ROOT"
done
for f in include/librecover.h include/recover_err.h; do
	[ -e "$ROOT/$f" ] && fail "$f is installed at the top of includedir"
done
[ -f "$LIBDIR/librecover.so" ] || fail "librecover.so is not in $LIBDIR"
# Every exported function has a man page of its own (pointing to
# librecover(3)), and the pages carry this version.
for s in $(sed -n 's/^[[:space:]]*\(recover_[a-z_]*\);.*/\1/p' "$top_srcdir/lib/librecover.sym"); do
	grep -qx '.so man3/librecover.3' "$ROOT/share/man/man3/$s.3" 2>/dev/null ||
		fail "no man page $s.3 pointing to librecover(3)"
done
for m in man8/jrecover.8 man3/librecover.3; do
	sed -n 2p "$ROOT/share/man/$m" | grep -q "\"librecover $(sed -n 's/^Version: //p' "$top_builddir/lib/librecover.pc")\"" ||
		fail "$m does not carry the version: $(sed -n 2p "$ROOT/share/man/$m")"
	grep -q '@PACKAGE' "$ROOT/share/man/$m" && fail "$m holds an unsubstituted @PACKAGE_...@"
done
[ -e "$LIBDIR/librecover.la" ] && fail "a libtool archive is installed"

mkdir -p pc
sed "s|^prefix=.*|prefix=$ROOT|" "$LIBDIR/pkgconfig/librecover.pc" > pc/librecover.pc
PKG_CONFIG_PATH=$SCRATCH/pc
export PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs librecover) ||
	die "pkg-config --cflags --libs librecover failed"
say "pkg-config --cflags --libs librecover: $flags"

# The documented command, as it stands in fsck-example.c's header.
doc=$(sed -n 's/^ \*  *\(cc fsck-example\.c.*\)$/\1/p' \
	"$top_srcdir/contrib/fsck-example.c")
[ "$doc" = 'cc fsck-example.c $(pkg-config --cflags --libs librecover)' ] ||
	fail "fsck-example.c documents '$doc', not the command tested here"
grep -q 'cc prog.c $(pkg\\-config \\-\\-cflags \\-\\-libs librecover)' \
	"$top_srcdir/man/librecover.3.in" ||
	fail "librecover(3) does not give the build command tested here"

NCASES=$((NCASES + 1))
example=$(find "$ROOT/share/doc" -path '*/examples/fsck-example.c' 2>/dev/null | head -n 1)
if [ -z "$example" ]; then
	fail "fsck-example.c is not installed in \$(docdir)/examples"
	example=$top_srcdir/contrib/fsck-example.c
elif ! cmp -s "$example" "$top_srcdir/contrib/fsck-example.c"; then
	fail "the installed $example is not contrib/fsck-example.c"
fi
cp "$example" .
# shellcheck disable=SC2086
run "$CC" $XFLAGS -o fsck-example fsck-example.c $flags $XLDFLAGS ||
	fail "fsck-example.c does not build with the documented command"
if [ -x fsck-example ]; then
	mkimg fs.img 16M
	std_workload fs.img
	run env LD_LIBRARY_PATH="$LIBDIR" ./fsck-example fs.img
	[ "$RUN_RC" -eq 1 ] || fail "fsck-example replayed with exit $RUN_RC, not 1"
	run env LD_LIBRARY_PATH="$LIBDIR" ./fsck-example fs.img
	[ "$RUN_RC" -eq 0 ] || fail "fsck-example's second run exited $RUN_RC, not 0"
fi

# The other installed example, an io_manager of its own, builds with the
# command its header gives.
NCASES=$((NCASES + 1))
pexample=$(find "$ROOT/share/doc" -path '*/examples/partition-example.c' 2>/dev/null | head -n 1)
doc=$(sed -n 's/^ \*  *\(cc partition-example\.c.*\)$/\1/p' \
	"$top_srcdir/contrib/partition-example.c")
[ "$doc" = 'cc partition-example.c $(pkg-config --cflags --libs librecover)' ] ||
	fail "partition-example.c documents '$doc', not the command tested here"
if [ -z "$pexample" ]; then
	fail "partition-example.c is not installed in \$(docdir)/examples"
elif ! cmp -s "$pexample" "$top_srcdir/contrib/partition-example.c"; then
	fail "the installed $pexample is not contrib/partition-example.c"
else
	cp "$pexample" .
	# shellcheck disable=SC2086
	run "$CC" $XFLAGS -o partition-example partition-example.c $flags $XLDFLAGS ||
		fail "partition-example.c does not build with the documented command"
	[ ! -x partition-example ] ||
		run env LD_LIBRARY_PATH="$LIBDIR" ./partition-example -h ||
		fail "the installed partition-example -h exited $RUN_RC"
fi

# The installed static archive: a program linked with it alone (no
# LD_LIBRARY_PATH) replays, and a program of its own with functions named as
# the library's internal ones (e2fsck has jbd2_ and revoke functions) links
# with it: only the public API is global in the archive (Makefile.am).
NCASES=$((NCASES + 1))
if [ -f "$LIBDIR/librecover.a" ]; then
	sflags=$(pkg-config --cflags --static --libs librecover |
		sed "s|-lrecover|$LIBDIR/librecover.a|")
	# shellcheck disable=SC2086
	run "$CC" $XFLAGS -o fsck-static fsck-example.c $sflags $XLDFLAGS ||
		fail "fsck-example.c does not link with the static archive"
	if [ -x fsck-static ]; then
		mkimg st.img 16M
		std_workload st.img
		run ./fsck-static st.img
		[ "$RUN_RC" -eq 1 ] || fail "the static fsck-example exited $RUN_RC, not 1"
	fi
	cat > namesake.c <<'EOF'
#include <stdio.h>
#include <librecover.h>

/* Namesakes of the library's internal functions. */
int revoke_init(void) { return 1; }
int jbd2_decode_super(void) { return 2; }
int lifecycle_open(void) { return 3; }

int main(void)
{
	printf("%s %d\n", recover_version(),
	       revoke_init() + jbd2_decode_super() + lifecycle_open());
	return 0;
}
EOF
	# shellcheck disable=SC2086
	run "$CC" $XFLAGS -o namesake namesake.c $sflags $XLDFLAGS ||
		fail "a program with functions named as the library's internals does not link statically"
	[ ! -x namesake ] || run ./namesake
	[ ! -x namesake ] || grep -q ' 6$' "$SCRATCH/.run.out" ||
		fail "the namesake program did not call its own functions"
else
	say "no static archive installed (configure --disable-static)"
fi

# A fully static program, with the flags librecover.pc gives for one.
NCASES=$((NCASES + 1))
if [ ! -f "$LIBDIR/librecover.a" ]; then
	say "no static archive installed: no static link"
else
	static=$(pkg-config --cflags --static --libs librecover) ||
		fail "pkg-config --static --libs librecover failed"
	say "pkg-config --cflags --static --libs librecover: $static"
	dirs=
	for w in $static; do
		case $w in -L*) dirs="$dirs ${w#-L}" ;; esac
	done
	for w in $static; do
		case $w in -l*) ;; *) continue ;; esac
		found=
		for d in $dirs; do
			[ -f "$d/lib${w#-l}.a" ] && found=$d/lib${w#-l}.a && break
		done
		if [ -z "$found" ]; then
			found=$("$CC" -print-file-name="lib${w#-l}.a")
			[ "$found" = "lib${w#-l}.a" ] && found=
		fi
		if [ -n "$found" ]; then
			say "    $w: $found"
		else
			fail "pkg-config --static names $w, and there is no lib${w#-l}.a"
		fi
	done
	case " $XFLAGS $XLDFLAGS " in
	*-fsanitize*)
		say "a sanitizer build: its runtime does not link with -static" ;;
	*)
		# shellcheck disable=SC2086
		run "$CC" $XFLAGS -static -o fsck-full-static fsck-example.c $static \
			$XLDFLAGS || fail "fsck-example.c does not link with cc -static"
		if [ -x fsck-full-static ]; then
			readelf -l fsck-full-static | grep -q INTERP &&
				fail "cc -static made a dynamically linked program"
			nm fsck-full-static | grep -q ' T crc32_iscsi$' &&
				fail "the static program holds ISA-L's crc32_iscsi"
			set_format 4k-64-v3
			mkimg_fmt full.img
			std_workload full.img
			copy_img full.img full-jrecover.img
			run ./fsck-full-static full.img
			[ "$RUN_RC" -eq 1 ] || fail "the fully static fsck-example exited $RUN_RC, not 1"
			jrecover full-jrecover.img
			run "$IMGCMP" -s full-jrecover.img full.img ||
				fail "the fully static fsck-example's image differs from jrecover's"
		fi ;;
	esac
fi

NCASES=$((NCASES + 1))
cat > cxx.cc <<'EOF'
#include <cstdio>
#include <cstring>
#include <librecover.h>

int main()
{
	initialize_rcvr_error_table();
	initialize_ext2_error_table();
	std::printf("version %s\n", recover_version());
	std::printf("rcvr: %s\n", error_message(RECOVER_ET_BUSY));
	std::printf("ext2: %s\n", error_message(EXT2_ET_BAD_MAGIC));
	return std::strcmp(recover_version(), "") == 0;
}
EOF
# shellcheck disable=SC2086
run "$CXX" $XFLAGS -o cxx cxx.cc $flags $XLDFLAGS || fail "a C++ caller does not build"
if [ -x cxx ]; then
	run env LD_LIBRARY_PATH="$LIBDIR" ./cxx
	[ "$RUN_RC" -eq 0 ] || fail "the C++ caller exited $RUN_RC"
	grep -q '^rcvr: Device is held open exclusively' "$SCRATCH/.run.out" ||
		fail "error_message() does not know librecover's codes"
	grep -q '^ext2: Bad magic number in super-block' "$SCRATCH/.run.out" ||
		fail "error_message() does not know libext2fs's codes"
	grep -q "^version $(sed -n 's/^Version: //p' pc/librecover.pc)\$" \
		"$SCRATCH/.run.out" || fail "recover_version() is not the .pc's Version"
fi

# The version macros, as a caller building against several releases uses
# them.
NCASES=$((NCASES + 1))
cat > version.c <<'EOF'
#include <stdio.h>
#include <string.h>
#include <librecover.h>

#define MAJ LIBRECOVER_VERSION_MAJOR
#define MIN LIBRECOVER_VERSION_MINOR
#define MIC LIBRECOVER_VERSION_MICRO

#if !LIBRECOVER_CHECK_VERSION(MAJ, MIN, MIC) || !LIBRECOVER_CHECK_VERSION(0, 0, 0)
#error "LIBRECOVER_CHECK_VERSION is false for the header's own version"
#endif
#if LIBRECOVER_CHECK_VERSION(MAJ, MIN, MIC + 1) || \
	LIBRECOVER_CHECK_VERSION(MAJ, MIN + 1, 0) || \
	LIBRECOVER_CHECK_VERSION(MAJ + 1, 0, 0)
#error "LIBRECOVER_CHECK_VERSION is true for a later version"
#endif

/* The same checks in code, each with what it must give. */
static const struct { int maj, min, mic, want; } cases[] = {
	{ MAJ, MIN, MIC, 1 }, { 0, 0, 0, 1 }, { MAJ, MIN, MIC + 1, 0 },
	{ MAJ, MIN + 1, 0, 0 }, { MAJ + 1, 0, 0, 0 }, { MAJ - 1, 99, 99, 1 },
	{ MAJ, MIN - 1, 99, MIN > 0 }, { MAJ, MIN, MIC - 1, 1 },
};

int main(void)
{
	char v[64];
	size_t i;
	int bad = 0;

	snprintf(v, sizeof(v), "%d.%d.%d", MAJ, MIN, MIC);
	printf("macros %s, LIBRECOVER_VERSION %s, recover_version() %s\n", v,
	       LIBRECOVER_VERSION, recover_version());
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = LIBRECOVER_CHECK_VERSION(cases[i].maj, cases[i].min,
						   cases[i].mic);

		printf("LIBRECOVER_CHECK_VERSION(%d, %d, %d) = %d\n",
		       cases[i].maj, cases[i].min, cases[i].mic, got);
		if (got != cases[i].want) {
			printf("  wrong: want %d\n", cases[i].want);
			bad = 1;
		}
	}
	return bad || strcmp(v, LIBRECOVER_VERSION) != 0 ||
	       strcmp(LIBRECOVER_VERSION, recover_version()) != 0;
}
EOF
# shellcheck disable=SC2086
run "$CC" $XFLAGS -Wall -Wextra -Werror -o version version.c $flags $XLDFLAGS ||
	fail "a program using the version macros does not build"
if [ -x version ]; then
	run env LD_LIBRARY_PATH="$LIBDIR" ./version
	[ "$RUN_RC" -eq 0 ] ||
		fail "the version macros, LIBRECOVER_VERSION and recover_version() disagree (exit $RUN_RC)"
	modv=$(pkg-config --modversion librecover)
	grep -q "^macros $modv, LIBRECOVER_VERSION $modv, recover_version() $modv\$" \
		"$SCRATCH/.run.out" ||
		fail "the version macros are not pkg-config --modversion's $modv"
fi

NCASES=$((NCASES + 1))
run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -C "$top_builddir" uninstall DESTDIR="$DEST" ||
	fail "make uninstall DESTDIR=$DEST failed"
left=$(find "$DEST" ! -type d | sed "s|^$DEST||")
[ -z "$left" ] || fail "make uninstall leaves $(echo $left)"

end_test
