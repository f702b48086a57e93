# fsck/: fsck.f2fs, whose sources are listed in fsck/fsck.mk.  dump.f2fs
# and inject.f2fs live in dump/ and inject/.
include fsck/fsck.mk
