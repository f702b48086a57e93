# tests/sload: sload.f2fs against both fscks and dump.f2fs -r (sload.sh,
# about 1 minute), the Linux kernel under QEMU (kernel.sh, one boot,
# about 3 minutes under TCG) and tar input against directory input
# (tar.sh, about 15 s of CPU).
# (sload.sh and kernel.sh are in Makefile.am's LONG_TESTS, which run first)
SLOAD_TESTS = tests/sload/tar.sh
TESTS += $(SLOAD_TESTS)
EXTRA_DIST += $(SLOAD_TESTS) tests/sload/gen-tree.sh tests/sload/manifest.c \
	tests/sload/guest-verify.sh
