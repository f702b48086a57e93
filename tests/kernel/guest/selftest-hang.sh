# Guest scenario for the harness self-test: never finish.  The runner must
# report a timeout, not a pass.
echo "hanging"
while :; do
	sleep 60
done
