#!/bin/bash
# tests/fsck/multidev.sh: multi-device volumes (mkfs.f2fs -c).  fsck and
# dump open devices 1.. from the superblock's device list and address the
# whole volume through them.
#
# A three-device volume (our mkfs) filled by our sload.f2fs until node and
# data blocks lie on device 1: our fsck reports it clean, as f2fs-tools
# does; dump extracts the tree byte for byte; an inode block
# zeroed on device 1 is found (exit 4; f2fs-tools finds it too), repaired
# (-y, exit 1), and both checkers find the result clean.  A missing device
# and a device smaller than its stretch of the volume are operational
# errors (exit 8) that name the device.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$MKFS" "$DUMP" "$SLOAD" "$FSCK_ORACLE"

# Device paths go into the superblock (63 characters at most).
SHORT=$(mktemp -d /tmp/f2md.XXXXXX) || hard_error "cannot create a directory in /tmp"
trap 'rm -rf "$SHORT"; lib_cleanup' EXIT
d0=$SHORT/d0.img d1=$SHORT/d1.img d2=$SHORT/d2.img
TREE=$WORK/tree

# sb_num FIELD: a numeric superblock field from our dump.
sb_num() {
	"$DUMP" "$d0" 2>/dev/null | awk -v f="$1" '$1 == f { gsub(/[]:[]/, " "); print $NF; exit }'
}

# 960 small files (their inodes fill more than one node segment, the
# second is past device 0) and 20 larger ones (their data spills over).
mkdir -p "$TREE"
for d in 0 1 2; do
	mkdir -p "$TREE/d$d/small"
	for i in $(seq 0 319); do echo "file $d $i" >"$TREE/d$d/small/s$i"; done
done
for i in $(seq 0 19); do
	head -c $(((i % 7 + 1) * 700000)) /dev/urandom >"$TREE/d$((i % 3))/big$i"
done

# Device 0 holds the metadata and a few main segments: our sload fills a
# log's segments in address order, so the inodes reach device 1 only when
# device 0 has little room.
truncate -s 24M "$d0"
for f in "$d1" "$d2"; do truncate -s 64M "$f"; done
"$MKFS" -f -q -c "$d1" -c "$d2" "$d0" >"$WORK/mkfs.log" 2>&1 || hard_error "mkfs -c failed: $(tail -3 "$WORK/mkfs.log")"
"$SLOAD" -f "$TREE" "$d0" >"$WORK/sload.log" 2>&1 || hard_error "sload.f2fs failed: $(tail -3 "$WORK/sload.log")"

own=$(($(sb_num segment0_blkaddr) + $(sb_num 'devs[0].total_segments') * 512))
[ "$own" -gt 512 ] || hard_error "cannot read the device table (device 0 holds $own blocks)"

# 1. clean, for both checkers
run_fsck "$d0"
if [ "$RC" = 0 ] && ! grep -q "^F2FS-[0-9]* \(error\|warning\)" "$OUT"; then
	pass "three-device volume reported clean"
else
	fail "three-device volume: exit $RC: $(head -3 "$OUT") $(head -3 "$ERR")"
fi
[ "$(oracle_verdict "$d0")" = clean ] && pass "f2fs-tools agrees: clean" ||
	fail "f2fs-tools finds the fresh volume corrupt: $(grep -m3 Fail "$WORK/oracle.out")"

# An inode whose block lies on device 1.
victim='' vblk=''
for ino in $("$FSCK" -t "$d0" 2>/dev/null | cut -f1); do
	blk=$(dump_field "$d0" "$ino" node_blkaddr)
	if [ -n "$blk" ] && [ "$blk" -ge "$own" ]; then
		victim=$ino vblk=$blk
		break
	fi
done
[ -n "$victim" ] && pass "inode $victim lives on device 1 (block $vblk, device 0 holds $own)" ||
	fail "no inode on device 1: the test volume does not span the devices"

# 2. dump reads across the devices
rm -rf "$WORK/out"
mkdir "$WORK/out"
if "$DUMP" -r -o "$WORK/out" "$d0" >"$WORK/dump.log" 2>&1 && diff -r "$TREE" "$WORK/out" >"$WORK/diff.log" 2>&1; then
	pass "dump -r extracts the whole tree byte for byte"
else
	fail "dump -r: $(tail -2 "$WORK/dump.log") $(head -3 "$WORK/diff.log")"
fi

# 3. a zeroed inode block on device 1: found, repaired, clean
if [ -n "$victim" ]; then
	for f in "$d0" "$d1" "$d2"; do cp "$f" "$f.clean"; done
	dd if=/dev/zero of="$d1" bs=4096 seek=$((vblk - own)) count=1 conv=notrunc 2>/dev/null
	run_fsck "$d0"
	if [ "$RC" = 4 ] && grep -q "ino=$victim\|ino $victim" "$OUT"; then
		pass "zeroed inode $victim on device 1 found (exit 4)"
	else
		fail "zeroed inode on device 1: exit $RC: $(grep '^F2FS' "$OUT" | head -3)"
	fi
	[ "$(oracle_verdict "$d0")" = corrupt ] && pass "f2fs-tools finds it too" ||
		fail "f2fs-tools does not see the zeroed inode"
	run_fsck "$d0" -y
	[ "$RC" = 1 ] && pass "repaired (exit 1)" || fail "repair: exit $RC: $(tail -3 "$ERR")"
	run_fsck "$d0"
	[ "$RC" = 0 ] && pass "clean after the repair" || fail "after the repair: exit $RC: $(grep '^F2FS' "$OUT" | head -3)"
	[ "$(oracle_verdict "$d0")" = clean ] && pass "f2fs-tools: clean after the repair" ||
		fail "f2fs-tools after our repair: $(grep -m3 Fail "$WORK/oracle.out")"
	for f in "$d0" "$d1" "$d2"; do mv "$f.clean" "$f"; done
fi

# 4. a missing device, a device smaller than its stretch: exit 8, named
mv "$d2" "$d2.away"
run_fsck "$d0"
[ "$RC" = 8 ] && grep -q "device 2.*d2.img" "$ERR" && pass "missing device 2: exit 8, named" ||
	fail "missing device 2: exit $RC: $(cat "$ERR")"
"$DUMP" -i 3 "$d0" >"$WORK/dumpi.out" 2>"$WORK/dumpi.err"
[ $? = 1 ] && grep -q "device 2" "$WORK/dumpi.err" && pass "dump -i with device 2 missing: refused, named" ||
	fail "dump -i with a missing device: $(cat "$WORK/dumpi.err")"
mv "$d2.away" "$d2"
truncate -s 32M "$d2"
run_fsck "$d0"
[ "$RC" = 8 ] && grep -q "device 2.*smaller" "$ERR" && pass "short device 2: exit 8" ||
	fail "short device 2: exit $RC: $(cat "$ERR")"
finish
