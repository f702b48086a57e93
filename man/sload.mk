# man/sload.mk: man page of sload.f2fs (sload_f2fs shares it)
dist_man_MANS += man/sload.f2fs.8
