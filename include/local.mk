# include: public headers of lib/ and the on-disk format.
noinst_HEADERS += include/f2fs_fs.h include/f2fs_err.h include/f2fs_crc.h include/f2fs_casefold.h \
	include/f2fs_dev.h include/f2fs_undo.h include/f2fs_zone.h include/f2fs_layout.h include/f2fs_mount.h \
	include/f2fs_sit.h include/f2fs_nat.h
