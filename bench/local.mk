# bench: benchmarks, run by hand (not by make check).
#   bench/fsck-bench.sh [path/to/fsck.f2fs]: ours against f2fs-tools'
#   fsck.f2fs --dry-run, cold and warm, wall time ratios and peak RSS.
#   bench/tools-bench.sh [BUILD_DIR]: mkfs and dump.f2fs against f2fs-tools.
#   bench/repair-nat.sh: repair of many leaked nids, batched vs single NAT reads.
#   bench/preen-bench.sh [path/to/fsck.f2fs]: boot-time -a against f2fs-tools' -a.
#   bench/zone-bench.sh [BUILD_DIR]: zone arithmetic at power-of-two and other
#   zone sizes, and mkfs -m of a 1 TiB emulated zoned device.
#   bench/sload-bench.sh [path/to/sload.f2fs]: sload.f2fs against f2fs-tools'.
EXTRA_DIST += bench/fsck-bench.sh bench/guest-populate.sh bench/io-floor.c \
	bench/tools-bench.sh bench/repair-nat.sh bench/preen-bench.sh bench/README \
	bench/zone-bench.sh bench/zone-arith.c bench/sload-bench.sh
