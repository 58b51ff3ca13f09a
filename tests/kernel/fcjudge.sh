# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fcjudge.sh --- the fsync'd tree, the judge of tests/kernel/fcrand.sh where
# the kernel's replay is none (it refuses the crash image) or differs from
# jrecover's.  Sourced (after tests/lib/lib.sh) by fcrand.sh, and by
# fcjudge-test.sh, which checks the judge on made-up listings (no mount).
#
# fcgen (FCGEN_PROMISES=FILE) writes what the workload made durable and
# nothing changed after: "have PATH DATA ATTR" (PATH must be there, of the
# type it has in the tree before the shutdown; with DATA 1 a regular file's
# size and contents as there; with ATTR 1 its mode, owner and extended
# attributes as there) and "gone PATH" (PATH removed and its directory
# fsynced after: it must not be there).  The values come from the tree
# listed on the live mount just before the shutdown (klib.sh's tree_of),
# which is the state at the durability call for what nothing changed
# since.  tests/kernel/README ("The fsync'd tree") gives the rules.
#
# Uses $_b (the seed's file prefix: $_b.promises, $_b.live.tree) as
# fcrand.sh sets it.

# fsyncd_judge TREE OUT: TREE (a replay's listing) against the fsync'd
# tree: every promise of fcgen's (s$FCSEED.promises: "have PATH DATA ATTR",
# "gone PATH") with the values of the tree listed before the shutdown
# ($_b.live.tree, the state the durability call made durable, since
# nothing changed it after).  OUT gets one line per promise TREE breaks,
# and "model: ..." where a promise does not hold even in the tree before
# the shutdown (a bug of fcgen's model, not of a replay).  True when OUT is
# empty.
fsyncd_judge() {
	awk '
		function xa(line,   a, i, n, s) {
			n = split(line, a, " ")
			s = ""
			for (i = 8; i <= n; i++)
				s = s " " a[i]
			return s
		}
		# The three files in turn (the result may be the live tree).
		FNR == 1 { f++ }
		f == 1 { k[++np] = $1; p[np] = $2; d[np] = $3; a[np] = $4; next }
		f == 2 { live[$1] = $0; next }
		{ res[$1] = $0 }
		END {
			for (i = 1; i <= np; i++) {
				q = p[i]
				if (k[i] == "gone") {
					if (q in live)
						print "model: " q " removed for good, but there before the shutdown"
					else if (q in res)
						print q ": removed and its directory fsynced, but there"
					continue
				}
				if (!(q in live)) {
					print "model: " q " made durable, but not there before the shutdown"
					continue
				}
				if (!(q in res)) {
					print q ": made durable, but missing"
					continue
				}
				split(live[q], l, " ")
				split(res[q], r, " ")
				if (l[2] != r[2]) {
					print q ": made durable as type " l[2] ", but of type " r[2]
					continue
				}
				if (d[i] && l[2] == "f" && (l[6] != r[6] || l[7] != r[7]))
					print q ": fsynced with size " l[6] " sha256 " \
						substr(l[7], 1, 16) ", but size " r[6] \
						" sha256 " substr(r[7], 1, 16)
				if (a[i] && (l[3] != r[3] || l[5] != r[5] ||
					     xa(live[q]) != xa(res[q])))
					print q ": fsynced with mode " l[3] " owner " l[5] \
						" xattrs [" xa(live[q]) " ], but " r[3] " " r[5] \
						" [" xa(res[q]) " ]"
			}
		}' "$_b.promises" "$_b.live.tree" "$1" > "$2"
	[ ! -s "$2" ]
}

