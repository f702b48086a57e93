# mkfs: mkfs.f2fs, also installed as make_f2fs.
sbin_PROGRAMS += mkfs/mkfs.f2fs
mkfs_mkfs_f2fs_SOURCES = mkfs/main.c mkfs/options.c mkfs/probe.c mkfs/format.c \
	mkfs/content.c mkfs/labels.c mkfs/zoned.c mkfs/mkfs.h
mkfs_mkfs_f2fs_CFLAGS = $(AM_CFLAGS) $(UUID_CFLAGS) $(BLKID_CFLAGS) $(SELINUX_CFLAGS)
mkfs_mkfs_f2fs_LDADD = lib/libf2fs.a $(UUID_LIBS) $(BLKID_LIBS) $(SELINUX_LIBS)

install-exec-hook: install-make-f2fs
install-make-f2fs:
	cd $(DESTDIR)$(sbindir) && rm -f make_f2fs && $(LN_S) mkfs.f2fs make_f2fs
uninstall-hook: uninstall-make-f2fs
uninstall-make-f2fs:
	rm -f $(DESTDIR)$(sbindir)/make_f2fs $(DESTDIR)$(man8dir)/make_f2fs.8
