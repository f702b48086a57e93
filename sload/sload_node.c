/*
 * sload_node.c - node blocks (footer, log, NAT entry) and the block map
 * of a file: data slots of the inode, then direct nodes under the inode,
 * under the two indirect nodes and under the double-indirect node, filled
 * in file block order and written as each one is complete.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_err.h"
#include "f2fs_crc.h"
#include "sload.h"

#define N_ ((uint64_t)NIDS_PER_BLOCK)

static bool node_is_indirect(uint32_t ofs)
{
	if (ofs == XATTR_NODE_OFFSET)
		return false;
	if (ofs == 3 || ofs == N_ + 4 || ofs == 2 * N_ + 5)
		return true;
	return ofs >= 2 * N_ + 6 && (ofs - (2 * N_ + 6)) % (N_ + 1) == 0;
}

/* nid's NAT entry in memory again if a write-back dropped its block. */
int sload_nat_ready(struct sload_ctx *c, uint32_t nid)
{
	return f2fs_nat_reload(c->fs, &c->nat, nid);
}

/* Every SLOAD_NAT_WRITEBACK_NIDS nids, the NAT blocks below the
 * allocation cursor go out to disk and leave memory. */
static int nat_writeback_due(struct sload_ctx *c)
{
	int err;

	if (c->nids.cursor < c->nat_writeback_at)
		return 0;
	err = f2fs_nat_writeback(c->fs, &c->nat, c->nids.cursor);
	c->nat_writeback_at = (uint64_t)c->nids.cursor + c->o.nat_writeback;
	return err;
}

int sload_read_node(struct sload_ctx *c, uint32_t nid, struct f2fs_nat_entry *e,
		    struct f2fs_node *n)
{
	int err = sload_nat_ready(c, nid);

	if (!err)
		err = f2fs_nat_get(&c->nat, nid, e);

	if (!err && !f2fs_blkaddr_in_main(c->fs, le32_to_cpu(e->block_addr)))
		err = -EFSCORRUPTED;
	if (!err)
		err = f2fs_dev_read(c->fs->dev, le32_to_cpu(e->block_addr), 1, n);
	return err;
}

/* The log the kernel writes a node to: directories' inodes and direct
 * nodes hot, other files' warm, indirect nodes cold. */
static int node_log(uint32_t ofs, bool is_dir)
{
	if (node_is_indirect(ofs))
		return CURSEG_COLD_NODE;
	return is_dir ? CURSEG_HOT_NODE : CURSEG_WARM_NODE;
}

int sload_write_node(struct sload_ctx *c, struct f2fs_node *n, uint32_t nid, uint32_t ino,
		     uint32_t ofs, bool is_dir, bool inode)
{
	struct f2fs_summary sum = { .nid = cpu_to_le32(nid), .version = 0, .ofs_in_node = 0 };
	uint32_t addr;
	int err;
	void *slot = f2fs_logs_next(&c->logs, node_log(ofs, is_dir), &sum, &addr, &err);

	if (!slot)
		return err;
	n->footer.nid = cpu_to_le32(nid);
	n->footer.ino = cpu_to_le32(ino);
	n->footer.flag = cpu_to_le32((ofs << OFFSET_BIT_SHIFT) | (is_dir ? 0u : 1u << COLD_BIT_SHIFT));
	n->footer.cp_ver = cpu_to_le64(c->cp_ver);
	n->footer.next_blkaddr = cpu_to_le32(addr + 1);
	if (inode)
		sload_inode_checksum(c, n);
	memcpy(slot, n, F2FS_BLKSIZE);
	err = sload_nat_ready(c, nid);
	if (!err)
		err = f2fs_nid_set(&c->nat, nid, ino, addr);
	if (!err)
		err = nat_writeback_due(c);
	if (err)
		return err;
	c->block_delta++;
	c->node_delta++;
	c->st.node_blocks++;
	if (inode)
		c->inode_delta++;
	return 0;
}

