#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# header.sh --- the public header, as the library's users compile it:
#  - a translation unit that includes <librecover.h>, uses the version
#    macros in #if and in code, fills every growable
#    struct with RECOVER_INIT and sets each field of recover_options
#    (io_manager and save_io_manager included) compiles without a warning
#    under g++ -std=c++11 -pedantic -Wall -Wextra -Werror and
#    clang -std=gnu11 -pedantic -Wall -Wextra -Werror (and under gcc
#    -std=gnu11 and clang++ -std=c++11 the same way);
#  - C and C++ see the same layout: every public struct's size and the
#    offset of each recover_options field, printed by a program built
#    once as C and once as C++, are the same, so the header's C++
#    spellings change nothing of the ABI;
#  - in C++ RECOVER_INIT gives what it gives in C: size set to the
#    struct's sizeof and every other byte zero.
# The compilers are test dependencies (contrib/install-deps.sh --tests).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

for c in gcc g++ clang clang++; do
	command -v "$c" >/dev/null 2>&1 ||
		die "$c not found: it is a test dependency (contrib/install-deps.sh --tests)"
done
command -v pkg-config >/dev/null 2>&1 || die "pkg-config not found"
[ -f "$top_builddir/lib/recover_err.h" ] ||
	die "$top_builddir/lib/recover_err.h not generated: run the tests with 'make check'"
# The header's dependencies, as librecover.pc's Requires give them.
DEPS=$(pkg-config --cflags ext2fs com_err) || die "pkg-config --cflags ext2fs com_err failed"
INC="-I$top_srcdir/lib -I$top_builddir/lib $DEPS"

# Uses everything a caller would touch, as C and as C++ alike.
cat > use.c <<'EOF'
#include <librecover.h>

#if !LIBRECOVER_CHECK_VERSION(0, 0, 0) || \
	LIBRECOVER_CHECK_VERSION(LIBRECOVER_VERSION_MAJOR + 1, 0, 0)
#error "LIBRECOVER_CHECK_VERSION"
#endif
static const char header_version[] = LIBRECOVER_VERSION;

static int progress(void *data, enum recover_pass pass,
		    unsigned long long done, unsigned long long total)
{
	(void)data; (void)pass;
	return done > total;
}

static int event(void *data, const struct recover_event *ev)
{
	(void)data;
	return ev->type == RECOVER_EV_END && ev->end == RECOVER_END_ERROR;
}

int main(void)
{
	struct recover_options opts = RECOVER_INIT(struct recover_options);
	struct recover_super sb = RECOVER_INIT(struct recover_super);
	struct recover_stats st = RECOVER_INIT(struct recover_stats);
	struct recover_mmp mmp = RECOVER_INIT(struct recover_mmp);
	enum recover_about about = RECOVER_ABOUT_NONE;
	recover_event_fn fn = event;
	recover_t r = 0;

	opts.flags = RECOVER_FL_DRY_RUN | RECOVER_FL_MMP_REPORT;
	opts.journal_path = 0;
	opts.io_manager = unix_io_manager;
	opts.save_io_manager = unix_io_manager;
	opts.progress = progress;
	opts.progress_data = 0;
	opts.error_about = &about;
	opts.mmp = &mmp;
	(void)fn;
	(void)r;
	return (int)(sb.size + st.size + opts.size + mmp.size) == 0 ||
		header_version[0] == 0 ||
		RECOVER_ET_BUSY == 0;
}
EOF
cp use.c use.cc

NCASES=$((NCASES + 1))
STRICT='-pedantic -Wall -Wextra -Werror'
for cc in "g++ -std=c++11 -x c++ use.cc" "clang -std=gnu11 -x c use.c" \
	  "gcc -std=gnu11 -x c use.c" "clang++ -std=c++11 -x c++ use.cc"; do
	# shellcheck disable=SC2086
	run $cc $STRICT $INC -c -o use.o ||
		fail "<librecover.h> does not compile cleanly with $cc $STRICT"
done

# The layout as each language sees it.
cat > layout.c <<'EOF'
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <librecover.h>

#define SIZE(t)		printf("sizeof %s %zu\n", #t, sizeof(t))
#define OFF(f)		printf("offsetof recover_options.%s %zu\n", #f, \
			       offsetof(struct recover_options, f))

/* size set to sizeof, and nothing else but zero bytes. */
#define ZEROED(t) do { \
	t v = RECOVER_INIT(t); \
	t z; \
	memset(&z, 0, sizeof(z)); \
	z.size = sizeof(t); \
	printf("RECOVER_INIT(%s) %s\n", #t, \
	       memcmp(&v, &z, sizeof(t)) == 0 ? "zeroed, size set" : "WRONG"); \
} while (0)

int main(void)
{
	SIZE(struct recover_options);
	SIZE(struct recover_super);
	SIZE(struct recover_stats);
	SIZE(struct recover_mmp);
	SIZE(struct recover_event);
	SIZE(struct recover_where);
	OFF(size);
	OFF(flags);
	OFF(journal_path);
	OFF(io_manager);
	OFF(progress);
	OFF(progress_data);
	OFF(error_about);
	OFF(mmp);
	OFF(save_io_manager);
	ZEROED(struct recover_super);
	ZEROED(struct recover_mmp);
	return 0;
}
EOF
cp layout.c layout.cc

NCASES=$((NCASES + 1))
# shellcheck disable=SC2086
run gcc -std=gnu11 $INC -o layout-c layout.c || die "layout.c does not build as C"
# shellcheck disable=SC2086
run g++ -std=c++11 $INC -o layout-cxx layout.cc || die "layout.cc does not build as C++"
./layout-c > layout-c.out || die "layout-c failed"
./layout-cxx > layout-cxx.out || die "layout-cxx failed"
sed 's/^/    /' layout-c.out
if ! cmp -s layout-c.out layout-cxx.out; then
	diff -u layout-c.out layout-cxx.out | sed 's/^/    /'
	fail "C and C++ see different layouts or initial values (- C, + C++)"
fi
grep -q WRONG layout-c.out layout-cxx.out &&
	fail "RECOVER_INIT does not give a zeroed struct with its size set"
[ "$(grep -c 'zeroed, size set' layout-cxx.out)" -eq 2 ] ||
	fail "the C++ layout program did not check RECOVER_INIT"

end_test
