"""fz_cases: what a fuzz case corrupts, how cases are chosen, how one is made.

A case is a spec, one line of key=value words, that says everything needed
to make the corrupted image again from its base:

  base=full kind=node tgt=inode:file_big mb=i_size op=inc
  base=jrnl kind=nat copy=0 journal=1 idx=2 mb=nid op=random arg=0x5af3...
  base=full kind=flip blk=sit_cur:data_full bytes=100:0x40,2000:0x01
  base=full kind=dup src=node:inode:file_big blk=node:inode:file_inline
  base=sec4 kind=trunc at=main_mid

Field cases (kind sb, cp, nat, sit, ssa, node, dent) change one member
inject.f2fs knows, with one of the operations zero, ones (every bit of the
member set), inc, dec, random (arg, masked to the member's width) and bitflip
(bit arg modulo the width).  The members are read from `inject.f2fs -h
--TARGET`; every one needs a rule below (which targets it applies to, which
indexes make sense), so a member added to inject.f2fs fails the fuzz test
until the campaign covers it.  Block cases flip bytes in, zero, or copy over
a metadata, node or dentry block (named symbolically: fz_bases.resolve), or
truncate the image.  Targets are symbolic too (roles of inodes, segments,
nids), resolved against the base when the case is made.
"""
import os
import random
import re

from fz_tools import HardError, run

OPS = ('zero', 'ones', 'inc', 'dec', 'random', 'bitflip')
KINDS = ('sb', 'cp', 'nat', 'sit', 'ssa', 'node', 'dent')
BLOCK_KINDS = ('flip', 'zero', 'dup', 'trunc')
SPEC_KEYS = ('base', 'kind', 'copy', 'tgt', 'seg', 'nid', 'dent', 'src', 'blk', 'mb', 'idx',
             'cpblk', 'journal', 'ssaarea', 'nofix', 'op', 'arg', 'bytes', 'at')


class NotApplicable(Exception):
    """The corruption cannot be made on this image (inject refused it)."""


# ---- specs ---------------------------------------------------------------

def spec_text(spec):
    return ' '.join('%s=%s' % (k, spec[k]) for k in SPEC_KEYS if spec.get(k) not in (None, ''))


def parse_spec(text):
    spec = {}
    for word in text.split():
        key, sep, value = word.partition('=')
        if not sep or key not in SPEC_KEYS:
            raise ValueError('bad spec word %r (keys: %s)' % (word, ', '.join(SPEC_KEYS)))
        spec[key] = value
    for key in ('base', 'kind'):
        if key not in spec:
            raise ValueError('spec without %s= : %r' % (key, text))
    return spec


# ---- members and their rules --------------------------------------------

def inject_members(tools, kind):
    """[member name] from inject.f2fs -h --KIND: one "  member: description"
    line each (older builds: "  member[N]" or "  a, b (description)")."""
    argv = [tools.inject, '-h', '--' + kind] + (['1'] if kind in ('sb', 'cp', 'nat', 'sit') else [])
    r = run(argv, 30)
    if 'members:' not in r.out:
        raise HardError('inject.f2fs -h --%s lists no members' % kind)
    out = []
    for line in r.out.split('members:', 1)[1].splitlines():
        text = line.strip()
        if not text:
            continue
        if re.match(r'^[A-Za-z_.]+(\[\d+\])?: ', text):
            text = text.split(':', 1)[0]
        for name in text.split(' (')[0].split(', '):
            m = re.match(r'^([A-Za-z_.]+)(?:\[\d+\])?$', name.strip())
            if m:
                out.append(m.group(1))
    if not out:
        raise HardError('could not read the members of inject.f2fs -h --%s' % kind)
    return out


def rule(tgt, idx=None, val='num', need=None):
    return {'tgt': tgt, 'idx': idx, 'val': val, 'need': need}


