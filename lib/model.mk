# lib/model.mk: SIT and NAT models.
lib_libf2fs_a_SOURCES +=
