"""fz_oracle: run one fuzz case and judge it.

The case's image is a copy of its base with the corruption applied.  Then:

  fsck.f2fs -n            the check: exit 0, 4 or 8, never a write
  fsck.f2fs --dry-run     f2fs-tools' verdict on the corrupted image (noted)
  fsck.f2fs -y --dry-run  never a write
  fsck.f2fs -y            the repair
  fsck.f2fs -n            after it
  fsck.f2fs -y            again: writes nothing
  fsck.f2fs --dry-run     f2fs-tools, when ours is clean after the repair

and every run of ours must end without a crash, a hang (FUZZ_TIMEOUT) or a
sanitizer report.  The repair rule: exit 1 (0 when nothing was wrong) and
our check clean after it, or exit 4 and every problem left is one the
problem table marks unfixable; a second repair writes nothing; exit 8 only
when the check also found the volume unusable and nothing was written.  A
case whose corruption changed nothing must check clean.  Writes are seen
through the image's mtime (set to a sentinel before each run) and judged
by content hash.
"""
import os
import re
import time

from fz_cases import NotApplicable, apply_case, spec_text
from fz_tools import content_hash, copy_sparse, mark_unwritten, problems, run, was_written

ORACLES = (
    ('crash', 'our tool died on a signal'),
    ('hang', 'our tool ran past the time limit'),
    ('sanitizer', 'ASan/UBSan reported'),
    ('check-wrote', 'fsck -n (or -y --dry-run) wrote to the image'),
    ('check-exit', 'fsck -n exit code not 0, 4 or 8'),
    ('noop-not-clean', 'the corruption changed nothing, yet the check is not clean'),
    ('repair-exit', 'fsck -y exit code inconsistent with what it found or did'),
    ('exit8', 'exit 8 on a volume the check could open, or after writing'),
    ('repair-not-clean', 'fsck -y exit 0/1, but our check after it is not clean'),
    ('exit4-fixable', 'fsck -y exit 4 with a problem the table marks fixable left'),
    ('second-repair-wrote', 'a second fsck -y changed the image'),
    ('second-repair-exit', 'a second fsck -y after a full repair did not exit 0'),
    ('tools-after', 'ours clean after the repair, f2fs-tools --dry-run is not'),
    ('not-applicable', 'make check only: the corruption could not be made'),
)
ORACLE_NAMES = tuple(name for name, _ in ORACLES)
CP_UMOUNT_FLAG = 0x1
CP_FASTBOOT_FLAG = 0x20


class Outcome:
    """What one case did and which oracles it failed."""

    def __init__(self, spec):
        self.spec = spec_text(spec)
        self.kind = spec['kind']
        self.base = spec['base']
        self.member = spec.get('mb', spec['kind'])
        self.op = spec.get('op', spec['kind'])
        self.status = 'ok'
        self.change = ''
        self.failures = []
        self.codes_before = []
        self.codes_after = []
        self.rc = {}
        self.tools_before = None
        self.tools_after = None
        self.seconds = 0.0
        self.saved = []

    def fail(self, oracle, detail):
        assert oracle in ORACLE_NAMES, oracle
        self.failures.append((oracle, detail.strip()))
        self.status = 'fail'

    @classmethod
    def from_json(cls, data):
        from fz_cases import parse_spec
        out = cls(parse_spec(data['spec']))
        for key in ('status', 'change', 'codes_before', 'codes_after', 'rc', 'tools_before',
                    'tools_after', 'seconds', 'saved'):
            setattr(out, key, data.get(key))
        out.failures = [tuple(f) for f in data.get('failures', [])]
        return out

    def to_json(self):
        return {'spec': self.spec, 'status': self.status, 'change': self.change,
                'failures': self.failures, 'codes_before': self.codes_before,
                'codes_after': self.codes_after, 'rc': self.rc,
                'tools_before': self.tools_before, 'tools_after': self.tools_after,
                'seconds': round(self.seconds, 3), 'saved': self.saved}


def lines(text, n=3):
    kept = [l for l in text.splitlines() if l.strip()]
    return ' | '.join(kept[:n])


