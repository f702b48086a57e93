# Guest scenario of bench/fsck-bench.sh (run by tests/kernel/run-guest.sh):
# on image "files", N files in N/1000 directories d0, d1, ..., file fI of
# directory dD holding "D/I"; every 455th file (k % 455 == 454 counting
# from 0) is created and then deleted, so its nid is freed again: the
# workload of the kernel's NAT readahead patch.
# Usage: guest-populate.sh N
. /lib/ktest.sh
n=${1:-650000}
kt_mount files || exit 1
m=/mnt/files
d=0
k=0
t0=$(date +%s)
while [ $k -lt $n ]; do
	mkdir $m/d$d || kt_fail "mkdir d$d"
	i=0
	while [ $i -lt 1000 ] && [ $k -lt $n ]; do
		echo "$d/$i" > $m/d$d/f$i
		i=$((i + 1))
		k=$((k + 1))
	done
	d=$((d + 1))
done
sync
k=454
while [ $k -lt $n ]; do
	rm $m/d$((k / 1000))/f$((k % 1000)) || kt_fail "rm file $k"
	k=$((k + 455))
done
echo "populated $n files in $d directories in $(($(date +%s) - t0))s"
df -k $m | tail -n 1
kt_umount files
exit $KT_RC
