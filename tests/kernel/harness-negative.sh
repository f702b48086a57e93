#!/bin/sh
# Kernel interop, negative controls: the harness must be able to fail.
#  1. An image whose superblock magic is zeroed in both copies goes through
#     the mount scenario of mkfs-matrix.sh: the scenario must fail and the
#     kernel's complaint must be caught.
#  2. A scenario that exits 0 but logs an F2FS error: caught as a complaint.
#  3. A kernel crash: caught as a complaint and as a run without a verdict.
#  4. A scenario that hangs: caught as a timeout.
#  5. A boot that panics before the scenario starts (KTEST_SABOTAGE_BOOT
#     makes the first attempt boot without an init): retried once, with the
#     retry logged, and the second attempt's verdict (a pass, here of a
#     power-cut run on an attached image) is the run's.
#  6. Two such boots in a row: one retry only, then the failure counts.
# Each case passes only when run-guest.sh reports exactly the expected
# verdict bits (1 scenario failed, 2 kernel complained, 4 no verdict); no
# case but 5 and 6 may be retried.
. "$(dirname "$0")/kcommon.sh"

kt_begin harness-negative "negative controls: broken image, injected error, crash, hang"
# In the sanitizer build (ORACLES=0, tests/lib.sh) the controls, which
# judge the harness and not our tools, are left to the normal build; our
# mkfs still formats the two images they use.
if [ "$ORACLES" = 0 ]; then
	kt_mkfs "$KWORK/nomagic.img" 1G -l k-nomagic && kt_mkfs "$KWORK/boot.img" 64M -l k-boot &&
		kt_say "our mkfs made the two images of the controls"
	rm -f "$KWORK/nomagic.img" "$KWORK/boot.img"
	kt_say "sanitizer build (SANITIZER_BUILD=1): the harness's negative controls left to the normal build"
	kt_end
fi

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

# retries RUN N: the log of run RUN must report N boot retries.
retries() {
	cat "$KWORK/$1.log"
	n=$(grep -c 'RETRYING ONCE' "$KWORK/$1.log")
	[ "$n" -eq "$2" ] || kt_bad "$1: $n boot retries logged, expected $2"
}

kt_guest kmsg "$KSRC/guest/selftest-kmsg.sh" > "$KWORK/kmsg.log"
retries kmsg 0
expect "F2FS error line after exit 0" 2

kt_guest crash "$KSRC/guest/selftest-crash.sh" > "$KWORK/crash.log"
retries crash 0
expect "kernel crash" 6

kt_guest hang -t 25 "$KSRC/guest/selftest-hang.sh" > "$KWORK/hang.log"
retries hang 0
expect "hanging scenario" 4

img=$KWORK/boot.img
if kt_mkfs "$img" 64M -l k-boot; then
	KTEST_SABOTAGE_BOOT=1 kt_guest boot-once -r -t 60 -a cut "$KSRC/guest/selftest-boot.sh" \
		boot="$img" > "$KWORK/boot-once.log"
	retries boot-once 1
	expect "one boot failure, then a power-cut run" 0
	grep -q 'Kernel panic' "$KWORK/boot-once/attempt1/console.log.txt" ||
		kt_bad "boot-once: the first attempt did not panic at boot"
fi
rm -f "$img"
KTEST_SABOTAGE_BOOT=2 kt_guest boot-twice -t 60 "$KSRC/guest/selftest-boot.sh" > "$KWORK/boot-twice.log"
retries boot-twice 1
expect "two boot failures" 6
kt_end
