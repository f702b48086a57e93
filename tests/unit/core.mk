# tests/unit/core.mk: layout, superblock/checkpoint validation, mount.
check_PROGRAMS += tests/unit/test_layout tests/unit/test_mount tests/unit/test_sb_derive
TESTS += tests/unit/test_layout tests/unit/test_mount tests/unit/test_sb_derive
tests_unit_test_layout_LDADD = $(UNIT_LDADD)
tests_unit_test_mount_LDADD = $(UNIT_LDADD)
tests_unit_test_sb_derive_LDADD = $(UNIT_LDADD)
# test_mount formats images with our mkfs (built by 'all' before 'check').
check_PROGRAMS += tests/unit/test_commit
TESTS += tests/unit/test_commit
tests_unit_test_commit_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_compress
TESTS += tests/unit/test_compress
tests_unit_test_compress_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_quota
TESTS += tests/unit/test_quota
tests_unit_test_quota_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_json
TESTS += tests/unit/test_json
tests_unit_test_json_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_array
TESTS += tests/unit/test_array
tests_unit_test_array_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_workers
TESTS += tests/unit/test_workers
tests_unit_test_workers_LDADD = $(UNIT_LDADD)
check_PROGRAMS += tests/unit/test_warm
TESTS += tests/unit/test_warm
tests_unit_test_warm_LDADD = $(UNIT_LDADD)
