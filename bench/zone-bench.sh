#!/bin/sh
# bench/zone-bench.sh [BUILD_DIR]: the cost of zone sizes that are not
# powers of two, and mkfs -m on a large emulated device.  By hand, never
# in make check (nothing here asserts on time).
#
# 1. bench/zone-arith.c: the zone of a block and its offset in the zone
#    (include/f2fs_zone.h), shift against division, ns per lookup.
# 2. The same arithmetic in context: dump.f2fs --zones (which places every
#    zone's section) and our fsck on 1 TiB emulated volumes whose zones are
#    96 MiB against 128 MiB, 200 MiB against 256 MiB, 1000 MiB against
#    1024 MiB; best of BENCH_RUNS (5) wall times.
# 3. mkfs.f2fs -m of a 1 TiB emulated device (a sparse file), best of
#    BENCH_RUNS, with 96 MiB and 256 MiB zones.
# Scratch files go to BENCH_TMP (default /tmp); they are sparse and removed.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
runs=${BENCH_RUNS:-5}
tmp=$(mktemp -d "${BENCH_TMP:-/tmp}/zone-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
MKFS=$build/mkfs/mkfs.f2fs DUMP=$build/dump/dump.f2fs FSCK=$build/fsck/fsck.f2fs
for t in "$MKFS" "$DUMP" "$FSCK" "$build/lib/libf2fs.a"; do
	[ -e "$t" ] || { echo "zone-bench: $t not built" >&2; exit 1; }
done

# best_of CMD...: the best wall time of $runs runs, in seconds.
best_of() {
	best=
	i=0
	while [ $i -lt "$runs" ]; do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || { echo "zone-bench: failed: $*" >&2; exit 1; }
		e=$(date +%s.%N)
		best=$(echo "$s $e ${best:-1e9}" | awk '{ t = $2 - $1; print (t < $3 ? t : $3) }')
		i=$((i + 1))
	done
	echo "$best"
}

echo "== 1. zone arithmetic: ns per lookup (best of 7 runs of 2^24 lookups) =="
${CC:-cc} -O2 -std=gnu11 -I"$top/include" -o "$tmp/zone-arith" "$top/bench/zone-arith.c" \
	"$build/lib/libf2fs.a"
"$tmp/zone-arith" 2>/dev/null

echo "== 2. in context: 1 TiB emulated volumes, best of $runs (seconds) =="
img=$tmp/v.img
for z in 96 128 200 256 1000 1024; do
	rm -f "$img"
	truncate -s 1T "$img"
	printf 'zone_size %sM\nconventional %s\n' "$z" $((32768 / z + 2)) >"$img.zones"
	"$MKFS" -q -m "$img"
	d=$(best_of "$DUMP" --zones "$img")
	f=$(best_of "$FSCK" "$img")
	printf 'zones of %4s MiB: dump --zones %s s, fsck %s s\n' "$z" "$d" "$f"
done

echo "== 3. mkfs.f2fs -m on a 1 TiB emulated device, best of $runs (seconds) =="
for z in 96 256; do
	rm -f "$img"
	truncate -s 1T "$img"
	printf 'zone_size %sM\nzone_capacity %sM\nconventional %s\n' "$z" $((z * 3 / 4)) \
		$((32768 / z + 2)) >"$img.zones"
	m=$(best_of "$MKFS" -q -f -m "$img")
	printf 'zones of %4s MiB: mkfs -m %s s\n' "$z" "$m"
done
