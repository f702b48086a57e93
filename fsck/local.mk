# fsck/: fsck.f2fs, dump.f2fs and inject.f2fs, each listing its own files
# in a fragment.
include fsck/fsck.mk
include fsck/dump.mk
include fsck/inject.mk
