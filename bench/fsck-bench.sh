#!/bin/bash
# bench/fsck-bench.sh: our fsck.f2fs against f2fs-tools' `fsck.f2fs --dry-run`,
# side by side in one run, cold page cache (sync; drop_caches) and warm,
# with wall time ratios and peak RSS (/usr/bin/time -v).  Not part of
# make check.
#
# Images (made here, cached outside the repository in $BENCH_CACHE,
# default /var/tmp/f2fs-bench):
#   empty-1t-s128  an empty 1 TiB image, mkfs -s 128
#   empty-1t-s1    the same with -s 1
#   files-N-sS     N files in N/1000 directories, 1 in 455 deleted, the
#                  same tree at -s 1 and -s 128 (N = $BENCH_FILES, default
#                  650000), formatted by f2fs-tools' mkfs.f2fs and filled
#                  by BENCH_BUILDER:
#                    kernel (default): the Linux kernel's F2FS in the QEMU
#                      guest of tests/kernel (bench/guest-populate.sh;
#                      about 8 minutes for 650,000 files under TCG);
#                    sload: our sload.f2fs from a host tree (seconds for
#                      650,000 files; images named sload-N-sS; SLOAD_F2FS
#                      names another sload, e.g. f2fs-tools', which takes
#                      well over an hour)
# BENCH_BUILD_ONLY=1 only makes the images (run it in the background once).
# BENCH_SIZES: the -s values of the populated images (default "1 128").
# Usage: bench/fsck-bench.sh [FSCK] (default: ./fsck/fsck.f2fs of the
# current build directory).  Needs root for drop_caches (else warm only).
set -u
OURS=${1:-./fsck/fsck.f2fs}
ORACLE=${FSCK_ORACLE:-/usr/sbin/fsck.f2fs}
MKFS=${MKFS_ORACLE:-/usr/sbin/mkfs.f2fs}
SLOAD=${SLOAD_F2FS:-$(dirname "$OURS")/../sload/sload.f2fs}
CACHE=${BENCH_CACHE:-/var/tmp/f2fs-bench}
NFILES=${BENCH_FILES:-650000}
SIZES=${BENCH_SIZES:-1 128}
RUNS=${BENCH_RUNS:-5}
BUILDER=${BENCH_BUILDER:-kernel}
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$CACHE"
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)"; exit 1; }

can_drop() { [ -w /proc/sys/vm/drop_caches ]; }
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

make_empty() {
	local img=$CACHE/empty-1t-s$1.img
	[ -f "$img" ] && return
	truncate -s 1T "$img.tmp" && "$MKFS" -f -q -s "$1" "$img.tmp" >/dev/null && mv "$img.tmp" "$img"
}

# The host tree sload.f2fs copies (every 455th file never created).
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

# fill_kernel IMG: the kernel creates the tree (and deletes 1 in 455).
fill_kernel() {
	local kb=$CACHE/kernel-build
	mkdir -p "$kb"
	top_builddir=$kb top_srcdir=$SRC sh "$SRC/tests/kernel/run-guest.sh" -n populate \
		-d "$kb/populate.run" -m 2G -t 7200 -a "$NFILES" "$SRC/bench/guest-populate.sh" \
		"files=$1"
}

make_files() {
	local s=$1 img
	img=$(files_img "$s")
	[ -f "$img" ] && return
	# an interrupted or failed build leaves no image behind
	truncate -s 64G "$img.tmp" && "$MKFS" -f -q -s "$s" "$img.tmp" >/dev/null || { rm -f "$img.tmp"; return 1; }
	if [ "$BUILDER" = sload ]; then
		make_src "$CACHE/src-$NFILES" &&
			"$SLOAD" -f "$CACHE/src-$NFILES" "$img.tmp" >/dev/null 2>&1
	else
		fill_kernel "$img.tmp"
	fi && mv "$img.tmp" "$img" || { rm -f "$img.tmp"; return 1; }
}

files_img() {
	if [ "$BUILDER" = sload ]; then echo "$CACHE/sload-$NFILES-s$1.img"
	else echo "$CACHE/files-$NFILES-s$1.img"; fi
}

