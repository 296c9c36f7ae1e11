// SPDX-License-Identifier: GPL-2.0
/*
 * Mounting, mount options and the superblock operations the three
 * filesystems share. Nothing here knows where an inode's private data lives.
 */
#include <linux/bits.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/user_namespace.h>
#include <linux/uuid.h>

#include "ipat.h"

#define IPAT_DEFAULT_MODE	0755

/**
 * struct ipat_options - mount options, as parsed
 * @mode: permission bits of the root directory
 * @uid: owner of the root directory
 * @gid: group of the root directory
 * @max: the limits: most inodes the filesystem may hold at once, most
 *	bytes its extended attributes may take, most pages its data may take
 * @seen: IPAT_LIMIT_* bits of the limits given; a reconfigure changes only
 *	those, as tmpfs does
 * @encoding: casefold's, loaded; the new superblock takes it over
 * @strict_encoding: refuse new names that are not valid in @encoding
 */
struct ipat_options {
	umode_t mode;
	kuid_t uid;
	kgid_t gid;
	struct ipat_limits max;
	unsigned int seen;
	struct unicode_map *encoding;
	bool strict_encoding;
};

enum ipat_param {
	IPAT_OPT_MODE,
	IPAT_OPT_UID,
	IPAT_OPT_GID,
	IPAT_OPT_MAX_INODES,
	IPAT_OPT_MAX_XATTR_BYTES,
	IPAT_OPT_SIZE,
	IPAT_OPT_NR_BLOCKS,
	IPAT_OPT_CASEFOLD,
	IPAT_OPT_CASEFOLD_VERSION,
	IPAT_OPT_STRICT_ENCODING,
};

static const struct fs_parameter_spec ipat_param_specs[] = {
	fsparam_u32oct("mode", IPAT_OPT_MODE),
	fsparam_u32("uid", IPAT_OPT_UID),
	fsparam_u32("gid", IPAT_OPT_GID),
	fsparam_u64("max_inodes", IPAT_OPT_MAX_INODES),
	fsparam_u64("max_xattr_bytes", IPAT_OPT_MAX_XATTR_BYTES),
	fsparam_string("size", IPAT_OPT_SIZE),
	fsparam_string("nr_blocks", IPAT_OPT_NR_BLOCKS),
#if IPAT_CASEFOLD
	/* tmpfs's: "casefold" alone is the newest UTF-8 the kernel has. */
	fsparam_flag("casefold", IPAT_OPT_CASEFOLD),
	fsparam_string("casefold", IPAT_OPT_CASEFOLD_VERSION),
	fsparam_flag("strict_encoding", IPAT_OPT_STRICT_ENCODING),
#endif
	{}
};

/* Like tmpfs: half of RAM's pages, a limit that stops a runaway creator. */
static unsigned long ipat_default_max_inodes(void)
{
	return totalram_pages() / 2;
}

/*
 * An eighth of RAM: what tmpfs's default nr_inodes lets its inodes and
 * xattrs take together since 6.6 (1 KiB of "inode space" for each of half
 * of RAM's 4 KiB pages). Xattrs are unswappable kernel memory, so a mount
 * must not be able to fill RAM with them. Worked out in 64 bits: on a
 * 32-bit kernel with highmem, RAM's size in bytes does not fit in a long.
 */
static unsigned long ipat_default_max_xattr_bytes(void)
{
	u64 bytes = ((u64)totalram_pages() << PAGE_SHIFT) >> 3;

	return min_t(u64, bytes, ULONG_MAX - 1);
}

/* Like tmpfs: half of RAM's pages for the data of one mount. */
static unsigned long ipat_default_max_blocks(void)
{
	return totalram_pages() / 2;
}

/*
 * The largest size= limit, in pages: one whose size in KiB, as
 * /proc/mounts shows it, fits in an unsigned long. (tmpfs takes up to
 * LONG_MAX pages, and then shows a wrapped size.)
 */
#define IPAT_MAX_BLOCKS_LIMIT	(ULONG_MAX >> (PAGE_SHIFT - 10))

/*
 * size= as tmpfs reads it: bytes, with memparse()'s suffixes (k, m, g,
 * ...), or with % a percentage of RAM; rounded up to whole pages.
 */
