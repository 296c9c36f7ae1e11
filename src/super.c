// SPDX-License-Identifier: GPL-2.0
/*
 * Mounting, mount options and the superblock operations the three
 * filesystems share. Nothing here knows where an inode's private data lives.
 */
#include <linux/bits.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include <linux/user_namespace.h>
#include <linux/uuid.h>

#include "ipat.h"

#define IPAT_DEFAULT_MODE	0755

/* Bits of ipat_options::seen: which options the caller gave. */
#define IPAT_SEEN_MAX_INODES		BIT(0)
#define IPAT_SEEN_MAX_XATTR_BYTES	BIT(1)

/**
 * struct ipat_options - mount options, as parsed
 * @mode: permission bits of the root directory
 * @uid: owner of the root directory
 * @gid: group of the root directory
 * @max_inodes: most inodes the filesystem may hold at once
 * @max_xattr_bytes: most bytes its extended attributes may take at once
 * @seen: IPAT_SEEN_* bits of the options given; a reconfigure changes only
 *	those, as tmpfs does
 */
struct ipat_options {
	umode_t mode;
	kuid_t uid;
	kgid_t gid;
	unsigned long max_inodes;
	unsigned long max_xattr_bytes;
	unsigned int seen;
};

enum ipat_param {
	IPAT_OPT_MODE,
	IPAT_OPT_UID,
	IPAT_OPT_GID,
	IPAT_OPT_MAX_INODES,
	IPAT_OPT_MAX_XATTR_BYTES,
};

static const struct fs_parameter_spec ipat_param_specs[] = {
	fsparam_u32oct("mode", IPAT_OPT_MODE),
	fsparam_u32("uid", IPAT_OPT_UID),
	fsparam_u32("gid", IPAT_OPT_GID),
	fsparam_u64("max_inodes", IPAT_OPT_MAX_INODES),
	fsparam_u64("max_xattr_bytes", IPAT_OPT_MAX_XATTR_BYTES),
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

static int ipat_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct ipat_options *opts = fc->fs_private;
	struct fs_parse_result result;
	kuid_t uid;
	kgid_t gid;
	int opt;

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
		opts->max_inodes = result.uint_64;
		opts->seen |= IPAT_SEEN_MAX_INODES;
		break;
	case IPAT_OPT_MAX_XATTR_BYTES:
		/* 0 is a mount without xattrs; ULONG_MAX is refused as above. */
		if (result.uint_64 >= ULONG_MAX)
			return invalfc(fc, "max_xattr_bytes=%llu is out of range",
				       result.uint_64);
		opts->max_xattr_bytes = result.uint_64;
		opts->seen |= IPAT_SEEN_MAX_XATTR_BYTES;
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

	sbi = kzalloc_obj(*sbi, GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	ipat_limits_init(sbi, opts->max_inodes, opts->max_xattr_bytes);
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
	/* A random id per mount, as tmpfs's: statfs() derives f_fsid from it. */
	uuid_gen(&uuid);
	super_set_uuid(sb, uuid.b, sizeof(uuid));

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
 * Only the two limits can change on a live filesystem, as with tmpfs, and
 * each only when the caller names it: a reconfigure that asks for something
 * else (ro, say) must not touch a limit, which may have changed since the
 * context was made (fspick() makes it long before FSCONFIG_CMD_RECONFIGURE).
 * A limit below what is in use fails the whole reconfigure.
 */
static int ipat_reconfigure(struct fs_context *fc)
{
	struct ipat_sb_info *sbi = IPAT_SB(fc->root->d_sb);
	struct ipat_options *opts = fc->fs_private;
	bool inodes = opts->seen & IPAT_SEEN_MAX_INODES;
	bool xattrs = opts->seen & IPAT_SEEN_MAX_XATTR_BYTES;
	unsigned long used_inodes, used_xattr_bytes;

	if (!ipat_limits_change(sbi, inodes ? &opts->max_inodes : NULL,
				xattrs ? &opts->max_xattr_bytes : NULL,
				&used_inodes, &used_xattr_bytes))
		return 0;
	/* Logged outside the lock: the fs_context log may allocate. */
	if (inodes && opts->max_inodes < used_inodes)
		return invalfc(fc, "max_inodes=%lu is below the %lu in use",
			       opts->max_inodes, used_inodes);
	return invalfc(fc, "max_xattr_bytes=%lu is below the %lu in use",
		       opts->max_xattr_bytes, used_xattr_bytes);
}

static void ipat_free_fc(struct fs_context *fc)
{
	kfree(fc->fs_private);
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
	opts->max_inodes = ipat_default_max_inodes();
	opts->max_xattr_bytes = ipat_default_max_xattr_bytes();

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
	kfree(sb->s_fs_info);
}

/*
 * Like ramfs, no block accounting: the file data is in the page cache with
 * no size limit of its own, so f_blocks, f_bfree and f_bavail stay 0 and
 * an empty mount shows nothing used. (tmpfs counts its pages against its
 * size= limit instead.) f_fsid, from the mount's UUID, tells one mount from
 * another, which fanotify's FAN_REPORT_FID needs.
 */
int ipat_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	unsigned long max_inodes, used_inodes;

	buf->f_type = sb->s_magic;
	buf->f_bsize = PAGE_SIZE;
	buf->f_namelen = NAME_MAX;
	buf->f_fsid = uuid_to_fsid(sb->s_uuid.b);
	ipat_inode_usage(sb, &max_inodes, &used_inodes);
	buf->f_files = max_inodes;
	buf->f_ffree = max_inodes - used_inodes;
	return 0;
}

/*
 * The options as mounted, as tmpfs shows them: what chmod and chown have
 * done to the root directory since is the root's business, not the mount's.
 */
int ipat_show_options(struct seq_file *m, struct dentry *root)
{
	struct ipat_sb_info *sbi = IPAT_SB(root->d_sb);
	unsigned long max_xattr_bytes;

	if (sbi->mode != IPAT_DEFAULT_MODE)
		seq_printf(m, ",mode=%03o", sbi->mode);
	if (!uid_eq(sbi->uid, GLOBAL_ROOT_UID))
		seq_printf(m, ",uid=%u",
			   from_kuid_munged(&init_user_ns, sbi->uid));
	if (!gid_eq(sbi->gid, GLOBAL_ROOT_GID))
		seq_printf(m, ",gid=%u",
			   from_kgid_munged(&init_user_ns, sbi->gid));
	/* Read without the lock: a remount may change them at any time. */
	seq_printf(m, ",max_inodes=%lu", READ_ONCE(sbi->max_inodes));
	max_xattr_bytes = READ_ONCE(sbi->max_xattr_bytes);
	if (max_xattr_bytes != ipat_default_max_xattr_bytes())
		seq_printf(m, ",max_xattr_bytes=%lu", max_xattr_bytes);
	return 0;
}

/**
 * ipat_evict_inode - the shared half of an inode's teardown
 * @inode: the inode leaving memory
 *
 * Frees the payload's extended attributes, giving their bytes back to
 * max_xattr_bytes, and gives back the inode's place under max_inodes. The
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
	clear_inode(inode);
	if (payload)
		ipat_xattrs_free(inode->i_sb, &payload->xattrs);
	ipat_release_inode(inode->i_sb);
}
