# lib/io.mk: errors, checksums, hash and the device layer.
lib_libf2fs_a_SOURCES += lib/errors.c lib/crc.c lib/hash.c lib/checksum.c \
	lib/device.c lib/device_stream.c lib/devset.c lib/devcut.c lib/undo.c lib/layer.c lib/layer_dryrun.c \
	lib/layer_fault.c lib/zone.c lib/uring.c lib/uring.h lib/device_own.h lib/casefold.c lib/casefold_tables.c \
	lib/casefold_tables.h
