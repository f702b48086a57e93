# man: manual pages.  make_f2fs shares mkfs.f2fs(8).
dist_man_MANS += man/mkfs.f2fs.8
include man/fsck.mk
include man/dump.mk
include man/inject.mk
include man/sload.mk
include man/undo.mk

install-data-hook: install-make-f2fs-man
install-make-f2fs-man:
	cd $(DESTDIR)$(man8dir) && rm -f make_f2fs.8 && $(LN_S) mkfs.f2fs.8 make_f2fs.8
