/*
 * test_problem_table.c - the fsck problem table: codes sorted and unique,
 * names unique, every template token known, lookups find every entry,
 * and codes in the ranges their pass owns; and the table both ways with
 * the repair's routines: every fixable code's kind has one routine,
 * FIX_NONE and FIX_UNFIXABLE have none, and every routine applies a
 * kind some code uses.
 */
#include <stdbool.h>
#include <string.h>

#include "unit.h"
#include "fsck_problem.h"

static const char *const tokens[] = { "nid", "ino", "segno", "secno", "blkaddr", "sb", "cp",
	"found", "expected", "xfound", "xexpected", "idx", "path", "str" };

static int template_ok(const char *msg)
{
	const char *p = msg;

	while ((p = strchr(p, '{')) != NULL) {
		const char *e = strchr(p, '}');
		int known = 0;

		if (!e)
			return 0;
		for (size_t i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++)
			if (strlen(tokens[i]) == (size_t)(e - p - 1) && !memcmp(tokens[i], p + 1, (size_t)(e - p - 1)))
				known = 1;
		if (!known)
			return 0;
		p = e + 1;
	}
	return 1;
}

/* Every fix kind has one routine (none for FIX_NONE, FIX_UNFIXABLE), and
 * every routine is the routine of a kind some code of the table has. */
static void check_routines(void)
{
	bool used[FSCK_RT_COUNT] = { false };

	CHECK(fsck_fix_routine(FIX_NONE) == FSCK_RT_NONE);
	CHECK(fsck_fix_routine(FIX_UNFIXABLE) == FSCK_RT_NONE);
	for (size_t i = 0; i < fsck_n_problems; i++) {
		enum fsck_fix f = fsck_problems[i].fix;
		enum fsck_routine rt = fsck_fix_routine(f);

		if (f == FIX_NONE || f == FIX_UNFIXABLE)
			continue;
		CHECK(rt > FSCK_RT_NONE && rt < FSCK_RT_COUNT);
		if (rt > FSCK_RT_NONE && rt < FSCK_RT_COUNT)
			used[rt] = true;
	}
	for (int rt = FSCK_RT_NONE + 1; rt < FSCK_RT_COUNT; rt++) {
		CHECK(used[rt]);
		CHECK(strcmp(fsck_routine_name((enum fsck_routine)rt), "?") != 0);
	}
	/* every kind in the enumeration (in use or not) has a routine */
	for (int f = FIX_NONE + 1; f < FIX_KIND_COUNT; f++)
		if (f != FIX_UNFIXABLE)
			CHECK(fsck_fix_routine((enum fsck_fix)f) != FSCK_RT_NONE);
}

int main(void)
{
	CHECK(fsck_n_problems > 80);
	check_routines();
	for (size_t i = 0; i < fsck_n_problems; i++) {
		const struct fsck_problem_def *d = &fsck_problems[i];

		if (i)
			CHECK((int)fsck_problems[i - 1].code < (int)d->code);
		CHECK((int)d->code >= 1000 && (int)d->code < 9000);
		CHECK(d->name && d->msg && d->msg[0]);
		CHECK(template_ok(d->msg));
		CHECK(fsck_problem_find(d->code) == d);
		CHECK(d->severity == FSCK_SEV_ERROR || d->severity == FSCK_SEV_WARN ||
		      d->severity == FSCK_SEV_INFO);
		CHECK(strcmp(fsck_fix_name(d->fix), "?") != 0);
		/* every problem has a fix, or the reason it has none */
		if (d->fix == FIX_UNFIXABLE)
			CHECK(fsck_unfixable_why(d->code)[0] != 0);
		/* a problem (not information) always has a fix or a reason */
		if (d->severity != FSCK_SEV_INFO)
			CHECK(d->fix != FIX_NONE);
		/* information is never a problem to fix by hand */
		if (d->severity == FSCK_SEV_INFO)
			CHECK(d->preen_ok);
		/* preen fixes lose nothing a user can see: no name, node, block,
		 * NAT entry or place in the tree is given up unattended */
		if (d->fix == FIX_DENTRY_DROP || d->fix == FIX_NODE_DROP ||
		    d->fix == FIX_DATA_DROP || d->fix == FIX_NAT_CLEAR || d->fix == FIX_RECONNECT)
			CHECK(!d->preen_ok);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(fsck_problems[j].name, d->name) != 0);
	}
	CHECK(fsck_problem_find((enum fsck_problem)999) == NULL);
	CHECK(fsck_problem_find((enum fsck_problem)1099) == NULL);
	CHECK(fsck_problem_index(PR_SB_COPY_INVALID) == 0);
	return unit_finish("test_problem_table");
}