# stale_copies BROKEN: (uses $_b.img, the crash image, $_b.jr.img,
# jrecover's result, and $_b.list, jrecover -l's listing of the crash
# image) true when every promise jrecover's result breaks
# (BROKEN, as fsyncd_judge wrote it) is a file's contents, and each such
# file reads as it was fsynced once the blocks the log's full commits wrote
# into it are put back as the crash left them.  Then the log held an older
# copy of a block that the file took later and wrote in place with no
# revoke record after it: every jbd2 replay (the kernel's, e2fsck's,
# jrecover's: the same blocks, byte for byte) writes the old copy back, and
# the loss is the kernel's (tests/kernel/README, "A block logged, then
# written in place").
stale_copies() {
	grep -qv ': fsynced with size ' "$1" && return 1
	_sbs=$(dumpe2fs -h "$_b.img" 2> /dev/null |
		sed -n 's/^Block size: *//p')
	[ -n "$_sbs" ] || return 1
	sed -n 's/^  FS block \([0-9]*\) from journal block [0-9]* (transaction [0-9]*): written$/\1/p' \
		"$_b.list" | sort -u > "$_b.logged"
	copy_img "$_b.jr.img" "$_b.unstale.img"
	sed 's/: fsynced with size .*//' "$1" > "$_b.stale-paths"
	while IFS= read -r _sp; do
		debugfs -R "blocks /${_sp#./}" "$_b.jr.img" 2> /dev/null |
			tr ' ' '\n' | grep . | sort -u |
			comm -12 - "$_b.logged" > "$_b.stale-blocks"
		[ -s "$_b.stale-blocks" ] || return 1
		while read -r _sk; do
			dd if="$_b.img" of="$_b.unstale.img" bs="$_sbs" \
				skip="$_sk" seek="$_sk" count=1 conv=notrunc \
				2> /dev/null || return 1
		done < "$_b.stale-blocks"
	done < "$_b.stale-paths"
	while IFS= read -r _sp; do
		rm -f "$_b.stale-file"
		debugfs -R "dump /${_sp#./} $_b.stale-file" "$_b.unstale.img" \
			> /dev/null 2>&1
		_swant=$(awk -v p="$_sp" '$1 == p { print $7; exit }' "$_b.live.tree")
		_sgot=$(sha256sum < "$_b.stale-file" | cut -d' ' -f1)
		[ -n "$_swant" ] && [ "$_swant" = "$_sgot" ] || return 1
	done < "$_b.stale-paths"
	rm -f "$_b.unstale.img" "$_b.stale-file"
}

# fsyncd_selftest: the judge must fail a result that lost an fsynced file,
# holds an fsynced file at a stale size, or kept a name removed and
# fsynced away; and pass the tree before the shutdown itself.  Made-up
# listings, no mount: the judge alone.
fsyncd_selftest() {
	_b=selftest
	_h1=1111111111111111111111111111111111111111111111111111111111111111
	_h2=2222222222222222222222222222222222222222222222222222222222222222
	cat > "$_b.promises" <<-EOF
	have . 0 0
	have ./d1 0 1
	have ./d1/f2 1 1
	have ./d1/f3 1 0
	have ./d1/f4 0 0
	gone ./d1/f5
	EOF
	cat > "$_b.live.tree" <<-EOF
	. d 755 - 0:0 4096 - 
	./d1 d 700 - 0:0 4096 - 
	./d1/f2 f 644 - 0:0 5000 $_h1 
	./d1/f3 f 600 - 7:7 100 $_h2 user.k1=41 
	./d1/f4 f 644 - 0:0 300 $_h2 
	EOF
	_ok=0
	fsyncd_judge "$_b.live.tree" "$_b.out" && _ok=$((_ok + 1))
	# Modes and sizes the promises leave free may differ.
	sed 's|^\(./d1/f4 f\) 644 - 0:0 300 [0-9]*|\1 600 - 0:0 7 '$_h1'|;
	     s|^\(./d1/f3 f\) 600 - 7:7|\1 644 - 0:0|' \
		"$_b.live.tree" > "$_b.free.tree"
	fsyncd_judge "$_b.free.tree" "$_b.out" && _ok=$((_ok + 1))
	[ "$_ok" -eq 2 ] || fail "fsyncd_judge failed a tree that keeps its promises: $(cat "$_b.out")"
	for _case in missing stale-size stale-data type mode xattr kept-gone; do
		case $_case in
		missing) sed '/^.\/d1\/f2 /d' "$_b.live.tree" ;;
		stale-size) sed 's|^\(./d1/f2 f 644 - 0:0\) 5000|\1 4096|' "$_b.live.tree" ;;
		stale-data) sed 's|^\(./d1/f3 .* 100\) [0-9]*|\1 '$_h1'|' "$_b.live.tree" ;;
		type) sed 's|^./d1/f4 f|./d1/f4 l|' "$_b.live.tree" ;;
		mode) sed 's|^./d1 d 700|./d1 d 755|' "$_b.live.tree" ;;
		xattr) sed 's|^\(./d1/f2 .*\) $|\1 user.k0=42 |' "$_b.live.tree" ;;
		kept-gone) cat "$_b.live.tree"; echo "./d1/f5 f 644 - 0:0 0 - " ;;
		esac > "$_b.bad.tree"
		if fsyncd_judge "$_b.bad.tree" "$_b.out"; then
			fail "fsyncd_judge passed a result with a broken promise ($_case)"
		else
			say "fsyncd_judge fails $_case: $(head -n 1 "$_b.out")"
		fi
	done
	# A promise the tree before the shutdown breaks is fcgen's bug.
	echo "have ./d1/f9 1 1" >> "$_b.promises"
	if fsyncd_judge "$_b.live.tree" "$_b.out" || ! grep -q '^model: ' "$_b.out"; then
		fail "fsyncd_judge did not blame the model for a promise not kept before the shutdown"
	fi
	NCASES=$((NCASES + 1))
}

