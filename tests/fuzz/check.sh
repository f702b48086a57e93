#!/bin/sh
# tests/fuzz/check.sh: the fixed-seed fuzz subset (tests/fuzz/README).
#
# Every member inject.f2fs knows, with two of the operations zero, ones,
# +1, -1, random and bit flip each (rotating, so every operation is used),
# plus byte flips, zeroed and duplicated blocks in every metadata area and
# in node and dentry blocks, and truncations, on the base images of
# tests/fuzz/fz_bases.py.  Each case must pass every oracle of
# tests/fuzz/fz_oracle.py (no crash, hang or sanitizer report; the check
# never writes; the repair rule; f2fs-tools clean after a clean repair).  A
# failure prints the case, the corruption, what went wrong and the command
# that reproduces it.  Missing tools are a hard error (exit 99).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
export top_srcdir top_builddir
command -v python3 > /dev/null || { echo "ERROR: fuzz: python3 not found" >&2; exit 99; }
exec python3 -B "$top_srcdir/tests/fuzz/fuzz.py" check
