# Guest scenario of bench/layouts-bench.sh (run by tests/kernel/run-guest.sh):
# an aged volume on image "files".  N files spread over N/1000
# directories, created in a scrambled order (file j = k * 7919 mod N for
# the k-th creation: consecutive inode numbers land in different
# directories), 1 in 50 holding 8 KiB, the rest a few bytes (inline).
# Then ROUNDS rounds, each deleting a scrambled third of the files,
# appending to another scrambled tenth (their node blocks move), and
# creating the deleted ones again in another order, 1 in 7 of them with
# 12 KiB: nids are reused out of order, node and dentry blocks are
# scattered and sections are left partly valid.
# Usage: guest-age.sh N [ROUNDS]
. /lib/ktest.sh
n=${1:-100000}
rounds=${2:-3}
kt_mount files || exit 1
m=/mnt/files
head -c 12288 /dev/urandom >/tmp/blk12
head -c 8192 /tmp/blk12 >/tmp/blk8
t0=$(date +%s)
d=0
while [ $((d * 1000)) -lt $n ]; do
	mkdir $m/d$d || kt_fail "mkdir d$d"
	d=$((d + 1))
done
# name J: the path of file j
k=0
while [ $k -lt $n ]; do
	j=$(((k * 7919) % n))
	if [ $((j % 50)) -eq 0 ]; then
		cp /tmp/blk8 $m/d$((j / 1000))/f$j
	else
		echo "$j" >$m/d$((j / 1000))/f$j
	fi
	k=$((k + 1))
done
sync
r=1
while [ $r -le $rounds ]; do
	p=$((7919 + 2 * r * 1009))	# another odd stride each round
	third=$((n / 3))
	k=0
	while [ $k -lt $third ]; do
		j=$(((k * p + r * 131) % n))
		rm -f $m/d$((j / 1000))/f$j
		k=$((k + 1))
	done
	k=0
	while [ $k -lt $((n / 10)) ]; do
		j=$(((k * 104729 + r * 17) % n))
		[ -f $m/d$((j / 1000))/f$j ] && echo "round $r" >>$m/d$((j / 1000))/f$j
		k=$((k + 1))
	done
	k=$((third - 1))
	while [ $k -ge 0 ]; do
		j=$(((k * p + r * 131) % n))
		if [ $(((j + r) % 7)) -eq 0 ]; then
			cp /tmp/blk12 $m/d$((j / 1000))/f$j
		else
			echo "$j $r" >$m/d$((j / 1000))/f$j
		fi
		k=$((k - 1))
	done
	sync
	r=$((r + 1))
done
echo "aged $n files in $d directories over $rounds rounds in $(($(date +%s) - t0))s"
df -k $m | tail -n 1
kt_umount files
exit $KT_RC
