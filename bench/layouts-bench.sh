#!/bin/bash
# bench/layouts-bench.sh [BUILD_DIR]: our fsck.f2fs against f2fs-tools'
# `fsck.f2fs --dry-run` on a set of layouts (issue 16), each at -s 1 and
# -s 128, side by side: runs alternate between the two tools and the
# median of BENCH_RUNS (5) is printed, cold (sync and drop_caches before
# every run; needs root, else warm only) and warm, with the CPU time
# (user + system; less disturbed by a loaded machine), the peak RSS of
# both and, cold, the I/O floor (bench/io-floor.c: the image's allocated
# blocks read once, all announced first; timed as a process like the two
# checkers, with the time of its reads alone beside it; cold, the three
# take turns being first in a round, and ours/floor is the median of the
# rounds' ratios of process times); then the read requests of one warm
# run of ours (fsck -d 1: read calls, page-cache misses, sizes).
# Not part of make check.
#
# Images (formatted by f2fs-tools' mkfs.f2fs, 16 GiB, built once and kept
# in $BENCH_CACHE, default /var/tmp/f2fs-bench, outside the repository;
# N = $BENCH_LAYOUT_FILES, default 100000):
#   inline-N   N files of a few bytes (inline data) in directories of 1000
#   sparse-N   N empty files in directories of 1000, 1 in 50 holding 8 KiB
#   deep-N     N/200 trees of 100 nested directories, one small file at
#              every level (N names in all)
#   bigdir-N   one directory of N empty files (multi-level dentry blocks)
#   links-N    N/5 files in directories of 1000, each with 4 more hard
#              links in 4 other directories (N names)
#   aged-N     written by the Linux kernel in the QEMU guest of
#              tests/kernel (bench/guest-age.sh): N files created in a
#              scrambled order, then 3 rounds deleting a third, appending
#              to a tenth and creating the third again (BENCH_AGED=0 skips
#              it; tests/kernel/setup.sh must have been run)
# The others are loaded by our sload.f2fs from trees generated under the
# cache (src-LAYOUT-N).  BENCH_LAYOUTS picks layouts (default all),
# BENCH_SIZES the -s values (default "1 128"), BENCH_BUILD_ONLY=1 only
# builds.  FSCK_ORACLE / MKFS_ORACLE: f2fs-tools binaries.  FSCK_NEXT:
# a newer f2fs-tools' fsck.f2fs measured alongside (default
# $BENCH_CACHE/f2fs-tools-1.16/sbin/fsck.f2fs when built: see bench/README,
# "f2fs-tools 1.16"); warm only, the third column of the warm lines.
set -u
BUILD=$(cd "${1:-.}" && pwd)
OURS=$BUILD/fsck/fsck.f2fs
SLOAD=$BUILD/sload/sload.f2fs
ORACLE=${FSCK_ORACLE:-/usr/sbin/fsck.f2fs}
MKFS=${MKFS_ORACLE:-/usr/sbin/mkfs.f2fs}
CACHE=${BENCH_CACHE:-/var/tmp/f2fs-bench}
NEXT=${FSCK_NEXT:-$CACHE/f2fs-tools-1.16/sbin/fsck.f2fs}
[ -x "$NEXT" ] || NEXT=
N=${BENCH_LAYOUT_FILES:-100000}
SIZES=${BENCH_SIZES:-1 128}
RUNS=${BENCH_RUNS:-5}
LAYOUTS=${BENCH_LAYOUTS:-inline sparse deep bigdir links aged}
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$CACHE"
# this run's timings (the cache is shared with other runs and scripts)
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/layouts-bench.XXXXXX") || exit 1
trap 'rm -rf "$SCRATCH"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)"; exit 1; }

