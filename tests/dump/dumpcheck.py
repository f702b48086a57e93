#!/usr/bin/env python3
"""dumpcheck.py - checks used by the dump.f2fs tests.

Subcommands (each exits 0 when the check passes, 1 with a message when not):
  sbcp ORACLE_TXT OUR_JSON OUR_TXT IMG
      every "name [0x hex : dec]" value printed by f2fs-tools' dump.f2fs -d 1
      agrees with our JSON, and our text agrees with our JSON.
  sections [--lenient] JSON
      --sections totals agree with the checkpoint and with the table rows
      (--lenient: valid blocks may be below the checkpoint's count, as with
      kernel-written images holding NEW_ADDR reservations).
  tree SRC OUT
      OUT is a byte-for-byte copy of SRC: type, content, size, mode, owner,
      symlink targets and user.* xattrs.
  put-xattr IMG BLKADDR NAME VALUE [NAME VALUE ...]
      write user.* xattrs into the inline xattr area of the inode at BLKADDR
      (test helper for images without inode checksums).
  json FILE...
      each file is one valid JSON document.
"""
import json
import os
import re
import stat
import struct
import sys

LINE = re.compile(r'^(\S+)\s+\[0x\s*([0-9a-fA-F]+)\s*:\s*(\d+)\]\s*$')
CURSEG = {'HOT_DATA': 0, 'WARM_DATA': 1, 'COLD_DATA': 2,
          'HOT_NODE': 3, 'WARM_NODE': 4, 'COLD_NODE': 5}


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def parse_oracle(path):
    """Split f2fs-tools -d 1 output into superblock and checkpoint values."""
    sb, cp, cur = {}, {}, None
    with open(path, errors='replace') as f:
        for line in f:
            if '| Super block' in line:
                cur = sb
            elif '| Checkpoint' in line:
                cur = cp
            m = LINE.match(line.rstrip('\n'))
            if m and cur is not None:
                hexv, decv = int(m.group(2), 16), int(m.group(3))
                if hexv != decv:
                    fail('%s: oracle prints hex %x and dec %d' % (m.group(1), hexv, decv))
                cur[m.group(1)] = decv
    if not sb or not cp:
        fail('no superblock/checkpoint values in ' + path)
    return sb, cp


def our_value(section, name):
    """Look an oracle name up in one of our JSON objects."""
    m = re.match(r'^alloc_type\[CURSEG_(\w+)\]$', name)
    if m:
        return section['alloc_type'][CURSEG[m.group(1)]]
    m = re.match(r'^(\w+)\[(\d+)\]$', name)
    if m:
        return section[m.group(1)][int(m.group(2))]
    return section[name]


def parse_our_text(path):
    """Our text output: values of the superblock and checkpoint sections."""
    sb, cp, cur = {}, {}, None
    with open(path) as f:
        for line in f:
            if line.startswith('== superblock'):
                cur = sb
            elif line.startswith('== checkpoint'):
                cur = cp
            elif line.startswith('=='):
                cur = None
            m = LINE.match(line.rstrip('\n'))
            if m and cur is not None:
                cur[m.group(1)] = int(m.group(3))
    return sb, cp


def flatten(obj):
    """JSON members as text names: arrays become name[i]."""
    out = {}
    for k, v in obj.items():
        if isinstance(v, bool) or not isinstance(v, (int, list)):
            continue
        if isinstance(v, list):
            for i, x in enumerate(v):
                if isinstance(x, int) and not isinstance(x, bool):
                    out['%s[%d]' % (k, i)] = x
        else:
            out[k] = v
    return out


