#!/bin/sh
# Kernel interop: a multi-device volume made by our mkfs (-c) is mounted by
# the real F2FS driver, which opens every device through the paths in the
# superblock (the guest links the host paths to its disks), fills it with
# the ktool tree so that blocks land on the added devices, prunes and reads
# it back across a remount.  The kernel must not complain; f2fs-tools' fsck
# and ours, both opening the devices from the superblock's list, must find
# the volume clean.
. "$(dirname "$0")/kcommon.sh"

kt_begin multidev "multi-device volume (mkfs -c) -> kernel mount, tree across devices, fsck"

# Device paths go into the superblock (63 characters at most).
SHORT=$(mktemp -d /tmp/kmd.XXXXXX) || kt_abort "cannot create a directory in /tmp"
d0=$SHORT/d0.img d1=$SHORT/d1.img d2=$SHORT/d2.img
truncate -s 256M "$d1" && truncate -s 256M "$d2" || kt_abort "cannot create the images"
if kt_mkfs "$d0" 64M -l k-multidev -c "$d1" -c "$d2"; then
	kt_guest multidev -t 400 -a "$d0:md0 $d1:md1 $d2:md2 mount=md0" "$KSRC/guest/multidev.sh" \
		"md0=$d0" "md1=$d1" "md2=$d2" || kt_bad "guest run failed (verdict $KT_GUEST_RC)"
	kt_fsck "$d0" multidev
	# The test means something only if the kernel wrote past device 0.
	dump=$top_builddir/dump/dump.f2fs
	if [ -x "$dump" ]; then
		own=$("$dump" "$d0" 2>/dev/null | awk '
			$1 == "segment0_blkaddr" { gsub(/[]:[]/, " "); s0 = $NF }
			$1 == "devs[0].total_segments" { gsub(/[]:[]/, " "); n = $NF }
			$1 == "main_blkaddr" { gsub(/[]:[]/, " "); m = $NF }
			END { if (n) print int((s0 + n * 512 - m) / 512) }')
		beyond=$("$dump" --sections "$d0" 2>/dev/null |
			awk -v own="${own:-0}" '$2 ~ /^[0-9]+$/ && $2 >= own && $4 > 0 { n++ } END { print n + 0 }')
		if [ -n "$own" ] && [ "$beyond" -gt 0 ]; then
			kt_say "$beyond segments with valid blocks past device 0 (main segments from $own)"
		else
			kt_bad "the kernel wrote nothing past device 0 (own main segments: ${own:-?})"
		fi
	else
		kt_bad "$dump is not built"
	fi
fi
rm -rf "$SHORT"
kt_end
