#!/bin/sh
# tests/inject/cp.sh: --cp: both checkpoint blocks of a pack, the crc,
# --cp-blk, pack selection, version bitmaps, orphan blocks (including
# adding one to compacted and normal packs), the fsync chain, dry run.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/inject/common.sh"

mkimg plain
popimg pop -O extra_attr,inode_checksum,sb_checksum

cpa=$(dump_field "$WORK/plain" cp_blkaddr)
total=$(dump_field "$WORK/plain" cp_pack_total_block_count)
sitbm=$(dump_field "$WORK/plain" sit_ver_bitmap_bytesize)
[ -n "$cpa" ] && [ -n "$total" ] && [ -n "$sitbm" ] || hard_error "dump.f2fs -d 1 gave no geometry"
B=$((cpa * 4096))
L=$(((cpa + total - 1) * 4096))

# in_set OFFSETS ALLOWED...: every offset is one of the allowed ones.
in_set() {
	local o a ok
	for o in $1; do
		ok=0
		shift 0
		for a in $2; do [ "$o" = "$a" ] && ok=1; done
		[ $ok = 1 ] || return 1
	done
	return 0
}
crc_bytes() { echo "$(($1 + 4092)) $(($1 + 4093)) $(($1 + 4094)) $(($1 + 4095))"; }

fresh plain t
inj "$WORK/t" --cp 1 --mb next_free_nid --val 1
expect_ok "cp 1 next_free_nid"
got=$(changed "$WORK/plain" "$WORK/t")
case " $got " in
*" $((B + 152)) "*" $((L + 152)) "*) pass "both checkpoint blocks changed at byte 152" ;;
*) fail "next_free_nid bytes: $got" ;;
esac
in_set "$got" "$((B + 152)) $(crc_bytes $B) $((L + 152)) $(crc_bytes $L)" &&
	pass "nothing but the member and the crc changed" || fail "stray bytes: $got"
expect_eq "dump.f2fs sees next_free_nid 1" "$(dump_field "$WORK/t" next_free_nid)" 1
fsck_silent "crc recomputed" "$WORK/t" "Invalid CP CRC"

fresh plain t
inj "$WORK/t" --cp 0 --mb cur_node_segno --idx 1 --val 7
expect_out "--cp 0 is the pack in use (pack 1 after mkfs)" "^cp 1 "
expect_eq "dump.f2fs sees cur_node_segno[1]" "$(dump_field "$WORK/t" 'cur_node_segno[1]')" 7

fresh plain t
inj "$WORK/t" --cp 1 --cp-blk first --mb valid_inode_count --val 9
got=$(changed "$WORK/plain" "$WORK/t")
in_set "$got" "$((B + 148)) $(crc_bytes $B)" && pass "--cp-blk first" || fail "--cp-blk first: $got"
fresh plain t
inj "$WORK/t" --cp 1 --cp-blk last --mb valid_inode_count --val 9
got=$(changed "$WORK/plain" "$WORK/t")
in_set "$got" "$((L + 148)) $(crc_bytes $L)" && [ -n "$got" ] && pass "--cp-blk last" ||
	fail "--cp-blk last: $got"

fresh plain t
inj "$WORK/t" --cp 1 --mb crc --val 1
fsck_says "crc member is not recomputed" "$WORK/t" "Invalid CP CRC: offset:4092, crc:0x1"
fresh plain t
inj "$WORK/t" --cp 1 --mb ckpt_flags --val 0x184 --no-fix-checksum
fsck_says "--no-fix-checksum" "$WORK/t" "Invalid CP CRC"
fresh plain t
inj "$WORK/t" --cp 1 --mb checksum_offset --val 200
got=$(changed "$WORK/plain" "$WORK/t")
expect_eq "checksum_offset change leaves the crc" "$got" \
	"$((B + 164)) $((B + 165)) $((L + 164)) $((L + 165))"
fsck_says "fsck finds the pack's crc wrong" "$WORK/t" "Invalid CP CRC: offset:200"
fresh plain t
inj "$WORK/t" --cp 1 --mb raw --idx 152 --val 9
fsck_silent "raw byte with crc fixed" "$WORK/t" "Invalid CP CRC"
expect_eq "raw byte read back" "$(dump_field "$WORK/t" next_free_nid)" 9

# Pack 1 broken: --cp 0 is pack 2, --cp 1 still reaches pack 1.
fresh plain t
inj "$WORK/t" --cp 1 --mb crc --val 1
inj "$WORK/t" --cp 0 --mb next_free_nid --val 5
expect_out "--cp 0 follows the valid pack" "^cp 2 "
inj "$WORK/t" --cp 1 --mb elapsed_time --val 5
expect_ok "--cp 1 on a pack that does not validate"

fresh plain t
inj "$WORK/t" --cp 1 --mb nat_version_bitmap --idx 0 --val 0x80
expect_out "nat version bitmap" "nat_version_bitmap\[0\] 0x0 -> 0x80"
got=$(changed "$WORK/plain" "$WORK/t")
case " $got " in
*" $((B + 192 + sitbm)) "*) pass "NAT bitmap follows the SIT bitmap at 192" ;;
*) fail "nat_version_bitmap bytes: $got" ;;
esac
fsck_says "fsck reads NAT copy 2 for block 0" "$WORK/t" "block_addr\[0x0\] is invalid"

