# man/fsck.mk: man page of fsck.f2fs
