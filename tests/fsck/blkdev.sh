#!/bin/bash
# tests/fsck/blkdev.sh: fsck.f2fs on a block device shorter than the
# volume: a loop device over a 64 MiB volume, limited to 48 MiB
# (losetup --sizelimit).  The kernel mounts it and fails every read and
# allocation past the device's end; a block device cannot grow, so the
# check reports F2FS-1044 (unfixable: an image file would be grown, 1043)
# and -y exits 4 without writing.  The outputs are goldens
# (tests/fsck/expect/blkdev-short.1 and .2, the device's path replaced by
# LOOPDEV; REGENERATE=1 rewrites them).  Needs root and loop devices, as
# tests/mkfs/blockdev.sh does.  Takes a few seconds.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require_commands losetup

IMG=$WORK/bd.img
truncate -s 64M "$IMG" || hard_error truncate
"$MKFS" -f -q -r -T 1764547200 -U 6b3c2a9e-8f1d-4c2b-9a7e-1f0e2d3c4b5a "$IMG" >"$WORK/mkfs.log" 2>&1 ||
	hard_error "mkfs.f2fs: $(tail -2 "$WORK/mkfs.log")"
LOOP=$(losetup -f --show --sizelimit $((48 << 20)) "$IMG" 2>"$WORK/losetup.err") ||
	hard_error "losetup -f --show failed (no loop device support? not root?): $(cat "$WORK/losetup.err")"
[ -b "$LOOP" ] || hard_error "losetup returned '$LOOP', not a block device"
trap 'losetup -d "$LOOP" 2>/dev/null; lib_cleanup' EXIT

sum0=$(cksum <"$IMG")
run_fsck "$LOOP" -y
[ "$RC" = 4 ] && grep -q '^F2FS-1044 ' "$OUT" && pass "a short block device: F2FS-1044, -y exit 4" ||
	fail "a short block device: -y exit $RC, expected 4 with F2FS-1044: $(head -3 "$OUT") $(head -2 "$ERR")"
check_golden blkdev-short 1 "REGENERATE=1 tests/fsck/blkdev.sh" "$LOOP" LOOPDEV
[ "$(cksum <"$IMG")" = "$sum0" ] && pass "a short block device: -y writes nothing" ||
	fail "a short block device: -y wrote"
run_fsck "$LOOP"
[ "$RC" = 4 ] || fail "a short block device: the check after -y exits $RC, expected 4"
check_golden blkdev-short 2 "REGENERATE=1 tests/fsck/blkdev.sh" "$LOOP" LOOPDEV
finish
