/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The union pattern, as in Linux 2.4: one common inode object, allocated by
 * common code, whose union u has a member for every filesystem that wants
 * private data. A filesystem joining the union must edit this shared header,
 * and every inode is as large as the largest member, whoever owns it.
 */
#ifndef _INODE_UNION_H
#define _INODE_UNION_H

#include <linux/fs.h>
#include <linux/rwsem.h>
#include <linux/types.h>

#include "ipat.h"

/**
 * struct unionfs_inode_info - unionfs_demo's member of the union
 * @payload: the private data every filesystem of this project carries
 */
struct unionfs_inode_info {
	struct ipat_payload payload;
};

/**
 * struct blockfs_inode_info - a disk filesystem's member of the union
 * @i_block: block map: 12 direct, one indirect, double and triple block
 * @i_flags: on-disk inode flags
 * @i_dtime: deletion time
 * @i_block_group: block group holding the inode
 * @i_prealloc_block: first block of the preallocation window
 * @i_prealloc_count: blocks left in it
 * @i_next_alloc_block: logical block of the last allocation
 * @i_next_alloc_goal: physical block to try next
 * @i_orphan: link in the superblock's list of unlinked-but-open inodes
 * @truncate_sem: serialises truncation against block allocation
 *
 * No filesystem here uses it. It stands for what filled 2.4's union: the
 * in-memory state of block-based filesystems such as ext2 and ext3, each far
 * larger than what an in-memory filesystem needs. Because it is in the
 * union, every unionfs_demo inode pays for it.
 */
struct blockfs_inode_info {
	__le32 i_block[15];
	u32 i_flags;
	u32 i_dtime;
	u32 i_block_group;
	u32 i_prealloc_block;
	u32 i_prealloc_count;
	u32 i_next_alloc_block;
	u32 i_next_alloc_goal;
	struct list_head i_orphan;
	struct rw_semaphore truncate_sem;
};

/**
 * struct union_inode - the common inode object
 * @vfs_inode: the inode the VFS sees
 * @u: private data, one member per filesystem
 * @u.unionfs_i: unionfs_demo's
 * @u.blockfs_i: a block filesystem's, the largest member
 * @u.generic_ip: for filesystems without a member of their own, which
 *	allocate their data separately (the void pointer pattern's origin)
 *
 * In 2.4 the union was the last field of struct inode itself. Today's
 * struct inode cannot grow one, so the common object is struct inode with
 * the union after it; union_inode() is the only step from one to the other.
 */
struct union_inode {
	struct inode vfs_inode;
	union {
		struct unionfs_inode_info unionfs_i;
		struct blockfs_inode_info blockfs_i;
		void *generic_ip;
	} u;
};

static inline struct union_inode *union_inode(struct inode *inode)
{
	return container_of(inode, struct union_inode, vfs_inode);
}

/* union_inode.c: the common allocator every member of the union uses. */
int union_inode_cache_init(void);
void union_inode_cache_exit(void);
struct inode *union_inode_alloc(struct super_block *sb,
				struct ipat_fs_type *type);
void union_inode_free(struct ipat_fs_type *type, struct inode *inode);
void union_inode_show_layout(struct seq_file *m);

#endif /* _INODE_UNION_H */
