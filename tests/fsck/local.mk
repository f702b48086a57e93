# tests/fsck: tests of fsck.f2fs.  The problem table's unit test, then
# shell tests run as `$(SHELL) script` with top_srcdir/top_builddir set:
# command line and exit codes, the output contract (one JSON document,
# operational errors, exclusive modes, no prompt), preen and its fast path,
# util-linux fsck(8) driving ours, clean controls, the table-driven corruption
# cases (each with f2fs-tools' verdict recorded), their repair (ours,
# f2fs-tools' and a second repair agree it is done; the whole output
# compared with the goldens in tests/fsck/expect), the problem table
# against the goldens (every code produced, every fixable one repaired:
# coverage.sh), a block device shorter than the volume, the repair cut after
# every write, undo files (undo.f2fs after a repair cut anywhere, mkfs
# over ext4), read errors (the read-fault hook), multi-device volumes, zoned volumes (emulated zone models),
# the kernel mounting repaired images (a
# power-cut one with its roll-forward chain kept), and man page agreement.
check_PROGRAMS += tests/fsck/test_problem_table
tests_fsck_test_problem_table_SOURCES = tests/fsck/test_problem_table.c fsck/fsck_problem.c
tests_fsck_test_problem_table_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit -I$(top_srcdir)/fsck
tests_fsck_test_problem_table_LDADD = $(UNIT_LDADD)
# (preen.sh, cases.sh, repair.sh, writecut.sh, undo.sh, zoned.sh and
# kernel-repair.sh are in Makefile.am's LONG_TESTS, which run first)
FSCK_TESTS = \
	tests/fsck/cli.sh \
	tests/fsck/output.sh \
	tests/fsck/fsck8.sh \
	tests/fsck/clean.sh \
	tests/fsck/coverage.sh \
	tests/fsck/readfault.sh \
	tests/fsck/blkdev.sh \
	tests/fsck/multidev.sh \
	tests/fsck/manpage.sh
TESTS += tests/fsck/test_problem_table $(FSCK_TESTS)
EXTRA_DIST += $(FSCK_TESTS) tests/fsck/common.sh tests/fsck/cases-lib.sh tests/fsck/cases.txt \
	tests/fsck/guest/repaired.sh tests/fsck/README tests/fsck/expect

# repair.sh leaves the images it repaired in tests/fsck/repaired (with a
# key naming the tools that made them) and kernel-repair.sh, run after it,
# mounts those instead of repairing every case a second time.
AM_TESTS_ENVIRONMENT += REPAIRED_SHARE='$(abs_top_builddir)/tests/fsck/repaired'; export REPAIRED_SHARE;
tests/fsck/kernel-repair.log: tests/fsck/repair.log
clean-local: clean-local-fsck
clean-local-fsck:
	-rm -rf tests/fsck/repaired
