/*
 * test_sit.c - the in-memory SIT model against a brute-force reference.
 *
 * A reference keeps its own current and checkpoint bitmaps per segment and
 * derives every count by recounting bits; long seeded random sequences of
 * allocations, releases, checkpoints and checkpoint=disable toggles must
 * leave the model's incremental counts (segment, section, free counts,
 * totals) equal to the recount, for several section sizes.  Also covers
 * f2fs_sit_load_entry's validation, the kernel's -EEXIST accounting, the
 * dirty list and that a checkpoint re-sums only the sections it touched.
 */
#include <stdlib.h>
#include <string.h>

#include "f2fs_err.h"
#include "f2fs_sit.h"
#include "unit.h"

/* ---- a deterministic PRNG (xorshift64*) ------------------------------- */

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

/* ---- the reference ------------------------------------------------------ */

struct ref_seg {
	uint8_t cur[SIT_VBLOCK_MAP_SIZE];
	uint8_t ckpt[SIT_VBLOCK_MAP_SIZE];
};

struct ref {
	uint32_t main_segs, segs_per_sec;
	bool cp_disabled;
	struct ref_seg *segs;
};

static unsigned int popcount_map(const uint8_t *a)
{
	unsigned int n = 0;

	for (int i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		n += (unsigned int)__builtin_popcount(a[i]);
	return n;
}

static unsigned int popcount_union(const uint8_t *a, const uint8_t *b)
{
	unsigned int n = 0;

	for (int i = 0; i < SIT_VBLOCK_MAP_SIZE; i++)
		n += (unsigned int)__builtin_popcount(a[i] | b[i]);
	return n;
}

static unsigned int ref_valid(const struct ref *r, uint32_t segno)
{
	return popcount_map(r->segs[segno].cur);
}

/* Kernel meaning: blocks of the last checkpoint plus blocks written since
 * that are still valid (with or without their ckpt bit). */
static unsigned int ref_ckpt_valid(const struct ref *r, uint32_t segno)
{
	return popcount_union(r->segs[segno].cur, r->segs[segno].ckpt);
}

static int ref_alloc(struct ref *r, uint32_t segno, uint32_t off)
{
	struct ref_seg *s = &r->segs[segno];

	if (f2fs_test_bit(off, s->cur))
		return -EEXIST;
	f2fs_set_bit(off, s->cur);
	if (!r->cp_disabled)
		f2fs_set_bit(off, s->ckpt);
	return 0;
}

static int ref_release(struct ref *r, uint32_t segno, uint32_t off, uint32_t n)
{
	struct ref_seg *s = &r->segs[segno];
	int ret = 0;

	for (uint32_t i = off; i < off + n; i++) {
		if (!f2fs_test_bit(i, s->cur))
			ret = -ENOENT;
		f2fs_clear_bit(i, s->cur);
	}
	return ret;
}

static void ref_checkpoint(struct ref *r)
{
	for (uint32_t s = 0; s < r->main_segs; s++)
		memcpy(r->segs[s].ckpt, r->segs[s].cur, SIT_VBLOCK_MAP_SIZE);
}

/* ---- comparisons ------------------------------------------------------- */

static int seg_mismatches;

static void check_segment(const struct f2fs_sit_model *m, const struct ref *r, uint32_t s)
{
	const struct f2fs_seg_entry *se = &m->segs[s];
	bool ok = se->valid_blocks == ref_valid(r, s) &&
		  se->ckpt_valid_blocks == ref_ckpt_valid(r, s) &&
		  !memcmp(se->cur_valid_map, r->segs[s].cur, SIT_VBLOCK_MAP_SIZE) &&
		  !memcmp(se->ckpt_valid_map, r->segs[s].ckpt, SIT_VBLOCK_MAP_SIZE);

	CHECK(ok);
	if (!ok && seg_mismatches++ < 5)
		fprintf(stderr, "segment %u: valid %u/%u ckpt %u/%u\n", s,
			se->valid_blocks, ref_valid(r, s), se->ckpt_valid_blocks,
			ref_ckpt_valid(r, s));
}

/* Recount everything from the reference bitmaps. */
static void check_all(const struct f2fs_sit_model *m, const struct ref *r)
{
	uint32_t free_segs = 0, free_secs = 0, bad_secs = 0;
	uint64_t total = 0;

	for (uint32_t s = 0; s < r->main_segs; s++) {
		check_segment(m, r, s);
		total += ref_valid(r, s);
		free_segs += ref_valid(r, s) == 0;
	}
	for (uint32_t sec = 0; sec < m->main_secs; sec++) {
		uint32_t v = 0, c = 0;

		for (uint32_t i = 0; i < r->segs_per_sec; i++) {
			v += ref_valid(r, sec * r->segs_per_sec + i);
			c += ref_ckpt_valid(r, sec * r->segs_per_sec + i);
		}
		free_secs += v == 0;
		if (m->secs[sec].valid_blocks != v || m->secs[sec].ckpt_valid_blocks != c)
			bad_secs++;
	}
	CHECK_EQ_U64(bad_secs, 0);
	CHECK_EQ_U64(m->free_segs, free_segs);
	CHECK_EQ_U64(m->free_secs, free_secs);
	CHECK_EQ_U64(m->total_valid_blocks, total);
}

/* ---- the long random sequence ----------------------------------------- */

struct run_stats {
	uint32_t checkpoints, toggles, sec_wipes, free_secs_seen_change;
	uint32_t full_segs_seen;
};

static void wipe_section(struct f2fs_sit_model *m, struct ref *r, uint32_t sec)
{
	for (uint32_t i = 0; i < r->segs_per_sec; i++) {
		uint32_t s = sec * r->segs_per_sec + i;
		int want = ref_release(r, s, 0, BLKS_PER_SEG);

		CHECK_EQ_U64(f2fs_sit_release_blocks(m, s, 0, BLKS_PER_SEG), want);
	}
}

/* First offset at or after off (wrapping) that is free in the reference,
 * or BLKS_PER_SEG if the segment is full. */
static uint32_t ref_next_free(const struct ref *r, uint32_t segno, uint32_t off)
{
	for (uint32_t i = 0; i < BLKS_PER_SEG; i++) {
		uint32_t k = (off + i) % BLKS_PER_SEG;

		if (!f2fs_test_bit(k, r->segs[segno].cur))
			return k;
	}
	return BLKS_PER_SEG;
}

static void random_step(struct f2fs_sit_model *m, struct ref *r, uint32_t *work,
			struct run_stats *st)
{
	uint32_t op = rng_below(10000);
	uint32_t s = work[rng_below(8)];
	uint32_t off = rng_below(BLKS_PER_SEG);

	if (op < 7000) {
		uint32_t k = ref_next_free(r, s, off);

		if (k == BLKS_PER_SEG) {	/* full: free a block instead */
			CHECK_EQ_U64(f2fs_sit_release_blocks(m, s, off, 1), 0);
			ref_release(r, s, off, 1);
		} else {
			CHECK_EQ_U64(f2fs_sit_alloc_block(m, s, k), ref_alloc(r, s, k));
		}
	} else if (op < 8000) {
		uint32_t n = 1 + rng_below(BLKS_PER_SEG - off < 4 ? BLKS_PER_SEG - off : 4);
		int want = ref_release(r, s, off, n);

		CHECK_EQ_U64(f2fs_sit_release_blocks(m, s, off, n), want);
	} else if (op < 8005) {
		int want = ref_release(r, s, 0, BLKS_PER_SEG);

		CHECK_EQ_U64(f2fs_sit_release_blocks(m, s, 0, BLKS_PER_SEG), want);
	} else if (op < 8105) {
		f2fs_sit_checkpoint(m);
		ref_checkpoint(r);
		st->checkpoints++;
	} else if (op < 8125) {
		m->cp_disabled = !m->cp_disabled;
		r->cp_disabled = m->cp_disabled;
		st->toggles++;
	} else if (op < 8129) {
		wipe_section(m, r, rng_below(m->main_secs));
		st->sec_wipes++;
	} else if (op < 8134) {
		work[rng_below(8)] = rng_below(r->main_segs);
	} else {	/* re-allocate a freed block of the same segment */
		uint32_t k = ref_next_free(r, s, 0);

		if (k < BLKS_PER_SEG)
			CHECK_EQ_U64(f2fs_sit_alloc_block(m, s, k), ref_alloc(r, s, k));
	}
	check_segment(m, r, s);
	if (m->segs[s].valid_blocks == BLKS_PER_SEG)
		st->full_segs_seen++;
}

static void run_random(uint32_t main_segs, uint32_t segs_per_sec, uint32_t ops,
		       uint64_t seed)
{
	struct f2fs_sit_model m;
	struct ref r = { main_segs, segs_per_sec, false, NULL };
	struct run_stats st = { 0 };
	uint32_t work[8], last_free_secs;

	rng_state = seed;
	CHECK_EQ_U64(f2fs_sit_init(&m, main_segs, segs_per_sec), 0);
	r.segs = calloc(main_segs, sizeof(*r.segs));
	for (int i = 0; i < 8; i++)
		work[i] = rng_below(main_segs);
	last_free_secs = m.free_secs;
	for (uint32_t i = 0; i < ops; i++) {
		random_step(&m, &r, work, &st);
		if (m.free_secs != last_free_secs) {
			st.free_secs_seen_change++;
			last_free_secs = m.free_secs;
		}
		if (i % 4096 == 0)
			check_all(&m, &r);
	}
	check_all(&m, &r);
	f2fs_sit_checkpoint(&m);
	ref_checkpoint(&r);
	check_all(&m, &r);
	CHECK_EQ_U64(m.n_dirty, 0);
	/* the sequence really exercised what it is meant to */
	CHECK(st.checkpoints > 10);
	CHECK(st.toggles > 4);
	CHECK(st.free_secs_seen_change > 2);
	CHECK(st.full_segs_seen > 0);
	printf("segs_per_sec %u: %u ops, %u checkpoints, %u toggles, %u section wipes, "
	       "free_secs changed %u times, %u steps on a full segment, end: %" PRIu64
	       " valid blocks, %u free segs, %u free secs\n",
	       segs_per_sec, ops, st.checkpoints, st.toggles, st.sec_wipes,
	       st.free_secs_seen_change, st.full_segs_seen, m.total_valid_blocks,
	       m.free_segs, m.free_secs);
	free(r.segs);
	f2fs_sit_free(&m);
}

/* ---- focused cases ------------------------------------------------------- */

static void make_raw(struct f2fs_sit_entry *raw, unsigned int count, unsigned int type,
		     unsigned int nbits, uint64_t mtime)
{
	memset(raw, 0, sizeof(*raw));
	raw->vblocks = cpu_to_le16((uint16_t)(count | (type << SIT_VBLOCKS_SHIFT)));
	for (unsigned int i = 0; i < nbits; i++)
		f2fs_set_bit(i * 3, raw->valid_map);
	raw->mtime = cpu_to_le64(mtime);
}

static void test_load_entry(void)
{
	struct f2fs_sit_model m;
	struct f2fs_sit_entry raw, back;

	CHECK_EQ_U64(f2fs_sit_init(&m, 8, 2), 0);
	CHECK_EQ_U64(m.free_segs, 8);
	CHECK_EQ_U64(m.free_secs, 4);

	make_raw(&raw, 3, CURSEG_WARM_NODE, 3, 12345);
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 1, &raw), 0);
	CHECK_EQ_U64(m.segs[1].valid_blocks, 3);
	CHECK_EQ_U64(m.segs[1].ckpt_valid_blocks, 3);
	CHECK_EQ_U64(m.segs[1].type, CURSEG_WARM_NODE);
	CHECK_EQ_U64(m.segs[1].mtime, 12345);
	CHECK(f2fs_test_bit(3, m.segs[1].cur_valid_map));
	CHECK(f2fs_test_bit(3, m.segs[1].ckpt_valid_map));
	CHECK(!m.segs[1].dirty);
	f2fs_sit_to_raw(&m, 1, &back);
	CHECK(!memcmp(&raw, &back, sizeof(raw)));

	/* MSB-first: block 0 is bit 0x80 of byte 0 */
	make_raw(&raw, 1, CURSEG_HOT_DATA, 1, 0);
	CHECK_EQ_U64(raw.valid_map[0], 0x80);

	/* count != popcount: corrupt, loaded anyway with the raw count */
	make_raw(&raw, 5, CURSEG_COLD_DATA, 4, 0);
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 2, &raw), -EFSCORRUPTED);
	CHECK_EQ_U64(m.segs[2].valid_blocks, 5);
	CHECK_EQ_U64(m.segs[2].type, CURSEG_COLD_DATA);

	/* count > 512 (and so != popcount) */
	make_raw(&raw, 600, CURSEG_HOT_NODE, 0, 0);
	memset(raw.valid_map, 0xff, sizeof(raw.valid_map));
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 3, &raw), -EFSCORRUPTED);
	CHECK_EQ_U64(m.segs[3].valid_blocks, 600);

	/* 512 and a full map is fine */
	make_raw(&raw, 512, CURSEG_HOT_NODE, 0, 0);
	memset(raw.valid_map, 0xff, sizeof(raw.valid_map));
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 4, &raw), 0);

	/* type >= 6 */
	make_raw(&raw, 2, NO_CHECK_TYPE, 2, 0);
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 5, &raw), -EFSCORRUPTED);
	CHECK_EQ_U64(m.segs[5].type, NO_CHECK_TYPE);
	make_raw(&raw, 2, 63, 2, 0);
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 5, &raw), -EFSCORRUPTED);
	CHECK_EQ_U64(m.segs[5].type, 63);
	f2fs_sit_to_raw(&m, 5, &back);
	CHECK_EQ_U64(GET_SIT_TYPE(&back), 63);

	/* out of range */
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 8, &raw), -EINVAL);

	/* incremental accounting during load agrees with finish_load */
	CHECK_EQ_U64(m.total_valid_blocks, 3 + 5 + 600 + 512 + 2);
	CHECK_EQ_U64(m.free_segs, 3);	/* 0, 6, 7 */
	CHECK_EQ_U64(m.free_secs, 1);	/* segs 6+7 */
	CHECK_EQ_U64(m.secs[0].valid_blocks, 3);
	CHECK_EQ_U64(m.secs[1].valid_blocks, 605);
	f2fs_sit_finish_load(&m);
	CHECK_EQ_U64(m.total_valid_blocks, 3 + 5 + 600 + 512 + 2);
	CHECK_EQ_U64(m.free_segs, 3);
	CHECK_EQ_U64(m.free_secs, 1);
	CHECK_EQ_U64(m.secs[1].ckpt_valid_blocks, 605);
	CHECK_EQ_U64(m.secs[2].valid_blocks, 514);

	/* reloading an entry with zero frees its segment and section again */
	make_raw(&raw, 0, CURSEG_HOT_DATA, 0, 0);
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 1, &raw), 0);
	CHECK_EQ_U64(m.free_segs, 4);
	CHECK_EQ_U64(m.free_secs, 2);

	/* releasing a block of a segment whose count is corrupt never wraps */
	make_raw(&raw, 0, CURSEG_HOT_DATA, 0, 0);
	f2fs_set_bit(7, raw.valid_map);
	CHECK_EQ_U64(f2fs_sit_load_entry(&m, 6, &raw), -EFSCORRUPTED);
	CHECK_EQ_U64(f2fs_sit_release_blocks(&m, 6, 7, 1), 0);
	CHECK_EQ_U64(m.segs[6].valid_blocks, 0);
	CHECK_EQ_U64(m.segs[6].ckpt_valid_blocks, 0);
	CHECK_EQ_U64(m.secs[3].valid_blocks, 0);
	f2fs_sit_free(&m);
}

