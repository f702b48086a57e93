# tests/mkfs: shell tests of mkfs.f2fs, checked with the f2fs-tools oracles.
# Each script runs as `$(SHELL) script` with top_srcdir/top_builddir set.
# MKFS_F2FS overrides the mkfs under test; REGENERATE=1 rewrites the
# layout goldens (tests/mkfs/golden/*.expect).
# (interop-matrix.sh is in Makefile.am's LONG_TESTS, which run first)
MKFS_TESTS = \
	tests/mkfs/refuse.sh \
	tests/mkfs/layout-golden.sh \
	tests/mkfs/blockdev.sh \
	tests/mkfs/multidev.sh \
	tests/mkfs/zoned.sh
TESTS += $(MKFS_TESTS)
EXTRA_DIST += $(MKFS_TESTS) tests/mkfs/common.sh \
	tests/mkfs/golden/default-1g.expect \
	tests/mkfs/golden/s128-8g.expect \
	tests/mkfs/golden/s7-2g.expect \
	tests/mkfs/golden/nat-bitmap-1g.expect \
	tests/mkfs/golden/features-1g.expect \
	tests/mkfs/golden/s128-1t.expect \
	tests/mkfs/golden/casefold-z4-64g.expect \
	tests/mkfs/golden/ro-1g.expect \
	tests/mkfs/golden/ro-s128-8g.expect
