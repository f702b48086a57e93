#!/bin/sh
# tests/inject/node.sh: --node: inode, footer and direct node members,
# the inode checksum kept valid (or not), raw bytes, refused requests.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/inject/common.sh"

mkimg plain
popimg pop -O extra_attr,inode_checksum,flexible_inline_xattr,sb_checksum

big=$(ino_of "$WORK/pop" big)
huge=$(ino_of "$WORK/pop" huge)
[ -n "$big" ] && [ -n "$huge" ] || hard_error "files missing from the populated image"
big=$((big))
huge=$((huge))
bblk=$(nat_blkaddr "$WORK/pop" $big)
[ -n "$bblk" ] || hard_error "no NAT entry for $big"
N=$((bblk * 4096))

fresh pop t
inj "$WORK/t" --node --nid $big --mb i_links --val 5
expect_ok "i_links"
expect_out "report" "^node nid $big \(blkaddr 0x[0-9a-f]+\): i_links 1 -> 5$"
expect_eq "dump.f2fs -i sees i_links" "$(inode_field "$WORK/t" $big i_links)" 5
fsck_says "fsck reports the link count" "$WORK/t" "i_links: 5|has \\[0x5\\] more unreachable links"
fsck_silent "checksum recomputed" "$WORK/t" "chksum"
# The checksum's four bytes at 368..371: any one of them may keep its old
# value (1 in 256 each, the image's timestamps vary between runs), so the
# test asks for the i_links byte and then only checksum bytes, at least one.
got=$(changed "$WORK/pop" "$WORK/t")
rest=${got#"$((N + 12)) "}
ok=no
if [ "$rest" != "$got" ] && [ -n "$rest" ]; then
	ok=yes
	for o in $rest; do
		[ "$o" -ge $((N + 368)) ] && [ "$o" -le $((N + 371)) ] || ok=no
	done
fi
[ $ok = yes ] && pass "i_links byte then checksum bytes" || fail "i_links bytes: $got"

fresh pop t
inj "$WORK/t" --node --nid $big --mb i_links --val 5 --no-fix-checksum
expect_changed "--no-fix-checksum: one byte" "$WORK/pop" "$WORK/t" "$((N + 12))"
fsck_says "fsck reports the checksum" "$WORK/t" "chksum"

fresh pop t
inj "$WORK/t" --node --nid $big --mb i_inode_checksum --val 1
fsck_says "i_inode_checksum is not recomputed" "$WORK/t" "chksum:0x1,"
fresh pop t
inj "$WORK/t" --node --nid $big --mb raw --idx 369 --val 0
fsck_says "raw byte in the checksum is not recomputed" "$WORK/t" "chksum"

fresh pop t
inj "$WORK/t" --node --nid $big --mb cp_ver --val 1
fsck_silent "footer change keeps the checksum valid" "$WORK/t" "chksum"
expect_eq "cp_ver bytes" "$(le "$WORK/t" $((N + 4084)) 8)" 1
fresh pop t
inj "$WORK/t" --node --nid $big --mb ino --val $((big + 1))
expect_eq "footer ino" "$(le "$WORK/t" $((N + 4076)) 4)" $((big + 1))
fsck_says "fsck sees the footer" "$WORK/t" "footer.ino\\[$(printf 0x%x $((big + 1)))\\]"

# i_extra_isize is 12 here: the first data slot is i_addr[3].
fresh pop t
first=$(inode_field "$WORK/pop" $big 'i_addr[0x3]')
inj "$WORK/t" --node --nid $big --mb i_addr --idx 3 --val 0
expect_out "i_addr" "i_addr\[3\] 0x[0-9a-f]+ -> 0x0$"
expect_eq "i_addr[3] bytes" "$(le "$WORK/t" $((N + 360 + 12)) 4)" 0
[ "$first" != 0 ] && pass "it was a data block" || fail "i_addr[3] was already 0"
fsck_silent "checksum still valid" "$WORK/t" "chksum"
fresh pop t
inj "$WORK/t" --node --nid $big --mb i_nid --idx 4 --val 9
expect_eq "i_nid[4]" "$(inode_field "$WORK/t" $big 'i_nid[4]')" 9
fresh pop t
inj "$WORK/t" --node --nid $big --mb i_name --str bog
expect_eq "i_name" "$(inode_field "$WORK/t" $big i_name)" bog
fresh pop t
inj "$WORK/t" --node --nid $big --mb i_ext.len --val 3
expect_eq "i_ext.len" "$(le "$WORK/t" $((N + 356)) 4)" 3
fresh pop t
inj "$WORK/t" --node --nid $big --mb i_size --val 0x123456789
expect_eq "i_size 64-bit" "$(inode_field "$WORK/t" $big i_size)" 4886718345
fresh pop t
inj "$WORK/t" --node --nid $big --mb i_compress_algorithm --val 2
expect_eq "i_compress_algorithm" "$(le "$WORK/t" $((N + 392)) 1)" 2

# A direct node: i_nid[0] of the 4 MiB file.
dn=$(inode_field "$WORK/pop" $huge 'i_nid[0]')
[ -n "$dn" ] && [ "$dn" != 0 ] || hard_error "huge has no direct node"
dblk=$(nat_blkaddr "$WORK/pop" "$dn")
fresh pop t
inj "$WORK/t" --node --nid "$dn" --mb addr --idx 0 --val 0
expect_ok "addr of a direct node"
got=$(changed "$WORK/pop" "$WORK/t")
case "$got" in
"$((dblk * 4096))"*) pass "addr[0] bytes, no checksum for a direct node" ;;
*) fail "addr bytes: $got" ;;
esac
fresh pop t
inj "$WORK/t" --node --nid "$dn" --mb i_links --val 1
expect_error "inode member on a direct node" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --node --nid $big --mb addr --idx 0 --val 1
expect_error "addr on an inode" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --node --nid $big --mb i_addr --idx 923 --val 1
expect_error "i_addr has 923 slots" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --node --nid 200 --mb i_links --val 1
expect_error "nid without a node block" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --node --nid $big --mb i_name --str "$(printf '%0256d' 0)"
expect_error "i_name holds 255 bytes" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --node --nid $big --mb i_links --val 9 --dry-run
expect_changed "dry run" "$WORK/pop" "$WORK/t" ""

# Without the inode_checksum feature only the member changes.
fresh plain t
inj "$WORK/t" --node --nid 3 --mb i_links --val 3
r=$(nat_blkaddr "$WORK/plain" 3)
expect_changed "no checksum feature: one byte" "$WORK/plain" "$WORK/t" "$((r * 4096 + 12))"
fsck_says "fsck reports the root's links" "$WORK/t" "i_links: 3"

finish