static void test_range_and_errors(void)
{
	struct f2fs_sit_model m;

	CHECK_EQ_U64(f2fs_sit_init(&m, 0, 1), -EINVAL);
	CHECK_EQ_U64(f2fs_sit_init(&m, 10, 0), -EINVAL);
	CHECK_EQ_U64(f2fs_sit_init(&m, 10, 3), -EINVAL);
	CHECK_EQ_U64(f2fs_sit_init(&m, 12, 3), 0);
	CHECK_EQ_U64(m.main_secs, 4);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 12, 0), -EINVAL);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 0, 512), -EINVAL);
	CHECK_EQ_U64(f2fs_sit_release_blocks(&m, 0, 500, 13), -EINVAL);
	CHECK_EQ_U64(f2fs_sit_release_blocks(&m, 0, 500, 12), -ENOENT);
	CHECK_EQ_U64(m.segs[0].valid_blocks, 0);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 0, 511), 0);
	CHECK_EQ_U64(f2fs_sit_release_blocks(&m, 0, 510, 2), -ENOENT);
	CHECK_EQ_U64(m.segs[0].valid_blocks, 0);
	CHECK_EQ_U64(m.segs[0].ckpt_valid_blocks, 1);	/* until the next checkpoint */
	CHECK_EQ_U64(m.free_segs, 12);
	f2fs_sit_set_type(&m, 4, CURSEG_COLD_NODE);
	CHECK_EQ_U64(m.segs[4].type, CURSEG_COLD_NODE);
	CHECK(m.segs[4].dirty);
	f2fs_sit_set_type(&m, 99, CURSEG_COLD_NODE);	/* ignored */
	CHECK_EQ_U64(m.n_dirty, 2);
	f2fs_sit_checkpoint(&m);
	CHECK_EQ_U64(m.segs[0].ckpt_valid_blocks, 0);
	CHECK(!m.segs[0].dirty && !m.segs[4].dirty);
	f2fs_sit_free(&m);
}