# Indexes: (lo, hi) inclusive, or a name resolved per target ('log': a log
# 0..2, sometimes an unused one; 'slot': an i_addr slot of the inode;
# 'dslot': a direct node slot; 'name': a byte of the name; 'sitbm' and
# 'natbm': a byte of a version bitmap; 'natblk': a NAT block number).
SPECIAL_RULES = {
    'sb': {
        'uuid': rule('sb', (0, 15)), 'volume_name': rule('sb', (0, 15)),
        'encrypt_pw_salt': rule('sb', (0, 15)), 'devs.total_segments': rule('sb', (0, 7)),
        'qf_ino': rule('sb', (0, 2)), 's_stop_reason': rule('sb', (0, 31)),
        's_errors': rule('sb', (0, 15)), 'reserved': rule('sb', (0, 257)),
        'version': rule('sb', (0, 40)), 'init_version': rule('sb', (0, 40)),
        'raw': rule('sb', (0, 3071)),
        'extension_list': rule('sb', (0, 7), val='str'), 'devs.path': rule('sb', (0, 7), val='str'),
    },
    'cp': {
        'cur_node_segno': rule('cp', 'log'), 'cur_node_blkoff': rule('cp', 'log'),
        'cur_data_segno': rule('cp', 'log'), 'cur_data_blkoff': rule('cp', 'log'),
        'alloc_type': rule('cp', (0, 7)), 'raw': rule('cp', (0, 4095)),
        'sit_version_bitmap': rule('cp', 'sitbm'), 'nat_version_bitmap': rule('cp', 'natbm'),
        'orphan': rule('cpextra', (0, 0), need='orphans'),
        'orphan_add': rule('cpextra', val='ino'),
        'orphan_entry_count': rule('cpextra', (0, 0), need='orphans'),
        'orphan_blk_addr': rule('cpextra', (0, 0), need='orphans'),
        'orphan_blk_count': rule('cpextra', (0, 0), need='orphans'),
        'orphan_check_sum': rule('cpextra', (0, 0), need='orphans'),
        'orphan_reserved': rule('cpextra', (0, 0), need='orphans'),
        'next_blkaddr': rule('cpextra', (0, 0), need='chain'),
    },
    'nat': {
        'raw': rule('natnid', (0, 4095)), 'nid': rule('natjournal', need='n_nats'),
        'n_nats': rule('natcount'), 'nat_bits_full': rule('natbits', 'natblk', 'bit', 'nat_bits'),
        'nat_bits_empty': rule('natbits', 'natblk', 'bit', 'nat_bits'),
        'nat_bits_header': rule('natbits', need='nat_bits'),
    },
    'sit': {
        'valid_map': rule('sitseg', (0, 63)), 'valid_map_bit': rule('sitseg', (0, 511), 'bit'),
        'raw': rule('sitseg', (0, 4095)), 'segno': rule('sitjournal', need='n_sits'),
        'n_sits': rule('sitcount'),
    },
    'ssa': {
        'entry_type': rule('ssaseg'), 'check_sum': rule('ssaseg'), 'raw': rule('ssaseg', (0, 4095)),
    },
    'node': {
        'i_addr': rule('inode', 'slot'), 'i_nid': rule('inode', (0, 4)),
        'addr': rule('dnode', 'dslot'), 'dn.addr': rule('dnode', 'dslot'),
        'in.nid': rule('indnode', (0, 3)), 'i_name': rule('inode', 'name'),
        'raw': rule('anynode', (0, 4095)),
    },
    'dent': {
        'd_name': rule('dent', 'name'), 'd_bitmap': rule('dent', None, 'bit'),
    },
}
FOOTER = ('nid', 'ino', 'flag', 'cp_ver', 'next_blkaddr')
DEFAULT_TARGET = {'sb': 'sb', 'cp': 'cp', 'nat': 'natnid', 'sit': 'sitseg', 'ssa': 'ssablk',
                  'dent': 'dent'}


def rule_for(kind, name):
    special = SPECIAL_RULES[kind].get(name)
    if special:
        return special
    if kind == 'node':
        if name in FOOTER or name.startswith('footer.'):
            return rule('anynode')
        if name.startswith('i_'):
            return rule('inode')
        return None
    if kind == 'ssa' and name not in ('nid', 'version', 'ofs_in_node'):
        return None
    if kind == 'dent' and not name.startswith('d_'):
        return None
    return rule(DEFAULT_TARGET[kind])


