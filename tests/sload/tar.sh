#!/bin/sh
# tests/sload/tar.sh: sload.f2fs reading a tar archive (--tar FILE|-, -f
# naming a file) gives what loading the same tree from its directory
# gives.  tests/sload/gen-tree.sh's tree (without its 9 GiB sparse file:
# tar stores holes as zeroes, and GNU sparse archives are refused), as
# GNU tar writes it in pax format with xattrs:
#   - with -T, hard links and the socket left out (tar does not store
#     sockets; a hard-linked inode is rewritten after the stream), the
#     image is byte for byte the directory load's: every inode field,
#     xattrs of files, directories, FIFOs and symlinks, device numbers;
#   - the same with -c on a compression volume;
#   - with hard links and the source's times, our fsck and f2fs-tools'
#     find it clean and dump.f2fs -r gives the tree back (link groups,
#     mtimes before 1970 and after 2038 with nanoseconds);
#   - bench/tar-gen.c's stream on standard input gives the image of the
#     fsck benchmark's tree loaded from a directory, byte for byte;
#   - an archive not in directory order is refused (volume unchanged)
#     and loads with --any-order; a name the volume has keeps the
#     volume's entry; truncated, corrupted and ".." archives are refused
#     with the volume unchanged.
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
SLOAD=${SLOAD_F2FS:-$top_builddir/sload/sload.f2fs}
require_built "$MKFS" "$FSCK" "$DUMP" "$SLOAD"
require_oracles "$FSCK_ORACLE"
require_commands python3 tar "${CC:-cc}"
make_scratch sload
[ "$(id -u)" = 0 ] || hard_error "must run as root (owners and device nodes in the source tree)"
MANIFEST=$WORK/manifest
${CC:-cc} -O2 -o "$MANIFEST" "$top_srcdir/tests/sload/manifest.c" ||
	hard_error "cannot build the manifest helper"
${CC:-cc} -O2 -o "$WORK/tar-gen" "$top_srcdir/bench/tar-gen.c" ||
	hard_error "cannot build bench/tar-gen.c"
SRC=$WORK/src
sh "$top_srcdir/tests/sload/gen-tree.sh" "$SRC" > "$WORK/gen.log" 2>&1 ||
	hard_error "cannot build the source tree: $(tail -n 3 "$WORK/gen.log")"
rm -f "$SRC/files/dind"

# archive DIR OUT: DIR as GNU tar writes it (pax, xattrs, names sorted)
archive() {
	tar --format=pax --xattrs --xattrs-include='*' --sort=name -C "$1" -cf "$2" . \
		2> "$WORK/tar.log"
}

# fresh IMG: a copy of one empty 2 GiB volume, so two loads compare byte
# for byte
truncate -s 2G "$WORK/empty.img"
"$MKFS" -f -q -O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime "$WORK/empty.img" \
	> /dev/null 2>&1 || hard_error "mkfs"
fresh() {
	rm -f "$1"
	cp --sparse=always "$WORK/empty.img" "$1"
}

# 1. byte for byte against the directory load
cp -a "$SRC" "$WORK/plain"
rm -f "$WORK/plain/special/socket" "$WORK/plain/special/fifo_link" "$WORK/plain/files/hard2" \
	"$WORK/plain/dirs/hard3"
archive "$WORK/plain" "$WORK/plain.tar" || hard_error "tar: $(tail -n 2 "$WORK/tar.log")"
fresh "$WORK/dir.img"
fresh "$WORK/tar.img"
"$SLOAD" -P -T 1234567890 -f "$WORK/plain" "$WORK/dir.img" > "$WORK/sload.log" 2>&1 ||
	hard_error "sload of the directory: $(tail -n 2 "$WORK/sload.log")"
if "$SLOAD" -P -T 1234567890 --tar "$WORK/plain.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1; then
	pass "--tar FILE loaded"
else
	fail "--tar FILE: $(tail -n 2 "$WORK/sload.log")"
fi
if cmp -s "$WORK/dir.img" "$WORK/tar.img"; then
	pass "the archive's image is the directory's, byte for byte"
