#!/bin/busybox sh
# /init of the test guest (busybox initramfs built by run-guest.sh).
#
# Disk layout given by the runner:
#   vda  control tar: run.sh (the scenario), args, disks ("name dev" lines)
#   vdb  output disk: receives a tar of /out (rc, dmesg, anything the
#        scenario puts there) when the scenario ends
#   vdc… the images under test, also reachable as /dev/img/<name>
# "KTEST-BOOTED" marks the end of the kernel's boot, "KTEST-SCENARIO" the
# start of the scenario.  The scenario's exit status is printed as
# "KTEST-RESULT: N" and stored in /out/rc; then the guest powers off.

/bin/busybox mkdir -p /proc /sys /dev /tmp /mnt /out /ctl
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
echo "KTEST-BOOTED"

while read -r mod; do
	insmod "/modules/$mod" || echo "KTEST-ERROR: insmod $mod failed"
done < /modules/order

# Now that boot is over, every kernel message goes to the console.
echo 8 > /proc/sys/kernel/printk

i=0
while [ ! -b /dev/vdb ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done

ktest_finish() {
	echo "$1" > /out/rc
	dmesg -r > /out/dmesg 2>/dev/null
	tar cf - -C /out . | dd of=/dev/vdb bs=64k conv=fsync 2>/dev/null
	echo "KTEST-RESULT: $1"
}

if ! tar xf /dev/vda -C /ctl 2>/dev/null || [ ! -f /ctl/run.sh ]; then
	echo "KTEST-ERROR: no scenario on the control disk"
	ktest_finish 125
	echo o > /proc/sysrq-trigger
	sleep 10
fi

mkdir -p /dev/img
while read -r name dev; do
	ln -s "$dev" "/dev/img/$name"
done < /ctl/disks

export KTEST_OUT=/out
cd /ctl || exit 1
# From here on the images may be written to: the runner retries a failed
# boot only when this marker never reached the console.
echo "KTEST-SCENARIO"
# shellcheck disable=SC2046
sh /ctl/run.sh $(cat /ctl/args) < /dev/null
ktest_finish $?
echo o > /proc/sysrq-trigger
sleep 10
