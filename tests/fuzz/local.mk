# tests/fuzz: field x operation fuzzing of fsck.f2fs (tests/fuzz/README).
# make check runs the fixed-seed subset (check.sh); the long campaign
# (campaign.sh, with a kernel sample) is run by hand.
# (check.sh is in Makefile.am's LONG_TESTS, which run first)
EXTRA_DIST += tests/fuzz/README tests/fuzz/campaign.sh tests/fuzz/fuzz.py \
	tests/fuzz/fz_tools.py tests/fuzz/fz_bases.py tests/fuzz/fz_cases.py \
	tests/fuzz/fz_oracle.py tests/fuzz/fz_report.py tests/fuzz/fz_kernel.py \
	tests/fuzz/guest/read-all.sh tests/fuzz/known-failures
