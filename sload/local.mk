# sload: sload.f2fs, also installed as sload_f2fs.
sbin_PROGRAMS += sload/sload.f2fs
sload_sload_f2fs_SOURCES = sload/sload_main.c sload/sload_tree.c sload/sload_node.c \
	sload/sload_inode.c sload/sload_dir.c sload/sload_config.c sload/sload_quota.c sload/sload_compress.c \
	sload/sload_tar.c sload/sload.h
sload_sload_f2fs_CFLAGS = $(AM_CFLAGS) $(SELINUX_CFLAGS)
sload_sload_f2fs_LDADD = lib/libf2fs.a $(SELINUX_LIBS)

install-exec-hook: install-sload-f2fs
install-sload-f2fs:
	cd $(DESTDIR)$(sbindir) && rm -f sload_f2fs && $(LN_S) sload.f2fs sload_f2fs
uninstall-hook: uninstall-sload-f2fs
uninstall-sload-f2fs:
	rm -f $(DESTDIR)$(sbindir)/sload_f2fs