# stale_selftest: stale_copies must pass a file whose one differing block
# the log wrote (put back, the file reads as fsynced), and fail where the
# differing block is not one the log wrote, where a block the log did not
# write differs too, and where the broken promise is not a file's
# contents.  A small image made with mke2fs and debugfs: no root, no mount.
stale_selftest() {
	_b=stale
	head -c 3072 /dev/urandom > "$_b.data"
	mke2fs -q -F -t ext4 -b 1024 "$_b.img" 1024 > /dev/null 2>&1 ||
		{ fail "stale_selftest: mke2fs failed"; return; }
	debugfs -w -R "write $_b.data f" "$_b.img" > /dev/null 2>&1
	# shellcheck disable=SC2046
	set -- $(debugfs -R "blocks /f" "$_b.img" 2> /dev/null)
	[ $# -eq 3 ] || { fail "stale_selftest: f maps $# blocks, not 3"; return; }
	_sh=$(sha256sum < "$_b.data" | cut -d' ' -f1)
	echo "./f f 644 - 0:0 3072 $_sh " > "$_b.live.tree"
	echo "./f: fsynced with size 3072 sha256 x, but size 3072 sha256 y" \
		> "$_b.broken"
	_old() {
		copy_img "$_b.img" "$_b.jr.img"
		for _x in "$@"; do
			head -c 1024 /dev/urandom | dd of="$_b.jr.img" bs=1024 \
				seek="$_x" count=1 conv=notrunc 2> /dev/null
		done
	}
	_logged() {
		for _x in "$@"; do
			echo "  FS block $_x from journal block 9 (transaction 3): written"
		done > "$_b.list"
	}
	_old "$2"
	_logged 5 "$2"
	stale_copies "$_b.broken" ||
		fail "stale_copies failed a file whose one stale block the log wrote"
	_logged 5
	! stale_copies "$_b.broken" ||
		fail "stale_copies passed a file whose differing block the log did not write"
	_old "$2" "$3"
	_logged "$2"
	! stale_copies "$_b.broken" ||
		fail "stale_copies passed a file with a block the log did not write differing too"
	echo "./f: made durable, but missing" > "$_b.broken"
	! stale_copies "$_b.broken" ||
		fail "stale_copies passed a promise other than a file's contents"
	NCASES=$((NCASES + 1))
}
