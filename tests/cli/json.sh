#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# json.sh --- --json for -i, -l, -s and the replay report (jrecover(8),
# JSON OUTPUT), parsed with jq:
#  - the schema: every object has the fields the man page documents for it
#    and no others (optional ones exactly when they apply), with the
#    documented types and names (end reasons, sources); and the fields this
#    test knows are exactly the fields the man page's JSON OUTPUT section
#    names, so a field documented later, or dropped, shows here;
#  - the values: the journal superblock against dumpe2fs -h and the bytes
#    of the journal superblock (uuid); the log's counts and tids against
#    what the journal holds (debugfs's logdump for std_workload, the jwrite
#    script otherwise); replayed/revoked/bad_checksum against the journal's
#    contents; "exit" equal to jrecover's exit status, in every case;
#  - the cases: std_workload (1), a csum3 journal with a block that fails
#    its checksum and an uncommitted last transaction (4), a corrupt
#    commit block (4, corrupt_commit, fs_errors), a revoke block failing its
#    checksum (8 and the error object without -f; 4 with log.error and
#    error_at with -f), nothing to replay (0), an open error (8), a dump
#    (current and not), an external journal; each with -i, -n, -l and the
#    replay; -s of an internal journal, a dump and an external journal
#    ("bytes" the size of the file saved, "journal" as -i has it), and -s
#    into a path that cannot be created (the error object, 8); a dump read
#    alone (-i, -l, -s and an error: "filesystem" null); -l's replay plan
#    ("fate" objects) on the csum3 journal;
#  - the error object's "code" (the symbolic name: errno, EXT2_ET_,
#    RECOVER_ET_, the last checked against recover_err.et's message) and
#    "path" (the filesystem, the -j journal or the -s file it is about);
#  - a path with bytes that are not UTF-8, a control character and a
#    quote: escaped as jrecover(8) says, parsed by jq, and given back byte
#    for byte by Python's surrogateescape decoding (when python3 is there).

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq
MAN=$top_srcdir/man/jrecover.8.in

# --- the schema, as this test reads jrecover(8) --------------------------------
# The report of a replay or dry run ("replay"), of -i ("info"), and the
# error object; the journal, log and WHERE objects inside them; the -l
# objects by type.  fs_errors and dump_is_current are taken as replay-only,
# like replayed/revoked/bad_checksum above them (the man page marks only
# that line).
cat > schema.jq <<'EOF'
def where_keys: ["block", "tid", "fs_block"];
def journal_keys: ["source", "version", "features", "uuid", "block_size",
	"maxlen", "first", "sequence", "start", "errno", "fast_commit_blocks"];
def log_keys: ["first_tid", "end_tid", "transactions", "log_blocks",
	"descriptor_blocks", "logged_blocks", "revoke_blocks", "revoke_records",
	"end", "end_at"];
def log_optional: ["corrupt_commit", "error", "error_at", "fast_commit"];
def fc_keys: ["state", "tid", "commits", "blocks", "tags", "end",
	"end_block", "replayed"];
def fc_end_names: ["no_head", "head_tid", "tail", "bad_tag", "features",
	"area_end", "read_error"];
def replay_keys: ["filesystem", "dry_run", "exit", "seconds", "needs_recovery",
	"journal", "log", "replayed", "revoked", "bad_checksum", "fs_errors",
	"dump_is_current", "journal_inode_backup", "write_blocks", "write_bytes",
	"copies_written", "superseded", "readahead_blocks", "descriptor_copies",
	"mmp"];
def replay_optional: ["first_bad_checksum", "unknown_features"];
def info_optional: ["unknown_features"];
def info_keys: ["filesystem", "needs_recovery", "journal_inode_backup",
	"journal", "log", "mmp"];
def save_keys: ["filesystem", "exit", "saved", "bytes", "sha256", "journal",
	"mmp"];
def error_keys: ["filesystem", "exit", "error", "code", "path", "mmp"];
def mmp_keys: ["block", "update_interval", "wait_planned_seconds",
	"wait_seconds", "released"];
def mmp_optional: ["sequence", "state", "time", "check_interval", "node",
	"device", "error"];
def error_optional: ["error_at", "unknown_features"];
def list_keys: {
	descriptor: ["type", "tid", "block", "tags"],
	tag: ["type", "tid", "block", "fs_block", "flags"],
	revoke_block: ["type", "tid", "block", "records"],
	revoke: ["type", "tid", "block", "fs_block"],
	commit: ["type", "tid", "block", "commit_sec", "commit_nsec", "replayed"],
	end: ["type", "tid", "block", "end"],
	fc_block: ["type", "tid", "block"],
	fc_tag: ["type", "tid", "block", "tag", "valid"],
	fc_end: ["type", "tid", "block", "end", "valid_tags"],
	fate: ["type", "tid", "block", "fs_block", "flags", "fate", "by_tid",
		"by_block", "end_checked"] };
