# dump/: dump.f2fs, the read-only viewer and extractor.  It shares no
# source with fsck.f2fs: everything both need is in lib/.  dump.h is the
# per-run context and the text/JSON output layer every view writes through.
sbin_PROGRAMS += dump/dump.f2fs
dump_dump_f2fs_SOURCES = dump/dump_main.c dump/dump_json.c dump/dump_super.c \
	dump/dump_sit.c dump/dump_sections.c dump/dump_zones.c dump/dump_ssa.c dump/dump_nat.c \
	dump/dump_natbits.c dump/dump_node.c dump/dump_fmap.c dump/dump_xattr.c \
	dump/dump_inode.c dump/dump_extract.c dump/dump_block.c dump/dump_scan.c dump/dump_compat.c \
	dump/dump.h
dump_dump_f2fs_LDADD = lib/libf2fs.a
