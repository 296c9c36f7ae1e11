// SPDX-License-Identifier: GPL-2.0
/*
 * embedfs_demo: struct inode embedded in the private structure, the way
 * ext2, minix and shmem have done it since 2.5.
 *
 * The filesystem allocates the whole object from a cache of its own, one
 * allocation per inode, and maps the VFS's struct inode back to it with
 * container_of() in EMBEDFS_I(). Below, in the order it happens: the
 * cache is made, inodes are allocated and freed, the cache goes.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "ipat.h"

/**
 * struct embedfs_inode_info - an embedfs_demo inode
 * @payload: the private data
 * @vfs_inode: the inode the VFS sees
 *
 * @vfs_inode is deliberately not the first member: a cast from struct inode
 * would then be wrong, and only container_of() gives the right address.
 */
struct embedfs_inode_info {
	struct ipat_payload payload;
	struct inode vfs_inode;
};

static struct kmem_cache *embedfs_inode_cachep;

static inline struct embedfs_inode_info *EMBEDFS_I(struct inode *inode)
{
	return container_of(inode, struct embedfs_inode_info, vfs_inode);
}

static struct ipat_payload *embedfs_payload(struct inode *inode)
{
	return &EMBEDFS_I(inode)->payload;
}

/*
 * A cache constructor runs once per object, when its slab is created, not at
 * every allocation: inode_init_once() sets up what must survive reuse.
 */
static void embedfs_init_once(void *object)
{
	struct embedfs_inode_info *ei = object;

	inode_init_once(&ei->vfs_inode);
}

/*
 * No SLAB_RECLAIM_ACCOUNT: these inodes are pinned by their dentries until
 * unlinked, never reclaimed under memory pressure, so counting them as
 * SReclaimable would overstate what the kernel can free (shmem's inode
 * cache leaves the flag out for the same reason).
 */
static int embedfs_init(void)
{
	embedfs_inode_cachep = kmem_cache_create("embedfs_inode_cache",
						 sizeof(struct embedfs_inode_info),
						 0, SLAB_ACCOUNT,
						 embedfs_init_once);
	return embedfs_inode_cachep ? 0 : -ENOMEM;
}

/* ->alloc_inode: one allocation holds the inode and the private data. */
static struct inode *embedfs_alloc_inode(struct super_block *sb)
{
	struct embedfs_inode_info *ei;

	ei = alloc_inode_sb(sb, embedfs_inode_cachep, GFP_KERNEL);
	if (!ei)
		return NULL;
	ipat_count_alloc(&embedfs_type, false);
	return &ei->vfs_inode;
}

/*
 * ->free_inode: after an RCU grace period, so no path walker can still see
 * the inode; at once only if inode_init_always() failed, before anyone
 * could see it.
 */
static void embedfs_free_inode(struct inode *inode)
{
	kmem_cache_free(embedfs_inode_cachep, EMBEDFS_I(inode));
	ipat_count_free(&embedfs_type, false);
}

/*
 * Once the type is unregistered, its last superblock gone and the last
 * ->free_inode run: the caller waited for those still pending after their
 * RCU grace period (rcu_barrier(), in src/main.c), so that none frees into
 * a destroyed cache.
 */
static void embedfs_exit(void)
{
	kmem_cache_destroy(embedfs_inode_cachep);
}

static const struct super_operations embedfs_sops = {
	.alloc_inode	= embedfs_alloc_inode,
	.free_inode	= embedfs_free_inode,
	.evict_inode	= ipat_evict_inode,
	.drop_inode	= inode_just_drop,
	.statfs		= ipat_statfs,
	.show_options	= ipat_show_options,
};

struct ipat_fs_type embedfs_type = {
	.fs_type		= IPAT_FILE_SYSTEM_TYPE("embedfs_demo"),
	.pattern		= "embedded",
	.magic			= 0x656d6264,	/* "embd" */
	.s_op			= &embedfs_sops,
	.payload		= embedfs_payload,
	.init			= embedfs_init,
	.exit			= embedfs_exit,
	.inode_object		= "embedfs_inode_cache",
	.inode_object_size	= sizeof(struct embedfs_inode_info),
};
MODULE_ALIAS_FS("embedfs_demo");