# measure TOOL ARGS... -> "seconds maxrss_kib exit"
measure() {
	/usr/bin/time -v "$@" >/dev/null 2>"$CACHE/time.out" </dev/null
	local rc=$?
	awk -v rc=$rc '/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); s = t[n] + (n > 1 ? t[n-1] * 60 : 0) + (n > 2 ? t[n-2] * 3600 : 0) }
		/Maximum resident set size/ { r = $NF } END { printf "%.3f %d %d\n", s, r, rc }' "$CACHE/time.out"
}

best() {	# best wall time of RUNS runs (cold: drop before each)
	local mode=$1 img=$2 tool=$3 b= line
	shift 3
	for ((r = 0; r < RUNS; r++)); do
		[ "$mode" = cold ] && drop
		line=$(measure "$tool" "$@" "$img")
		if [ -z "$b" ] || awk -v a="${line%% *}" -v b="${b%% *}" 'BEGIN { exit !(a < b) }'; then b=$line; fi
	done
	echo "$b"
}

report() {
	local name=$1 img=$2 mode o t
	for mode in cold warm; do
		[ "$mode" = cold ] && ! can_drop && continue
		[ "$mode" = warm ] && "$OURS" "$img" >/dev/null 2>&1 && "$ORACLE" --dry-run "$img" >/dev/null 2>&1
		o=($(best "$mode" "$img" "$OURS"))
		t=($(best "$mode" "$img" "$ORACLE" --dry-run))
		[ "$mode" = cold ] && ORACLE_COLD=${t[0]}
		awk -v n="$name" -v m="$mode" -v os="${o[0]}" -v or="${o[1]}" -v oc="${o[2]}" \
			-v ts="${t[0]}" -v tr="${t[1]}" -v tc="${t[2]}" 'BEGIN {
			printf "%-22s %-5s ours %8.3fs %7.1f MiB (exit %d) | f2fs-tools %8.3fs %7.1f MiB (exit %d) | speed-up %6.1fx, RSS %+.1f MiB\n",
				n, m, os, or / 1024, oc, ts, tr / 1024, tc, (os > 0 ? ts / os : 0), (or - tr) / 1024 }'
	done
}

# io_floor NAME IMG: best of RUNS cold reads of the image's allocated
# blocks (bench/io-floor.c), and f2fs-tools' best cold time (of the report
# just made) over it: the
# best speed-up any checker that reads those blocks could show here.
FLOOR=$CACHE/io-floor
io_floor() {
	local name=$1 img=$2 b= line
	can_drop || return 0
	[ -x "$FLOOR" ] && [ "$FLOOR" -nt "$SRC/bench/io-floor.c" ] ||
		${CC:-cc} -O2 -o "$FLOOR" "$SRC/bench/io-floor.c" || return 0
	for ((r = 0; r < RUNS; r++)); do
		drop
		line=$("$FLOOR" "$img") || return 0
		if [ -z "$b" ] || awk -v a="${line%% *}" -v b="${b%% *}" 'BEGIN { exit !(a < b) }'; then b=$line; fi
	done
	awk -v n="$name" -v f="${b%% *}" -v m="${b##* }" -v ts="$ORACLE_COLD" 'BEGIN {
		printf "%-22s floor reading its %d MiB of allocated blocks cold: %.3fs; f2fs-tools %.3fs; best possible speed-up %.1fx\n",
			n, m, f, ts, (f > 0 ? ts / f : 0) }'
}

if [ "${BENCH_BUILD_ONLY:-0}" = 1 ]; then	# make the images, measure nothing
	make_empty 128
	make_empty 1
	for s in $SIZES; do make_files "$s"; done
	exit 0
fi
make_empty 128
make_empty 1
report empty-1t-s128 "$CACHE/empty-1t-s128.img"
report empty-1t-s1 "$CACHE/empty-1t-s1.img"
if [ "${BENCH_SKIP_FILES:-0}" != 1 ]; then
	for s in $SIZES; do
		make_files "$s" || { echo "files-$NFILES-s$s: could not build the image"; continue; }
		report "files-$NFILES-s$s" "$(files_img "$s")"
		io_floor "files-$NFILES-s$s" "$(files_img "$s")"
	done
fi
