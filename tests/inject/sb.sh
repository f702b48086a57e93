#!/bin/sh
# tests/inject/sb.sh: --sb: copy selection, exact bytes, superblock crc
# kept valid (or not, on request), raw copies of a volume that no longer
# opens, dry run, and refused requests.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/inject/common.sh"

mkimg plain
mkimg csum -O extra_attr,inode_checksum,sb_checksum

# segment_count is at byte 48 of the superblock, which starts at byte 1024
# of blocks 0 (copy 1) and 1 (copy 2); 127 -> 11 changes one byte.
fresh plain t
inj "$WORK/t" --sb 1 --mb segment_count --val 11
expect_ok "sb 1 segment_count"
expect_out "report names copy, member and values" "^sb 1 .*segment_count 127 -> 11$"
expect_changed "sb 1 changes copy 1 only" "$WORK/plain" "$WORK/t" "1072"
fsck_says "fsck sees the bad segment_count" "$WORK/t" "Invalid segment/section count \(11"

fresh plain t
inj "$WORK/t" --sb 2 --mb segment_count --val 11
expect_changed "sb 2 changes copy 2 only" "$WORK/plain" "$WORK/t" "5168"

# With sb_checksum the crc (bytes 3068..3071) follows the change.
fresh csum t
inj "$WORK/t" --sb 1 --mb s_errors --idx 0 --val 1
expect_ok "sb s_errors[0]"
got=$(changed "$WORK/csum" "$WORK/t")
case "$got" in
"3818 409"[2-5]*) pass "s_errors[0] at 1024+2794, then crc bytes" ;;
*) fail "unexpected bytes changed: $got" ;;
esac
fsck_silent "crc recomputed: fsck finds no crc error" "$WORK/t" "Invalid SB CRC"
"$FSCK_ORACLE" --dry-run "$WORK/t" >/dev/null 2>&1 && pass "fsck accepts the volume" ||
	fail "fsck rejects a volume whose only change is s_errors[0]"

fresh csum t
inj "$WORK/t" --sb 1 --mb log_blocksize --val 13
fsck_says "log_blocksize 13 is what fsck reports" "$WORK/t" "Invalid blocksize"
fsck_silent "... and not the crc" "$WORK/t" "Invalid SB CRC"

fresh csum t
inj "$WORK/t" --sb 1 --mb log_blocksize --val 13 --no-fix-checksum
expect_changed "--no-fix-checksum leaves the crc" "$WORK/csum" "$WORK/t" "1040"
fsck_says "fsck then reports the crc" "$WORK/t" "Invalid SB CRC"

fresh csum t
inj "$WORK/t" --sb 1 --mb crc --val 1
expect_out "crc member" "crc 0x[0-9a-f]+ -> 0x1$"
fsck_says "injected crc is reported as is" "$WORK/t" "Invalid SB CRC: 0x1"

# --sb 0 is the copy in use: copy 2 once copy 1 is broken.
fresh plain t
inj "$WORK/t" --sb 1 --mb magic --val 0x12345678
expect_changed "magic of copy 1" "$WORK/plain" "$WORK/t" "1024 1025 1026 1027"
fresh t t0
inj "$WORK/t" --sb 0 --mb s_errors --idx 0 --val 1
expect_out "--sb 0 picks copy 2 when copy 1 is bad" "^sb 2 "
expect_changed "... and writes copy 2" "$WORK/t0" "$WORK/t" "7914"

# Both copies broken: the volume does not open, the sb target still works.
fresh plain t
inj "$WORK/t" --sb 1 --mb magic --val 0
inj "$WORK/t" --sb 2 --mb magic --val 0
"$FSCK_ORACLE" --dry-run "$WORK/t" >/dev/null 2>&1 && fail "fsck accepts no superblock"
inj "$WORK/t" --sb 2 --mb magic --val 0xf2f52010
expect_ok "repair copy 2 of a volume that does not open"
expect_changed "only copy 1 still differs" "$WORK/plain" "$WORK/t" "1024 1025 1026 1027"
inj "$WORK/t" --node --nid 3 --mb i_links --val 3
expect_ok "the volume opens again through copy 2"

fresh plain t
inj "$WORK/t" --sb 1 --mb devs.path --idx 0 --str /dev/foo
expect_out "devs.path string" 'devs.path\[0\] "" -> "/dev/foo"$'
expect_eq "path bytes at 1024+2201" "$(dd if="$WORK/t" bs=1 skip=3225 count=8 2>/dev/null)" "/dev/foo"
fsck_says "fsck sees the device list" "$WORK/t" "total segments from devices"

fresh plain t
inj "$WORK/t" --sb 1 --mb raw --idx 48 --val 5
expect_changed "raw byte 48 of copy 1" "$WORK/plain" "$WORK/t" "1072"
fresh plain t
inj "$WORK/t" --sb 1 --mb s_stop_reason --idx 31 --val 2
expect_changed "s_stop_reason[31]" "$WORK/plain" "$WORK/t" "3817"
fresh plain t
inj "$WORK/t" --sb 1 --mb version --str abc
expect_eq "version string" "$(dd if="$WORK/t" bs=1 skip=$((1024 + 1668)) count=4 2>/dev/null | od -An -c | tr -s ' ')" " a b c \0"
fresh plain t
inj "$WORK/t" --sb 1 --mb block_count --val 0x100000000
expect_eq "block_count is 64-bit" "$(le "$WORK/t" $((1024 + 36)) 8)" 4294967296

# --blk ADDR --mb raw alone: any block, no checksum touched.
fresh plain t
inj "$WORK/t" --blk 0x3000 --mb raw --idx 4095 --val 0xa5
expect_changed "raw byte of block 0x3000" "$WORK/plain" "$WORK/t" "$((0x3000 * 4096 + 4095))"
fresh plain t
inj "$WORK/t" --blk 65536 --mb raw --idx 0 --val 1
expect_error "block past the end of the device" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --blk 5 --mb magic --val 1
expect_error "--blk alone only does raw" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --blk 5 --mb raw --idx 4096 --val 1
expect_error "offset past the block" "$WORK/plain" "$WORK/t"

fresh plain t
inj "$WORK/t" --sb 1 --mb segment_count --val 11 --dry-run
expect_out "dry run says so" "dry run"
expect_changed "dry run writes nothing" "$WORK/plain" "$WORK/t" ""

inj "$WORK/t" --sb 1 --mb no_such_member --val 1
expect_error "unknown member" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sb 1 --mb s_errors --val 1
expect_error "array member without --idx" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sb 1 --mb s_stop_reason --idx 32 --val 1
expect_error "index past the array" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sb 1 --mb log_blocksize --val 0x100000000
expect_error "value that does not fit" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sb 1 --mb magic --str x
expect_error "--str on a number" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sb 1 --mb devs.path --idx 0 --str "$(printf '%065d' 0)"
expect_error "string too long" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sb 3 --mb magic --val 1
expect_error "copy 3" "$WORK/plain" "$WORK/t"
inj "$WORK/t" --sb 1 --mb magic
expect_error "no value" "$WORK/plain" "$WORK/t"

finish
