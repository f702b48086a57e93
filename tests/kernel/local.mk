# tests/kernel: the real Linux F2FS driver as an oracle.  Debian's kernel is
# booted under QEMU (see run-guest.sh); tests/kernel/setup.sh installs what it
# needs.  Each test is `$(SHELL) script`; a missing tool or mkfs fails, never
# skips.  MKFS_F2FS overrides the mkfs under test.  Kernel-made images are
# left in tests/kernel/images/ (see its index) for the fsck and dump tests.
# (mkfs-matrix.sh, power-cut.sh, fill-gc.sh, inode-types.sh, zoned.sh and
# harness-negative.sh are in Makefile.am's LONG_TESTS, which run first)
KERNEL_TESTS = \
	tests/kernel/mount-options.sh \
	tests/kernel/multidev.sh \
	tests/kernel/casefold.sh \
	tests/kernel/readonly.sh \
	tests/kernel/fstests-ops.sh \
	tests/kernel/lfs-recovery.sh
TESTS += $(KERNEL_TESTS)
EXTRA_DIST += $(KERNEL_TESTS) \
	tests/kernel/README \
	tests/kernel/setup.sh \
	tests/kernel/kcommon.sh \
	tests/kernel/run-guest.sh \
	tests/kernel/guest-init.sh \
	tests/kernel/guest-lib.sh \
	tests/kernel/ktool.c \
	tests/kernel/guest/tree.sh \
	tests/kernel/guest/mount-options.sh \
	tests/kernel/guest/power-cut-write.sh \
	tests/kernel/guest/power-cut-recover.sh \
	tests/kernel/guest/lfs-recovery.sh \
	tests/kernel/guest/fill-gc.sh \
	tests/kernel/guest/multidev.sh \
	tests/kernel/guest/casefold.sh \
	tests/kernel/guest/readonly.sh \
	tests/kernel/guest/fstests-ops.sh \
	tests/kernel/guest/inode-types.sh \
	tests/kernel/guest/zoned.sh \
	tests/kernel/guest/selftest-kmsg.sh \
	tests/kernel/guest/selftest-hang.sh \
	tests/kernel/guest/selftest-crash.sh \
	tests/kernel/guest/selftest-boot.sh

clean-local: clean-local-kernel
clean-local-kernel:
	-rm -rf tests/kernel/cache tests/kernel/work tests/kernel/images tests/kernel/static

# The fsck and dump tests also check the images the kernel scenarios leave
# behind, so under a parallel 'make check' they wait for those scenarios.
KERNEL_IMAGE_LOGS = tests/kernel/mkfs-matrix.log tests/kernel/power-cut.log \
	tests/kernel/fill-gc.log tests/kernel/inode-types.log tests/kernel/lfs-recovery.log
KERNEL_IMAGE_USERS = tests/fsck/clean.log tests/dump/sbcp-oracle.log \
	tests/dump/extract.log tests/dump/views.log tests/dump/kernel-extract.log
$(KERNEL_IMAGE_USERS): $(KERNEL_IMAGE_LOGS)

# Every test that boots the kernel under QEMU.  scripts/test runs them in
# its normal build only: the guest would see the same bytes from the
# sanitizer build's tools (its make check is given the rest, with
# KERNEL_IMAGE_LOGS emptied and KERNEL_IMAGES naming the images the normal
# build's kernel tests left, which its fsck and dump tests then check).
KERNEL_BOOT_TESTS = tests/kernel/mkfs-matrix.sh tests/kernel/power-cut.sh \
	tests/kernel/fill-gc.sh tests/kernel/inode-types.sh tests/kernel/zoned.sh \
	tests/kernel/harness-negative.sh $(KERNEL_TESTS) tests/sload/kernel.sh \
	tests/fsck/kernel-repair.sh tests/compat/kernel-linear-lookup.sh
print-boot-tests:
	@echo $(KERNEL_BOOT_TESTS)
.PHONY: print-boot-tests
