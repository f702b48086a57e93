# tests/unit/model.mk: unit tests of the SIT and NAT models.
check_PROGRAMS += tests/unit/test_sit tests/unit/test_nat
TESTS += tests/unit/test_sit tests/unit/test_nat
tests_unit_test_sit_LDADD = $(UNIT_LDADD)
tests_unit_test_nat_LDADD = $(UNIT_LDADD)
