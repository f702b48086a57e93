# man/undo.mk: man page of undo.f2fs
dist_man_MANS += man/undo.f2fs.8