/* The kernel's accounting when a block is allocated twice. */
static void test_double_alloc(void)
{
	struct f2fs_sit_model m;

	CHECK_EQ_U64(f2fs_sit_init(&m, 4, 2), 0);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 1, 10), 0);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 1, 10), -EEXIST);
	CHECK_EQ_U64(m.segs[1].valid_blocks, 1);
	CHECK_EQ_U64(m.segs[1].ckpt_valid_blocks, 1);
	CHECK_EQ_U64(m.secs[0].valid_blocks, 1);
	CHECK_EQ_U64(m.total_valid_blocks, 1);

	/* written while checkpointing is disabled: counted, ckpt bit clear */
	m.cp_disabled = true;
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 2, 5), 0);
	CHECK(!f2fs_test_bit(5, m.segs[2].ckpt_valid_map));
	CHECK_EQ_U64(m.segs[2].ckpt_valid_blocks, 1);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 2, 5), -EEXIST);	/* adds 0 */
	CHECK_EQ_U64(m.segs[2].ckpt_valid_blocks, 1);
	/* re-enabled: the kernel sets the ckpt bit and counts it again */
	m.cp_disabled = false;
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 2, 5), -EEXIST);
	CHECK(f2fs_test_bit(5, m.segs[2].ckpt_valid_map));
	CHECK_EQ_U64(m.segs[2].ckpt_valid_blocks, 2);
	CHECK_EQ_U64(m.secs[1].ckpt_valid_blocks, 2);
	CHECK_EQ_U64(m.segs[2].valid_blocks, 1);
	f2fs_sit_checkpoint(&m);
	CHECK_EQ_U64(m.segs[2].ckpt_valid_blocks, 1);
	CHECK_EQ_U64(m.secs[1].ckpt_valid_blocks, 1);
	f2fs_sit_free(&m);
}

