# tests/inject: tests of inject.f2fs.  Each script makes clean images with
# our mkfs.f2fs (and f2fs-tools' sload.f2fs for files), injects, and checks
# the bytes changed, the checksums, and what f2fs-tools' fsck/dump see.
INJECT_TESTS = \
	tests/inject/sb.sh \
	tests/inject/cp.sh \
	tests/inject/nat_sit.sh \
	tests/inject/ssa.sh \
	tests/inject/node.sh \
	tests/inject/dent.sh \
	tests/inject/manpage.sh
TESTS += $(INJECT_TESTS)
EXTRA_DIST += $(INJECT_TESTS) tests/inject/common.sh
