/*
 * test_nat.c - the in-memory NAT model: get/set, the journal overriding
 * blocks (with the shadowed block value kept), per-block use counts,
 * valid_nodes and nat_bits against a brute-force recount after a long
 * seeded random sequence of sets, and the -ENODATA rules for blocks that
 * were never loaded.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_err.h"
#include "f2fs_nat.h"
#include "unit.h"

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static uint32_t rng_below(uint32_t n)
{
	return (uint32_t)(rng_next() % n);
}

static struct f2fs_nat_entry mk(uint8_t version, uint32_t ino, uint32_t addr)
{
	struct f2fs_nat_entry e;

	e.version = version;
	e.ino = cpu_to_le32(ino);
	e.block_addr = cpu_to_le32(addr);
	return e;
}

static bool same(const struct f2fs_nat_entry *a, const struct f2fs_nat_entry *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static void add_journal(struct f2fs_journal *j, uint32_t nid, struct f2fs_nat_entry e)
{
	uint16_t n = le16_to_cpu(j->n_nats);

	j->nat_j.entries[n].nid = cpu_to_le32(nid);
	j->nat_j.entries[n].ne = e;
	j->n_nats = cpu_to_le16((uint16_t)(n + 1));
}

/* ---- brute force -------------------------------------------------------- */

/* Returns the number of full blocks seen, so callers can tell the
 * comparison covered them. */
static uint32_t check_counts(const struct f2fs_nat_model *nm, const struct f2fs_nat_entry *ref)
{
	uint32_t nfull = 0;
	uint32_t valid = 0, bad_blocks = 0;
	size_t bytes = (nm->nat_blocks + 7) / 8;
	uint8_t *full = calloc(bytes, 1), *empty = calloc(bytes, 1);
	uint8_t *rfull = calloc(bytes, 1), *rempty = calloc(bytes, 1);

	for (uint32_t b = 0; b < nm->nat_blocks; b++) {
		uint32_t used = 0;

		for (uint32_t i = 0; i < NAT_ENTRY_PER_BLOCK; i++) {
			uint32_t nid = b * NAT_ENTRY_PER_BLOCK + i;

			if (nid >= nm->max_nid)
				break;
			if (nid == 0 || ref[nid].block_addr)
				used++;
			if (nid >= 3 && ref[nid].block_addr)
				valid++;
		}
		if (used != nm->block_used[b])
			bad_blocks++;
		if (used == NAT_ENTRY_PER_BLOCK) {
			set_bit_le(b, rfull);
			nfull++;
		}
		if (used == 0)
			set_bit_le(b, rempty);
	}
	CHECK_EQ_U64(bad_blocks, 0);
	CHECK_EQ_U64(nm->valid_nodes, valid);
	f2fs_nat_compute_bits(nm, full, empty);
	CHECK(!memcmp(full, rfull, bytes));
	CHECK(!memcmp(empty, rempty, bytes));
	free(full);
	free(empty);
	free(rfull);
	free(rempty);
	return nfull;
}

static void check_all_entries(const struct f2fs_nat_model *nm, const struct f2fs_nat_entry *ref)
{
	uint32_t bad = 0;
	struct f2fs_nat_entry e;

	for (uint32_t nid = 0; nid < nm->max_nid; nid++)
		if (f2fs_nat_get(nm, nid, &e) || !same(&e, &ref[nid]))
			bad++;
	CHECK_EQ_U64(bad, 0);
}

/* ---- tests ---------------------------------------------------------------- */

static void test_basic(void)
{
	struct f2fs_nat_model nm;
	struct f2fs_nat_entry e = mk(1, 7, 1000), out;
	uint8_t bitmap[1] = { 0xa0 };

	CHECK_EQ_U64(f2fs_nat_init(&nm, 0, NULL), -EINVAL);
	CHECK_EQ_U64(f2fs_nat_init(&nm, 455 * 4, bitmap), 0);
	CHECK_EQ_U64(nm.nat_blocks, 4);
	CHECK_EQ_U64(nm.cur_bitmap[0], 0xa0);
	/* nothing loaded: values unknown */
	CHECK_EQ_U64(f2fs_nat_get(&nm, 7, &out), -ENODATA);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 7, &e), -ENODATA);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 455 * 4, &out), -EINVAL);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 455 * 4, &e), -EINVAL);

	f2fs_nat_mark_all_loaded(&nm);
	CHECK_EQ_U64(nm.block_used[0], 1);	/* nid 0 */
	CHECK_EQ_U64(nm.block_used[1], 0);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 7, &e), 0);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 7, &out), 0);
	CHECK(same(&out, &e));
	CHECK_EQ_U64(nm.valid_nodes, 1);
	CHECK_EQ_U64(nm.block_used[0], 2);
	CHECK(test_bit_le(0, nm.block_dirty));
	CHECK(!test_bit_le(1, nm.block_dirty));

	/* reserved nids count as used but not as nodes */
	e = mk(0, 1, 1);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 1, &e), 0);
	CHECK_EQ_U64(nm.valid_nodes, 1);
	CHECK_EQ_U64(nm.block_used[0], 3);
	/* nid 0 never changes the count */
	CHECK_EQ_U64(f2fs_nat_set(&nm, 0, &e), 0);
	CHECK_EQ_U64(nm.block_used[0], 3);
	e = mk(0, 0, 0);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 0, &e), 0);
	CHECK_EQ_U64(nm.block_used[0], 3);

	/* freeing */
	e = mk(2, 7, 0);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 7, &e), 0);
	CHECK_EQ_U64(nm.valid_nodes, 0);
	CHECK_EQ_U64(nm.block_used[0], 2);
	f2fs_nat_free(&nm);
}