else
	fail "the archive's image differs from the directory's: $(cmp "$WORK/dir.img" "$WORK/tar.img" | head -n 1)"
fi
both_fscks_clean "$WORK/tar.img" "plain archive"
rm -f "$WORK/dir.img" "$WORK/plain.tar"
# compressed (-c): the archive's file data is staged in a temporary file
mkdir -p "$WORK/comp"
cp -a "$SRC/files" "$WORK/comp/"
archive "$WORK/comp" "$WORK/comp.tar" || hard_error "tar: $(tail -n 2 "$WORK/tar.log")"
for f in dir tar; do
	rm -f "$WORK/$f.img"
	truncate -s 1G "$WORK/$f.img"
	"$MKFS" -f -q -O extra_attr,compression,inode_checksum -U 6c4b7e0a-1f5e-4d59-9a2e-0d6a4a3c9b11 \
		"$WORK/$f.img" > /dev/null 2>&1 || hard_error "mkfs"
done
cp --sparse=always "$WORK/dir.img" "$WORK/tar.img"
"$SLOAD" -c -T 1234567890 -f "$WORK/comp" "$WORK/dir.img" > /dev/null 2>&1 || hard_error "sload -c"
if "$SLOAD" -c -T 1234567890 -f "$WORK/comp.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1 &&
   cmp -s "$WORK/dir.img" "$WORK/tar.img"; then
	pass "-c: the archive's compressed image is the directory's, byte for byte"
else
	fail "-c from an archive: $(tail -n 1 "$WORK/sload.log")"
fi
both_fscks_clean "$WORK/tar.img" "compressed archive"
rm -rf "$WORK/dir.img" "$WORK/comp" "$WORK/comp.tar"

# 2. hard links and the source's times, through -f ARCHIVE
archive "$SRC" "$WORK/full.tar" || hard_error "tar: $(tail -n 2 "$WORK/tar.log")"
fresh "$WORK/tar.img"
if "$SLOAD" -P -f "$WORK/full.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1; then
	pass "-f ARCHIVE loaded"
else
	fail "-f ARCHIVE: $(tail -n 2 "$WORK/sload.log")"
fi
both_fscks_clean "$WORK/tar.img" "archive with hard links"
"$MANIFEST" -d "$SRC" > "$WORK/src.man"
same_tree "$WORK/tar.img" "archive with hard links (links, times, xattrs)"
# a directory the volume has is not merged into at depth: refused
sum=$(img_sum "$WORK/tar.img")
tar -C "$SRC" -cf "$WORK/deep.tar" ./files/small
if ! "$SLOAD" --tar "$WORK/deep.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1 &&
   [ "$(img_sum "$WORK/tar.img")" = "$sum" ]; then
	pass "an entry below a directory the volume has is refused, volume unchanged"
else
	fail "entry below a volume directory: $(tail -n 1 "$WORK/sload.log")"
fi
# a name the root has keeps the volume's entry; new names are added
mkdir -p "$WORK/top1" "$WORK/top2"
echo first > "$WORK/top1/same"
echo second > "$WORK/top2/same"
echo new > "$WORK/top2/new"
tar -C "$WORK/top1" -cf "$WORK/top1.tar" .
tar -C "$WORK/top2" -cf "$WORK/top2.tar" .
rm -rf "$WORK/out"
if "$SLOAD" --tar "$WORK/top1.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1 &&
   "$SLOAD" --tar "$WORK/top2.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1 &&
   grep -q 'exists in the volume: kept' "$WORK/sload.log" &&
   "$DUMP" -r -o "$WORK/out" "$WORK/tar.img" > /dev/null 2>&1 &&
   [ "$(cat "$WORK/out/same")" = first ] && [ "$(cat "$WORK/out/new")" = new ]; then
	pass "a name the root has keeps the volume's entry, new names are added"
else
	fail "loading into a loaded root: $(tail -n 1 "$WORK/sload.log")"
fi
rm -rf "$WORK/out"
both_fscks_clean "$WORK/tar.img" "archive into a loaded volume"
rm -f "$WORK/full.tar" "$WORK/deep.tar"

