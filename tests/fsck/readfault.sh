#!/bin/bash
# tests/fsck/readfault.sh: fsck.f2fs on read errors (the device layer's
# read-fault hook, fsck --read-fault BLOCK[:short]): a superblock copy or
# a checkpoint pack that cannot be read is reported as that copy's
# problem and the volume is checked from the other; an I/O error where
# there is no second copy (both superblocks, a SIT or NAT block, an
# inode, the root's dentry block) stops the check with exit 8 and the
# error named (the JSON error code io_error), and -y then writes nothing.
# An EIO and a short read take the same paths.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
SLOAD=${SLOAD_F2FS:-$top_builddir/sload/sload.f2fs}
require "$DUMP" "$SLOAD"

IMG=$WORK/rf.img
truncate -s 256M "$IMG"
"$MKFS" -q "$IMG" >/dev/null 2>&1 || hard_error "mkfs.f2fs failed"
mkdir -p "$WORK/src/d"
for i in 1 2 3; do head -c $((i * 9000)) "$top_srcdir/README" >"$WORK/src/d/f$i"; done
"$SLOAD" -f "$WORK/src" "$IMG" >/dev/null 2>&1 || hard_error "sload.f2fs failed"
run_fsck "$IMG"
[ "$RC" = 0 ] || hard_error "the test image is not clean"

sb_field() {
	"$DUMP" "$IMG" 2>/dev/null | awk -v f="$1" '$1 == f { gsub(/[]:[]/, " "); print $NF; exit }'
}
CP=$(sb_field cp_blkaddr)
# the first block of both copies of the SIT and of the NAT
SIT=$(sb_field sit_blkaddr)
SIT2=$((SIT + $(sb_field segment_count_sit) / 2 * 512))
NAT=$(sb_field nat_blkaddr)
NAT2=$((NAT + $(sb_field segment_count_nat) / 2 * 512))
FILE_INO=$(ino_of "$IMG" /d/f2)
FILE_NODE=$(dump_field "$IMG" "$FILE_INO" node_blkaddr)
ROOT_DENT=$(data_blk "$IMG" 3 1)
for v in CP SIT SIT2 NAT NAT2 FILE_INO FILE_NODE ROOT_DENT; do
	[ -n "${!v}" ] || hard_error "cannot find $v in the test image"
done
sum0=$(img_sum "$IMG")

# other SPEC CODE: a copy that cannot be read is that copy's problem.
other() {
	run_fsck "$IMG" --read-fault "$1"
	if [ "$RC" = 4 ] && grep -q "^$2 .*cannot read" "$OUT"; then
		pass "read fault at $1: $2, checked from the other copy"
	else
		fail "read fault at $1: exit $RC, expected 4 with $2: $(head -2 "$OUT" "$ERR" | tr '\n' ' ')"
	fi
}

# stops SPEC: an I/O error with no other copy is an operational error.
stops() {
	run_fsck "$IMG" --read-fault "$1"
	if [ "$RC" = 8 ] && grep -q "Input/output error\|cannot be read" "$ERR"; then
		pass "read fault at $1: exit 8, $(head -1 "$ERR")"
	else
		fail "read fault at $1: exit $RC, expected 8 with the I/O error named: $(head -2 "$ERR")"
	fi
	run_fsck "$IMG" --read-fault "$1" --json
	grep -q '"code":"io_error"\|"code":"unreadable"\|"code":"not_f2fs"' "$OUT" ||
		fail "read fault at $1: --json gives no error code: $(head -c 200 "$OUT")"
	run_fsck "$IMG" --read-fault "$1" -y
	[ "$RC" = 8 ] || fail "read fault at $1: -y exit $RC, expected 8"
	[ "$(img_sum "$IMG")" = "$sum0" ] || fail "read fault at $1: -y wrote"
}

other 0 F2FS-1001
other 1 F2FS-1001
other "$CP:short" F2FS-1010
stops 0,1
stops "$SIT,$SIT2"
stops "$NAT:short,$NAT2:short"
stops "$FILE_NODE"
stops "$FILE_NODE:short"
stops "$ROOT_DENT"
# -y with a checkpoint pack unreadable: a pack whose first block cannot be
# read may hold a newer checkpoint than the one checked, and a repair would
# commit over it from the older state: refused, exit 8, nothing written.
# A pack whose last block fails but whose first names an older version is
# no such risk: the repair goes on.
INUSE=$("$DUMP" "$IMG" 2>/dev/null | sed -n 's/^checkpoint pack in use *\([12]\).*/\1/p')
[ -n "$INUSE" ] || hard_error "dump.f2fs names no checkpoint pack in use"
for spec in "$((CP + (INUSE - 1) * 512))" "$((CP + (2 - INUSE) * 512))"; do
	run_fsck "$IMG" --read-fault "$spec" -y
	if [ "$RC" = 8 ] && grep -q "may hold a newer checkpoint" "$ERR" &&
	   [ "$(img_sum "$IMG")" = "$sum0" ]; then
		pass "-y with checkpoint block $spec unreadable: refused, nothing written"
	else
		fail "-y with checkpoint block $spec unreadable: exit $RC: $(head -2 "$ERR" | tr '\n' ' ')"
	fi
done
cp --sparse=always "$IMG" "$WORK/older.img"
OLDER=$((CP + (2 - INUSE) * 512))
# cp_pack_total_block_count: byte 136 of the pack's first block
TOTAL=$(od -An -tu4 -j $((OLDER * 4096 + 136)) -N4 "$IMG" | tr -d ' ')
[ "${TOTAL:-0}" -ge 3 ] || hard_error "the older pack's block count is $TOTAL"
run_fsck "$WORK/older.img" --read-fault "$((OLDER + TOTAL - 1))" -y
if [ "$RC" != 8 ] && ! grep -q "may hold a newer checkpoint" "$ERR"; then
	pass "-y with the older pack's last block unreadable: the repair goes on (exit $RC)"
else
	fail "-y with the older pack's last block unreadable: exit $RC: $(head -2 "$ERR" | tr '\n' ' ')"
fi
run_fsck "$IMG" --read-fault 12x
[ "$RC" = 16 ] || fail "--read-fault 12x: exit $RC, expected 16"
run_fsck "$IMG"
[ "$RC" = 0 ] && [ "$(img_sum "$IMG")" = "$sum0" ] || fail "the image changed"
finish
