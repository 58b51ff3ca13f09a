#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Check jwrite's journals against the oracle: e2fsck -y -E journal_only
# replays each one, then the test looks at which copies of which blocks
# landed. Logged blocks carry the label "JW: blk=B tid=T\n" (with `escape`
# the first 4 bytes are the jbd2 magic instead of "JW: ").
#
# Usage: jwrite-e2fsck.sh [CASE...]    (no argument: every case)
# Environment: top_builddir (set by make check), JWRITE (the binary),
# KEEP=1 keeps the work directory.

JWRITE=${JWRITE:-${top_builddir:-.}/tests/jwrite/jwrite}
for p in mke2fs e2fsck debugfs dumpe2fs; do
	command -v $p >/dev/null 2>&1 || { echo "SKIP: no $p"; exit 77; }
done
[ -x "$JWRITE" ] || { echo "no $JWRITE"; exit 99; }

T=$(mktemp -d "${TMPDIR:-/tmp}/jwrite-e2fsck.XXXXXX") || exit 99
[ -n "${KEEP:-}" ] && echo "work directory: $T" || trap 'rm -rf "$T"' EXIT
nfail=0
ncase=0
CASE=
BS=

# ---- images ------------------------------------------------------------------
# mkimg NAME BLOCKSIZE [mke2fs options]: a 64 MiB base image, made once.
mkimg() {
	n=$1 bs=$2
	shift 2
	[ -f "$T/$n.base" ] && return
	mke2fs -q -F -t ext4 -b "$bs" "$@" "$T/$n.base" 64M >/dev/null 2>&1 ||
		{ echo "mke2fs $n failed"; exit 99; }
}

# mkext NAME BLOCKSIZE: an image NAME using the external journal
# NAME.ext (8 MiB). mke2fs -J device= wants a block device, so the
# filesystem is pointed at the journal by hand (has_journal, s_journal_uuid,
# no journal inode), which is all e2fsck -j needs.
mkext() {
	n=$1 bs=$2
	[ -f "$T/$n.base" ] && return
	mke2fs -q -F -O journal_dev -b "$bs" "$T/$n.ext.base" 8M >/dev/null 2>&1 &&
	mke2fs -q -F -t ext4 -b "$bs" -O ^has_journal "$T/$n.base" 64M >/dev/null 2>&1 ||
		{ echo "mke2fs $n failed"; exit 99; }
	u=$(dumpe2fs -h "$T/$n.ext.base" 2>/dev/null | sed -n 's/^Filesystem UUID: *//p')
	printf 'feature has_journal\nssv journal_uuid %s\nssv journal_inum 0\n' "$u" |
		debugfs -w -f - "$T/$n.base" >/dev/null 2>&1
}

# ---- one case ------------------------------------------------------------------
bad() {
	echo "FAIL $CASE: $*"
	nfail=$((nfail + 1))
}

# begin CASE IMAGE [jwrite options]: write the journal (script on stdin) into
# a copy of IMAGE, replay a second copy with e2fsck. Sets RC and OUT (e2fsck's
# exit code and output).
begin() {
	CASE=$1 base=$2
	shift 2
	ncase=$((ncase + 1))
	BS=$(dumpe2fs -h "$T/$base.base" 2>/dev/null | sed -n 's/^Block size: *//p')
	cp "$T/$base.base" "$T/w.img"
	rm -f "$T/w.ext" "$T/r.ext"
	EXTOPT=
	if [ -f "$T/$base.ext.base" ]; then
		cp "$T/$base.ext.base" "$T/w.ext"
		set -- -j "$T/w.ext" "$@"
		EXTOPT="-j $T/r.ext"
	fi
	cat > "$T/script"
	if ! "$JWRITE" "$@" "$T/w.img" < "$T/script" 2> "$T/jwrite.err"; then
		bad "jwrite: $(cat "$T/jwrite.err")"
		RC=x OUT=
		return 1
	fi
	cp "$T/w.img" "$T/r.img"
	[ -f "$T/w.ext" ] && cp "$T/w.ext" "$T/r.ext"
	OUT=$(e2fsck -y -E journal_only $EXTOPT "$T/r.img" 2>&1)
	RC=$?
}

rc() {
	[ "$RC" = "$1" ] || bad "e2fsck exit $RC, expected $1: $OUT"
}

says() {	# says TEXT: e2fsck's output contains TEXT
	case $OUT in *"$1"*) ;; *) bad "e2fsck did not say '$1': $OUT" ;; esac
}

