# tests/unit/model.mk