/* A checkpoint re-sums the sections of dirty segments and no others. */
static void test_checkpoint_touches_dirty_sections_only(void)
{
	struct f2fs_sit_model m;

	CHECK_EQ_U64(f2fs_sit_init(&m, 12, 4), 0);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 5, 0), 0);
	CHECK_EQ_U64(f2fs_sit_alloc_block(&m, 6, 0), 0);
	CHECK_EQ_U64(m.n_dirty, 2);
	CHECK_EQ_U64(m.dirty_segs[0], 5);
	CHECK_EQ_U64(m.dirty_segs[1], 6);
	m.secs[2].ckpt_valid_blocks = 777;	/* untouched section: a marker */
	m.secs[1].ckpt_valid_blocks = 999;	/* touched section: re-summed */
	f2fs_sit_checkpoint(&m);
	CHECK_EQ_U64(m.secs[2].ckpt_valid_blocks, 777);
	CHECK_EQ_U64(m.secs[1].ckpt_valid_blocks, 2);
	CHECK_EQ_U64(m.n_dirty, 0);
	f2fs_sit_free(&m);
}

int main(void)
{
	test_range_and_errors();
	test_load_entry();
	test_double_alloc();
	test_checkpoint_touches_dirty_sections_only();
	run_random(64, 1, 200000, 0x5175eedull);
	run_random(30, 3, 200000, 0x5175eed3ull);
	run_random(4 * 128, 128, 200000, 0x5175eed128ull);
	run_random(4 * 512, 512, 200000, 0x5175eed512ull);
	return unit_finish("test_sit");
}
