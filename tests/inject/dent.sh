#!/bin/sh
# tests/inject/dent.sh: --dent: the entry of a child in its parent (found
# through i_pino or --parent), '.' and '..', every dentry member, errors.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/inject/common.sh"

popimg pop

f1=$(($(ino_of "$WORK/pop" file1)))
d1=$(($(ino_of "$WORK/pop" dir1)))
d2=$(($(ino_of "$WORK/pop" dir2)))
f33=$(($(ino_of "$WORK/pop" f_33)))
[ "$f1" -gt 3 ] && [ "$d1" -gt 3 ] && [ "$f33" -gt 3 ] || hard_error "tree missing"

# check_entry DESC NAME: the slot and block the report names hold NAME.
# Dentry block: bitmap 0..26, records (11 bytes) from 30, names (8) from 2384.
check_entry() {
	local desc=$1 name=$2 slot blk
	slot=$(sed -n 's/.* slot \([0-9]*\) (dentry block blkaddr \(0x[0-9a-f]*\)).*/\1/p' "$WORK/out")
	blk=$(sed -n 's/.* slot \([0-9]*\) (dentry block blkaddr \(0x[0-9a-f]*\)).*/\2/p' "$WORK/out")
	if [ -z "$slot" ]; then
		fail "$desc: no slot in [$(cat "$WORK/out")]"
		return
	fi
	DE=$((blk * 4096 + 30 + slot * 11))
	NAME=$((blk * 4096 + 2384 + slot * 8))
	BMP=$((blk * 4096 + slot / 8))
	BLKB=$((blk * 4096))
	expect_eq "$desc: the slot holds '$name'" \
		"$(dd if="$WORK/pop" bs=1 skip=$NAME count=${#name} 2>/dev/null)" "$name"
}

fresh pop t
inj "$WORK/t" --dent --nid $f1 --mb d_ino --val 99
expect_ok "d_ino"
check_entry "file1 in /" file1
expect_eq "d_ino bytes" "$(le "$WORK/t" $((DE + 4)) 4)" 99
expect_changed "only d_ino changed" "$WORK/pop" "$WORK/t" "$((DE + 4))"
fsck_says "fsck follows the entry" "$WORK/t" "nid\\[0x63\\]"

fresh pop t
inj "$WORK/t" --dent --nid $f33 --mb d_hash --val 0x1234
check_entry "f_33 in dir2 (40 entries)" f_33
expect_eq "d_hash bytes" "$(le "$WORK/t" $DE 4)" $((0x1234))

fresh pop t
inj "$WORK/t" --dent --nid $f33 --mb d_ftype --val 2
check_entry "f_33 ftype" f_33
expect_eq "d_ftype byte" "$(le "$WORK/t" $((DE + 10)) 1)" 2
fsck_says "fsck sees the type" "$WORK/t" "mismatch i_mode"

fresh pop t
inj "$WORK/t" --dent --nid $f33 --mb d_namelen --val 9
check_entry "f_33 namelen" f_33
expect_eq "d_namelen bytes" "$(le "$WORK/t" $((DE + 8)) 2)" 9

fresh pop t
inj "$WORK/t" --dent --nid $f33 --mb d_name --str f_99
check_entry "f_33 name" f_33
expect_eq "new name bytes" "$(dd if="$WORK/t" bs=1 skip=$NAME count=4 2>/dev/null)" f_99
fresh pop t
inj "$WORK/t" --dent --nid $f33 --mb d_name --idx 0 --val 0x67
expect_eq "one name byte" "$(dd if="$WORK/t" bs=1 skip=$NAME count=4 2>/dev/null)" g_33

fresh pop t
inj "$WORK/t" --dent --nid $f33 --mb d_bitmap
check_entry "f_33 bitmap" f_33
expect_changed "d_bitmap clears the entry's bit" "$WORK/pop" "$WORK/t" "$BMP"
fsck_says "fsck loses the file" "$WORK/t" "Unreachable nat entries +\\[Fail\\]"
fresh pop t
inj "$WORK/t" --dent --nid $f33 --mb d_bitmap --idx 213 --val 1
expect_changed "d_bitmap --idx 213 --val 1" "$WORK/pop" "$WORK/t" "$((BLKB + 26))"

