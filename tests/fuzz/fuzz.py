#!/usr/bin/env python3
"""fuzz.py: field x operation fuzzing of fsck.f2fs (see tests/fuzz/README).

  fuzz.py check                the fixed-seed subset make check runs
  fuzz.py campaign --out DIR   the long campaign: report, results, images
  fuzz.py case 'SPEC'          make and judge one case (a failure's
                               reproduction command); --keep DIR keeps images
  fuzz.py kernel --out DIR SPEC...  mount those cases in the kernel (repaired
                               when our check finds problems, else as made)
  fuzz.py report --out DIR     write DIR/report.txt again from DIR/results.jsonl
  fuzz.py list [--check]       print the specs a run would use

Environment: top_srcdir, top_builddir (the tools under test), FUZZ_JOBS
(default: the CPUs), FUZZ_TIMEOUT (seconds per tool run, default 60),
KEEP_WORK=1 (keep the scratch directory), and FSCK_F2FS, INJECT_F2FS,
DUMP_F2FS, MKFS_F2FS, FSCK_ORACLE, MKFS_ORACLE, SLOAD_ORACLE.
Exit status: 0 all cases pass, 1 a case failed, 99 the set-up failed.
"""
import argparse
import json
import multiprocessing
import os
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fz_bases  # noqa: E402
import fz_cases  # noqa: E402
from fz_oracle import CaseRunner  # noqa: E402
from fz_report import failure_text, oracle_counts, summary_line, write_report  # noqa: E402
from fz_tools import HardError, ProblemTable, Tools, content_hash  # noqa: E402

CHECK_SEED = 20261201
OWN_BASES = tuple(fz_bases.BASES)


