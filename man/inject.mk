# man/inject.mk: man page of inject.f2fs
dist_man_MANS += man/inject.f2fs.8
