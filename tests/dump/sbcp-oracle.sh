#!/bin/sh
# tests/dump/sbcp-oracle.sh: every superblock and checkpoint value printed
# by f2fs-tools' `dump.f2fs -d 1` agrees with ours (parsed numerically from
# its "name [0x hex : dec]" lines), and our text agrees with our JSON, on a
# matrix of images: our mkfs with several option sets, f2fs-tools' mkfs,
# sload-populated images and kernel-written images when present.
. "$(dirname "$0")/common.sh"
require_tools mkfs oracle
setup_work

compare_image() {
	label=$1 img=$2
	if ! "$ORACLE_DUMP" -d 1 "$img" > "$WORK/oracle.txt" 2>&1; then
		fail "$label: f2fs-tools dump.f2fs failed"
		return
	fi
	if ! "$DUMP" --json "$img" > "$WORK/ours.json" 2> "$WORK/ours.err" ||
	   ! "$DUMP" -d 1 "$img" > "$WORK/ours.txt" 2>> "$WORK/ours.err"; then
		fail "$label: our dump.f2fs failed: $(head -n 1 "$WORK/ours.err")"
		return
	fi
	check "$label: values agree with f2fs-tools" \
		$CHECK sbcp "$WORK/oracle.txt" "$WORK/ours.json" "$WORK/ours.txt" "$img"
}

n=0
ours() {
	size=$1
	shift
	n=$((n + 1))
	img=$WORK/ours$n.img
	rm -f "$img" && truncate -s "$size" "$img"
	if "$MKFS" -q -f "$@" "$img" > "$WORK/mkfs.log" 2>&1; then
		compare_image "our mkfs $size $*" "$img"
	else
		fail "our mkfs $size $*: $(head -n 1 "$WORK/mkfs.log")"
	fi
	rm -f "$img"
}

theirs() {
	size=$1
	shift
	n=$((n + 1))
	img=$WORK/theirs$n.img
	rm -f "$img" && truncate -s "$size" "$img"
	if "$ORACLE_MKFS" -q -f "$@" "$img" > "$WORK/mkfs.log" 2>&1; then
		compare_image "f2fs-tools mkfs $size $*" "$img"
	else
		fail "f2fs-tools mkfs $size $*: $(head -n 1 "$WORK/mkfs.log")"
	fi
	rm -f "$img"
}

ours 1G
ours 1G -O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,inode_crtime
ours 2G -s 4 -z 2 -l dumptest
ours 1G -O extra_attr,quota,lost_found,project_quota
ours 1G -i
ours 64G -i
ours 4T
theirs 1G
theirs 2G -O extra_attr,inode_checksum,sb_checksum,quota,lost_found,compression -s 4
theirs 1G -i
theirs 200G

# populated by sload
make_tree "$WORK/src" || hard_error "cannot build the source tree"
img=$WORK/populated.img
truncate -s 1G "$img"
if "$ORACLE_MKFS" -q -f "$img" > "$WORK/mkfs.log" 2>&1 && populate "$img" "$WORK/src"; then
	compare_image "sload-populated" "$img"
else
	fail "cannot make the sload-populated image"
fi
rm -f "$img"

for k in $(kernel_images); do
	compare_image "kernel image $(basename "$k")" "$k"
done
finish
