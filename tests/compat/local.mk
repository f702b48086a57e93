# tests/compat: our tools driven the way others drive f2fs-tools'.  The
# fstests calls (common/f2fs, common/encrypt, tests/f2fs/*) replayed with
# the greps fstests applies, and the output and command-line habits
# scripts rely on, each against f2fs-tools 1.15 on the same images; and
# the real kernel (tests/kernel's QEMU harness) on a volume whose linear
# lookup our fsck turned off.
COMPAT_TESTS = \
	tests/compat/fstests-calls.sh \
	tests/compat/cli.sh \
	tests/compat/kernel-linear-lookup.sh
TESTS += $(COMPAT_TESTS)
EXTRA_DIST += $(COMPAT_TESTS) tests/compat/common.sh