def all_members(tools):
    """{(kind, member): rule}, every member inject.f2fs knows."""
    out = {}
    missing = []
    for kind in KINDS:
        for name in inject_members(tools, kind):
            r = rule_for(kind, name)
            if r is None:
                missing.append('--%s %s' % (kind, name))
            else:
                out[(kind, name)] = r
    if missing:
        raise HardError('inject.f2fs knows members the fuzz rules do not cover (add them to '
                        'tests/fuzz/fz_cases.py): ' + ', '.join(missing))
    return out


# ---- target choice (generation) -----------------------------------------

def met(t, need):
    if need is None:
        return True
    return bool(t['cp'].get(need))


def candidates(tgt, t):
    """The symbolic targets of one kind of target in base targets t."""
    nodes = sorted(t['nodes'])
    if tgt in ('sb', 'cp', 'cpextra', 'natjournal', 'natcount', 'natbits', 'sitjournal',
               'sitcount'):
        return ['-']
    if tgt == 'natnid':
        return sorted(t['nids'])
    if tgt in ('sitseg', 'ssaseg'):
        return sorted(t['segs'])
    if tgt == 'ssablk':
        return sorted(t['ssa_blks'])
    if tgt == 'anynode':
        return nodes
    if tgt in ('inode', 'dnode', 'indnode'):
        return [n for n in nodes if n.startswith(tgt + ':')]
    if tgt == 'dent':
        return [d[0] for d in t['dents']]
    raise ValueError(tgt)


def applicable(r, t):
    return met(t, r['need']) and bool(candidates(r['tgt'], t))


def choose_index(r, t, spec, rng):
    idx = r['idx']
    if idx is None:
        if r['tgt'] == 'dent' and r['val'] == 'bit' and rng.random() < 0.3:
            return str(rng.randrange(214))
        return None
    if isinstance(idx, tuple):
        lo, hi = idx
        if r['tgt'] == 'natjournal':
            return str(rng.randrange(t['cp']['n_nats']))
        return str(rng.randint(lo, hi))
    if idx == 'log':
        return str(rng.randrange(3) if rng.random() < 0.85 else rng.randrange(3, 8))
    if idx == 'sitbm':
        return str(rng.randrange(max(1, t['cp']['sit_bitmap_bytes'])))
    if idx == 'natbm':
        return str(rng.randrange(max(1, t['cp']['nat_bitmap_bytes'])))
    if idx == 'natblk':
        return str(0 if rng.random() < 0.5 else rng.randrange(t['cp']['nat_blocks']))
    if idx == 'slot':      # symbolic: resolved against the inode when applied
        return rng.choice(('first', 'first', 'second', 'last', 'xattr:%d' % rng.randrange(50),
                           'n:%d' % rng.randrange(923)))
    if idx == 'dslot':
        return str(rng.randrange(4) if rng.random() < 0.7 else rng.randrange(1018))
    if idx == 'name':
        return str(rng.randrange(4))
    raise ValueError(idx)


def field_spec(base, kind, name, r, t, op, rng):
    spec = {'base': base, 'kind': kind, 'mb': name, 'op': op}
    tgt = r['tgt']
    where = rng.choice(candidates(tgt, t))
    if tgt == 'sb':
        spec['copy'] = rng.choice((1, 1, 1, 2))
    elif tgt in ('cp', 'cpextra'):
        spec['copy'] = rng.choice((0, 0, 0, 1, 2)) if tgt == 'cp' else 0
        if tgt == 'cp' and rng.random() < 0.3:
            spec['cpblk'] = rng.choice(('first', 'last'))
    elif tgt == 'natnid':
        spec['copy'] = rng.choice((0, 0, 0, 1, 2))
        spec['nid'] = where
    elif tgt in ('natjournal', 'sitjournal'):
        spec['copy'] = 0
        spec['journal'] = 1
        count = t['cp']['n_nats' if tgt == 'natjournal' else 'n_sits']
        spec['idx'] = str(rng.randrange(count))
    elif tgt in ('natcount', 'natbits', 'sitcount'):
        spec['copy'] = 0
    elif tgt == 'sitseg':
        spec['copy'] = rng.choice((0, 0, 0, 1, 2))
        spec['seg'] = where
    elif tgt == 'ssaseg':
        spec['seg'] = where
        if where.startswith('cur_') and rng.random() < 0.3:
            spec['ssaarea'] = 1
    elif tgt == 'ssablk':
        spec['blk'] = where
    elif tgt in ('anynode', 'inode', 'dnode', 'indnode'):
        spec['tgt'] = where
    elif tgt == 'dent':
        spec['dent'] = where
    if 'idx' not in spec:
        idx = choose_index(r, t, spec, rng)
        if idx is not None:
            spec['idx'] = idx
    if kind in ('sb', 'cp', 'node') and rng.random() < 0.08:
        spec['nofix'] = 1
    if op == 'random':
        spec['arg'] = '0x%x' % rng.getrandbits(64)
    elif op == 'bitflip':
        spec['arg'] = str(rng.randrange(64))
    return spec


