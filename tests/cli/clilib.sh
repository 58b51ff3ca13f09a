# SPDX-License-Identifier: LGPL-2.1-or-later
#
# clilib.sh --- helpers shared by tests/cli/*.sh, sourced after
# tests/lib/lib.sh (whose harness they use: SCRATCH, run, fail,
# end_test, mkimg, std_workload, ...).
#
#   jr OUT ERR ARGS...    run jrecover with stdout and stderr kept apart
#   jw IMG [OPTS] < SCRIPT  write a journal with tests/jwrite
#   jw_two B FEATURES     the two transactions several jwrite scripts start with
#   jw_badcommit B        a transaction, then one whose commit block is corrupt
#   need_jq               jq is a test dependency (contrib/install-deps.sh)
#   jq_is [-s] FILE FILTER WANT WHAT   a jq value must be WANT
#   jq_true FILE FILTER WHAT      a jq condition must hold
#   logdump_norm IMG [JDEV]       debugfs's logdump -a, normalized
#   logdump_norm_text             the same, of logdump output on stdin
#   list_norm FILE                jrecover -l --json, normalized the same way
#
# Variables start with _c to stay out of the way of lib.sh's and the
# tests' own (sh has no locals).

need_jq() {
	command -v jq >/dev/null 2>&1 ||
		die "jq not found: it is a test dependency (contrib/install-deps.sh)"
}

# jr OUT ERR ARGS...: run jrecover ARGS with stdout to OUT and stderr to
# ERR, under the time limit; both are shown in the log (stdout cut at 40
# lines).  The status is returned and kept in RUN_RC.
jr() {
	_cout=$1
	_cerr=$2
	shift 2
	say "\$ jrecover $* >$_cout 2>$_cerr"
	# shellcheck disable=SC2086
	$TIMEOUT "$JRECOVER" "$@" > "$_cout" 2> "$_cerr"
	RUN_RC=$?
	_cn=$(wc -l < "$_cout")
	sed -n '1,40s/^/    out: /p' "$_cout"
	[ "$_cn" -gt 40 ] && say "    out: ... ($_cn lines)"
	sed -n '1,40s/^/    err: /p' "$_cerr"
	say "    [exit $RUN_RC]"
	case $RUN_RC in
	124|137) fail "jrecover $* hung (killed after $JRECOVER_TIMEOUT s)" ;;
	esac
	return "$RUN_RC"
}

# jw IMG [jwrite options] < SCRIPT: write the journal the script describes
# (tests/jwrite/jwrite.c lists the directives), shown in the log.
jw() {
	cat > "$SCRATCH/.jw.script"
	say "jwrite $*:"
	sed 's/^/    > /' "$SCRATCH/.jw.script"
	"$JWRITE" "$@" < "$SCRATCH/.jw.script" > "$SCRATCH/.jw.out" 2>&1 ||
		{ sed 's/^/    /' "$SCRATCH/.jw.out"; die "jwrite $* failed"; }
}

# jw_two B FEATURES: the jwrite script of the two transactions several
# tests start from (and append their own to):
#   T1 logs B..B+3, committed at 1700000001
#   T2 revokes B+1 and logs B+10, B+11, committed at 1700000002
jw_two() {
	cat <<-EOF
	features revoke $2
	txn
	log $1-$(($1 + 3))
	commit time=1700000001
	txn
	revoke $(($1 + 1))
	log $(($1 + 10)) $(($1 + 11))
	commit time=1700000002
	EOF
}

# jw_badcommit B: the jwrite script (64bit, csum3) of a good transaction
# (T1 logs B) and then one whose commit block has a bad checksum (T2 logs
# B+1): the log ends at T2, with problems left (exit 4).
jw_badcommit() {
	cat <<-EOF
	features revoke 64bit csum3
	txn
	log $1
	commit
	txn
	log $(($1 + 1))
	commit badcsum
	EOF
}

# jq_is [-s] FILE FILTER WANT WHAT: jq -r FILTER of FILE must print WANT
# (-s: over all the objects of FILE as one array, for -l listings).
jq_is() {
	_cs=
	[ "$1" = -s ] && { _cs=-s; shift; }
	_cgot=$(jq -r $_cs "$2" < "$1" 2>&1)
	[ "$_cgot" = "$3" ] ||
		fail "$4: $2 is '$_cgot', expected '$3'"
}

# jq_true FILE FILTER WHAT: jq -e FILTER of FILE must be true.
jq_true() {
	jq -e "$2" < "$1" > /dev/null 2>&1 ||
		fail "$3: $2 does not hold"
}

# The log as one line per thing, the same for both tools:
#   D tid jblock            descriptor block
#   T tid jblock fs flags   tag: fs block (low 32 bits), flags, data block
#   R tid jblock            revoke block
#   r tid fs                revoke record
#   C tid jblock            commit block
# logdump names a tag's data block and says nothing of tids for tags and
# revoke records: they belong to the block above them.

# logdump_norm IMG [JDEV]
# (logdump never stops on a block of an unknown type: the output is cut at
# 16 MB, which ends it by SIGPIPE; the journals here are far smaller.)
logdump_norm() {
	if [ -n "${2:-}" ]; then
		debugfs -R "logdump -a -f $2" "$1" 2>/dev/null
	else
		debugfs -R "logdump -a" "$1" 2>/dev/null
	fi | head -c 16000000 | logdump_norm_text
}

