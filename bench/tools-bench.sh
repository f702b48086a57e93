#!/bin/sh
# bench/tools-bench.sh: mkfs.f2fs and dump.f2fs side by side with
# f2fs-tools 1.15 in the same run, on sparse images (not part of make check;
# tests never assert on time).  For each case it prints both times, their
# ratio and both peak RSS values:
#   - mkfs of an empty 1 TiB image at -s 1 and -s 128 (also bytes allocated
#     in the image: both tools must leave it sparse);
#   - printing the superblock and checkpoint of those images (ours: the
#     default view; f2fs-tools: dump.f2fs -d 1, which loads the whole SIT
#     first), warm cache, best of 5.
# Usage: bench/tools-bench.sh [BUILD_DIR]   (default: ./build or .)
set -u
build=${1:-}
[ -n "$build" ] || { [ -x build/mkfs/mkfs.f2fs ] && build=build || build=.; }
OUR_MKFS=$build/mkfs/mkfs.f2fs
OUR_DUMP=$build/dump/dump.f2fs
for t in "$OUR_MKFS" "$OUR_DUMP" /usr/sbin/mkfs.f2fs /usr/sbin/dump.f2fs /usr/bin/time; do
	[ -x "$t" ] || { echo "tools-bench: missing $t" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/var/tmp}/tools-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# measure OUT CMD...: best wall time (s) of 5 runs, including starting the
# process, and the peak RSS (KiB) of that run.
measure() {
	out=$1
	shift
	best=
	for _ in 1 2 3 4 5; do
		t0=$(date +%s%N)
		/usr/bin/time -f '%M' -o "$work/t" "$@" >/dev/null 2>&1 </dev/null
		t1=$(date +%s%N)
		e=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
		read -r m <"$work/t"
		if [ -z "$best" ] || awk -v a="$e" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$e
			rss=$m
		fi
	done
	echo "$best $rss" >"$out"
}

row() {	# row NAME OURS_FILE THEIRS_FILE
	read -r ot orss <"$2"
	read -r tt trss <"$3"
	awk -v n="$1" -v ot="$ot" -v tt="$tt" -v orss="$orss" -v trss="$trss" 'BEGIN {
		r = (ot > 0) ? tt / ot : 0
		printf "%-34s %8.4f s %8.4f s %7.1fx   %7.1f MiB %7.1f MiB\n", n, ot, tt, r, orss / 1024, trss / 1024 }'
}

printf "%-34s %10s %10s %8s   %11s %11s\n" case ours f2fs-tools speedup "RSS ours" "RSS theirs"
for s in 1 128; do
	img=$work/tib.img
	# mkfs: each run on a fresh sparse file
	rm -f "$img"; truncate -s 1T "$img"
	measure "$work/om" sh -c "rm -f $img; truncate -s 1T $img; $OUR_MKFS -f -q -s $s $img"
	ours_kib=$(du -k "$img" | cut -f1)
	measure "$work/tm" sh -c "rm -f $img; truncate -s 1T $img; /usr/sbin/mkfs.f2fs -f -q -s $s $img"
	theirs_kib=$(du -k "$img" | cut -f1)
	row "mkfs 1 TiB -s $s" "$work/om" "$work/tm"
	echo "    image allocated after mkfs: ours $ours_kib KiB, f2fs-tools $theirs_kib KiB"
	# dump of the superblock and checkpoint, on an image of ours
	rm -f "$img"; truncate -s 1T "$img"; "$OUR_MKFS" -f -q -s $s "$img"
	measure "$work/od" "$OUR_DUMP" "$img"
	measure "$work/td" /usr/sbin/dump.f2fs -d 1 "$img"
	row "dump sb+cp 1 TiB -s $s" "$work/od" "$work/td"
done