# '.' and '..' of dir1: slots 0 and 1 of its first block.
fresh pop t
inj "$WORK/t" --dent --nid $d1 --dots 1 --mb d_ino --val $d2
expect_out "'.'" "dent of '.' $d1 in dir $d1 slot 0 "
fsck_says "fsck sees '.'" "$WORK/t" "for '\\.'"
fresh pop t
inj "$WORK/t" --dent --nid $d1 --dots 2 --mb d_ino --val $d2
expect_out "'..'" "dent of '..' $d1 in dir $d1 slot 1 "
fsck_says "fsck sees '..'" "$WORK/t" "for '\\.\\.'"

# An inline directory, built byte by byte from dir1 (whose only child is
# sub): with no extra attributes and 50 inline xattr words the inline area
# starts at byte 364 of the inode: bitmap (23 bytes), 7 reserved, 182
# records from 394, names from 2396 (f2fs-format.md 8.5).
sub=$(($(ino_of "$WORK/pop" sub)))
fresh pop il
raw() {
	local off=$1 b
	shift
	for b in "$@"; do
		"$INJECT" --node --nid $d1 --mb raw --idx $off --val $b "$WORK/il" >/dev/null ||
			hard_error "cannot build the inline directory"
		off=$((off + 1))
	done
}
"$INJECT" --node --nid $d1 --mb i_inline --val 0x04 "$WORK/il" >/dev/null
"$INJECT" --node --nid $d1 --mb i_addr --idx 0 --val 0 "$WORK/il" >/dev/null
raw 364 7
raw 394 0 0 0 0 $d1 0 0 0 1 0 2
raw 405 0 0 0 0 3 0 0 0 2 0 2
raw 416 0x6c 0x72 0x5e 0x8a $sub 0 0 0 3 0 2
raw 2396 0x2e
raw 2404 0x2e 0x2e
raw 2412 0x73 0x75 0x62
"$FSCK_ORACLE" --dry-run -t "$WORK/il" 2>&1 | grep -q -- "-- sub <ino" ||
	hard_error "fsck.f2fs does not read the hand-made inline directory"
fresh il t
inj "$WORK/t" --dent --nid $sub --mb d_ftype --val 1
expect_out "inline entry" "dent of ino $sub in dir $d1 slot 2 \(inline, inode"
expect_changed "inline d_ftype at 416+10" "$WORK/il" "$WORK/t" "$(($(nat_blkaddr "$WORK/il" $d1) * 4096 + 426))"
fsck_says "fsck sees the inline entry's type" "$WORK/t" "inode \[$(printf 0x%x $sub)\] mismatch i_mode \[0x1"
fresh il t
inj "$WORK/t" --dent --nid $d1 --dots 2 --mb d_ino --val $d2
fsck_says "inline '..'" "$WORK/t" "Bad inode number\[$(printf 0x%x $d2)\] for '\.\.'"

fresh pop t
inj "$WORK/t" --dent --nid $f33 --parent $d2 --mb d_ftype --val 7
expect_out "--parent" "in dir $d2 "
inj "$WORK/t" --dent --nid $f33 --parent $d1 --mb d_ftype --val 7
expect_error "--parent that has no such entry" "$WORK/t" "$WORK/t"
fresh pop t
inj "$WORK/t" --dent --nid $f33 --mb d_bitmap --idx 214
expect_error "bitmap slot 214" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --dent --nid $f33 --mb d_bogus --val 1
expect_error "unknown member" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --dent --nid $f33 --mb d_name --str 123456789
expect_error "name longer than its slots" "$WORK/pop" "$WORK/t"
inj "$WORK/t" --dent --nid $f33 --mb d_ino --val 1 --dry-run
expect_changed "dry run" "$WORK/pop" "$WORK/t" ""

finish
