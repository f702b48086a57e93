#!/bin/bash
# bench/quadratic-bench.sh [BUILD_DIR]: the check's time on the two shapes
# issue 14 found quadratic, each at two sizes, so the ratio of the times
# can be set beside the ratio of the sizes (linear: about the same).
# Not part of make check; no assertion on time.
#
# Images (our mkfs.f2fs and sload.f2fs; cached in $BENCH_CACHE, default
# /var/tmp/f2fs-bench, outside the repository):
#   bigdir-B  one directory whose entries fill about B dentry blocks:
#             255-byte names, every one a hard link to one of 8 files
#             (about 5.3 names per block), on a 4 GiB image
#   fixes-F   bigdir-B's image (B = the largest of BENCH_QBLOCKS) with one
#             entry's hash code wrong in each of F of its dentry blocks, so
#             that the check records F dentry-block fixes
# BENCH_QBLOCKS (default "25000 50000"), BENCH_QFIXES (default
# "5000 10000"), BENCH_RUNS (default 3: the median is printed).
# The time is of `fsck.f2fs -n` (warm page cache; median wall and CPU
# time); the fixes images are also timed with --dry-run, which plans the
# repair.  Needs /usr/bin/time.
set -u
BUILD=$(cd "${1:-.}" && pwd)
FSCK=$BUILD/fsck/fsck.f2fs
CACHE=${BENCH_CACHE:-/var/tmp/f2fs-bench}
BLOCKS=${BENCH_QBLOCKS:-25000 50000}
FIXES=${BENCH_QFIXES:-5000 10000}
RUNS=${BENCH_RUNS:-3}
mkdir -p "$CACHE"
for t in "$FSCK" "$BUILD/mkfs/mkfs.f2fs" "$BUILD/sload/sload.f2fs" "$BUILD/dump/dump.f2fs"; do
	[ -x "$t" ] || { echo "missing $t (build first)"; exit 1; }
done

# The source tree: d/t0..t7 and about 5.3 * B hard links to them.
make_bigdir_src() {
	python3 - "$1" "$2" <<'EOF'
import os, sys
top, names = sys.argv[1], int(sys.argv[2])
os.makedirs(top + '/d')
for t in range(8):
    with open('%s/d/t%d' % (top, t), 'w') as f:
        f.write('x')
for i in range(names):
    os.link('%s/d/t%d' % (top, i % 8), '%s/d/%s' % (top, ('%07d' % i).ljust(255, 'n')))
EOF
}

make_bigdir() {
	local b=$1 img=$CACHE/bigdir-$1.img src
	[ -f "$img" ] && return
	src=$(mktemp -d "$CACHE/bigdir-src.XXXXXX")
	make_bigdir_src "$src/t" $((b * 53 / 10)) &&
		truncate -s 4G "$img.tmp" && "$BUILD/mkfs/mkfs.f2fs" -f -q "$img.tmp" >/dev/null &&
		"$BUILD/sload/sload.f2fs" -f "$src/t" "$img.tmp" >/dev/null && mv "$img.tmp" "$img"
	rm -rf "$src" "$img.tmp"
}

# The block addresses of directory /d (inode 4: the first sload makes).
dir_blocks() {
	"$BUILD/dump/dump.f2fs" -i 4 -M "$1" | python3 -c '
import sys
on = False
for line in sys.stdin:
    w = line.split()
    if line.startswith("--"):
        on = line.startswith("-- data blocks")
    elif on and len(w) == 3 and w[0].isdigit():
        for i in range(int(w[2])):
            print(int(w[1], 16) + i)
'
}

# fixes-F: in each of the first F dentry blocks of /d, the first entry
# with a 255-byte name gets a wrong hash_code (its lowest bit flipped).
make_fixes() {
	local f=$1 big=$2 img=$CACHE/fixes-$1.img
	[ -f "$img" ] && return
	cp --sparse=always "$CACHE/bigdir-$big.img" "$img.tmp" || return
	dir_blocks "$img.tmp" 2>/dev/null | head -n "$f" | python3 -c '
import sys
img = sys.argv[1]
with open(img, "r+b") as dev:
    for line in sys.stdin:
        addr = int(line)
        dev.seek(addr * 4096)
        blk = bytearray(dev.read(4096))
        for slot in range(214):
            if not blk[slot // 8] >> (slot % 8) & 1:
                continue
            de = 27 + 3 + slot * 11
            if int.from_bytes(blk[de + 8:de + 10], "little") != 255:
                continue
            blk[de] ^= 1
            break
        dev.seek(addr * 4096)
        dev.write(blk)
' "$img.tmp" && mv "$img.tmp" "$img"
}

# Median of RUNS runs of "$@" (one warm-up run first): wall, then CPU
# (user + system) time, which a loaded machine disturbs less.
median_time() {
	local w=() c=() out
	"$@" >/dev/null 2>&1
	for ((i = 0; i < RUNS; i++)); do
		out=$(/usr/bin/time -f '%e %U %S' "$@" 2>&1 >/dev/null | tail -n 1)
		w+=("${out%% *}")
		c+=("$(echo "$out" | awk '{ print $2 + $3 }')")
	done
	echo "$(printf '%s\n' "${w[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")" \
		"$(printf '%s\n' "${c[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")"
}

show() {
	local name=$1 img=$2 t
	shift 2
	t=$(median_time "$FSCK" "$@" "$img")
	printf '%-14s %-10s %7.2f s wall %7.2f s CPU   %s\n' "$name" "$*" ${t} \
		"$("$FSCK" "$@" "$img" 2>/dev/null | tail -n 1 | sed 's/.*; //')"
}

big=0
for b in $BLOCKS; do
	make_bigdir "$b"
	[ "$b" -gt "$big" ] && big=$b
done
for f in $FIXES; do
	make_fixes "$f" "$big"
done
echo "dentry blocks of /d: $(for b in $BLOCKS; do echo -n "bigdir-$b $(dir_blocks "$CACHE/bigdir-$b.img" | wc -l)  "; done)"
for b in $BLOCKS; do
	show "bigdir-$b" "$CACHE/bigdir-$b.img" -n
done
for f in $FIXES; do
	show "fixes-$f" "$CACHE/fixes-$f.img" -n
	show "fixes-$f" "$CACHE/fixes-$f.img" --dry-run
done
