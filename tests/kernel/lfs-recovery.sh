#!/bin/sh
# Kernel interop: large sections after roll-forward recovery (the steps of
# fstests f2fs/025).  The kernel leaves sections whose first segment is
# empty and still typed for nodes while a later one holds the recovered
# data; its GC takes a section's type from the first segment in use (Linux
# 7.2), so both checkers must call the volume clean.  Ours says what it saw
# as information (F2FS-7008); whether this kernel's allocator made that
# state this time is printed, the verdict is what the test holds.
. "$(dirname "$0")/kcommon.sh"

kt_begin lfs-recovery "mode=lfs, -s 2, fsync, shutdown, roll-forward recovery, fsck"
img=$KWORK/lr.img
kt_mkfs "$img" 96M -s 2 -l k-lfsrec || kt_end
if kt_guest lfsrec "$KSRC/guest/lfs-recovery.sh" lr="$img"; then
	kt_fsck "$img" lfs-recovered
	if [ "$KT_REF_CLEAN" = 1 ]; then
		if grep -q 'F2FS-7008' "$KWORK/lfs-recovered.ourfsck.log" 2>/dev/null; then
			kt_say "an empty segment of the other class precedes the data in a section (F2FS-7008)"
		else
			kt_say "no section with an empty segment of the other class this time"
		fi
		kt_keep "$img" kernel-lfs-recovered clean \
			"-s 2, mode=lfs: emptied node sections rewritten, a file fsync'd, shut down and recovered"
	fi
else
	kt_bad "guest run failed (verdict $KT_GUEST_RC)"
fi
rm -f "$img"
kt_end