static int ipat_parse_size(const char *str, unsigned long *pages)
{
	unsigned long long size;
	char *rest;

	size = memparse(str, &rest);
	if (rest == str)
		return -EINVAL;
	if (*rest == '%') {
		if (check_mul_overflow(size, (u64)totalram_pages() << PAGE_SHIFT,
				       &size))
			return -EINVAL;
		size = div_u64(size, 100);
		rest++;
	}
	if (*rest)
		return -EINVAL;
	size = DIV_ROUND_UP_ULL(size, PAGE_SIZE);
	if (size > IPAT_MAX_BLOCKS_LIMIT)
		return -EINVAL;
	*pages = size;
	return 0;
}

/* nr_blocks=: the same limit in pages, with memparse()'s suffixes too. */
static int ipat_parse_nr_blocks(const char *str, unsigned long *pages)
{
	unsigned long long blocks;
	char *rest;

	blocks = memparse(str, &rest);
	if (*rest || rest == str || blocks > IPAT_MAX_BLOCKS_LIMIT)
		return -EINVAL;
	*pages = blocks;
	return 0;
}

static int ipat_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct ipat_options *opts = fc->fs_private;
	struct fs_parse_result result;
	unsigned long pages;
	kuid_t uid;
	kgid_t gid;
	int opt, err;

	opt = fs_parse(fc, ipat_param_specs, param, &result);
	if (opt < 0)
		return opt;

	switch (opt) {
	case IPAT_OPT_MODE:
		if (result.uint_32 & ~S_IALLUGO)
			return invalfc(fc, "mode=%o has bits beyond %o",
				       result.uint_32, S_IALLUGO);
		opts->mode = result.uint_32;
		break;
	case IPAT_OPT_UID:
		/* A refused value must not replace the one the context has. */
		uid = make_kuid(current_user_ns(), result.uint_32);
		if (!uid_valid(uid))
			return invalfc(fc, "uid=%u does not map to a user",
				       result.uint_32);
		opts->uid = uid;
		break;
	case IPAT_OPT_GID:
		gid = make_kgid(current_user_ns(), result.uint_32);
		if (!gid_valid(gid))
			return invalfc(fc, "gid=%u does not map to a group",
				       result.uint_32);
		opts->gid = gid;
		break;
	case IPAT_OPT_MAX_INODES:
		/*
		 * The root directory alone needs one. There is no "no limit"
		 * value (tmpfs's nr_inodes=0): the largest limit is
		 * ULONG_MAX - 1, and ULONG_MAX, which a 32-bit kernel would
		 * also reach by truncating a larger u64, is refused.
		 */
		if (result.uint_64 < 1 || result.uint_64 >= ULONG_MAX)
			return invalfc(fc, "max_inodes=%llu is out of range",
				       result.uint_64);
		opts->max.inodes = result.uint_64;
		opts->seen |= IPAT_LIMIT_INODES;
		break;
	case IPAT_OPT_MAX_XATTR_BYTES:
		/* 0 is a mount without xattrs; ULONG_MAX is refused as above. */
		if (result.uint_64 >= ULONG_MAX)
			return invalfc(fc, "max_xattr_bytes=%llu is out of range",
				       result.uint_64);
		opts->max.xattr_bytes = result.uint_64;
		opts->seen |= IPAT_LIMIT_XATTR_BYTES;
		break;
	case IPAT_OPT_SIZE:
	case IPAT_OPT_NR_BLOCKS:
		/* One limit, in bytes or in pages; 0 is none, as on tmpfs. */
		err = opt == IPAT_OPT_SIZE ?
		      ipat_parse_size(param->string, &pages) :
		      ipat_parse_nr_blocks(param->string, &pages);
		if (err)
			return invalfc(fc, "%s=%s is out of range", param->key,
				       param->string);
		opts->max.blocks = pages;
		opts->seen |= IPAT_LIMIT_BLOCKS;
		break;
	/* On a remount, as on tmpfs: taken, and changing nothing. */
	case IPAT_OPT_CASEFOLD:
		return ipat_casefold_load(fc, NULL, &opts->encoding);
	case IPAT_OPT_CASEFOLD_VERSION:
		return ipat_casefold_load(fc, param->string, &opts->encoding);
	case IPAT_OPT_STRICT_ENCODING:
		opts->strict_encoding = true;
		break;
	}
	return 0;
}

