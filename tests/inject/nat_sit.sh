#!/bin/sh
# tests/inject/nat_sit.sh: --nat and --sit: entries in either copy, the
# journals (compacted and normal packs), nat_bits, and refused requests.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/inject/common.sh"

mkimg plain
popimg pop

nat=$(dump_field "$WORK/plain" nat_blkaddr)
sit=$(dump_field "$WORK/plain" sit_blkaddr)
cpa=$(dump_field "$WORK/plain" cp_blkaddr)
main=$(dump_field "$WORK/plain" main_blkaddr)
sum=$(dump_field "$WORK/plain" cp_pack_start_sum)
sitsegs=$(dump_field "$WORK/plain" segment_count_sit)
[ -n "$nat" ] && [ -n "$sit" ] && [ -n "$sum" ] && [ -n "$main" ] || hard_error "no geometry"
root=$(nat_blkaddr "$WORK/plain" 3)
[ -n "$root" ] || hard_error "dump.f2fs -n shows no root"

# ---- NAT entries: nid 3 is entry 3 of NAT block 0 (9 bytes each).
fresh plain t
inj "$WORK/t" --nat 0 --nid 3 --mb block_addr --val 0x5000
expect_ok "nat 0 block_addr"
got=$(changed "$WORK/plain" "$WORK/t")
first=$((nat * 4096 + 27 + 5))
case "$got" in
"$((first + 1))"*) pass "changed bytes start in block_addr of nid 3" ;;
*) fail "nat bytes: $got (block_addr at $first)" ;;
esac
fsck_says "fsck follows it" "$WORK/t" "nid\[0x3\] nat_entry->ino\[0x3\] footer.ino\[0x0\]"

fresh plain t
inj "$WORK/t" --nat 2 --nid 3 --mb ino --val 4
expect_changed "copy 2 is the next segment" "$WORK/plain" "$WORK/t" "$(((nat + 512) * 4096 + 28))"
fsck_silent "the unused copy does not matter" "$WORK/t" "ASSERT"
fresh plain t
inj "$WORK/t" --nat 1 --nid 3 --mb version --val 7
expect_changed "version byte" "$WORK/plain" "$WORK/t" "$((nat * 4096 + 27))"
fresh plain t
inj "$WORK/t" --nat 1 --nid 3 --mb raw --idx 0 --val 1
expect_changed "raw NAT byte" "$WORK/plain" "$WORK/t" "$((nat * 4096))"

# ---- NAT journal of a compacted pack: block cp_pack_start_sum, offset 0.
J=$(((cpa + sum) * 4096))
fresh plain t
inj "$WORK/t" --nat 0 --journal --mb n_nats --val 1
expect_changed "n_nats at the start of the compacted block" "$WORK/plain" "$WORK/t" "$J"
inj "$WORK/t" --nat 0 --journal --idx 0 --mb nid --val 3
expect_changed "journal slot 0 nid" "$WORK/plain" "$WORK/t" "$J $((J + 2))"
inj "$WORK/t" --nat 0 --nid 3 --mb ino --val 3
expect_out "--nat 0 prefers the journal" "^nat journal slot 0 nid 3"
inj "$WORK/t" --nat 0 --nid 3 --mb block_addr --val "$root"
fsck_silent "a correct journal entry for the root is accepted" "$WORK/t" "ASSERT"
expect_eq "dump.f2fs -n reads the journal entry" "$(nat_blkaddr "$WORK/t" 3)" "$root"
inj "$WORK/t" --nat 0 --journal --nid 3 --mb block_addr --val 0x5000
fsck_says "fsck reads the journal entry" "$WORK/t" "nid\[0x3\] nat_entry->ino\[0x3\] footer.ino\[0x0\]"
inj "$WORK/t" --nat 1 --nid 3 --mb version --val 1
expect_out "--nat 1 still means the NAT block" "^nat nid 3 in copy 1"

# ---- NAT journal of a normal pack (sload: UMOUNT, 3 data + 3 node sums).
ptotal=$(dump_field "$WORK/pop" cp_pack_total_block_count)
pcpa=$(dump_field "$WORK/pop" cp_blkaddr)
PJ=$(((pcpa + ptotal - 7) * 4096 + 3584))
fresh pop t
inj "$WORK/t" --nat 0 --journal --mb n_nats --val 1
expect_changed "n_nats in the hot data summary's journal" "$WORK/pop" "$WORK/t" "$PJ"

