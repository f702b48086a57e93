#!/bin/bash
# bench/sload-bench.sh [path/to/sload.f2fs]: our sload.f2fs against
# f2fs-tools' on the same tree, side by side in one run: BENCH_RUNS rounds,
# each loading ours then theirs into freshly formatted images (alternating,
# so both see the same machine), page cache warm for the source tree;
# medians of wall time and of CPU time (user + system), peak RSS, the
# wall-time ratio, and the load average before and after (the machine is
# shared: wall time is the machine's, CPU time is the tool's).  The tree
# is the fsck benchmark's (bench/fsck-bench.sh make_src: N small files in
# N/1000 directories, every 455th one missing).  Not a test: nothing
# asserts on time.
#
# Environment: BENCH_FILES (default 20000), BENCH_RUNS (default 3),
# BENCH_CACHE (default /var/tmp/f2fs-bench), BENCH_IMAGE_SIZE (default
# 64G, sparse), BENCH_SEGS (mkfs -s, default 1), BENCH_SKIP_ORACLE=1 (ours
# only, for trees f2fs-tools takes too long on), BENCH_TAR=1 (ours also
# from bench/tar-gen.c's stream of the same tree: tar-gen N | sload.f2fs
# --tar -, timed together), MKFS_ORACLE, SLOAD_ORACLE, CC.
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

# measure CMD... -> "seconds cpu_seconds maxrss_kib exit" (CPU and RSS
# of the command and everything it waited for)
measure() {
	/usr/bin/time -f '%e %U %S %M' -o "$CACHE/sload-time.$$.out" "$@" >/dev/null 2>"$CACHE/sload-err.$$.out" </dev/null
	local rc=$?
	awk -v rc=$rc 'END { printf "%.2f %.2f %d %d\n", $1, $2 + $3, $4, rc }' "$CACHE/sload-time.$$.out"
}

fresh_image() {
	rm -f "$IMG"
	truncate -s "$SIZE" "$IMG" && "$MKFS" -f -q -s "$SEGS" "$IMG" >/dev/null && sync
}

# one KIND: a load of the tree into a fresh image -> "wall cpu rss"
one() {
	local r
	fresh_image || return 1
	case $1 in
	ours) r=$(measure "$OURS" -f "$CACHE/src-$NFILES" "$IMG") ;;
	tar) r=$(measure bash -c "set -o pipefail; '$GEN' $NFILES | '$OURS' --tar - '$IMG'") ;;
	theirs) r=$(measure "$THEIRS" -f "$CACHE/src-$NFILES" "$IMG") ;;
	esac
	set -- $r
	[ "$4" = 0 ] || { echo "$1 exit $4: $(tail -n 2 "$CACHE/sload-err.$$.out")" >&2; return 1; }
	echo "$1 $2 $3"
}

# median COLUMN < lines
median() {
	sort -n -k "$1" | awk -v c="$1" '{ v[NR] = $c } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

IMG=$CACHE/sload-bench.$$.img
KINDS=ours
[ "${BENCH_TAR:-0}" = 1 ] && KINDS="$KINDS tar"
[ "${BENCH_SKIP_ORACLE:-0}" = 1 ] || KINDS="$KINDS theirs"
if [ "${BENCH_TAR:-0}" = 1 ]; then
	GEN=$CACHE/tar-gen
	${CC:-cc} -O2 -o "$GEN" "$SRC/bench/tar-gen.c" || exit 1
fi
make_src "$CACHE/src-$NFILES"
find "$CACHE/src-$NFILES" -type f -exec cat {} + > /dev/null	# warm the tree
echo "tree: $NFILES files (every 455th missing) in $(((NFILES + 999) / 1000)) directories; image $SIZE, mkfs -s $SEGS; $RUNS alternating rounds"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((k = 1; k <= RUNS; k++)); do
	for kind in $KINDS; do
		r=$(one $kind) || { rm -f "$IMG"; exit 1; }
		echo "$kind $r" >> "$CACHE/sload-bench.runs.$$"
		printf '  round %d %-7s %9s s wall %8s s CPU %8s KiB\n' $k $kind $r
	done
done
rm -f "$IMG"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in $KINDS; do
	grep "^$kind " "$CACHE/sload-bench.runs.$$" | cut -d' ' -f2- > "$CACHE/sload-bench.k.$$"
	printf '%-7s median %9s s wall %8s s CPU %8s KiB peak RSS\n' $kind \
		"$(median 1 < "$CACHE/sload-bench.k.$$")" "$(median 2 < "$CACHE/sload-bench.k.$$")" \
		"$(median 3 < "$CACHE/sload-bench.k.$$")"
	eval "med_$kind=$(median 1 < "$CACHE/sload-bench.k.$$")"
	eval "cpu_$kind=$(median 2 < "$CACHE/sload-bench.k.$$")"
done
rm -f "$CACHE/sload-bench.runs.$$" "$CACHE/sload-bench.k.$$" "$CACHE/sload-time.$$.out" "$CACHE/sload-err.$$.out"
if [ "${BENCH_SKIP_ORACLE:-0}" != 1 ]; then
	awk -v a="$med_ours" -v b="$med_theirs" -v ca="$cpu_ours" -v cb="$cpu_theirs" \
		'BEGIN { printf "speed-up (medians): %.1fx wall, %.1fx CPU\n", (a > 0 ? b / a : 0), (ca > 0 ? cb / ca : 0) }'
fi