static int ipat_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct ipat_options *opts = fc->fs_private;
	struct ipat_fs_type *type = ipat_type(sb);
	struct ipat_sb_info *sbi;
	struct inode *root;
	uuid_t uuid;
	int err;

	sbi = kzalloc_obj(*sbi, GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	ipat_limits_init(sbi, &opts->max);
	/* Without the option, the limit is the default the context took. */
	sbi->default_xattr_bytes = opts->seen & IPAT_LIMIT_XATTR_BYTES ?
				   ipat_default_max_xattr_bytes() :
				   opts->max.xattr_bytes;
	sbi->mode = opts->mode;
	sbi->uid = opts->uid;
	sbi->gid = opts->gid;
	sb->s_fs_info = sbi;

	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = type->magic;
	sb->s_op = type->s_op;
	sb->s_export_op = &ipat_export_ops;
	ipat_set_xattr_handlers(sb, ipat_xattr_handlers);
	sb->s_time_gran = 1;
	/* ACLs where tmpfs has them: the VFS leaves the umask to acl.c. */
	if (IS_ENABLED(CONFIG_TMPFS_POSIX_ACL))
		sb->s_flags |= SB_POSIXACL;
	/* A random id per mount, as tmpfs's: statfs() derives f_fsid from it. */
	uuid_gen(&uuid);
	super_set_uuid(sb, uuid.b, sizeof(uuid));
	/* Before the root dentry, which takes the casefold dentry operations. */
	err = ipat_casefold_fill(sb, fc, &opts->encoding,
				 opts->strict_encoding);
	if (err)
		return err;

	root = ipat_new_inode(&nop_mnt_idmap, sb, NULL, S_IFDIR | sbi->mode, 0);
	if (IS_ERR(root))
		return PTR_ERR(root);
	root->i_uid = sbi->uid;
	root->i_gid = sbi->gid;
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

static int ipat_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, ipat_fill_super);
}

/*
 * Only the three limits can change on a live filesystem, as with tmpfs,
 * and each only when the caller names it: a reconfigure that asks for
 * something else (ro, say) must not touch a limit, which may have changed
 * since the context was made (fspick() makes it long before
 * FSCONFIG_CMD_RECONFIGURE). A limit below what is in use fails the whole
 * reconfigure.
 */
static int ipat_reconfigure(struct fs_context *fc)
{
	struct ipat_sb_info *sbi = IPAT_SB(fc->root->d_sb);
	struct ipat_options *opts = fc->fs_private;
	const struct ipat_limits *max = &opts->max;
	struct ipat_limits used;

	/* Logged outside the lock: the fs_context log may allocate. */
	switch (ipat_limits_change(sbi, max, opts->seen, &used)) {
	case 0:
		return 0;
	case IPAT_LIMIT_INODES:
		return invalfc(fc, "max_inodes=%lu is below the %lu in use",
			       max->inodes, used.inodes);
	case IPAT_LIMIT_XATTR_BYTES:
		return invalfc(fc, "max_xattr_bytes=%lu is below the %lu in use",
			       max->xattr_bytes, used.xattr_bytes);
	default:
		return invalfc(fc, "a size of %lu pages is below the %lu in use",
			       max->blocks, used.blocks);
	}
}

static void ipat_free_fc(struct fs_context *fc)
{
	struct ipat_options *opts = fc->fs_private;

	/* Unless a new superblock took it over. */
	if (opts)
		ipat_casefold_unload(opts->encoding);
	kfree(opts);
}

static const struct fs_context_operations ipat_context_ops = {
	.parse_param	= ipat_parse_param,
	.get_tree	= ipat_get_tree,
	.reconfigure	= ipat_reconfigure,
	.free		= ipat_free_fc,
};

int ipat_init_fs_context(struct fs_context *fc)
{
	struct ipat_options *opts;

	opts = kzalloc_obj(*opts, GFP_KERNEL);
	if (!opts)
		return -ENOMEM;

	opts->mode = IPAT_DEFAULT_MODE;
	opts->uid = current_fsuid();
	opts->gid = current_fsgid();
	opts->max.inodes = ipat_default_max_inodes();
	opts->max.xattr_bytes = ipat_default_max_xattr_bytes();
	opts->max.blocks = ipat_default_max_blocks();

	fc->fs_private = opts;
	fc->ops = &ipat_context_ops;
	return 0;
}

