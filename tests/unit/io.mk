# tests/unit/io.mk
