#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# jw-bulk.sh --- long logs: thousands of transactions and a few hundred
# thousand revoke records (jwrite's `bulk T N L hit=P`: T transactions,
# each logging L blocks from the filesystem's largest free run, in turn,
# and revoking its share of N records, P% of them blocks logged by earlier
# transactions, the rest blocks never logged).  e2fsck's revoke table is a
# small fixed hash, so the record counts stay in the hundreds of thousands.
#
#   bulk-4k-csum3   2000 transactions, 200000 records, 8 blocks each,
#                   30% hits; 4 KiB blocks, 64bit, csum v3 [1]
#   bulk-1k-none    1000 transactions, 100000 records, 8 blocks each,
#                   30% hits; 1 KiB blocks, 32-bit, no checksums [1]
#   bulk-1k-wrap    1200 transactions, 60000 records, 4 blocks each, 50%
#                   hits; 1 KiB blocks, csum v2, the log wrapping and the
#                   tids wrapping past 2^32 [1]

. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib/lib.sh"
. "$top_srcdir/tests/oracle/oracle.sh"

base m4 256M -b 4096 -O 64bit,metadata_csum -J size=96
base n1 64M -b 1024 -O ^64bit,^metadata_csum -J size=16
base m1 64M -b 1024 -O 64bit,metadata_csum -J size=16

jcase bulk-4k-csum3 m4 <<EOF
features revoke 64bit csum3
bulk 2000 200000 8 hit=30
EOF
ocase bulk-4k-csum3
e2seq bulk-4k-csum3 2002
e2state bulk-4k-csum3 clean

jcase bulk-1k-none n1 <<EOF
features revoke
bulk 1000 100000 8 hit=30
EOF
ocase bulk-1k-none
e2seq bulk-1k-none 1002
e2state bulk-1k-none clean

len=$(jlen m1.base)
jcase bulk-1k-wrap m1 <<EOF
features revoke 64bit csum2
sequence 4294966800
start $((len - 3000))
bulk 1200 60000 4 hit=50
EOF
ocase bulk-1k-wrap
wrapped bulk-1k-wrap
e2seq bulk-1k-wrap $((4294966800 + 1200 + 1))
e2state bulk-1k-wrap clean

end_test