def list_optional: {
	fc_tag: ["inode", "lblk", "pblk", "len", "unwritten", "parent", "name",
		 "features"] };
def fate_names: ["written", "superseded", "revoked", "bad_checksum",
	"unreadable", "past_end", "not_replayed"];
def end_names: ["none", "no_magic", "sequence", "blocktype",
	"commit_checksum", "stale", "read_error", "truncated", "error"];
def all_keys: where_keys + journal_keys + log_keys + log_optional +
	replay_keys + replay_optional + info_keys + info_optional + save_keys +
	error_keys +
	error_optional + mmp_keys + mmp_optional + fc_keys +
	([list_keys[]] | add) | unique;

# Problems with an object, as strings (none: the object is right).
def fields($what; $need; $may):
	(($need - keys) | map("\($what): missing \(.)")) +
	((keys - $need - $may) | map("\($what): undocumented \(.)"));
def u32: type == "number" and . >= 0 and . <= 4294967295 and floor == .;
def count: type == "number" and . >= 0 and floor == .;
def typed($what; $checks):
	[$checks | to_entries[] | select(.value | not) | "\($what): \(.key) has a wrong type or value"];
def where($what):
	if type != "object" then ["\($what): not an object"] else
	fields($what; where_keys; []) +
	typed($what; {block: (.block | count), tid: (.tid | u32),
		      fs_block: (.fs_block | count)}) end;
# The MMP block: null without the mmp feature.
def mmp:
	if . == null then [] elif type != "object" then ["mmp: not an object"] else
	fields("mmp"; mmp_keys; mmp_optional) +
	typed("mmp"; {block: (.block | count),
		update_interval: (.update_interval | count),
		read_fields: ((has("sequence") | not) or
			(.sequence | u32) and (.state | IN("clean", "fsck", "in use", "unknown")) and
			(.time | count) and (.check_interval | count) and
			(.node | type == "string") and (.device | type == "string")),
		error: ((has("error") | not) or (.error | type == "string")),
		wait_planned_seconds: (.wait_planned_seconds | count),
		wait_seconds: (.wait_seconds | count),
		released: (.released | type == "boolean")}) end;
def journal:
	fields("journal"; journal_keys; []) +
	typed("journal"; {
		source: (.source | IN("inode", "device", "dump")),
		version: (.version | IN(1, 2)),
		features: (.features | type == "array" and all(type == "string")),
		uuid: (.uuid | type == "string" and test("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")),
		block_size: (.block_size | IN(1024, 2048, 4096, 8192, 16384, 32768, 65536)),
		maxlen: (.maxlen | u32), first: (.first | u32),
		sequence: (.sequence | u32), start: (.start | u32),
		errno: (.errno | type == "number"),
		fast_commit_blocks: (.fast_commit_blocks | u32)});
def log:
	fields("log"; log_keys; log_optional) +
	typed("log"; {
		first_tid: (.first_tid | u32), end_tid: (.end_tid | u32),
		transactions: (.transactions | count),
		log_blocks: (.log_blocks | count),
		descriptor_blocks: (.descriptor_blocks | count),
		logged_blocks: (.logged_blocks | count),
		revoke_blocks: (.revoke_blocks | count),
		revoke_records: (.revoke_records | count),
		end: (.end | IN(end_names[])),
		error: ((has("error") | not) or (.error | type == "string")),
		error_and_where: (has("error") == has("error_at"))}) +
	(.end_at | where("log.end_at")) +
	(if has("corrupt_commit") then .corrupt_commit | where("log.corrupt_commit") else [] end) +
	(if has("error_at") then .error_at | where("log.error_at") else [] end) +
	(if has("fast_commit") then .fast_commit |
		fields("log.fast_commit"; fc_keys; []) +
		typed("log.fast_commit"; {
			state: (.state | IN("empty", "live", "corrupt")),
			tid: (.tid | u32), commits: (.commits | count),
			blocks: (.blocks | count), tags: (.tags | count),
			end: (.end | IN(fc_end_names[])),
			end_block: (.end_block | count),
			replayed: (.replayed | count)})
	 else [] end);