quiet() {	# e2fsck said nothing but "recovering journal"
	_o=$(printf '%s\n' "$OUT" | grep -v -e '^e2fsck 1' -e 'recovering journal')
	[ -z "$_o" ] || bad "e2fsck said: $_o"
}

label() {	# first line of replayed block $1, without its first 4 bytes
	dd if="$T/r.img" bs="$BS" skip="$1" count=1 2>/dev/null | head -n 1 |
		tail -c +5 | tr -cd '[:print:]' | cut -c1-40
}

first4() {
	dd if="$T/r.img" bs="$BS" skip="$1" count=1 2>/dev/null |
		od -An -tx1 -N4 | tr -d ' \n'
}

# The helpers' variables start with _: sh has no locals, and the cases'
# loops use plain names.
blk() {		# blk B TID: block B holds transaction TID's copy
	_l=$(label "$1") _f=$(first4 "$1")
	[ "$_f" = 4a573a20 ] && [ "$_l" = "blk=$1 tid=$2" ] ||
		bad "block $1: $_f '$_l', expected tid $2"
}

esc() {		# esc B TID: TID's copy of an escaped block, magic restored
	_l=$(label "$1") _f=$(first4 "$1")
	[ "$_f" = c03b3998 ] && [ "$_l" = "blk=$1 tid=$2" ] ||
		bad "block $1: $_f '$_l', expected escaped tid $2"
}

orig() {	# orig B...: the blocks did not change
	for _b; do
		cmp -s "$T/w.img" "$T/r.img" -i "$((_b * BS)):$((_b * BS))" -n "$BS" ||
			bad "block $_b changed: $(first4 "$_b") '$(label "$_b")'"
	done
}

fill() {	# fill B BYTE: block B is BYTE repeated
	_w=$(printf '%02x' "$2")
	_g=$(dd if="$T/r.img" bs="$BS" skip="$1" count=1 2>/dev/null |
		od -An -tx1 -v | tr -s ' \n' '\n\n' | sort -u | tr -d '\n')
	[ "$_g" = "$_w" ] || bad "block $1 is not all $_w ($_g)"
}

field() {	# field NAME VALUE: a dumpe2fs -h line after the replay
	_s="$T/r.img"
	case $1 in Journal*) [ -f "$T/r.ext" ] && _s="$T/r.ext" ;; esac
	_g=$(dumpe2fs -h "$_s" 2>/dev/null | sed -n "s/^$1: *//p")
	[ "$_g" = "$2" ] || bad "$1 is '$_g', expected '$2'"
}

seq() { field "Journal sequence" "$(printf '0x%08x' "$1")"; }
state() { field "Filesystem state" "$1"; }
replayed() {	# the normal outcome: exit 0, nothing said, clean, s_sequence
	rc 0; quiet; state clean; seq "$1"; field "Journal start" 0
}

# refuse CASE IMAGE PATTERN: jwrite must refuse the script on stdin (exit 2,
# message matching PATTERN) and leave the image as it was.
refuse() {
	CASE=$1
	ncase=$((ncase + 1))
	cp "$T/$2.base" "$T/w.img"
	"$JWRITE" "$T/w.img" 2> "$T/jwrite.err"
	_r=$?
	[ $_r = 2 ] || bad "jwrite exit $_r, expected 2"
	grep -q -- "$3" "$T/jwrite.err" || bad "message: $(cat "$T/jwrite.err")"
	cmp -s "$T/$2.base" "$T/w.img" || bad "the image changed"
}

# ---- cases ---------------------------------------------------------------------
# Block numbers: 5000+ are free in the 4 KiB images, 30000+ in the 1 KiB ones.

# Every tag/revoke format, 1 and 4 KiB blocks: many tags (several
# descriptors), revoke before and after the logged copy in one transaction,
# a later transaction relogging a revoked block, escape, fill.
case_formats() {
	for img in m4 m1; do
		b=5000
		[ $img = m1 ] && b=30000
		for f in "" revoke "revoke 64bit" "revoke csum2" "revoke 64bit csum2" \
			 "revoke csum3" "revoke 64bit csum3" "revoke async csum3"; do
			begin "formats $img [$f]" $img <<-EOF
			features $f
			txn
			revoke $((b + 1))
			log $b-$((b + 299))
			revoke $((b + 2))
			log $((b + 300)) escape
			log $((b + 301)) fill=0xab
			commit
			txn
			log $((b + 1))
			log $((b + 3)) uuid
			revoke $((b + 299))
			commit
			EOF
			replayed 4
			blk $b 1; blk $((b + 1)) 2; orig $((b + 2)); blk $((b + 3)) 2
			blk $((b + 298)) 1; orig $((b + 299))
			esc $((b + 300)) 1; fill $((b + 301)) 0xab
		done
	done
}

