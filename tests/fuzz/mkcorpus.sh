#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# mkcorpus.sh --- regenerate the seed corpora of the fuzz targets,
# tests/fuzz/corpus/fuzz_replay/ and tests/fuzz/corpus/fuzz_decode/, from
# journals written by tests/jwrite (and one by debugfs).
#
# usage: tests/fuzz/mkcorpus.sh [BUILDDIR]
#   BUILDDIR  where tests/jwrite/jwrite and tests/fuzz/fuzz_replay are built
#             (default: the top of the source tree); `make check` builds them
#
# fuzz_replay's seeds are journals written into the very filesystem the
# target builds in memory (fuzz_replay -w writes it out), then turned into
# its input format by fuzz_replay -c, each with a few control bytes.
# fuzz_decode's seeds are a journal superblock and one log block each.
# Every seed is under 64 KiB; the script says so if one is not.

set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$top}" && pwd)
JWRITE=$build/tests/jwrite/jwrite
REPLAY=$build/tests/fuzz/fuzz_replay
for p in "$JWRITE" "$REPLAY"; do
	[ -x "$p" ] || { echo "mkcorpus: $p not built (make check)" >&2; exit 1; }
done
command -v debugfs >/dev/null || { echo "mkcorpus: no debugfs" >&2; exit 1; }

