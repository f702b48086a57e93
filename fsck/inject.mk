# fsck/inject.mk: inject.f2fs
