# fsck/dump.mk: dump.f2fs