def report:
	if has("type") then
		.type as $t | if (list_keys | has($t)) then
			fields("-l \(.type)"; list_keys[.type];
			       (list_optional[.type] // [])) +
			typed("-l \(.type)"; {tid: (.tid | u32), block: (.block | count),
				tags: ((has("tags") | not) or (.tags | count)),
				fs_block: ((has("fs_block") | not) or (.fs_block | count)),
				flags: ((has("flags") | not) or (.flags | count)),
				records: ((has("records") | not) or (.records | count)),
				commit_sec: ((has("commit_sec") | not) or (.commit_sec | count)),
				commit_nsec: ((has("commit_nsec") | not) or (.commit_nsec | count and . < 1000000000)),
				replayed: ((has("replayed") | not) or (.replayed | type == "boolean")),
				end: ((has("end") | not) or
				      (.end | IN(if $t == "fc_end" then fc_end_names[] else end_names[] end))),
				valid: ((has("valid") | not) or (.valid | type == "boolean")),
				valid_tags: ((has("valid_tags") | not) or (.valid_tags | count)),
				fate: ((has("fate") | not) or (.fate | IN(fate_names[]))),
				by_tid: ((has("by_tid") | not) or .by_tid == null or (.by_tid | u32)),
				by_block: ((has("by_block") | not) or .by_block == null or (.by_block | count)),
				by: ((has("fate") | not) or
					((.by_tid != null) == (.fate | IN("revoked", "superseded")) and
					 (.by_block != null) == (.fate == "superseded"))),
				end_checked: ((has("end_checked") | not) or (.end_checked | type == "boolean"))})
		else ["-l: undocumented type \(.type)"] end
	elif has("dry_run") then
		fields("report"; replay_keys; replay_optional) +
		typed("report"; {filesystem: (.filesystem | type == "string"),
			dry_run: (.dry_run | type == "boolean"),
			exit: (.exit | IN(0, 1, 4)),
			seconds: (.seconds | type == "number" and . >= 0),
			replayed: (.replayed | count), revoked: (.revoked | count),
			bad_checksum: (.bad_checksum | count),
			needs_recovery: (.needs_recovery | type == "boolean"),
			fs_errors: (.fs_errors | type == "boolean"),
			dump_is_current: (.dump_is_current | type == "boolean"),
			journal_inode_backup: (.journal_inode_backup | type == "boolean"),
			write_blocks: (.write_blocks | count),
			write_bytes: (.write_bytes | count),
			first_bad_checksum: (has("first_bad_checksum") == (.bad_checksum > 0))}) +
		(.journal | journal) + (.log | log) + (.mmp | mmp) +
		(if has("first_bad_checksum") then .first_bad_checksum | where("first_bad_checksum") else [] end)
	elif has("saved") then
		fields("-s"; save_keys; []) +
		typed("-s"; {filesystem: (.filesystem | type == "string" or . == null),
			exit: (.exit == 0), saved: (.saved | type == "string"),
			bytes: (.bytes | count),
			sha256: (.sha256 | type == "string" and test("^[0-9a-f]{64}$"))}) +
		(.journal | journal) + (.mmp | mmp)
	elif has("needs_recovery") then . as $o |
		fields("-i"; info_keys; info_optional) +
		typed("-i"; {filesystem: (.filesystem | type == "string" or . == null),
			needs_recovery: (.needs_recovery | type == "boolean" or
				(. == null and $o.filesystem == null)),
			journal_inode_backup: (.journal_inode_backup | type == "boolean")}) +
		(.journal | journal) + (.log | log) + (.mmp | mmp)
	elif has("error") then
		fields("error object"; error_keys; error_optional) +
		typed("error object"; {filesystem: (.filesystem | type == "string" or . == null),
			exit: (.exit | IN(8, 32)), error: (.error | type == "string"),
			code: (.code == null or (.code | type == "string" and test("^(RECOVER_ET|EXT2_ET)_[A-Z0-9_]+$|^E[A-Z0-9]+$"))),
			path: (.path | type == "string")}) +
		(.mmp | mmp) +
		(if has("error_at") then .error_at | where("error_at") else [] end)
	else ["an object of no documented kind: \(keys)"] end;
EOF

# The fields the man page's JSON OUTPUT section names, against the test's.
sed -n '/^\.SH "JSON OUTPUT"/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g' |
	grep -o '"[a-z0-9_]*":' | tr -d '":' | sort -u > man.keys
jq -n -r -L . 'include "schema"; all_keys[]' | sort -u > test.keys
NCASES=$((NCASES + 1))
[ "$(wc -l < man.keys)" -ge 30 ] || die "found only $(wc -l < man.keys) fields in $MAN"
if ! diff -u man.keys test.keys > keys.diff; then
	sed 's/^/    /' keys.diff
	fail "the fields of jrecover(8) (-) are not those this test checks (+)"
fi

# schema FILE WHAT: every object (line) of FILE is valid.
schema() {
	jq -r -L "$SCRATCH" 'include "schema"; report[]' < "$1" > schema.out 2>&1 ||
		echo "jq failed: not JSON" >> schema.out
	if [ -s schema.out ]; then
		sed 's/^/    /' schema.out
		fail "$2: the JSON does not follow jrecover(8)"
	fi
	[ -s "$1" ] || fail "$2: no JSON printed"
}

# J OUT ARGS...: jrecover --json ARGS; checks the schema and that "exit" (if
# any) is the exit status; nothing but JSON on stdout.
J() {
	_o=$1
	shift
	NCASES=$((NCASES + 1))
	jr "$_o" "$_o.err" --json "$@"
	schema "$_o" "jrecover --json $*"
	if jq -e 'has("exit")' "$_o" > /dev/null 2>&1; then
		_e=$(jq -r .exit "$_o")
		[ "$_e" = "$RUN_RC" ] ||
			fail "jrecover --json $*: \"exit\" is $_e, the exit status $RUN_RC"
	fi
	return "$RUN_RC"
}

# journal_matches OUT IMG [JDEV]: "journal" against dumpe2fs -h and the
# journal superblock's bytes.
journal_matches() {
	_src=${3:-$2}
	dumpe2fs -h "$_src" 2>/dev/null > dumpe2fs.out
	_feat=$(sed -n 's/^Journal features: *//p' dumpe2fs.out)
	[ "$_feat" = "(none)" ] && _feat=
	jq_is "$1" '.journal.features | join(" ")' "$_feat" "$1: journal features"
	jq_is "$1" .journal.maxlen "$(sed -n 's/^Total journal blocks: *//p' dumpe2fs.out)" "$1: maxlen"
	jq_is "$1" .journal.sequence \
		"$(printf '%d' "$(sed -n 's/^Journal sequence: *//p' dumpe2fs.out)")" "$1: sequence"
	jq_is "$1" .journal.start "$(sed -n 's/^Journal start: *//p' dumpe2fs.out)" "$1: start"
	jq_is "$1" .journal.block_size "$(img_bs "$_src")" "$1: block_size"
	if [ -n "${3:-}" ]; then
		_off=$(jdev_sb_offset "$3")
	else
		_off=$(jsb_offset "$2")
	fi
	# s_uuid at 0x30, s_first at 0x14 of the journal superblock
	_u=$(dd if="$_src" bs=1 skip=$((_off + 48)) count=16 2>/dev/null |
		od -An -tx1 | tr -d ' \n' |
		sed 's/^\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)/\1-\2-\3-\4-/')
	jq_is "$1" .journal.uuid "$_u" "$1: uuid"
	_first=$(dd if="$_src" bs=1 skip=$((_off + 20)) count=4 2>/dev/null |
		od -An -tu1 | awk '{ print ((($1 * 256) + $2) * 256 + $3) * 256 + $4 }')
	jq_is "$1" .journal.first "$_first" "$1: first"
}

# log_counts OUT NORM: the log's counts against a logdump_norm listing of
# the transactions replayed (all of them, in these journals).
log_counts() {
	jq_is "$1" .log.transactions "$(awk '$1 == "C"' "$2" | wc -l)" "$1: transactions"
	jq_is "$1" .log.descriptor_blocks "$(awk '$1 == "D"' "$2" | wc -l)" "$1: descriptor_blocks"
	jq_is "$1" .log.logged_blocks "$(awk '$1 == "T"' "$2" | wc -l)" "$1: logged_blocks"
	jq_is "$1" .log.revoke_blocks "$(awk '$1 == "R"' "$2" | wc -l)" "$1: revoke_blocks"
	jq_is "$1" .log.revoke_records "$(awk '$1 == "r"' "$2" | wc -l)" "$1: revoke_records"
	jq_is "$1" .log.first_tid "$(awk '$1 == "C" { print $2; exit }' "$2")" "$1: first_tid"
	jq_is "$1" .log.end_tid "$(awk '$1 == "C" { t = $2 } END { print t + 1 }' "$2")" "$1: end_tid"
}

# --- std_workload: a replay that changes the filesystem -----------------------
for fmt in 4k-64-v3 1k-32-none; do
	set_format "$fmt"
	img=std-$fmt.img
	mkimg_fmt "$img"
	std_workload "$img"
	logdump_norm "$img" > std.norm
	sum=$(sha256_of "$img")

	J "i-$fmt.json" -i "$img"
	[ "$RUN_RC" -eq 0 ] || fail "std-$fmt: -i --json exited $RUN_RC"
	jq_is "i-$fmt.json" .needs_recovery true "std-$fmt -i"
	jq_is "i-$fmt.json" .filesystem "$img" "std-$fmt -i"
	jq_is "i-$fmt.json" .journal.source inode "std-$fmt -i"
	jq_is "i-$fmt.json" .journal.version 2 "std-$fmt -i"
	journal_matches "i-$fmt.json" "$img"
	log_counts "i-$fmt.json" std.norm
	jq_is "i-$fmt.json" .log.end no_magic "std-$fmt -i"
	jq_is "i-$fmt.json" '.log.end_at | "\(.block) \(.tid)"' \
		"$(($(awk '$1 == "C" { b = $3 } END { print b }' std.norm) + 1)) 7" "std-$fmt -i"
	jq_is "i-$fmt.json" '.log.log_blocks' \
		"$(awk '$1 == "C" { b = $3 } END { print b }' std.norm)" "std-$fmt -i: log_blocks (from block 1)"

	J "n-$fmt.json" -n "$img"
	[ "$RUN_RC" -eq 1 ] || fail "std-$fmt: -n --json exited $RUN_RC, not 1 (as the replay)"
	jq_is "n-$fmt.json" .needs_recovery true "std-$fmt -n"
	# 10 replayed copies, of which A2's from T1 is superseded by T3's:
	# 9 blocks written once, the journal superblock and the superblock's
	jq_is "n-$fmt.json" '"\(.write_blocks) \(.write_bytes)"' \
		"11 $((11 * $(img_bs "$img")))" "std-$fmt -n: what would be written"
	jq_is "n-$fmt.json" '"\(.replayed) \(.copies_written) \(.superseded)"' \
		"10 9 1" "std-$fmt -n: copies written and superseded"
	journal_matches "n-$fmt.json" "$img"
	J "l-$fmt.json" -l "$img"
	J "s-$fmt.json" -s "s-$fmt.journal" "$img"
	[ "$RUN_RC" -eq 0 ] || fail "std-$fmt: -s --json exited $RUN_RC"
	jq_is "s-$fmt.json" '"\(.filesystem) \(.saved) \(.exit) \(.journal.source)"' \
		"$img s-$fmt.journal 0 inode" "std-$fmt -s"
	jq_is "s-$fmt.json" .bytes "$(wc -c < "s-$fmt.journal")" "std-$fmt -s: bytes"
	jq_is "s-$fmt.json" .sha256 "$(sha256_of "s-$fmt.journal")" "std-$fmt -s: sha256"
	jq_is "s-$fmt.json" ".journal | tojson" "$(jq -c .journal "i-$fmt.json")" "std-$fmt -s: journal as -i has it"
	[ "$(sha256_of "$img")" = "$sum" ] || fail "std-$fmt: -i, -n, -l or -s changed the image"

	J "r-$fmt.json" "$img"
	[ "$RUN_RC" -eq 1 ] || fail "std-$fmt: the replay exited $RUN_RC, not 1"
	for f in "n-$fmt.json" "r-$fmt.json"; do
		log_counts "$f" std.norm
		# T1 logs 6, T3 2, T4 4, T6 1: 13 copies; T2 revokes T1's A1,
		# T5 revokes T1's A3 and T4's A6.
		jq_is "$f" '"\(.replayed) \(.revoked) \(.bad_checksum)"' "10 3 0" "std-$fmt $f"
		jq_is "$f" '"\(.fs_errors) \(.dump_is_current)"' "false false" "std-$fmt $f"
	done
	jq_is "n-$fmt.json" .dry_run true "std-$fmt -n"
	jq_is "r-$fmt.json" .dry_run false "std-$fmt replay"

	# Again: nothing to do, exit 0.
	J "again-$fmt.json" "$img"
	[ "$RUN_RC" -eq 0 ] || fail "std-$fmt: the second replay exited $RUN_RC, not 0"
	jq_is "again-$fmt.json" '"\(.replayed) \(.journal.start) \(.log.end)"' "0 0 none" "std-$fmt again"
	J "i2-$fmt.json" -i "$img"
	jq_is "i2-$fmt.json" '"\(.needs_recovery) \(.log.transactions)"' "false 0" "std-$fmt -i after"
	journal_matches "i2-$fmt.json" "$img"
done

# --- csum3: a bad data checksum, a revoke, an uncommitted transaction ---------
set_format 4k-64-v3
img=csum.img
mkimg_fmt "$img"
# shellcheck disable=SC2046
set -- $(free_blocks "$img" 20)
B=$1
{
	jw_two "$B" "64bit csum3"
	cat <<-EOF
	txn
	log $((B + 12))
	log $((B + 13)) badcsum
	log $((B + 14))
	commit time=1700000003
	txn
	log $((B + 15))
	nocommit
	EOF
} > csum.jws
jw "$img" < csum.jws
for mode in i n l r; do
	case $mode in
	i) J csum.$mode.json -i "$img" ;;
	n) J csum.$mode.json -n "$img" ;;
	l) J csum.$mode.json -l "$img" ;;
	r) J csum.$mode.json "$img" ;;
	esac
	case $mode:$RUN_RC in
	[il]:0|[nr]:4) ;;
	*) fail "csum: jrecover --json ($mode) exited $RUN_RC" ;;
	esac