# 3. the benchmark's generator on standard input
mkdir -p "$WORK/bench"
for d in 0 1 2; do
	mkdir -p "$WORK/bench/d$d"
	for i in $(seq 0 999); do
		n=$((d * 1000 + i))
		[ $n -ge 2500 ] && break
		[ $((n % 455)) -eq 454 ] && continue
		echo "$d/$i" > "$WORK/bench/d$d/f$i"
	done
done
fresh "$WORK/dir.img"
fresh "$WORK/tar.img"
"$SLOAD" -T 1700000000 -f "$WORK/bench" "$WORK/dir.img" > /dev/null 2>&1 || hard_error "sload of the bench tree"
if "$WORK/tar-gen" 2500 | "$SLOAD" -T 1700000000 --tar - "$WORK/tar.img" > "$WORK/sload.log" 2>&1 &&
   cmp -s "$WORK/dir.img" "$WORK/tar.img"; then
	pass "tar-gen | sload --tar - gives the benchmark tree's image"
else
	fail "tar-gen stream: $(tail -n 1 "$WORK/sload.log") $(cmp "$WORK/dir.img" "$WORK/tar.img" 2>&1 | head -n 1)"
fi
rm -f "$WORK/dir.img"

# 4. order, and archives that are refused with the volume unchanged
mkdir -p "$WORK/o/a/sub" "$WORK/o/b"
echo 1 > "$WORK/o/a/x"
echo 2 > "$WORK/o/b/y"
echo 3 > "$WORK/o/a/sub/z"
(cd "$WORK/o" && tar --no-recursion -cf "$WORK/order.tar" a a/x a/sub b b/y a/sub/z) ||
	hard_error "tar of the out-of-order archive"
fresh "$WORK/tar.img"
sum=$(img_sum "$WORK/tar.img")
if ! "$SLOAD" --tar "$WORK/order.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1 &&
   grep -q 'any-order' "$WORK/sload.log" && [ "$(img_sum "$WORK/tar.img")" = "$sum" ]; then
	pass "an archive out of directory order is refused, volume unchanged"
else
	fail "out of order: $(tail -n 1 "$WORK/sload.log")"
fi
if "$SLOAD" -P --any-order --tar "$WORK/order.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1; then
	rm -rf "$WORK/out"
	"$DUMP" -r -o "$WORK/out" -P -L "$WORK/tar.img" > /dev/null 2>&1
	"$MANIFEST" -t -i "$WORK/out" > "$WORK/img.man"
	"$MANIFEST" -t "$WORK/o" > "$WORK/src.man"
	if diff "$WORK/src.man" "$WORK/img.man" > /dev/null; then
		pass "--any-order loads it"
	else
		fail "--any-order: the tree differs"
	fi
	both_fscks_clean "$WORK/tar.img" "--any-order"
else
	fail "--any-order: $(tail -n 1 "$WORK/sload.log")"
fi

fresh "$WORK/tar.img"
sum=$(img_sum "$WORK/tar.img")
tar -C "$WORK/o" -cf "$WORK/good.tar" .
size=$(stat -c %s "$WORK/good.tar")
head -c 2000 "$WORK/good.tar" > "$WORK/bad-truncated.tar"
cp "$WORK/good.tar" "$WORK/bad-checksum.tar"
# the mode field of the third header (./a/x)
printf '9' | dd of="$WORK/bad-checksum.tar" bs=1 seek=1124 conv=notrunc 2> /dev/null
python3 - "$WORK/bad-dotdot.tar" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:
    data = b'escape\n'
    i = tarfile.TarInfo('a/../../x')
    i.size = len(data)
    t.addfile(i, io.BytesIO(data))
PY
for bad in truncated checksum dotdot; do
	if ! "$SLOAD" --tar "$WORK/bad-$bad.tar" "$WORK/tar.img" > "$WORK/sload.log" 2>&1 &&
	   [ "$(img_sum "$WORK/tar.img")" = "$sum" ]; then
		pass "a $bad archive is refused, volume unchanged"
	else
		fail "$bad archive: $(tail -n 1 "$WORK/sload.log")"
	fi
done
[ "$size" -gt 2000 ] || fail "the good archive is too small to cut"
finish
