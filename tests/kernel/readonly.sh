#!/bin/sh
# Kernel interop: read-only images (mkfs.f2fs -O ro: no SSA, no reserved
# or overprovision space, two logs that the other four share segments
# with).  Our mkfs formats them (-s 1, -s 4 and -s 7, with more features)
# and a loader fills them (the way read-only images are built; the kernel
# never writes one): f2fs-tools' sload.f2fs and ours (also with
# compression, the saved blocks released or not, and into f2fs-tools' own
# layout).  The kernel must refuse a
# read-write mount, mount read-only and read every file back; both fscks
# find the images clean, and our fsck -y writes nothing.
. "$(dirname "$0")/kcommon.sh"

kt_begin readonly "read-only images (-O ro) filled by sload: the kernel reads them"

SLOAD_ORACLE=${SLOAD_ORACLE:-$(command -v sload.f2fs || echo /usr/sbin/sload.f2fs)}
[ -x "$SLOAD_ORACLE" ] || kt_abort "f2fs-tools' sload.f2fs is missing: run $top_srcdir/tests/kernel/setup.sh"
[ -x "$OUR_FSCK" ] || kt_abort "$OUR_FSCK is not built"
OUR_SLOAD=$top_builddir/sload/sload.f2fs
[ -x "$OUR_SLOAD" ] || kt_abort "$OUR_SLOAD is not built"
REF_MKFS=$(command -v mkfs.f2fs || echo /usr/sbin/mkfs.f2fs)

src=$KWORK/src
mkdir -p "$src/d/e" "$src/many"
i=0
while [ $i -lt 40 ]; do
	head -c $((i * 1531 + 7)) /dev/urandom > "$src/many/f$i"
	i=$((i + 1))
done
head -c 5000000 /dev/urandom > "$src/d/e/big"
echo small > "$src/d/small"
# compressible: clusters that sload -c really compresses (the kernel reads
# a read-only image's compressed files through its read extent cache)
i=0
while [ $i -lt 3000 ]; do
	echo "line $i of a file that compresses well"
	i=$((i + 1))
done > "$src/d/text"
ln -s ../many/f1 "$src/d/link"
(cd "$src" && find . -type f ! -name MANIFEST -exec md5sum {} + > MANIFEST) ||
	kt_abort "cannot write the manifest"

disks=
# name:size:mkfs (ours, or "tools" for f2fs-tools'):loader (ours or tools):
# sload options:mkfs options
for spec in "ro1:512M:ours:tools::-O ro" \
	    "ro4:1G:ours:tools::-s 4 -O ro,extra_attr,inode_checksum,sb_checksum,lost_found" \
	    "our1:512M:ours:ours::-O ro" \
	    "our7:1G:ours:ours::-s 7 -O ro,extra_attr,quota,lost_found,inode_checksum,flexible_inline_xattr" \
	    "ourc:512M:ours:ours:-c -a lz4:-O ro,extra_attr,compression" \
	    "ourr:512M:ours:ours:-c -r -a lz4:-O ro,extra_attr,compression" \
	    "tool:512M:tools:ours::-O ro"; do
	IFS=: read -r name size mk loader sopts opts <<EOS
$spec
EOS
	img=$KWORK/$name.img
	if [ "$mk" = ours ]; then
		# shellcheck disable=SC2086
		kt_mkfs "$img" "$size" $opts || continue
	else
		rm -f "$img"
		truncate -s "$size" "$img"
		# shellcheck disable=SC2086
		"$REF_MKFS" -f -q $opts "$img" > "$KWORK/$name.mkfs.log" 2>&1 ||
			{ kt_bad "$name: f2fs-tools' mkfs.f2fs $opts failed"; continue; }
	fi
	if [ "$loader" = ours ]; then
		load=$OUR_SLOAD
	else
		load=$SLOAD_ORACLE
	fi
	# shellcheck disable=SC2086
	if ! "$load" -d 1 $sopts -f "$src" "$img" > "$KWORK/$name.sload.log" 2>&1; then
		kt_bad "$name: $load $sopts failed: $(tail -n 2 "$KWORK/$name.sload.log")"
		continue
	fi
	kt_fsck "$img" "$name"
	before=$(md5sum < "$img")
	"$OUR_FSCK" -y "$img" > "$KWORK/$name.y.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ "$(md5sum < "$img")" != "$before" ]; then
		kt_bad "$name: our fsck -y: exit $rc or the image changed: $(head -n 3 "$KWORK/$name.y.log")"
	fi
	case $sopts in
	*-c*) grep -q " 0 clusters" "$KWORK/$name.sload.log" &&
		kt_bad "$name: sload $sopts compressed nothing: $(tail -n 2 "$KWORK/$name.sload.log")" ;;
	esac
	disks="$disks $name=$img"
done
if [ -n "$disks" ]; then
	# shellcheck disable=SC2086
	kt_guest readonly -t 300 -A "Allow to mount readonly mode only" "$KSRC/guest/readonly.sh" $disks ||
		kt_bad "guest run failed (verdict $KT_GUEST_RC)"
fi
rm -rf "$src" "$KWORK"/*.img
kt_end