done
for f in csum.i.json csum.n.json csum.r.json; do
	# (descriptor_blocks: see pending.sh)
	jq_is "$f" '.log | "\(.first_tid) \(.end_tid) \(.transactions) \(.logged_blocks) \(.revoke_blocks) \(.revoke_records)"' \
		"1 4 3 9 1 1" "csum $f"
done
for f in csum.n.json csum.r.json; do
	jq_is "$f" '"\(.replayed) \(.revoked) \(.bad_checksum)"' "7 1 1" "csum $f"
	jq_is "$f" '.first_bad_checksum | "\(.tid) \(.fs_block)"' "3 $((B + 13))" "csum $f"
done
jq_is csum.r.json .exit 4 "csum replay"
# -l: the three commits replayed with their times; T4's descriptor and tag
# listed; the end expects tid 4.
jq_is -s csum.l.json '[.[] | select(.type == "commit") | "\(.tid):\(.commit_sec):\(.replayed)"] | join(" ")' \
	"1:1700000001:true 2:1700000002:true 3:1700000003:true" "csum -l commits"
jq_is -s csum.l.json '[.[] | select(.type == "tag" and .tid == 4) | .fs_block] | join(" ")' \
	"$((B + 15))" "csum -l tags of T4"
jq_is -s csum.l.json '[.[] | select(.type == "revoke") | "\(.tid):\(.fs_block)"] | join(" ")' \
	"2:$((B + 1))" "csum -l revokes"
