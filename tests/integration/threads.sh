#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# threads.sh --- several replays at once, in one process, one thread each
# (tests/integration/threads: recover_open, recover_replay, recover_close
# through the public calls), each with the library's own read-ahead
# thread.  The library keeps no global state, so each image must come out
# as e2fsck -y -E journal_only leaves a copy of it on its own: four
# journals of the benchmark's shape (bench/mkbench), two without
# checksums and two with csum v3, of different sizes and revoke hit
# rates, replayed together, then each compared with e2fsck's result.
# No timing is measured or asserted.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"

MKBENCH=$top_builddir/bench/mkbench
THREADS=$top_builddir/tests/integration/threads
need_built "$MKBENCH" "$THREADS"

# make_bench NAME N MKBENCH_FLAGS: NAME.img, a journal of N revoke records.
make_bench() {
	# shellcheck disable=SC2086
	eval "$("$MKBENCH" -p $3 -l 50 -H "${4:-1}" "$2")" ||
		die "mkbench -p failed"
	# shellcheck disable=SC2154
	mkimg "$1.img" "${IMAGE_MIB}M" -O 64bit,metadata_csum \
		-J size="$JOURNAL_MIB" -E lazy_itable_init=1,lazy_journal_init=1
	# shellcheck disable=SC2086,SC2154
	run "$MKBENCH" $3 -t "$T" -l "$L" -H "$HIT" "$1.img" "$2" ||
		die "mkbench failed on $1.img"
}

make_bench a 65536 ""
make_bench b 131072 "" 5
make_bench c 65536 -c
make_bench d 98304 -c 10

for i in a b c d; do
	copy_img $i.img $i.e2fsck.img
	copy_img $i.img $i.jrecover.img
	run e2fsck -y -E journal_only $i.e2fsck.img
	[ "$RUN_RC" -eq 0 ] || [ "$RUN_RC" -eq 1 ] ||
		fail "$i: e2fsck -y -E journal_only exited $RUN_RC"
done

# all_at_once CASE LINE: the four replayed images replayed at once; each
# prints LINE after its name, or the case fails.
all_at_once() {
	run "$THREADS" a.jrecover.img b.jrecover.img c.jrecover.img d.jrecover.img
	[ "$RUN_RC" -eq 0 ] || fail "$1: threads exited $RUN_RC"
	for _i in a b c d; do
		grep -q "^$_i.jrecover.img: err=0 $2" "$SCRATCH/.run.out" ||
			fail "$1: $_i did not end with 'err=0 $2'"
	done
}

# outcome 2 = RECOVER_OUTCOME_RECOVERED, 1 = RECOVER_OUTCOME_CLEAN
case_begin together "four replays at once, one thread each"
all_at_once together "outcome=2 replayed=[1-9]"
for i in a b c d; do
	imgcmp_case "together: $i differs from e2fsck's result" \
		$i.e2fsck.img $i.jrecover.img -s -J "$(jsb_offset $i.img)"
done
case_end

# Replayed again at once: nothing left to do, nothing written.
case_begin again "the four replayed images again, at once"
for i in a b c d; do
	sha256_of $i.jrecover.img > $i.sum
done
all_at_once again "outcome=1 replayed=0"
for i in a b c d; do
	[ "$(sha256_of $i.jrecover.img)" = "$(cat $i.sum)" ] ||
		fail "again: $i changed"
done
case_end

end_test