# ---- block cases (generation) -------------------------------------------

AREAS = {
    'sb': ('sb0', 'sb1'),
    'cp': ('cp_head', 'cp_tail', 'cp_sum', 'cp_other_head', 'cp_orphan', 'nat_bits'),
    'sit': ('sit_cur:', 'sit_copy'),
    'nat': ('nat_copy',),
    'ssa': ('ssa:',),
    'node': ('node:',),
    'dent': ('dent0:', 'dent1:'),
}
DUP_PAIRS = (
    ('node:inode:file_big', 'node:inode:file_inline'),
    ('node:dnode:file_big', 'node:inode:dir_multi'),
    ('node:inode:file_inline', 'node:inode:root'),
    ('node:indnode:file_big', 'node:dnode:file_big'),
    ('node:xnode:xattr_holder', 'node:inode:xattr_holder'),
    ('node:inode:dir_multi', 'dent0:dir_multi'),
    ('dent0:dir_multi', 'node:inode:dir_multi'),
    ('dent0:dir_multi', 'dent0:root'),
    ('dent1:dir_multi', 'dent0:dir_multi'),
    ('cp_head', 'cp_other_head'),
    ('cp_other_head', 'cp_head'),
    ('cp_sum', 'ssa:node_used'),
    ('sit_copy1', 'sit_copy2'),
    ('sit_copy2', 'sit_copy1'),
    ('nat_copy1:root', 'nat_copy2:root'),
    ('nat_copy2:root', 'nat_copy1:root'),
    ('ssa:data_full', 'ssa:node_used'),
    ('ssa:cur_hot_node', 'ssa:data_full'),
    ('sb0', 'sb1'),
    ('node:inode:file_small', 'node:inode:file_hardlinked'),
)
TRUNC_POINTS = ('last_block', 'odd', 'main_tail', 'main_mid', 'main_start', 'ssa', 'cp')


def area_blocks(t, area):
    return sorted(k for k in t['blocks'] if any(k.startswith(p) for p in AREAS[area]))


def flip_spec(base, t, blk, rng):
    lo = 1024 if blk in ('sb0', 'sb1') else 0      # a superblock starts 1 KiB in
    hi = 4095
    n = rng.choice((1, 1, 2, 3, 4, 8))
    flips = sorted({rng.randint(lo, hi) for _ in range(n)})
    words = ['%d:0x%02x' % (off, rng.randrange(1, 256)) for off in flips]
    return {'base': base, 'kind': 'flip', 'blk': blk, 'bytes': ','.join(words)}