jq_is -s csum.l.json '.[] | select(.type == "end") | .tid' 4 "csum -l end"
# The replay plan: one fate per tag of T1-T3, the revoked and the bad copy
# as the replay counts them, and the rest written.
jq_is -s csum.l.json '[.[] | select(.type == "fate") | .fate] | group_by(.) | map("\(.[0]):\(length)") | join(" ")' \
	"bad_checksum:1 revoked:1 written:7" "csum -l fates"
jq_is -s csum.l.json '.[] | select(.type == "fate" and .fate == "revoked") | "\(.tid):\(.fs_block):\(.by_tid)"' \
	"1:$((B + 1)):2" "csum -l revoked"

# --- a corrupt commit block: corrupt_commit, fs_errors --------------------------
img=commit.img
mkimg_fmt "$img"
{
	jw_badcommit "$B"
	printf 'txn\nlog %s\ncommit\n' $((B + 2))
} > commit.jws
jw "$img" < commit.jws
J commit.i.json -i "$img"
jq_is commit.i.json '.log | "\(.end) \(.corrupt_commit.tid) \(.end_tid)"' "commit_checksum 2 2" "corrupt commit -i"
J commit.r.json "$img"
[ "$RUN_RC" -eq 4 ] || fail "corrupt commit: the replay exited $RUN_RC, not 4"
jq_is commit.r.json '"\(.fs_errors) \(.replayed) \(.log.transactions) \(.log.corrupt_commit.tid)"' \
	"true 1 1 2" "corrupt commit replay"

