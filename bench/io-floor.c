/*
 * io-floor.c - how fast this machine can bring an image's allocated blocks
 * into memory: every data range of the (sparse) image file is announced
 * first (posix_fadvise WILLNEED, 1 MiB pieces), then one byte of each page
 * is read through a mapping.  A checker must read at least the metadata
 * and every inode, which on the benchmark's populated images is nearly
 * all of the allocated blocks, so with a cold page cache this time is a
 * floor for any checker on that image.  Used by fsck-bench.sh.
 *
 * Usage: io-floor IMAGE   -> "SECONDS MIB"
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PIECE	(1 << 20)

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Call fn on every data range [start, end) of the file, in order. */
static void for_each_range(int fd, off_t size, void (*fn)(int, off_t, off_t, void *), void *arg)
{
	off_t pos = 0;

	while (pos < size) {
		off_t start = lseek(fd, pos, SEEK_DATA), end;

		if (start < 0)
			break;
		end = lseek(fd, start, SEEK_HOLE);
		if (end < 0)
			end = size;
		fn(fd, start, end, arg);
		pos = end;
	}
}

static void announce(int fd, off_t start, off_t end, void *arg)
{
	(void)arg;
	for (off_t o = start; o < end; o += PIECE)
		posix_fadvise(fd, o, end - o < PIECE ? end - o : PIECE, POSIX_FADV_WILLNEED);
}

struct touch { const volatile uint8_t *map; uint64_t sum, bytes; };

static void touch(int fd, off_t start, off_t end, void *arg)
{
	struct touch *t = arg;

	(void)fd;
	for (off_t o = start; o < end; o += 4096)
		t->sum += t->map[o];
	t->bytes += (uint64_t)(end - start);
}

int main(int argc, char **argv)
{
	struct touch t = { 0 };
	struct stat st;
	double t0;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: io-floor IMAGE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		perror(argv[1]);
		return 1;
	}
	t.map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (t.map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	t0 = now();
	for_each_range(fd, st.st_size, announce, NULL);
	for_each_range(fd, st.st_size, touch, &t);
	printf("%.3f %.0f\n", now() - t0, (double)t.bytes / (1 << 20));
	return 0;
	return 0;
}
