// SPDX-License-Identifier: GPL-2.0
/*
 * What each mount holds under its three limits, max_inodes,
 * max_xattr_bytes and size=: inode.c takes and gives back inode slots,
 * xattr.c charges and gives back bytes, file.c charges and gives back
 * pages, super.c sets the limits and reports them. Everything here is
 * under ipat_sb_info::lock; nothing here calls out.
 */
#include <linux/fs.h>
#include <linux/spinlock.h>

#include "ipat.h"

void ipat_limits_init(struct ipat_sb_info *sbi, const struct ipat_limits *max)
{
	spin_lock_init(&sbi->lock);
	sbi->max_inodes = max->inodes;
	sbi->max_xattr_bytes = max->xattr_bytes;
	sbi->max_blocks = max->blocks;
}

/* Is @max, a size= limit in pages, below @used? 0 is no limit. */
static bool ipat_blocks_below(unsigned long max, unsigned long used)
{
	return max && max < used;
}

/**
 * ipat_limits_change - set new limits, all of them or none
 * @sbi: the mount's state
 * @max: the new limits; only those named in @which are read
 * @which: IPAT_LIMIT_* bits, the limits to change
 * @used: set to what is in use under all three
 *
 * A limit below what is in use now is refused, and then none changes;
 * but max_xattr_bytes may stay as it is (or grow) while forced labels hold
 * more (ipat_force_xattr()), so that repeating the mount's options works.
 * Pages are counted even on a mount without a size limit, so one can be
 * set later (tmpfs refuses that: it counts only under a limit).
 *
 * Return: 0 if set, else the IPAT_LIMIT_* bit of a limit refused.
 */
unsigned int ipat_limits_change(struct ipat_sb_info *sbi,
				const struct ipat_limits *max,
				unsigned int which, struct ipat_limits *used)
{
	bool inodes = which & IPAT_LIMIT_INODES;
	bool xattrs = which & IPAT_LIMIT_XATTR_BYTES;
	bool blocks = which & IPAT_LIMIT_BLOCKS;
	unsigned int refused = 0;

	spin_lock(&sbi->lock);
	used->inodes = sbi->used_inodes;
	used->xattr_bytes = sbi->used_xattr_bytes;
	used->blocks = sbi->used_blocks;
	if (inodes && max->inodes < used->inodes)
		refused = IPAT_LIMIT_INODES;
	else if (xattrs && max->xattr_bytes < used->xattr_bytes &&
		 max->xattr_bytes < sbi->max_xattr_bytes)
		refused = IPAT_LIMIT_XATTR_BYTES;
	else if (blocks && ipat_blocks_below(max->blocks, used->blocks))
		refused = IPAT_LIMIT_BLOCKS;
	/* WRITE_ONCE: ->show_options reads the limits without the lock. */
	if (!refused && inodes)
		WRITE_ONCE(sbi->max_inodes, max->inodes);
	if (!refused && xattrs)
		WRITE_ONCE(sbi->max_xattr_bytes, max->xattr_bytes);
	if (!refused && blocks)
		WRITE_ONCE(sbi->max_blocks, max->blocks);
	spin_unlock(&sbi->lock);
	return refused;
}

/* For statfs(): the limits and what is in use under them, read together. */
void ipat_usage(struct super_block *sb, struct ipat_limits *max,
		struct ipat_limits *used)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);

	spin_lock(&sbi->lock);
	max->inodes = sbi->max_inodes;
	used->inodes = sbi->used_inodes;
	max->xattr_bytes = sbi->max_xattr_bytes;
	used->xattr_bytes = sbi->used_xattr_bytes;
	max->blocks = sbi->max_blocks;
	used->blocks = sbi->used_blocks;
	spin_unlock(&sbi->lock);
}

/**
 * ipat_reserve_slot - take one of the max_inodes slots
 * @sb: the superblock
 *
 * Every inode takes a slot, and so does every hard link beyond an inode's
 * first name, as on tmpfs: each name pins a dentry that is never pruned,
 * so links must not get around the limit.
 *
 * Return: true if a slot was free; ipat_release_slot() gives it back.
 */
