/*
 * tar-gen.c - the fsck benchmark's tree (bench/fsck-bench.sh make_src) as
 * a ustar stream on standard output, so sload.f2fs --tar - can build a
 * populated image without the tree ever touching the disk:
 *
 *   tar-gen N [MTIME] | sload.f2fs --tar - IMAGE
 *
 * N files in directories d0 .. d(N/1000 rounded up - 1) of 1,000 names
 * f0 .. f999 each, every 455th file (by its number d * 1000 + i) left
 * out, each file holding "d/i\n" as make_src's echo writes it; mode 0644,
 * directories 0755, owner 0, every time MTIME (default 1700000000).  Names
 * come in strcmp order, the order sload.f2fs walks a directory in, so the
 * image is laid out as a load of make_src's tree would be.  Not a test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 512

static unsigned long long mtime = 1700000000ULL;

static void octal(char *f, size_t n, unsigned long long v)
{
	snprintf(f, n, "%0*llo", (int)(n - 1), v);
}

/* One header block (and the data, padded) for name. */
static void put_entry(const char *name, char type, unsigned int mode, const char *data, size_t len)
{
	char h[BLOCK] = { 0 };
	unsigned int sum = 0;

	snprintf(h, 100, "%s", name);
	octal(h + 100, 8, mode);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	octal(h + 124, 12, len);
	octal(h + 136, 12, mtime);
	memset(h + 148, ' ', 8);
	h[156] = type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	for (int k = 0; k < BLOCK; k++)
		sum += (unsigned char)h[k];
	snprintf(h + 148, 8, "%06o", sum);
	h[155] = ' ';
	fwrite(h, BLOCK, 1, stdout);
	if (len) {
		char pad[BLOCK] = { 0 };

		fwrite(data, len, 1, stdout);
		fwrite(pad, (BLOCK - len % BLOCK) % BLOCK, 1, stdout);
	}
}

static int cmp_as_names(const void *a, const void *b)
{
	char x[16], y[16];

	snprintf(x, sizeof(x), "%u", *(const unsigned int *)a);
	snprintf(y, sizeof(y), "%u", *(const unsigned int *)b);
	return strcmp(x, y);
}

/* 0 .. n-1 in the order of their decimal names. */
static unsigned int *name_order(unsigned int n)
{
	unsigned int *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (unsigned int k = 0; k < n; k++)
		v[k] = k;
	qsort(v, n, sizeof(*v), cmp_as_names);
	return v;
}

int main(int argc, char **argv)
{
	unsigned long long nfiles;
	unsigned int ndirs, *dirs, *files;
	char *end;
	static char obuf[1 << 20];

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: tar-gen N [MTIME] | sload.f2fs --tar - IMAGE\n");
		return 2;
	}
	nfiles = strtoull(argv[1], &end, 10);
	if (*end || nfiles > 4000000000ULL) {
		fprintf(stderr, "tar-gen: %s: expected a file count\n", argv[1]);
		return 2;
	}
	if (argc == 3)
		mtime = strtoull(argv[2], NULL, 10);
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	ndirs = (unsigned int)((nfiles + 999) / 1000);
	dirs = name_order(ndirs);
	files = name_order(1000);
	if (!dirs || !files)
		return 1;
	for (unsigned int a = 0; a < ndirs; a++) {
		unsigned int d = dirs[a];
		char name[64], data[32];

		snprintf(name, sizeof(name), "d%u/", d);
		put_entry(name, '5', 0755, NULL, 0);
		for (unsigned int b = 0; b < 1000; b++) {
			unsigned int i = files[b];
			unsigned long long num = (unsigned long long)d * 1000 + i;
			int len;

			if (num >= nfiles || num % 455 == 454)
				continue;
			snprintf(name, sizeof(name), "d%u/f%u", d, i);
			len = snprintf(data, sizeof(data), "%u/%u\n", d, i);
			put_entry(name, '0', 0644, data, (size_t)len);
		}
	}
	{
		char zeros[2 * BLOCK] = { 0 };

		fwrite(zeros, sizeof(zeros), 1, stdout);
	}
	free(dirs);
	free(files);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
