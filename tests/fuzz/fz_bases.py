"""fz_bases: the clean images every fuzz case starts from, and their targets.

Each base is made without the kernel: our mkfs.f2fs (fixed UUID, time and
checkpoint seed, so a base is the same image on every run), f2fs-tools'
sload.f2fs for files and directories (with a file_contexts that gives every
inode a security.selinux xattr; a long context under /d1 makes xattr nodes),
then inject.f2fs and direct block writes for what sload cannot make: device
nodes, FIFOs and sockets (stored as the kernel stores them), user xattrs and
a POSIX ACL in an inline xattr area, compressed files (one cluster really
compressed with LZ4), casefolded directories, an unclean checkpoint with an
orphan inode and a fsync'd node chain for roll-forward.  A base must be
clean for our fsck and for f2fs-tools before a case uses it.

resolve() then names what the cases aim at (inodes by role, nodes, dentries,
segments, nids, metadata blocks), from dump.f2fs --json and dry runs of
inject.f2fs, so a case spec can say "the first direct node of a big file"
and mean the same block on every run.
"""
import hashlib
import json
import os
import re
import struct

from fz_tools import HardError, copy_sparse, problems, run

FIXED_TIME = 1700000000
FIXED_UUID = '0f2f5f00-2026-4e00-8a00-00000000f022'
LONG_CONTEXT = 'u:object_r:' + 'fz' * 120 + '_t:s0'   # too long for an inline xattr area

# name: (size, mkfs, mkfs options, source tree, steps after sload)
BASES = {
    'full': ('128M', 'ours', ['-O', 'extra_attr,inode_checksum,sb_checksum,inode_crtime,quota,'
                              'lost_found'], 'tree', ['specials', 'ixattrs']),
    'flex': ('128M', 'ours', ['-O', 'extra_attr,inode_checksum,flexible_inline_xattr,'
                              'inode_crtime,lost_found'], 'small', ['specials', 'ixattrs']),
    'sec4': ('256M', 'ours', ['-s', '4', '-O', 'extra_attr,inode_checksum,lost_found'], 'tree',
             ['specials']),
    'plain': ('128M', 'ours', [], 'tree-noctx', ['specials']),
    'comp': ('128M', 'ours', ['-O', 'extra_attr,inode_checksum,compression'], 'tree-noctx',
             ['compress']),
    'cf': ('128M', 'ours', ['-O', 'casefold', '-C', 'utf8'], 'tree-noctx', ['casefold']),
    'rf': ('128M', 'ours', ['-O', 'extra_attr,inode_checksum,sb_checksum,inode_crtime,quota,'
                            'lost_found'], 'tree', ['specials', 'orphan', 'chain']),
    'jrnl': ('128M', 'tools', ['-O', 'extra_attr,inode_checksum,quota,lost_found'], None, []),
}

S_IFMT, S_IFDIR, S_IFREG, S_IFLNK = 0o170000, 0o040000, 0o100000, 0o120000
F2FS_COMPR_FL, F2FS_CASEFOLD_FL = 0x4, 0x40000000
F2FS_INLINE_DATA, F2FS_DATA_EXIST, F2FS_INLINE_DENTRY = 0x2, 0x8, 0x4
DEF_INLINE_XATTR_ADDRS, DEF_ADDRS_PER_INODE = 50, 923
CP_UMOUNT_FLAG, CP_NAT_BITS_FLAG = 0x1, 0x80
COMPRESS_ADDR, NEW_ADDR = 0xfffffffe, 0xffffffff
BLK = 4096


# ---- source trees --------------------------------------------------------

