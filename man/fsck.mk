# man/fsck.mk: man page of fsck.f2fs.  Its PROBLEM CODES section is made
# from the problem table (fsck.f2fs --list-problems) by
# man/fsck-problems.sh; tests/fsck/manpage.sh checks they agree.
dist_man_MANS += man/fsck.f2fs.8
EXTRA_DIST += man/fsck-problems.sh
