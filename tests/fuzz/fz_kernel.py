"""fz_kernel: the campaign's kernel sample (tests/kernel's QEMU harness).

The Linux kernel mounts, in boots of at most FUZZ_KERNEL_DISKS (10) images:
our bases and the kernel-made ones the sample uses, unchanged (the control:
what each file holds before any damage, and proof that the kernel reads
the bases), a sample of images our repair left clean (spread over the kinds of
corruption), and a sample of corrupted images our check called clean (the
kernel must then agree).  tests/fuzz/guest/read-all.sh lists every file
with its content's MD5; here the lists are compared with the control's.

Failures: the kernel refuses to mount, complains (an F2FS error or warning,
an oops: the harness's rules, attributed to the image by its device name),
flags the volume as needing fsck, cannot write a new file, or a file the
repair kept reads back different from before the damage (unless the
kernel, mounting the damaged image unrepaired in a further boot, reads
exactly what the repair kept: the damage lost it, say a newest checkpoint
pack the kernel falls back from; listed for review).  Listed for
review: files the repair dropped (not in their place, and not found again
under /lost+found), whether they could have been kept depends on the
damage; and files that read differently from a corrupted image our check
called clean (damage to data, such as an inline symlink's target).
"""
import os
import random
import re
import subprocess

from fz_cases import NotApplicable
from fz_oracle import CaseRunner
from fz_tools import run

DISKS_PER_BOOT = int(os.environ.get('FUZZ_KERNEL_DISKS', '10'))


def read_sums(path):
    """{path: (type, digest)} or None when the mount failed or no list."""
    if not os.path.isfile(path):
        return None
    out = {}
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('MOUNT-FAILED'):
                return None
            parts = line.rstrip('\n').split(' ', 2)
            if len(parts) == 3:
                out[parts[2]] = (parts[0], parts[1])
    return out


def read_state(path):
    if not os.path.isfile(path):
        return set()
    with open(path) as f:
        return set(f.read().split())


def choose(outcomes, cases, n, seed):
    """Indexes of repaired images (spread over kinds) and of corrupted images
    our check found clean, n of each at most."""
    rng = random.Random(seed)
    repaired, missed = {}, []
    for i, out in enumerate(outcomes):
        if out.status != 'ok':
            continue
        if out.rc.get('repair') == 1 and out.rc.get('after') == 0:
            repaired.setdefault(out.kind, []).append(i)
        elif out.rc.get('check') == 0 and not out.codes_before:
            missed.append(i)
    picked = []
    pools = [rng.sample(v, len(v)) for _k, v in sorted(repaired.items())]
    while len(picked) < n and any(pools):
        for pool in pools:
            if pool and len(picked) < n:
                picked.append(pool.pop())
    return picked, rng.sample(missed, min(n, len(missed)))


def complaints_by_disk(run_dir):
    """{vdX: [lines]} from the harness's complaint list."""
    out = {}
    path = os.path.join(run_dir, 'complaints')
    if os.path.isfile(path):
        with open(path, errors='replace') as f:
            for line in f:
                m = re.search(r'\((vd[a-z]+)\)', line)
                out.setdefault(m.group(1) if m else '?', []).append(line.strip())
    return out


def boot(ctx, run_dir, disks):
    """One guest run over [(name, image)]; returns {name: vdX}."""
    argv = ['sh', os.path.join(ctx['srcdir'], 'tests/kernel/run-guest.sh'), '-n', 'fuzz',
            '-d', run_dir, '-t', os.environ.get('FUZZ_KERNEL_TIMEOUT', '3000'), '-m', '512M',
            os.path.join(ctx['srcdir'], 'tests/fuzz/guest/read-all.sh')]
    argv += ['%s=%s' % (name, img) for name, img in disks]
    env = dict(os.environ, top_srcdir=ctx['srcdir'], top_builddir=ctx['builddir'])
    proc = subprocess.run(argv, capture_output=True, env=env)
    with open(run_dir + '.log', 'wb') as f:
        f.write(proc.stdout + proc.stderr)
    devs = {}
    disks_file = os.path.join(run_dir, 'ctl', 'disks')
    if os.path.isfile(disks_file):
        with open(disks_file) as f:
            for line in f:
                name, dev = line.split()
                devs[name] = os.path.basename(dev)
    return proc.returncode, devs