# ---- nat_bits at the end of the pack: header, full[], empty[].
natsegs=$(dump_field "$WORK/plain" segment_count_nat)
bytes=$((natsegs / 2 * 512 / 8))
nbb=$(((2 * bytes + 8 + 4095) / 4096))
NB=$(((cpa + 512 - nbb) * 4096))
fresh plain t
inj "$WORK/t" --nat 0 --mb nat_bits_empty --idx 9 --val 0
expect_changed "empty bit 9" "$WORK/plain" "$WORK/t" "$((NB + 8 + bytes + 1))"
fresh plain t
inj "$WORK/t" --nat 0 --mb nat_bits_full --idx 0 --val 1
expect_changed "full bit 0" "$WORK/plain" "$WORK/t" "$((NB + 8))"
expect_eq "LSB first" "$(le "$WORK/t" $((NB + 8)) 1)" 1
fresh plain t
inj "$WORK/t" --nat 0 --mb nat_bits_header --val 0
expect_ok "nat_bits_header"

fresh plain t
inj "$WORK/t" --nat 0 --nid 99999999 --mb ino --val 1
expect_error "nid out of range" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --nat 0 --journal --nid 3 --mb ino --val 1
expect_error "nid not journalled" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --nat 0 --mb ino --val 1
expect_error "no nid" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --nat 0 --nid 3 --mb version --val 256
expect_error "version is one byte" "$WORK/plain" "$WORK/t"

# ---- SIT: segment 0 (the root's node log) is entry 0 of SIT block 0.
S=$((sit * 4096))
fresh plain t
inj "$WORK/t" --sit 0 --blk "$main" --mb valid_map_bit --val 0
expect_changed "valid_map bit of the root block (MSB first)" "$WORK/plain" "$WORK/t" "$((S + 2))"
expect_eq "bit 7 of byte 0 cleared" "$(( $(le "$WORK/plain" $((S + 2)) 1) - $(le "$WORK/t" $((S + 2)) 1) ))" 128
fsck_says "fsck sees the bitmap" "$WORK/t" "SIT bitmap is 0x0|Wrong SIT valid blocks"
fresh plain t
inj "$WORK/t" --sit 0 --segno 0 --mb valid_blocks --val 5
fsck_says "valid_blocks" "$WORK/t" "Wrong SIT valid blocks: segno=0x0, 5 vs"
fresh plain t
inj "$WORK/t" --sit 0 --segno 0 --mb type --val 1
expect_out "type is the high 6 bits" "type 3 -> 1$"
fresh plain t
inj "$WORK/t" --sit 0 --segno 0 --mb vblocks --val 0
expect_changed "vblocks" "$WORK/plain" "$WORK/t" "$S $((S + 1))"
fresh plain t
inj "$WORK/t" --sit 0 --segno 0 --mb valid_map --idx 63 --val 0xff
expect_changed "valid_map byte 63" "$WORK/plain" "$WORK/t" "$((S + 65))"
fresh plain t
inj "$WORK/t" --sit 2 --segno 0 --mb mtime --val 5
expect_changed "copy 2 of the SIT" "$WORK/plain" "$WORK/t" "$(((sit + sitsegs / 2 * 512) * 4096 + 66))"
fresh plain t
inj "$WORK/t" --sit 1 --segno 56 --mb mtime --val 5
expect_changed "segment 56 is entry 1 of SIT block 1" "$WORK/plain" "$WORK/t" "$(((sit + 1) * 4096 + 74 + 66))"

# SIT journal: the cold data summary.
fresh pop t
PSJ=$(((pcpa + ptotal - 7 + 2) * 4096 + 3584))
inj "$WORK/t" --sit 0 --journal --mb n_sits --val 1
expect_changed "n_sits in the cold data summary's journal" "$WORK/pop" "$WORK/t" "$PSJ"
inj "$WORK/t" --sit 0 --journal --idx 0 --mb segno --val 1
inj "$WORK/t" --sit 0 --segno 1 --mb mtime --val 9
expect_out "--sit 0 prefers the journal" "^sit journal slot 0 segno 1"
expect_eq "mtime of slot 0" "$(le "$WORK/t" $((PSJ + 2 + 4 + 66)) 8)" 9
fresh plain t
CSJ=$(((cpa + sum) * 4096 + 507))
inj "$WORK/t" --sit 0 --journal --mb n_sits --val 1
expect_changed "compacted SIT journal at 507" "$WORK/plain" "$WORK/t" "$CSJ"

fresh plain t
inj "$WORK/t" --sit 0 --blk 5 --mb mtime --val 1
expect_error "block outside the main area" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sit 0 --segno 0 --mb valid_map_bit --idx 512 --val 1
expect_error "bit 512" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sit 0 --segno 0 --mb valid_blocks --val 1024
expect_error "valid_blocks is 10 bits" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sit 0 --segno 0 --mb vblocks --val 0 --dry-run
expect_changed "dry run" "$WORK/plain" "$WORK/t" ""

finish
