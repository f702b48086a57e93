#!/bin/sh
# tests/inject/ssa.sh: --ssa: summary entries and footers in the SSA area
# and, for current logs, in the checkpoint pack (node summaries, compacted
# and normal data summaries).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/inject/common.sh"

mkimg plain
popimg pop

cpa=$(dump_field "$WORK/plain" cp_blkaddr)
total=$(dump_field "$WORK/plain" cp_pack_total_block_count)
sum=$(dump_field "$WORK/plain" cp_pack_start_sum)
main=$(dump_field "$WORK/plain" main_blkaddr)
ssa=$(dump_field "$WORK/plain" ssa_blkaddr)
hn=$(dump_field "$WORK/plain" 'cur_node_segno[0]')
hd=$(dump_field "$WORK/plain" 'cur_data_segno[0]')
[ -n "$cpa" ] && [ -n "$hn" ] && [ -n "$hd" ] && [ -n "$ssa" ] || hard_error "no geometry"
root=$(nat_blkaddr "$WORK/plain" 3)
[ "$root" = $((main + hn * 512)) ] || hard_error "root inode is not the first block of the hot node log"

# The root inode's summary: the pack's hot node summary (pack has UMOUNT).
fresh plain t
inj "$WORK/t" --ssa --blk "$root" --mb nid --val 5
expect_ok "ssa nid of the root inode block"
expect_out "current log summary" "current log 3, checkpoint pack"
expect_changed "hot node summary in the pack, entry 0" "$WORK/plain" "$WORK/t" "$(((cpa + total - 4) * 4096))"
fsck_says "fsck sees it" "$WORK/t" "Invalid node seg summary|summary node block is not valid"

fresh plain t
inj "$WORK/t" --ssa --ssa-area --blk "$root" --mb nid --val 5
expect_changed "--ssa-area writes the SSA block" "$WORK/plain" "$WORK/t" "$(((ssa + hn) * 4096))"

# The root's dentry block: entry 0 of the hot data log, compacted: the
# entries start at byte 1014 of the first compacted block.
dblk=$((main + hd * 512))
fresh plain t
inj "$WORK/t" --ssa --blk "$dblk" --mb ofs_in_node --val 1
expect_changed "compacted entry 0 of hot data" "$WORK/plain" "$WORK/t" "$(((cpa + sum) * 4096 + 1014 + 5))"
fsck_says "fsck sees it" "$WORK/t" "Invalid data seg summary|summary data block is not valid"
fresh plain t
inj "$WORK/t" --ssa --blk "$dblk" --mb entry_type --val 1
expect_error "compacted summaries have no footer" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --ssa --blk $((dblk + 1)) --mb nid --val 1
expect_error "entry past cur_data_blkoff is not stored" "$WORK/plain" "$WORK/t"

# sload's image: the root's segment is no longer a log; normal summaries.
proot=$(nat_blkaddr "$WORK/pop" 3)
pssa=$(dump_field "$WORK/pop" ssa_blkaddr)
pmain=$(dump_field "$WORK/pop" main_blkaddr)
pseg=$(((proot - pmain) / 512))
pcpa=$(dump_field "$WORK/pop" cp_blkaddr)
ptotal=$(dump_field "$WORK/pop" cp_pack_total_block_count)
E=$(((pssa + pseg) * 4096 + (proot - pmain) % 512 * 7))
fresh pop t
inj "$WORK/t" --ssa --blk "$proot" --mb entry_type --val 0
expect_changed "footer entry_type in the SSA area" "$WORK/pop" "$WORK/t" "$(((pssa + pseg) * 4096 + 4091))"
fsck_says "fsck sees the footer" "$WORK/t" "Summary footer is not for node segment"
fresh pop t
inj "$WORK/t" --ssa --blk "$proot" --mb version --val 3
expect_changed "entry version" "$WORK/pop" "$WORK/t" "$((E + 4))"
fresh pop t
inj "$WORK/t" --ssa --blk "$proot" --mb check_sum --val 0x01010101
expect_out "check_sum" "check_sum 0x0 -> 0x1010101"
fresh pop t
inj "$WORK/t" --ssa --segno "$pseg" --idx 511 --mb nid --val 1
expect_changed "--segno and --idx" "$WORK/pop" "$WORK/t" "$(((pssa + pseg) * 4096 + 511 * 7))"
fresh pop t
inj "$WORK/t" --ssa --segno "$pseg" --mb raw --idx 100 --val 1
expect_changed "raw SSA byte" "$WORK/pop" "$WORK/t" "$(((pssa + pseg) * 4096 + 100))"

# A normal (not compacted) data summary of a current log: warm data.
wd=$(dump_field "$WORK/pop" 'cur_data_segno[1]')
fresh pop t
inj "$WORK/t" --ssa --blk $((pmain + wd * 512)) --mb nid --val 77
expect_changed "warm data summary block in the pack" "$WORK/pop" "$WORK/t" "$(((pcpa + ptotal - 7 + 1) * 4096))"
fsck_says "fsck sees it" "$WORK/t" "Invalid data seg summary|summary data block is not valid"

fresh pop t
inj "$WORK/t" --ssa --segno "$pseg" --idx 512 --mb nid --val 1
expect_error "entry 512" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --ssa --blk "$proot" --mb bogus --val 1
expect_error "unknown member" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --ssa --blk "$proot" --mb nid --val 1 --dry-run
expect_changed "dry run" "$WORK/pop" "$WORK/t" ""

# A read-only image (-O ro) has no SSA: its SSA address is the main
# area's, which an entry of a segment that is not a current log must not
# be written to.
popimg ro -O ro
rmain=$(dump_field "$WORK/ro" main_blkaddr)
rcur=" "
for k in 0 1 2; do
	rcur="$rcur$(dump_field "$WORK/ro" "cur_data_segno[$k]") $(dump_field "$WORK/ro" "cur_node_segno[$k]") "
done
rseg=0
while case $rcur in *" $rseg "*) true ;; *) false ;; esac; do rseg=$((rseg + 1)); done
fresh ro t
inj "$WORK/t" --ssa --blk $((rmain + rseg * 512 + 1)) --mb nid --val 1
expect_error "read-only image: no SSA block to change" "$WORK/ro" "$WORK/t"
inj "$WORK/t" --ssa --segno "$rseg" --mb raw --idx 1 --val 1
expect_error "read-only image: no raw SSA byte to change" "$WORK/ro" "$WORK/t"

finish