# v1 checksums need a filesystem without metadata_csum (the kernel's rule,
# not e2fsck's); the crc32 spans several descriptors and an escaped block.
case_csum1() {
	for img in n4 n1; do
		b=5000
		[ $img = n1 ] && b=30000
		begin "csum1 $img" $img <<-EOF
		features revoke csum1
		txn
		log $b-$((b + 299))
		log $((b + 300)) escape
		revoke $((b + 1))
		commit
		txn
		log $((b + 400)) escape
		commit zerocsum
		EOF
		replayed 4
		blk $b 1; orig $((b + 1)); esc $((b + 300)) 1; esc $((b + 400)) 2
	done
}

# The log wraps from the last block to s_first while the tid wraps past
# 2^32; a revoke at tid 0xffffffff hides tid 0xfffffffe, not tid 0.
case_wrap() {
	for img in m4 m1; do
		b=5000 s=1020
		[ $img = m1 ] && b=30000 s=4092
		begin "wrap $img" $img <<-EOF
		features revoke 64bit csum3
		sequence 4294967294
		start $s
		txn
		log $b $((b + 1))
		commit
		txn
		log $((b + 2)) $((b + 3))
		revoke $b $((b + 1))
		commit
		txn
		log $b escape
		commit
		txn
		log $((b + 4))
		commit
		EOF
		replayed 3
		esc $b 0; orig $((b + 1)); blk $((b + 2)) 4294967295
		blk $((b + 3)) 4294967295; blk $((b + 4)) 1
	done
}

case_v1() {
	begin "v1 superblock" n4 <<-EOF
	version 1
	nrusers 0
	txn
	log 5000 5001
	revoke 5001
	commit
	EOF
	replayed 3
	blk 5000 1; orig 5001
	# mke2fs leaves s_nr_users = 1: e2fsck calls that v2 fields in a v1
	# superblock, zeroes the superblock from byte 0x24 on, replays, and
	# then runs a full check (passes 1-5) in spite of -E journal_only.
	begin "v1 superblock with v2 fields" n4 <<-EOF
	version 1
	txn
	log 5000
	commit
	EOF
	rc 0; says "Clearing fields beyond the V1 journal superblock"
	says "Pass 5"; blk 5000 1; seq 3
}