# Orphans: a compacted pack (mkfs) and a normal one (sload).
fresh plain t
inj "$WORK/t" --cp 0 --mb orphan_add --val 3
expect_ok "orphan_add on a compacted pack"
expect_eq "cp_pack_start_sum grew" "$(dump_field "$WORK/t" cp_pack_start_sum)" 2
expect_eq "cp_pack_total_block_count grew" "$(dump_field "$WORK/t" cp_pack_total_block_count)" $((total + 1))
fsck_says "fsck reads the orphan" "$WORK/t" "ino: 0x3 is orphan inode"
fsck_silent "summaries still found" "$WORK/t" "Invalid|summary (node|data)|Wrong"
expect_eq "orphan entry" "$(le "$WORK/t" $((B + 4096)) 4)" 3
expect_eq "orphan entry_count" "$(le "$WORK/t" $((B + 4096 + 4088)) 4)" 1

ino=$(ino_of "$WORK/pop" file1)
[ -n "$ino" ] || hard_error "no file1 in the populated image"
ino=$((ino))
fresh pop t
inj "$WORK/t" --cp 0 --mb orphan_add --val "$ino"
inj "$WORK/t" --cp 0 --mb orphan_add --val 12
expect_ok "second orphan_add appends"
fsck_says "fsck reads the orphans" "$WORK/t" "ino: $(printf 0x%x $ino) is orphan inode"
fsck_silent "normal summaries still found" "$WORK/t" "Invalid|summary (node|data)|Wrong"
pcpa=$(dump_field "$WORK/t" cp_blkaddr)
expect_eq "two entries in one block" "$(le "$WORK/t" $((pcpa * 4096 + 4096 + 4088)) 4)" 2
inj "$WORK/t" --cp 0 --mb orphan --idx 1 --val 99
expect_eq "orphan --idx 1" "$(le "$WORK/t" $((pcpa * 4096 + 4096 + 4)) 4)" 99
inj "$WORK/t" --cp 0 --mb orphan_entry_count --val 1021
expect_eq "orphan_entry_count" "$(le "$WORK/t" $((pcpa * 4096 + 4096 + 4088)) 4)" 1021
fresh t t0
inj "$WORK/t" --cp 0 --mb orphan --idx 1020 --val 5
expect_error "orphan entry past the orphan blocks" "$WORK/t0" "$WORK/t"

# A one-block fsync'd node chain: a copy of file1's inode at the next free
# block of the warm node log, stamped with the cp_ver roll-forward expects
# (checkpoint_ver | crc << 32 with CP_CRC_RECOVERY_FLAG).
fresh pop ch
wseg=$(dump_field "$WORK/pop" 'cur_node_segno[1]')
woff=$(dump_field "$WORK/pop" 'cur_node_blkoff[1]')
pmain=$(dump_field "$WORK/pop" main_blkaddr)
ver=$(dump_field "$WORK/pop" checkpoint_ver)
flags=$(dump_field "$WORK/pop" ckpt_flags)
pcpa=$(dump_field "$WORK/pop" cp_blkaddr)
pcrc=$(le "$WORK/pop" $((pcpa * 4096 + 4092)) 4)
nxt=$((pmain + wseg * 512 + woff))
expect=$ver
[ $((flags & 64)) = 0 ] || expect=$((ver | (pcrc << 32)))
fblk=$(nat_blkaddr "$WORK/pop" $ino)
[ -n "$fblk" ] || hard_error "no NAT entry for file1"
dd if="$WORK/pop" of="$WORK/ch" bs=4096 skip=$fblk seek=$nxt count=1 conv=notrunc 2>/dev/null
i=0
while [ $i -lt 8 ]; do
	"$INJECT" --blk $nxt --mb raw --idx $((4084 + i)) --val $(((expect >> (8 * i)) & 255)) "$WORK/ch" >/dev/null ||
		hard_error "cannot stamp cp_ver"
	i=$((i + 1))
done
fresh ch t
inj "$WORK/t" --cp 0 --mb next_blkaddr --idx 0 --val $nxt
expect_out "fsync chain block 0" "fsync chain\[0\] \(blkaddr $(printf 0x%x $nxt)\): next_blkaddr"
expect_eq "footer next_blkaddr" "$(le "$WORK/t" $((nxt * 4096 + 4092)) 4)" $nxt
expect_eq "it is file1's inode" "$(le "$WORK/t" $((nxt * 4096 + 4072)) 4)" $ino
inj "$WORK/t" --cp 0 --mb next_blkaddr --idx 1 --val 0
expect_ok "chain block 1 is block 0 again (a loop)"
fresh ch t
inj "$WORK/t" --cp 0 --mb next_blkaddr --idx 1 --val 0
expect_error "chain of one block has no block 1" "$WORK/ch" "$WORK/t"

fresh plain t
inj "$WORK/t" --cp 0 --mb orphan --idx 0 --val 5
expect_error "no orphan block" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --cp 0 --mb next_blkaddr --idx 0 --val 5
expect_error "no fsync'd node chain after mkfs" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --cp 1 --mb cur_node_segno --idx 8 --val 1
expect_error "cur_node_segno has 8 slots" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --cp 1 --mb checkpoint_ver --val 5 --dry-run
expect_changed "dry run" "$WORK/plain" "$WORK/t" ""

finish
