# man/dump.mk: man page of dump.f2fs