# --- a recovery e2fsck abandons: the error object, then -f --------------------------
img=abandon.img
mkimg_fmt "$img"
jw "$img" <<EOF
features revoke 64bit csum3
txn
log $B
commit
txn
revoke $((B + 5)) badcsum
commit
EOF
sum=$(sha256_of "$img")
J abandon.i.json -i "$img"
[ "$RUN_RC" -eq 0 ] || fail "abandoned recovery: -i exited $RUN_RC, not 0"
jq_true abandon.i.json '.log | has("error") and has("error_at")' "abandoned recovery -i"
J abandon.8.json "$img"
[ "$RUN_RC" -eq 8 ] || fail "abandoned recovery: the replay exited $RUN_RC, not 8"
jq_true abandon.8.json 'has("error") and has("error_at") and .exit == 8' "abandoned recovery: the error object"
jq_is abandon.8.json '"\(.code) \(.path)"' "RECOVER_ET_BAD_CSUM_TXN $img" "abandoned recovery: code and path"
jq_is abandon.8.json .error_at.tid 2 "abandoned recovery: error_at"
[ "$(sha256_of "$img")" = "$sum" ] || fail "abandoned recovery: exit 8 but the image changed"
J abandon.f.json -f "$img"
[ "$RUN_RC" -eq 4 ] || fail "abandoned recovery: the replay with -f exited $RUN_RC, not 4"
jq_true abandon.f.json '.log | has("error") and .error_at.tid == 2' "abandoned recovery with -f"
jq_is abandon.f.json .replayed 0 "abandoned recovery with -f"

