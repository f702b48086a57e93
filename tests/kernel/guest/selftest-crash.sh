# Guest scenario for the harness self-test: crash the kernel.  The runner
# must report the panic and the missing result.
echo "crashing the kernel"
echo c > /proc/sysrq-trigger
sleep 30
