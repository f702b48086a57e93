#!/bin/sh
# tests/mkfs/blockdev.sh: mkfs on a real block device (a loop device).
#
# On a 5 GiB sparse file behind a loop device: `mkfs.f2fs -f -s 128` works
# and the f2fs-tools fsck finds the device clean; mkfs refuses (exit 1..125,
# one stderr line, device content unchanged) while the device is mounted
# (ext4: the host kernel may lack F2FS) even with -f, and while it holds an
# unmounted ext4 without -f; with -f it then overwrites the ext4.  The
# backing file of the mounted loop device is refused as well.  With an
# emulated zone model next to the backing file, mkfs -m formats the loop
# device as a zoned one.
# Needs root and loop support: without them the test fails (never skips).

. "$(dirname "$0")/common.sh"

require_tools
for t in losetup mkfs.ext4 mount umount blkid dd; do
	command -v $t >/dev/null || hard_error "$t not found"
done
make_workdir

BACKING=$WORK/backing.img
MNT=$WORK/mnt
new_sparse "$BACKING" 5G
mkdir -p "$MNT"
LOOP=$(losetup -f --show "$BACKING" 2>"$WORK/losetup.err") ||
	hard_error "losetup -f --show failed (no loop device support? not root?): $(cat "$WORK/losetup.err")"
[ -b "$LOOP" ] || hard_error "losetup returned '$LOOP', not a block device"
add_cleanup "losetup -d '$LOOP' 2>/dev/null"
add_cleanup "mountpoint -q '$MNT' && umount '$MNT'"
echo "NOTE: using $LOOP"

# device_fingerprint: checksums of the first 64 MiB (superblocks and the
# whole F2FS/ext4 metadata start) and of the last MiB, read past the cache.
device_fingerprint() {
	a=$(dd if="$LOOP" bs=1M count=64 iflag=direct status=none | cksum)
	b=$(dd if="$LOOP" bs=1M skip=5119 count=1 iflag=direct status=none | cksum)
	echo "$a / $b"
}

# expect_refusal DESC args...: mkfs must refuse and leave the device as it was.
expect_refusal() {
	er_desc=$1
	shift
	sync
	er_fp0=$(device_fingerprint)
	run_mkfs refuse "$@" "$LOOP"
	sync
	er_fp1=$(device_fingerprint)
	er_lines=$(wc -l <"$WORK/refuse.err")
	er_why=
	is_refusal_rc "$RC" || er_why="exit $(describe_rc "$RC") (want 1..125)"
	[ "$er_lines" = 1 ] || er_why="${er_why:+$er_why; }$er_lines lines on stderr (want 1)"
	[ "$er_fp0" = "$er_fp1" ] || er_why="${er_why:+$er_why; }device content changed"
	if [ -z "$er_why" ]; then
		pass "$er_desc: mkfs.f2fs $* LOOP: exit $RC: $(cat "$WORK/refuse.err")"
	else
		fail "$er_desc: mkfs.f2fs $* $LOOP: $er_why"
		show_file "$WORK/refuse.err" 8
		show_file "$WORK/refuse.out" 8
	fi
}

# expect_f2fs DESC args...: mkfs must format the device; the oracles agree.
expect_f2fs() {
	ef_desc=$1
	shift
	run_mkfs format "$@" "$LOOP"
	if [ "$RC" != 0 ]; then
		fail "$ef_desc: mkfs.f2fs $* $LOOP exited $(describe_rc "$RC")"
		show_file "$WORK/format.err" 10
		show_file "$WORK/format.out" 10
		return 1
	fi
	ef_type=$(blkid -p -o value -s TYPE "$LOOP" 2>/dev/null)
	if ef_why=$(check_image "$LOOP" "$ef_desc"); then
		if [ "$ef_type" = f2fs ]; then
			pass "$ef_desc: mkfs.f2fs $* LOOP: fsck clean, blkid sees f2fs"
		else
			fail "$ef_desc: mkfs.f2fs $* $LOOP: blkid -p sees '$ef_type', not f2fs"
		fi
	else
		fail "$ef_desc: mkfs.f2fs $* $LOOP: the oracles reject the device"
		echo "$ef_why"
	fi
}

make_ext4() {
	# No lazy init: a mounted ext4 must not write behind our back.
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" >"$WORK/mkext4.log" 2>&1 ||
		hard_error "mkfs.ext4 $LOOP failed: $(cat "$WORK/mkext4.log")"
}

expect_f2fs "blank device" -f -s 128
expect_refusal "existing F2FS without -f" -s 128

make_ext4
mount -t ext4 "$LOOP" "$MNT" 2>"$WORK/mount.err" || hard_error "mount -t ext4 $LOOP failed: $(cat "$WORK/mount.err")"
echo "data" >"$MNT/file"
sync
expect_refusal "mounted ext4, with -f" -f -s 128
expect_refusal "mounted ext4, without -f" -s 128
expect_refusal "mounted ext4, with -f -s 1" -f

# The backing file of a mounted loop device is the mounted filesystem too.
sync
bf_fp0=$(device_fingerprint)
run_mkfs backing -f "$BACKING"
bf_fp1=$(device_fingerprint)
bf_lines=$(wc -l <"$WORK/backing.err")
if is_refusal_rc "$RC" && [ "$bf_lines" = 1 ] && [ "$bf_fp0" = "$bf_fp1" ]; then
	pass "backing file of the mounted loop device, with -f: exit $RC: $(cat "$WORK/backing.err")"
else
	fail "backing file of the mounted loop device, with -f: mkfs.f2fs -f $BACKING: exit $(describe_rc "$RC"), $bf_lines stderr lines, content $([ "$bf_fp0" = "$bf_fp1" ] && echo unchanged || echo changed)"
	show_file "$WORK/backing.err" 8
	show_file "$WORK/backing.out" 8
fi
umount "$MNT" || hard_error "umount $MNT failed"

# If a format above went through, the device holds whatever mkfs wrote:
# put a clean ext4 back for the next checks.
make_ext4
expect_refusal "unmounted ext4 without -f" -s 128
expect_f2fs "unmounted ext4 with -f" -f -s 128

# A loop device stands for a zoned device when its backing file has an
# emulated zone model (BACKING.zones): mkfs -m formats it and keeps the
# model's write pointers, as dump --zones on the loop device shows.
printf 'zone_size 96M\nzone_capacity 80M\nconventional 2\n' >"$BACKING.zones"
add_cleanup "rm -f '$BACKING.zones'"
run_mkfs zoned -f -q -m "$LOOP"
run_cmd zoneddump "$top_builddir/dump/dump.f2fs" --zones "$LOOP"
if [ "$RC" = 0 ] && grep -q "host-managed (emulated), 53 zones" "$WORK/zoneddump.out" &&
   grep -q "^zone [0-9]* 1 open" "$BACKING.zones"; then
	pass "loop device over an image with IMAGE.zones: mkfs -m, write pointers kept"
else
	fail "loop device with a zone model: mkfs -m or dump --zones"
	show_file "$WORK/zoned.err" 8
	show_file "$WORK/zoneddump.out" 8
fi
rm -f "$BACKING.zones"

finish
