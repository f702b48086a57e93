#!/bin/sh
# tests/sload/kernel.sh: images sload.f2fs made, read by the Linux kernel
# (tests/kernel's QEMU harness, one boot): the tree of gen-tree.sh loaded
# into volumes of our mkfs at -s 1, 7 and 128 and with the feature sets
# (checksums, flexible inline xattr, crtime, lost+found; compressed files,
# LZ4, LZO when the build has liblzo2, and ZSTD with the saved blocks
# released; quota; casefold with a casefolded root; a multi-device volume)
# and of f2fs-tools' mkfs; the guest
# compares every entry with the source's manifest, fills each volume, thins
# it and fills it again (garbage collection), and compares again after a
# remount; then both fscks must find every image clean.
# In make check (about 3 minutes under TCG); by hand, from a build directory:
#   top_srcdir=$PWD/.. top_builddir=$PWD sh ../tests/sload/kernel.sh
. "${top_srcdir:?}/tests/kernel/kcommon.sh"
KSRC=$top_srcdir/tests/kernel
SLOAD=${SLOAD_F2FS:-$top_builddir/sload/sload.f2fs}
MKFS_ORACLE=${MKFS_ORACLE:-/usr/sbin/mkfs.f2fs}
INJECT=$top_builddir/inject/inject.f2fs

kt_begin sload-kernel "sload.f2fs images read back by the kernel, then GC"
[ -x "$SLOAD" ] || kt_abort "sload.f2fs not built: $SLOAD"
[ "$(id -u)" = 0 ] || kt_abort "must run as root"
src=$KWORK/src
sh "$top_srcdir/tests/sload/gen-tree.sh" "$src" > "$KWORK/gen.log" 2>&1 ||
	kt_abort "cannot build the source tree"
mkdir -p "$KWORK/tools"
${CC:-cc} -O2 -static -o "$KWORK/tools/manifest" "$top_srcdir/tests/sload/manifest.c" ||
	kt_abort "cannot build the static manifest helper"
"$KWORK/tools/manifest" "$src" > "$KWORK/tools/src.man"
tar -cf "$KWORK/tools.tar" -C "$KWORK/tools" manifest src.man

FULL=extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum,lost_found
images=''
# image NAME MKFS SIZE "MKFS_OPTS" [casefold-root | SLOAD_OPTS...]
image() {
	img=$KWORK/$1.img
	rm -f "$img"
	truncate -s "$3" "$img"
	# shellcheck disable=SC2086
	"$2" -f -q $4 "$img" > "$KWORK/$1.mkfs.log" 2>&1 || { kt_bad "$1: mkfs $4"; return; }
	name=$1
	shift 4
	if [ "${1:-}" = casefold-root ]; then
		"$INJECT" --node --mb i_flags --nid 3 --val 0x40000000 "$img" > /dev/null 2>&1 ||
			{ kt_bad "$name: inject"; return; }
		shift
	fi
	"$SLOAD" -P "$@" -f "$src" "$img" > "$KWORK/$name.sload.log" 2>&1 ||
		{ kt_bad "$name: sload: $(tail -n 1 "$KWORK/$name.sload.log")"; return; }
	images="$images $name"
}
image s1 "$MKFS" 384M ""
image full-s7 "$MKFS" 512M "-s 7 -O $FULL"
image s128 "$MKFS" 3G "-s 128 -O extra_attr,flexible_inline_xattr"
image compression "$MKFS" 384M "-O extra_attr,compression" -c
image compressed-zstd "$MKFS" 384M "-O extra_attr,compression,inode_checksum" -c -a zstd -L 3 -r
if "$SLOAD" -h | grep -q 'algorithm: lz4, lzo'; then
	image compressed-lzo "$MKFS" 384M "-O extra_attr,compression" -c -a lzo
fi
image quota "$MKFS" 384M "-O extra_attr,quota,project_quota,inode_checksum"
image casefold "$MKFS" 384M "-O extra_attr,casefold,inode_checksum -C utf8" casefold-root
image f2fs-tools-s4 "$MKFS_ORACLE" 512M "-s 4 -O $FULL"
# A multi-device volume (mkfs -c) loaded across its three devices (device
# 0 holds little more than the metadata); the kernel opens every device,
# the first included, through the host paths in the superblock (63 bytes
# at most: a short directory), which the guest links to its disks.
MD=$(mktemp -d /tmp/ksmd.XXXXXX) || kt_abort "cannot create a directory in /tmp"
md_args= md_disks=
truncate -s 24M "$MD/d0.img" && truncate -s 16M "$MD/d1.img" && truncate -s 64M "$MD/d2.img" ||
	kt_abort "cannot create the images"
if ! "$MKFS" -f -q -O extra_attr,inode_checksum,flexible_inline_xattr -c "$MD/d1.img" -c "$MD/d2.img" \
	"$MD/d0.img" > "$KWORK/md.mkfs.log" 2>&1; then
	kt_bad "multidev: mkfs -c: $(tail -n 1 "$KWORK/md.mkfs.log")"
elif ! "$SLOAD" -P -f "$src" "$MD/d0.img" > "$KWORK/md.sload.log" 2>&1; then
	kt_bad "multidev: sload: $(tail -n 1 "$KWORK/md.sload.log")"
else
	md_args="multidev $MD/d0.img:multidev $MD/d1.img:md1 $MD/d2.img:md2"
	md_disks="multidev=$MD/d0.img md1=$MD/d1.img md2=$MD/d2.img"
fi
[ -n "$images" ] || kt_abort "no image was made"

set --
for n in $images; do set -- "$@" "$n=$KWORK/$n.img"; done
# shellcheck disable=SC2086
kt_guest sload -t 1500 -m 512M -a "4096 $images $md_args" "$top_srcdir/tests/sload/guest-verify.sh" \
	tools="$KWORK/tools.tar" "$@" $md_disks || kt_bad "guest run failed (verdict $KT_GUEST_RC)"
grep -E '^(== |FAIL|.*reads back|.*GC calls|.*Try to move|fill:)' "$KWORK/sload/console.log" 2>/dev/null |
	sed 's/^/    /' | head -n 60
for n in $images; do
	kt_fsck "$KWORK/$n.img" "$n"
	rm -f "$KWORK/$n.img"
done
[ -n "$md_args" ] && kt_fsck "$MD/d0.img" multidev
rm -rf "$MD"
kt_end