static void test_journal(void)
{
	struct f2fs_nat_model nm;
	struct f2fs_journal j, back;
	struct f2fs_nat_entry e, out;
	uint32_t blk2 = 2 * 455 + 9;

	memset(&j, 0, sizeof(j));
	add_journal(&j, 3, mk(0, 3, 5000));
	add_journal(&j, blk2, mk(4, blk2, 6000));
	add_journal(&j, 3, mk(9, 3, 7000));		/* repeat: ignored */
	add_journal(&j, 455 * 4, mk(0, 1, 1));		/* out of range: ignored */

	CHECK_EQ_U64(f2fs_nat_init(&nm, 455 * 4, NULL), 0);
	/* blocks first (nid 3 = 4000 in its block), then the journal */
	f2fs_nat_mark_all_loaded(&nm);
	e = mk(0, 3, 4000);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 3, &e), 0);
	CHECK_EQ_U64(nm.valid_nodes, 1);

	CHECK_EQ_U64(f2fs_nat_load_journal(&nm, &j), -EFSCORRUPTED);
	CHECK_EQ_U64(nm.journal_bad, 2);
	CHECK_EQ_U64(nm.n_journal, 4);
	CHECK(nm.journal_loaded);
	CHECK(!nm.journal_dirty);
	CHECK(f2fs_nat_in_journal(&nm, 3));
	CHECK(f2fs_nat_in_journal(&nm, blk2));
	CHECK(!f2fs_nat_in_journal(&nm, 4));
	CHECK(!f2fs_nat_in_journal(&nm, 455 * 4));
	CHECK_EQ_U64(f2fs_nat_get(&nm, 3, &out), 0);
	CHECK_EQ_U64(le32_to_cpu(out.block_addr), 5000);	/* first entry wins */
	CHECK_EQ_U64(le32_to_cpu(nm.journal_shadowed[0].block_addr), 4000);
	CHECK_EQ_U64(le32_to_cpu(nm.journal_shadowed[2].block_addr), 4000);
	CHECK_EQ_U64(le32_to_cpu(nm.journal_shadowed[1].block_addr), 0);
	CHECK_EQ_U64(f2fs_nat_get(&nm, blk2, &out), 0);
	CHECK_EQ_U64(le32_to_cpu(out.block_addr), 6000);
	CHECK_EQ_U64(nm.valid_nodes, 2);
	CHECK_EQ_U64(nm.block_used[2], 1);

	/* a set of a journalled nid goes to the journal, not the block */
	memset(nm.block_dirty, 0, nm.bitmap_bytes);
	e = mk(5, blk2, 0);
	CHECK_EQ_U64(f2fs_nat_set(&nm, blk2, &e), 0);
	CHECK(nm.journal_dirty);
	CHECK(!test_bit_le(2, nm.block_dirty));
	CHECK_EQ_U64(le32_to_cpu(nm.journal[1].ne.block_addr), 0);
	CHECK_EQ_U64(nm.journal[1].ne.version, 5);
	CHECK_EQ_U64(nm.block_used[2], 0);
	CHECK_EQ_U64(nm.valid_nodes, 1);

	f2fs_nat_journal_to_raw(&nm, &back);
	CHECK_EQ_U64(le16_to_cpu(back.n_nats), 4);
	CHECK_EQ_U64(le32_to_cpu(back.nat_j.entries[1].nid), blk2);
	CHECK_EQ_U64(back.nat_j.entries[1].ne.version, 5);

	/* loading another journal first puts the block values back */
	memset(&j, 0, sizeof(j));
	CHECK_EQ_U64(f2fs_nat_load_journal(&nm, &j), 0);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 3, &out), 0);
	CHECK_EQ_U64(le32_to_cpu(out.block_addr), 4000);
	CHECK_EQ_U64(f2fs_nat_get(&nm, blk2, &out), 0);
	CHECK_EQ_U64(le32_to_cpu(out.block_addr), 0);
	CHECK_EQ_U64(nm.valid_nodes, 1);
	f2fs_nat_free(&nm);

	/* journal before any block: its nids are known, the others not */
	memset(&j, 0, sizeof(j));
	add_journal(&j, 460, mk(0, 460, 123));
	CHECK_EQ_U64(f2fs_nat_init(&nm, 455 * 4, NULL), 0);
	CHECK_EQ_U64(f2fs_nat_load_journal(&nm, &j), 0);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 460, &out), 0);
	CHECK_EQ_U64(le32_to_cpu(out.block_addr), 123);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 461, &out), -ENODATA);
	e = mk(1, 460, 124);
	CHECK_EQ_U64(f2fs_nat_set(&nm, 460, &e), 0);	/* journal: allowed */
	CHECK_EQ_U64(f2fs_nat_set(&nm, 461, &e), -ENODATA);
	f2fs_nat_mark_all_loaded(&nm);
	CHECK_EQ_U64(f2fs_nat_get(&nm, 460, &out), 0);
	CHECK_EQ_U64(le32_to_cpu(out.block_addr), 124);
	CHECK_EQ_U64(nm.valid_nodes, 1);
	CHECK_EQ_U64(nm.block_used[1], 1);
	f2fs_nat_free(&nm);

	/* n_nats beyond the capacity */
	memset(&j, 0, sizeof(j));
	j.n_nats = cpu_to_le16(NAT_JOURNAL_ENTRIES + 3);
	CHECK_EQ_U64(f2fs_nat_init(&nm, 455, NULL), 0);
	CHECK_EQ_U64(f2fs_nat_load_journal(&nm, &j), -EFSCORRUPTED);
	CHECK_EQ_U64(nm.n_journal, NAT_JOURNAL_ENTRIES);
	CHECK(nm.journal_bad >= 3);
	f2fs_nat_free(&nm);
}

