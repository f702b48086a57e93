#!/bin/sh
# tests/fsck/kernel-repair.sh: the kernel (tests/kernel harness) mounts
# images our fsck.f2fs repaired, in one boot after one power-cut boot.
#
# 1. A power-cut image (tests/kernel/guest/power-cut-write.sh: fsync'd files
#    only in the roll-forward chain) gets a corruption that leaves the
#    checkpoint alone (rewriting it would change its CRC, which the chain's
#    footers carry): the root's i_links; `fsck.f2fs -y` must repair it while
#    re-homing the chain; our check and f2fs-tools' must then be clean, and
#    the kernel must replay every fsync'd file.
# 2. Repaired images of a representative subset of the corruption cases
#    (REPAIRED_CASES) are attached to the same boot: mount, list and read
#    every file, write and delete more, unmount, no F2FS error.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$INJECT" "$DUMP" "$FSCK_ORACLE" "$SLOAD_ORACLE" "$MKFS_ORACLE"
KT_SRC=$top_srcdir/tests/kernel
. "$KT_SRC/kcommon.sh"
KSRC=$KT_SRC

REPAIRED_CASES=${REPAIRED_CASES:-nat-leak,nat-shared,nat-owner,ino-links,ino-blocks,ino-extra3,ino-csum,dent-hash,dent-nodot,dent-ftype,dent-dirlevel,sit-missbit,sit-type,sec-count,sec-typemix,cp-nextblk,cp-samenode,cp-errorflag,node-dup,ssa-footer,sb-magic0}

kt_begin fsck-repair "our repair: roll-forward chain kept, repaired images mount"
img=$KWORK/pc.img
kt_mkfs "$img" 1G -l k-repair || kt_end
kt_guest cut -r "$KT_SRC/guest/power-cut-write.sh" pc="$img" || kt_abort "power-cut run failed"
"$INJECT" --node --nid 3 --mb i_links --val 9 "$img" >/dev/null 2>&1 || kt_abort inject
"$FSCK" "$img" > "$KWORK/before.txt" 2>&1
grep -q '^F2FS-8004 ' "$KWORK/before.txt" || kt_bad "no roll-forward chain before the repair"
"$FSCK" -y "$img" > "$KWORK/repair.txt" 2>&1
rc=$?
[ $rc = 1 ] || kt_bad "repair exit $rc: $(tail -3 "$KWORK/repair.txt")"
grep -q 'roll-forward chain re-homed' "$KWORK/repair.txt" || kt_bad "the chain was not re-homed"
"$FSCK" "$img" > "$KWORK/after.txt" 2>&1 || kt_bad "not clean after the repair: $(grep '^F2FS' "$KWORK/after.txt" | head -3)"
grep -q '^F2FS-8004 ' "$KWORK/after.txt" || kt_bad "no roll-forward chain after the repair"
kt_fsck "$img" repaired-unclean
[ "$KT_REF_CLEAN" = 1 ] || kt_bad "f2fs-tools finds the repaired unclean image corrupt"

# the repaired case images, made by repair.sh
mkdir -p "$KWORK/cases"
CASES=$REPAIRED_CASES REPAIRED_DIR=$KWORK/cases bash "$top_srcdir/tests/fsck/repair.sh" > "$KWORK/cases.log" 2>&1 ||
	kt_bad "repair.sh failed: $(grep FAIL "$KWORK/cases.log" | head -3)"
disks="pc=$img"
i=0
for f in "$KWORK"/cases/*.img; do
	[ -e "$f" ] || continue
	i=$((i + 1))
	disks="$disks c$i=$f"
	echo "c$i $(basename "$f" .img)" >> "$KWORK/disks.txt"
done
[ $i -gt 0 ] || kt_bad "no repaired case image"
touch "$KWORK/disks.txt"
# shellcheck disable=SC2086
if kt_guest mount "$top_srcdir/tests/fsck/guest/repaired.sh" $disks; then
	n=$(grep -c 'F2FS-fs.*recover_inode' "$KWORK/mount/console.log.txt")
	[ "$n" -gt 0 ] && kt_say "the kernel rolled $n inode(s) forward after our repair" ||
		kt_bad "no roll-forward recovery after the repair"
	kt_say "$i repaired case images mounted, read, written and unmounted"
else
	kt_bad "guest run failed (verdict $KT_GUEST_RC; disks: $(tr '\n' ' ' < "$KWORK/disks.txt"))"
fi
kt_end
