# Guest scenario for the harness self-test: succeed, but leave an F2FS error
# line in the kernel log.  The runner must still report a failure.
echo "<3>F2FS-fs (vdc): harness self-test: injected inconsistency report" > /dev/kmsg
echo "exiting 0 after logging an F2FS error"
exit 0