void sload_fmap_init(struct sload_fmap *m, struct sload_ctx *c, struct f2fs_node *inode,
		     uint32_t ino, bool is_dir)
{
	memset(m, 0, sizeof(*m));
	m->c = c;
	m->inode = inode;
	m->ino = ino;
	m->is_dir = is_dir;
	m->base = sload_inode_extra_words(&inode->i);
	m->in_inode = sload_inode_data_slots(c, &inode->i);
	m->addrs_per_block = ADDRS_PER_BLOCK;
	if (inode->i.i_flags & cpu_to_le32(F2FS_COMPR_FL)) {
		uint32_t cluster = 1u << inode->i.i_log_cluster_size;

		m->in_inode -= m->in_inode % cluster;
		m->addrs_per_block -= ADDRS_PER_BLOCK % cluster;
	}
}

static int new_node(struct sload_fmap *m, struct f2fs_node **n, uint32_t *nid)
{
	int err;

	if (!*n) {
		*n = malloc(sizeof(**n));
		if (!*n)
			return -ENOMEM;
	}
	memset(*n, 0, sizeof(**n));
	err = f2fs_nid_alloc(&m->c->nids, nid);
	return err;
}

static int finish_dn(struct sload_fmap *m)
{
	int err;

	if (!m->dn_nid)
		return 0;
	err = sload_write_node(m->c, m->dn, m->dn_nid, m->ino, m->dn_ofs, m->is_dir, false);
	m->dn_nid = 0;
	m->blocks++;
	return err;
}

static int finish_ind(struct sload_fmap *m)
{
	int err;

	if (!m->ind_nid)
		return 0;
	err = sload_write_node(m->c, m->ind, m->ind_nid, m->ino, m->ind_ofs, m->is_dir, false);
	m->ind_nid = 0;
	m->blocks++;
	return err;
}

/* Where the direct node of block rel (counted after the inode's slots)
 * hangs: its node offset, the indirect node above it (offset, or 0 for
 * none), the slot in that parent, and the indirect node's slot in the
 * double-indirect node (or -1). */
struct dn_place {
	uint32_t dn_ofs, ind_ofs;
	int inode_slot;		/* i_nid[] index of the topmost parent */
	uint32_t parent_slot;	/* slot of the dn in its indirect node */
	int64_t dind_slot;	/* slot of the indirect node in the dind */
	uint32_t in_dn;		/* slot of the block in its dn */
};

/* Direct node k (counted from the first one under the inode) and block
 * slot in_dn; a direct node holds apb data slots (1018, or less for a
 * compressed file, whose clusters never cross a node). */
static int place_block(uint64_t rel, uint32_t apb, struct dn_place *p)
{
	uint64_t k = rel / apb;

	memset(p, 0, sizeof(*p));
	p->dind_slot = -1;
	p->in_dn = (uint32_t)(rel % apb);
	if (k < 2) {
		p->inode_slot = (int)k;
		p->dn_ofs = 1 + (uint32_t)k;
		return 0;
	}
	k -= 2;
	if (k < 2 * N_) {
		uint64_t i = k / N_, j = k % N_;

		p->inode_slot = 2 + (int)i;
		p->ind_ofs = i ? (uint32_t)(N_ + 4) : 3;
		p->parent_slot = (uint32_t)j;
		p->dn_ofs = p->ind_ofs + 1 + (uint32_t)j;
		return 0;
	}
	k -= 2 * N_;
	if (k >= N_ * N_)
		return -EFBIG;
	p->inode_slot = 4;
	p->dind_slot = (int64_t)(k / N_);
	p->ind_ofs = (uint32_t)(2 * N_ + 6 + (uint64_t)p->dind_slot * (N_ + 1));
	p->parent_slot = (uint32_t)(k % N_);
	p->dn_ofs = p->ind_ofs + 1 + p->parent_slot;
	return 0;
}

static int open_dind(struct sload_fmap *m)
{
	int err;

	if (m->dind_nid)
		return 0;
	err = new_node(m, &m->dind, &m->dind_nid);
	if (!err)
		m->inode->i.i_nid[4] = cpu_to_le32(m->dind_nid);
	return err;
}