def context(args):
    srcdir = os.path.abspath(os.environ.get('top_srcdir') or
                             os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..'))
    builddir = os.path.abspath(os.environ.get('top_builddir') or os.getcwd())
    tools = Tools(builddir)
    tools.require()
    return {'srcdir': srcdir, 'builddir': builddir, 'tools': tools,
            'table': ProblemTable(tools)}


def scratch_parent():
    """FUZZ_TMPDIR, else /dev/shm when it is there: every case copies an image
    and the repairs flush it, which on a disk costs far more than the checks."""
    for d in (os.environ.get('FUZZ_TMPDIR'), '/dev/shm', os.environ.get('TMPDIR'), '/tmp'):
        if d and os.path.isdir(d) and os.access(d, os.W_OK):
            return d
    return '.'


def scratch(ctx, keep_dir=None):
    if keep_dir:
        os.makedirs(keep_dir, exist_ok=True)
        return keep_dir
    return tempfile.mkdtemp(prefix='fuzz.', dir=scratch_parent())


def prepare_bases(ctx, work, names, kernel=False, kernel_only=None):
    """Build our bases NAMES, import the kernel-made images (all of them, or
    only KERNEL_ONLY), and resolve their targets."""
    tools = ctx['tools']
    paths, targets, hashes = {}, {}, {}
    for name in names:
        paths[name] = fz_bases.build_base(tools, work, name)
    if kernel:
        dirs = [d for d in os.environ.get('FUZZ_KERNEL_IMAGE_DIRS', '').split(':') if d]
        dirs = dirs or [ctx['builddir']] + [os.path.join(ctx['srcdir'], d)
                                            for d in sorted(os.listdir(ctx['srcdir']))]
        for name, src in sorted(fz_bases.kernel_images(dirs).items()):
            if kernel_only and name != kernel_only:
                continue
            try:
                paths[name] = fz_bases.import_image(tools, work, name, src)
            except HardError as exc:
                print('fuzz: kernel image %s left out: %s' % (name, exc), file=sys.stderr)
    for name, path in paths.items():
        targets[name] = fz_bases.resolve(tools, path)
        hashes[name] = content_hash(path)
    ctx['bases'] = paths
    return paths, targets, hashes


WORKER = {}


def worker_init(ctx, paths, targets, hashes, work, save_dir):
    WORKER['runner'] = CaseRunner(ctx['tools'], ctx['table'], paths, targets, hashes,
                                  os.path.join(work, 'w%d' % os.getpid()), save_dir)


def worker_case(item):
    index, spec = item
    return index, WORKER['runner'].run_case(spec)


def run_cases(ctx, cases, paths, targets, hashes, work, jobs, save_dir=None, progress=False):
    outcomes = [None] * len(cases)
    init = (ctx, paths, targets, hashes, work, save_dir)
    done = 0
    start = time.monotonic()
    with multiprocessing.Pool(jobs, worker_init, init) as pool:
        for index, out in pool.imap_unordered(worker_case, list(enumerate(cases)), 4):
            outcomes[index] = out
            done += 1
            if progress and done % 200 == 0:
                print('fuzz: %d/%d cases, %d failed, %.0fs' % (
                    done, len(cases), sum(1 for o in outcomes if o and o.status == 'fail'),
                    time.monotonic() - start), file=sys.stderr, flush=True)
    return outcomes


def jobs_default():
    return int(os.environ.get('FUZZ_JOBS') or os.cpu_count() or 2)


def known_failures(ctx):
    """{spec: why} from tests/fuzz/known-failures."""
    known = {}
    with open(os.path.join(ctx['srcdir'], 'tests', 'fuzz', 'known-failures')) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                spec, _, why = line.partition(' | ')
                known[spec.strip()] = why.strip()
    return known


def cmd_check(ctx, args):
    work = scratch(ctx)
    start = time.monotonic()
    try:
        members = fz_cases.all_members(ctx['tools'])
        paths, targets, hashes = prepare_bases(ctx, work, OWN_BASES)
        cases = fz_cases.check_cases(members, targets, args.seed)
        outcomes = run_cases(ctx, cases, paths, targets, hashes, work, args.jobs)
        known = known_failures(ctx)
        failed = nknown = 0
        for i, out in enumerate(outcomes):
            if out.status == 'na':
                out.fail('not-applicable', out.change)
            if out.status == 'fail' and out.spec in known:
                nknown += 1
                print('KNOWN ' + failure_text(ctx, 'c%03d' % i, out))
                print('    known bug: ' + known[out.spec])
            elif out.status == 'fail':
                failed += 1
                print(failure_text(ctx, 'c%03d' % i, out))
            elif out.spec in known:
                failed += 1
                print('FAIL c%03d: %s\n    listed in tests/fuzz/known-failures but passes now: '
                      'remove it from the list' % (i, out.spec))
        missing = set(known) - {o.spec for o in outcomes}
        for spec in sorted(missing):
            failed += 1
            print('FAIL: %s\n    listed in tests/fuzz/known-failures but not in the subset' % spec)
        print(summary_line('fuzz-check', outcomes, time.monotonic() - start))
        if not ctx['tools'].oracles:
            print('fuzz-check: sanitizer build (SANITIZER_BUILD=1): f2fs-tools\' verdicts '
                  'left to the normal build')
        print('known failures (tests/fuzz/known-failures): %d' % nknown)
        counts = oracle_counts(outcomes)
        print('oracle failures: ' + (', '.join('%s %d' % (k, v[1]) for k, v in counts.items()
                                               if v[1]) or 'none'))
        return 1 if failed else 0
    finally:
        if os.environ.get('KEEP_WORK') == '1':
            print('kept %s' % work)
        else:
            shutil.rmtree(work, ignore_errors=True)


def cmd_campaign(ctx, args):
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    work = scratch(ctx)
    try:
        return campaign(ctx, args, out_dir, work)
    finally:
        if os.environ.get('KEEP_WORK') == '1':
            print('kept %s' % work)
        else:
            shutil.rmtree(work, ignore_errors=True)


def campaign(ctx, args, out_dir, work):
    save_dir = os.path.join(out_dir, 'failures')
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), 'little')
    start = time.monotonic()
    members = fz_cases.all_members(ctx['tools'])
    paths, targets, hashes = prepare_bases(ctx, work, OWN_BASES, kernel=args.kernel_images)
    cases = fz_cases.campaign_cases(members, targets, seed, args.per_op, args.flips)
    if args.limit:
        cases = cases[:args.limit]
    print('fuzz: seed %d, %d cases on %d bases, %d jobs' % (seed, len(cases), len(paths),
                                                            args.jobs), file=sys.stderr)
    outcomes = run_cases(ctx, cases, paths, targets, hashes, work, args.jobs, save_dir,
                         progress=True)
    seconds = time.monotonic() - start
    with open(os.path.join(out_dir, 'results.jsonl'), 'w') as f:
        for out in outcomes:
            f.write(json.dumps(out.to_json()) + '\n')
    kernel = None
    if args.kernel_sample:
        import fz_kernel
        kernel = fz_kernel.sample(ctx, out_dir, cases, outcomes, paths, targets,
                                  args.kernel_sample, seed, OWN_BASES)
        with open(os.path.join(out_dir, 'kernel.json'), 'w') as f:
            json.dump(kernel, f, indent=1)
    ctx['seed'] = seed
    ctx['what'] = '%d field cases per member and operation, %d byte-flip cases' % (
        args.per_op, args.flips)
    report = os.path.join(out_dir, 'report.txt')
    write_report(report, ctx, outcomes, seconds, ctx['table'], kernel)
    print(summary_line('fuzz-campaign', outcomes, seconds))
    print('report: %s' % report)
    return 1 if any(o.status == 'fail' for o in outcomes) or (kernel and kernel['failed']) else 0


