# SPDX-License-Identifier: LGPL-2.1-or-later
#
# oracle.sh --- what tests/oracle/*.sh add to tests/lib/lib.sh.
#
# The oracle tests make their journals with tests/jwrite (shapes debugfs
# cannot write: wrap-around, tid wrap, every feature set, escaped and UUID
# tags, checksum damage, long logs) and compare jrecover with
# `e2fsck -y -E journal_only` through lib.sh's oracle_compare.  Source it
# right after lib.sh:
#
#     . "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
#     . "$top_srcdir/tests/oracle/oracle.sh"
#
# A case is:
#     base NAME SIZE [mke2fs options]      once: NAME.base (FREE_NAME set)
#     jcase CASE NAME <<EOF ... EOF        CASE.img = NAME.base + a journal
#     ocase [-e RC] [oracle_compare options] CASE
#     e2seq CASE TID; e2state CASE STATE; e2blk CASE BLOCK TID; ...
# The e2... checks look at e2fsck's result only: they check that the journal
# is the one the test meant to write (a failure there means the test, or
# doc/jbd2-format.md, is wrong), while ocase compares jrecover with e2fsck.
#
# Blocks logged by jwrite start with the label "JW: blk=B tid=T\n" (with
# `escape`, the jbd2 magic instead of "JW: "), so the e2... checks can tell
# which transaction's copy of a block e2fsck replayed.

# --- base images -------------------------------------------------------------

# base NAME SIZE [mke2fs options]: the image NAME.base (with lib.sh's
# reproducible mkimg), and FREE_NAME: the first block of its largest run
# of free blocks, where the cases log their blocks.
base() {
	_bn=$1
	shift
	mkimg "$_bn.base" "$@"
	_set_free "$_bn"
}

# bases NAME...: the base images most cases use, by name:
#   m4  4 KiB blocks, 64bit, metadata_csum (16M)
#   n4  4 KiB blocks, neither                (16M)
#   k4  4 KiB blocks, metadata_csum alone    (16M)
#   m1, n1, k1  the same with 1 KiB blocks   (8M)
bases() {
	for _bs in "$@"; do
		case $_bs in
		?4) _bsz="16M -b 4096" ;;
		?1) _bsz="8M -b 1024" ;;
		*) die "bases: no base image $_bs" ;;
		esac
		case $_bs in
		m?) _bo=64bit,metadata_csum ;;
		n?) _bo=^64bit,^metadata_csum ;;
		k?) _bo=^64bit,metadata_csum ;;
		*) die "bases: no base image $_bs" ;;
		esac
		# shellcheck disable=SC2086
		base "$_bs" $_bsz -O "$_bo"
	done
}

# base_ext NAME SIZE JSIZE [mke2fs options]: NAME.base using the external
# journal NAME.jdev.base (JSIZE), linked as lib.sh's mkimg_ext links them.
base_ext() {
	_bn=$1
	_bsz=$2
	_bjs=$3
	shift 3
	mkimg_ext "$_bn.base" "$_bsz" "$_bn.jdev.base" "$_bjs" "$@"
	_set_free "$_bn"
}

# derive NEW NAME: NEW.base (and NEW.jdev.base), a copy of NAME's, for a
# case that changes the journal superblock's geometry before jwrite runs.
derive() {
	copy_img "$2.base" "$1.base"
	[ -f "$2.jdev.base" ] && copy_img "$2.jdev.base" "$1.jdev.base"
	_set_free "$1"
}

