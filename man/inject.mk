# man/inject.mk: man page of inject.f2fs
