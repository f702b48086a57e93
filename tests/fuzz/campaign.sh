#!/bin/sh
# tests/fuzz/campaign.sh: the long fuzz campaign (not run by make check).
#
#   sh tests/fuzz/campaign.sh OUT_DIR [fuzz.py campaign options]
#
# Run from a build directory (or set top_builddir).  Defaults: every member
# with every operation 3 times, 2000 byte-flip cases, every block zeroed,
# every duplicate pair and truncation on every base, kernel-made images from
# the build directories' tests/kernel/images when there are any, and a
# kernel sample of 40 repaired and 40 corrupted-but-clean images (QEMU:
# tests/kernel/setup.sh).  Writes OUT_DIR/report.txt (per oracle and per
# problem code counts, every failure with its reproduction command),
# OUT_DIR/results.jsonl (one line per case) and OUT_DIR/failures/*/ (the
# corrupted and the repaired image of each failure).  Options, e.g.
# --seed N, --per-op N, --flips N, --jobs N, --kernel-sample 0, replace
# the defaults (see fuzz.py campaign --help).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
export top_srcdir top_builddir
[ $# -ge 1 ] || { echo "usage: campaign.sh OUT_DIR [options]" >&2; exit 16; }
out=$1
shift
exec python3 -B "$top_srcdir/tests/fuzz/fuzz.py" campaign --out "$out" --kernel-images \
	--kernel-sample 40 "$@"
