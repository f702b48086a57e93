#!/bin/bash
# bench/sload-bench.sh [path/to/sload.f2fs]: our sload.f2fs against
# f2fs-tools' on the same tree, side by side in one run: wall time (best
# of BENCH_RUNS, page cache warm for the source tree, each load into a
# freshly formatted image), peak RSS, and the ratio.  The tree is the fsck
# benchmark's (bench/fsck-bench.sh make_src: N small files in N/1000
# directories, every 455th one missing).  Not a test: nothing asserts on
# time.
#
# Environment: BENCH_FILES (default 20000), BENCH_RUNS (default 3),
# BENCH_CACHE (default /var/tmp/f2fs-bench), BENCH_IMAGE_SIZE (default
# 64G, sparse), BENCH_SEGS (mkfs -s, default 1), BENCH_SKIP_ORACLE=1 (ours
# only, for trees f2fs-tools takes too long on), MKFS_ORACLE, SLOAD_ORACLE.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
OURS=${1:-./sload/sload.f2fs}
MKFS=${MKFS_ORACLE:-/usr/sbin/mkfs.f2fs}
THEIRS=${SLOAD_ORACLE:-/usr/sbin/sload.f2fs}
NFILES=${BENCH_FILES:-20000}
RUNS=${BENCH_RUNS:-3}
CACHE=${BENCH_CACHE:-/var/tmp/f2fs-bench}
SIZE=${BENCH_IMAGE_SIZE:-64G}
SEGS=${BENCH_SEGS:-1}
[ -x "$OURS" ] || { echo "sload-bench: $OURS not built" >&2; exit 1; }
mkdir -p "$CACHE"

make_src() {
	local src=$1 ndirs i d
	[ -d "$src" ] && return
	ndirs=$(((NFILES + 999) / 1000))
	mkdir -p "$src.tmp"
	for ((d = 0; d < ndirs; d++)); do
		mkdir -p "$src.tmp/d$d"
		for ((i = 0; i < 1000 && d * 1000 + i < NFILES; i++)); do
			(((d * 1000 + i) % 455 == 454)) && continue
			echo "$d/$i" >"$src.tmp/d$d/f$i"
		done
	done
	mv "$src.tmp" "$src"
}

# measure TOOL ARGS... -> "seconds maxrss_kib exit"
measure() {
	/usr/bin/time -v "$@" >/dev/null 2>"$CACHE/sload-time.out" </dev/null
	local rc=$?
	awk -v rc=$rc '/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = t[n] + (n > 1 ? t[n-1] * 60 : 0) + (n > 2 ? t[n-2] * 3600 : 0) }
		/Maximum resident set size/ { r = $NF } END { printf "%.3f %d %d\n", s, r, rc }' "$CACHE/sload-time.out"
}

# run TOOL -> best "seconds rss": each run loads into a new image
run() {
	local tool=$1 best='' r img=$CACHE/sload-bench.img
	for ((k = 0; k < RUNS; k++)); do
		rm -f "$img"
		truncate -s "$SIZE" "$img" && "$MKFS" -f -q -s "$SEGS" "$img" >/dev/null || return 1
		sync
		r=$(measure "$tool" -f "$CACHE/src-$NFILES" "$img")
		set -- $r
		[ "$3" = 0 ] || { echo "$tool exit $3" >&2; rm -f "$img"; return 1; }
		if [ -z "$best" ] || awk -v a="$1" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
			best="$1 $2"
		fi
	done
	rm -f "$img"
	echo "$best"
}

make_src "$CACHE/src-$NFILES"
find "$CACHE/src-$NFILES" -type f -exec cat {} + > /dev/null	# warm the tree
echo "tree: $NFILES files (every 455th missing) in $(((NFILES + 999) / 1000)) directories; image $SIZE, mkfs -s $SEGS; best of $RUNS"
ours=$(run "$OURS") || exit 1
printf '%-28s %10s s %9s KiB\n' "ours ($OURS)" ${ours}
if [ "${BENCH_SKIP_ORACLE:-0}" != 1 ]; then
	theirs=$(run "$THEIRS") || exit 1
	printf '%-28s %10s s %9s KiB\n' "f2fs-tools ($THEIRS)" ${theirs}
	awk -v a="${ours%% *}" -v b="${theirs%% *}" 'BEGIN { printf "speed-up: %.1fx\n", (a > 0 ? b / a : 0) }'
fi