_set_free() {
	_fr=$(dumpe2fs "$1.base" 2>/dev/null | awk '
		/^  Free blocks: / {
			sub(/^  Free blocks: /, "")
			n = split($0, r, /, /)
			for (i = 1; i <= n; i++) {
				if (split(r[i], ab, "-") == 1)
					ab[2] = ab[1]
				if (ab[2] - ab[1] + 1 > best) {
					best = ab[2] - ab[1] + 1
					first = ab[1]
				}
			}
		}
		END { if (best >= 2048) print first }')
	[ -n "$_fr" ] || die "$1.base has no run of 2048 free blocks"
	eval "FREE_$1=\$_fr"
}

# free_of NAME: FREE_NAME.
free_of() {
	eval "say \"\$FREE_$1\""
}

# jlen IMG-OR-JDEV: the journal's length in blocks (s_maxlen).
jlen() {
	dumpe2fs -h "$1" 2>/dev/null | sed -n 's/^Total journal blocks: *//p'
}

# --- writing a journal -------------------------------------------------------

# jcase CASE NAME [jwrite options] < SCRIPT: CASE.img (and CASE.jdev, when
# NAME has an external journal) copied from NAME's base images, then the
# journal described by SCRIPT written with jwrite (which also sets
# needs_recovery).  jwrite's per-transaction summary goes to CASE.trace.
jcase() {
	_jc=$1
	_jb=$2
	shift 2
	copy_img "$_jb.base" "$_jc.img"
	rm -f "$_jc.jdev"
	if [ -f "$_jb.jdev.base" ]; then
		copy_img "$_jb.jdev.base" "$_jc.jdev"
		set -- -j "$_jc.jdev" "$@"
	fi
	cat > "$_jc.jws"
	say ""
	say "jwrite${*:+ $*} $_jc.img:"
	sed -n '1,60s/^/    > /p' "$_jc.jws"
	"$JWRITE" -v "$@" "$_jc.img" < "$_jc.jws" > "$_jc.trace" 2>&1 ||
		{ sed 's/^/    /' "$_jc.trace"; die "jwrite failed on $_jc"; }
	if [ "$(wc -l < "$_jc.trace")" -le 40 ]; then
		sed 's/^/    | /' "$_jc.trace"
	else
		sed -n '1,10s/^/    | /p' "$_jc.trace"
		say "    | ..."
		tail -n 5 "$_jc.trace" | sed 's/^/    | /'
	fi
}

# wrapped CASE: check that the log jwrite wrote for CASE runs past the
# journal's last block back to s_first (the last line of the trace is
# "log: N blocks from block S, next block P").
wrapped() {
	_wl=$(sed -n 's/^log: [0-9]* blocks from block \([0-9]*\), next block \([0-9]*\)$/\1 \2/p' \
		"$1.trace")
	# shellcheck disable=SC2086
	set -- "$1" $_wl
	if [ $# -ne 3 ] || [ "$3" -ge "$2" ]; then
		fail "$1: the log does not wrap (from ${2:-?} to ${3:-?}): fix the test"
	fi
}

# --- comparing ---------------------------------------------------------------

# ocase [oracle_compare options] CASE: oracle_compare on CASE.img (and
# CASE.jdev).  oracle_compare checks LIBRECOVER_DEBUG=full_revoke against the
# default only for a replay; for an expected refusal (-e 8) that mode must
# refuse too and write nothing.
ocase() {
	_oe=1
	_on=$#
	while [ "$_on" -gt 1 ]; do
		_oa=$1
		shift
		_on=$((_on - 1))
		[ "$_oa" = -e ] && _oe=$1
		set -- "$@" "$_oa"
	done
	# The case's name is now first, the options after it.
	_oc=$1
	shift
	if [ -f "$_oc.jdev" ]; then
		oracle_compare "$@" "$_oc.img" "$_oc.jdev"
	else
		oracle_compare "$@" "$_oc.img"
	fi
	if [ "$_oe" = 8 ] && [ "$ORACLE_ONLY" != 1 ]; then
		_ob=$NFAIL
		_oj=
		_ok=
		copy_img "$_oc.img" "$_oc.full-revoke.img"
		if [ -f "$_oc.jdev" ]; then
			_oj=$_oc.jdev
			_ok=$_oc.full-revoke.jdev
			copy_img "$_oj" "$_ok"
		fi
		JR_ENV=LIBRECOVER_DEBUG=full_revoke
		jrecover ${_ok:+-j "$_ok"} "$_oc.full-revoke.img"
		# shellcheck disable=SC2034	# read by lib.sh's jrecover
		JR_ENV=
		[ "$RUN_RC" -eq 8 ] ||
			fail "$_oc: with LIBRECOVER_DEBUG=full_revoke jrecover exited $RUN_RC, not 8"
		# Both refused replays left their copies as they were, byte
		# for byte.
		for _ot in jrecover full-revoke; do
			if ! same_as "$_oc.$_ot.img" "${_oj:+$_oc.$_ot.jdev}" \
			     "$_oc.img" "$_oj"; then
				fail "$_oc: a refused replay changed $_oc.$_ot.img${_oj:+ or its journal}"
			fi
		done
		rm -f "$_oc.full-revoke.img" ${_ok:+"$_ok"}
		[ "$NFAIL" -eq "$_ob" ] || say "=== case $_oc: FAILED"
	fi
}

# force_case CASE: CASE-f, a copy of CASE, compared with jrecover -f (which
# does what e2fsck does where jrecover alone refuses): exit 4.
force_case() {
	copy_img "$1.img" "$1-f.img"
	rm -f "$1-f.jdev"
	[ -f "$1.jdev" ] && copy_img "$1.jdev" "$1-f.jdev"
	cp "$1.trace" "$1-f.trace"
	ocase -e 4 -o -f "$1-f"
}

# --- what e2fsck did (checks of the test itself) ------------------------------

# e2field CASE NAME VALUE: a dumpe2fs -h line of e2fsck's result (journal
# fields from the external journal when there is one).
e2field() {
	_ef=$1.e2fsck.img
	case $2 in
	Journal*) [ -f "$1.e2fsck.jdev" ] && _ef=$1.e2fsck.jdev ;;
	esac
	_eg=$(dumpe2fs -h "$_ef" 2>/dev/null | sed -n "s/^$2: *//p")
	[ "$_eg" = "$3" ] ||
		fail "$1: e2fsck left $2 '$_eg', the test expects '$3': fix the test"
}

# e2seq CASE TID: e2fsck left s_sequence = TID (mod 2^32) and s_start 0.
e2seq() {
	e2field "$1" "Journal sequence" "$(printf '0x%08x' $(($2 % 4294967296)))"
	e2field "$1" "Journal start" 0
}

# e2state CASE STATE: "clean", "clean with errors", "not clean", ...
e2state() {
	e2field "$1" "Filesystem state" "$2"
}

# _e2label CASE BLOCK: the first line of e2fsck's copy of BLOCK after its
# first 4 bytes, and those 4 bytes in hex: "HEX LABEL".
_e2label() {
	_ebs=$(img_bs "$1.img")
	_eh=$(getblk "$1.e2fsck.img" "$2" | od -An -tx1 -N4 | tr -d ' \n')
	_el=$(getblk "$1.e2fsck.img" "$2" | head -c 48 | head -n 1 |
		tail -c +5 | tr -cd '[:print:]')
	say "$_eh $_el"
}

# e2blk CASE TID BLOCK...: e2fsck replayed TID's copy of each BLOCK.
e2blk() {
	_e2copy 4a573a20 "" "$@"
}

# e2esc CASE TID BLOCK...: the same for escaped blocks (magic restored).
e2esc() {
	_e2copy c03b3998 "escaped " "$@"
}

# _e2copy HEAD WHAT CASE TID BLOCK...: each BLOCK of e2fsck's result starts
# with HEAD (hex) and TID's label.
_e2copy() {
	_em=$1
	_ew=$2
	_ec=$3
	_et=$(($4 % 4294967296))
	shift 4
	for _eb; do
		_eg=$(_e2label "$_ec" "$_eb")
		[ "$_eg" = "$_em blk=$_eb tid=$_et" ] ||
			fail "$_ec: e2fsck left block $_eb as '$_eg', the test expects tid $_et's ${_ew}copy: fix the test"
	done
}

# e2old CASE BLOCK...: e2fsck left each BLOCK as it was before the replay.
e2old() {
	_ec=$1
	shift
	for _eb; do
		getblk "$_ec.img" "$_eb" > "$SCRATCH/.e2.want"
		getblk "$_ec.e2fsck.img" "$_eb" > "$SCRATCH/.e2.got"
		cmp -s "$SCRATCH/.e2.want" "$SCRATCH/.e2.got" ||
			fail "$_ec: e2fsck changed block $_eb ('$(_e2label "$_ec" "$_eb")'), the test expects it untouched: fix the test"
	done
}

# e2fill CASE BYTE BLOCK...: e2fsck's copy of each BLOCK is BYTE repeated.
e2fill() {
	_ec=$1
	_ew=$(printf '%02x' "$2")
	shift 2
	for _eb; do
		_eg=$(getblk "$_ec.e2fsck.img" "$_eb" | od -An -tx1 -v |
			tr ' ' '\n' | grep . | sort -u | tr -d '\n')
		[ "$_eg" = "$_ew" ] ||
			fail "$_ec: e2fsck left block $_eb not all $_ew ($_eg): fix the test"
	done
}
