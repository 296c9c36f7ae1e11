// SPDX-License-Identifier: GPL-2.0
/*
 * voidfs_demo: private inode data allocated separately and linked through
 * inode->i_private, the heir of 2.4's u.generic_ip.
 *
 * The VFS allocates the inode from its own cache; voidfs_demo then makes a
 * second allocation for its data. That one can fail on its own, and every
 * access to the data goes through one more pointer. Below, in the order it
 * happens: the VFS allocates an inode, the private data is attached, both
 * are freed. The last frees run module code after their RCU grace period:
 * src/main.c waits for them before the module goes. There is no cache of
 * its own to make or destroy: kmalloc() serves the data.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "ipat.h"

/**
 * struct voidfs_inode_info - voidfs_demo's private inode data
 * @payload: the private data
 */
struct voidfs_inode_info {
	struct ipat_payload payload;
};

/* Nothing checks that i_private really points to this type: trust only. */
static inline struct voidfs_inode_info *VOIDFS_I(const struct inode *inode)
{
	return inode->i_private;
}

/* NULL only for an inode whose voidfs_attach() failed. */
static struct ipat_payload *voidfs_payload(struct inode *inode)
{
	struct voidfs_inode_info *vi = VOIDFS_I(inode);

	return vi ? &vi->payload : NULL;
}

/*
 * ipat_fs_type::attach, the hook the shared creation path calls:
 * ipat_new_inode() (src/inode.c) calls it right after new_inode() has had
 * the VFS allocate the inode. This is the second allocation. On failure
 * the caller releases the half-made inode with iput(), which reaches
 * voidfs_free_inode() with i_private still NULL.
 *
 * The VFS's inode is counted here, together with the private object, rather
 * than where it was allocated (voidfs_demo has no hook there), so that the
 * live counts stay exact: a failed inode is counted neither way.
 */
static int voidfs_attach(struct inode *inode)
{
	struct voidfs_inode_info *vi;

	/* Charged to the creator's memory cgroup, like the inode itself. */
	vi = kmalloc_obj(*vi, GFP_KERNEL_ACCOUNT);
	if (!vi)
		return -ENOMEM;
	inode->i_private = vi;
	ipat_count_alloc(&voidfs_type, true);
	return 0;
}

/*
 * ->free_inode runs after an RCU grace period (at once only when
 * alloc_inode()'s inode_init_always() failed, before anyone saw the
 * inode), while ->evict_inode runs as soon as the last reference goes. A
 * path walk in RCU mode holds no reference and may still be looking at an
 * inode being evicted, so the object i_private points to must live until
 * here: a ->permission or ->get_link that read the payload in RCU mode
 * would otherwise read freed memory. What the payload only points to, and
 * only methods called with a reference reach, may go at eviction:
 * ipat_evict_inode() frees the extended attributes there, which only the
 * xattr handlers and ->listxattr read, each with a dentry held.
 */
static void voidfs_free_inode(struct inode *inode)
{
	struct voidfs_inode_info *vi = VOIDFS_I(inode);

	if (vi) {
		ipat_count_free(&voidfs_type, true);
		kfree(vi);
	}
	free_inode_nonrcu(inode);
}

static const struct super_operations voidfs_sops = {
	.free_inode	= voidfs_free_inode,
	.evict_inode	= ipat_evict_inode,
	.drop_inode	= inode_just_drop,
	.statfs		= ipat_statfs,
	.show_options	= ipat_show_options,
};

struct ipat_fs_type voidfs_type = {
	.fs_type		= IPAT_FILE_SYSTEM_TYPE("voidfs_demo"),
	.pattern		= "void pointer",
	.magic			= 0x766f6964,	/* "void" */
	.s_op			= &voidfs_sops,
	.payload		= voidfs_payload,
	.attach			= voidfs_attach,
	/* The VFS's own cache: this pattern has none. */
	.inode_object		= "inode_cache",
	.inode_object_size	= sizeof(struct inode),
	.private_object_size	= sizeof(struct voidfs_inode_info),
};
MODULE_ALIAS_FS("voidfs_demo");
