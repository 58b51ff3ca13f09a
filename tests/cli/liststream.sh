#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# liststream.sh --- jrecover -l --json streams (jrecover(8), -l: "memory
# and time grow with the journal's length, and nothing is held back"):
# on a jwrite `bulk` journal of 1000 transactions with 16 logged blocks
# and 1000 revoke records each (1M revoke records, about 80 MB of log),
#  - the peak resident memory of jrecover -l --json (/usr/bin/time %M)
#    stays under 64 MiB and under half the log's size;
#  - the listing is valid JSON Lines with exactly the journal's objects:
#    1000 descriptors, 16000 tags, 2000 revoke blocks, 1000000 revoke
#    records (1000 per transaction), 1000 commits, the replay plan (one
#    fate per tag), one end; the same counts as -i --json reports;
#  - -l leaves the image's sha256 unchanged.

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/cli/clilib.sh"

[ "$ORACLE_ONLY" = 1 ] && skip "nothing to check without jrecover"
need_jq
[ -x /usr/bin/time ] ||
	die "/usr/bin/time not found: it is a test dependency (contrib/install-deps.sh)"

NTXN=1000
NREV=1000000
NLOG=16

img=bulk.img
mkimg "$img" 512M -J size=128
jw "$img" <<EOF
features revoke 64bit csum3
bulk $NTXN $NREV $NLOG
EOF
sum=$(sha256_of "$img")

jr info.json info.err -i --json "$img"
[ "$RUN_RC" -eq 0 ] || fail "-i --json exited $RUN_RC"
jq_is info.json '"\(.log.transactions) \(.log.logged_blocks) \(.log.revoke_records) \(.log.descriptor_blocks) \(.log.revoke_blocks)"' \
	"$NTXN $((NTXN * NLOG)) $NREV $NTXN 2000" "-i --json"
log_bytes=$(jq -r '.log.log_blocks * .journal.block_size' info.json)
say "log: $log_bytes bytes"

NCASES=$((NCASES + 1))
say "\$ /usr/bin/time -f %M jrecover -l --json $img > list.json"
/usr/bin/time -f %M -o time.out $TIMEOUT "$JRECOVER" -l --json "$img" \
	> list.json 2> list.err
rc=$?
[ "$rc" -eq 0 ] || fail "jrecover -l --json exited $rc"
[ -s list.err ] && { sed 's/^/    /' list.err; fail "jrecover -l --json printed on stderr"; }
kb=$(tail -n 1 time.out)
case $kb in
''|*[!0-9]*) die "/usr/bin/time gave '$kb'" ;;
esac
lines=$(wc -l < list.json)
say "    $lines lines, $(wc -c < list.json) bytes, peak RSS $kb KiB"
limit=$((64 * 1024))
[ $((log_bytes / 2048)) -lt "$limit" ] && limit=$((log_bytes / 2048))
[ "$kb" -lt "$limit" ] ||
	fail "jrecover -l --json peaked at $kb KiB for a $log_bytes-byte log (limit $limit KiB): it does not stream"

NCASES=$((NCASES + 1))
jq -r '"\(.type) \(.tid)"' < list.json > types 2> jq.err ||
	{ head -n 5 jq.err; fail "-l --json is not valid JSON Lines"; }
cut -d' ' -f1 types | sort | uniq -c | awk '{ print $2, $1 }' | sort > counts
cat > want.counts <<EOF
commit $NTXN
descriptor $NTXN
end 1
fate $((NTXN * NLOG))
revoke $NREV
revoke_block 2000
tag $((NTXN * NLOG))
EOF
sed 's/^/    /' counts
diff -u want.counts counts > counts.diff ||
	{ sed 's/^/    /' counts.diff; fail "-l --json lists other objects (+) than the journal holds (-)"; }
# 1000 revoke records in each transaction, tids 1 to 1000.
awk '$1 == "revoke" { n[$2]++ }
	END { for (t = 1; t <= '"$NTXN"'; t++) if (n[t] != '"$((NREV / NTXN))"') bad++
	      exit bad != 0 }' types ||
	fail "the revoke records are not $((NREV / NTXN)) in each transaction"
[ "$(tail -n 1 types)" = "end $((NTXN + 1))" ] ||
	fail "the listing does not end with the end object of tid $((NTXN + 1)): $(tail -n 1 types)"

NCASES=$((NCASES + 1))
[ "$(sha256_of "$img")" = "$sum" ] || fail "-i or -l changed the image"

end_test
