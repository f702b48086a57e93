# tests/unit/model.mk: unit tests of the SIT and NAT models (in memory, and
# loading/flushing on images made by mkfs.f2fs).
check_PROGRAMS += tests/unit/test_sit tests/unit/test_nat \
	tests/unit/test_sit_load tests/unit/test_nat_load
TESTS += tests/unit/test_sit tests/unit/test_nat \
	tests/unit/test_sit_load tests/unit/test_nat_load
tests_unit_test_sit_LDADD = $(UNIT_LDADD)
tests_unit_test_nat_LDADD = $(UNIT_LDADD)
tests_unit_test_sit_load_LDADD = $(UNIT_LDADD)
tests_unit_test_nat_load_LDADD = $(UNIT_LDADD)