# --- an open error ------------------------------------------------------------------
for mode in "" -i -l -n; do
	J open$mode.json $mode does-not-exist.img
	[ "$RUN_RC" -eq 8 ] || fail "a missing image: --json $mode exited $RUN_RC, not 8"
	jq_is open$mode.json '"\(.filesystem) \(has("error_at"))"' "does-not-exist.img false" "a missing image ($mode)"
	jq_is open$mode.json '"\(.code) \(.path)"' "ENOENT does-not-exist.img" "a missing image ($mode)"
done
# A file that is no filesystem: libext2fs's code, by name.
mkdata notfs.bin 4096 64 -f 0
J notfs.json -i notfs.bin
jq_is notfs.json '"\(.code) \(.path)"' "EXT2_ET_BAD_MAGIC notfs.bin" "not a filesystem"

# --- a dump and an external journal ----------------------------------------------------
img=dump.img
mkimg_fmt "$img"
std_workload "$img"
debugfs -R "dump <8> dump.journal" "$img" 2>/dev/null
copy_img "$img" dump2.img
J dump.i.json -i -j dump.journal "$img"
jq_is dump.i.json .journal.source dump "dump -i"
J dump.r.json -j dump.journal "$img"
jq_is dump.r.json '"\(.journal.source) \(.dump_is_current) \(.replayed)"' "dump true 10" "dump, current"
# Again, onto the filesystem that replay wrote: the dump is older than
# the filesystem now (refused, exit 8), unless told to replay it anyway.
J dump.stale.json -j dump.journal "$img"
jq_is dump.stale.json '"\(.exit) \(.code)"' "8 RECOVER_ET_STALE_DUMP" "dump, stale"
J dump.again.json --replay-stale-dump -j dump.journal "$img"
jq_is dump.again.json '"\(.journal.source) \(.dump_is_current) \(.replayed)"' "dump false 10" "dump, not current"
J dump.s.json -j dump.journal -s dump.copy "$img"
jq_is dump.s.json '"\(.journal.source) \(.bytes)"' "dump $(wc -c < dump.journal)" "dump -s"
cmp -s dump.journal dump.copy || fail "dump -s: the copy differs from the dump"
# The dump read alone (tests/cli/dumpalone.sh has the rest): -i, -l, -s
# and an error, with "filesystem" null.
J alone.i.json -i dump.journal
jq_is alone.i.json '"\(.filesystem) \(.needs_recovery) \(.journal.source)"' "null null dump" "dump alone -i"
J alone.l.json -l -j dump.journal
jq_is -s alone.l.json '[.[] | select(.type == "fate") | .end_checked] | unique | tostring' "[false]" "dump alone -l"
rm -f alone.copy
J alone.s.json -s alone.copy dump.journal
jq_is alone.s.json .filesystem null "dump alone -s"
J alone.e.json -s no/such/dir/x.journal dump.journal
jq_is alone.e.json '"\(.code) \(.filesystem)"' "ENOENT null" "dump alone -s error"
J nodir.s.json -s no/such/dir/x.journal "$img"
[ "$RUN_RC" -eq 8 ] || fail "-s into a path that cannot be created exited $RUN_RC, not 8"
jq_true nodir.s.json 'has("error") and (has("saved") | not)' "-s into a path that cannot be created"
jq_is nodir.s.json '"\(.code) \(.path) \(.filesystem)"' "ENOENT no/such/dir/x.journal $img" \
	"-s into a path that cannot be created: the error is about the file"

