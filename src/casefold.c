// SPDX-License-Identifier: GPL-2.0
/*
 * Case-insensitive directories, where tmpfs has them (6.13 on): a mount
 * made with casefold (the newest UTF-8 the kernel knows) or
 * casefold=utf8-X.Y.Z gets an encoding, and strict_encoding refuses new
 * names that are not valid UTF-8 in a case-insensitive directory. chattr +F
 * on an empty directory makes it one (iflags.c). Names live only in the
 * dcache, so a casefolded lookup is all in the dentry operations below:
 * there is no on-disk name hash to keep, as ext4 and f2fs must.
 */
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/unicode.h>

#include "ipat.h"

#if IPAT_CASEFOLD
/* Every dentry of a mount with an encoding: tmpfs's shmem_ci_dentry_ops. */
static const struct dentry_operations ipat_ci_dentry_ops = {
	.d_hash		= generic_ci_d_hash,
	.d_compare	= generic_ci_d_compare,
};

/**
 * ipat_casefold_load - load the encoding a casefold option names
 * @fc: the mount's context, for the error it logs
 * @version: "utf8-X.Y.Z", or NULL for the newest the kernel has
 * @encoding: where the encoding goes; one already there is an error
 *
 * Return: 0, or -EINVAL with a log line.
 */
int ipat_casefold_load(struct fs_context *fc, char *version,
		       struct unicode_map **encoding)
{
	struct unicode_map *um;
	int v = UTF8_LATEST;

	if (*encoding)
		return invalfc(fc, "casefold given twice");
	if (version) {
		if (strncmp(version, "utf8-", 5))
			return invalfc(fc, "casefold=%s: only utf8-<version>",
				       version);
		v = utf8_parse_version(version + 5);
		if (v < 0)
			return invalfc(fc, "casefold=%s: not a version",
				       version);
	}
	um = utf8_load(v);
	if (IS_ERR(um))
		return invalfc(fc, "casefold: this kernel has no utf8-%u.%u.%u",
			       unicode_major(v), unicode_minor(v),
			       unicode_rev(v));
	*encoding = um;
	return 0;
}

/**
 * ipat_casefold_fill - give a new superblock the encoding its options name
 * @sb: the superblock, before its root dentry is made
 * @fc: the mount's context, for the error it logs
 * @encoding: the encoding loaded, or NULL; the superblock takes it over
 * @strict: strict_encoding was given
 *
 * Return: 0, or -EINVAL for strict_encoding without casefold, as tmpfs.
 */
int ipat_casefold_fill(struct super_block *sb, struct fs_context *fc,
		       struct unicode_map **encoding, bool strict)
{
	if (!*encoding)
		return strict ?
		       invalfc(fc, "strict_encoding needs casefold") : 0;
	sb->s_encoding = *encoding;
	*encoding = NULL;
	/* As tmpfs and ext4 say it; fstests' generic/556 looks for it. */
	pr_info("%s: Using encoding utf8-%u.%u.%u\n", sb->s_type->name,
		unicode_major(sb->s_encoding->version),
		unicode_minor(sb->s_encoding->version),
		unicode_rev(sb->s_encoding->version));
	if (strict)
		sb->s_encoding_flags = SB_ENC_STRICT_MODE_FL;
	set_default_d_op(sb, &ipat_ci_dentry_ops);
	return 0;
}

/* An encoding no superblock took (NULL: none). */
void ipat_casefold_unload(struct unicode_map *encoding)
{
	utf8_unload(encoding);
}

/* After kill_anon_super(): no dentry hashes with the encoding any more. */
void ipat_casefold_put(struct super_block *sb)
{
	utf8_unload(sb->s_encoding);
}
#endif
