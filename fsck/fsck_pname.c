/*
 * fsck_pname.c - the names of the inodes the walk has queued, and their
 * full paths, built only when something prints one.
 *
 * A queued inode keeps the name of the entry that named it and a counted
 * reference to its directory's pname, not a copy of its full path: queuing
 * costs the length of one name however deep the tree is.  A message or
 * --tree asks fsck_pname_path(), which joins the names up to the nearest
 * directory whose path is already known and keeps the result for the
 * next message about the same inode or about the directory's entries.
 * The strings are those the walk always printed: "/" for the root, "/a/b"
 * below it, and "<ino N>/a" below a directory whose path is unknown (an
 * orphan or an inode found unreachable).
 *
 * Memory: a directory's whole listing waits on the walk's stack at once
 * (100,000 names for a directory of 100,000 entries), so a name costs
 * little: the pnames a directory's entries get are packed into chunks
 * that directory's own pname owns (no allocation of their own, no
 * allocator header, 8-byte alignment), each 20 bytes and its name.  Their
 * references keep the directory's pname, and so its chunks, alive; a
 * pname whose last reference goes only frees what it owns itself (its
 * path, its own chunks), and its bytes go with its directory's chunks.
 * What few pnames need besides (the root mark, the path once built, the
 * chunks of a directory's entries, the directory number of a pname whose
 * directory's path is unknown) lives in a separate record, allocated for
 * those that need it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck_walk.h"

/* A chunk of the pnames of one directory's entries. */
struct pname_chunk {
	struct pname_chunk *next;
	size_t used, cap;		/* bytes of data */
	_Alignas(8) unsigned char data[];
};

/* First and largest chunk sizes: a directory of two entries fits the
 * first chunk (in its pname_more), a directory of 100,000 takes about 70
 * large ones besides. */
#define PNAME_CHUNK_MIN	96u
#define PNAME_CHUNK_MAX	65536u

/* What a pname may need besides its name.  The first PNAME_CHUNK_MIN
 * bytes of its entries' pnames come with it (most directories hold a few
 * entries: one allocation, not two). */
struct pname_more {
	char *path;			/* the full path once built, else NULL */
	struct pname_chunk *chunks;	/* the pnames of its entries past first,
					 * newest first */
	uint32_t parent_ino;		/* the directory, for "<ino N>" */
	bool root;			/* the root directory itself: "/" */
	size_t first_used;
	_Alignas(8) unsigned char first[PNAME_CHUNK_MIN];
};

struct fsck_pname {
	struct fsck_pname *parent;	/* NULL: the directory's path is unknown */
	struct pname_more *more;	/* NULL until needed */
	uint32_t refs;
	char name[];
};

static bool is_root(const struct fsck_pname *pn)
{
	return pn->more && pn->more->root;
}

static const char *known_path(const struct fsck_pname *pn)
{
	return pn->more ? pn->more->path : NULL;
}

static struct pname_more *more_of(struct fsck_pname *pn)
{
	if (!pn->more)
		pn->more = calloc(1, sizeof(*pn->more));
	return pn->more;
}

/* A new chunk of cap bytes, the one the next pnames go to; NULL when out
 * of memory. */
static struct pname_chunk *new_chunk(struct pname_more *m, size_t cap)
{
	struct pname_chunk *c = malloc(sizeof(*c) + cap);

	if (!c)
		return NULL;
	c->next = m->chunks;
	c->used = 0;
	c->cap = cap;
	m->chunks = c;
	return c;
}

/* Room for size bytes among dir's entries' pnames; NULL when out of
 * memory. */
static void *chunk_alloc(struct fsck_pname *dir, size_t size)
{
	struct pname_more *m = more_of(dir);
	struct pname_chunk *c;
	size_t cap;
	void *p;

	if (!m)
		return NULL;
	if (!m->chunks && sizeof(m->first) - m->first_used >= size) {
		p = m->first + m->first_used;
		m->first_used += size;
		return p;
	}
	c = m->chunks;
	if (!c || c->cap - c->used < size) {
		cap = c ? c->cap * 2 : 2 * PNAME_CHUNK_MIN;
		if (cap > PNAME_CHUNK_MAX)
			cap = PNAME_CHUNK_MAX;
		if (cap < size)
			cap = size;
		c = new_chunk(m, cap);
		if (!c)
			return NULL;
	}
	p = c->data + c->used;
	c->used += size;
	return p;
}