class CaseRunner:
    """Runs cases in one scratch directory (one per worker)."""

    def __init__(self, tools, table, bases, targets, base_hash, workdir, save_dir=None):
        self.tools = tools
        self.table = table
        self.bases = bases            # name -> image path
        self.targets = targets        # name -> resolved targets
        self.base_hash = base_hash    # name -> content hash
        self.workdir = workdir
        self.save_dir = save_dir
        self.width_cache = {}
        os.makedirs(workdir, exist_ok=True)

    def ours(self, out, img, args, label):
        mark_unwritten(img)
        size = os.path.getsize(img)
        r = run([self.tools.fsck] + args + [img], self.tools.timeout)
        r.wrote = was_written(img, size)
        if r.timed_out:
            out.fail('hang', 'fsck.f2fs %s: no exit after %ds' % (label, self.tools.timeout))
        elif r.crashed:
            out.fail('crash', 'fsck.f2fs %s: exit %d: %s' % (label, r.rc, lines(r.err)))
        if r.sanitizer:
            out.fail('sanitizer', 'fsck.f2fs %s: %s' % (label, r.sanitizer))
        return r

    def oracle(self, img):
        r = run([self.tools.fsck_oracle, '--dry-run', img], self.tools.oracle_timeout)
        text = r.text().replace('\r', '\n')
        bad = [l.strip() for l in text.splitlines()
               if re.search(r'\[Fail\]|ASSERT|\[FIX\]|[Ee]rror', l)]
        return r.rc, bad

    def free_segments_only_low(self, img, bad):
        """f2fs-tools' only complaint is a checkpoint free_segment_count
        below the free segments the SIT leaves.  The kernel never reads
        that count (do_checkpoint() writes it, mount rebuilds the free map
        from the SIT): a lower count changes nothing, and ours reports
        only a count above the free segments (tests/fuzz/README)."""
        counts = [re.search(r'free segment_count matched with CP\s+\[Fail\] \[0x([0-9a-f]+)\]', l)
                  for l in bad]
        if not bad or not all(counts):
            return False
        r = run([self.tools.fsck, '-l', img], self.tools.timeout)
        m = re.search(r'^free_segment_count:\s*(\d+)', r.out, re.M)
        return bool(m) and int(m.group(1)) < int(counts[0].group(1), 16)

    def fastboot_summaries_misread(self, img):
        """The pack says CP_FASTBOOT_FLAG without CP_UMOUNT_FLAG (what a
        checkpoint of a volume mounted -o fastboot leaves when the power
        goes before the unmount).  The kernel then reads the summaries of
        every log from the pack (__exist_node_summaries() in f2fs.h takes
        either flag; read_normal_summaries() in segment.c), f2fs-tools 1.15
        only when CP_UMOUNT_FLAG is set (its read_normal_summaries() in
        fsck/mount.c), so it reads the data logs' summaries three blocks
        off.  The exception holds only when f2fs-tools finds a copy with
        CP_UMOUNT_FLAG added, which it reads the kernel's way, clean."""
        r = run([self.tools.fsck, '-l', img], self.tools.timeout)
        m = re.search(r'^ckpt_flags:\s*(\d+)', r.out, re.M)
        if not m:
            return False
        flags = int(m.group(1))
        if not flags & CP_FASTBOOT_FLAG or flags & CP_UMOUNT_FLAG:
            return False
        copy = img + '.umount'
        try:
            copy_sparse(img, copy)
            r = run([self.tools.inject, '--cp', '0', '--mb', 'ckpt_flags', '--val',
                     str(flags | CP_UMOUNT_FLAG), copy], self.tools.timeout)
            return r.rc == 0 and self.oracle(copy)[0] == 0
        finally:
            if os.path.exists(copy):
                os.unlink(copy)

    def make(self, spec, img):
        copy_sparse(self.bases[spec['base']], img)
        return apply_case(self.tools, img, spec, self.targets[spec['base']], self.width_cache)

    def run_case(self, spec):
        out = Outcome(spec)
        start = time.monotonic()
        img = os.path.join(self.workdir, 'case.img')
        try:
            out.change = self.make(spec, img)
        except NotApplicable as exc:
            out.status = 'na'
            out.change = str(exc)
            return out
        self.judge(out, img)
        out.seconds = time.monotonic() - start
        if out.status == 'fail' and self.save_dir:
            self.save(out, spec, img)
        return out

    def judge(self, out, img):
        h0 = content_hash(img)
        noop = h0 == self.base_hash[out.base]
        check = self.ours(out, img, ['-n'], '-n')
        out.rc['check'] = check.rc
        out.codes_before = [c for c, _sev, _msg in problems(check.out)]
        if check.wrote and content_hash(img) != h0:
            out.fail('check-wrote', 'fsck.f2fs -n changed the image')
            return
        if check.rc not in (0, 4, 8):
            out.fail('check-exit', 'fsck.f2fs -n exit %d: %s' % (check.rc, lines(check.err)))
        if noop:
            out.status = 'noop' if not out.failures else out.status
            if check.rc != 0:
                out.fail('noop-not-clean', 'the image equals its base, yet -n exit %d: %s' %
                         (check.rc, lines(check.out)))
            return
        if self.tools.oracles:
            out.tools_before = self.oracle(img)[0]
        dry = self.ours(out, img, ['-y', '--dry-run'], '-y --dry-run')
        if dry.wrote and content_hash(img) != h0:
            out.fail('check-wrote', 'fsck.f2fs -y --dry-run changed the image')
            return
        rep = self.ours(out, img, ['-y'], '-y')
        out.rc['repair'] = rep.rc
        h1 = content_hash(img) if rep.wrote else h0
        after = self.ours(out, img, ['-n'], '-n after -y')
        out.rc['after'] = after.rc
        out.codes_after = [c for c, _sev, _msg in problems(after.out)]
        if after.wrote and content_hash(img) != h1:
            out.fail('check-wrote', 'fsck.f2fs -n after the repair changed the image')
        self.judge_repair(out, check, rep, after, h0, h1)
        if rep.rc in (0, 1, 4):
            again = self.ours(out, img, ['-y'], 'second -y')
            out.rc['second'] = again.rc
            if again.wrote and content_hash(img) != h1:
                out.fail('second-repair-wrote', 'exit %d: %s' % (again.rc, lines(again.out)))
            elif rep.rc in (0, 1) and after.rc == 0 and again.rc != 0:
                out.fail('second-repair-exit', 'exit %d: %s' % (again.rc, lines(again.out)))
        if rep.rc in (0, 1) and after.rc == 0 and self.tools.oracles:
            rc, bad = self.oracle(img)
            out.tools_after = rc
            if rc != 0 and not self.free_segments_only_low(img, bad) and \
                    not self.fastboot_summaries_misread(img):
                out.fail('tools-after', 'f2fs-tools --dry-run exit %d: %s' %
                         (rc, ' | '.join(bad[:3])))

    def judge_repair(self, out, check, rep, after, h0, h1):
        table = self.table
        remaining = [c for c in out.codes_after if not table.is_info(c)]
        wrote = h1 != h0
        if rep.rc not in (0, 1, 4, 8):
            if rep.rc < 124:
                out.fail('repair-exit', 'fsck.f2fs -y exit %d: %s' % (rep.rc, lines(rep.err)))
            return
        if rep.rc == 8:
            if wrote:
                out.fail('exit8', 'exit 8 after writing to the image: %s' % lines(rep.err))
            elif check.rc != 8:
                out.fail('exit8', 'the check opened the volume (exit %d), the repair stopped '
                         'with exit 8: %s' % (check.rc, lines(rep.err + rep.out)))
            return
        found = [c for c in out.codes_before if not table.is_info(c)]
        if rep.rc in (0, 1):
            if after.rc != 0:
                out.fail('repair-not-clean', 'fsck -y exit %d, then -n exit %d: %s' %
                         (rep.rc, after.rc, lines(after.out)))
            if rep.rc == 0 and wrote:
                out.fail('repair-exit', 'fsck -y exit 0 after writing (expected exit 1)')
            if rep.rc == 0 and found:
                out.fail('repair-exit', 'the check found %s, fsck -y exit 0' %
                         ' '.join(map(str, sorted(set(found)))))
            if check.rc == 0 and not out.codes_before and wrote:
                out.fail('repair-exit', 'the check reported nothing, fsck -y wrote')
            return
        fixable = sorted({c for c in remaining if not table.unfixable(c)})
        if fixable:
            out.fail('exit4-fixable', 'left: %s' % ', '.join(table.label(c) for c in fixable))
        elif not remaining:
            out.fail('repair-exit', 'fsck -y exit 4, but the check after it finds nothing '
                     '(exit %d)' % after.rc)

    def save(self, out, spec, img):
        """Keep the corrupted image (made again) and the repaired one."""
        name = re.sub(r'[^A-Za-z0-9_.-]+', '_', out.spec)[:120]
        d = os.path.join(self.save_dir, name)
        os.makedirs(d, exist_ok=True)
        repaired = os.path.join(d, 'repaired.img')
        copy_sparse(img, repaired)
        corrupt = os.path.join(d, 'corrupt.img')
        try:
            self.make(spec, corrupt)
        except NotApplicable:
            pass
        with open(os.path.join(d, 'spec'), 'w') as f:
            f.write(out.spec + '\n')
        out.saved = [corrupt, repaired]
