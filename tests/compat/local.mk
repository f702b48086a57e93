# tests/compat: our tools driven the way others drive f2fs-tools'.  The
# fstests calls (common/f2fs, common/encrypt, tests/f2fs/*) replayed with
# the greps fstests applies, and the output and command-line habits
# scripts rely on, each against f2fs-tools 1.15 on the same images.
COMPAT_TESTS = \
	tests/compat/fstests-calls.sh \
	tests/compat/cli.sh
TESTS += $(COMPAT_TESTS)
EXTRA_DIST += $(COMPAT_TESTS) tests/compat/common.sh
