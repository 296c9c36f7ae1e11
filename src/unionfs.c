// SPDX-License-Identifier: GPL-2.0
/*
 * unionfs_demo: private inode data in a union, the Linux 2.4 way.
 *
 * The inode is a struct union_inode, allocated by common code from one cache
 * sized by the union's largest member. unionfs_demo allocates nothing per
 * inode itself; its data is its member of the union, u.unionfs_i.
 */
#include <linux/fs.h>
#include <linux/module.h>

#include "ipat.h"
#include "inode_union.h"

static inline struct unionfs_inode_info *UNIONFS_I(struct inode *inode)
{
	return &union_inode(inode)->u.unionfs_i;
}

static struct ipat_payload *unionfs_payload(struct inode *inode)
{
	return &UNIONFS_I(inode)->payload;
}

static struct inode *unionfs_alloc_inode(struct super_block *sb)
{
	return union_inode_alloc(sb, &unionfs_type);
}

static void unionfs_free_inode(struct inode *inode)
{
	union_inode_free(&unionfs_type, inode);
}

static const struct super_operations unionfs_sops = {
	.alloc_inode	= unionfs_alloc_inode,
	.free_inode	= unionfs_free_inode,
	.evict_inode	= ipat_evict_inode,
	.drop_inode	= inode_just_drop,
	.statfs		= ipat_statfs,
	.show_options	= ipat_show_options,
};

struct ipat_fs_type unionfs_type = {
	.fs_type		= IPAT_FILE_SYSTEM_TYPE("unionfs_demo"),
	.pattern		= "union",
	.magic			= 0x756e696f,	/* "unio" */
	.s_op			= &unionfs_sops,
	.payload		= unionfs_payload,
	.inode_object		= "union_inode_cache",
	.inode_object_size	= sizeof(struct union_inode),
	.show_layout		= union_inode_show_layout,
};
MODULE_ALIAS_FS("unionfs_demo");
