# fsck/fsck.mk: fsck.f2fs, the read-only checker (passes over one context).
sbin_PROGRAMS += fsck/fsck.f2fs
fsck_fsck_f2fs_SOURCES = fsck/fsck_main.c fsck/fsck_report.c fsck/fsck_problem.c \
	fsck/fsck_util.c fsck/fsck_list.c fsck/fsck_pass_super.c fsck/fsck_pass_sit.c \
	fsck/fsck_pass_nat.c fsck/fsck_pass_nodes.c fsck/fsck_inode.c fsck/fsck_pass_dir.c \
	fsck/fsck_pass_rollfwd.c fsck/fsck_pass_ssa.c fsck/fsck_pass_verify.c \
	fsck/fsck.h fsck/fsck_problem.h fsck/fsck_walk.h
fsck_fsck_f2fs_LDADD = lib/libf2fs.a
