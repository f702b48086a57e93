#!/bin/sh
# Kernel interop, scenario 4: fill a -s 128 file system (256 MiB sections) to
# ENOSPC, delete half, fill again so the kernel's GC has to move large
# sections, read back, unmount, fsck.  Filling is what costs time under TCG
# (about 75 MB/s), so the image is the smallest the mkfs accepts for -s 128,
# in 512 MiB steps (f2fs-tools 1.15: 8 GiB with about 460 MiB for data).
. "$(dirname "$0")/kcommon.sh"

kt_begin fill-gc "-s 128: fill to ENOSPC, delete half, refill through GC, fsck"
img=$KWORK/fill.img
size=0
for mib in $(seq 2048 512 12288); do
	rm -f "$img"
	truncate -s ${mib}M "$img" || kt_abort "cannot create $img"
	if "$MKFS" -f -q -s 128 -l k-fill "$img" > "$KWORK/mkfs.log" 2>&1; then
		size=$mib
		break
	fi
done
[ $size -gt 0 ] || kt_abort "mkfs -s 128 refused every size up to 12 GiB: $(tail -n 1 "$KWORK/mkfs.log")"
kt_say "smallest image mkfs -s 128 accepts: $size MiB"
kt_guest fill -t 500 -a "${KTEST_FILL_KIB:-4096}" "$KSRC/guest/fill-gc.sh" fill="$img" ||
	kt_bad "guest run failed (verdict $KT_GUEST_RC)"
kt_fsck "$img" fill
if [ "$KT_REF_CLEAN" = 1 ] && [ "$KT_GUEST_RC" -eq 0 ]; then
	kt_keep "$img" kernel-fill-gc clean \
		"mkfs -s 128 on ${size}M; filled to ENOSPC, half deleted, refilled through GC, clean unmount"
fi
rm -f "$img"
kt_end
