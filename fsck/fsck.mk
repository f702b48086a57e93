# fsck/fsck.mk: fsck.f2fs
