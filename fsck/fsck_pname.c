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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsck_walk.h"

struct fsck_pname {
	struct fsck_pname *parent;	/* NULL: the directory's path is unknown */
	char *path;			/* the full path once built, else NULL */
	uint32_t refs;
	uint32_t parent_ino;		/* the directory, for "<ino N>" */
	bool root;			/* the root directory itself: "/" */
	char name[];
};

struct fsck_pname *fsck_pname_root(void)
{
	struct fsck_pname *pn = calloc(1, sizeof(*pn) + 1);

	if (!pn)
		return NULL;
	pn->refs = 1;
	pn->root = true;
	return pn;
}

struct fsck_pname *fsck_pname_child(struct fsck_pname *dir, uint32_t dir_ino, const char *name)
{
	size_t len = strlen(name);
	struct fsck_pname *pn = malloc(sizeof(*pn) + len + 1);

	if (!pn)
		return NULL;
	pn->parent = dir;
	pn->path = NULL;
	pn->refs = 1;
	pn->parent_ino = dir_ino;
	pn->root = false;
	memcpy(pn->name, name, len + 1);
	if (dir)
		dir->refs++;
	return pn;
}

void fsck_pname_put(struct fsck_pname *pn)
{
	while (pn && --pn->refs == 0) {
		struct fsck_pname *parent = pn->parent;

		free(pn->path);
		free(pn);
		pn = parent;
	}
}

/* The text the path of the directory above stop's children starts with:
 * "" below the root (each name brings its own "/"), a known path, or
 * "<ino N>" for a directory whose path is unknown. */
static const char *path_start(const struct fsck_pname *top, char *buf, size_t cap)
{
	if (!top->parent) {
		snprintf(buf, cap, "<ino %u>", top->parent_ino);
		return buf;
	}
	return top->parent->root ? "" : top->parent->path;
}

/* The highest pname from pn up whose directory's path is known (or
 * unknowable), and the length of "/name" for every pname on the way. */
static const struct fsck_pname *path_top(const struct fsck_pname *pn, size_t *names_len)
{
	*names_len = 0;
	for (;;) {
		*names_len += 1 + strlen(pn->name);
		if (!pn->parent || pn->parent->root || pn->parent->path)
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

	if (!pn || pn->path)
		return pn ? pn->path : NULL;
	if (pn->root)
		return pn->path = strdup("/");
	top = path_top(pn, &names_len);
	start = path_start(top, head, sizeof(head));
	start_len = strlen(start);
	pn->path = malloc(start_len + names_len + 1);
	if (!pn->path)
		return NULL;
	memcpy(pn->path, start, start_len);
	end = start_len + names_len;
	pn->path[end] = 0;
	for (const struct fsck_pname *p = pn;; p = p->parent) {
		size_t len = strlen(p->name);

		end -= len;
		memcpy(pn->path + end, p->name, len);
		pn->path[--end] = '/';
		if (p == top)
			break;
	}
	return pn->path;
}
