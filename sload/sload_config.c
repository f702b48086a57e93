/*
 * sload_config.c - Android's build inputs: fs_config text ("path uid gid
 * mode [capabilities=0x...]" per line, paths relative to the partition
 * root) and file_contexts ("regex [type] context" per line).  Contexts
 * come from libselinux when the build has it; otherwise a built-in matcher
 * follows its rules: an entry without regex characters wins, else the
 * last entry whose anchored regex (and file type, when given) matches.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_SELINUX
#include <selinux/label.h>
#include <selinux/selinux.h>
#endif

#include "f2fs_array.h"
#include "sload.h"

struct fsc_entry {
	char *path;
	uint32_t uid, gid, mode;
	uint64_t caps;
};

struct sload_fs_config {
	struct fsc_entry *e;
	size_t n;
};

static int cmp_fsc(const void *a, const void *b)
{
	return strcmp(((const struct fsc_entry *)a)->path, ((const struct fsc_entry *)b)->path);
}

static const char *strip_slashes(const char *p)
{
	while (*p == '/')
		p++;
	return p;
}

static int parse_fsc_line(char *line, struct fsc_entry *e)
{
	char path[4096], extra[128] = "";
	unsigned int uid, gid, mode;
	int n = sscanf(line, "%4095s %u %u %o %127s", path, &uid, &gid, &mode, extra);
	size_t l;

	if (n < 4)
		return -EINVAL;
	l = strlen(path);
	while (l > 1 && path[l - 1] == '/')
		path[--l] = 0;
	e->path = strdup(strip_slashes(path));
	e->uid = uid;
	e->gid = gid;
	e->mode = mode;
	e->caps = 0;
	if (n == 5 && !strncmp(extra, "capabilities=", 13))
		e->caps = strtoull(extra + 13, NULL, 0);
	return e->path ? 0 : -ENOMEM;
}

int sload_fs_config_load(struct sload_ctx *c, const char *path)
{
	FILE *f = fopen(path, "r");
	struct sload_fs_config *fsc;
	char line[8192];
	size_t cap = 0, lineno = 0;
	int err = 0;

	if (!f)
		return -errno;
	fsc = calloc(1, sizeof(*fsc));
	if (!fsc) {
		fclose(f);
		return -ENOMEM;
	}
	c->fsc = fsc;
	while (!err && fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " \t");

		lineno++;
		if (*s == '#' || *s == '\n' || !*s)
			continue;
		if (F2FS_ARRAY_ROOM(fsc->e, cap, fsc->n + 1, 64)) {
			err = -ENOMEM;
			break;
		}
		err = parse_fsc_line(s, &fsc->e[fsc->n]);
		if (err == -EINVAL)
			snprintf(c->errbuf, sizeof(c->errbuf), "%s:%zu: expected \"path uid gid mode\"",
				 path, lineno);
		if (!err)
			fsc->n++;
	}
	fclose(f);
	if (!err && fsc->n)
		qsort(fsc->e, fsc->n, sizeof(*fsc->e), cmp_fsc);
	return err;
}

void sload_fs_config_free(struct sload_ctx *c)
{
	if (!c->fsc)
		return;
	for (size_t k = 0; k < c->fsc->n; k++)
		free(c->fsc->e[k].path);
	free(c->fsc->e);
	free(c->fsc);
	c->fsc = NULL;
}

bool sload_fs_config_apply(const struct sload_ctx *c, const char *fs_path, bool is_dir,
			   uint32_t *uid, uint32_t *gid, uint32_t *mode, uint64_t *caps)
{
	struct fsc_entry key = { .path = (char *)strip_slashes(fs_path) }, *e;

	(void)is_dir;
	if (!c->fsc || !c->fsc->n)
		return false;
	e = bsearch(&key, c->fsc->e, c->fsc->n, sizeof(key), cmp_fsc);
	if (!e)
		return false;
	*uid = e->uid;
	*gid = e->gid;
	*mode = e->mode;
	*caps = e->caps;
	return true;
}

/* ---- file_contexts ---- */

struct fc_spec {
	char *re_text;
	regex_t re;
	bool literal;
	mode_t type;		/* S_IF* or 0 for any */
	char *context;
};

struct sload_contexts {
#ifdef HAVE_SELINUX
	struct selabel_handle *h;
#endif
	struct fc_spec *s;
	size_t n;
	char *last;		/* the context returned last (libselinux) */
};

