# tests/unit/core.mk