def file_bytes(name, size):
    """Content that differs per file and per block, derived from the name."""
    out = bytearray()
    block = 0
    while len(out) < size:
        seed = hashlib.sha256(('%s:%d' % (name, block)).encode()).digest()
        out += seed * (BLK // len(seed))
        block += 1
    return bytes(out[:size])


def write_file(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)


def make_tree(root, small):
    """The files every populated base holds.  The big file needs an indirect
    node (more blocks than the inode and its two direct nodes address)."""
    write_file(root + '/a.txt', b'hello\n')
    os.makedirs(root + '/d1/d2', exist_ok=True)
    os.link(root + '/a.txt', root + '/d1/hard')
    write_file(root + '/empty', b'')
    os.symlink('a.txt', root + '/link')
    os.symlink('x' * 300 + '/target', root + '/longlink')
    if not small:
        write_file(root + '/big', file_bytes('big', 12_800_000))
    write_file(root + '/d1/mid', b'm' * 100_000)
    for i in range(1, 301 if not small else 121):
        write_file('%s/many/entry_%d' % (root, i), b'%d\n' % i)
    for name in ('chr', 'blk', 'fifo', 'sock'):
        write_file('%s/dev/%s' % (root, name), name.encode() + b'\n')
    write_file(root + '/small/x', b's\n')


def make_sources(work):
    trees = {}
    for name, small in (('tree', False), ('small', True)):
        root = os.path.join(work, 'src-' + name)
        if not os.path.isdir(root):
            make_tree(root, small)
        trees[name] = root
    contexts = os.path.join(work, 'file_contexts')
    with open(contexts, 'w') as f:
        f.write('/.*    u:object_r:fz_file_t:s0\n/    u:object_r:fz_root_t:s0\n'
                '/d1(/.*)?    %s\n' % LONG_CONTEXT)
    trees['contexts'] = contexts
    return trees


# ---- helpers over the tools ----------------------------------------------

def tool_json(tools, img, *args):
    r = run([tools.dump, '--json'] + list(args) + [img], tools.timeout)
    try:
        return json.loads(r.out)
    except ValueError:
        raise HardError('dump.f2fs --json %s %s: exit %d: %s' % (' '.join(args), img, r.rc,
                                                                 r.err.strip()[:200]))


def inject(tools, img, *args):
    r = run([tools.inject] + [str(a) for a in args] + [img], tools.timeout)
    if r.rc != 0:
        raise HardError('inject.f2fs %s: exit %d: %s' % (' '.join(map(str, args)), r.rc,
                                                         r.err.strip()[:200]))
    return r.out


INJECT_WHERE_RE = re.compile(r'\(blkaddr (0x[0-9a-f]+)\)')
INJECT_OLD_RE = re.compile(r': (\S+(?:\[\d+\])?) (.*) -> ')


def inject_probe(tools, img, *args):
    """Dry run of inject: (block address it names, old value text, its line)
    or None when inject refuses."""
    r = run([tools.inject, '--dry-run'] + [str(a) for a in args] + [img], tools.timeout)
    if r.rc != 0:
        return None
    where = INJECT_WHERE_RE.search(r.out)
    old = INJECT_OLD_RE.search(r.out)
    return (int(where.group(1), 16) if where else None, old.group(2) if old else None,
            r.out.strip())


def listing(tools, img):
    r = run([tools.fsck, '-n', '-t', img], tools.timeout)
    out = []
    for line in r.out.splitlines():
        cols = line.split('\t')
        if len(cols) == 2 and cols[0].isdigit():
            out.append((int(cols[0]), cols[1]))
    return out


def inode_info(tools, img, ino):
    return tool_json(tools, img, '-i', str(ino), '-M').get('inode')


def read_block(img, blk):
    with open(img, 'rb') as f:
        f.seek(blk * BLK)
        return f.read(BLK)


def write_block(img, blk, data):
    assert len(data) == BLK
    with open(img, 'r+b') as f:
        f.seek(blk * BLK)
        f.write(data)


# ---- steps after sload ---------------------------------------------------

def first_data_slot(info):
    return (info.get('i_extra_isize', 0) // 4) if info['i_inline'] & 0x20 else 0


def make_special(tools, img, ino, mode, ftype, old_word, new_word):
    """Turn an inline file into a device node, FIFO or socket the way the
    kernel stores one: no inline data, size 0, the device number in the first
    data word (old encoding) or the second (new encoding)."""
    info = inode_info(tools, img, ino)
    extra = first_data_slot(info)
    inject(tools, img, '--node', '--nid', ino, '--mb', 'i_mode', '--val', mode)
    inject(tools, img, '--node', '--nid', ino, '--mb', 'i_inline', '--val',
           info['i_inline'] & ~(F2FS_INLINE_DATA | F2FS_DATA_EXIST))
    inject(tools, img, '--node', '--nid', ino, '--mb', 'i_size', '--val', 0)
    inject(tools, img, '--node', '--nid', ino, '--mb', 'i_addr', '--idx', extra, '--val',
           old_word)
    inject(tools, img, '--node', '--nid', ino, '--mb', 'i_addr', '--idx', extra + 1, '--val',
           new_word)
    inject(tools, img, '--dent', '--nid', ino, '--mb', 'd_ftype', '--val', ftype)


def step_specials(tools, img, paths):
    new_dev = (70000 & 0xff) | (300 << 8) | ((70000 & ~0xff) << 12)
    make_special(tools, img, paths['/dev/chr'], 0o020644, 3, (1 << 8) | 3, 0)
    make_special(tools, img, paths['/dev/blk'], 0o060660, 4, 0, new_dev)
    make_special(tools, img, paths['/dev/fifo'], 0o010644, 5, 0, 0)
    make_special(tools, img, paths['/dev/sock'], 0o140755, 6, 0, 0)


# A POSIX ACL in f2fs' on-disk form: version 1, then user::rw-,
# user:1000:rw-, group::r--, mask::rw-, other::r--.
ACL = bytes.fromhex('01000000' '01000600' '02000600e8030000' '04000400' '10000600'
                    '20000400')


def xattr_entry(index, name, value):
    entry = struct.pack('<BBH', index, len(name), len(value)) + name + value
    return entry + bytes(-len(entry) % 4)


def step_ixattrs(tools, img, paths):
    """/a.txt's inline xattr area gets its selinux label, a user xattr and an
    access ACL (an empty name under index 2, as the kernel stores ACLs)."""
    ino = paths['/a.txt']
    info = inode_info(tools, img, ino)
    words = info.get('i_inline_xattr_size') or DEF_INLINE_XATTR_ADDRS
    area = struct.pack('<II16x', 0xF2F52011, 1)
    area += xattr_entry(6, b'selinux', b'u:object_r:fz_file_t:s0\0')
    area += xattr_entry(1, b'fuzz', b'value-of-fuzz')
    area += xattr_entry(2, b'', ACL)
    area += bytes(words * 4 - len(area))
    block = bytearray(read_block(img, info['node_blkaddr']))
    start = 360 + (DEF_ADDRS_PER_INODE - words) * 4     # i_addr begins at byte 360
    block[start:start + len(area)] = area
    write_block(img, info['node_blkaddr'], bytes(block))
    # a no-change edit through inject recomputes the inode checksum
    inject(tools, img, '--node', '--nid', ino, '--mb', 'i_advise', '--val', info['i_advise'])


def lz4_fill(byte, size):
    """An LZ4 block that decompresses to size copies of byte: one literal, one
    long match at offset 1, and the five literals the format ends with."""
    match = size - 6
    out = bytearray([0x1F, byte, 1, 0])
    rest = match - 4 - 15
    while rest >= 255:
        out.append(255)
        rest -= 255
    out.append(rest)
    out += bytes([0x50]) + bytes([byte]) * 5
    return bytes(out)


def step_compress(tools, img, paths):
    """/d1/mid becomes an LZ4-compressed file with 4-block clusters: the first
    cluster really compressed (COMPRESS_ADDR, one block of compressed data,
    two NEW_ADDR slots whose blocks are freed; the reservation stays counted
    in i_blocks and valid_block_count, as the kernel leaves it), the other
    clusters stored raw.  (Only a file whose blocks all sit in the inode:
    sload's direct nodes do not keep the whole-cluster alignment the kernel
    gives compressed files.)"""
    ino = paths['/d1/mid']
    info = inode_info(tools, img, ino)
    extra = first_data_slot(info)
    first = info['block_map'][0]['blkaddr']
    inject(tools, img, '--node', '--nid', ino, '--mb', 'i_addr', '--idx', extra, '--val',
           COMPRESS_ADDR)
    for k in (2, 3):
        inject(tools, img, '--node', '--nid', ino, '--mb', 'i_addr', '--idx', extra + k,
               '--val', NEW_ADDR)
    data = lz4_fill(ord('m'), 4 * BLK)
    write_block(img, first + 1, struct.pack('<II16x', len(data), 0) + data +
                bytes(BLK - 24 - len(data)))
    for blk in (first, first + 2, first + 3):
        inject(tools, img, '--sit', 0, '--blk', blk, '--mb', 'valid_map_bit', '--val', 0)
    old = inject_probe(tools, img, '--sit', 0, '--blk', first, '--mb', 'valid_blocks',
                       '--val', 0)[1]
    inject(tools, img, '--sit', 0, '--blk', first, '--mb', 'valid_blocks', '--val',
           int(old, 0) - 3)
    for target, compr in ((ino, 3),):
        for member, val in (('i_flags', F2FS_COMPR_FL), ('i_compress_algorithm', 1),
                            ('i_log_cluster_size', 2), ('i_compr_blocks', compr),
                            ('i_ext.len', 0), ('i_ext.blk', 0), ('i_ext.fofs', 0)):
            inject(tools, img, '--node', '--nid', target, '--mb', member, '--val', val)


def step_casefold(tools, img, paths):
    """/many and /d1 become casefolded: their names are lower-case ASCII,
    which folds to itself, so the stored hashes stay right."""
    for path in ('/many', '/d1'):
        inject(tools, img, '--node', '--nid', paths[path], '--mb', 'i_flags', '--val',
               F2FS_CASEFOLD_FL)


def step_orphan(tools, img, paths):
    """/small/x is unlinked but still open when the power fails: its entry
    is gone from /small, i_links is 0, and the checkpoint lists it."""
    ino = paths['/small/x']
    inject(tools, img, '--dent', '--nid', ino, '--mb', 'd_bitmap', '--val', 0)
    inject(tools, img, '--node', '--nid', ino, '--mb', 'i_links', '--val', 0)
    inject(tools, img, '--cp', 0, '--mb', 'orphan_add', '--val', ino)


def step_chain(tools, img, paths):
    """An unclean checkpoint the way the kernel writes one after fsync (no
    unmount flag, no nat_bits, node summaries in the SSA area instead of the
    pack), followed by a fsync'd copy of /big's first direct node at the warm
    node log's write position: roll-forward replays it at mount."""
    sup = tool_json(tools, img, '--super')
    sb, cp = sup['superblock'], sup['checkpoint']
    start, total, pack = cp['pack_start_blkaddr'], cp['cp_pack_total_block_count'], \
        cp['pack_in_use']
    if not cp['ckpt_flags'] & CP_UMOUNT_FLAG:
        raise HardError('base rf: the checkpoint is already unclean')
    for i in range(3):
        write_block(img, sb['ssa_blkaddr'] + cp['cur_node_segno'][i],
                    read_block(img, start + total - 4 + i))
    inject(tools, img, '--cp', pack, '--cp-blk', 'first', '--mb', 'ckpt_flags', '--val',
           cp['ckpt_flags'] & ~(CP_UMOUNT_FLAG | CP_NAT_BITS_FLAG))
    inject(tools, img, '--cp', pack, '--cp-blk', 'first', '--mb', 'cp_pack_total_block_count',
           '--val', total - 3)
    write_block(img, start + total - 4, read_block(img, start))
    write_block(img, start + total - 1, bytes(BLK))
    info = inode_info(tools, img, paths['/big'])
    src = [n for n in info['node_blocks'] if n['nid'] == info['i_nid'][0]][0]['blkaddr']
    cp = tool_json(tools, img, '--super')['checkpoint']
    dst = sb['main_blkaddr'] + (cp['cur_node_segno'][1] << sb['log_blocks_per_seg']) + \
        cp['cur_node_blkoff'][1]
    block = bytearray(read_block(img, src))
    nid, ino, flag, _, _ = struct.unpack_from('<IIIQI', block, BLK - 24)
    struct.pack_into('<IIIQI', block, BLK - 24, nid, ino, flag | 2, cp['checkpoint_ver'], 0)
    write_block(img, dst, bytes(block))


STEPS = {'specials': step_specials, 'ixattrs': step_ixattrs, 'compress': step_compress,
         'casefold': step_casefold, 'orphan': step_orphan, 'chain': step_chain}


# ---- building ------------------------------------------------------------

def sload(tools, img, src, contexts):
    args = [tools.sload_oracle, '-T', FIXED_TIME, '-f', src]
    if contexts:
        args += ['-s', contexts]
    # sload exits 1 after printing its own fsck summary: the image is checked below
    run(args + [img], tools.timeout)


def type_free_segments(tools, img):
    """Give the free segments of each log's section that log's type.  sload
    fills the first free segment whose SIT type matches, and a free segment
    reads as hot data: in a large section it would put hot data next to a
    node log, a mixed section the kernel's GC refuses."""
    sup = tool_json(tools, img, '--super')
    sb, cp = sup['superblock'], sup['checkpoint']
    per = sb['segs_per_sec']
    logs = [(cp['cur_node_segno'][i], 3 + i) for i in range(3)] + \
        [(cp['cur_data_segno'][i], i) for i in range(3)]
    for segno, stype in logs:
        first = segno - segno % per
        for other in range(first, first + per):
            if other != segno:
                inject(tools, img, '--sit', 0, '--segno', other, '--mb', 'type', '--val', stype)


def verify_clean(tools, img, name):
    r = run([tools.fsck, '-n', img], tools.timeout)
    bad = [p for p in problems(r.out) if p[1] != 'info']
    if r.rc != 0 or bad:
        raise HardError('base %s is not clean for our fsck (exit %d): %s' %
                        (name, r.rc, '; '.join('F2FS-%04d %s' % (c, m) for c, _, m in bad[:3])))
    r = run([tools.fsck_oracle, '--dry-run', img], tools.timeout)
    if r.rc != 0:
        raise HardError('base %s is not clean for f2fs-tools (exit %d)' % (name, r.rc))


def build_base(tools, work, name):
    """Make base NAME in WORK (once) and return its path."""
    img = os.path.join(work, 'base-%s.img' % name)
    if os.path.exists(img):
        return img
    size, mkfs, opts, tree, steps = BASES[name]
    trees = make_sources(work)
    tmp = img + '.tmp'
    if os.path.exists(tmp):
        os.unlink(tmp)
    run(['truncate', '-s', size, tmp], 30)
    if mkfs == 'ours':
        argv = [tools.mkfs, '-f', '-q', '-r', '-T', FIXED_TIME, '-U', FIXED_UUID] + opts
    else:
        argv = [tools.mkfs_oracle, '-f', '-q', '-T', FIXED_TIME, '-U', FIXED_UUID] + opts
    r = run(argv + [tmp], tools.timeout)
    if r.rc != 0:
        raise HardError('mkfs for base %s: exit %d: %s' % (name, r.rc, r.err.strip()[:200]))
    if tree:
        if '-s' in opts:
            type_free_segments(tools, tmp)
        src = trees[tree.replace('-noctx', '')]
        sload(tools, tmp, src, None if tree.endswith('-noctx') else trees['contexts'])
    paths = {p: ino for ino, p in listing(tools, tmp)}
    for step in steps:
        STEPS[step](tools, tmp, paths)
    verify_clean(tools, tmp, name)
    os.rename(tmp, img)
    return img


MAX_IMPORT_BYTES = int(os.environ.get('FUZZ_MAX_BASE_MB', '128')) << 20


def kernel_images(dirs):
    """Kernel-made images the kernel tests left (tests/kernel/images/index:
    "name nature description"), clean or unclean-consistent ones only, and
    only those with at most FUZZ_MAX_BASE_MB (128) MiB allocated: every case
    copies its base, and the kernel sample reads every file under QEMU."""
    found = {}
    for d in dirs:
        index = os.path.join(d, 'tests/kernel/images/index')
        if not os.path.isfile(index):
            continue
        with open(index) as f:
            for line in f:
                cols = line.split()
                if len(cols) >= 2 and cols[1] in ('clean', 'unclean-consistent'):
                    path = os.path.join(d, 'tests/kernel/images', cols[0] + '.img')
                    if os.path.isfile(path) and 'k-' + cols[0] not in found and \
                            os.stat(path).st_blocks * 512 <= MAX_IMPORT_BYTES:
                        found['k-' + cols[0]] = path
    return found


def import_image(tools, work, name, src):
    img = os.path.join(work, 'base-%s.img' % name)
    if not os.path.exists(img):
        copy_sparse(src, img + '.tmp')
        verify_clean(tools, img + '.tmp', name)
        os.rename(img + '.tmp', img)
    return img


# ---- targets -------------------------------------------------------------

def inode_roles(info, ino, qf_inos):
    mode = info['i_mode'] & S_IFMT
    nblocks = sum(run['len'] for run in info.get('block_map', []))
    roles = []
    if ino == 3:
        roles.append('root')
    if ino in qf_inos:
        roles.append('quota')
    if mode == S_IFDIR:
        if info['i_inline'] & F2FS_INLINE_DENTRY:
            roles.append('dir_inline')
        elif nblocks >= 2:
            roles.append('dir_multi')
        elif nblocks == 1:
            roles.append('dir_block')
        if info.get('i_flags', 0) & F2FS_CASEFOLD_FL:
            roles.append('dir_casefold')
    elif mode == S_IFREG:
        if info.get('i_flags', 0) & F2FS_COMPR_FL:
            roles.append('file_compressed')
        if info['i_inline'] & F2FS_INLINE_DATA:
            roles.append('file_inline')
        elif info['i_nid'][2] or info['i_nid'][3]:
            roles.append('file_big')
        elif info['i_nid'][0]:
            roles.append('file_dnode')
        elif nblocks:
            roles.append('file_small')
        if info['i_links'] > 1:
            roles.append('file_hardlinked')
    elif mode == S_IFLNK:
        roles.append('symlink_inline' if info['i_inline'] & F2FS_INLINE_DATA or not nblocks
                     else 'symlink_block')
    else:
        roles.append('special')
    if info.get('i_xattr_nid'):
        roles.append('xattr_holder')
    if info.get('xattrs') and info['i_inline'] & 0x1:
        roles.append('inline_xattr')
    return roles


def pick_inodes(tools, img, entries, qf_inos, limit_per_dir=4):
    """Inode infos by role: the root's children and a few children of each
    other directory."""
    per_dir = {}
    roles = {}
    for ino, path in entries:
        parent = os.path.dirname(path) if path != '/' else ''
        per_dir[parent] = per_dir.get(parent, 0) + 1
        if parent not in ('', '/') and per_dir[parent] > limit_per_dir and ino not in qf_inos:
            continue
        info = inode_info(tools, img, ino)
        if not info:
            continue
        info['path'] = path
        for role in inode_roles(info, ino, qf_inos):
            roles.setdefault(role, []).append(info)
    for ino in qf_inos:
        if not any(i['ino'] == ino for i in roles.get('quota', [])):
            info = inode_info(tools, img, ino)
            if info:
                info['path'] = '(quota %d)' % ino
                roles.setdefault('quota', []).append(info)
    return roles


def node_blkaddr(info, nid):
    for n in info.get('node_blocks', []):
        if n['nid'] == nid:
            return n['blkaddr']
    return None


def nat_blkaddr(tools, img, nid):
    data = tool_json(tools, img, '-n', '%d~%d' % (nid, nid)).get('nat', {})
    for e in data.get('entries', []):
        if e['nid'] == nid:
            return e['blkaddr']
    return None


def seg_roles(sit, cp):
    cur = set(cp['cur_node_segno'][:3] + cp['cur_data_segno'][:3])
    out = {'cur_hot_node': cp['cur_node_segno'][0], 'cur_warm_node': cp['cur_node_segno'][1],
           'cur_cold_node': cp['cur_node_segno'][2], 'cur_hot_data': cp['cur_data_segno'][0],
           'cur_warm_data': cp['cur_data_segno'][1], 'cur_cold_data': cp['cur_data_segno'][2]}
    for s in sit:
        if s['segno'] in cur:
            continue
        node = s['type_raw'] >= 3
        if s['valid_blocks'] == 0:
            out['free'] = s['segno']          # the last one wins: far from the logs
        elif not node:
            out.setdefault('data_full' if s['valid_blocks'] == 512 else 'data_part', s['segno'])
        else:
            out.setdefault('node_used', s['segno'])
    return out


def resolve(tools, img):
    """Everything a case can aim at in this image, as plain JSON data."""
    sup = tool_json(tools, img, '--super')
    sb, cp = sup['superblock'], sup['checkpoint']
    qf = [q for q in sb.get('qf_ino', []) if q]
    entries = listing(tools, img)
    roles = pick_inodes(tools, img, entries, qf)
    t = {'layout': {k: sb[k] for k in ('block_count', 'cp_blkaddr', 'sit_blkaddr', 'nat_blkaddr',
                                        'ssa_blkaddr', 'main_blkaddr', 'segment_count_main',
                                        'segs_per_sec', 'log_blocks_per_seg',
                                        'segment_count_nat', 'segment_count_sit')},
         'size': os.path.getsize(img)}
    t['inodes'] = {role: [i['ino'] for i in infos[:3]] for role, infos in roles.items()}
    t['paths'] = {str(i['ino']): i['path'] for infos in roles.values() for i in infos}
    t['extra'] = {str(i['ino']): first_data_slot(i) for infos in roles.values() for i in infos}
    t['namelen'] = {str(i['ino']): i.get('i_namelen', 0) for infos in roles.values()
                    for i in infos}
    nodes = {}
    for role, infos in roles.items():
        info = infos[0]
        nodes['inode:' + role] = (info['ino'], info['node_blkaddr'])
        if info['i_nid'][0]:
            nodes['dnode:' + role] = (info['i_nid'][0], node_blkaddr(info, info['i_nid'][0]))
        if info['i_nid'][2]:
            nodes['indnode:' + role] = (info['i_nid'][2], node_blkaddr(info, info['i_nid'][2]))
        if info.get('i_xattr_nid'):
            nid = info['i_xattr_nid']
            nodes['xnode:' + role] = (nid, nat_blkaddr(tools, img, nid))
    t['nodes'] = {k: v for k, v in nodes.items() if v[1]}
    t['dents'] = dentry_targets(roles)
    sit = tool_json(tools, img, '-s', '0~-1')['sit']['segments']
    t['segs'] = seg_roles(sit, cp)
    t['cp'] = checkpoint_facts(tools, img, cp, sb)
    t['nids'] = nid_targets(roles, t['nodes'], cp, qf)
    t['blocks'] = block_targets(tools, img, t, roles, sb, cp)
    t['ssa_blks'] = ssa_targets(roles, t)
    return t


def dentry_targets(roles):
    """(role name, child ino, parent ino or 0, dots) for --dent."""
    out = []
    for role in ('file_inline', 'file_big', 'file_small', 'dir_block', 'dir_multi', 'symlink_block',
                 'special', 'file_hardlinked', 'dir_inline'):
        for info in [i for i in roles.get(role, []) if i['ino'] != 3][:1]:
            out.append(('entry:' + role, info['ino'], 0, 0))
    for role in ('dir_multi', 'dir_casefold', 'dir_inline', 'dir_block'):
        for info in roles.get(role, [])[:1]:
            out.append(('dot:' + role, info['ino'], 0, 1))
            out.append(('dotdot:' + role, info['ino'], 0, 2))
    # an entry inside a multi-block or casefolded directory
    for role in ('dir_multi', 'dir_casefold', 'dir_inline'):
        for info in roles.get(role, [])[:1]:
            for other in roles.get('file_inline', []) + roles.get('file_small', []):
                if os.path.dirname(other['path']) == info['path']:
                    out.append(('child:' + role, other['ino'], info['ino'], 0))
                    break
    return [list(d) for d in out]


def checkpoint_facts(tools, img, cp, sb):
    pack = cp['pack_in_use']            # 1 or 2
    other = sb['cp_blkaddr'] + (0 if pack == 2 else 1 << sb['log_blocks_per_seg'])
    facts = {'pack': pack, 'start': cp['pack_start_blkaddr'],
             'total': cp['cp_pack_total_block_count'], 'other_start': other,
             'start_sum': cp['cp_pack_start_sum'], 'flags': cp['ckpt_flags'],
             'sit_bitmap_bytes': cp['sit_ver_bitmap_bytesize'],
             'nat_bitmap_bytes': cp['nat_ver_bitmap_bytesize'],
             'orphans': bool(cp['ckpt_flags'] & 0x2), 'unclean': not cp['ckpt_flags'] & 1}
    nj = inject_probe(tools, img, '--nat', 0, '--mb', 'n_nats', '--val', 0)
    sj = inject_probe(tools, img, '--sit', 0, '--mb', 'n_sits', '--val', 0)
    facts['n_nats'] = int(nj[1], 0) if nj and nj[1] else 0
    facts['n_sits'] = int(sj[1], 0) if sj and sj[1] else 0
    chain = inject_probe(tools, img, '--cp', 0, '--mb', 'next_blkaddr', '--idx', 0, '--val', 0)
    facts['chain'] = chain[0] if chain else None
    bits = tool_json(tools, img, '--nat-bits').get('nat_bits', {})
    facts['nat_bits'] = bool(bits.get('cp_nat_bits_flag')) and bits.get('state') == 'valid'
    facts['nat_bits_blk'] = bits.get('blkaddr')
    facts['nat_blocks'] = bits.get('nat_blocks') or \
        (sb['segment_count_nat'] << sb['log_blocks_per_seg']) // 2
    return facts


def nid_targets(roles, nodes, cp, qf):
    out = {'root': 3}
    for key in ('inode:file_big', 'inode:file_inline', 'dnode:file_big', 'indnode:file_big',
                'xnode:xattr_holder', 'inode:dir_multi', 'inode:special'):
        if key in nodes:
            out[key] = nodes[key][0]
    if qf:
        out['quota'] = qf[0]
    out['free'] = cp['next_free_nid'] + 7
    return out


def block_targets(tools, img, t, roles, sb, cp):
    """Symbolic names of metadata and node blocks for the block-level cases."""
    c = t['cp']
    b = {'sb0': 0, 'sb1': 1, 'cp_head': c['start'], 'cp_tail': c['start'] + c['total'] - 1,
         'cp_sum': c['start'] + c['start_sum'], 'cp_other_head': c['other_start']}
    if c['nat_bits'] and c['nat_bits_blk']:
        b['nat_bits'] = c['nat_bits_blk']
    if c['orphans']:
        b['cp_orphan'] = c['start'] + 1
    for role, segno in t['segs'].items():
        if role in ('cur_hot_node', 'cur_warm_data', 'data_full', 'node_used', 'free'):
            found = inject_probe(tools, img, '--sit', 0, '--segno', segno, '--mb', 'mtime',
                                 '--val', 0)
            if found and found[0] is not None and 'journal' not in found[2]:
                b['sit_cur:' + role] = found[0]
            b['ssa:' + role] = sb['ssa_blkaddr'] + segno
    for copy in (1, 2):
        found = inject_probe(tools, img, '--sit', copy, '--segno', t['segs']['cur_hot_node'],
                             '--mb', 'mtime', '--val', 0)
        if found and found[0] is not None:
            b['sit_copy%d' % copy] = found[0]
    for key, nid in t['nids'].items():
        for copy in (1, 2):
            found = inject_probe(tools, img, '--nat', copy, '--nid', nid, '--mb', 'version',
                                 '--val', 0)
            if found and found[0] is not None:
                b['nat_copy%d:%s' % (copy, key)] = found[0]
    for key, (nid, blk) in t['nodes'].items():
        b['node:' + key] = blk
    for role in ('dir_multi', 'dir_block', 'dir_casefold', 'root'):
        for info in roles.get(role, [])[:1]:
            for i, blk in enumerate(real_blocks(info)[:2]):
                b['dent%d:%s' % (i, role)] = blk
    return b


def real_blocks(info):
    """The data block addresses of an inode, without NEW_ADDR/COMPRESS_ADDR."""
    return [r['blkaddr'] + k for r in info.get('block_map', []) if 0 < r['blkaddr'] < COMPRESS_ADDR
            for k in range(r['len'])]


def ssa_targets(roles, t):
    """Blocks whose summary entries the SSA cases change."""
    out = {}
    for role in ('file_big', 'file_small', 'dir_multi', 'symlink_block', 'file_compressed'):
        for info in roles.get(role, [])[:1]:
            if real_blocks(info):
                out['data:' + role] = real_blocks(info)[0]
    for key in ('dnode:file_big', 'inode:file_big', 'inode:root', 'xnode:xattr_holder'):
        if key in t['nodes']:
            out['node:' + key] = t['nodes'][key][1]
    return out