def cmd_sbcp(oracle_txt, our_json, our_txt, img):
    osb, ocp = parse_oracle(oracle_txt)
    with open(our_json) as f:
        doc = json.load(f)
    sb, cp = doc['superblock'], doc['checkpoint']
    checked = 0
    for name, val in osb.items():
        if name == 'volum_name':
            continue
        got = our_value(sb, name)
        if got != val:
            fail('superblock %s: ours %r, f2fs-tools %r' % (name, got, val))
        checked += 1
    for name, val in ocp.items():
        if name == 'sit_nat_version_bitmap[0]':
            # f2fs-tools prints the raw byte at offset 192 of the cp block
            with open(img, 'rb') as f:
                f.seek(cp['pack_start_blkaddr'] * 4096 + 192)
                got = f.read(1)[0]
        else:
            got = our_value(cp, name)
        if got != val:
            fail('checkpoint %s: ours %r, f2fs-tools %r' % (name, got, val))
        checked += 1
    tsb, tcp = parse_our_text(our_txt)
    # f2fs-tools' spelling is kept: every name it prints is a line of our
    # text, with its value
    for label, text, oracle in (('superblock', tsb, osb), ('checkpoint', tcp, ocp)):
        for name, val in oracle.items():
            if text.get(name) != val:
                fail('%s %s: f2fs-tools prints %r, our text %r' % (label, name, val, text.get(name)))
    for label, text, js in (('superblock', tsb, sb), ('checkpoint', tcp, cp)):
        flat = flatten(js)
        for name, val in flat.items():
            if name in ('copy_in_use', 'pack_in_use', 'pack_start_blkaddr'):
                continue
            if text.get(name) != val:
                fail('%s %s: text %r, JSON %r' % (label, name, text.get(name), val))
        for name in text:
            if name in flat:
                continue
            # f2fs-tools' names for JSON members: the same values
            if name.startswith('alloc_type[CURSEG_') and text[name] == our_value(js, name):
                continue
            if name == 'sit_nat_version_bitmap[0]' and label == 'checkpoint' and \
                    text[name] == ocp.get(name):
                continue
            fail('%s %s: in the text but not in the JSON' % (label, name))
    print('ok: %d values agree with f2fs-tools, text agrees with JSON' % checked)


def cmd_sections(path, lenient=False):
    with open(path) as f:
        doc = json.load(f)
    s = doc['sections']
    t, rows = s['totals'], s['table']
    if len(rows) != t['sections']:
        fail('%d rows, totals say %d sections' % (len(rows), t['sections']))
    if sum(r['valid_blocks'] for r in rows) != t['valid_blocks']:
        fail('row valid blocks do not add up to the total')
    if sum(r['free_segments'] for r in rows) != t['free_segments']:
        fail('row free segments do not add up to the total')
    if sum(1 for r in rows if r['state'] == 'free') != t['free_sections']:
        fail('free rows differ from free_sections')
    for r in rows:
        if r['state'] == 'free' and r['free_segments'] != s['segs_per_sec']:
            fail('section %d is free but has only %d free segments' % (r['secno'], r['free_segments']))
    if t['whole_volume']:
        if t['free_segments'] != t['cp_free_segment_count']:
            fail('free segments %d, checkpoint says %d' % (t['free_segments'], t['cp_free_segment_count']))
        # the kernel counts NEW_ADDR reservations in the checkpoint only
        if t['valid_blocks'] > t['cp_valid_block_count'] or (
                not lenient and t['valid_blocks'] != t['cp_valid_block_count']):
            fail('valid blocks %d, checkpoint says %d' % (t['valid_blocks'], t['cp_valid_block_count']))
        if not t['free_segments_match'] or (not lenient and not t['valid_blocks_match']):
            fail('match flags disagree with the numbers')
    if t['inconsistent_segments']:
        fail('%d inconsistent segments' % t['inconsistent_segments'])
    print('ok: %d sections, %d free, %d valid blocks' % (t['sections'], t['free_sections'], t['valid_blocks']))


def user_xattrs(path):
    try:
        names = os.listxattr(path, follow_symlinks=False)
    except OSError:
        return {}
    return {n: os.getxattr(path, n, follow_symlinks=False) for n in names if n.startswith('user.')}