def moved_into_lpf(control, after):
    """Control paths found again under /lost+found: a reconnected file or
    symlink (#ino with the same type and content), or anything below a
    reconnected directory (#ino/REST where REST is the path's tail)."""
    lpf = [p for p in after if p.startswith('./lost+found/#')]
    moved = {}
    for path, kind in control.items():
        parts = path[2:].split('/')
        for q in lpf:
            head, _, rest = q[len('./lost+found/'):].partition('/')
            if rest:
                tail = rest.split('/')
                if parts[-len(tail):] == tail and len(parts) > len(tail) and after[q] == kind:
                    moved[path] = './lost+found/' + head + '/' + rest
                    # the directory above the tail was reconnected as #ino
                    top = './' + '/'.join(parts[:-len(tail)])
                    moved.setdefault(top, './lost+found/' + head)
            elif kind[0] in ('f', 'l') and after[q] == kind:
                moved.setdefault(path, q)
    return moved


def compare(control, after):
    """Files whose content differs, and files gone (neither in their place
    nor found again under /lost+found)."""
    changed, lost = [], []
    moved = moved_into_lpf(control, after)
    for path, (typ, digest) in sorted(control.items()):
        if path.startswith('./lost+found') or path == '.':
            continue
        if path in after:
            if after[path] != (typ, digest):
                changed.append('%s: %s %s -> %s %s' % (path, typ, digest, *after[path]))
        elif path not in moved:
            lost.append(path)
    return changed, lost


def sample(ctx, out_dir, cases, outcomes, paths, targets, n, seed, own_bases=(), picks=None):
    """Mount n repaired and n corrupted-but-clean images (or PICKS, a pair
    of index lists) and their bases; returns the summary."""
    kdir = os.path.join(out_dir, 'kernel')
    imgs = os.path.join(kdir, 'images')
    os.makedirs(imgs, exist_ok=True)
    runner = CaseRunner(ctx['tools'], ctx['table'], paths, targets, {}, os.path.join(kdir, 'w'))
    repaired, missed = picks if picks else choose(outcomes, cases, n, seed)
    disks = []      # (name, image, role, case index or None, base)
    for base in sorted({cases[i]['base'] for i in repaired + missed} | set(own_bases)):
        # a copy: the kernel writes to what it mounts, and the damaged
        # images made as they were for a later boot start from the base
        img = os.path.join(imgs, 'control-%s.img' % base)
        subprocess.run(['cp', '--sparse=always', paths[base], img], check=True)
        disks.append(('b%d' % len(disks), img, 'control', None, base))
    for role, picks in (('repaired', repaired), ('missed', missed)):
        for i in picks:
            img = os.path.join(imgs, '%s-%05d.img' % (role, i))
            try:
                runner.make(cases[i], img)
            except NotApplicable:
                continue
            if role == 'repaired':
                run([ctx['tools'].fsck, '-y', img], ctx['tools'].timeout)
            disks.append(('i%d' % len(disks), img, role, i, cases[i]['base']))
    results = boot_all(ctx, kdir, 'boot', disks)
    # A repaired image that reads differently from its base: the kernel
    # reads the damaged image as made, unrepaired; when it reads exactly
    # what the repair kept, the damage lost the difference (a pack the
    # kernel falls back from, say), not the repair.
    controls = controls_of(disks, results)
    asmade, repaired_of = [], {}
    for name, _img, role, i, base in disks:
        control = controls.get(base)
        if role == 'repaired' and control is not None and not mount_problems(results[name]) \
                and compare(control, results[name]['sums'])[0]:
            img = os.path.join(imgs, 'asmade-%05d.img' % i)
            try:
                runner.make(cases[i], img)
            except NotApplicable:
                continue
            asmade.append(('a%d' % len(asmade), img, 'asmade', i, base))
            repaired_of[asmade[-1][0]] = name
    seen = boot_all(ctx, kdir, 'asmade', asmade) if asmade else {}
    return judge(disks, results, cases, outcomes,
                 {repaired_of[a]: r['sums'] for a, r in seen.items()})


