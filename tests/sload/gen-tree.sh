#!/bin/sh
# tests/sload/gen-tree.sh DIR: a source tree exercising every inode layout
# sload.f2fs writes (run as root: owners, device nodes).
#   regular files: empty, inline (and one byte past the inline area), one
#     block, direct blocks only, direct nodes, indirect nodes, holes, sparse
#     to the double-indirect node (past 8.5 GiB), compressible text;
#   directories: empty, inline, one past inline, multi-level hashed (900
#     names of 12 to 251 bytes: six levels, as deep as 3000 short names
#     go, with a third of the files to create at each read-back), names
#     of 255 bytes;
#   fast and slow symlinks (up to 4000 bytes), a dangling one;
#   hard links across directories (a file and a FIFO), FIFOs, a socket,
#   character and block devices (old and new number encodings);
#   xattrs: user, trusted, security, small (inline) and large (xattr node);
#   setuid/setgid/sticky/000 modes, owners, times with nanoseconds, before
#   1970 and after 2038.
# The tree is ~30 MB on disk whatever the double-indirect file's size.
set -e
d=$1
[ -n "$d" ] || { echo "usage: gen-tree.sh DIR" >&2; exit 2; }
mkdir -p "$d"
cd "$d"

mkdir -p files dirs links special xattr modes
# regular files
: > files/empty
printf 'inline data\n' > files/small
head -c 3452 /dev/urandom > files/inline_max36
head -c 3453 /dev/urandom > files/inline_max36_plus1
head -c 3488 /dev/urandom > files/inline_max0
head -c 4096 /dev/urandom > files/one_block
head -c 409600 /dev/urandom > files/direct
head -c 6000000 /dev/urandom > files/dnodes
head -c 13000000 /dev/urandom > files/indirect
head -c 8192 /dev/urandom > files/holes
truncate -s 20M files/holes
printf 'middle' | dd of=files/holes bs=4096 seek=2000 conv=notrunc 2>/dev/null
printf 'end' >> files/holes
truncate -s 9G files/dind
printf 'past the double indirect node' >> files/dind
truncate -s 100M files/all_hole
# compressible (for -c): text in clusters, a tail that is not a whole cluster
python3 -c "
import random
r = random.Random(7)
words = ['alpha ', 'beta ', 'gamma\\n', 'delta ', 'epsilon ']
open('files/text', 'w').write(''.join(r.choice(words) for _ in range(400000)))
open('files/text_tail', 'w').write('z' * 70000)
"

# directories
mkdir dirs/empty dirs/inline dirs/inline_plus dirs/hashed dirs/longnames
for i in $(seq 1 10); do echo "$i" > dirs/inline/f$i; done
# 180 slots inline with extra_attr: 2 dots + 90 two-slot names overflow
for i in $(seq 1 100); do : > "dirs/inline_plus/name_number_$i"; done
python3 - <<'PY'
import os
for i in range(900):
    open('dirs/hashed/entry-%05d-%s' % (i, 'x' * ((i * 37) % 240)), 'w').close()
for i in range(20):
    n = ('%02d' % i) + 'L' * 253
    open('dirs/longnames/' + n, 'w').write(n[:10])
PY
mkdir -p dirs/deep/a/b/c/d/e/f/g/h
echo deep > dirs/deep/a/b/c/d/e/f/g/h/leaf

# symlinks
ln -s ../files/small links/fast
ln -s "$(printf 'p%.0s' $(seq 1 300))" links/medium
ln -s "$(printf 'q%.0s' $(seq 1 4000))" links/slow
ln -s /nonexistent/target links/dangling

# hard links, special files
echo shared > links/hard1
ln links/hard1 files/hard2
ln links/hard1 dirs/hard3
mkfifo special/fifo
ln special/fifo special/fifo_link
python3 -c "import socket; s = socket.socket(socket.AF_UNIX); s.bind('special/socket')"
mknod special/null c 1 3
mknod special/sda1 b 8 1
mknod special/big_numbers c 300 70000

# xattrs
echo x > xattr/user_small
python3 - <<'PY'
import os
os.setxattr('xattr/user_small', 'user.colour', b'blue')
open('xattr/many', 'w').write('m')
for i in range(12):
    os.setxattr('xattr/many', 'user.attr%02d' % i, b'v' * (i * 7))
open('xattr/node', 'w').write('n')
os.setxattr('xattr/node', 'user.big', os.urandom(3000))
os.setxattr('xattr/node', 'user.small', b'1')
open('xattr/trusted', 'w').write('t')
os.setxattr('xattr/trusted', 'trusted.overlay', b'y')
os.setxattr('xattr/trusted', 'security.test', b'label\0')
os.mkdir('xattr/dir')
os.setxattr('xattr/dir', 'user.on_dir', b'dir value')
os.setxattr('special/fifo', 'trusted.on_fifo', b'f')
os.setxattr('links/fast', 'trusted.on_link', b'l', follow_symlinks=False)
PY

# modes, owners, times
echo s > modes/setuid && chmod 4755 modes/setuid
echo g > modes/setgid && chmod 2711 modes/setgid
mkdir modes/sticky && chmod 1777 modes/sticky
echo z > modes/none && chmod 000 modes/none
echo o > modes/owned && chown 1234:5678 modes/owned
echo b > modes/bigid && chown 100000:200000 modes/bigid
python3 - <<'PY'
import os
os.utime('modes/owned', ns=(1500000000123456789, 1600000000987654321))
os.utime('modes/bigid', ns=(-100000 * 10**9, -86400 * 10**9 + 5))
os.utime('modes/setuid', ns=(4102444800 * 10**9, 4102444800 * 10**9 + 999999999))
PY
