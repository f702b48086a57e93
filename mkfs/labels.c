/*
 * labels.c - SELinux labels for / and /lost+found from a file_contexts
 * file (--file-contexts), when mkfs is built with libselinux.
 */
#include <string.h>

#include "mkfs.h"

#ifdef HAVE_SELINUX
#include <selinux/selinux.h>
#include <selinux/label.h>

static int lookup(struct selabel_handle *h, const char *path, unsigned int mode,
		  char *out, size_t size)
{
	char *ctxstr = NULL;

	if (selabel_lookup(h, &ctxstr, path, (int)mode) < 0)
		return 0;	/* no entry: leave unlabelled */
	if (strlen(ctxstr) + 1 > size) {
		freecon(ctxstr);
		return -1;
	}
	strcpy(out, ctxstr);
	freecon(ctxstr);
	return 0;
}

int mkfs_lookup_labels(struct mkfs_ctx *ctx)
{
	struct selinux_opt opt = { SELABEL_OPT_PATH, ctx->o.file_contexts };
	struct selabel_handle *h;
	int err;

	if (!ctx->o.file_contexts)
		return 0;
	h = selabel_open(SELABEL_CTX_FILE, &opt, 1);
	if (!h) {
		mkfs_err("cannot load SELinux file contexts from %s", ctx->o.file_contexts);
		return -1;
	}
	err = lookup(h, "/", 0040755, ctx->plan.root_label, sizeof(ctx->plan.root_label));
	if (!err && ctx->plan.lpf_ino)
		err = lookup(h, "/lost+found", 0040700, ctx->plan.lpf_label,
			     sizeof(ctx->plan.lpf_label));
	selabel_close(h);
	if (err)
		mkfs_err("SELinux context for / or /lost+found is too long");
	return err;
}
#else
int mkfs_lookup_labels(struct mkfs_ctx *ctx)
{
	if (ctx->o.file_contexts) {
		mkfs_err("--file-contexts needs SELinux support, which this build lacks");
		return -1;
	}
	return 0;
}
#endif