void *fsck_pname_reserve(struct fsck_pname *dir, size_t bytes, size_t *cap)
{
	struct pname_more *m = dir ? more_of(dir) : NULL;
	struct pname_chunk *c;

	if (!m || bytes <= PNAME_CHUNK_MAX || bytes > SIZE_MAX - sizeof(*c))
		return NULL;
	c = new_chunk(m, bytes);
	if (!c)
		return NULL;
	*cap = bytes;
	return c->data;
}

size_t fsck_pname_chunk_used(const struct fsck_pname *dir)
{
	return dir && dir->more && dir->more->chunks ? dir->more->chunks->used : 0;
}

struct fsck_pname *fsck_pname_root(void)
{
	struct fsck_pname *pn = calloc(1, sizeof(*pn) + 1);

	if (!pn)
		return NULL;
	pn->refs = 1;
	if (!more_of(pn)) {
		free(pn);
		return NULL;
	}
	pn->more->root = true;
	return pn;
}

struct fsck_pname *fsck_pname_child(struct fsck_pname *dir, uint32_t dir_ino, const char *name)
{
	size_t len = strlen(name);
	/* rounded up to 8 bytes: the next pname of the chunk is aligned */
	size_t size = (offsetof(struct fsck_pname, name) + len + 1 + 7) & ~(size_t)7;
	struct fsck_pname *pn = dir ? chunk_alloc(dir, size) : malloc(size);

	if (!pn)
		return NULL;
	pn->parent = dir;
	pn->more = NULL;
	pn->refs = 1;
	memcpy(pn->name, name, len + 1);
	if (dir) {
		dir->refs++;
	} else if (!more_of(pn)) {
		free(pn);
		return NULL;
	} else {
		pn->more->parent_ino = dir_ino;
	}
	return pn;
}

/* What pn owns: its path, its entries' chunks (every pname in them is
 * gone: each held a reference to pn). */
static void free_more(struct fsck_pname *pn)
{
	struct pname_chunk *c, *next;

	if (!pn->more)
		return;
	free(pn->more->path);
	for (c = pn->more->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(pn->more);
	pn->more = NULL;
}

void fsck_pname_put(struct fsck_pname *pn)
{
	while (pn && --pn->refs == 0) {
		struct fsck_pname *parent = pn->parent;

		free_more(pn);
		if (!parent)
			free(pn);	/* allocated alone; else in parent's chunks */
		pn = parent;
	}
}

/* The text the path of the directory above top's name starts with: ""
 * below the root (each name brings its own "/"), a known path, or
 * "<ino N>" for a directory whose path is unknown. */
static const char *path_start(const struct fsck_pname *top, char *buf, size_t cap)
{
	if (!top->parent) {
		snprintf(buf, cap, "<ino %u>", top->more ? top->more->parent_ino : 0);
		return buf;
	}
	return is_root(top->parent) ? "" : known_path(top->parent);
}

/* The highest pname from pn up whose directory's path is known (or
 * unknowable), and the length of "/name" for every pname on the way. */
static const struct fsck_pname *path_top(const struct fsck_pname *pn, size_t *names_len)
{
	*names_len = 0;
	for (;;) {
		*names_len += 1 + strlen(pn->name);
		if (!pn->parent || is_root(pn->parent) || known_path(pn->parent))
			return pn;
		pn = pn->parent;
	}
}

const char *fsck_pname_path(struct fsck_pname *pn)
{
	char head[32];
	const struct fsck_pname *top;
	const char *start;
	size_t names_len, start_len, end;
	char *path;

	if (!pn || known_path(pn))
		return pn ? known_path(pn) : NULL;
	if (!more_of(pn))
		return NULL;
	if (is_root(pn))
		return pn->more->path = strdup("/");
	top = path_top(pn, &names_len);
	start = path_start(top, head, sizeof(head));
	start_len = strlen(start);
	path = malloc(start_len + names_len + 1);
	if (!path)
		return NULL;
	memcpy(path, start, start_len);
	end = start_len + names_len;
	path[end] = 0;
	for (const struct fsck_pname *p = pn;; p = p->parent) {
		size_t len = strlen(p->name);

		end -= len;
		memcpy(path + end, p->name, len);
		path[--end] = '/';
		if (p == top)
			break;
	}
	pn->more->path = path;
	return path;
}

const char *fsck_pname_name(const struct fsck_pname *pn)
{
	return pn->name;
}

const char *fsck_pname_dir_path(struct fsck_pname *pn)
{
	return pn->parent ? fsck_pname_path(pn->parent) : NULL;
}