def trunc_offset(t, at):
    lay = t['layout']
    per_seg = 1 << lay['log_blocks_per_seg']
    main_end = lay['main_blkaddr'] + lay['segment_count_main'] * per_seg
    points = {'last_block': (lay['block_count'] - 1) * 4096,
              'odd': lay['block_count'] * 4096 - 1000,
              'main_tail': (main_end - per_seg) * 4096,
              'main_mid': (lay['main_blkaddr'] + lay['segment_count_main'] // 2 * per_seg) * 4096,
              'main_start': lay['main_blkaddr'] * 4096,
              'ssa': lay['ssa_blkaddr'] * 4096,
              'cp': (lay['cp_blkaddr'] + 1) * 4096}
    return min(points[at], t['size'])


# ---- the two case sets ---------------------------------------------------

def pick_base(rng, bases, ok):
    names = [b for b in sorted(bases) if ok(bases[b])]
    return rng.choice(names) if names else None


def check_cases(members, bases, seed):
    """The make-check subset: every member with two operations (the
    operations rotate, so each is used about as often), then block cases
    for every area, the duplicate pairs, and every truncation point."""
    rng = random.Random(seed)
    cases = []
    k = 0
    for (kind, name), r in sorted(members.items()):
        for j in range(2):
            op = OPS[(2 * k + j) % len(OPS)]
            base = pick_base(rng, bases, lambda t: applicable(r, t))
            if base is None:
                raise HardError('no base image has a target for --%s %s' % (kind, name))
            cases.append(field_spec(base, kind, name, r, bases[base], op, rng))
        k += 1
    cases += block_cases(bases, rng, flips_per_area=3, zeros_per_area=2, dups=len(DUP_PAIRS),
                         truncs=len(TRUNC_POINTS))
    return cases


def block_cases(bases, rng, flips_per_area, zeros_per_area, dups, truncs):
    cases = []
    for area in sorted(AREAS):
        for n in range(flips_per_area + zeros_per_area):
            base = pick_base(rng, bases, lambda t: bool(area_blocks(t, area)))
            blk = rng.choice(area_blocks(bases[base], area))
            if n < flips_per_area:
                cases.append(flip_spec(base, bases[base], blk, rng))
            else:
                cases.append({'base': base, 'kind': 'zero', 'blk': blk})
    pairs = list(DUP_PAIRS)
    for n in range(dups):
        src, dst = pairs[n % len(pairs)]
        base = pick_base(rng, bases, lambda t: src in t['blocks'] and dst in t['blocks'])
        if base:
            cases.append({'base': base, 'kind': 'dup', 'src': src, 'blk': dst})
    for n in range(truncs):
        base = pick_base(rng, bases, lambda t: True)
        cases.append({'base': base, 'kind': 'trunc', 'at': TRUNC_POINTS[n % len(TRUNC_POINTS)]})
    return cases


def campaign_cases(members, bases, seed, per_op, flips):
    """The long campaign: every member with every operation PER_OP times (a
    new base, target, index and value each time), FLIPS byte-flip cases,
    every block zeroed and every duplicate pair and truncation on every
    base."""
    rng = random.Random(seed)
    cases = []
    for (kind, name), r in sorted(members.items()):
        for op in OPS:
            for _ in range(per_op):
                base = pick_base(rng, bases, lambda t: applicable(r, t))
                if base:
                    cases.append(field_spec(base, kind, name, r, bases[base], op, rng))
    names = sorted(bases)
    for _ in range(flips):
        base = rng.choice(names)
        blk = rng.choice(sorted(bases[base]['blocks']))
        cases.append(flip_spec(base, bases[base], blk, rng))
    for base in names:
        t = bases[base]
        for blk in sorted(t['blocks']):
            cases.append({'base': base, 'kind': 'zero', 'blk': blk})
        for src, dst in DUP_PAIRS:
            if src in t['blocks'] and dst in t['blocks']:
                cases.append({'base': base, 'kind': 'dup', 'src': src, 'blk': dst})
        for at in TRUNC_POINTS:
            cases.append({'base': base, 'kind': 'trunc', 'at': at})
    return cases


# ---- making a case -------------------------------------------------------

WIDTH_BYTES_RE = re.compile(r'fit in the (\d+) byte')
WIDTH_RANGE_RE = re.compile(r'takes --val 0\.\.(\d+)')
STR_HOLDS_RE = re.compile(r'holds (\d+)')
OLD_RE = re.compile(r': \S+ (.*) -> ')


def resolve_slot(slot, t, ino):
    """An i_addr index: the first or second data slot of the inode (after
    its extra attributes), the last slot, a slot of the default inline
    xattr area (xattr:N), or slot n:N."""
    extra = t['extra'].get(str(ino), 0)
    name, _, num = slot.partition(':')
    if name == 'first':
        return extra
    if name == 'second':
        return extra + 1
    if name == 'last':
        return 922
    if name == 'xattr':
        return 923 - 50 + int(num) % 50
    return int(num or name) % 923


def field_args(spec, t):
    """inject.f2fs arguments (without --val) for a field spec."""
    kind, mb = spec['kind'], spec['mb']
    args = []
    if kind in ('sb', 'cp', 'nat', 'sit'):
        args += ['--' + kind, spec.get('copy', 0)]
    else:
        args += ['--' + kind]
    args += ['--mb', mb]
    if spec.get('nofix'):
        args.append('--no-fix-checksum')
    if spec.get('cpblk'):
        args += ['--cp-blk', spec['cpblk']]
    if spec.get('journal'):
        args.append('--journal')
    if kind == 'nat' and spec.get('nid'):
        args += ['--nid', t['nids'][spec['nid']]]
    if kind in ('sit', 'ssa') and spec.get('seg'):
        args += ['--segno', t['segs'][spec['seg']]]
    if kind == 'ssa' and spec.get('blk'):
        args += ['--blk', t['ssa_blks'][spec['blk']]]
    if spec.get('ssaarea'):
        args.append('--ssa-area')
    idx = spec.get('idx')
    if kind == 'node':
        nid = t['nodes'][spec['tgt']][0]
        args += ['--nid', nid]
        if mb == 'i_addr' and idx is not None:
            idx = resolve_slot(idx, t, nid)
        if mb == 'i_name' and idx is not None:
            idx = min(int(idx), max(0, t['namelen'].get(str(nid), 1) - 1))
    if kind == 'dent':
        _role, ino, parent, dots = [d for d in t['dents'] if d[0] == spec['dent']][0]
        args += ['--nid', ino]
        if parent:
            args += ['--parent', parent]
        if dots:
            args += ['--dots', dots]
        if mb == 'd_name' and idx is not None:
            idx = 0 if dots else min(int(idx), max(0, t['namelen'].get(str(ino), 1) - 1))
    if idx is not None:
        args += ['--idx', idx]
    return [str(a) for a in args]


def inject_run(tools, img, args, dry=False):
    return run([tools.inject] + (['--dry-run'] if dry else []) + [str(a) for a in args] + [img],
               tools.timeout)


def member_width(tools, img, args, cache, key):
    """Bits of the member (or 'str'), from what inject accepts."""
    if key in cache:
        return cache[key]
    r = inject_run(tools, img, args + ['--val', '0xffffffffffffffff'], dry=True)
    width = None
    if r.rc == 0:
        width = 64
    elif 'needs --str' in r.err:
        width = 'str'
    else:
        m = WIDTH_BYTES_RE.search(r.err)
        if m:
            width = 8 * int(m.group(1))
        m = WIDTH_RANGE_RE.search(r.err)
        if m:
            width = (int(m.group(1)) + 1).bit_length() - 1
        if 'takes --val 0 or 1' in r.err:
            width = 1
    for bits in (32, 16, 8, 1):       # a member whose message names no width
        if width is None and inject_run(tools, img, args + ['--val', (1 << bits) - 1],
                                        dry=True).rc == 0:
            width = bits
    if width is None:
        raise NotApplicable('inject refuses %s: %s' % (' '.join(args), r.err.strip()[:200]))
    cache[key] = width
    return width


def new_number(op, old, width, arg):
    mask = (1 << width) - 1
    if op == 'zero':
        return 0
    if op == 'ones':
        return mask
    if op == 'inc':
        return (old + 1) & mask
    if op == 'dec':
        return (old - 1) & mask
    if op == 'random':
        value = int(arg, 0) & mask
        return value if value != old else value ^ 1
    if op == 'bitflip':
        return old ^ (1 << (int(arg) % width))
    raise ValueError(op)


def new_string(op, old, holds, arg):
    if op == 'zero':
        return b''
    if op == 'ones':
        return b'\xff' * holds
    if op == 'inc':
        return (old + b'z')[:holds]
    if op == 'dec':
        return old[:-1]
    if op == 'random':
        r = random.Random(int(arg, 0))
        return bytes(r.choice(b'abcdefghijklmnopqrstuvwxyz0123456789./')
                     for _ in range(r.randint(1, holds)))
    if op == 'bitflip':
        if not old:
            return b'\x01'
        pos = int(arg) % len(old)
        return old[:pos] + bytes([old[pos] ^ (1 << (int(arg) % 7))]) + old[pos + 1:]
    raise ValueError(op)


def apply_field(tools, img, spec, t, cache):
    args = field_args(spec, t)
    key = (spec['kind'], spec['mb'])
    width = member_width(tools, img, args, cache, key)
    op = spec['op']
    if width == 'str':
        probe = inject_run(tools, img, args + ['--str', ''], dry=True)
        m = re.search(r'"(.*)" -> ""', probe.out)
        if probe.rc != 0 or not m:
            raise NotApplicable('inject refuses %s: %s' % (' '.join(args), probe.err.strip()[:200]))
        old = m.group(1).encode('latin-1', 'replace')
        r = inject_run(tools, img, args + ['--str', 'x' * 600], dry=True)
        holds = int(STR_HOLDS_RE.search(r.err).group(1)) if STR_HOLDS_RE.search(r.err) else 8
        value = new_string(op, old, holds, spec.get('arg', '0'))
        r = run([tools.inject] + args + [b'--str', value, img], tools.timeout)
    else:
        probe = inject_run(tools, img, args + ['--val', '0'], dry=True)
        if probe.rc != 0:         # a member that refuses 0 (orphan_add)
            probe = inject_run(tools, img, args + ['--val', '1'], dry=True)
        if probe.rc != 0:
            raise NotApplicable('inject refuses %s: %s' % (' '.join(args), probe.err.strip()[:200]))
        m = OLD_RE.search(probe.out)
        text = m.group(1) if m else '-'
        old = int(text, 0) if re.match(r'^(0x[0-9a-f]+|\d+)$', text) else None
        if old is None:           # orphan_add: no old value; grow from a live inode
            inos = t['inodes'].get('file_inline') or t['inodes'].get('root')
            old = inos[0]
        value = new_number(op, old, width, spec.get('arg', '0'))
        r = inject_run(tools, img, args + ['--val', '0x%x' % value])
    if r.rc != 0:
        raise NotApplicable('inject %s: %s' % (' '.join(map(str, args)), r.err.strip()[:200]))
    return r.out.strip()


def apply_block(img, spec, t):
    kind = spec['kind']
    if kind == 'trunc':
        size = trunc_offset(t, spec['at'])
        os.truncate(img, size)
        return 'truncated to %d bytes (%s)' % (size, spec['at'])
    if spec['blk'] not in t['blocks']:
        raise NotApplicable('no block %s in this base' % spec['blk'])
    blk = t['blocks'][spec['blk']]
    with open(img, 'r+b') as f:
        if kind == 'zero':
            f.seek(blk * 4096)
            f.write(bytes(4096))
            return 'block %d (%s) zeroed' % (blk, spec['blk'])
        if kind == 'dup':
            if spec['src'] not in t['blocks']:
                raise NotApplicable('no block %s in this base' % spec['src'])
            src = t['blocks'][spec['src']]
            f.seek(src * 4096)
            data = f.read(4096)
            f.seek(blk * 4096)
            f.write(data)
            return 'block %d (%s) copied over block %d (%s)' % (src, spec['src'], blk, spec['blk'])
        changed = []
        for word in spec['bytes'].split(','):
            off, xor = word.split(':')
            pos = blk * 4096 + int(off)
            f.seek(pos)
            old = f.read(1)[0]
            f.seek(pos)
            f.write(bytes([old ^ int(xor, 0)]))
            changed.append('%s: 0x%02x -> 0x%02x' % (off, old, old ^ int(xor, 0)))
        return 'block %d (%s) bytes %s' % (blk, spec['blk'], ', '.join(changed))


def apply_case(tools, img, spec, t, cache):
    """Corrupt IMG as SPEC says; returns what changed, raises NotApplicable."""
    if spec['kind'] in BLOCK_KINDS:
        return apply_block(img, spec, t)
    return apply_field(tools, img, spec, t, cache)