def cmd_case(ctx, args):
    spec = fz_cases.parse_spec(args.spec)
    work = scratch(ctx, args.keep)
    try:
        if spec['base'] in OWN_BASES:
            paths, targets, hashes = prepare_bases(ctx, work, [spec['base']])
        else:
            paths, targets, hashes = prepare_bases(ctx, work, [], True, spec['base'])
            if spec['base'] not in paths:
                raise HardError('no kernel-made image %s in the build directories' %
                                spec['base'])
        runner = CaseRunner(ctx['tools'], ctx['table'], paths, targets, hashes,
                            os.path.join(work, 'case'), work if args.keep else None)
        out = runner.run_case(spec)
        print(json.dumps(out.to_json(), indent=1))
        if out.status == 'fail':
            print(failure_text(ctx, 'case', out))
        return 1 if out.status in ('fail', 'na') else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def cmd_kernel(ctx, args):
    """Judge the SPECs and mount each in the kernel: repaired when our check
    finds problems, as made when it finds none or calls the volume unusable."""
    import fz_kernel
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    work = scratch(ctx)
    try:
        specs = [fz_cases.parse_spec(s) for s in args.spec]
        own = sorted({s['base'] for s in specs if s['base'] in OWN_BASES})
        paths, targets, hashes = prepare_bases(ctx, work, own, kernel=any(
            s['base'] not in OWN_BASES for s in specs))
        outcomes = run_cases(ctx, specs, paths, targets, hashes, work, 1)
        repaired = [i for i, o in enumerate(outcomes) if o.rc.get('check') == 4]
        missed = [i for i, o in enumerate(outcomes) if o.rc.get('check') in (0, 8)]
        kernel = fz_kernel.sample(ctx, out_dir, specs, outcomes, paths, targets, 0, 0, own,
                                  (repaired, missed))
        print('\n'.join(kernel['summary'] + kernel['details']))
        return 1 if kernel['failed'] else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cmd_report(ctx, args):
    """Write the report again from a campaign's results.jsonl."""
    from fz_oracle import Outcome
    out_dir = os.path.abspath(args.out)
    with open(os.path.join(out_dir, 'results.jsonl')) as f:
        outcomes = [Outcome.from_json(json.loads(line)) for line in f if line.strip()]
    ctx['bases'] = sorted({o.base for o in outcomes})
    ctx['seed'] = args.seed
    ctx['what'] = 'report rebuilt from results.jsonl'
    kernel = None
    if os.path.isfile(os.path.join(out_dir, 'kernel.json')):
        with open(os.path.join(out_dir, 'kernel.json')) as f:
            kernel = json.load(f)
    write_report(os.path.join(out_dir, 'report.txt'), ctx, outcomes,
                 sum(o.seconds or 0 for o in outcomes), ctx['table'], kernel)
    print(summary_line('fuzz-campaign', outcomes, 0))
    return 0


def cmd_list(ctx, args):
    work = scratch(ctx)
    try:
        members = fz_cases.all_members(ctx['tools'])
        _paths, targets, _hashes = prepare_bases(ctx, work, OWN_BASES)
        if args.check:
            cases = fz_cases.check_cases(members, targets, CHECK_SEED)
        else:
            cases = fz_cases.campaign_cases(members, targets, args.seed or 1, args.per_op,
                                            args.flips)
        for spec in cases:
            print(fz_cases.spec_text(spec))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = p.add_subparsers(dest='cmd', required=True)
    c = sub.add_parser('check')
    c.add_argument('--seed', type=int, default=CHECK_SEED)
    c.add_argument('--jobs', type=int, default=jobs_default())
    c = sub.add_parser('campaign')
    c.add_argument('--out', required=True)
    c.add_argument('--seed', type=int)
    c.add_argument('--per-op', type=int, default=3)
    c.add_argument('--flips', type=int, default=2000)
    c.add_argument('--limit', type=int, default=0)
    c.add_argument('--jobs', type=int, default=jobs_default())
    c.add_argument('--kernel-images', action='store_true')
    c.add_argument('--kernel-sample', type=int, default=0)
    c = sub.add_parser('case')
    c.add_argument('spec')
    c.add_argument('--keep')
    c = sub.add_parser('kernel')
    c.add_argument('--out', required=True)
    c.add_argument('spec', nargs='+')
    c = sub.add_parser('report')
    c.add_argument('--out', required=True)
    c.add_argument('--seed')
    c = sub.add_parser('list')
    c.add_argument('--check', action='store_true')
    c.add_argument('--seed', type=int)
    c.add_argument('--per-op', type=int, default=3)
    c.add_argument('--flips', type=int, default=2000)
    args = p.parse_args()
    try:
        ctx = context(args)
        return {'check': cmd_check, 'campaign': cmd_campaign, 'case': cmd_case,
                'report': cmd_report, 'kernel': cmd_kernel,
                'list': cmd_list}[args.cmd](ctx, args)
    except HardError as exc:
        print('ERROR: fuzz: %s' % exc, file=sys.stderr)
        return 99


if __name__ == '__main__':
    sys.exit(main())
