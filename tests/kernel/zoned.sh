#!/bin/sh
# Kernel interop on zoned block devices (one boot): null_blk zoned devices
# made through configfs (power-of-two zone sizes, zone capacity below the
# zone size and below one segment, with and without conventional zones,
# and the multi-device form with a regular first device) and a QEMU NVMe
# ZNS namespace.  Our mkfs -m (built static, run in the guest) and
# f2fs-tools' mkfs.f2fs -m format them; the kernel mounts, fills, syncs,
# deletes every other file, garbage-collects the partly valid full
# sections (blocks must move on every volume), refills, unmounts;
# f2fs-tools' fsck and ours (in the guest, against the live zones) must
# both be clean before and after.
# See tests/kernel/guest/zoned.sh for the steps of each case.
. "$(dirname "$0")/kcommon.sh"

kt_begin zoned "zoned devices: null_blk and ZNS, mkfs -m, workload through GC, fsck on live zones"
# The guest runs our tools from a static build without sanitizers (below),
# the same programs in every build of the tree: the sanitizer build
# (ORACLES=0, tests/lib.sh) leaves this test to the normal build.
if [ "$ORACLES" = 0 ]; then
	kt_say "sanitizer build (SANITIZER_BUILD=1): the guest would run the same static tools without sanitizers as in the normal build; left to it"
	kt_end
fi

# Our tools, linked static for the busybox guest, in a build directory of
# their own (optional libraries off).
static=$KBUILD/static
mkdir -p "$static" || kt_abort "cannot create $static"
if [ ! -f "$static/Makefile" ]; then
	(cd "$static" && "$top_srcdir/configure" -q --without-selinux --without-zstd --without-lzo \
		LDFLAGS=-static) > "$KWORK/static-configure.log" 2>&1 ||
		kt_abort "cannot configure the static build (see $KWORK/static-configure.log)"
fi
make -C "$static" mkfs/mkfs.f2fs fsck/fsck.f2fs dump/dump.f2fs inject/inject.f2fs > "$KWORK/static-make.log" 2>&1 ||
	kt_abort "cannot build the static tools (see $KWORK/static-make.log)"

# The tools disk: ours, and f2fs-tools' binaries with their libraries.
T=$KWORK/tools
mkdir -p "$T/ours" "$T/ref/bin" "$T/ref/lib" || kt_abort "cannot create $T"
cp "$static/mkfs/mkfs.f2fs" "$static/fsck/fsck.f2fs" "$static/dump/dump.f2fs" "$static/inject/inject.f2fs" \
	"$T/ours/" ||
	kt_abort "cannot copy the static tools"
ref_mkfs=$(command -v mkfs.f2fs || echo /usr/sbin/mkfs.f2fs)
for bin in "$ref_mkfs" "$REF_FSCK"; do
	cp "$bin" "$T/ref/bin/" || kt_abort "cannot copy $bin"
	for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		cp -L "$lib" "$T/ref/lib/" || kt_abort "cannot copy $lib"
	done
done
[ -f "$T/ref/lib/ld-linux-x86-64.so.2" ] || kt_abort "no ld-linux-x86-64.so.2 among f2fs-tools' libraries"
(cd "$T" && tar cf "$KWORK/tools.tar" ours ref) || kt_abort "cannot pack the tools"
rm -rf "$T"

# Disks: a regular first device for the multi-device cases and one ZNS
# namespace (16 MiB zones, 12 MiB capacity).
truncate -s 64M "$KWORK/reg1.img" "$KWORK/reg2.img" "$KWORK/reg3.img" || kt_abort "cannot create the regular disks"
truncate -s 256M "$KWORK/zns.img" || kt_abort "cannot create the ZNS backing file"

# NAME:MKFS:DEVICE[:REGULAR]  (see guest/zoned.sh)
# ours-small: a zone capacity below one segment (4 MiB zones of 1 MiB),
# with 768 KiB files so that deleting every other one leaves sections
# partly valid.
cases=${KTEST_ZONED_CASES:-"ours-cap:ours:nb,8,6,8,256,4096 damage:ours-cap crash:ours-cap ours-conv:ours:nb,8,8,6,192 ours-multi:ours:nb,4,4,0,192:reg1 damage:ours-multi crash:ours-multi ours-small:ours:nb,4,1,8,256::768 damage:ours-small ours-zns:ours:img=zns:reg2 ref-conv:ref:nb,16,12,4,256 ref-multi:ref:nb,4,4,0,160:reg3 damage:ref-multi"}
kt_guest zoned -t 900 -m 1200M -a "${KTEST_ZONED_KIB:-1024} $cases" \
	-z "zns=$KWORK/zns.img:16M:12M" \
	"$KSRC/guest/zoned.sh" tools="$KWORK/tools.tar" reg1="$KWORK/reg1.img" reg2="$KWORK/reg2.img" \
	reg3="$KWORK/reg3.img" ||
	kt_bad "guest run failed (verdict $KT_GUEST_RC)"
rm -f "$KWORK/reg1.img" "$KWORK/reg2.img" "$KWORK/reg3.img" "$KWORK/zns.img" "$KWORK/tools.tar"
kt_end
