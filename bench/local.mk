# bench: benchmarks, run by hand (not by make check).
#   bench/fsck-bench.sh [path/to/fsck.f2fs]: ours against f2fs-tools'
#   fsck.f2fs --dry-run, cold and warm, wall time ratios and peak RSS.
#   bench/tools-bench.sh [BUILD_DIR]: mkfs and dump.f2fs against f2fs-tools.
#   bench/repair-nat.sh [BUILD_DIR]: the NAT blocks a repair of many leaked
#   nids rewrites, read batched vs one at a time (bench/nat-read, built here).
#   bench/preen-bench.sh [path/to/fsck.f2fs]: boot-time -a against f2fs-tools' -a.
#   bench/zone-bench.sh [BUILD_DIR]: zone arithmetic at power-of-two and other
#   zone sizes, and mkfs -m of a 1 TiB emulated zoned device.
#   bench/sload-bench.sh [path/to/sload.f2fs]: sload.f2fs against f2fs-tools'.
#   bench/tar-gen.c: the fsck benchmark's tree as a tar stream (sload --tar -).
#   bench/quadratic-bench.sh [BUILD_DIR]: a directory of 25,000 and 50,000
#   dentry blocks, and 5,000 and 10,000 recorded fixes (time linear in size).
#   bench/layouts-bench.sh [BUILD_DIR]: ours against f2fs-tools on six layouts
#   (one aged by the kernel: bench/guest-age.sh) at -s 1 and -s 128.
noinst_PROGRAMS += bench/nat-read
bench_nat_read_SOURCES = bench/nat-read.c
bench_nat_read_LDADD = lib/libf2fs.a
EXTRA_DIST += bench/fsck-bench.sh bench/guest-populate.sh bench/io-floor.c \
	bench/tools-bench.sh bench/repair-nat.sh bench/preen-bench.sh bench/README \
	bench/zone-bench.sh bench/zone-arith.c bench/sload-bench.sh \
	bench/quadratic-bench.sh bench/layouts-bench.sh bench/guest-age.sh \
	bench/tar-gen.c