# logdump_norm_text: the same, of logdump's output on stdin.
logdump_norm_text() {
	awk '
	/^Found expected sequence .* type 1 \(descriptor block\)/ {
		tid = $4; sub(/,$/, "", tid); print "D", tid, $NF; next }
	/^Found expected sequence .* type 2 \(commit block\)/ {
		tid = $4; sub(/,$/, "", tid); print "C", tid, $NF; next }
	/^Found expected sequence .* type 5 \(revoke table\)/ {
		tid = $4; sub(/,$/, "", tid); print "R", tid, $NF; next }
	/^  FS block [0-9]+ logged at journal block [0-9]+ \(flags/ {
		fl = $NF; sub(/\)$/, "", fl)
		print "T", tid, $8, $3, sprintf("%d", strtonum_(fl)); next }
	/^  Revoke FS block [0-9]+/ { print "r", tid, $4; next }
	function strtonum_(h,    n, i, c) {
		h = tolower(h); sub(/^0x/, "", h); n = 0
		for (i = 1; i <= length(h); i++) {
			c = index("0123456789abcdef", substr(h, i, 1)) - 1
			n = n * 16 + c
		}
		return n
	}'
}

# list_norm FILE: jrecover -l --json output in logdump_norm's form, the
# block numbers of tags cut to their low 32 bits as logdump prints them
# (it prints revoke records in full).
list_norm() {
	jq -r '
	if .type == "descriptor" then "D \(.tid) \(.block)"
	elif .type == "tag" then "T \(.tid) \(.block) \(.fs_block % 4294967296) \(.flags)"
	elif .type == "revoke_block" then "R \(.tid) \(.block)"
	elif .type == "revoke" then "r \(.tid) \(.fs_block)"
	elif .type == "commit" then "C \(.tid) \(.block)"
	else empty end' < "$1"
}

# Everything -l says, one line per event, from the JSON and from the text
# listing, to check the two against each other:
#   D tid block tags | T tid block fs flags | R tid block records |
#   r tid block fs | C tid block sec nsec replayed | E tid block
# (the end reason is a name in JSON and a sentence in text: left out; the
# text gives a revoke record no block: its revoke block's is used).
list_full_json() {
	# commit_sec as a string: debugfs's commit times (shifted by 32 bits)
	# are past the 2^53 that jq keeps exactly.
	sed 's/"commit_sec": *\([0-9]*\)/"commit_sec":"\1"/' "$1" | jq -r '
	if .type == "descriptor" then "D \(.tid) \(.block) \(.tags)"
	elif .type == "tag" then "T \(.tid) \(.block) \(.fs_block) \(.flags)"
	elif .type == "revoke_block" then "R \(.tid) \(.block) \(.records)"
	elif .type == "revoke" then "r \(.tid) \(.block) \(.fs_block)"
	elif .type == "commit" then
		"C \(.tid) \(.block) \(.commit_sec) \(.commit_nsec) \(.replayed)"
	elif .type == "end" then "E \(.tid) \(.block)"
	elif .type == "fate" then
		"F \(.tid) \(.block) \(.fs_block) \(.fate) \(.by_tid // "-") \(.by_block // "-")"
	else "? \(.)" end'
}

list_full_text() {
	awk '
	/^Transaction [0-9]+: descriptor block at journal block [0-9]+, [0-9]+ tags?$/ {
		tid = $2; sub(/:$/, "", tid); b = $8; sub(/,$/, "", b)
		print "D", tid, b, $9; next }
	/^  FS block [0-9]+ logged at journal block [0-9]+ \(flags 0x[0-9a-f]+\)$/ {
		fl = $NF; sub(/\)$/, "", fl)
		print "T", tid, $8, $3, hex(fl); next }
	/^Transaction [0-9]+: revoke block at journal block [0-9]+, [0-9]+ records?$/ {
		tid = $2; sub(/:$/, "", tid); rb = $8; sub(/,$/, "", rb)
		print "R", tid, rb, $9; next }
	/^  Revoke FS block [0-9]+$/ { print "r", tid, rb, $4; next }
	/^Transaction [0-9]+: commit block at journal block [0-9]+, / {
		tid = $2; sub(/:$/, "", tid); b = $8; sub(/,$/, "", b)
		rep = ($0 ~ /, not replayed$/) ? "false" : "true"
		t = $0; sub(/^.*\(/, "", t); sub(/\).*$/, "", t)
		split(t, st, ".")
		print "C", tid, b, st[1], st[2] + 0, rep; next }
	/^Log ends at journal block [0-9]+, expecting transaction [0-9]+: / {
		b = $6; sub(/,$/, "", b); t = $9; sub(/:$/, "", t)
		print "E", t, b; next }
	/^Replay plan( \(no filesystem: tags past its end not checked\))?:$/ { next }
	/^  FS block [0-9]+ from journal block [0-9]+ \(transaction [0-9]+\): / {
		t = $9; sub(/\):$/, "", t); f = $0; sub(/^[^:]*: /, "", f)
		bt = "-"; bb = "-"
		if (f ~ /^written$/) f = "written"
		else if (f ~ /^revoked by transaction [0-9]+$/) { bt = $NF; f = "revoked" }
		else if (f ~ /^superseded by the copy in transaction [0-9]+ \(journal block [0-9]+\)$/) {
			bt = $(NF - 3); bb = $NF; sub(/\)$/, "", bb); f = "superseded" }
		else if (f == "bad checksum, skipped") f = "bad_checksum"
		else if (f == "unreadable, skipped") f = "unreadable"
		else if (f ~ /^past the filesystem.s end/) f = "past_end"
		else if (f == "not replayed: recovery fails") f = "not_replayed"
		print "F", t, $7, $3, f, bt, bb; next }
	/^[^ ].*: a saved journal \(no filesystem\): / { next }
	{ print "? " $0 }
	function hex(h,    n, i) {
		h = tolower(h); sub(/^0x/, "", h); n = 0
		for (i = 1; i <= length(h); i++)
			n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return n
	}' "$1"
}
