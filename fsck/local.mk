# fsck: automake fragment included from the top-level Makefile.am
