/*
 * test_casefold.c - f2fs_casefold(): the folding the kernel applies to
 * names in casefolded directories (Unicode 12.1 NFD, full case folding,
 * default-ignorables removed, canonical order), on names whose foldings
 * the kernel itself confirmed (tests/kernel/casefold.sh looks each of
 * these files up by the other spelling), and the refusals.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "f2fs_casefold.h"
#include "unit.h"

static uint8_t out[F2FS_CASEFOLD_MAX];

/* Does name fold to want? */
static bool folds_to(const char *name, const char *want)
{
	int n = f2fs_casefold((const uint8_t *)name, strlen(name), out, sizeof(out));

	return n == (int)strlen(want) && !memcmp(out, want, (size_t)n);
}

static bool same_folding(const char *a, const char *b)
{
	uint8_t other[F2FS_CASEFOLD_MAX];
	int n = f2fs_casefold((const uint8_t *)a, strlen(a), out, sizeof(out));
	int m = f2fs_casefold((const uint8_t *)b, strlen(b), other, sizeof(other));

	return n >= 0 && n == m && !memcmp(out, other, (size_t)n);
}

static void test_ascii(void)
{
	CHECK(folds_to("Hello-World_1.TXT", "hello-world_1.txt"));
	CHECK(folds_to("", ""));
	CHECK(folds_to("lost+found", "lost+found"));
}

static void test_foldings(void)
{
	CHECK(folds_to("Stra\xc3\x9f" "e", "strasse"));		/* sharp s */
	CHECK(folds_to("\xc3\x89" "COLE", "e\xcc\x81" "cole"));	/* É -> e + acute */
	CHECK(folds_to("\xef\xac\x81" "le", "file"));		/* fi ligature */
	CHECK(folds_to("\xe2\x84\xaa", "k"));			/* Kelvin sign */
	CHECK(folds_to("\xe2\x84\xab", "a\xcc\x8a"));		/* Angstrom sign */
	CHECK(folds_to("\xc4\xb0", "i\xcc\x87"));		/* capital I, dot above */
	CHECK(folds_to("\xc7\x85", "\xc7\x86"));		/* titlecase dz caron */
	CHECK(folds_to("\xea\xad\xb0", "\xe1\x8e\xa0"));	/* Cherokee: to capital */
	/* Greek: final and medial sigma fold alike, tonos decomposes */
	CHECK(same_folding("\xce\xa3\xce\x8a\xce\xa3\xce\xa5\xce\xa6\xce\x9f\xce\xa3",
			   "\xcf\x83\xce\xaf\xcf\x83\xcf\x85\xcf\x86\xce\xbf\xcf\x82"));
	/* Hangul syllables decompose to jamo: L V T, L V */
	CHECK(folds_to("\xed\x95\x9c\xea\xb8\x80",
		       "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab\xe1\x84\x80\xe1\x85\xb3\xe1\x86\xaf"));
}

static void test_ignorables_and_order(void)
{
	CHECK(folds_to("a\xe2\x80\x8b" "b", "ab"));		/* zero width space */
	CHECK(folds_to("v\xef\xb8\x8fS", "vs"));		/* variation selector */
	CHECK(folds_to("r\xf3\xa0\x82\x80" "x", "rx"));		/* reserved ignorable */
	/* acute (230) after dot below (220) */
	CHECK(folds_to("x\xcc\x81\xcc\x96", "x\xcc\x96\xcc\x81"));
	CHECK(same_folding("x\xcc\x81\xcc\x96", "X\xcc\x96\xcc\x81"));
	/* an ignorable between marks ends the run: no reordering across it */
	CHECK(folds_to("x\xcc\x81\xe2\x80\x8b\xcc\x96", "x\xcc\x81\xcc\x96"));
}

static void test_pass_through(void)
{
	CHECK(folds_to("\xf0\x9f\x98\x80.TXT", "\xf0\x9f\x98\x80.txt"));	/* emoji */
	CHECK(folds_to("\xf0\x9f\xab\x90", "\xf0\x9f\xab\x90"));	/* Unicode 13 */
	CHECK(folds_to("n\xef\xbf\xbe" "C", "n\xef\xbf\xbe" "c"));	/* noncharacter */
}

static void test_refusals(void)
{
	static const char *bad[] = {
		"\xff" "bad", "a\x80", "\xc3", "\xc0\xaf", "\xe0\x80\xaf",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80",
	};
	uint8_t name[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_U64(f2fs_casefold((const uint8_t *)bad[i], strlen(bad[i]), out,
					   sizeof(out)), (uint64_t)-EINVAL);
	memset(name, 'A', sizeof(name));
	CHECK_EQ_U64(f2fs_casefold(name, 256, out, sizeof(out)), (uint64_t)-ENAMETOOLONG);
	CHECK_EQ_U64(f2fs_casefold(name, 255, out, sizeof(out)), 255);
	CHECK_EQ_U64(f2fs_casefold(name, 10, out, 8), (uint64_t)-ENAMETOOLONG);
	/* 85 x U+1F82 (3 bytes, folds to 4 code points, 8 bytes): fits */
	for (int i = 0; i < 85; i++)
		memcpy(name + 3 * i, "\xe1\xbe\x82", 3);
	CHECK_EQ_U64(f2fs_casefold(name, 255, out, sizeof(out)), 85 * 8);
}

int main(void)
{
	test_ascii();
	test_foldings();
	test_ignorables_and_order();
	test_pass_through();
	test_refusals();
	return unit_finish("test_casefold");
}
