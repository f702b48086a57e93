#!/bin/sh
# Kernel interop, negative controls: the harness must be able to fail.
#  1. An image whose superblock magic is zeroed in both copies goes through
#     the mount scenario of mkfs-matrix.sh: the scenario must fail and the
#     kernel's complaint must be caught.
#  2. A scenario that exits 0 but logs an F2FS error: caught as a complaint.
#  3. A kernel crash: caught as a complaint and as a run without a verdict.
#  4. A scenario that hangs: caught as a timeout.
# Each case passes only when run-guest.sh reports exactly the expected
# verdict bits (1 scenario failed, 2 kernel complained, 4 no verdict).
. "$(dirname "$0")/kcommon.sh"

kt_begin harness-negative "negative controls: broken image, injected error, crash, hang"

# expect CASE WANT: the last kt_guest must have returned WANT.
expect() {
	if [ "$KT_GUEST_RC" -eq "$2" ]; then
		kt_say "$1: the harness reported failure $KT_GUEST_RC as expected"
	else
		kt_bad "$1: the harness reported $KT_GUEST_RC, expected $2"
	fi
}

img=$KWORK/nomagic.img
if kt_mkfs "$img" 1G -l k-nomagic; then
	# The superblock copies are at 1024 and 4096 + 1024; magic comes first.
	for off in 1024 5120; do
		dd if=/dev/zero of="$img" bs=1 seek=$off count=4 conv=notrunc 2> /dev/null
	done
	kt_guest nomagic -a "bad::" "$KSRC/guest/tree.sh" bad="$img"
	expect "zeroed superblock magic" 3
	grep -q 'F2FS-fs.*Magic Mismatch' "$KWORK/nomagic/complaints" ||
		kt_bad "zeroed superblock magic: no \"Magic Mismatch\" from the kernel"
fi
rm -f "$img"

kt_guest kmsg "$KSRC/guest/selftest-kmsg.sh"
expect "F2FS error line after exit 0" 2

kt_guest crash "$KSRC/guest/selftest-crash.sh"
expect "kernel crash" 6

kt_guest hang -t 25 "$KSRC/guest/selftest-hang.sh"
expect "hanging scenario" 4
kt_end
