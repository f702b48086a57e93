#!/bin/sh
# tests/dump/speed.sh: printing the superblock and checkpoint of a 1 TiB
# image reads only those blocks (no SIT or NAT load) and is fast; range
# views read only their range.  Reads are counted by dump.f2fs -d 2
# (device-layer statistics), which is exact.  The time is only reported:
# tests never assert on wall-clock time (bench/ measures it).
. "$(dirname "$0")/common.sh"
require_tools mkfs
setup_work

img=$WORK/tib.img
truncate -s 1T "$img"
"$MKFS" -q -f "$img" > "$WORK/mkfs.log" 2>&1 || hard_error "mkfs of a 1 TiB sparse image failed"

blocks_read() {	# blocks_read ARGS...: blocks read by a dump run
	"$DUMP" -d 2 "$@" "$img" 2>&1 >/dev/null |
		sed -n 's/^dump.f2fs: io: [0-9]* read calls, \([0-9]*\) blocks read$/\1/p'
}

base=$(blocks_read)
check "sb/cp on 1 TiB reads at most 32 blocks ($base)" test "${base:-999}" -le 32
n=$(blocks_read --sections=1000~1009)
check "--sections=1000~1009 reads 1 SIT block more ($n vs $base)" test "$n" -eq $((base + 1))
n=$(blocks_read -s 0~54)
check "-s 0~54 reads 1 SIT block more ($n vs $base)" test "$n" -eq $((base + 1))
n=$(blocks_read -n 0~454)
check "-n 0~454 reads both copies of 1 NAT block ($n vs $base)" test "$n" -eq $((base + 2))
n=$(blocks_read -a 100~103)
check "-a 100~103 reads 4 SSA blocks ($n vs $base)" test "$n" -eq $((base + 4))

best=$(python3 - "$DUMP" "$img" <<'PY'
import subprocess, sys, time
best = 1e9
for _ in range(7):
    t = time.perf_counter()
    subprocess.run([sys.argv[1], sys.argv[2]], stdout=subprocess.DEVNULL, check=True)
    best = min(best, time.perf_counter() - t)
print(int(best * 1000))
PY
)
echo "superblock + checkpoint of a 1 TiB image: best of 7 runs ${best} ms"
finish