def compare_entry(src, out, rel):
    s, o = os.lstat(src), os.lstat(out)
    if stat.S_IFMT(s.st_mode) != stat.S_IFMT(o.st_mode):
        fail('%s: type %o, extracted %o' % (rel, stat.S_IFMT(s.st_mode), stat.S_IFMT(o.st_mode)))
    if not stat.S_ISLNK(s.st_mode) and stat.S_IMODE(s.st_mode) != stat.S_IMODE(o.st_mode):
        fail('%s: mode %o, extracted %o' % (rel, stat.S_IMODE(s.st_mode), stat.S_IMODE(o.st_mode)))
    if (s.st_uid, s.st_gid) != (o.st_uid, o.st_gid):
        fail('%s: owner %d:%d, extracted %d:%d' % (rel, s.st_uid, s.st_gid, o.st_uid, o.st_gid))
    if stat.S_ISLNK(s.st_mode):
        if os.readlink(src) != os.readlink(out):
            fail('%s: symlink target differs' % rel)
    elif stat.S_ISREG(s.st_mode):
        if s.st_size != o.st_size:
            fail('%s: size %d, extracted %d' % (rel, s.st_size, o.st_size))
        with open(src, 'rb') as a, open(out, 'rb') as b:
            while True:
                x, y = a.read(1 << 20), b.read(1 << 20)
                if x != y:
                    fail('%s: content differs' % rel)
                if not x:
                    break
    if user_xattrs(src) != user_xattrs(out):
        fail('%s: xattrs %r, extracted %r' % (rel, user_xattrs(src), user_xattrs(out)))


def cmd_tree(src, out):
    count = 0
    for root, dirs, files in os.walk(src):
        rel_root = os.path.relpath(root, src)
        for name in dirs + files:
            rel = os.path.normpath(os.path.join(rel_root, name))
            if not os.path.lexists(os.path.join(out, rel)):
                fail('%s: missing from the extracted tree' % rel)
            compare_entry(os.path.join(src, rel), os.path.join(out, rel), rel)
            count += 1
    for root, dirs, files in os.walk(out):
        rel_root = os.path.relpath(root, out)
        for name in dirs + files:
            rel = os.path.normpath(os.path.join(rel_root, name))
            if not os.path.lexists(os.path.join(src, rel)):
                fail('%s: extracted but not in the source' % rel)
    print('ok: %d entries identical' % count)


def cmd_put_xattr(img, blkaddr, pairs):
    """Inline xattr area: the last 50 words of i_addr (inode offset 360)."""
    area_off = 360 + (923 - 50) * 4
    buf = struct.pack('<II16x', 0xF2F52011, 1)
    for name, value in zip(pairs[0::2], pairs[1::2]):
        n, v = name.encode(), value.encode()
        ent = struct.pack('<BBH', 1, len(n), len(v)) + n + v
        ent += b'\0' * (-len(ent) % 4)
        buf += ent
    buf += b'\0' * 4
    if len(buf) > 200:
        fail('xattrs do not fit the inline area')
    with open(img, 'r+b') as f:
        f.seek(int(blkaddr) * 4096 + 3)
        inline = f.read(1)[0]
        if not inline & 0x01 or inline & 0x20:
            fail('inode at %s has no plain inline xattr area (i_inline 0x%x)' % (blkaddr, inline))
        f.seek(int(blkaddr) * 4096 + area_off)
        f.write(buf)


def cmd_json(paths):
    for p in paths:
        with open(p) as f:
            json.load(f)
    print('ok: %d JSON documents' % len(paths))


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == 'sbcp' and len(args) == 4:
        cmd_sbcp(*args)
    elif cmd == 'sections' and len(args) == 1:
        cmd_sections(args[0])
    elif cmd == 'sections' and len(args) == 2 and args[0] == '--lenient':
        cmd_sections(args[1], True)
    elif cmd == 'tree' and len(args) == 2:
        cmd_tree(*args)
    elif cmd == 'put-xattr' and len(args) >= 4 and len(args) % 2 == 0:
        cmd_put_xattr(args[0], args[1], args[2:])
    elif cmd == 'json' and args:
        cmd_json(args)
    else:
        fail('bad usage: ' + ' '.join(argv[1:]))


if __name__ == '__main__':
    main(sys.argv)
