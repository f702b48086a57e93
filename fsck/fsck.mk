# fsck/fsck.mk: fsck.f2fs, the checker (passes over one context) and its repair.
sbin_PROGRAMS += fsck/fsck.f2fs
fsck_fsck_f2fs_SOURCES = fsck/fsck_main.c fsck/fsck_preen.c fsck/fsck_report.c fsck/fsck_problem.c \
	fsck/fsck_util.c fsck/fsck_subdirs.c fsck/fsck_list.c fsck/fsck_pass_super.c fsck/fsck_pass_sit.c \
	fsck/fsck_pass_nat.c fsck/fsck_pass_nodes.c fsck/fsck_inode.c fsck/fsck_pass_dir.c \
	fsck/fsck_pass_rollfwd.c fsck/fsck_pass_ssa.c fsck/fsck_pass_verify.c fsck/fsck_pass_zone.c \
	fsck/fsck_fix.c fsck/fsck_shared.c fsck/fsck_alloc.c fsck/fsck_repair.c fsck/fsck_relocate.c fsck/fsck_lpf.c fsck/fsck_quota.c fsck/fsck_tune.c \
	fsck/fsck_pname.c fsck/fsck_digest.c fsck/fsck_prefetch.c fsck/fsck_recheck.c \
	fsck/fsck.h fsck/fsck_problem.h fsck/fsck_walk.h fsck/fsck_repair.h fsck/fsck_alloc.h fsck/fsck_recheck.h
fsck_fsck_f2fs_LDADD = lib/libf2fs.a