void ipat_kill_sb(struct super_block *sb)
{
	/*
	 * Drops the persistent dentries and evicts every inode, which still
	 * needs the counters in sbi.
	 */
	kill_anon_super(sb);
	ipat_casefold_put(sb);
	kfree(sb->s_fs_info);
}

/*
 * As tmpfs: f_blocks is the size= limit in pages, and f_bfree and f_bavail
 * what is left under it; without a limit all three are 0. f_fsid, from the
 * mount's UUID, tells one mount from another, which fanotify's
 * FAN_REPORT_FID needs.
 */
int ipat_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct ipat_limits max, used;

	buf->f_type = sb->s_magic;
	buf->f_bsize = PAGE_SIZE;
	buf->f_namelen = NAME_MAX;
	buf->f_fsid = uuid_to_fsid(sb->s_uuid.b);
	ipat_usage(sb, &max, &used);
	if (max.blocks) {
		buf->f_blocks = max.blocks;
		/* A page charged by force may have passed the limit. */
		if (used.blocks < max.blocks)
			buf->f_bfree = max.blocks - used.blocks;
		buf->f_bavail = buf->f_bfree;
	}
	buf->f_files = max.inodes;
	buf->f_ffree = max.inodes - used.inodes;
	return 0;
}

/*
 * The options as mounted, as tmpfs shows them: what chmod and chown have
 * done to the root directory since is the root's business, not the mount's.
 * max_xattr_bytes is left out when it is the default the mount was made
 * with: a default worked out again here, from RAM as memory hotplug has
 * left it, would show or hide it as RAM came and went (tmpfs's size= and
 * nr_inodes= do that).
 */
int ipat_show_options(struct seq_file *m, struct dentry *root)
{
	struct ipat_sb_info *sbi = IPAT_SB(root->d_sb);
	unsigned long max_xattr_bytes, max_blocks;

	if (sbi->mode != IPAT_DEFAULT_MODE)
		seq_printf(m, ",mode=%03o", sbi->mode);
	if (!uid_eq(sbi->uid, GLOBAL_ROOT_UID))
		seq_printf(m, ",uid=%u",
			   from_kuid_munged(&init_user_ns, sbi->uid));
	if (!gid_eq(sbi->gid, GLOBAL_ROOT_GID))
		seq_printf(m, ",gid=%u",
			   from_kgid_munged(&init_user_ns, sbi->gid));
	/* Read without the lock: a remount may change them at any time. */
	max_blocks = READ_ONCE(sbi->max_blocks);
	/* In KiB, as tmpfs shows it: 0k is a mount without a size limit. */
	if (max_blocks != ipat_default_max_blocks())
		seq_printf(m, ",size=%luk", max_blocks << (PAGE_SHIFT - 10));
	seq_printf(m, ",max_inodes=%lu", READ_ONCE(sbi->max_inodes));
	max_xattr_bytes = READ_ONCE(sbi->max_xattr_bytes);
	if (max_xattr_bytes != sbi->default_xattr_bytes)
		seq_printf(m, ",max_xattr_bytes=%lu", max_xattr_bytes);
	return 0;
}

/**
 * ipat_evict_inode - the shared half of an inode's teardown
 * @inode: the inode leaving memory
 *
 * Frees the file's pages and the payload's extended attributes, giving
 * their pages and bytes back to the mount's size and max_xattr_bytes, and
 * gives back the inode's place under max_inodes. The
 * memory holding the inode and the payload is freed later, by each
 * pattern's own ->free_inode, after an RCU grace period.
 *
 * An inode that new_inode() made is always evicted through here; only one
 * whose inode_init_always() failed inside alloc_inode() is not, and that
 * one reaches ->free_inode at once, before anything was set up.
 */
void ipat_evict_inode(struct inode *inode)
{
	struct ipat_payload *payload = ipat_payload(inode);

	truncate_inode_pages_final(&inode->i_data);
	/* Every page it held left the page cache: all it was charged. */
	if (inode->i_blocks)
		ipat_uncharge_blocks(inode, inode->i_blocks >>
					    IPAT_PAGE_SECTORS_SHIFT);
	clear_inode(inode);
	if (payload)
		ipat_xattrs_free(inode->i_sb, &payload->xattrs);
	ipat_release_inode(inode->i_sb);
}