bool ipat_reserve_slot(struct super_block *sb)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);
	bool ok;

	spin_lock(&sbi->lock);
	ok = sbi->used_inodes < sbi->max_inodes;
	if (ok)
		sbi->used_inodes++;
	spin_unlock(&sbi->lock);
	return ok;
}

void ipat_release_slot(struct super_block *sb)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);

	spin_lock(&sbi->lock);
	sbi->used_inodes--;
	spin_unlock(&sbi->lock);
}

/**
 * ipat_reserve_inode - count a new inode against max_inodes
 * @sb: the superblock the inode will belong to
 *
 * Return: true if the inode may be created; ipat_release_inode() undoes it.
 */
bool ipat_reserve_inode(struct super_block *sb)
{
	if (!ipat_reserve_slot(sb))
		return false;
	atomic_long_inc(&ipat_type(sb)->stats.inodes);
	return true;
}

void ipat_release_inode(struct super_block *sb)
{
	ipat_release_slot(sb);
	atomic_long_dec(&ipat_type(sb)->stats.inodes);
}

/**
 * ipat_charge_xattr - count extended attribute bytes against max_xattr_bytes
 * @sb: the superblock
 * @bytes: what the attribute costs beyond what it replaces
 *
 * Return: true if they fit; ipat_uncharge_xattr() gives them back.
 */
bool ipat_charge_xattr(struct super_block *sb, size_t bytes)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);
	bool ok;

	spin_lock(&sbi->lock);
	/* Forced labels may have taken use past the limit: nothing fits. */
	ok = sbi->used_xattr_bytes <= sbi->max_xattr_bytes &&
	     bytes <= sbi->max_xattr_bytes - sbi->used_xattr_bytes;
	if (ok)
		sbi->used_xattr_bytes += bytes;
	spin_unlock(&sbi->lock);
	return ok;
}

/**
 * ipat_force_xattr - count extended attribute bytes even past the limit
 * @sb: the superblock
 * @bytes: what the attribute costs
 *
 * For the labels an LSM gives a new inode (ipat_init_security()): they are
 * counted like any attribute, but never make a creation fail.
 * ipat_uncharge_xattr() gives them back.
 */
void ipat_force_xattr(struct super_block *sb, size_t bytes)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);

	spin_lock(&sbi->lock);
	sbi->used_xattr_bytes += bytes;
	spin_unlock(&sbi->lock);
}

void ipat_uncharge_xattr(struct super_block *sb, size_t bytes)
{
	struct ipat_sb_info *sbi = IPAT_SB(sb);

	spin_lock(&sbi->lock);
	sbi->used_xattr_bytes -= bytes;
	spin_unlock(&sbi->lock);
}

/**
 * ipat_charge_blocks - count pages of @inode against the mount's size
 * @inode: the file or symlink the pages are for
 * @pages: how many, charged before they are added to the page cache
 * @force: charge them even past the limit (for a page already there)
 *
 * The mount counts them in used_blocks, and the inode in i_blocks (what
 * stat() reports as st_blocks), both under the mount's lock: a page is
 * counted from its charge until ipat_uncharge_blocks(), after it left the
 * page cache.
 *
 * Return: true if they were charged: they fit under the size= limit, or
 * there is none, or @force.
 */
bool ipat_charge_blocks(struct inode *inode, unsigned long pages, bool force)
{
	struct ipat_sb_info *sbi = IPAT_SB(inode->i_sb);
	bool ok;

	spin_lock(&sbi->lock);
	ok = force || !sbi->max_blocks ||
	     sbi->used_blocks + pages <= sbi->max_blocks;
	if (ok) {
		sbi->used_blocks += pages;
		inode->i_blocks += (blkcnt_t)pages << IPAT_PAGE_SECTORS_SHIFT;
	}
	spin_unlock(&sbi->lock);
	return ok;
}

void ipat_uncharge_blocks(struct inode *inode, unsigned long pages)
{
	struct ipat_sb_info *sbi = IPAT_SB(inode->i_sb);

	spin_lock(&sbi->lock);
	sbi->used_blocks -= pages;
	inode->i_blocks -= (blkcnt_t)pages << IPAT_PAGE_SECTORS_SHIFT;
	spin_unlock(&sbi->lock);
}
