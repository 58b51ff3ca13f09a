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
