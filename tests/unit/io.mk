# tests/unit/io.mk: unit tests of errors, checksums, the dentry hash, the
# casefold folding, the device layer, its undo files and test hooks, and
# the zone layer.
check_PROGRAMS += tests/unit/test_crc tests/unit/test_hash tests/unit/test_casefold \
	tests/unit/test_checksum tests/unit/test_device tests/unit/test_dev_mount tests/unit/test_zone \
	tests/unit/test_undo
TESTS += tests/unit/test_crc tests/unit/test_hash tests/unit/test_casefold \
	tests/unit/test_checksum tests/unit/test_device tests/unit/test_dev_mount tests/unit/test_zone \
	tests/unit/test_undo
tests_unit_test_crc_LDADD = $(UNIT_LDADD)
tests_unit_test_hash_LDADD = $(UNIT_LDADD)
tests_unit_test_casefold_LDADD = $(UNIT_LDADD)
tests_unit_test_checksum_LDADD = $(UNIT_LDADD)
tests_unit_test_device_LDADD = $(UNIT_LDADD)
# test_device makes the kernel refuse RWF_NOWAIT through its own preadv2()
tests_unit_test_device_LDFLAGS = $(AM_LDFLAGS) -Wl,--wrap=preadv2
tests_unit_test_dev_mount_LDADD = $(UNIT_LDADD)
tests_unit_test_zone_LDADD = $(UNIT_LDADD)
tests_unit_test_undo_LDADD = $(UNIT_LDADD)