static mode_t fc_type(const char *t)
{
	static const struct { const char *s; mode_t m; } map[] = {
		{ "--", S_IFREG }, { "-d", S_IFDIR }, { "-l", S_IFLNK }, { "-c", S_IFCHR },
		{ "-b", S_IFBLK }, { "-p", S_IFIFO }, { "-s", S_IFSOCK },
	};

	for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++)
		if (!strcmp(t, map[k].s))
			return map[k].m;
	return (mode_t)-1;
}

static int parse_fc_line(char *s, struct fc_spec *sp)
{
	char *w[3], *save = NULL, *anchored;
	int n = 0;

	for (char *t = strtok_r(s, " \t\n", &save); t && n < 3; t = strtok_r(NULL, " \t\n", &save))
		w[n++] = t;
	if (n < 2)
		return -EINVAL;
	memset(sp, 0, sizeof(*sp));
	if (n == 3) {
		sp->type = fc_type(w[1]);
		if (sp->type == (mode_t)-1)
			return -EINVAL;
	}
	sp->re_text = strdup(w[0]);
	sp->context = strdup(w[n - 1]);
	sp->literal = strpbrk(w[0], ".^$?*+|[({\\") == NULL;
	anchored = malloc(strlen(w[0]) + 5);
	if (!sp->re_text || !sp->context || !anchored) {
		free(anchored);
		return -ENOMEM;
	}
	sprintf(anchored, "^(%s)$", w[0]);
	n = regcomp(&sp->re, anchored, REG_EXTENDED | REG_NOSUB);
	free(anchored);
	return n ? -EINVAL : 0;
}

static int load_builtin(struct sload_ctx *c, struct sload_contexts *sc, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[8192];
	size_t cap = 0, lineno = 0;
	int err = 0;

	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " \t");

		lineno++;
		if (*s == '#' || *s == '\n' || !*s)
			continue;
		if (F2FS_ARRAY_ROOM(sc->s, cap, sc->n + 1, 64)) {
			err = -ENOMEM;
			break;
		}
		err = parse_fc_line(s, &sc->s[sc->n]);
		if (err == -EINVAL)
			snprintf(c->errbuf, sizeof(c->errbuf), "%s:%zu: bad file_contexts line",
				 path, lineno);
		if (!err)
			sc->n++;
	}
	fclose(f);
	return err;
}

int sload_contexts_load(struct sload_ctx *c, const char *path)
{
	struct sload_contexts *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return -ENOMEM;
	c->sec = sc;
#ifdef HAVE_SELINUX
	if (!c->o.builtin_contexts) {
		struct selinux_opt opt[] = { { SELABEL_OPT_PATH, path } };

		sc->h = selabel_open(SELABEL_CTX_FILE, opt, 1);
		if (sc->h)
			return 0;
	}
#endif
	return load_builtin(c, sc, path);
}

void sload_contexts_free(struct sload_ctx *c)
{
	struct sload_contexts *sc = c->sec;

	if (!sc)
		return;
#ifdef HAVE_SELINUX
	if (sc->h)
		selabel_close(sc->h);
	if (sc->last)
		freecon(sc->last);
#endif
	for (size_t k = 0; k < sc->n; k++) {
		regfree(&sc->s[k].re);
		free(sc->s[k].re_text);
		free(sc->s[k].context);
	}
	free(sc->s);
	free(sc);
	c->sec = NULL;
}

static bool spec_matches(const struct fc_spec *sp, const char *path, uint32_t mode)
{
	if (sp->type && sp->type != (mode & S_IFMT))
		return false;
	if (sp->literal)
		return !strcmp(sp->re_text, path);
	return regexec(&sp->re, path, 0, NULL, 0) == 0;
}

const char *sload_context_of(const struct sload_ctx *c, const char *fs_path, uint32_t mode)
{
	struct sload_contexts *sc = c->sec;
	const char *found = NULL;

	if (!sc)
		return NULL;
#ifdef HAVE_SELINUX
	if (sc->h) {
		char *con = NULL;

		if (sc->last) {
			freecon(sc->last);
			sc->last = NULL;
		}
		if (selabel_lookup(sc->h, &con, fs_path, (int)mode) < 0)
			return NULL;
		sc->last = con;
		return con;
	}
#endif
	for (size_t k = sc->n; k-- > 0 && !found;)
		if (sc->s[k].literal && spec_matches(&sc->s[k], fs_path, mode))
			found = sc->s[k].context;
	for (size_t k = sc->n; k-- > 0 && !found;)
		if (!sc->s[k].literal && spec_matches(&sc->s[k], fs_path, mode))
			found = sc->s[k].context;
	if (found && !strcmp(found, "<<none>>"))
		return NULL;
	return found;
}