out=$top/tests/fuzz/corpus
work=$(mktemp -d "${TMPDIR:-/tmp}/mkcorpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
rm -rf "$out/fuzz_replay" "$out/fuzz_decode"
mkdir -p "$out/fuzz_replay" "$out/fuzz_decode"
export E2FSPROGS_FAKE_TIME=1700000000

"$REPLAY" -w "$work/base.img"

# journal NAME CTL... < SCRIPT: one jwrite journal, one seed per CTL.
journal() {
	name=$1
	shift
	cp "$work/base.img" "$work/$name.img"
	"$JWRITE" "$work/$name.img" > /dev/null
	for ctl in "$@"; do
		"$REPLAY" -c "$work/$name.img" "$ctl" \
			> "$out/fuzz_replay/$name-$ctl"
	done
	decode_seeds "$name" 0
}

# decode_seeds NAME SELECTOR: the journal superblock of NAME.img with each
# log block that has the jbd2 magic, as fuzz_decode inputs.
decode_seeds() {
	img=$work/$1.img
	bs=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Block size: *//p')
	j0=$(debugfs -R "bmap <8> 0" "$img" 2>/dev/null)
	n=1
	while [ "$n" -le 40 ]; do
		b=$(debugfs -R "bmap <8> $n" "$img" 2>/dev/null)
		magic=$(dd if="$img" bs="$bs" skip="$b" count=1 2>/dev/null |
			od -An -tx1 -N4 | tr -d ' \n')
		if [ "$magic" = c03b3998 ]; then
			{
				printf "\\$(printf '%03o' "$2")"
				dd if="$img" bs="$bs" skip="$j0" count=1 2>/dev/null |
					head -c 1024
				dd if="$img" bs="$bs" skip="$b" count=1 2>/dev/null
			} > "$out/fuzz_decode/$1-$n"
		fi
		n=$((n + 1))
	done
}

# The control bytes (see fuzz_replay.c): 0 plain; 5 full revoke table and a
# dry run; 8 stopped by the progress callback; 64 checksums fixed; 2 -f.

journal v3 0 5 8 <<'EOF'
features revoke 64bit csum3
txn
log 1100-1105
commit
txn
revoke 1101
commit
txn
log 1101-1102
log 1106 escape
commit
txn
revoke 1103 1106
commit
txn
log 1110
commit
EOF

journal v2-32 0 64 <<'EOF'
features revoke csum2
maxtags 3
txn
log 1100-1107
commit
txn
revoke 1100-1102
log 1100 escape
commit
txn
log 1101 uuid
commit
EOF

journal v1 0 8 <<'EOF'
features revoke csum1
txn
log 1100-1103
commit
txn
revoke 1102
commit
txn
log 1102 1104
commit
EOF

journal none-64 0 5 <<'EOF'
features revoke 64bit
sequence 4294967294
txn
log 1200-1203
commit
txn
revoke 1200
log 1200
commit
txn
log 1201
commit
txn
log 1300
nocommit
EOF

journal sbv1 0 <<'EOF'
version 1
txn
log 1100-1102
commit
txn
log 1101
commit
EOF

# A log that wraps: jwrite wraps it at block 40, and the seeds' s_maxlen
# (header bytes 10-11) says 40 too.
journal wrap 0 8 <<'EOF'
features revoke 64bit csum3
logend 40
start 35
txn
log 1100-1106
commit
txn
revoke 1100
commit
txn
log 1100-1103
commit
EOF

journal async-badcommit 0 2 <<'EOF'
features revoke 64bit async csum3
txn
log 1100-1102
commit
txn
log 1103
commit badcsum
txn
log 1104
commit
EOF

journal badcommit 0 <<'EOF'
features revoke 64bit csum3
txn
log 1100-1102
commit
txn
log 1103
commit badcsum
txn
log 1104
commit
EOF

journal baddata 0 <<'EOF'
features revoke 64bit csum3
txn
log 1100 1101 badcsum 1102
commit
EOF

journal baddesc 0 2 <<'EOF'
features revoke 64bit csum2
txn
log 1100
commit
txn
log 1101 baddesc
commit
EOF

journal badrevoke 0 2 <<'EOF'
features revoke 64bit csum3
txn
log 1100-1101
commit
txn
revoke 1100 badcsum
commit
EOF

journal rcount 0 2 64 <<'EOF'
features revoke 64bit
txn
log 1100-1103
commit
txn
rcount 5000
revoke 1100 1101
commit
txn
rcount 27
revoke 1102 1103
commit
EOF

journal errno 0 <<'EOF'
features revoke
errno -5
txn
log 1100
commit
EOF

journal manyrevokes 0 5 <<'EOF'
features revoke 64bit csum3
txn
log 1100-1110
commit
txn
revoke 1062-1400
commit
txn
log 1105
commit
EOF

journal garbage 0 64 <<'EOF'
features revoke 64bit csum3
txn
log 1100-1101
commit
garbage
txn
log 1102
commit
EOF

journal fastcommit 0 <<'EOF'
features revoke 64bit csum3 fast_commit
txn
log 1100
commit
EOF

journal zerocsum 0 <<'EOF'
features revoke csum1
txn
log 1100-1101
commit zerocsum
txn
log 1102
commit type=1 size=4
EOF

for f in "$out"/fuzz_replay/wrap-*; do
	printf '\000\050' | dd of="$f" bs=1 seek=10 conv=notrunc 2>/dev/null
done

# debugfs's own journal writer: a v3 journal (the filesystem has
# metadata_csum), blocks then a revoke then blocks again.
cp "$work/base.img" "$work/debugfs.img"
head -c 3072 /dev/zero | tr '\0' 'D' > "$work/data"
debugfs -w -f - "$work/debugfs.img" > /dev/null 2>&1 <<EOF
jo -c
jw -b 1100-1102 $work/data
jc
jo -c
jw -r 1101
jc
jo -c
jw -b 1101 $work/data
jc
EOF
for ctl in 0 8 72; do
	"$REPLAY" -c "$work/debugfs.img" "$ctl" > "$out/fuzz_replay/debugfs-$ctl"
done
decode_seeds debugfs 0

# fuzz_decode with 4 KiB blocks: an image made by mke2fs.
mke2fs -q -F -t ext4 -b 4096 "$work/big.img" 16M > /dev/null 2>&1
"$JWRITE" "$work/big.img" > /dev/null <<'EOF'
features revoke 64bit csum3
txn
log 1300-1305
revoke 1310
commit
EOF
decode_seeds big 2

# fuzz_decode's fast-commit seeds: fast-commit blocks a kernel wrote
# (tests/kernel/fc.sh's live image and its corrupt variants), each with
# that journal's superblock; control byte 0x62: 4 KiB blocks, expected tid
# s_sequence + 3, the tid of their HEAD.  Kept in fc-seeds/ because they
# need root and loop mounts to make.
cp "$top"/tests/fuzz/fc-seeds/fc-* "$out/fuzz_decode/"

big=$(find "$out" -type f -size +64k)
[ -z "$big" ] || { echo "mkcorpus: seeds over 64 KiB: $big" >&2; exit 1; }
echo "mkcorpus: $(find "$out/fuzz_replay" -type f | wc -l) fuzz_replay seeds," \
	"$(find "$out/fuzz_decode" -type f | wc -l) fuzz_decode seeds," \
	"$(du -sk "$out" | cut -f1) KiB"
