# man/dump.mk: man page of dump.f2fs
dist_man_MANS += man/dump.f2fs.8
