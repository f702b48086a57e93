# tests/dump: dump.f2fs tests (shell scripts; python3 helper for parsing).
# They need f2fs-tools (mkfs, dump, sload, fsck) as oracles and fail, not
# skip, when it is missing.
# (views.sh and hostile.sh are in Makefile.am's LONG_TESTS, which run first)
DUMP_TESTS = \
	tests/dump/sbcp-oracle.sh \
	tests/dump/extract.sh \
	tests/dump/zones.sh \
	tests/dump/speed.sh \
	tests/dump/json-names.sh \
	tests/dump/kernel-extract.sh
TESTS += $(DUMP_TESTS)
EXTRA_DIST += $(DUMP_TESTS) tests/dump/common.sh tests/dump/dumpcheck.py
