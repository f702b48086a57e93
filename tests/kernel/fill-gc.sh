#!/bin/sh
# Kernel interop, scenario 4: fill a -s 128 file system (256 MiB sections) to
# ENOSPC, delete half, fill again so the kernel's GC has to move large
# sections, read back, unmount, fsck.  Filling is what costs time under TCG
# (about 75 MB/s), so the image is the smallest the mkfs accepts for -s 128,
# in 512 MiB steps (f2fs-tools 1.15: 8 GiB with about 460 MiB for data).
# The same runs on the smallest images mkfs accepts for -s 1, -s 2 and -s 7,
# which are smaller than f2fs-tools' (their reserve is the compact plan).
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

# min_image NAME SEGS_PER_SEC: the smallest image (in MiB) mkfs accepts.
min_image() {
	mi_img=$KWORK/$1.img
	for mib in $(seq 16 2 1024); do
		rm -f "$mi_img"
		truncate -s ${mib}M "$mi_img" || kt_abort "cannot create $mi_img"
		if "$MKFS" -f -q -s "$2" -l "k-$1" "$mi_img" > "$KWORK/$1.mkfs.log" 2>&1; then
			kt_say "smallest image mkfs -s $2 accepts: $mib MiB"
			return 0
		fi
	done
	kt_abort "mkfs -s $2 refused every size up to 1 GiB"
}
min_image min1 1
min_image min2 2
min_image min7 7
kt_guest fill -t 600 -a "${KTEST_FILL_KIB:-4096} fill min1:256 min2:256 min7:256" \
	"$KSRC/guest/fill-gc.sh" \
	fill="$img" min1="$KWORK/min1.img" min2="$KWORK/min2.img" min7="$KWORK/min7.img" ||
	kt_bad "guest run failed (verdict $KT_GUEST_RC)"
for small in min1 min2 min7; do
	kt_fsck "$KWORK/$small.img" "$small"
	rm -f "$KWORK/$small.img"
done
kt_fsck "$img" fill
if [ "$KT_REF_CLEAN" = 1 ] && [ "$KT_GUEST_RC" -eq 0 ]; then
	kt_keep "$img" kernel-fill-gc clean \
		"mkfs -s 128 on ${size}M; filled to ENOSPC, half deleted, refilled through GC, clean unmount"
fi
rm -f "$img"
kt_end