can_drop() { [ -w /proc/sys/vm/drop_caches ]; }
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# make_tree LAYOUT DIR: the source tree sload.f2fs copies.
make_tree() {
	python3 - "$1" "$2" "$N" <<'EOF'
import os, sys
layout, top, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(top)
def put(path, size=None, text=None):
    with open(path, 'w') as f:
        if text is not None:
            f.write(text)
        elif size:
            f.write('x' * size)
if layout in ('inline', 'sparse'):
    for k in range(n):
        d = '%s/d%d' % (top, k // 1000)
        if k % 1000 == 0:
            os.mkdir(d)
        if layout == 'inline':
            put('%s/f%d' % (d, k % 1000), text='%d/%d\n' % (k // 1000, k % 1000))
        else:
            put('%s/f%d' % (d, k % 1000), size=8192 if k % 50 == 0 else 0)
elif layout == 'deep':
    for t in range(max(n // 200, 1)):
        d = '%s/t%d' % (top, t)
        for level in range(100):
            os.mkdir(d)
            put(d + '/f', text='%d %d\n' % (t, level))
            d += '/d'
elif layout == 'bigdir':
    os.mkdir(top + '/big')
    for k in range(n):
        put('%s/big/file-%d' % (top, k), size=0)
elif layout == 'links':
    files = max(n // 5, 1)
    ndirs = (files + 999) // 1000
    for d in range(ndirs):
        os.mkdir('%s/d%d' % (top, d))
    for k in range(files):
        first = '%s/d%d/f%d' % (top, k // 1000, k % 1000)
        put(first, text='%d\n' % k)
        for l in range(1, 5):
            os.link(first, '%s/d%d/l%d-%d' % (top, (k // 1000 + l) % ndirs, l, k))
EOF
}

# build LAYOUT S: the image, unless cached; an interrupted build leaves
# nothing behind.
build() {
	local layout=$1 s=$2 img=$CACHE/$1-$N-s$2.img src=$CACHE/src-$1-$N
	[ -f "$img" ] && return 0
	truncate -s 16G "$img.tmp" && "$MKFS" -f -q -s "$s" "$img.tmp" >/dev/null || { rm -f "$img.tmp"; return 1; }
	if [ "$layout" = aged ]; then
		mkdir -p "$CACHE/kernel-build"
		top_builddir=$CACHE/kernel-build top_srcdir=$SRC sh "$SRC/tests/kernel/run-guest.sh" \
			-n age -d "$CACHE/kernel-build/age-s$s.run" -m 1G -t 7200 -a "$N 3" \
			"$SRC/bench/guest-age.sh" "files=$img.tmp" >/dev/null
	else
		{ [ -d "$src" ] || { make_tree "$layout" "$src.tmp" && mv "$src.tmp" "$src"; }; } &&
			"$SLOAD" -f "$src" "$img.tmp" >/dev/null
	fi && mv "$img.tmp" "$img" || { rm -f "$img.tmp"; return 1; }
}

# measure TOOL ARGS... -> "seconds maxrss_kib exit cpu_seconds".  The
# wall time is read from the clock around the run, to the microsecond
# (time(1)'s %e has 10 ms steps, a tenth of a warm check); peak RSS and
# CPU time come from time(1).
measure() {
	local rc t0 t1
	t0=$(date +%s%N)
	/usr/bin/time -f '%e %M %U %S' -o "$SCRATCH/time.out" "$@" >/dev/null 2>&1 </dev/null
	rc=$?
	t1=$(date +%s%N)
	tail -n 1 "$SCRATCH/time.out" |
		awk -v rc=$rc -v ns=$((t1 - t0)) '{ printf "%.6f %s %s %s\n", ns / 1e9, $2, rc, $3 + $4 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

FLOOR=$CACHE/io-floor
# floor_once IMG -> the floor's wall time, taken as ours is (measure():
# the clock around a process started by time(1), about 13 ms on this
# VM), so that neither side of ours/floor carries a cost the other does
# not; the time io-floor itself reports (its reads alone) is appended to
# $SCRATCH/fi.txt.
floor_once() {
	[ -x "$FLOOR" ] && [ "$FLOOR" -nt "$SRC/bench/io-floor.c" ] ||
		${CC:-cc} -O2 -o "$FLOOR" "$SRC/bench/io-floor.c" || return 1
	drop
	measure sh -c '"$1" "$2" >"$3"' floor "$FLOOR" "$1" "$SCRATCH/floor.out" | awk '{ print $1 }'
	awk '{ print $1 }' "$SCRATCH/floor.out" >>"$SCRATCH/fi.txt"
}

# report NAME IMG: per mode, RUNS alternating runs of both tools.
report() {
	local name=$1 img=$2 mode o t f r k rot fr
	for mode in cold warm; do
		[ "$mode" = cold ] && ! can_drop && continue
		: >"$SCRATCH/o.txt"; : >"$SCRATCH/t.txt"; : >"$SCRATCH/f.txt"; : >"$SCRATCH/n.txt"
		: >"$SCRATCH/fi.txt"
		[ "$mode" = warm ] && measure "$OURS" "$img" >/dev/null && measure "$ORACLE" --dry-run "$img" >/dev/null
		for ((r = 0; r < RUNS; r++)); do
			# cold, the order turns each round: a run's speed here
			# depends on its place (two modes, 0.21 and 0.40 s for one
			# floor, and the run after the floor fell in the slow one
			# more often), and no tool should always follow another
			rot=0
			[ "$mode" = cold ] && rot=$r
			for ((k = 0; k < 3; k++)); do
				case $(((k + rot) % 3)) in
				0) [ "$mode" = cold ] && floor_once "$img" >>"$SCRATCH/f.txt" ;;
				1) [ "$mode" = cold ] && drop
				   measure "$OURS" "$img" >>"$SCRATCH/o.txt" ;;
				2) [ "$mode" = cold ] && drop
				   measure "$ORACLE" --dry-run "$img" >>"$SCRATCH/t.txt" ;;
				esac
			done
			[ "$mode" = warm ] && [ -n "$NEXT" ] && measure "$NEXT" --dry-run "$img" >>"$SCRATCH/n.txt"
		done
		o=$(awk '{ print $1 }' "$SCRATCH/o.txt" | median)
		t=$(awk '{ print $1 }' "$SCRATCH/t.txt" | median)
		f=$(median <"$SCRATCH/f.txt")
		# ours/floor: the median of the rounds' own ratios
		fr=$(paste -d ' ' "$SCRATCH/o.txt" "$SCRATCH/f.txt" |
			awk 'NF > 4 && $NF > 0 { printf "%.4f\n", $1 / $NF }' | median)
		fi=$(median <"$SCRATCH/fi.txt")
		awk -v n="$name" -v m="$mode" -v o="$o" -v t="$t" -v f="${f:-0}" -v fr="${fr:-0}" -v fi="${fi:-0}" \
			-v ou="$(awk '{ print $4 }' "$SCRATCH/o.txt" | median)" \
			-v tu="$(awk '{ print $4 }' "$SCRATCH/t.txt" | median)" \
			-v or="$(awk '{ print $2 }' "$SCRATCH/o.txt" | median)" \
			-v tr="$(awk '{ print $2 }' "$SCRATCH/t.txt" | median)" \
			-v oc="$(awk '{ print $3 }' "$SCRATCH/o.txt" | sort -u | tr '\n' ,)" \
			-v tc="$(awk '{ print $3 }' "$SCRATCH/t.txt" | sort -u | tr '\n' ,)" 'BEGIN {
			printf "%-18s %-4s floor %6s%s | ours %7.3fs (CPU %.2fs) %5.1f MiB exit %s| f2fs-tools %7.3fs (CPU %.2fs) %5.1f MiB exit %s| %5.1fx (CPU %.1fx), ours/floor %s, RSS %+.1f MiB\n",
				n, m, (f > 0 ? sprintf("%.3fs", f) : "-"), (fi > 0 ? sprintf(" (reads %.3fs)", fi) : ""), o, ou, or / 1024, oc, t, tu, tr / 1024, tc,
				(o > 0 ? t / o : 0), (ou > 0 ? tu / ou : 0), (f > 0 && fr > 0 ? sprintf("%.2f", fr) : "-"), (or - tr) / 1024 }'
		if [ -s "$SCRATCH/n.txt" ]; then
			awk -v n="$name" -v o="$o" -v x="$(awk '{ print $1 }' "$SCRATCH/n.txt" | median)" \
				-v xu="$(awk '{ print $4 }' "$SCRATCH/n.txt" | median)" \
				-v xr="$(awk '{ print $2 }' "$SCRATCH/n.txt" | median)" 'BEGIN {
				printf "%-18s warm next f2fs-tools %7.3fs (CPU %.2fs) %5.1f MiB: %5.1fx ours\n",
					n, x, xu, xr / 1024, (o > 0 ? x / o : 0) }'
		fi
	done
	# the read requests of one warm run of ours (fsck -d 1)
	"$OURS" -d 1 "$img" 2>&1 >/dev/null </dev/null | sed -n "s/^I\/O/$name -d 1: I\/O/p"
}

for layout in $LAYOUTS; do
	[ "$layout" = aged ] && [ "${BENCH_AGED:-1}" = 0 ] && continue
	for s in $SIZES; do
		build "$layout" "$s" || { echo "$layout-$N-s$s: could not build the image"; continue; }
		[ "${BENCH_BUILD_ONLY:-0}" = 1 ] || report "$layout-$N-s$s" "$CACHE/$layout-$N-s$s.img"
	done
done
