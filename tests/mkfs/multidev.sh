#!/bin/sh
# tests/mkfs/multidev.sh: multi-device volumes (-c).  Three image files make
# one volume; f2fs-tools' fsck and dump (which open the devices listed in
# the superblock) must accept it, the device table must add up, and invalid
# device lists are refused before anything is written.
. "$(dirname "$0")/common.sh"
require_tools
make_workdir

# Device paths go into the superblock (63 characters at most), so the
# images live in a short directory whatever the build directory is.
SHORT=$(mktemp -d /tmp/f2md.XXXXXX) || hard_error "cannot create a directory in /tmp"
add_cleanup "rm -rf '$SHORT'"
d0=$SHORT/dev0.img d1=$SHORT/dev1.img d2=$SHORT/dev2.img

# 1. three devices, some features, large sections
for opts in "" "-s 4 -O extra_attr,inode_checksum,lost_found,quota"; do
	new_sparse "$d0" 1G
	new_sparse "$d1" 2G
	new_sparse "$d2" 700M
	# shellcheck disable=SC2086
	run_mkfs "md" -f -q $opts -c "$d1" -c "$d2" "$d0"
	if [ "$RC" != 0 ]; then
		fail "mkfs $opts -c d1 -c d2 d0: exit $(describe_rc "$RC")"
		show_file "$WORK/md.err"
		continue
	fi
	if check_image "$d0" "md"; then
		pass "three devices ($opts): f2fs-tools fsck and dump accept the volume"
	else
		fail "three devices ($opts): oracle rejects the volume"
	fi
	# The superblock's device table: paths and segment counts adding up.
	total=$(dump_field "$WORK/md.dump.out" segment_count)
	grep -c "Device\[[0-2]\]" "$WORK/md.fsck.out" >"$WORK/ndev"
	if [ "$(cat "$WORK/ndev")" = 3 ] && [ -n "$total" ]; then
		pass "fsck.f2fs sees 3 devices, segment_count $total"
	else
		fail "fsck.f2fs does not list 3 devices"
		show_file "$WORK/md.fsck.out" 20
	fi
done

# Our fsck and dump open the other devices from the superblock's list:
# the volume is clean for our fsck too, and dump reads the main area.
OUR_FSCK=$top_builddir/fsck/fsck.f2fs OUR_DUMP=$top_builddir/dump/dump.f2fs
[ -x "$OUR_FSCK" ] && [ -x "$OUR_DUMP" ] || hard_error "our fsck.f2fs/dump.f2fs are not built"
run_cmd "ourfsck" "$OUR_FSCK" "$d0"
if [ "$RC" = 0 ]; then
	pass "our fsck checks the multi-device volume: clean"
else
	fail "our fsck on a multi-device volume: exit $(describe_rc "$RC")"
	show_file "$WORK/ourfsck.err"
fi
run_cmd "ourdump" "$OUR_DUMP" "$d0"
run_cmd "ourdumpi" "$OUR_DUMP" -i 3 "$d0"
if grep -q "devs\[2\].path" "$WORK/ourdump.out" && [ "$RC" = 0 ] && grep -q "^ino " "$WORK/ourdumpi.out"; then
	pass "our dump shows the device table and the root inode"
else
	fail "our dump on a multi-device volume"
fi

# 2. comma-separated list is the same as repeated -c
new_sparse "$d0" 1G; new_sparse "$d1" 1G; new_sparse "$d2" 1G
run_mkfs "comma" -f -q -c "$d1,$d2" "$d0"
if [ "$RC" = 0 ] && check_image "$d0" "comma"; then
	pass "-c d1,d2 works"
else
	fail "-c d1,d2: exit $(describe_rc "$RC")"
	show_file "$WORK/comma.err"
fi

# 3. refusals leave every device unchanged
refuse() {	# refuse TAG mkfs-args...
	rf_tag=$1
	shift
	before=$(cat "$d0" "$d1" "$d2" | cksum)
	run_mkfs "$rf_tag" "$@"
	after=$(cat "$d0" "$d1" "$d2" | cksum)
	lines=$(wc -l <"$WORK/$rf_tag.err")
	if is_refusal_rc "$RC" && [ "$before" = "$after" ] && [ "$lines" = 1 ]; then
		pass "refused $rf_tag: $(cat "$WORK/$rf_tag.err")"
	else
		fail "$rf_tag: exit $(describe_rc "$RC"), $lines stderr lines, devices $( [ "$before" = "$after" ] && echo unchanged || echo CHANGED)"
		show_file "$WORK/$rf_tag.err"
	fi
}
new_sparse "$d0" 256M; new_sparse "$d1" 256M
printf 'pattern' | dd of="$d1" bs=1 seek=4096 conv=notrunc 2>/dev/null
new_sparse "$d2" 1M
refuse "same-device-twice" -f -c "$d1" -c "$d1" "$d0"
refuse "first-device-again" -f -c "$d0" "$d0"
refuse "device-below-one-zone" -f -c "$d1" -c "$d2" "$d0"
refuse "missing-device" -f -c "$SHORT/nonexistent.img" "$d0"
long=$SHORT/$(printf '%070d' 0).img
refuse "path-over-63-characters" -f -c "$long" "$d0"
refuse "device-alias" -f -c "$d1@alias" "$d0"
run_mkfs "eight" -f -c "$d1" -c "$d1" -c "$d1" -c "$d1" -c "$d1" -c "$d1" -c "$d1" -c "$d1" "$d0"
if is_refusal_rc "$RC" && grep -q "too many devices" "$WORK/eight.err"; then
	pass "refused 8 added devices: $(cat "$WORK/eight.err")"
else
	fail "8 added devices: exit $(describe_rc "$RC")"
fi

# 4. an existing filesystem on an added device needs -f
new_sparse "$d0" 256M; new_sparse "$d1" 256M
run_mkfs "prep" -f -q "$d1"
before=$(cksum <"$d1")
run_mkfs "sig" -c "$d1" "$d0"
if is_refusal_rc "$RC" && [ "$(cksum <"$d1")" = "$before" ] && grep -q "use -f" "$WORK/sig.err"; then
	pass "an F2FS on an added device is refused without -f"
else
	fail "existing F2FS on an added device: exit $(describe_rc "$RC")"
	show_file "$WORK/sig.err"
fi
finish
