#!/bin/bash
# tests/fsck/clean.sh: clean controls, all reported clean (exit 0, no
# problem line): fresh images from our mkfs and from f2fs-tools' mkfs with
# several option sets (-s 128 on sparse images of 5 and 8 GiB included),
# images filled by f2fs-tools' sload.f2fs (the interop oracle) and by ours
# (also at -s 7), read-only images (-O ro) made by both mkfs and filled by
# f2fs-tools, volumes grown and shrunk by f2fs-tools' resize.f2fs (a
# shrunk one f2fs-tools rejects too must come out of our repair clean),
# and the kernel-written images of
# the kernel interop harness when it has left them (tests/kernel/images/
# index: "name nature description" per line, image NAME.img beside it;
# KERNEL_IMAGES=dir takes them from another build tree).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/fsck/common.sh"
require "$MKFS_ORACLE" "$SLOAD_ORACLE" "$SLOAD"

check_clean() {
	local what=$1 img=$2
	run_fsck "$img"
	if [ "$RC" = 0 ] && ! grep -q "^F2FS-[0-9]* \(error\|warning\)" "$OUT"; then
		pass "$what"
	else
		fail "$what: exit $RC: $(grep '^F2FS' "$OUT" | head -3)"
	fi
}

fresh() {
	local mkfs=$1 size=$2 img=$WORK/f.img
	shift 2
	rm -f "$img"
	truncate -s "$size" "$img"
	if ! "$mkfs" -f -q "$@" "$img" >/dev/null 2>&1; then
		fail "$(basename "$mkfs") $* on $size failed"
		return
	fi
	check_clean "$(basename "$(dirname "$mkfs")")/$(basename "$mkfs") $* ($size)" "$img"
}

ALL=extra_attr,inode_checksum,flexible_inline_xattr,quota,project_quota,inode_crtime,lost_found,sb_checksum,compression
for opts in "" "-s 128" "-s 7 -z 3" "-i" "-O $ALL" "-O casefold -C utf8" "-s 4 -O extra_attr,quota,lost_found" \
	"-O ro" "-s 4 -O ro,extra_attr,quota,lost_found"; do
	fresh "$MKFS" 5G $opts
done
fresh "$MKFS" 256M
for opts in "" "-s 128" "-O $ALL" "-i" "-O casefold -C utf8"; do
	fresh "$MKFS_ORACLE" 8G $opts
done

# sload-populated images (-s 1: sload 1.15 mixes data into node sections
# with -s > 1, and writes data addresses over the inline xattr area of files
# above 870 blocks with flexible_inline_xattr; fsck reports both)
SRC=$WORK/src
mkdir -p "$SRC/d/e/f" "$SRC/many" "$SRC/empty"
echo x >"$SRC/small"
head -c 300000 /dev/zero | tr '\0' q >"$SRC/d/mid"
head -c 30000000 /dev/zero | tr '\0' r >"$SRC/d/e/large"
ln "$SRC/small" "$SRC/d/hard"
ln -s ../small "$SRC/d/sym"
for i in $(seq 1 1500); do echo "$i" >"$SRC/many/f$i"; done
# tools_sload MKFS LABEL OPTS...: a fresh 1 GiB image from MKFS, filled by
# f2fs-tools' sload, checks clean; it stays in $WORK/s.img.
tools_sload() {
	local mk=$1 label=$2
	shift 2
	img=$WORK/s.img
	rm -f "$img"
	truncate -s 1G "$img"
	"$mk" -f -q "$@" "$img" >/dev/null 2>&1 || { fail "$label $*"; return 1; }
	"$SLOAD_ORACLE" -f "$SRC" "$img" >/dev/null 2>&1
	check_clean "sload on $label $*" "$img"
}
for opts in "" "-O extra_attr,inode_checksum,sb_checksum" "-O extra_attr,quota,lost_found,inode_crtime" "-O casefold -C utf8" "-i"; do
	tools_sload "$MKFS_ORACLE" mkfs.f2fs $opts
	tools_sload "$MKFS" "our mkfs" $opts
done
# read-only images (-O ro: no SSA area, two logs that the other four share
# segments with), as f2fs-tools makes and fills them
for opts in "-O ro" "-O ro,extra_attr,inode_checksum,sb_checksum,inode_crtime"; do
	fresh "$MKFS_ORACLE" 1G $opts
	tools_sload "$MKFS_ORACLE" mkfs.f2fs $opts || continue
	run_fsck "$img" -a
	[ "$RC" = 0 ] && pass "preen on sload on mkfs.f2fs $opts" || fail "preen on sload on mkfs.f2fs $opts: exit $RC"
	tools_sload "$MKFS" "our mkfs" $opts
done
# not with -s 4: f2fs-tools 1.15 then counts more user blocks than the main
# area has, and the kernel refuses the checkpoint ("Wrong user_block_count")
img=$WORK/s.img
rm -f "$img"
truncate -s 1G "$img"
if "$MKFS_ORACLE" -f -q -s 4 -O ro "$img" >/dev/null 2>&1; then
	run_fsck "$img"
	if [ "$RC" = 4 ] && grep -q "^F2FS-1012 error: .*user_block_count" "$OUT"; then
		pass "mkfs.f2fs -s 4 -O ro: the checkpoint the kernel refuses is reported"
	else
		fail "mkfs.f2fs -s 4 -O ro: exit $RC: $(grep '^F2FS' "$OUT" | head -2)"
	fi
