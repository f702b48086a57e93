"""fz_tools: the programs the fuzz campaign drives, and what it reads back.

Finds our tools in the build tree and f2fs-tools' as oracles, runs a program
under a time limit while watching its stderr for sanitizer reports, hashes an
image by content (holes and all-zero chunks skipped, so the hash is the one a
full read would give), tells whether a program wrote to an image (its mtime
is set to a sentinel before the run), and loads fsck.f2fs's problem table.
"""
import hashlib
import os
import re
import subprocess
import time

SANITIZER_RE = re.compile(r'runtime error|AddressSanitizer|LeakSanitizer|'
                          r'UndefinedBehaviorSanitizer')
PROBLEM_RE = re.compile(r'^F2FS-(\d{4}) (error|warning|info): (.*)$', re.M)
HASH_CHUNK = 1 << 16
# mtime given to an image before a program runs: any write moves it.
UNWRITTEN_NS = 1


class HardError(Exception):
    """A missing tool or an unusable set-up: the test cannot judge anything."""


class Tools:
    """Paths of the programs, from top_builddir and the environment."""

    def __init__(self, builddir, env=os.environ):
        self.builddir = os.path.abspath(builddir)
        self.fsck = env.get('FSCK_F2FS', os.path.join(self.builddir, 'fsck/fsck.f2fs'))
        self.inject = env.get('INJECT_F2FS', os.path.join(self.builddir, 'inject/inject.f2fs'))
        self.dump = env.get('DUMP_F2FS', os.path.join(self.builddir, 'dump/dump.f2fs'))
        self.mkfs = env.get('MKFS_F2FS', os.path.join(self.builddir, 'mkfs/mkfs.f2fs'))
        self.fsck_oracle = env.get('FSCK_ORACLE', '/usr/sbin/fsck.f2fs')
        self.mkfs_oracle = env.get('MKFS_ORACLE', '/usr/sbin/mkfs.f2fs')
        self.sload_oracle = env.get('SLOAD_ORACLE', '/usr/sbin/sload.f2fs')
        self.timeout = int(env.get('FUZZ_TIMEOUT', '60'))
        # f2fs-tools loops for a long time on some damaged images; its verdict
        # is then "not clean"
        self.oracle_timeout = int(env.get('FUZZ_ORACLE_TIMEOUT', '20'))
        # make check in a build configured with --enable-sanitizers sets
        # SANITIZER_BUILD=1 (Makefile.am): f2fs-tools' verdicts on the
        # cases, the same images as in the normal build, are left to it
        self.oracles = env.get('SANITIZER_BUILD', '0') != '1'

    def require(self):
        for path in (self.fsck, self.inject, self.dump, self.mkfs, self.fsck_oracle,
                     self.mkfs_oracle, self.sload_oracle):
            if not os.access(path, os.X_OK):
                raise HardError('%s is missing (build it, or apt-get install f2fs-tools '
                                'for the oracles)' % path)


class Run:
    """One finished program: exit code, output, and what went wrong with it."""

    def __init__(self, argv, rc, out, err, seconds, timed_out):
        self.argv = argv
        self.rc = rc
        self.out = out
        self.err = err
        self.seconds = seconds
        self.timed_out = timed_out
        match = SANITIZER_RE.search(err)
        self.sanitizer = err[max(0, match.start() - 40):match.end() + 160] if match else ''

    @property
    def crashed(self):
        """Killed by a signal (Python reports it as a negative code)."""
        return self.rc < 0 or self.rc >= 128

    def text(self):
        return self.out + self.err


def run(argv, timeout, cwd=None):
    """Run argv with stdin closed; never raises for the program's failures."""
    start = time.monotonic()
    try:
        proc = subprocess.run([a if isinstance(a, bytes) else str(a) for a in argv],
                              stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=timeout, cwd=cwd)
        return Run(argv, proc.returncode, proc.stdout.decode('utf-8', 'replace'),
                   proc.stderr.decode('utf-8', 'replace'), time.monotonic() - start, False)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b'').decode('utf-8', 'replace')
        err = (exc.stderr or b'').decode('utf-8', 'replace')
        return Run(argv, 124, out, err, time.monotonic() - start, True)


def content_hash(path):
    """SHA-1 of the image's content: every 64 KiB chunk that is not all zero,
    keyed by its offset.  Holes are skipped without reading them."""
    digest = hashlib.sha1()
    zero = bytes(HASH_CHUNK)
    size = os.path.getsize(path)
    digest.update(size.to_bytes(8, 'little'))
    with open(path, 'rb') as f:
        fd = f.fileno()
        pos = 0
        while pos < size:
            try:
                start = os.lseek(fd, pos, os.SEEK_DATA)
            except OSError:
                break
            end = os.lseek(fd, start, os.SEEK_HOLE)
            chunk = start - start % HASH_CHUNK
            while chunk < end:
                data = os.pread(fd, HASH_CHUNK, chunk)
                if data and data != zero[:len(data)]:
                    digest.update(chunk.to_bytes(8, 'little'))
                    digest.update(data)
                chunk += HASH_CHUNK
            pos = max(end, chunk)
    return digest.hexdigest()


def mark_unwritten(path):
    os.utime(path, ns=(UNWRITTEN_NS, UNWRITTEN_NS))


def was_written(path, size_before):
    st = os.stat(path)
    return st.st_mtime_ns != UNWRITTEN_NS or st.st_size != size_before


def copy_sparse(src, dst):
    proc = subprocess.run(['cp', '--sparse=always', src, dst], capture_output=True)
    if proc.returncode:
        raise HardError('cp %s %s: %s' % (src, dst, proc.stderr.decode().strip()))


def problems(text):
    """[(code, severity, message)] of the report lines in fsck output."""
    return [(int(m.group(1)), m.group(2), m.group(3)) for m in PROBLEM_RE.finditer(text)]


class ProblemTable:
    """fsck.f2fs --list-problems: code, name, severity, preen, fix, message."""

    def __init__(self, tools):
        r = run([tools.fsck, '--list-problems'], 30)
        if r.rc != 0 or not r.out.strip():
            raise HardError('fsck.f2fs --list-problems failed (exit %d)' % r.rc)
        self.rows = {}
        for line in r.out.splitlines():
            cols = line.split('\t')
            if len(cols) >= 6 and cols[0].isdigit():
                self.rows[int(cols[0])] = {'name': cols[1], 'severity': cols[2],
                                           'preen': cols[3], 'fix': cols[4]}
        if not self.rows:
            raise HardError('fsck.f2fs --list-problems printed no table')

    def name(self, code):
        return self.rows.get(code, {}).get('name', '?')

    def is_info(self, code):
        return self.rows.get(code, {}).get('severity') == 'info'

    def unfixable(self, code):
        return self.rows.get(code, {}).get('fix', '').startswith('none (not fixable)')

    def label(self, code):
        return 'F2FS-%04d %s' % (code, self.name(code))
