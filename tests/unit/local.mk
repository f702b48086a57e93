# tests/unit: unit tests of lib/.  Each part lists its tests in a fragment.
UNIT_LDADD = lib/libf2fs.a
include tests/unit/io.mk
include tests/unit/core.mk
include tests/unit/model.mk
noinst_HEADERS += tests/unit/unit.h
