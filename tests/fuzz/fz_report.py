"""fz_report: counts and the failure list of a set of fuzz outcomes."""
import collections

from fz_oracle import ORACLES


def repro(ctx, spec):
    return "top_builddir=%s python3 %s/tests/fuzz/fuzz.py case '%s'" % (
        ctx['builddir'], ctx['srcdir'], spec)


def failure_text(ctx, idx, out):
    text = ['FAIL %s: %s' % (idx, out.spec),
            '    corruption: %s' % (out.change or '-')]
    for oracle, detail in out.failures:
        text.append('    %s: %s' % (oracle, detail))
    if out.codes_before:
        text.append('    check found: %s (exit %s); repair exit %s; after: %s' % (
            ' '.join(sorted({'%04d' % c for c in out.codes_before})), out.rc.get('check'),
            out.rc.get('repair', '-'),
            ' '.join(sorted({'%04d' % c for c in out.codes_after})) or 'clean'))
    if out.saved:
        text.append('    images: %s' % ' '.join(out.saved))
    text.append('    reproduce: ' + repro(ctx, out.spec))
    return '\n'.join(text)


def summary_line(name, outcomes, seconds):
    status = collections.Counter(o.status for o in outcomes)
    return ('%s: %d cases (%d not applicable, %d left the image unchanged); %d passed, '
            '%d failed; %.0fs' % (name, len(outcomes), status['na'], status['noop'],
                                   status['ok'] + status['noop'], status['fail'], seconds))


def oracle_counts(outcomes):
    """{oracle: (cases judged, failures)}: a case is judged by an oracle when
    the run reached it (approximated: every applied case)."""
    judged = sum(1 for o in outcomes if o.status in ('ok', 'fail', 'noop'))
    fails = collections.Counter(name for o in outcomes for name in {f[0] for f in o.failures})
    return {name: (judged, fails[name]) for name, _ in ORACLES}


def write_report(path, ctx, outcomes, seconds, table, kernel=None):
    applied = [o for o in outcomes if o.status != 'na']
    lines = ['F2FS fuzz campaign report', '=========================', '',
             'seed %s; %s' % (ctx.get('seed'), ctx.get('what', '')),
             'tools: %s' % ctx['builddir'], 'bases: %s' % ', '.join(sorted(ctx['bases'])), '',
             summary_line('campaign', outcomes, seconds), '']
    lines += ['Per oracle (cases judged / failed):']
    for name, desc in ORACLES:
        judged, failed = oracle_counts(outcomes)[name]
        lines.append('  %-20s %6d %6d   %s' % (name, judged, failed, desc))
    if kernel:
        lines += ['', 'Kernel sample (Linux under QEMU: mount, read every file, compare):']
        lines += ['  ' + l for l in kernel['summary']]
    lines += ['', 'Per kind (applied / failed):']
    kinds = collections.Counter(o.kind for o in applied)
    kind_fail = collections.Counter(o.kind for o in applied if o.status == 'fail')
    for kind in sorted(kinds):
        lines.append('  %-6s %6d %6d' % (kind, kinds[kind], kind_fail[kind]))
    lines += ['', 'Per operation (applied / failed):']
    ops = collections.Counter(o.op for o in applied)
    op_fail = collections.Counter(o.op for o in applied if o.status == 'fail')
    for op in sorted(ops):
        lines.append('  %-8s %6d %6d' % (op, ops[op], op_fail[op]))
    lines += ['', 'Per problem code (cases where the check reported it / of those failed /'
              ' cases where it was left after the repair):']
    before = collections.Counter(c for o in applied for c in set(o.codes_before))
    failed = collections.Counter(c for o in applied if o.status == 'fail'
                                 for c in set(o.codes_before))
    after = collections.Counter(c for o in applied for c in set(o.codes_after))
    for code in sorted(set(before) | set(after)):
        lines.append('  %-40s %6d %6d %6d' % (table.label(code), before[code], failed[code],
                                               after[code]))
    lines += ['', 'Detection against f2fs-tools 1.15 on the corrupted images:']
    both = collections.Counter()
    for o in applied:
        if o.tools_before is None or 'check' not in o.rc:
            continue
        ours = 'clean' if o.rc['check'] == 0 else 'unusable' if o.rc['check'] == 8 else 'problems'
        theirs = 'clean' if o.tools_before == 0 else 'not clean'
        both[(ours, theirs)] += 1
    for (ours, theirs), n in sorted(both.items()):
        lines.append('  ours %-9s f2fs-tools %-10s %6d' % (ours, theirs, n))
    na = [o for o in outcomes if o.status == 'na']
    if na:
        lines += ['', 'Not applicable (the corruption could not be made): %d' % len(na)]
        reasons = collections.Counter(o.change.split(':')[0][:90] for o in na)
        for reason, n in reasons.most_common(15):
            lines.append('  %5d  %s' % (n, reason))
    fails = [o for o in outcomes if o.status == 'fail']
    lines += ['', 'Failures: %d, by what went wrong and the fixable problems left after the '
              'repair (count, oracles, codes left, first case):' % len(fails)]
    groups = collections.OrderedDict()
    for o in fails:
        left = sorted({c for c in o.codes_after if not table.is_info(c) and
                       not table.unfixable(c)})
        key = (' '.join(sorted({f[0] for f in o.failures})), ' '.join('%04d' % c for c in left))
        groups.setdefault(key, []).append(o)
    for (oracles, left), group in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        lines.append('  %5d  %s  [%s]  %s' % (len(group), oracles, left or '-', group[0].spec))
    lines.append('')
    for i, o in enumerate(outcomes):
        if o.status == 'fail':
            lines.append(failure_text(ctx, 'f%05d' % i, o))
    if kernel and kernel.get('details'):
        lines += ['', 'Kernel sample details:'] + ['  ' + l for l in kernel['details']]
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