def boot_all(ctx, kdir, tag, disks):
    """Boot the disks in batches; {name: result}."""
    results = {}
    for start in range(0, len(disks), DISKS_PER_BOOT):
        batch = disks[start:start + DISKS_PER_BOOT]
        run_dir = os.path.join(kdir, '%s%d' % (tag, start // DISKS_PER_BOOT))
        rc, devs = boot(ctx, run_dir, [(d[0], d[1]) for d in batch])
        complaints = complaints_by_disk(run_dir)
        for name, _img, _role, _i, _base in batch:
            results[name] = {
                'rc': rc, 'sums': read_sums(os.path.join(run_dir, 'out', name + '.sums')),
                'state': read_state(os.path.join(run_dir, 'out', name + '.state')),
                'complaints': complaints.get(devs.get(name, '-'), []),
                'unattributed': complaints.get('?', []), 'run': run_dir}
    return results


def controls_of(disks, results):
    """{base: the control's file list, or None}."""
    return {d[4]: results[d[0]]['sums'] for d in disks if d[2] == 'control'}


def mount_problems(r):
    """What went wrong with an image in the guest, its files aside."""
    problems = []
    if r['rc'] & 4:
        problems.append('no verdict from the guest run (%s)' % r['run'])
    if r['sums'] is None:
        problems.append('the kernel did not mount it')
    problems += ['kernel: ' + l for l in r['complaints'][:3]]
    if 'NEED-FSCK' in r['state']:
        problems.append('the kernel flagged it as needing fsck')
    if r['sums'] is not None and 'WRITE-OK' not in r['state']:
        problems.append('writing a new file failed')
    if r['sums'] is not None and 'UMOUNT-OK' not in r['state']:
        problems.append('unmount failed')
    return problems


def judge(disks, results, cases, outcomes, asmade=None):
    """asmade: {name: sums} of repaired images' damaged originals, as the
    kernel read them (None: it did not mount one)."""
    controls = controls_of(disks, results)
    asmade = asmade or {}
    details, counts = [], {'control': 0, 'repaired': 0, 'missed': 0, 'failed': 0, 'lost': 0}
    for name, _img, role, i, base in disks:
        r = results[name]
        problems = mount_problems(r)
        lost = []
        if role != 'control' and r['sums'] is not None:
            control = controls.get(base)
            if control is None:
                problems.append('no control listing for base %s' % base)
            else:
                changed, lost = compare(control, r['sums'])
                seen = asmade.get(name)
                if role == 'repaired' and changed and seen is not None and \
                        compare(seen, r['sums']) == ([], []) and compare(r['sums'], seen) == ([], []):
                    details.append('REVIEW %s (%s): content differs, as the kernel reads it from '
                                   'the damaged image too: %s' % (
                                       name, 'repaired case %d: %s' % (i, outcomes[i].spec),
                                       '; '.join(changed[:3])))
                elif role == 'repaired':
                    problems += ['content differs: ' + c for c in changed[:5]]
                elif changed:
                    # our check found nothing: the damage was to data (an
                    # inline symlink target, an i_size) no checker can judge
                    details.append('REVIEW %s (%s): content differs: %s' % (
                        name, 'missed case %d: %s' % (i, outcomes[i].spec), '; '.join(changed[:3])))
        counts[role] += 1
        what = 'base %s' % base if role == 'control' else '%s case %d: %s' % (
            role, i, outcomes[i].spec)
        if problems:
            counts['failed'] += 1
            details.append('FAIL %s (%s): %s' % (name, what, '; '.join(problems)))
            if role != 'control':
                details.append('    corruption: %s' % outcomes[i].change)
        if lost:
            counts['lost'] += 1
            details.append('REVIEW %s (%s): the repair dropped %d file(s): %s' % (
                name, what, len(lost), ' '.join(lost[:8])))
    summary = ['%d controls (bases unchanged), %d repaired images, %d corrupted images '
               'mounted as made (our check: clean, or unusable)' % (
                   counts['control'], counts['repaired'], counts['missed']),
               '%d failed; %d repaired images dropped files (listed for review)' % (
                   counts['failed'], counts['lost'])]
    return {'summary': summary, 'details': details, 'failed': counts['failed']}
