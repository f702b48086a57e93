# Guest scenario for the harness self-test of the boot retry: run with
# KTEST_SABOTAGE_BOOT set, the first boot panics before this scenario starts;
# the runner must boot again and take this run's verdict.  With the argument
# "cut" the scenario ends with a power cut (a run-guest.sh -r run).
. /lib/ktest.sh

echo "the scenario started"
[ "$1" = cut ] && kt_power_cut
exit 0