set_format 4k-64-none
std_external ext.img ext.jdev
logdump_norm ext.img ext.jdev > ext.norm
J ext.i.json -i -j ext.jdev ext.img
jq_is ext.i.json .journal.source device "external -i"
journal_matches ext.i.json ext.img ext.jdev
log_counts ext.i.json ext.norm
J ext.r.json -j ext.jdev ext.img
[ "$RUN_RC" -eq 1 ] || fail "external: the replay exited $RUN_RC, not 1"
jq_is ext.r.json '"\(.journal.source) \(.replayed) \(.revoked)"' "device 10 3" "external replay"
J ext.s.json -s ext.save -j ext.jdev ext.img
jq_is ext.s.json '"\(.journal.source) \(.bytes)"' "device $(wc -c < ext.save)" "external -s"
saved_is ext.jdev ext.save || fail "external -s: not the device and its record"

# --- errors about the -j path: "path" is the journal's, "code" its name ------------
J nojdev.json -j no-such.jdev ext.img
jq_is nojdev.json '"\(.code) \(.path) \(.filesystem)"' "ENOENT no-such.jdev ext.img" "a missing -j path"
copy_img ext.jdev ext-uuid.jdev
poke ext-uuid.jdev $((1024 + 0x68)) 01
J extuuid.json -j ext-uuid.jdev ext.img
jq_is extuuid.json '"\(.code) \(.path) \(.exit)"' "RECOVER_ET_JDEV_UUID ext-uuid.jdev 8" "a journal device of another filesystem"
# The name goes with the message the .et table gives it.
jq_is extuuid.json .error "$(sed -n '/^ec[[:space:]]*RECOVER_ET_JDEV_UUID,/{n;s/^[[:space:]]*"\(.*\)"$/\1/p;}' \
	"$top_srcdir/lib/recover_err.et")" "RECOVER_ET_JDEV_UUID's message"
J fsjdev.json -j "$img" ext.img
jq_is fsjdev.json '"\(.code) \(.path)"' "RECOVER_ET_NOT_JOURNAL_DEV $img" "a filesystem named as the journal"

# --- strings are valid UTF-8 whatever the bytes of a path ----------------------------
# u, 0xff (not UTF-8), 0x01 (a control character), é (UTF-8), "quote",
# 0xed 0xa0 0x80 (an encoded surrogate, not UTF-8), 0xc3 (cut short).
odd=$(printf 'u\377\001\303\251"q\355\240\200\303.img')
want='"u\udcff\u0001'$(printf '\303\251')'\"q\udced\udca0\udc80\udcc3.img"'
copy_img ext.img "$odd"
J odd.i.json -i -j ext.jdev "$odd"
[ "$RUN_RC" -eq 0 ] || fail "an odd path: -i exited $RUN_RC"
NCASES=$((NCASES + 1))
grep -F -q "\"filesystem\":$want," odd.i.json ||
	fail "an odd path: \"filesystem\" is not $want"
J odd.err.json -j "no-$odd" "$odd"
grep -F -q "\"path\":\"no-${want#\"}" odd.err.json ||
	fail "an odd path: the error's \"path\" is not no-$want"
jq_is odd.err.json .code ENOENT "an odd path: the error's code"
# Every byte outside well-formed UTF-8 comes back with the surrogateescape
# convention (PEP 383).
if command -v python3 > /dev/null 2>&1; then
	NCASES=$((NCASES + 1))
	python3 -c '
import json, os, sys
o = json.loads(open("odd.i.json", "rb").read().decode("utf-8"))
sys.exit(0 if o["filesystem"].encode("utf-8", "surrogateescape") ==
         os.fsencode(sys.argv[1]) else 1)' "$odd" ||
		fail "an odd path: python3 does not get the path back from \"filesystem\""
else
	say "(python3 not found: the round trip of an odd path is not checked)"
fi
rm -f "$odd"

# --- features libext2fs does not know: "unknown_features" ------------------------
SBFEATURE=$top_builddir/tests/oracle/sbfeature
need_built "$SBFEATURE"
copy_img dump.img dirdata.img
"$SBFEATURE" dirdata.img incompat +0x1000 || die "sbfeature failed"
J dirdata.i.json -i dirdata.img
jq_is dirdata.i.json '.unknown_features | join(",")' dirdata "-i on dirdata"
J dirdata.r.json dirdata.img
jq_is dirdata.r.json '"\(.unknown_features | join(",")) \(has("dry_run"))"' \
	"dirdata true" "the report of a replay on dirdata"
J plain.r.json -i dump.img
jq_is plain.r.json 'has("unknown_features")' false "-i without unknown features"
"$SBFEATURE" dirdata.img incompat +0x1 || die "sbfeature failed"
J compression.json dirdata.img
jq_is compression.json '"\(.code) \(.unknown_features | join(","))"' \
	"EXT2_ET_UNSUPP_FEATURE compression,dirdata" "a refusal on compression"

end_test