# A bad commit checksum ends the log: the earlier transactions replay, the
# filesystem is marked with errors, s_sequence = last good + 2, exit 0.
case_badcommit() {
	for f in "csum1 n4" "csum2 m4" "64bit csum2 m4" "csum3 m4" "64bit csum3 m4"; do
		img=${f##* }
		begin "bad commit [$f]" $img <<-EOF
		features revoke ${f% *}
		txn
		log 5000 5001
		commit
		txn
		log 5002 5000
		commit badcsum
		txn
		log 5003
		commit
		EOF
		rc 0; says "Journal transaction 2 was corrupt, replay was aborted."
		state "clean with errors"; seq 3
		blk 5000 1; blk 5001 1; orig 5002 5003
	done
	# csum v2/v3 commit blocks: the kernel stores h_chksum_type/size 0;
	# nonzero ones are covered by the checksum and accepted.
	begin "commit type/size 4" m4 <<-EOF
	features revoke csum3
	txn
	log 5000
	commit type=4 size=4
	EOF
	replayed 3; blk 5000 1
	# zero type/size/checksum: "unused" for csum1 (case_csum1), an
	# ordinary bad checksum for v2/v3
	begin "csum3 zerocsum" m4 <<-EOF
	features revoke csum3
	txn
	log 5000
	commit
	txn
	log 5001
	commit zerocsum
	EOF
	rc 0; says "transaction 2 was corrupt"; blk 5000 1; orig 5001
}

# A bad checksum on a commit older than the previous one: a stale block
# from an earlier use of the journal; the log ends there, no error.
case_stale() {
	begin "stale bad commit" m4 <<-EOF
	features revoke csum3
	txn
	log 5000
	commit time=1800000000
	txn
	log 5001
	commit time=1700000000 badcsum
	txn
	log 5002
	commit time=1800000002
	EOF
	replayed 3; blk 5000 1; orig 5001 5002
	begin "stale bad descriptor" m4 <<-EOF
	features revoke csum3
	txn
	log 5000
	commit time=1800000000
	txn
	log 5001 baddesc
	commit time=1700000000
	EOF
	replayed 3; blk 5000 1; orig 5001
}

# ASYNC_COMMIT: a bad commit checksum ends the log silently (csum v2/v3);
# with csum1 it is silent only if no later commit block follows.
case_async() {
	begin "async csum3 bad commit" m4 <<-EOF
	features revoke async csum3
	txn
	log 5000
	commit
	txn
	log 5001
	commit badcsum
	txn
	log 5002
	commit
	EOF
	replayed 3; blk 5000 1; orig 5001 5002
	begin "async csum1 bad commit, then another" n4 <<-EOF
	features revoke async csum1
	txn
	log 5000
	commit
	txn
	log 5001
	commit badcsum
	txn
	log 5002
	commit
	EOF
	rc 0; says "transaction 2 was corrupt"; state "clean with errors"; seq 3
	blk 5000 1; orig 5001 5002
	begin "async csum1 bad last commit" n4 <<-EOF
	features revoke async csum1
	txn
	log 5000
	commit
	txn
	log 5001
	commit badcsum
	EOF
	replayed 3; blk 5000 1; orig 5001
}

# Checksum failures below the commit block (csum v2/v3).
case_badblocks() {
	# a bad data tag: that block is skipped, everything else replays; the
	# recovery "fails": state not clean, s_sequence left as it was
	for f in csum2 "64bit csum3"; do
		begin "bad data checksum [$f]" m4 <<-EOF
		features revoke $f
		txn
		log 5000
		log 5001 badcsum
		log 5002
		commit
		txn
		log 5003
		commit
		EOF
		rc 0; says "Invalid checksum recovering data block 5001"
		says "Journal checksum error"; state "not clean"; seq 1
		blk 5000 1; orig 5001; blk 5002 1; blk 5003 2
	done
	# a bad descriptor or revoke block anywhere: nothing replays at all
	begin "bad descriptor checksum" m4 <<-EOF
	features revoke csum3
	txn
	log 5000
	commit
	txn
	log 5001 baddesc
	commit
	EOF
	rc 0; says "Journal checksum error"; state "not clean"; seq 1
	orig 5000 5001
	begin "bad revoke checksum" m4 <<-EOF
	features revoke csum3
	txn
	log 5000
	commit
	txn
	revoke 5003 badcsum
	log 5001
	commit
	EOF
	rc 0; says "Journal checksum error"; state "not clean"; seq 1
	orig 5000 5001
}

case_revoke() {
	# r_count past the block: recovery fails, nothing replays
	begin "r_count too large" m4 <<-EOF
	features revoke csum3
	txn
	log 5000
	commit
	txn
	rcount 4093
	revoke 5000
	commit
	EOF
	rc 0; says "Invalid argument while recovering journal"
	state "not clean"; orig 5000
	# r_count below the header: no records
	begin "r_count 8" m4 <<-EOF
	features revoke
	txn
	log 5000 5001
	rcount 8
	revoke 5000
	commit
	EOF
	replayed 3; blk 5000 1; blk 5001 1
	# revoke records count without the REVOKE feature
	begin "revoke without the feature" m4 <<-EOF
	txn
	log 5000 5001
	revoke 5000
	commit
	EOF
	replayed 3; orig 5000; blk 5001 1
}

# Ends of the log.
case_ends() {
	begin "uncommitted last transaction" m4 <<-EOF
	features revoke csum3
	txn
	log 5000
	commit
	txn
	log 5001
	nocommit
	EOF
	replayed 3; blk 5000 1; orig 5001
	begin "garbage after a commit" m4 <<-EOF
	txn
	log 5000
	commit
	garbage
	txn
	log 5001
	commit
	EOF
	replayed 3; blk 5000 1; orig 5001
	begin "commit block with the wrong tid" m4 <<-EOF
	txn
	log 5000
	commit
	raw c03b3998 00000002 00000007
	txn 2
	log 5001
	commit
	EOF
	replayed 3; blk 5000 1; orig 5001
	# nothing found: s_sequence + 1
	begin "first tid is not s_sequence" m4 <<-EOF
	sequence 10
	txn 11
	log 5000
	commit
	EOF
	replayed 11; orig 5000
	begin "s_start 0" m4 <<-EOF
	start 0
	txn
	log 5000
	commit
	EOF
	replayed 2; orig 5000
	begin "errno" m4 <<-EOF
	errno -5
	txn
	log 5000
	commit
	EOF
	rc 0; state "clean with errors"; seq 3; blk 5000 1
}

case_external() {
	for img in e4 e1; do
		b=5000 s=2045
		[ $img = e1 ] && b=30000 s=8190
		begin "external journal $img" $img <<-EOF
		features revoke 64bit csum3
		start $s
		txn
		log $b $((b + 1))
		revoke $((b + 1))
		commit
		txn
		log $((b + 2))
		commit
		EOF
		replayed 4; blk $b 1; orig $((b + 1)); blk $((b + 2)) 2
	done
}

# FAST_COMMIT: the kernel's log ends s_num_fc_blks before s_maxlen, but
# e2fsck 1.47.0 wraps at s_maxlen: a log wrapping at the kernel's end is
# not replayed at all; one wrapping at s_maxlen (logend) is.
case_fast_commit() {
	begin "fast_commit, no wrap" f4 <<-EOF
	features revoke 64bit csum3 fast_commit
	start 1000
	txn
	log 5000
	commit
	EOF
	replayed 3; blk 5000 1
	begin "fast_commit, kernel wrap" f4 <<-EOF
	features revoke 64bit csum3 fast_commit
	start 1021
	txn
	log 5000 5001
	commit
	EOF
	replayed 2; orig 5000 5001
	begin "fast_commit, wrap at s_maxlen" f4 <<-EOF
	features revoke 64bit csum3 fast_commit
	logend 1040
	start 1037
	txn
	log 5000 5001
	commit
	EOF
	replayed 3; blk 5000 1; blk 5001 1
}

case_bulk() {
	begin "bulk, no hits" m4 <<-EOF
	features revoke csum2
	bulk 10 100 5 first=5000
	EOF
	replayed 12; blk 5000 1; blk 5049 10; orig 5050
	# every earlier logged block is hit; the last transaction's survive
	begin "bulk, all hits" m4 <<-EOF
	features revoke 64bit csum3
	bulk 10 100 5 hit=100 first=5000
	EOF
	replayed 12; orig 5000 5022 5044; blk 5045 10; blk 5049 10
}

# e2fsck writes a tag past the end of the filesystem, growing the image.
case_past_end() {
	begin "tag past the end" m4 <<-EOF
	allow-past-end
	txn
	log 16390
	commit
	EOF
	replayed 3; blk 16390 1
}

# The dump file holds the same bytes as the internal journal.
case_dump() {
	CASE="dump = internal journal"
	ncase=$((ncase + 1))
	printf 'features revoke 64bit csum3\nsequence 77\nstart 1000\ntxn\nlog 5000-5100\nrevoke 5050\ncommit\n' > "$T/script"
	cp "$T/m4.base" "$T/w.img"
	"$JWRITE" "$T/w.img" < "$T/script" &&
		debugfs -R "dump <8> $T/internal" "$T/w.img" >/dev/null 2>&1 ||
		bad "writing the internal journal"
	cp "$T/m4.base" "$T/w.img"
	rm -f "$T/dump"
	"$JWRITE" -d "$T/dump" "$T/w.img" < "$T/script" || bad "jwrite -d (new dump)"
	cmp -s "$T/internal" "$T/dump" || bad "new dump differs"
	debugfs -R "dump <8> $T/dump" "$T/m4.base" >/dev/null 2>&1
	"$JWRITE" -d "$T/dump" < "$T/script" || bad "jwrite -d (existing dump)"
	cmp -s "$T/internal" "$T/dump" || bad "rewritten dump differs"
}

case_refuse() {
	printf 'bulk 1000 100000 2\n' | refuse "log overrun" m4 "overruns itself"
	printf 'txn\nlog 16384\ncommit\n' | refuse "past the end" m4 "past the filesystem"
	printf 'allow-past-end\ntxn\nlog 4294967296\ncommit\n' |
		refuse "needs 64bit" m4 "needs the 64bit feature"
	printf 'txn\ncommit\nfeatures revoke\n' | refuse "header late" m4 "before the first"
	printf 'features csum2 csum3\ntxn\ncommit\n' | refuse "two csums" m4 "exclusive"
	printf 'features revoke\ntxn\nlog 5000 badcsum\ncommit\n' | refuse "badcsum" m4 "csum2 or csum3"
	printf 'txn\nlog 5000\n' | refuse "open transaction" m4 "not ended"
	printf 'frobnicate\n' | refuse "unknown" m4 "line 1: unknown directive"
}

ALL="formats csum1 wrap v1 badcommit stale async badblocks revoke ends
external fast_commit bulk past_end dump refuse"

mkimg m4 4096
mkimg n4 4096 -O ^metadata_csum
mkimg m1 1024
mkimg n1 1024 -O ^metadata_csum,^64bit
mkimg f4 4096 -O fast_commit
mkext e4 4096
mkext e1 1024
for c in ${*:-$ALL}; do
	case_$c
done
echo "$ncase cases, $nfail failures"
[ $nfail = 0 ]
