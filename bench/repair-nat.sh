#!/bin/bash
# bench/repair-nat.sh [BUILD_DIR] [LEAKS]: time the NAT reads of a NAT-heavy
# repair, block by block against one batch with readahead.
#
# Builds (once, cached in $BENCH_CACHE, default /var/tmp/f2fs-bench) an
# 8 GiB image with LEAKS (default 2000) leaked nids spread over the whole
# NAT, one per NAT block (nid i * 455 + 7 is in NAT block i), each pointing
# at its own free block.  A repair clears them all, so its commit rewrites
# NAT blocks 1..LEAKS, and its NAT flush first reads their current copies
# in one batch.  bench/nat-read (built with the tools) reads exactly those
# blocks through the device layer, one 4 KiB read at a time or as that
# batch, each mode with a cold page cache (`sync; echo 3 >
# /proc/sys/vm/drop_caches`, needs root; nat-read also drops the blocks it
# reads with posix_fadvise DONTNEED), and reports the time.  The kernel's
# NAT readahead patch cut that step by over 90 %; the ratio printed is
# batch / single.  Not run by make check.
set -u
B=${1:-$(pwd)}
LEAKS=${2:-2000}
FSCK=$B/fsck/fsck.f2fs
MKFS=$B/mkfs/mkfs.f2fs
INJECT=$B/inject/inject.f2fs
NATREAD=$B/bench/nat-read
CACHE=${BENCH_CACHE:-/var/tmp/f2fs-bench}
for t in "$FSCK" "$MKFS" "$INJECT" "$NATREAD"; do
	[ -x "$t" ] || { echo "missing $t (build it first)" >&2; exit 1; }
done
mkdir -p "$CACHE"
SRC=$CACHE/nat-leaks-$LEAKS.img

if [ ! -s "$SRC" ]; then
	echo "building $SRC ($LEAKS leaked nids)..."
	rm -f "$SRC.tmp"
	truncate -s 8G "$SRC.tmp"
	"$MKFS" -f -q "$SRC.tmp" >/dev/null || exit 1
	main=$("$FSCK" -l "$SRC.tmp" 2>/dev/null | awk -F': *' '$1 ~ /^main_blkaddr/ { print $2; exit }')
	segs=$("$FSCK" -l "$SRC.tmp" 2>/dev/null | awk -F': *' '$1 ~ /^segment_count_main/ { print $2; exit }')
	[ -n "$main" ] && [ -n "$segs" ] || { echo "cannot read the geometry" >&2; exit 1; }
	# free blocks near the end of main, one per leak
	base=$((main + (segs - 8) * 512 - LEAKS))
	i=1
	while [ $i -le "$LEAKS" ]; do
		nid=$((i * 455 + 7))
		"$INJECT" --nat 0 --nid $nid --mb ino --val $nid "$SRC.tmp" >/dev/null 2>&1 &&
		"$INJECT" --nat 0 --nid $nid --mb block_addr --val $((base + i)) "$SRC.tmp" >/dev/null 2>&1 ||
			{ echo "stopped at leak $i (nid $nid beyond the NAT?)" >&2; break; }
		i=$((i + 1))
	done
	mv "$SRC.tmp" "$SRC"
fi

run() {
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || echo "warning: cannot drop caches (not root): warm numbers" >&2
	"$NATREAD" "$SRC" "$1" 1 "$LEAKS" |
		sed -n 's/.*NAT read ([a-z]*) of \([0-9]*\) blocks: \([0-9.]*\) ms.*/\1 \2/p'
}

set -- $(run single)
nb=$1 single=$2
set -- $(run batch)
batch=$2
echo "NAT blocks the repair rewrites: $nb"
echo "block by block: $single ms"
echo "one batch with readahead: $batch ms"
awk -v s="$single" -v b="$batch" 'BEGIN { if (s > 0) printf "batch / single: %.3f (%.1f %% less time)\n", b / s, 100 * (1 - b / s) }'
