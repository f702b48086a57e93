# tests/sload: sload.f2fs against both fscks, dump.f2fs -r and (kernel.sh)
# the Linux kernel.
SLOAD_TESTS = tests/sload/sload.sh
TESTS += $(SLOAD_TESTS)
EXTRA_DIST += $(SLOAD_TESTS) tests/sload/gen-tree.sh tests/sload/manifest.c