else
	fail "mkfs.f2fs -s 4 -O ro"
fi
# resized by f2fs-tools' resize.f2fs (grown, then shrunk with -s): it zeroes
# the pack it does not write, which the kernel skips with a warning and
# overwrites at its next checkpoint (information, F2FS-1036)
RESIZE_ORACLE=${RESIZE_ORACLE:-/usr/sbin/resize.f2fs}
[ -x "$RESIZE_ORACLE" ] || hard_error "f2fs-tools' resize.f2fs not found: $RESIZE_ORACLE"
for opts in "" "-s 4 -O extra_attr,inode_checksum,sb_checksum,quota,lost_found"; do
	img=$WORK/s.img
	rm -f "$img"
	truncate -s 1G "$img"
	"$MKFS_ORACLE" -f -q $opts "$img" >/dev/null 2>&1 || { fail "mkfs.f2fs $opts"; continue; }
	"$SLOAD_ORACLE" -f "$SRC" "$img" >/dev/null 2>&1
	truncate -s 3G "$img"
	if "$RESIZE_ORACLE" "$img" >"$WORK/resize.log" 2>&1; then
		check_clean "resize.f2fs to 3 GiB of mkfs.f2fs $opts" "$img"
	else
		fail "resize.f2fs to 3 GiB of mkfs.f2fs $opts: $(tail -n 2 "$WORK/resize.log")"
	fi
	# shrunk, it can leave segment_count past the main area (F2FS-1007:
	# the kernel's own correction at mount breaks an sb_checksum volume's
	# superblocks, see the man page) and two logs in one section: both
	# fscks must agree, and our repair must leave it clean for both
	if "$RESIZE_ORACLE" -s -t $((1500 * 2048)) "$img" >"$WORK/resize.log" 2>&1; then
		what="resize.f2fs -s to 1500 MiB of mkfs.f2fs $opts"
		run_fsck "$img"
		if "$FSCK_ORACLE" --dry-run "$img" >/dev/null 2>&1 </dev/null; then
			[ "$RC" = 0 ] && pass "$what: clean for both" ||
				fail "$what: clean for f2fs-tools, exit $RC: $(grep '^F2FS' "$OUT" | head -3)"
		elif [ "$RC" != 4 ]; then
			fail "$what: not clean for f2fs-tools, but exit $RC for ours"
		else
			run_fsck "$img" -y
			run_fsck "$img"
			if [ "$RC" = 0 ] && "$FSCK_ORACLE" --dry-run "$img" >/dev/null 2>&1 </dev/null; then
				pass "$what: not clean for both, and clean for both after our repair"
			else
				fail "$what: after our repair exit $RC: $(grep '^F2FS' "$OUT" | head -3)"
			fi
		fi
	else
		fail "resize.f2fs -s to 1500 MiB of mkfs.f2fs $opts: $(tail -n 2 "$WORK/resize.log")"
	fi
done
# our sload, which keeps one class per section whatever -s is (two logs on
# a read-only image)
for opts in "" "-s 7 -O extra_attr,inode_checksum,flexible_inline_xattr,quota" "-O casefold -C utf8" \
	"-O ro" "-s 7 -O ro,extra_attr,inode_checksum,quota,lost_found"; do
	for mk in "$MKFS_ORACLE" "$MKFS"; do
		# (f2fs-tools 1.15's read-only layout at -s above 1 can count
		# more user blocks than the kernel allows: see above)
		case "$mk $opts" in "$MKFS_ORACLE -s "*ro*) continue ;; esac
		img=$WORK/s.img
		rm -f "$img"
		truncate -s 1G "$img"
		"$mk" -f -q $opts "$img" >/dev/null 2>&1 || { fail "$mk $opts"; continue; }
		if "$SLOAD" -f "$SRC" "$img" >"$WORK/sload.log" 2>&1; then
			check_clean "our sload on $(basename "$(dirname "$mk")")/mkfs.f2fs $opts" "$img"
		else
			fail "our sload on $mk $opts: $(tail -2 "$WORK/sload.log")"
		fi
	done
done
rm -f "$WORK/s.img"

KIMAGES=${KERNEL_IMAGES:-$top_builddir/tests/kernel/images}
INDEX=$KIMAGES/index
if [ -f "$INDEX" ]; then
	while read -r name nature desc; do
		case "$name" in ''|'#'*) continue ;; esac
		path=$KIMAGES/$name.img
		[ -f "$path" ] || { fail "kernel image $name listed but missing"; continue; }
		cp --sparse=always "$path" "$WORK/k.img"
		check_clean "kernel image $name ($nature: $desc)" "$WORK/k.img"
	done <"$INDEX"
else
	echo "note: no kernel images ($INDEX); run the kernel interop tests first to include them"
fi
finish