static int open_ind(struct sload_fmap *m, const struct dn_place *p)
{
	int err;

	if (m->ind_nid && m->ind_ofs == p->ind_ofs)
		return 0;
	err = finish_ind(m);
	if (!err && p->dind_slot >= 0)
		err = open_dind(m);
	if (!err)
		err = new_node(m, &m->ind, &m->ind_nid);
	if (err)
		return err;
	m->ind_ofs = p->ind_ofs;
	if (p->dind_slot >= 0)
		m->dind->in.nid[p->dind_slot] = cpu_to_le32(m->ind_nid);
	else
		m->inode->i.i_nid[p->inode_slot] = cpu_to_le32(m->ind_nid);
	return 0;
}

static int open_dn(struct sload_fmap *m, const struct dn_place *p)
{
	int err;

	if (m->dn_nid && m->dn_ofs == p->dn_ofs)
		return 0;
	err = finish_dn(m);
	if (!err && p->ind_ofs)
		err = open_ind(m, p);
	if (!err)
		err = new_node(m, &m->dn, &m->dn_nid);
	if (err)
		return err;
	m->dn_ofs = p->dn_ofs;
	if (p->ind_ofs)
		m->ind->in.nid[p->parent_slot] = cpu_to_le32(m->dn_nid);
	else
		m->inode->i.i_nid[p->inode_slot] = cpu_to_le32(m->dn_nid);
	return 0;
}

static int put_data(struct sload_fmap *m, int log, uint32_t owner, uint32_t slot_idx,
		    const void *data, uint32_t *addr)
{
	int err = sload_nat_ready(m->c, owner);
	struct f2fs_summary sum = {
		.nid = cpu_to_le32(owner),
		.version = f2fs_nid_version(&m->c->nat, owner),
		.ofs_in_node = cpu_to_le16((uint16_t)slot_idx),
	};
	void *slot = err ? NULL : f2fs_logs_next(&m->c->logs, log, &sum, addr, &err);

	if (!slot)
		return err;
	memcpy(slot, data, F2FS_BLKSIZE);
	m->c->block_delta++;
	m->c->st.data_blocks++;
	m->blocks++;
	return 0;
}

int sload_fmap_add(struct sload_fmap *m, uint64_t index, const void *data, int log)
{
	struct dn_place p;
	uint32_t addr;
	int err;

	if (index < m->in_inode) {
		err = put_data(m, log, m->ino, (uint32_t)index, data, &addr);
		if (!err)
			m->inode->i.i_addr[m->base + index] = cpu_to_le32(addr);
		return err;
	}
	err = place_block(index - m->in_inode, m->addrs_per_block, &p);
	if (!err)
		err = open_dn(m, &p);
	if (!err)
		err = put_data(m, log, m->dn_nid, p.in_dn, data, &addr);
	if (!err)
		m->dn->dn.addr[p.in_dn] = cpu_to_le32(addr);
	return err;
}

/* A slot without a block of its own (COMPRESS_ADDR, NEW_ADDR): when
 * counted, it counts in i_blocks and the valid block count, never in the
 * SIT. */
int sload_fmap_reserve(struct sload_fmap *m, uint64_t index, uint32_t value, bool counted)
{
	struct dn_place p;
	int err;

	if (counted) {
		m->c->block_delta++;
		m->blocks++;
	}
	if (index < m->in_inode) {
		m->inode->i.i_addr[m->base + index] = cpu_to_le32(value);
		return 0;
	}
	err = place_block(index - m->in_inode, m->addrs_per_block, &p);
	if (!err)
		err = open_dn(m, &p);
	if (!err)
		m->dn->dn.addr[p.in_dn] = cpu_to_le32(value);
	return err;
}

int sload_fmap_finish(struct sload_fmap *m)
{
	int err = finish_dn(m);

	if (!err)
		err = finish_ind(m);
	if (!err && m->dind_nid) {
		err = sload_write_node(m->c, m->dind, m->dind_nid, m->ino, (uint32_t)(2 * N_ + 5),
				       m->is_dir, false);
		m->dind_nid = 0;
		m->blocks++;
	}
	return err;
}

void sload_fmap_free(struct sload_fmap *m)
{
	free(m->dn);
	free(m->ind);
	free(m->dind);
	m->dn = m->ind = m->dind = NULL;
}