/* Fill a few blocks completely so "full" bits appear, then random sets. */
static void test_random(uint32_t nblocks, uint32_t ops, uint64_t seed)
{
	struct f2fs_nat_model nm;
	uint32_t max_nid = nblocks * NAT_ENTRY_PER_BLOCK;
	struct f2fs_nat_entry *ref = calloc(max_nid, sizeof(*ref));
	struct f2fs_journal j;
	uint32_t fulls = 0;

	rng_state = seed;
	CHECK_EQ_U64(f2fs_nat_init(&nm, max_nid, NULL), 0);
	memset(&j, 0, sizeof(j));
	for (uint32_t i = 0; i < 20; i++) {
		uint32_t nid = rng_below(max_nid);
		struct f2fs_nat_entry e = mk(0, nid, rng_below(3) ? 100 + i : 0);

		if (f2fs_nat_in_journal(&nm, nid))
			continue;
		add_journal(&j, nid, e);
		CHECK_EQ_U64(f2fs_nat_load_journal(&nm, &j), 0);
		ref[nid] = e;
	}
	f2fs_nat_mark_all_loaded(&nm);
	check_counts(&nm, ref);
	for (uint32_t i = 0; i < ops; i++) {
		uint32_t nid;
		struct f2fs_nat_entry e;

		if (i % 5000 == 0) {	/* fill one whole block */
			uint32_t b = rng_below(nblocks);

			for (uint32_t k = 0; k < NAT_ENTRY_PER_BLOCK; k++) {
				nid = b * NAT_ENTRY_PER_BLOCK + k;
				e = mk(1, nid, 7 + k);
				CHECK_EQ_U64(f2fs_nat_set(&nm, nid, &e), 0);
				ref[nid] = e;
			}
		}
		nid = rng_below(max_nid);
		e = mk((uint8_t)rng_next(), (uint32_t)rng_next(),
		       rng_below(2) ? (uint32_t)rng_next() | 1 : 0);
		CHECK_EQ_U64(f2fs_nat_set(&nm, nid, &e), 0);
		ref[nid] = e;
		if (i % 20000 == 0)
			fulls += check_counts(&nm, ref);
	}
	check_counts(&nm, ref);
	check_all_entries(&nm, ref);
	CHECK(fulls > 5);
	printf("random NAT: %u blocks, %u ops, %u full blocks seen, %u valid nodes\n",
	       nblocks, ops, fulls, nm.valid_nodes);
	f2fs_nat_free(&nm);
	free(ref);
}

int main(void)
{
	test_basic();
	test_journal();
	test_random(64, 200000, 0x4a7ull);
	return unit_finish("test_nat");
}
