#!/bin/sh
# Kernel interop: read-only images (mkfs.f2fs -O ro: no SSA, no reserved
# or overprovision space, two logs that the other four share segments
# with).  Our mkfs formats them (-s 1, and -s 4 with more features) and
# f2fs-tools' sload.f2fs fills them (the way read-only images are built;
# the kernel never writes one).  The kernel must refuse a read-write
# mount, mount read-only and read every file back; both fscks find the
# images clean, and our fsck -y writes nothing.
. "$(dirname "$0")/kcommon.sh"

kt_begin readonly "read-only images (-O ro) filled by f2fs-tools' sload: the kernel reads them"

SLOAD_ORACLE=${SLOAD_ORACLE:-$(command -v sload.f2fs || echo /usr/sbin/sload.f2fs)}
[ -x "$SLOAD_ORACLE" ] || kt_abort "f2fs-tools' sload.f2fs is missing: run $top_srcdir/tests/kernel/setup.sh"
[ -x "$OUR_FSCK" ] || kt_abort "$OUR_FSCK is not built"

src=$KWORK/src
mkdir -p "$src/d/e" "$src/many"
i=0
while [ $i -lt 40 ]; do
	head -c $((i * 1531 + 7)) /dev/urandom > "$src/many/f$i"
	i=$((i + 1))
done
head -c 5000000 /dev/urandom > "$src/d/e/big"
echo small > "$src/d/small"
ln -s ../many/f1 "$src/d/link"
(cd "$src" && find . -type f ! -name MANIFEST -exec md5sum {} + > MANIFEST) ||
	kt_abort "cannot write the manifest"

disks=
for spec in "ro1:512M:-O ro" "ro4:1G:-s 4 -O ro,extra_attr,inode_checksum,sb_checksum,lost_found"; do
	name=${spec%%:*}
	rest=${spec#*:}
	size=${rest%%:*}
	opts=${rest#*:}
	img=$KWORK/$name.img
	# shellcheck disable=SC2086
	kt_mkfs "$img" "$size" $opts || continue
	if ! "$SLOAD_ORACLE" -f "$src" "$img" > "$KWORK/$name.sload.log" 2>&1; then
		kt_bad "$name: f2fs-tools' sload.f2fs failed: $(tail -n 2 "$KWORK/$name.sload.log")"
		continue
	fi
	kt_fsck "$img" "$name"
	before=$(md5sum < "$img")
	"$OUR_FSCK" -y "$img" > "$KWORK/$name.y.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ "$(md5sum < "$img")" != "$before" ]; then
		kt_bad "$name: our fsck -y: exit $rc or the image changed: $(head -n 3 "$KWORK/$name.y.log")"
	fi
	disks="$disks $name=$img"
done
if [ -n "$disks" ]; then
	# shellcheck disable=SC2086
	kt_guest readonly -t 300 -A "Allow to mount readonly mode only" "$KSRC/guest/readonly.sh" $disks ||
		kt_bad "guest run failed (verdict $KT_GUEST_RC)"
fi
rm -rf "$src" "$KWORK"/*.img
kt_end
