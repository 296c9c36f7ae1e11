// SPDX-License-Identifier: GPL-2.0
/*
 * The common allocator of union inodes: in 2.4 this was the VFS's own inode
 * cache. There is one cache for all members of the union, sized by the
 * union's largest member, and no filesystem has a say in it.
 */
#include <linux/minmax.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "inode_union.h"

static struct kmem_cache *union_inode_cachep;

static void union_inode_init_once(void *object)
{
	struct union_inode *ui = object;

	inode_init_once(&ui->vfs_inode);
}

/* No SLAB_RECLAIM_ACCOUNT: as for embedfs_demo, nothing here is reclaimed. */
int union_inode_cache_init(void)
{
	union_inode_cachep = kmem_cache_create("union_inode_cache",
					       sizeof(struct union_inode), 0,
					       SLAB_ACCOUNT,
					       union_inode_init_once);
	return union_inode_cachep ? 0 : -ENOMEM;
}

/*
 * Once no member of the union has a superblock left and the last
 * ->free_inode has run: the caller waited for those still pending after
 * their RCU grace period (rcu_barrier(), in src/main.c).
 */
void union_inode_cache_exit(void)
{
	kmem_cache_destroy(union_inode_cachep);
}

/**
 * union_inode_alloc - allocate a common inode object
 * @sb: the superblock the inode is for
 * @type: the filesystem type asking, for its allocation accounting
 *
 * The union's contents are the caller's business: a constructed cache
 * hands out objects as the last user left them, not zeroed.
 *
 * Return: the object's struct inode, or NULL.
 */
struct inode *union_inode_alloc(struct super_block *sb,
				struct ipat_fs_type *type)
{
	struct union_inode *ui;

	/*
	 * alloc_inode_sb(), not kmem_cache_alloc(): an inode object must be
	 * allocated for the superblock's memcg-aware inode LRU (5.18 on).
	 */
	ui = alloc_inode_sb(sb, union_inode_cachep, GFP_KERNEL);
	if (!ui)
		return NULL;
	ipat_count_alloc(type, false);
	return &ui->vfs_inode;
}

/**
 * union_inode_free - free a common inode object
 * @type: the filesystem type that allocated it
 * @inode: its struct inode
 *
 * Called from ->free_inode, after an RCU grace period, so no path walker
 * can still be reading the inode (at once only when alloc_inode()'s
 * inode_init_always() failed, before anyone could see the inode).
 */
void union_inode_free(struct ipat_fs_type *type, struct inode *inode)
{
	kmem_cache_free(union_inode_cachep, union_inode(inode));
	ipat_count_free(type, false);
}

/**
 * union_inode_show_layout - the union's size and its largest member's
 * @m: the statistics file of a filesystem in the union
 *
 * The members are listed here one by one, as every member had to be added
 * to 2.4's union by hand, and measured apart from the union: the benchmark
 * checks that what an inode carries beyond struct inode and its owner's
 * member is the largest member's size less that member's, as the article
 * says, rather than taking it for granted.
 */
void union_inode_show_layout(struct seq_file *m)
{
	size_t largest = max3(sizeof_field(struct union_inode, u.unionfs_i),
			      sizeof_field(struct union_inode, u.blockfs_i),
			      sizeof_field(struct union_inode, u.generic_ip));

	seq_printf(m, "union_size: %zu\n", sizeof_field(struct union_inode, u));
	seq_printf(m, "union_largest_member_size: %zu\n", largest);
}
