#!/bin/sh
# Kernel interop, scenario 2: mount options.  One image goes through
# mode=lfs, checkpoint_merge, a read-only remount, remount cycles and a final
# read-only mount, with writes and read-backs in between; then fsck.
. "$(dirname "$0")/kcommon.sh"

kt_begin mount-options "mode=lfs, checkpoint_merge, ro remount, remount cycles"
img=$KWORK/opts.img
kt_mkfs "$img" 1G -l k-opts || kt_end
kt_guest options "$KSRC/guest/mount-options.sh" opts="$img" ||
	kt_bad "guest run failed (verdict $KT_GUEST_RC)"
kt_fsck "$img" opts
rm -f "$img"
kt_end
